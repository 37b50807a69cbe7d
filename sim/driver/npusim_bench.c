// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark hook of npusim.ko: fires the task end tracepoint
 * (npusim_task_end; npustub_task_exec_end in npustub.ko) on demand, from the writer's context on the writer's CPU, so benchmarks
 * can measure what one driver event costs each consumer attached to it
 * (bench/p2_driver_event.sh), how fast the capture path drains
 * (P3) and where it starts losing records (P4).
 *
 * Control: write to /sys/kernel/debug/npusim/bench (root only; the
 * directory is named after the module, npustub/ in npustub.ko)
 *   "COUNT"       fire COUNT events as fast as possible
 *   "COUNT RATE"  fire COUNT events paced to RATE events/s (0: unpaced)
 * COUNT is 1..NPUSIM_BENCH_MAX_COUNT, RATE 0..NPUSIM_BENCH_MAX_RATE.  The
 * write returns once all COUNT events fired (the written length), or
 * -EINTR when a signal arrived first (the events fired so far still count
 * in the total below).  Pin the writer to choose the CPU:
 *   taskset -c 1 sh -c 'echo 1000000 > /sys/kernel/debug/npusim/bench'
 * Several writers may run at once (one per CPU); they share nothing but
 * the total.  Reading the file gives "fired TOTAL\n", events fired by all
 * writes since the module loaded.
 *
 * Arguments of event i (1-based) of one write: tgid/tid of the writer (so
 * a profiler following the writer's process records it), device 0,
 * stream NPUSIM_BENCH_STREAM, task_id i (u32, wraps), task type kernel,
 * dev_ts the device clock at the write's start plus 50 counts per event,
 * arg 10000 (ns, the kernel's nominal run time), name "bench_kernel".
 * dev_ts is synthetic so that the loop costs one tracepoint call per
 * event and nothing else a consumer's figure would have to be cleared of.
 *
 * Pacing is a busy-wait on ktime_get_ns(): before each batch of at most
 * NPUSIM_BENCH_BATCH events the hook computes how many events are due by
 * now (elapsed ns x RATE / 1e9, from the write's start) and fires up to
 * that many, spinning (cpu_relax) while it is ahead.  So the rate holds
 * over any interval longer than a batch, bursts are at most one batch,
 * and a consumer too slow for RATE makes the hook fall behind, never
 * skip events.  Between batches the loop checks for signals and calls
 * cond_resched(), so a long run neither blocks the CPU nor ignores ^C.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>

#include "npusim.h"
#include "npusim_tp.h"

/* Most events one write fires (a few minutes flat out under emulation). */
#define NPUSIM_BENCH_MAX_COUNT 4000000000ULL
/* Highest pacing rate accepted, events/s. */
#define NPUSIM_BENCH_MAX_RATE 1000000000ULL
/* Events fired between two looks at the clock, signals and the scheduler. */
#define NPUSIM_BENCH_BATCH 64
/* Stream id the bench events carry. */
#define NPUSIM_BENCH_STREAM 0
/* Device clock counts between two bench events. */
#define NPUSIM_BENCH_DEV_STEP 50
#define NPUSIM_BENCH_ARG_NS 10000
#define NPUSIM_BENCH_NAME "bench_kernel"

/* /sys/kernel/debug/KBUILD_MODNAME: the bench hook and the device-log counters. */
struct dentry *npusim_debugfs_dir;
static atomic64_t npusim_bench_total;

/**
 * struct npusim_bench_run - one write's progress
 * @tgid:  writer's process
 * @tid:   writer's thread
 * @dev0:  device clock at the start
 * @t0:    host CLOCK_MONOTONIC ns at the start
 * @count: events asked for
 * @rate:  events/s, 0 for unpaced
 * @done:  events fired so far
 */
struct npusim_bench_run {
	u32 tgid;
	u32 tid;
	u64 dev0;
	u64 t0;
	u64 count;
	u64 rate;
	u64 done;
};

/* Fire events @r->done + 1 .. @r->done + @n. */
static void npusim_bench_fire(struct npusim_bench_run *r, unsigned int n)
{
	u64 first = r->done + 1;
	unsigned int i;
	u32 id;

	for (i = 0; i < n; i++) {
		id = (u32)(first + i);
		npusim_tp_end(r->tgid, r->tid, 0, NPUSIM_BENCH_STREAM, id,
			      NPUSIM_TASK_KERNEL,
			      r->dev0 + (first + i) * NPUSIM_BENCH_DEV_STEP,
			      NPUSIM_BENCH_ARG_NS, NPUSIM_BENCH_NAME);
	}
	r->done += n;
}

/* Events due by now: all of them unpaced, else elapsed x rate, capped. */
static u64 npusim_bench_due(const struct npusim_bench_run *r)
{
	u64 due;

	if (!r->rate)
		return r->count;
	/* 128-bit intermediate: hours x 1e9/s does not fit 64 bits. */
	due = mul_u64_u64_div_u64(ktime_get_ns() - r->t0, r->rate,
				  NSEC_PER_SEC) + 1;
	return min(due, r->count);
}

/* Return: 0 when all events fired, -EINTR on a signal. */
static int npusim_bench_loop(struct npusim_bench_run *r)
{
	u64 due;

	while (r->done < r->count) {
		if (signal_pending(current))
			return -EINTR;
		cond_resched();
		due = npusim_bench_due(r);
		if (due <= r->done) {
			cpu_relax();
			continue;
		}
		npusim_bench_fire(r, min_t(u64, due - r->done,
					   NPUSIM_BENCH_BATCH));
	}
	return 0;
}

static int npusim_bench_parse(const char __user *ubuf, size_t len,
			      struct npusim_bench_run *r)
{
	unsigned long long count, rate = 0;
	char buf[48];
	int n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	n = sscanf(buf, "%llu %llu", &count, &rate);
	if (n < 1 || !count || count > NPUSIM_BENCH_MAX_COUNT ||
	    rate > NPUSIM_BENCH_MAX_RATE)
		return -EINVAL;
	r->count = count;
	r->rate = rate;
	return 0;
}

static ssize_t npusim_bench_write(struct file *file, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	struct npusim_bench_run r = { 0 };
	int ret;

	ret = npusim_bench_parse(ubuf, len, &r);
	if (ret)
		return ret;
	r.tgid = task_tgid_nr(current);
	r.tid = task_pid_nr(current);
	r.t0 = ktime_get_ns();
	r.dev0 = npusim_dev_ts(r.t0);
	ret = npusim_bench_loop(&r);
	atomic64_add(r.done, &npusim_bench_total);
	return ret ? ret : len;
}

static ssize_t npusim_bench_read(struct file *file, char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	char buf[40];
	int n;

	n = scnprintf(buf, sizeof(buf), "fired %lld\n",
		      (long long)atomic64_read(&npusim_bench_total));
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations npusim_bench_fops = {
	.owner = THIS_MODULE,
	.write = npusim_bench_write,
	.read = npusim_bench_read,
	.llseek = default_llseek,
};

/**
 * npusim_bench_init() - create /sys/kernel/debug/KBUILD_MODNAME/bench
 *
 * Without debugfs the hook is simply absent: the driver works without it.
 */
void npusim_bench_init(void)
{
	npusim_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("bench", 0600, npusim_debugfs_dir, NULL,
			    &npusim_bench_fops);
}

/** npusim_bench_exit() - remove the hook; no write can be running. */
void npusim_bench_exit(void)
{
	debugfs_remove_recursive(npusim_debugfs_dir);
}
