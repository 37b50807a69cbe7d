// SPDX-License-Identifier: MIT
/*
 * Description: what msprof's capture preflight (tools/msprof/preflight.c
 * msprof_preflight_judge()) decides and says for each way a container or
 * a host refuses what capture needs, one row per case: the exact line on
 * stderr (one, or none when nothing asked for is lost), the return (0:
 * go on, -EPERM: nothing can be captured, nothing is started), the reason
 * info.json records for API calls not captured, and the task path the
 * session is told to use (npuprof.ko alone when bpf() is refused).
 * Attaching from a container's pid namespace needs bpf() whatever else
 * works: refused before anything is attached.  A
 * user other than root is left to the session's "needs root" words.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/msg.h>
#include <npuprof/session.h>

#include "check.h"
#include "preflight.h"
#include "stderr_text.h"

#define SECCOMP { -EPERM, NPUPROF_ACCESS_SECCOMP }
#define NOCAPS { -EPERM, NPUPROF_ACCESS_CAPS }
#define OK { 0, NPUPROF_ACCESS_OK }
#define SC "blocked by a seccomp filter"

struct row {
	const char *what;
	int api, task_time; /* --ascendcl, --task-time (0: off) */
	struct npuprof_capture_access a;
	int want_rc;
	const char *want_said;
	const char *want_api_off;
	int want_task_capture;
};

