// SPDX-License-Identifier: MIT
/*
 * Words for session failures (error_words.h): one function per stage that
 * has words of its own; the rest say "<object>: <strerror>", worded by the
 * library (npuprof_error_words(), also npuprof_session_last_error()'s text).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "error_words.h"

#define NEEDS_ROOT "needs root (CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN): run as root"
#define REFUSED_TO_ROOT                                                                          \
	"permission denied to root: a security module (SELinux, AppArmor, Yama, lockdown) or a "  \
	"user namespace without the capabilities refuses it"
#define KERNEL_LACKS "this kernel lacks what the capture needs (BPF uprobes with BTF)"

static void module_words(const struct npuprof_error *e, pid_t pid, char *buf, size_t size)
{
	switch (e->err) {
	case -ENOENT:
		snprintf(buf, size, "npuprof.ko is not loaded: load it with insmod npuprof.ko (see README)");
		break;
	case -EUSERS:
		snprintf(buf, size,
			 "npuprof.ko has as many capture sessions open as it allows (max_sessions): quit another msprof, or reload npuprof.ko with a larger max_sessions");
		break;
	case -EBUSY:
		snprintf(buf, size,
			 "another msprof already profiles process %d: one msprof per process; quit that one first",
			 (int)pid);
		break;
	case -ENOTTY:
		snprintf(buf, size,
			 "npuprof.ko is older than this msprof and cannot follow a launched job: load the npuprof.ko built with this msprof");
		break;
	default:
		npuprof_error_words(e, buf, size);
	}
}

/* Finding or opening the library the process maps. */
static void library_words(const struct npuprof_error *e, pid_t pid, char *buf, size_t size)
{
	switch (e->err) {
	case -ENOENT:
		if (pid > 0) {
			/* @object names the library when it is not libascendcl.so */
			if (e->object[0])
				snprintf(buf, size,
					 "process %d has no %s mapped: profile an app that uses CANN's runtime, or leave --runtime-api off",
					 (int)pid, e->object);
			else
				snprintf(buf, size,
					 "process %d has no libascendcl.so mapped: profile an app that uses AscendCL (aclInit)",
					 (int)pid);
			break;
		}
		npuprof_error_words(e, buf, size); /* a library named by path is not there */
		break;
	case -ESTALE:
		snprintf(buf, size,
			 "the libascendcl.so that process %d runs (%s) was replaced or deleted on disk, and /proc/%d/map_files is not readable here: run msprof as root (CAP_SYS_ADMIN), or restart the app to profile it",
			 (int)pid, e->object, (int)pid);
		break;
	default:
		snprintf(buf, size, "cannot open the libascendcl.so %s: %s", e->object, strerror(-e->err));
	}
}

/* Resolving the recorded functions in the library's ELF symbols. */
static void symbols_words(const struct npuprof_error *e, char *buf, size_t size)
{
	if (e->err != -ENOEXEC)
		snprintf(buf, size, "reading the symbols of %s: %s", e->object, strerror(-e->err));
	else if (e->functions[0])
		snprintf(buf, size,
			 "function missing: %s lacks %s, which every ACL runtime has: not a supported runtime",
			 e->object, e->functions);
	else
		snprintf(buf, size, "%s has no ELF symbol table: not a supported runtime",
			 e->object);
}

static void attach_words(const struct npuprof_error *e, char *buf, size_t size)
{
	if (e->err == -EOPNOTSUPP || e->err == -ENOSYS)
		snprintf(buf, size, KERNEL_LACKS);
	else
		snprintf(buf, size, "attach failed: the kernel refused the probes on %s: %s", e->object,
			 strerror(-e->err));
}

/* Stages where a permission error means "not root". */
static int root_stage(enum npuprof_stage stage)
{
	return stage == NPUPROF_STAGE_MODULE || stage == NPUPROF_STAGE_BPF_LOAD ||
	       stage == NPUPROF_STAGE_PROCESS || stage == NPUPROF_STAGE_LIBRARY ||
	       stage == NPUPROF_STAGE_ATTACH;
}

void msprof_error_words(const struct npuprof_error *e, pid_t pid, char *buf, size_t size)
{
	msprof_error_words_as(e, pid, geteuid() == 0, buf, size);
}

void msprof_error_words_as(const struct npuprof_error *e, pid_t pid, int root, char *buf,
			   size_t size)
{
	if (e->pid > 0)
		pid = e->pid;
	if ((e->err == -EPERM || e->err == -EACCES) && root_stage(e->stage)) {
		if (!root)
			snprintf(buf, size, NEEDS_ROOT);
		else if (e->stage == NPUPROF_STAGE_BPF_LOAD && e->err == -EACCES)
			npuprof_error_words(e, buf, size); /* the verifier's refusal, not a permission */
		else
			snprintf(buf, size, "%s%s" REFUSED_TO_ROOT, e->object,
				 e->object[0] ? ": " : "");
		return;
	}
	switch (e->stage) {
	case NPUPROF_STAGE_MODULE:
		module_words(e, pid, buf, size);
		break;
	case NPUPROF_STAGE_BPF_LOAD:
		if (e->err == -EOPNOTSUPP || e->err == -ENOSYS)
			snprintf(buf, size, KERNEL_LACKS);
		else
			npuprof_error_words(e, buf, size);
		break;
	case NPUPROF_STAGE_PROCESS:
		if (e->err == -ESRCH)
			snprintf(buf, size, "process %d has exited", (int)pid);
		else
			npuprof_error_words(e, buf, size);
		break;
	case NPUPROF_STAGE_LIBRARY:
		library_words(e, pid, buf, size);
		break;
	case NPUPROF_STAGE_SYMBOLS:
		symbols_words(e, buf, size);
		break;
	case NPUPROF_STAGE_ATTACH:
		attach_words(e, buf, size);
		break;
	default: /* SESSION, DEVICE, CAPTURE, OUTPUT, NONE: the object says it */
		npuprof_error_words(e, buf, size);
	}
}

void msprof_untraced_words(const char *untraced, char *buf, size_t size)
{
	snprintf(buf, size,
		 "function missing: the profiled libascendcl.so lacks %s (an older runtime?): calls to them are not captured (info.json lists them as untracedFunctions)",
		 untraced);
}
