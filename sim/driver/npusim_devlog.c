// SPDX-License-Identifier: GPL-2.0
/*
 * The device log of the simulated NPU: what the real device's task
 * scheduler (STARS) writes to its SoC log, profiling channel 50
 * (STARS_SOC_LOG), and the channel's owner.
 *
 * While the channel runs, every task start and end of the device (or, with
 * devlog_scope=enabled, of the processes that sent the profiling-enable
 * place-holder task) appends one 64-byte struct ascend_stars_log
 * (include/npuprof/drv/ascend_hal_abi.h) to a bounded ring, the stand-in
 * for the device memory the real log sits in: funcType begin or end, the
 * device counter at that instant, taskType = the task's SQE type, a 4-bit
 * running count, and the stream and task id packed as the module parameter
 * log_id_packing says (ascend_stars_log_ids() undoes each).  A full ring
 * drops the new record and counts it (debugfs devlog_dropped, sim-only).
 *
 * The channel is started, read and stopped through sim-internal ioctls
 * (NPUSIM_IOC_PROF_*, the stand-in for the host-device channel that the
 * real libascend_hal.so uses).  One collector per device: the open file
 * that started it owns it until it stops it or is closed, so a collector
 * that crashed releases it with its last file.
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/fs.h>
#include <linux/mm.h> /* kvmalloc_array(), kvfree() before 5.16 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <npuprof/drv/ascend_hal_abi.h>

#include "npusim.h"

static unsigned int devlog_records = 16384;
module_param(devlog_records, uint, 0444);
MODULE_PARM_DESC(devlog_records,
		 "Records the device log ring holds (64 bytes each) while channel 50 runs; a full ring drops and counts (default 16384)");

static char *log_id_packing = "plain";
module_param(log_id_packing, charp, 0444);
MODULE_PARM_DESC(log_id_packing,
		 "How device-log records pack stream and task id: plain, bit12 or swap (ascend_stars_log_ids(); default plain)");

static char *devlog_scope = "device";
module_param(devlog_scope, charp, 0444);
MODULE_PARM_DESC(devlog_scope,
		 "Tasks the device log holds: device (all of the device) or enabled (only processes that sent the profiling-enable task; default device)");

static bool prof_needs_context = true;
module_param(prof_needs_context, bool, 0444);
MODULE_PARM_DESC(prof_needs_context,
		 "Channel start needs the caller to have the device open otherwise (else status 115; default 1)");

static unsigned int prof_stop_ms = 100;
module_param(prof_stop_ms, uint, 0444);
MODULE_PARM_DESC(prof_stop_ms, "How long a channel stop takes, ms (default 100)");

enum npusim_packing { PACK_PLAIN, PACK_BIT12, PACK_SWAP };
static enum npusim_packing npusim_packing;
static bool npusim_scope_enabled;

/**
 * npusim_devlog_check_params() - parse log_id_packing and devlog_scope
 * Return: 0, or -EINVAL for an unknown value (said in the kernel log).
 */
int npusim_devlog_check_params(void)
{
	if (!strcmp(log_id_packing, "plain")) {
		npusim_packing = PACK_PLAIN;
	} else if (!strcmp(log_id_packing, "bit12")) {
		npusim_packing = PACK_BIT12;
	} else if (!strcmp(log_id_packing, "swap")) {
		npusim_packing = PACK_SWAP;
	} else {
		pr_err("log_id_packing=%s: must be plain, bit12 or swap\n", log_id_packing);
		return -EINVAL;
	}
	if (!strcmp(devlog_scope, "device")) {
		npusim_scope_enabled = false;
	} else if (!strcmp(devlog_scope, "enabled")) {
		npusim_scope_enabled = true;
	} else {
		pr_err("devlog_scope=%s: must be device or enabled\n", devlog_scope);
		return -EINVAL;
	}
	if (devlog_records < 1 || devlog_records > (1U << 24)) {
		pr_err("devlog_records=%u: must be 1..%u\n", devlog_records, 1U << 24);
		return -EINVAL;
	}
	return 0;
}

/** npusim_devlog_init() - an idle log for device @d (module load). */
void npusim_devlog_init(struct npusim_dev *d)
{
	spin_lock_init(&d->log.lock);
	mutex_init(&d->prof_lock);
	spin_lock_init(&d->files_lock);
	INIT_LIST_HEAD(&d->files);
}

