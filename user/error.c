// SPDX-License-Identifier: MIT
/*
 * Failure values (npuprof/error.h): filling a struct npuprof_error, the
 * names of the stages, and a failure's plain words, the one wording both
 * the session's log text and msprof's stage words fall back to.
 */
#include <stdio.h>
#include <string.h>

#include <npuprof/error.h>

void npuprof_error_set(struct npuprof_error *e, enum npuprof_stage stage, int err, pid_t pid,
		       const char *object)
{
	e->stage = stage;
	e->err = err;
	e->pid = pid;
	snprintf(e->object, sizeof(e->object), "%s", object ? object : "");
	e->functions[0] = '\0';
}

void npuprof_error_clear(struct npuprof_error *e)
{
	npuprof_error_set(e, NPUPROF_STAGE_NONE, 0, 0, NULL);
}

const char *npuprof_stage_name(enum npuprof_stage stage)
{
	static const char *const names[] = {
		[NPUPROF_STAGE_NONE] = "none",	       [NPUPROF_STAGE_SESSION] = "session",
		[NPUPROF_STAGE_MODULE] = "module",     [NPUPROF_STAGE_DEVICE] = "device",
		[NPUPROF_STAGE_BPF_LOAD] = "bpf-load", [NPUPROF_STAGE_PROCESS] = "process",
		[NPUPROF_STAGE_LIBRARY] = "library",   [NPUPROF_STAGE_SYMBOLS] = "symbols",
		[NPUPROF_STAGE_ATTACH] = "attach",     [NPUPROF_STAGE_CAPTURE] = "capture",
		[NPUPROF_STAGE_OUTPUT] = "output",
	};

	if ((unsigned int)stage >= sizeof(names) / sizeof(names[0]) || !names[stage])
		return "unknown";
	return names[stage];
}

void npuprof_error_words(const struct npuprof_error *e, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", e->object, e->object[0] ? ": " : "", strerror(-e->err));
}
