/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces of npusim.ko, the simulated Ascend NPU driver:
 * the per-device and per-file state shared by npusim_main.c (module,
 * parameters, device clock, /dev/davinciN, ioctl dispatch) and
 * npusim_stream.c (streams, tasks, the timers that run them, tracepoints).
 *
 * npusim_bench.c is the benchmark hook: writing "COUNT" or "COUNT RATE"
 * to /sys/kernel/debug/npusim/bench fires npusim_task_end COUNT times from
 * the writer's context on its CPU (with the writer's tgid/tid), flat out
 * or paced to RATE events/s; the write returns when done.  That file's
 * banner has the argument values, pacing and limits.
 */
#ifndef NPUSIM_H
#define NPUSIM_H

#include <linux/atomic.h>
#include <linux/idr.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/types.h>

struct platform_device;

#include "npusim_ioctl.h"

/* Most devices the module creates (devices= parameter). */
#define NPUSIM_MAX_DEVICES 8
/* Most streams open at once on one device. */
#define NPUSIM_MAX_STREAMS 1024
/* Most tasks queued on one stream, like a device's submission queue. */
#define NPUSIM_MAX_QUEUED 65536

/* Bits of a task id (module parameter task_id_bits, 8..32; default 16). */
extern unsigned int npusim_task_id_bits;
/* Longest task a caller may queue, ns; keeps end times far from overflow. */
#define NPUSIM_MAX_TASK_NS (3600ULL * NSEC_PER_SEC)

/**
 * struct npusim_dev - one simulated NPU (/dev/davinci<id>)
 * @id:         device id, N of /dev/davinciN
 * @pdev:       its parent, platform device KBUILD_MODNAME.@id, bound to
 *              the module's platform driver
 * @misc:       its character device
 * @name:       "davinciN", the node name
 * @task_seq:   tasks handed out on this device, from 1; a task's id is
 *              the low npusim_task_id_bits bits of its number, so ids
 *              wrap and are reused, as a real Ascend task id (16 bits)
 * @stream_ida: stream ids in use on this device, from 0
 */
struct npusim_dev {
	u32 id;
	struct platform_device *pdev;
	struct miscdevice misc;
	char name[16];
	atomic_t task_seq;
	struct ida stream_ida;
};

/**
 * struct npusim_file - state of one open file descriptor of a device
 * @dev:     the device it was opened on
 * @lock:    serializes changes to @streams (create, destroy, submit)
 * @streams: struct npusim_stream.node of the streams this fd created
 */
struct npusim_file {
	struct npusim_dev *dev;
	struct mutex lock;
	struct list_head streams;
};

/* Task timing parameters, in ns and MB/s (MB = 1e6 bytes). */
extern unsigned int npusim_memcpy_bw_mbps;
extern unsigned long long npusim_memcpy_latency_ns;
extern unsigned long long npusim_event_ns;

/**
 * npusim_dev_ts() - device clock count at a host time
 * @host_ns: host CLOCK_MONOTONIC time in ns, not before module load
 *
 * Return: the device clock (dev_freq_hz counts per second, running
 * drift_ppm fast, starting at dev_offset when the module loaded).
 */
u64 npusim_dev_ts(u64 host_ns);

int npusim_stream_create(struct npusim_file *nf, u32 *stream_id);
int npusim_stream_destroy(struct npusim_file *nf, u32 stream_id);
int npusim_stream_submit(struct npusim_file *nf,
			 struct npusim_task_req *req);
int npusim_stream_sync(struct npusim_file *nf, u32 stream_id);
void npusim_file_release_streams(struct npusim_file *nf);

#ifdef NPUSIM_FLAVOUR_ASCEND
/* ascendsim.ko has no task end tracepoint to benchmark: no hook. */
static inline void npusim_bench_init(void) {}
static inline void npusim_bench_exit(void) {}
#else
void npusim_bench_init(void);
void npusim_bench_exit(void);
#endif

#endif /* NPUSIM_H */