/* The record's stream and task fields: the inverse of ascend_stars_log_ids(). */
static void npusim_pack_ids(u32 stream, u32 task, u16 *sf, u16 *tf)
{
	switch (npusim_packing) {
	case PACK_BIT12: /* stream bit 12 flags: task's high 3 bits in stream */
		*sf = (stream & 0x7ff) | 0x1000 | (task & 0xe000);
		*tf = task & 0x1fff;
		break;
	case PACK_SWAP: /* bit 13 flags: the low 12 bits swapped */
		*sf = 0x2000 | (task & 0x0fff);
		*tf = (stream & 0x7ff) | (task & 0xf000);
		break;
	default:
		*sf = stream;
		*tf = task;
	}
}

/* Whether @tgid's tasks are logged; log lock held. */
static bool npusim_devlog_wanted(struct npusim_devlog *log, u32 tgid)
{
	u32 i;

	if (!npusim_scope_enabled)
		return true;
	for (i = 0; i < log->npids; i++)
		if (log->pids[i] == tgid)
			return true;
	return false;
}

/**
 * npusim_devlog_task() - log a task's begin or end (timer context)
 * @d:        the device
 * @stream:   stream id
 * @task_id:  task id
 * @sqe_type: the task's SQE type (ASCEND_SQE_TYPE_*)
 * @tgid:     the submitting process
 * @dev_ts:   device counter at the event
 * @begin:    true for the begin record
 */
void npusim_devlog_task(struct npusim_dev *d, u32 stream, u32 task_id,
			u32 sqe_type, u32 tgid, u64 dev_ts, bool begin)
{
	struct npusim_devlog *log = &d->log;
	struct ascend_stars_log *r;
	unsigned long flags;

	spin_lock_irqsave(&log->lock, flags);
	if (!log->ring || !npusim_devlog_wanted(log, tgid))
		goto out_unlock;
	if (log->count == log->size) {
		/*
		 * The scheduler counts what it logs, kept or not: a reader
		 * sees the drop as a gap in the 4-bit running count (an
		 * assumption until hardware says what cnt counts).
		 */
		log->dropped++;
		log->cnt = (log->cnt + 1) & 0xf;
		goto out_unlock;
	}
	r = &log->ring[(log->head + log->count) % log->size];
	log->count++;
	memset(r, 0, sizeof(*r));
	r->word0 = (begin ? ASCEND_STARS_FUNC_BEGIN : ASCEND_STARS_FUNC_END) |
		   (log->cnt & 0xf) << 6 | (sqe_type & 0x3f) << 10;
	log->cnt = (log->cnt + 1) & 0xf;
	npusim_pack_ids(stream, task_id, &r->stream, &r->task);
	r->timestamp = dev_ts;
out_unlock:
	spin_unlock_irqrestore(&log->lock, flags);
}

/**
 * npusim_devlog_prof_op() - a profiling-enable or -disable place holder
 * @d:   the device
 * @op:  NPUSIM_SQE_PROF_ENABLE or NPUSIM_SQE_PROF_DISABLE
 * @pid: the process, as the sender's pid namespace numbers it
 *
 * Return: 0; -ESRCH for no such process; -ENOSPC when
 * NPUSIM_MAX_PROF_PIDS processes are enabled already; -EINVAL for @op.
 */
int npusim_devlog_prof_op(struct npusim_dev *d, u32 op, u32 pid)
{
	struct npusim_devlog *log = &d->log;
	unsigned long flags;
	pid_t nr = 0;
	int err = 0;
	u32 i;

	if (op != NPUSIM_SQE_PROF_ENABLE && op != NPUSIM_SQE_PROF_DISABLE)
		return -EINVAL;
	rcu_read_lock();
	if (pid <= INT_MAX && find_vpid(pid))
		nr = pid_nr(find_vpid(pid));
	rcu_read_unlock();
	if (!nr)
		return -ESRCH;
	spin_lock_irqsave(&log->lock, flags);
	for (i = 0; i < log->npids && log->pids[i] != nr; i++)
		;
	if (op == NPUSIM_SQE_PROF_ENABLE && i == log->npids) {
		if (log->npids < NPUSIM_MAX_PROF_PIDS)
			log->pids[log->npids++] = nr;
		else
			err = -ENOSPC;
	} else if (op == NPUSIM_SQE_PROF_DISABLE && i < log->npids) {
		log->pids[i] = log->pids[--log->npids];
	}
	spin_unlock_irqrestore(&log->lock, flags);
	return err;
}

/* 1 when the process of @nf has another file of the device open. */
static bool npusim_has_context(struct npusim_file *nf)
{
	struct npusim_dev *d = nf->dev;
	struct npusim_file *f;
	bool found = false;

	spin_lock(&d->files_lock);
	list_for_each_entry(f, &d->files, dev_node) {
		if (f != nf && f->tgid == task_tgid_nr(current)) {
			found = true;
			break;
		}
	}
	spin_unlock(&d->files_lock);
	return found;
}

