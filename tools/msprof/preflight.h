/* SPDX-License-Identifier: MIT */
/*
 * What this host lets msprof capture, found before anything is launched
 * or attached (msprof_begin_run()): a container's default seccomp profile
 * or missing capabilities may refuse bpf() or perf_event_open(), and
 * npuprof.ko may be missing.  Each refusal that costs something is said
 * in one line naming what is refused and what still works; the run then
 * captures what it still can, or, when nothing asked for can be
 * captured (also: attaching from a container's pid namespace without
 * bpf(), which finds the host's pids), stops before the app is touched.
 * A user other than root is
 * left to the session, which says msprof needs root.
 */
#ifndef MSPROF_PREFLIGHT_H
#define MSPROF_PREFLIGHT_H

#include <npuprof/capture_access.h>

#include "options.h"

/* Room for the words of msprof_preflight.api_off. */
#define MSPROF_API_OFF_LEN 256

/**
 * struct msprof_preflight - what the session is to do about the refusals
 * @api_off:      why the API calls asked for are not captured ("bpf() is
 *                refused (blocked by a seccomp filter)"), "" when they are;
 *                the session records it in info.json
 * @task_capture: enum npuprof_task_capture for the session: KMOD when bpf()
 *                is refused (the module is the only way), else AUTO
 */
struct msprof_preflight {
	char api_off[MSPROF_API_OFF_LEN];
	int task_capture;
};

/**
 * msprof_preflight_judge() - decide from @a (npuprof_capture_access_probe())
 * what the run of @o can capture, fill @pf and say each refusal that costs
 * something: one [WARNING] line when some of what was asked for is still
 * captured, one [ERROR] line when nothing is.
 * Return: 0, or -EPERM when nothing asked for can be captured.
 */
int msprof_preflight_judge(const struct msprof_options *o, const struct npuprof_capture_access *a,
			   struct msprof_preflight *pf);

/**
 * msprof_preflight_capture() - probe this host (bpf(), perf_event_open(),
 * /dev/npuprof) and judge it, as msprof_preflight_judge()
 */
int msprof_preflight_capture(const struct msprof_options *o, struct msprof_preflight *pf);

#endif /* MSPROF_PREFLIGHT_H */
