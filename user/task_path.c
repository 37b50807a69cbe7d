// SPDX-License-Identifier: MIT
/*
 * The session's device-task path and producers (session_int.h): which way
 * device tasks reach the session, npuprof.ko's rings when its device node
 * opens, else the BPF object's task programs on the NPU driver's
 * tracepoints; the host facts that choice reports (lockdown, Secure Boot,
 * the driver found through sysfs or /proc/kallsyms); and opening the BPF
 * object for the runtime-API probes and the task programs.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/acl_trace.h>
#include <npuprof/kring.h>
#include <npuprof/npu_backend.h>

#include "kernel_features.h"
#include "session_int.h"

/*
 * Asked per CPU; a whole number of pages on any kernel, so not rounded
 * (npuprof_acl_trace_ring_size()); info.json "ringBytes" says what was made.
 */
#define SESSION_BPF_RING_BYTES (1u << 20)

/*
 * The task capture mode: @s->opts.task_capture, or when that is AUTO the
 * environment's NPUPROF_TASK_CAPTURE (kmod, bpf, auto; unset: auto).
 * Return: an enum npuprof_task_capture, or -EINVAL for another value.
 */
static int task_capture_mode(struct npuprof_session *s)
{
	const char *env = getenv("NPUPROF_TASK_CAPTURE");
	char what[160];

	if (s->opts.task_capture != NPUPROF_TASK_CAPTURE_AUTO)
		return s->opts.task_capture;
	if (!env || !*env || !strcmp(env, "auto"))
		return NPUPROF_TASK_CAPTURE_AUTO;
	if (!strcmp(env, "kmod"))
		return NPUPROF_TASK_CAPTURE_KMOD;
	if (!strcmp(env, "bpf"))
		return NPUPROF_TASK_CAPTURE_BPF;
	snprintf(what, sizeof(what), "NPUPROF_TASK_CAPTURE=%s: not kmod, bpf or auto", env);
	session_set_error(s, NPUPROF_STAGE_SESSION, -EINVAL, 0, what);
	return -EINVAL;
}

/*
 * Append to @buf what keeps unsigned modules out, when it applies:
 * "; kernel lockdown: <mode>" and "; Secure Boot" (kernel_features.h).
 */
static void add_module_barriers(char *buf, size_t size)
{
	char mode[64];
	size_t n;

	kernel_lockdown_mode(mode, sizeof(mode));
	if (mode[0]) {
		n = strlen(buf);
		snprintf(buf + n, size - n, "; kernel lockdown: %s", mode);
	}
	if (kernel_secure_boot()) {
		n = strlen(buf);
		snprintf(buf + n, size - n, "; Secure Boot");
	}
}

/* Why npuprof.ko is not used: @err of opening its device @dev. */
static void kmod_missing_reason(struct npuprof_session *s, const char *dev, int err)
{
	char *r = s->tasks.reason;
	size_t n;

	if (err == -ENOENT)
		snprintf(r, sizeof(s->tasks.reason), "npuprof.ko not loaded (no %s", dev);
	else
		snprintf(r, sizeof(s->tasks.reason), "npuprof.ko not usable (%s: %s", dev,
			 strerror(-err));
	add_module_barriers(r, sizeof(s->tasks.reason));
	n = strlen(r);
	snprintf(r + n, sizeof(s->tasks.reason) - n, ")");
}

/*
 * npuprof.ko path: which of the driver's tracepoints the module found
 * (NPUPROF_IOC_LIST_TP), as the BPF path reports its attachments.  The
 * driver is the host's backend, or, when sysfs named none, the backend
 * the module found tracepoints of.  A module older than ABI 1.3 lists
 * nothing: tasks.list_err says so and no driver is named.
 */