static bool npusim_in_pid_ns(void)
{
	return task_active_pid_ns(current) != &init_pid_ns;
}

/**
 * npusim_prof_start() - NPUSIM_IOC_PROF_START: start channel 50 owned by @nf
 * @nf:  the caller's file
 * @req: the request; req->status gets the outcome (see npusim_ioctl.h)
 */
void npusim_prof_start(struct npusim_file *nf, struct npusim_prof_start_req *req)
{
	struct npusim_dev *d = nf->dev;
	struct ascend_stars_soc_log_config cfg = { 0 };
	struct ascend_stars_log *ring;
	unsigned long flags;

	if (req->channel != ASCEND_PROF_CHANNEL_STARS_SOC_LOG ||
	    req->channel_type > ASCEND_PROF_PERIPHERAL_TYPE ||
	    req->user_data_size > ASCEND_PROF_USER_DATA_MAX ||
	    req->user_data_size < sizeof(cfg)) {
		req->status = ASCEND_DRV_ERROR_INVALID_VALUE;
		return;
	}
	memcpy(&cfg, req->user_data, sizeof(cfg));
	if (cfg.acsq_task != 1) {
		req->status = ASCEND_DRV_ERROR_INVALID_VALUE;
		return;
	}
	mutex_lock(&d->prof_lock);
	if (d->log.owner) {
		bool in_ns = npusim_in_pid_ns();

		if (d->log.owner == nf)
			req->status = ASCEND_PROF_STARTED_ALREADY;
		else if (in_ns && !d->log.owner_in_ns)
			req->status = ASCEND_PROF_CONTAINER_NOT_PHY;
		else if (!in_ns && d->log.owner_in_ns)
			req->status = ASCEND_PROF_PHY_NOT_CONTAINER;
		else
			req->status = ASCEND_PROF_CHANNEL_OCCUPIED;
		goto out_unlock;
	}
	if (prof_needs_context && !npusim_has_context(nf)) {
		req->status = ASCEND_PROF_NO_CP_PROCESS;
		goto out_unlock;
	}
	ring = vzalloc(array_size(devlog_records, sizeof(*ring)));
	if (!ring) {
		req->status = ASCEND_PROF_ERROR;
		goto out_unlock;
	}
	spin_lock_irqsave(&d->log.lock, flags);
	d->log.ring = ring;
	d->log.size = devlog_records;
	d->log.head = 0;
	d->log.count = 0;
	d->log.cnt = 0;
	d->log.owner = nf;
	d->log.owner_in_ns = npusim_in_pid_ns();
	spin_unlock_irqrestore(&d->log.lock, flags);
	req->status = ASCEND_PROF_OK;
out_unlock:
	mutex_unlock(&d->prof_lock);
}

/* Stop the channel @nf owns and free the ring; prof_lock held. */
static void npusim_prof_stop_locked(struct npusim_file *nf)
{
	struct npusim_devlog *log = &nf->dev->log;
	struct ascend_stars_log *ring;
	unsigned long flags;

	spin_lock_irqsave(&log->lock, flags);
	ring = log->ring;
	log->ring = NULL;
	log->owner = NULL;
	log->count = 0;
	spin_unlock_irqrestore(&log->lock, flags);
	vfree(ring);
}

/**
 * npusim_prof_stop() - NPUSIM_IOC_PROF_STOP: stop the channel @nf owns,
 * taking prof_stop_ms first (as a real stop waits for the device)
 * Return: 0; -EINVAL for another channel; -EPERM when @nf does not own it.
 */
int npusim_prof_stop(struct npusim_file *nf, u32 channel)
{
	struct npusim_dev *d = nf->dev;
	int err = 0;

	if (channel != ASCEND_PROF_CHANNEL_STARS_SOC_LOG)
		return -EINVAL;
	if (READ_ONCE(d->log.owner) != nf)
		return -EPERM;
	msleep(prof_stop_ms);
	mutex_lock(&d->prof_lock);
	if (d->log.owner == nf)
		npusim_prof_stop_locked(nf);
	else
		err = -EPERM;
	mutex_unlock(&d->prof_lock);
	return err;
}

/*
 * Forget @tgid's profiling enable when it has no file of the device left
 * but @nf (closing), as the device drops a process's context.
 */