static const struct row rows[] = {
	{ "nothing refused", 1, 1, { OK, OK, 0, false, true, true }, 0, "", "", NPUPROF_TASK_CAPTURE_AUTO },
	{ "no module, BPF allowed: the usual BPF path", 1, 1, { OK, OK, -ENOENT, false, true, true }, 0, "", "",
	  NPUPROF_TASK_CAPTURE_AUTO },
	{ "bpf and perf refused, module loaded", 1, 1, { SECCOMP, SECCOMP, 0, false, true, true }, 0,
	  "[WARNING] msprof: bpf() and perf_event_open() are refused (" SC "): API calls are not "
	  "captured; device tasks are captured through npuprof.ko"
	  "; to capture API calls too: allow bpf() and perf_event_open() in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON (the default profiles then allow them)\n",
	  "bpf() and perf_event_open() are refused (" SC ")", NPUPROF_TASK_CAPTURE_KMOD },
	{ "bpf refused, perf allowed, module loaded", 1, 1, { SECCOMP, OK, 0, false, true, true }, 0,
	  "[WARNING] msprof: bpf() is refused (" SC "): API calls are not captured; device tasks "
	  "are captured through npuprof.ko"
	  "; to capture API calls too: allow bpf() in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON (the default profiles then allow them)\n",
	  "bpf() is refused (" SC ")", NPUPROF_TASK_CAPTURE_KMOD },
	{ "bpf refused, no API asked: nothing lost", 0, 1, { SECCOMP, SECCOMP, 0, false, true, true }, 0, "",
	  "", NPUPROF_TASK_CAPTURE_KMOD },
	{ "perf refused before 6.6, no module", 1, 1, { OK, SECCOMP, -ENOENT, false, true, true }, 0,
	  "[WARNING] msprof: perf_event_open() is refused (" SC "): API calls are not captured; "
	  "device tasks are captured through BPF"
	  "; to capture API calls too: allow perf_event_open() in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON (the default profiles then allow them)\n",
	  "perf_event_open() is refused (" SC ")", NPUPROF_TASK_CAPTURE_AUTO },
	{ "perf refused with uprobe_multi links: nothing lost", 1, 1, { OK, SECCOMP, 0, true, true, true }, 0,
	  "", "", NPUPROF_TASK_CAPTURE_AUTO },
	{ "capabilities dropped, module loaded", 1, 1, { NOCAPS, NOCAPS, 0, false, true, true }, 0,
	  "[WARNING] msprof: bpf() is refused (msprof has neither CAP_SYS_ADMIN nor CAP_BPF and "
	  "CAP_PERFMON) and perf_event_open() is refused (msprof has neither CAP_SYS_ADMIN nor "
	  "CAP_PERFMON): API calls are not captured; device tasks are captured through npuprof.ko"
	  "; to capture API calls too: give msprof CAP_BPF and CAP_PERFMON (a container: --cap-add)\n",
	  "bpf() is refused (msprof has neither CAP_SYS_ADMIN nor CAP_BPF and CAP_PERFMON) and "
	  "perf_event_open() is refused (msprof has neither CAP_SYS_ADMIN nor CAP_PERFMON)",
	  NPUPROF_TASK_CAPTURE_KMOD },
	{ "CAP_BPF and CAP_PERFMON kept, perf_event_paranoid 3", 1, 1,
	  { OK, { -EACCES, NPUPROF_ACCESS_PARANOID }, 0, false, true, true }, 0,
	  "[WARNING] msprof: perf_event_open() is refused (kernel.perf_event_paranoid is above 2: "
	  "this kernel asks for CAP_SYS_ADMIN): API calls are not captured; device tasks are "
	  "captured through npuprof.ko"
	  "; to capture API calls too: give msprof CAP_SYS_ADMIN, or set kernel.perf_event_paranoid to 2\n",
	  "perf_event_open() is refused (kernel.perf_event_paranoid is above 2: this kernel asks "
	  "for CAP_SYS_ADMIN)",
	  NPUPROF_TASK_CAPTURE_AUTO },
	{ "perf_event_paranoid 3, --task-time=off", 1, 0,
	  { OK, { -EACCES, NPUPROF_ACCESS_PARANOID }, 0, false, true, true }, -EPERM,
	  "[ERROR] msprof: perf_event_open() is refused (kernel.perf_event_paranoid is above 2: "
	  "this kernel asks for CAP_SYS_ADMIN): API calls cannot be captured, and --task-time=off "
	  "asks for nothing else; nothing was started: give msprof CAP_SYS_ADMIN, or set "
	  "kernel.perf_event_paranoid to 2\n",
	  "", NPUPROF_TASK_CAPTURE_AUTO },
	{ "two other refusals, each its own words", 1, 1,
	  { { -ENOSYS, NPUPROF_ACCESS_OTHER }, { -ENOENT, NPUPROF_ACCESS_OTHER }, 0, false, true, true }, 0,
	  "[WARNING] msprof: bpf() is refused (Function not implemented) and perf_event_open() is "
	  "refused (No such file or directory): API calls are not captured; device tasks are "
	  "captured through npuprof.ko"
	  "; to capture API calls too: allow bpf() and perf_event_open() in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON (the default profiles then allow them)\n",
	  "bpf() is refused (Function not implemented) and perf_event_open() is refused (No such "
	  "file or directory)",
	  NPUPROF_TASK_CAPTURE_KMOD },
	{ "attach from a container's pid namespace, bpf refused", 1, 1,
	  { SECCOMP, SECCOMP, 0, false, true, false }, -EPERM,
	  "[ERROR] msprof: bpf() and perf_event_open() are refused (" SC "): msprof runs in a pid "
	  "namespace of its own (a container) and finds the host's pid of each --pid through BPF: "
	  "nothing can be captured; nothing was started: run msprof on the host, or allow bpf() and "
	  "perf_event_open() in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON "
	  "(the default profiles then allow them)\n",
	  "", NPUPROF_TASK_CAPTURE_KMOD },
	{ "bpf and perf refused, no module", 1, 1, { SECCOMP, SECCOMP, -ENOENT, false, true, true }, -EPERM,
	  "[ERROR] msprof: bpf() and perf_event_open() are refused (" SC ") and npuprof.ko is not "
	  "loaded (no /dev/npuprof): neither API calls nor device tasks can be captured; nothing "
	  "was started: load npuprof.ko (modprobe npuprof), or allow bpf() and perf_event_open() "
	  "in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON (the default "
	  "profiles then allow them)\n",
	  "", NPUPROF_TASK_CAPTURE_KMOD },
	{ "bpf refused, module not usable, no API asked", 0, 1, { SECCOMP, OK, -EACCES, false, true, true },
	  -EPERM,
	  "[ERROR] msprof: bpf() is refused (" SC ") and npuprof.ko is not usable (/dev/npuprof: "
	  "Permission denied): no device task can be captured; nothing was started: load "
	  "npuprof.ko (modprobe npuprof), or allow bpf() in the seccomp profile, or give the "
	  "container CAP_BPF and CAP_PERFMON (the default profiles then allow them)\n",
	  "", NPUPROF_TASK_CAPTURE_KMOD },
	{ "not root: left to the session's \"needs root\"", 1, 1,
	  { NOCAPS, NOCAPS, -EACCES, false, false, true }, 0, "", "", NPUPROF_TASK_CAPTURE_AUTO },
	{ "bpf refused, --task-time=off", 1, 0, { NOCAPS, OK, 0, true, true, true }, -EPERM,
	  "[ERROR] msprof: bpf() is refused (msprof has neither CAP_SYS_ADMIN nor CAP_BPF and "
	  "CAP_PERFMON): API calls cannot be captured, and --task-time=off asks for nothing else; "
	  "nothing was started: give msprof CAP_BPF and CAP_PERFMON (a container: --cap-add)\n",
	  "", NPUPROF_TASK_CAPTURE_KMOD },
};

/* stderr of one msprof_preflight_judge() call into @buf; its return. */
static int judge(const struct row *r, struct msprof_preflight *pf, char *buf, size_t size)
{
	struct msprof_options o = {
		.ascendcl = r->api,
		.task_time = r->task_time ? MSPROF_TASK_TIME_L1 : MSPROF_TASK_TIME_OFF,
	};
	int rc;

	stderr_text_begin();
	rc = msprof_preflight_judge(&o, &r->a, pf);
	stderr_text_end(buf, size);
	return rc;
}

int main(void)
{
	char said[2048];
	size_t i;

	npuprof_msg_set_prog("msprof");
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct msprof_preflight pf;
		int rc = judge(r, &pf, said, sizeof(said));

		fprintf(stderr, "row: %s\n", r->what);
		CHECK_EQ(rc, r->want_rc);
		CHECK_STR(said, r->want_said);
		if (!rc)
			CHECK_STR(pf.api_off, r->want_api_off);
		CHECK_EQ(pf.task_capture, r->want_task_capture);
	}
	return CHECK_DONE();
}