static void kmod_tracepoints(struct npuprof_session *s)
{
	const struct npu_backend *b = s->host.backend;
	struct npuprof_tp_list list;
	unsigned int i, k;
	int err;

	err = npuprof_kring_list_tp(s->kring, &list);
	if (err) {
		s->tasks.list_err = err;
		return;
	}
	if (!b && list.count)
		b = npu_backend_find(list.tp[0].backend);
	if (!b)
		return;
	s->tasks.driver = b->name;
	for (i = 0; i < NPU_TP_EVENTS; i++) {
		s->tasks.tp_names[i] = b->tp_names[i];
		s->tasks.tp_status[i] = b->tp_names[i] ? -ENOENT : -EOPNOTSUPP;
		for (k = 0; b->tp_names[i] && k < list.count; k++)
			if (!strcmp(list.tp[k].name, b->tp_names[i]))
				s->tasks.tp_status[i] = 0;
	}
}

/*
 * Pick the task path: npuprof.ko's rings if its device opens (AUTO, KMOD),
 * else BPF (AUTO after a missing module, or BPF asked for).  Only picks and
 * opens npuprof.ko; the BPF side is loaded by session_open_producers().
 */
static int open_task_path(struct npuprof_session *s)
{
	const char *dev = s->opts.kdev ? s->opts.kdev : "/dev/npuprof";
	int mode = task_capture_mode(s), err;

	if (mode < 0)
		return mode;
	if (mode == NPUPROF_TASK_CAPTURE_BPF) {
		s->tasks.path = NPUPROF_TASK_PATH_BPF;
		snprintf(s->tasks.reason, sizeof(s->tasks.reason), "%s",
			 s->opts.task_capture ? "BPF capture asked for" : "NPUPROF_TASK_CAPTURE=bpf");
		return 0;
	}
	err = npuprof_kring_open(s->opts.kdev, &s->kring);
	if (!err) {
		s->tasks.path = NPUPROF_TASK_PATH_KMOD;
		snprintf(s->tasks.reason, sizeof(s->tasks.reason), "npuprof.ko loaded");
		kmod_tracepoints(s);
		return 0;
	}
	if (mode == NPUPROF_TASK_CAPTURE_KMOD || (err != -ENOENT && err != -ENODEV && err != -ENXIO)) {
		session_set_error(s, NPUPROF_STAGE_MODULE, err, 0, dev);
		return err;
	}
	s->tasks.path = NPUPROF_TASK_PATH_BPF;
	kmod_missing_reason(s, dev, err);
	return 0;
}

/* BPF path: attach the task programs to the driver's tracepoints. */
static int attach_task_programs(struct npuprof_session *s, const struct npu_backend *drv)
{
	int n;

	s->tasks.driver = drv->name;
	memcpy(s->tasks.tp_names, drv->tp_names, sizeof(s->tasks.tp_names));
	n = npuprof_acl_trace_attach_tasks(s->acl, drv->tp_names, s->tasks.tp_status);
	if (n < 0) {
		session_set_error(s, NPUPROF_STAGE_ATTACH, n, 0, "the BPF task programs");
		return n;
	}
	return 0;
}

/*
 * The known driver whose task tracepoints this kernel has, judged by its
 * submit tracepoint's "__tracepoint_<name>" symbol in /proc/kallsyms (a
 * module's tracepoints are listed there while it is loaded; names only,
 * no address needed).  For a driver sysfs does not name: a device node
 * with no bound parent device (a misc device registered without a parent)
 * has no driver/module link.  The names carry the driver's prefix, so one
 * cannot be taken for another's.  NULL when none is there.
 */
static const struct npu_backend *backend_by_tracepoint(void)
{
	const struct npu_backend *const *list, *found = NULL;
	unsigned int n, i;
	char line[512], sym[256];
	FILE *f;

	list = npu_backend_list(&n);
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %255s", sym) != 1 || strncmp(sym, "__tracepoint_", 13))
			continue;
		for (i = 0; i < n && !found; i++)
			if (list[i]->tp_names[0] && !strcmp(sym + 13, list[i]->tp_names[0]))
				found = list[i];
	}
	fclose(f);
	return found;
}

/*
 * The NPU driver and devices: as npu_host_detect() finds them through
 * sysfs, or, when devices exist but sysfs names no module for them, the
 * known driver whose tracepoints the kernel has; else, when the owner is
 * a module no backend names, the driver whose /proc directory exists.  An unreadable /dev
 * leaves no devices: capture still runs, without clock pairs.
 */
