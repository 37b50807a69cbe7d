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
#include <linux/spinlock.h>
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

/* Most processes with profiling enabled at once on one device. */
#define NPUSIM_MAX_PROF_PIDS 64

struct npusim_file;
struct ascend_stars_log;

/**
 * struct npusim_devlog - the device scheduler's log (STARS SoC log,
 * profiling channel 50) of one device: a bounded ring in device memory
 * @lock:       protects every field below; taken in the timer callback
 * @ring:       devlog_records records while the channel runs, else NULL
 * @size:       records @ring holds
 * @head:       index of the oldest record
 * @count:      records in @ring
 * @cnt:        the 4-bit running count of the next record
 * @owner:      the open file that started the channel, or NULL
 * @owner_in_ns: the owner started it from inside a pid namespace
 * @dropped:    records the device dropped because @ring was full, since load
 * @pids:       processes (init-namespace tgids) that sent the
 *              profiling-enable task and not its disable
 * @npids:      entries of @pids
 */
struct npusim_devlog {
	spinlock_t lock;
	struct ascend_stars_log *ring;
	u32 size;
	u32 head;
	u32 count;
	u8 cnt;
	struct npusim_file *owner;
	bool owner_in_ns;
	u64 dropped;
	u32 pids[NPUSIM_MAX_PROF_PIDS];
	u32 npids;
};

/**
 * struct npusim_dev - one simulated NPU (/dev/davinci<id>)
 * @id:         device id, N of /dev/davinciN
 * @pdev:       its parent, platform device KBUILD_MODNAME.@id, bound to
 *              the module's platform driver
 * @misc:       its character device
 * @name:       "davinciN", the node name
 * @task_seq:   NPUSIM_IOC_SUBMIT tasks handed out on this device, from 1;
 *              such a task's id is the low npusim_task_id_bits bits of its
 *              number, so ids wrap and are reused, as a real Ascend task id
 *              (16 bits).  NPUSIM_IOC_SQ_SEND tasks carry the runtime's id.
 * @stream_ida: stream ids in use on this device, from 0
 * @files_lock: protects @files
 * @files:      struct npusim_file.dev_node of the device's open files
 * @prof_lock:  serializes channel start and stop
 * @log:        the device log
 */
struct npusim_dev {
	u32 id;
	struct platform_device *pdev;
	struct miscdevice misc;
	char name[16];
	atomic_t task_seq;
	struct ida stream_ida;
	spinlock_t files_lock;
	struct list_head files;
	struct mutex prof_lock;
	struct npusim_devlog log;
};

/**
 * struct npusim_file - state of one open file descriptor of a device
 * @dev:     the device it was opened on
 * @lock:    serializes changes to @streams (create, destroy, submit)
 * @streams: struct npusim_stream.node of the streams this fd created
 * @dev_node: in npusim_dev.files
 * @tgid:    the opener's process id (init namespace): a process's device
 *           context is any file it opened
 */
struct npusim_file {
	struct npusim_dev *dev;
	struct mutex lock;
	struct list_head streams;
	struct list_head dev_node;
	pid_t tgid;
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
int npusim_stream_sq_send(struct npusim_file *nf, u32 stream_id,
			  const struct npusim_sqe *sqes, u32 n);

/* npusim_devlog.c: the device log and its channel (see there). */
void npusim_devlog_task(struct npusim_dev *d, u32 stream, u32 task_id,
			u32 sqe_type, u32 tgid, u64 dev_ts, bool begin);
int npusim_devlog_prof_op(struct npusim_dev *d, u32 op, u32 pid);
void npusim_prof_start(struct npusim_file *nf,
		       struct npusim_prof_start_req *req);
int npusim_prof_stop(struct npusim_file *nf, u32 channel);
int npusim_prof_read(struct npusim_file *nf, struct npusim_prof_read_req *req);
void npusim_prof_release(struct npusim_file *nf);
void npusim_devlog_init(struct npusim_dev *d);
void npusim_devlog_debugfs(struct npusim_dev *devs, unsigned int n);
int npusim_devlog_check_params(void);
extern struct dentry *npusim_debugfs_dir;

#ifdef NPUSIM_FLAVOUR_ASCEND
/*
 * ascendsim.ko has no task end tracepoint to benchmark: no hook, only its
 * debugfs directory, where the device log's counters go.
 */
#include <linux/debugfs.h>
static inline void npusim_bench_init(void)
{
	npusim_debugfs_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
}

static inline void npusim_bench_exit(void)
{
	debugfs_remove_recursive(npusim_debugfs_dir);
}
#else
void npusim_bench_init(void);
void npusim_bench_exit(void);
#endif

#endif /* NPUSIM_H */
