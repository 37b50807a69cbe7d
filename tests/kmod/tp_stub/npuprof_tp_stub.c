// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof_tp_stub.ko - test-only stand-in for an NPU driver.
 *
 * Defines the four tracepoints of driver backend "npusim"
 * (include/npuprof/drv/npusim_tp.h: same names and prototype as
 * npusim.ko, different module) and fires them on request, so the VM
 * tests can check npuprof.ko with exact event counts and field values
 * without the simulated NPU.
 *
 * Control: write to /sys/kernel/debug/npuprof_tp_stub/fire
 *   "KINDS COUNT TGID TID [CTX] [long]"
 *   KINDS  bitmask: 1 submit, 2 start, 4 end, 8 stream sync
 *   COUNT  iterations; each fires every selected kind once
 *   CTX    "proc" (default, the writer's context), "irq" (all events
 *          fired from one hrtimer callback, i.e. hardirq context) or
 *          "mixed" (COUNT iterations from the writer plus COUNT more, one
 *          per expiry of a 20 us hrtimer pinned to the writer's CPU, so
 *          hardirq probes interrupt process-context probes)
 *   long   use a 44-byte kernel name (npuprof keeps 31 bytes)
 * Field values of iteration i (0-based), task id n = ++stub sequence:
 *   device 3, stream 7, task_id n, task_type 0 (3 for stream sync),
 *   dev_ts 1000 + n, arg 10 * n, name "stub_kernel" ("" for sync).
 * Reading "seq" returns the last task id used.
 * Reading "probes" returns how many probe functions are registered on each
 * tracepoint now, "SUBMIT START END SYNC\n" (e.g. "1 1 1 1\n"): the
 * tracepoint core's own list, so tests can see exactly when a consumer
 * registers and unregisters.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#define CREATE_TRACE_POINTS
#include "npuprof_tp_stub_trace.h"

#define STUB_NAME "stub_kernel"
#define STUB_LONG_NAME "stub_kernel_with_a_name_longer_than_31_bytes"
#define STUB_MAX_COUNT 1000000U

/**
 * struct stub_fire - one "fire" request
 * @kinds: bitmask of events to fire per iteration
 * @count: iterations
 * @tgid:  tracepoint tgid argument
 * @tid:   tracepoint tid argument
 * @name:  kernel name argument for kernel tasks
 */
struct stub_fire {
	unsigned int kinds;
	unsigned int count;
	u32 tgid;
	u32 tid;
	const char *name;
};

static DEFINE_MUTEX(stub_mutex); /* one fire request at a time */
static atomic_t stub_seq;	 /* last task id */
static struct dentry *stub_dir;
static struct hrtimer stub_timer;
static struct stub_fire stub_pending;
static unsigned int stub_timer_left; /* "mixed": expiries still to fire */
static DECLARE_COMPLETION(stub_done);

static void stub_fire_one(const struct stub_fire *f)
{
	u32 n = atomic_inc_return(&stub_seq);

	if (f->kinds & 1)
		trace_npusim_task_submit(f->tgid, f->tid, 3, 7, n, 0, 1000 + n,
					 10ULL * n, f->name);
	if (f->kinds & 2)
		trace_npusim_task_start(f->tgid, f->tid, 3, 7, n, 0, 1000 + n,
					10ULL * n, f->name);
	if (f->kinds & 4)
		trace_npusim_task_end(f->tgid, f->tid, 3, 7, n, 0, 1000 + n,
				      10ULL * n, f->name);
	if (f->kinds & 8)
		trace_npusim_stream_sync(f->tgid, f->tid, 3, 7, n, 3, 1000 + n,
					 10ULL * n, "");
}

static void stub_fire_all(const struct stub_fire *f)
{
	unsigned int i;

	for (i = 0; i < f->count; i++)
		stub_fire_one(f);
}

static enum hrtimer_restart stub_timer_fn(struct hrtimer *t)
{
	if (stub_timer_left) {
		/* "mixed": one iteration per expiry. */
		stub_fire_one(&stub_pending);
		if (--stub_timer_left) {
			hrtimer_forward_now(t, ns_to_ktime(20000));
			return HRTIMER_RESTART;
		}
	} else {
		stub_fire_all(&stub_pending);
	}
	complete(&stub_done);
	return HRTIMER_NORESTART;
}