/*
 * The known driver that made its own directory below /proc
 * (npu_backend.proc_probe): the real Ascend driver's /proc/trs_core, when
 * its device nodes belong to a module npuprof has no name for.  NULL when
 * none did.
 */
static const struct npu_backend *backend_by_proc(void)
{
	const struct npu_backend *const *list;
	char path[256];
	unsigned int n, i;

	list = npu_backend_list(&n);
	for (i = 0; i < n; i++) {
		if (!list[i]->proc_probe)
			continue;
		snprintf(path, sizeof(path), "/proc/%s", list[i]->proc_probe);
		if (!access(path, F_OK))
			return list[i];
	}
	return NULL;
}

void session_find_host(struct npuprof_session *s)
{
	npu_host_detect(&s->host, NULL, NULL);
	if (!s->host.backend && s->host.nr_devices && !s->host.owner[0])
		s->host.backend = backend_by_tracepoint();
	if (!s->host.backend && s->host.nr_devices)
		s->host.backend = backend_by_proc();
}

/*
 * Whether device task submits come from the halSqTaskSend() uprobe:
 * asked for (opts.submits 1), or by default when the host's driver is one
 * whose tracepoints see no submit (npu_backend.device_log); only with
 * device task capture on.
 */
static bool want_submits(const struct npuprof_session *s)
{
	const struct npu_backend *drv = s->host.backend;

	if (!s->opts.task_time || s->opts.submits < 0)
		return false;
	return s->opts.submits > 0 || (drv && drv->device_log);
}

/*
 * npuprof.ko's rings and the BPF object, shared by every member (also
 * for the halSqTaskSend() uprobe alone, on npuprof.ko's task path).  The
 * BPF task programs need the tracepoints of the host's driver (session_find_host());
 * with none known the BPF path captures no task (and
 * npuprof_session_task_capture() has no driver).
 */
int session_open_producers(struct npuprof_session *s)
{
	const struct npu_backend *drv = s->host.backend;
	struct npuprof_acl_trace_opts ao = { .ring_bytes = SESSION_BPF_RING_BYTES,
					     .follow = s->opts.follow };
	bool bpf_tasks;
	int err;

	s->api = s->opts.ascendcl || s->opts.runtime_api;
	s->layers = (s->opts.ascendcl ? NPUPROF_LAYER_ACL : 0) |
		    (s->opts.runtime_api ? NPUPROF_LAYER_RUNTIME : 0);
	ao.layers = s->layers;
	if (s->opts.task_time) {
		err = open_task_path(s);
		if (err)
			return err;
	}
	bpf_tasks = s->tasks.path == NPUPROF_TASK_PATH_BPF && drv;
	s->submits = want_submits(s);
	ao.submits = s->submits;
	if (!s->api && !bpf_tasks && !s->submits)
		return 0;
	if (bpf_tasks) {
		ao.task_layout = &drv->layout;
		memcpy(ao.task_layouts, drv->event_layout, sizeof(ao.task_layouts));
	}
	err = npuprof_acl_trace_open_opts(&ao, &s->acl);
	if (err) {
		char what[NPUPROF_TASK_REASON_LEN + 192], mode[64];
		size_t n;

		snprintf(what, sizeof(what), "%s%s%s", bpf_tasks ? s->tasks.reason : "",
			 bpf_tasks ? ", and loading the BPF task programs failed" : "",
			 s->api ? (bpf_tasks ? " (with the runtime-API probes)"
					     : "loading the BPF runtime-API probes")
				: !bpf_tasks ? "loading the BPF halSqTaskSend probe" : "");
		/* lockdown=confidentiality refuses BPF reads of kernel memory */
		kernel_lockdown_mode(mode, sizeof(mode));
		n = strlen(what);
		if (!strcmp(mode, "confidentiality"))
			snprintf(what + n, sizeof(what) - n,
				 " (kernel lockdown: confidentiality forbids BPF programs reading kernel memory, which capture needs)");
		session_set_error(s, NPUPROF_STAGE_BPF_LOAD, err, 0, what);
		return err;
	}
	return bpf_tasks ? attach_task_programs(s, drv) : 0;
}