static void npusim_devlog_forget(struct npusim_file *nf)
{
	struct npusim_dev *d = nf->dev;
	struct npusim_file *f;
	unsigned long flags;
	bool other = false;
	u32 i;

	spin_lock(&d->files_lock);
	list_for_each_entry(f, &d->files, dev_node)
		other |= f != nf && f->tgid == nf->tgid;
	spin_unlock(&d->files_lock);
	if (other)
		return;
	spin_lock_irqsave(&d->log.lock, flags);
	for (i = 0; i < d->log.npids; i++) {
		if (d->log.pids[i] == (u32)nf->tgid) {
			d->log.pids[i] = d->log.pids[--d->log.npids];
			break;
		}
	}
	spin_unlock_irqrestore(&d->log.lock, flags);
}

/**
 * npusim_prof_release() - a closing file releases the channel it owns; the
 * last file of a process ends its profiling enable on the device
 */
void npusim_prof_release(struct npusim_file *nf)
{
	struct npusim_dev *d = nf->dev;

	mutex_lock(&d->prof_lock);
	if (d->log.owner == nf)
		npusim_prof_stop_locked(nf);
	mutex_unlock(&d->prof_lock);
	npusim_devlog_forget(nf);
}

/* Most bytes one PROF_READ copies. */
#define NPUSIM_PROF_READ_MAX (256 * 1024)

/**
 * npusim_prof_read() - NPUSIM_IOC_PROF_READ: move whole records from the
 * ring to the caller
 * Return: 0 (req->bytes set); -EINVAL; -EPERM when @nf is not the owner;
 * -EFAULT; -ENOMEM.
 */
int npusim_prof_read(struct npusim_file *nf, struct npusim_prof_read_req *req)
{
	struct npusim_dev *d = nf->dev;
	struct npusim_devlog *log = &d->log;
	u32 want = min_t(u32, req->size, NPUSIM_PROF_READ_MAX) / sizeof(struct ascend_stars_log);
	struct ascend_stars_log *buf;
	unsigned long flags;
	u32 n = 0, i;
	int err = 0;

	req->bytes = 0;
	if (req->channel != ASCEND_PROF_CHANNEL_STARS_SOC_LOG || req->pad)
		return -EINVAL;
	if (!want)
		return 0;
	buf = kvmalloc_array(want, sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	/* prof_lock keeps the ring from being freed under the copy. */
	mutex_lock(&d->prof_lock);
	if (log->owner != nf) {
		err = -EPERM;
		goto out_unlock;
	}
	spin_lock_irqsave(&log->lock, flags);
	n = min(want, log->count);
	for (i = 0; i < n; i++)
		buf[i] = log->ring[(log->head + i) % log->size];
	log->head = (log->head + n) % log->size;
	log->count -= n;
	spin_unlock_irqrestore(&log->lock, flags);
out_unlock:
	mutex_unlock(&d->prof_lock);
	if (!err && n && copy_to_user(u64_to_user_ptr(req->buf), buf, n * sizeof(*buf)))
		err = -EFAULT; /* the records are lost, as a failed DMA's */
	if (!err)
		req->bytes = n * sizeof(*buf);
	kvfree(buf);
	return err;
}

/* The devices devlog_dropped lists. */
static struct npusim_dev *npusim_devlog_devs;
static unsigned int npusim_devlog_ndevs;

static int npusim_devlog_dropped_show(struct seq_file *m, void *v)
{
	unsigned long flags;
	unsigned int i;

	for (i = 0; i < npusim_devlog_ndevs; i++) {
		struct npusim_dev *d = &npusim_devlog_devs[i];
		u64 dropped;

		spin_lock_irqsave(&d->log.lock, flags);
		dropped = d->log.dropped;
		spin_unlock_irqrestore(&d->log.lock, flags);
		seq_printf(m, "%u %llu\n", d->id, dropped);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(npusim_devlog_dropped);

/**
 * npusim_devlog_debugfs() - /sys/kernel/debug/KBUILD_MODNAME/devlog_dropped:
 * one line per device, "DEVICE DROPPED": records the device dropped because
 * its log ring was full, since the module loaded (sim-only, for tests)
 * @devs: the devices, all set up
 * @n:    how many
 */
#ifdef NPUSIM_FLAVOUR_ASCEND
struct dentry *npusim_debugfs_dir; /* npusim_bench.c's in the other flavours */
#endif

void npusim_devlog_debugfs(struct npusim_dev *devs, unsigned int n)
{
	npusim_devlog_devs = devs;
	npusim_devlog_ndevs = n;
	debugfs_create_file("devlog_dropped", 0444, npusim_debugfs_dir, NULL,
			    &npusim_devlog_dropped_fops);
}