/* Fire from hardirq context: one hrtimer expiry fires every event. */
static void stub_fire_irq(const struct stub_fire *f)
{
	stub_pending = *f;
	stub_timer_left = 0;
	reinit_completion(&stub_done);
	hrtimer_start(&stub_timer, ns_to_ktime(1000), HRTIMER_MODE_REL);
	wait_for_completion(&stub_done);
}

/*
 * Fire from process context while a pinned periodic hrtimer fires on the
 * same CPU: probes nest.  The writer stays on this CPU with preemption
 * enabled between iterations, so the timer gets in anywhere.
 */
static void stub_fire_mixed(const struct stub_fire *f)
{
	unsigned int i;

	if (!f->count)
		return;
	stub_pending = *f;
	stub_timer_left = f->count;
	reinit_completion(&stub_done);
	migrate_disable();
	hrtimer_start(&stub_timer, ns_to_ktime(20000), HRTIMER_MODE_REL_PINNED);
	for (i = 0; i < f->count; i++) {
		stub_fire_one(f);
		cond_resched();
	}
	migrate_enable();
	wait_for_completion(&stub_done);
}

static int stub_parse(const char *buf, struct stub_fire *f, int *ctx_kind)
{
	char ctx[8] = "proc", flag[8] = "";
	int n;

	n = sscanf(buf, "%u %u %u %u %7s %7s", &f->kinds, &f->count, &f->tgid,
		   &f->tid, ctx, flag);
	if (n < 4 || !f->kinds || f->kinds > 15 || f->count > STUB_MAX_COUNT)
		return -EINVAL;
	if (!strcmp(ctx, "proc"))
		*ctx_kind = 0;
	else if (!strcmp(ctx, "irq"))
		*ctx_kind = 1;
	else if (!strcmp(ctx, "mixed"))
		*ctx_kind = 2;
	else
		return -EINVAL;
	if (flag[0] && strcmp(flag, "long"))
		return -EINVAL;
	f->name = flag[0] ? STUB_LONG_NAME : STUB_NAME;
	return 0;
}

static ssize_t stub_fire_write(struct file *file, const char __user *ubuf,
			       size_t len, loff_t *ppos)
{
	struct stub_fire f;
	char buf[64];
	int ctx_kind;
	int ret;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	ret = stub_parse(buf, &f, &ctx_kind);
	if (ret)
		return ret;
	mutex_lock(&stub_mutex);
	if (ctx_kind == 1)
		stub_fire_irq(&f);
	else if (ctx_kind == 2)
		stub_fire_mixed(&f);
	else
		stub_fire_all(&f);
	mutex_unlock(&stub_mutex);
	return len;
}

static const struct file_operations stub_fire_fops = {
	.owner = THIS_MODULE,
	.write = stub_fire_write,
	.llseek = noop_llseek,
};

/* Probe functions on @tp now, as its call site would see them. */
static unsigned int stub_probe_count(struct tracepoint *tp)
{
	struct tracepoint_func *f;
	unsigned int n = 0;

	rcu_read_lock_sched();
	f = rcu_dereference_sched(tp->funcs);
	while (f && f[n].func)
		n++;
	rcu_read_unlock_sched();
	return n;
}

static ssize_t stub_probes_read(struct file *file, char __user *ubuf,
				size_t len, loff_t *ppos)
{
	char buf[64];
	int n;

	n = scnprintf(buf, sizeof(buf), "%u %u %u %u\n",
		      stub_probe_count(&__tracepoint_npusim_task_submit),
		      stub_probe_count(&__tracepoint_npusim_task_start),
		      stub_probe_count(&__tracepoint_npusim_task_end),
		      stub_probe_count(&__tracepoint_npusim_stream_sync));
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations stub_probes_fops = {
	.owner = THIS_MODULE,
	.read = stub_probes_read,
	.llseek = default_llseek,
};

static int __init stub_init(void)
{
	hrtimer_init(&stub_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	stub_timer.function = stub_timer_fn;
	stub_dir = debugfs_create_dir("npuprof_tp_stub", NULL);
	debugfs_create_file("fire", 0200, stub_dir, NULL, &stub_fire_fops);
	debugfs_create_atomic_t("seq", 0400, stub_dir, &stub_seq);
	debugfs_create_file("probes", 0400, stub_dir, NULL, &stub_probes_fops);
	return 0;
}

static void __exit stub_exit(void)
{
	debugfs_remove_recursive(stub_dir);
	hrtimer_cancel(&stub_timer);
}

module_init(stub_init);
module_exit(stub_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("npuprof test stub: the NPU driver tracepoints, fired on demand");
