// SPDX-License-Identifier: MIT
/*
 * msprof's capture preflight (preflight.h): what a refused bpf() or
 * perf_event_open(), or a missing npuprof.ko, leaves of the capture asked
 * for, decided and said before the app is launched or attached.
 *
 * API calls need bpf() (their uprobe programs) and, on kernels without
 * uprobe_multi links (before 6.6), perf_event_open() (one uprobe link per
 * function).  Device tasks need npuprof.ko, or bpf() for the BPF programs
 * on the driver's raw tracepoints (no perf_event_open()).  Following a
 * launched job goes through whichever of the two captures device tasks.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <npuprof/msg.h>
#include <npuprof/session.h>

#include "preflight.h"

/* Why @x was refused, in words, into @buf (@caps: the capabilities it needs). */
static void cause_words(const struct npuprof_access *x, const char *caps, char *buf, size_t size)
{
	if (x->cause == NPUPROF_ACCESS_SECCOMP)
		snprintf(buf, size, "blocked by a seccomp filter");
	else if (x->cause == NPUPROF_ACCESS_CAPS)
		snprintf(buf, size, "%s", caps);
	else if (x->cause == NPUPROF_ACCESS_PARANOID)
		snprintf(buf, size,
			 "kernel.perf_event_paranoid is above 2: this kernel asks for CAP_SYS_ADMIN");
	else
		snprintf(buf, size, "%s", strerror(-x->err));
}

#define BPF_CAPS "msprof has neither CAP_SYS_ADMIN nor CAP_BPF and CAP_PERFMON"
#define PERF_CAPS "msprof has neither CAP_SYS_ADMIN nor CAP_PERFMON"

/*
 * "bpf() is refused (C)", "bpf() and perf_event_open() are refused (C)" or
 * "bpf() is refused (C1) and perf_event_open() is refused (C2)", for the
 * calls whose refusal costs something (@bpf, @perf), into @buf.
 */
static void refused_words(const struct npuprof_capture_access *a, bool bpf, bool perf, char *buf,
			  size_t size)
{
	char cb[96], cp[96];

	cause_words(&a->bpf, BPF_CAPS, cb, sizeof(cb));
	cause_words(&a->perf, PERF_CAPS, cp, sizeof(cp));
	if (bpf && perf && a->bpf.cause == a->perf.cause && a->bpf.err == a->perf.err &&
	    a->bpf.cause != NPUPROF_ACCESS_CAPS)
		snprintf(buf, size, "bpf() and perf_event_open() are refused (%s)", cb);
	else if (bpf && perf)
		snprintf(buf, size, "bpf() is refused (%s) and perf_event_open() is refused (%s)", cb,
			 cp);
	else if (bpf)
		snprintf(buf, size, "bpf() is refused (%s)", cb);
	else
		snprintf(buf, size, "perf_event_open() is refused (%s)", cp);
}

/* "npuprof.ko is not loaded (no /dev/npuprof)" or "... not usable (...)". */
static void kmod_words(int err, char *buf, size_t size)
{
	if (err == -ENOENT || err == -ENODEV || err == -ENXIO)
		snprintf(buf, size, "npuprof.ko is not loaded (no /dev/npuprof)");
	else
		snprintf(buf, size, "npuprof.ko is not usable (/dev/npuprof: %s)", strerror(-err));
}

/* What to do about the refusals of @a (and a missing npuprof.ko: @kmod). */
static void remedy_words(const struct npuprof_capture_access *a, bool perf, bool kmod, char *buf,
			 size_t size)
{
	const char *calls = !perf ? "bpf()" : a->bpf.err ? "bpf() and perf_event_open()"
							  : "perf_event_open()";
	const char *load = kmod ? "load npuprof.ko (modprobe npuprof), or " : "";

	if (!a->bpf.err && a->perf.cause == NPUPROF_ACCESS_PARANOID)
		snprintf(buf, size,
			 "%sgive msprof CAP_SYS_ADMIN, or set kernel.perf_event_paranoid to 2", load);
	else if (a->bpf.cause == NPUPROF_ACCESS_CAPS ||
		 (!a->bpf.err && a->perf.cause == NPUPROF_ACCESS_CAPS))
		snprintf(buf, size, "%sgive msprof CAP_BPF and CAP_PERFMON (a container: --cap-add)",
			 load);
	else
		snprintf(buf, size, "%sallow %s in the seccomp profile, or give the container CAP_BPF and CAP_PERFMON (the default profiles then allow them)",
			 load, calls);
}

int msprof_preflight_judge(const struct msprof_options *o, const struct npuprof_capture_access *a,
			   struct msprof_preflight *pf)
{
	bool want_api = o->ascendcl || o->runtime_api;
	bool want_tasks = o->task_time != MSPROF_TASK_TIME_OFF;
	bool bpf_ok = !a->bpf.err, kmod_ok = !a->kmod_err;
	bool api_ok = bpf_ok && (a->uprobe_multi || !a->perf.err);
	bool lose_api = want_api && !api_ok, lose_tasks = want_tasks && !kmod_ok && !bpf_ok;
	bool perf_costs = want_api && a->perf.err && !a->uprobe_multi;
	/* attach from a container's pid namespace finds the host's pids with BPF */
	bool pids_lost = !bpf_ok && !a->host_pidns && !o->app_argv;
	char refused[MSPROF_API_OFF_LEN], kmod[96], remedy[320];

	pf->api_off[0] = '\0';
	pf->task_capture = bpf_ok ? NPUPROF_TASK_CAPTURE_AUTO : NPUPROF_TASK_CAPTURE_KMOD;
	/* not root: the session says "needs root", as README's table has it */
	if (!a->root)
		pf->task_capture = NPUPROF_TASK_CAPTURE_AUTO;
	if (!a->root || (!lose_api && !lose_tasks && !pids_lost))
		return 0;
	refused_words(a, !bpf_ok, perf_costs, refused, sizeof(refused));
	if (pids_lost) {
		remedy_words(a, perf_costs, false, remedy, sizeof(remedy));
		npuprof_err("%s: msprof runs in a pid namespace of its own (a container) and finds the host's pid of each --pid through BPF: nothing can be captured; nothing was started: run msprof on the host, or %s",
			    refused, remedy);
		return -EPERM;
	}
	if (want_tasks && !lose_tasks) {
		/* API calls are lost (tasks cannot be while they are kept) */
		snprintf(pf->api_off, sizeof(pf->api_off), "%s", refused);
		remedy_words(a, perf_costs, false, remedy, sizeof(remedy));
		npuprof_warn("%s: API calls are not captured; device tasks are captured through %s; to capture API calls too: %s",
			     refused, kmod_ok ? "npuprof.ko" : "BPF", remedy);
		return 0;
	}
	kmod_words(a->kmod_err, kmod, sizeof(kmod));
	remedy_words(a, perf_costs, want_tasks && !kmod_ok, remedy, sizeof(remedy));
	if (!want_tasks)
		npuprof_err("%s: API calls cannot be captured, and --task-time=off asks for nothing else; nothing was started: %s",
			    refused, remedy);
	else
		npuprof_err("%s and %s: %s can be captured; nothing was started: %s", refused, kmod,
			    want_api ? "neither API calls nor device tasks" : "no device task",
			    remedy);
	return -EPERM;
}

int msprof_preflight_capture(const struct msprof_options *o, struct msprof_preflight *pf)
{
	struct npuprof_capture_access a;

	npuprof_capture_access_probe(NULL, &a);
	return msprof_preflight_judge(o, &a, pf);
}
