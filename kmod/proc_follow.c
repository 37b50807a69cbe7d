// SPDX-License-Identifier: GPL-2.0
/*
 * Keep the tgid table (tgid_table.c) in step with the processes its
 * numbers name, through two core scheduler tracepoints:
 *
 *   sched_process_fork  a followed process forked a new process: the child
 *                       joins the parent's session, followed too, before
 *                       it is first woken, so none of its tasks is missed
 *   sched_process_exit  the last thread of a process is exiting: its tgid
 *                       leaves the session that has it, before the parent
 *                       can reap it and the number can be reused
 *
 * The kernel does not export them to modules (no register_trace_sched_*()
 * for us), so they are found by name among the built-in tracepoints, as
 * tp_attach.c finds a built-in driver's; being part of the core kernel
 * they are there from module load to unload.  The probes run for every
 * fork and exit on the system: each costs one lock-free lookup unless a
 * session has the tgid.
 */
#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/sched.h>
#include "npuprof.h"

/*
 * kernel_clone() fires sched_process_fork after copy_process() and before
 * wake_up_new_task(): the child exists but has not run.  @parent is the
 * forking thread (current), whose process is the one followed, also when
 * CLONE_PARENT makes another process the child's parent.  A CLONE_THREAD
 * child has @parent's tgid: a new thread, nothing to do.
 */
static void npuprof_proc_fork_probe(void *data, struct task_struct *parent,
				    struct task_struct *child)
{
	if (child->tgid != parent->tgid)
		npuprof_tgid_fork(parent->tgid, child->tgid);
}

/*
 * do_exit() takes the exiting thread out of signal->live before it fires
 * sched_process_exit, so 0 means no thread of the group runs user code
 * any more: the process is gone, whichever of its threads is last.
 */
static void npuprof_proc_exit_probe(void *data, struct task_struct *p)
{
	if (!atomic_read(&p->signal->live))
		npuprof_tgid_exit(p->tgid);
}

/* Probes must have their tracepoint's prototype: lookup by name checks none. */
static int (*npuprof_fork_register_check)(void (*probe)(void *data,
					struct task_struct *parent,
					struct task_struct *child),
					  void *data) __maybe_unused;
static_assert(__same_type(&register_trace_sched_process_fork,
			  npuprof_fork_register_check));
static int (*npuprof_exit_register_check)(void (*probe)(void *data,
							struct task_struct *p),
					  void *data) __maybe_unused;
static_assert(__same_type(&register_trace_sched_process_exit,
			  npuprof_exit_register_check));

/**
 * struct npuprof_core_tp - a core tracepoint and our probe on it
 * @name:  tracepoint name
 * @probe: our probe
 * @tp:    the tracepoint once found, NULL before
 */
struct npuprof_core_tp {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct npuprof_core_tp npuprof_core_tps[] = {
	{ .name = "sched_process_exit", .probe = npuprof_proc_exit_probe },
	{ .name = "sched_process_fork", .probe = npuprof_proc_fork_probe },
};

static void npuprof_core_tp_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(npuprof_core_tps); i++)
		if (!strcmp(tp->name, npuprof_core_tps[i].name))
			npuprof_core_tps[i].tp = tp;
}

/* Unregister the first @n probes and wait until none runs. */
static void npuprof_core_tp_detach(unsigned int n)
{
	struct npuprof_core_tp *c;

	while (n--) {
		c = &npuprof_core_tps[n];
		tracepoint_probe_unregister(c->tp, c->probe, NULL);
	}
	tracepoint_synchronize_unregister();
}

/**
 * npuprof_follow_init() - attach to the core process tracepoints
 *
 * Return: 0; -ENOENT when the kernel has no such tracepoint (built
 * without CONFIG_TRACEPOINTS or renamed), or the error of
 * tracepoint_probe_register(); nothing is left attached on error.
 */
int npuprof_follow_init(void)
{
	struct npuprof_core_tp *c;
	unsigned int i;
	int ret;

	for_each_kernel_tracepoint(npuprof_core_tp_find, NULL);
	for (i = 0; i < ARRAY_SIZE(npuprof_core_tps); i++) {
		c = &npuprof_core_tps[i];
		ret = c->tp ? tracepoint_probe_register(c->tp, c->probe, NULL) :
			      -ENOENT;
		if (ret) {
			pr_err("npuprof: cannot attach to kernel tracepoint %s: %pe\n",
			       c->name, ERR_PTR(ret));
			npuprof_core_tp_detach(i);
			return ret;
		}
	}
	return 0;
}

/**
 * npuprof_follow_exit() - detach from the core tracepoints
 *
 * On return no CPU runs one of our probes, so no session can be changed
 * by one any more.
 */
void npuprof_follow_exit(void)
{
	npuprof_core_tp_detach(ARRAY_SIZE(npuprof_core_tps));
}
