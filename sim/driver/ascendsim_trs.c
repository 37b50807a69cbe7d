// SPDX-License-Identifier: GPL-2.0
/*
 * ascendsim.ko's face of the real Ascend host driver (facts:
 * ../shared/reference/ascend-driver.md section 1; names and structs:
 * include/npuprof/drv/trs_tp.h), in our own code:
 *
 *  - Submit modes, one per SQ (an SQ is a stream here, same id), chosen by
 *    module parameter sq_mode: kio (the kernel writes the SQE in the
 *    submit ioctl: trs_chan:sqe in the submitter's context), uio_t (user
 *    space writes a soft queue and a kernel worker forwards each SQE, one
 *    at a time, 1-4 ms later: trs_chan:sqe from a kworker, no app pid),
 *    uio_d (user space writes the hardware queue: no kernel event at all),
 *    or mixed (stream id mod 3: kio, uio_t, uio_d).  Default uio_t, what a
 *    910B maps.  The device runs a task from its submit in every mode.
 *  - Completions only for tasks that ask for one (the SQE's wr_cqe bit;
 *    today the event records): trs_core:logic_cqe "Logic Cq Enque" with
 *    the entry's device counter, and trs_chan:cqe "Cqe Dispatch", fired
 *    from a kernel worker after the device ended the task.
 *  - Switches: /proc/trs_chan/dev<N>-ts0/trace_enable gates trs_chan,
 *    /proc/trs_core/ts_inst/dev<N>-ts0/trace_enable gates trs_core; mode
 *    0444 (root writes through DAC override), a write must be exactly
 *    "1\n" or "0\n" (else EINVAL), off at load.  Reading gives "0\n"/"1\n".
 *  - Views: /proc/trs_core/ts_inst/dev<N>-ts0/stream, one line per stream
 *    "id <stream> pid <owner tgid> sqid <sq> cqid <cq>", and hw_sq, one
 *    line per SQ "sqid <sq> mode kio|uio_t|uio_d stream_id <stream> head
 *    <forwarded> tail <sent> cp_proc exist".
 * An SQE or completion that cannot be queued for lack of memory is counted
 * in hw_sq's "lost" column, never dropped unseen.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/list.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/version.h>
#include <linux/workqueue.h>
#include <npuprof/drv/ascend_hal_abi.h>

#define NPUSIM_FLAVOUR_ASCEND
#include "npusim.h"
#include "npusim_tp.h"

enum trs_sq_mode { TRS_SQ_KIO, TRS_SQ_UIO_T, TRS_SQ_UIO_D, TRS_SQ_MIXED };

static const char *const trs_mode_names[] = { "kio", "uio_t", "uio_d",
					      "mixed" };

static char *sq_mode = "uio_t";
module_param(sq_mode, charp, 0444);
MODULE_PARM_DESC(sq_mode,
		 "Submit mode of every SQ: kio, uio_t (default, as a 910B), uio_d, or mixed (stream id mod 3: kio, uio_t, uio_d)");

static enum trs_sq_mode trs_mode;

/* One stream and its SQ, for the stream and hw_sq views. */
struct trs_sq {
	struct list_head node;
	u32 stream;
	u32 tgid;
	u32 head; /* SQEs forwarded to the hardware queue (kio, uio_t) */
	u32 tail; /* SQEs submitted */
};

/* An SQE waiting for the uio_t worker, or a completion for the CQ worker. */
struct trs_ent {
	struct list_head node;
	u32 stream;
	u32 task_id;
	u32 sqe_type;
	u64 dev_ts;
};

/**
 * struct trs_dev - one device's trs state
 * @lock:     protects the lists and counters; taken from the timer
 * @sqs:      struct trs_sq of its streams
 * @pending:  uio_t SQEs not forwarded yet, in submit order
 * @cqes:     completions not reported yet
 * @lost:     SQEs or completions dropped for lack of memory
 * @chan_on:  trs_chan switch
 * @core_on:  trs_core switch
 */
struct trs_dev {
	u32 id;
	spinlock_t lock;
	struct list_head sqs;
	struct list_head pending;
	struct list_head cqes;
	u64 lost;
	bool chan_on;
	bool core_on;
	struct delayed_work fwd;
	struct work_struct cqe_work;
};

static struct trs_dev *trs_devs;
static unsigned int trs_nr_devs;

#if LINUX_VERSION_CODE >= KERNEL_VERSION(5, 17, 0)
#define trs_pde_data(inode) pde_data(inode)
#else
#define trs_pde_data(inode) PDE_DATA(inode)
#endif

static struct trs_dev *trs_dev(u32 device)
{
	return device < trs_nr_devs ? &trs_devs[device] : NULL;
}

static enum trs_sq_mode trs_mode_of(u32 stream)
{
	return trs_mode == TRS_SQ_MIXED ? (enum trs_sq_mode)(stream % 3) :
					  trs_mode;
}

/* The SQE type of an engine task type (ASCEND_SQE_TYPE_*). */
static u32 trs_sqe_type(u32 type)
{
	switch (type) {
	case NPUSIM_TASK_MEMCPY:
		return ASCEND_SQE_TYPE_SDMA;
	case NPUSIM_TASK_EVENT_RECORD:
		return ASCEND_SQE_TYPE_EVENT_RECORD;
	default:
		return ASCEND_SQE_TYPE_AIC;
	}
}

static struct trs_sq *trs_sq_find(struct trs_dev *d, u32 stream)
{
	struct trs_sq *sq;

	list_for_each_entry(sq, &d->sqs, node)
		if (sq->stream == stream)
			return sq;
	return NULL;
}

/* trs_chan:sqe for one SQE written to the hardware queue of @d. */
static void trs_fire_sqe(struct trs_dev *d, u32 stream, u32 task_id,
			 u32 sqe_type)
{
	struct trs_id_inst inst = { .devid = d->id, .tsid = 0 };
	struct trs_chan_sq_trace tr = {
		.sqid = stream, .chan_id = stream, .type = sqe_type,
		.task_id = task_id, .stream_id = stream,
	};
	struct trs_sq *sq;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	sq = trs_sq_find(d, stream);
	if (sq) {
		sq->head++;
		tr.sq_head = sq->head;
		tr.sq_tail = sq->tail;
	}
	spin_unlock_irqrestore(&d->lock, flags);
	if (READ_ONCE(d->chan_on))
		trace_sqe(ASCEND_TP_STR_TASK_SEND, &inst, &tr);
}

/* The first entry of @list, taken off it; NULL when empty. */
static struct trs_ent *trs_pop(struct trs_dev *d, struct list_head *list)
{
	struct trs_ent *e;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	e = list_first_entry_or_null(list, struct trs_ent, node);
	if (e)
		list_del(&e->node);
	spin_unlock_irqrestore(&d->lock, flags);
	return e;
}

/* The uio_t worker: forward the pending SQEs, one at a time. */
static void trs_fwd_work(struct work_struct *work)
{
	struct trs_dev *d = container_of(to_delayed_work(work), struct trs_dev,
					 fwd);
	struct trs_ent *e;

	while ((e = trs_pop(d, &d->pending))) {
		trs_fire_sqe(d, e->stream, e->task_id, e->sqe_type);
		kfree(e);
		cond_resched();
	}
}

/* The completion worker: logic_cqe and cqe for each finished task. */
static void trs_cqe_work(struct work_struct *work)
{
	struct trs_dev *d = container_of(work, struct trs_dev, cqe_work);
	struct trs_id_inst inst = { .devid = d->id, .tsid = 0 };
	struct trs_logic_cqe_trace lc;
	struct trs_chan_cq_trace cq;
	struct trs_ent *e;

	while ((e = trs_pop(d, &d->cqes))) {
		memset(&cq, 0, sizeof(cq));
		cq.cqid = e->stream;
		cq.task_id = e->task_id;
		cq.sq_id = e->stream;
		cq.stream_id = e->stream;
		if (READ_ONCE(d->chan_on))
			trace_cqe("Cqe Dispatch", &inst, &cq);
		memset(&lc, 0, sizeof(lc));
		lc.logic_cqid = e->stream;
		lc.task_id = e->task_id;
		lc.stream_id = e->stream;
		lc.sqid = e->stream;
		lc.sqe_type = e->sqe_type;
		lc.timestamp = e->dev_ts;
		if (READ_ONCE(d->core_on))
			trace_logic_cqe(ASCEND_TP_STR_LOGIC_CQ_ENQUE, &inst, &lc);
		kfree(e);
	}
}

int npusim_trs_sq_add(u32 device, u32 stream)
{
	struct trs_dev *d = trs_dev(device);
	struct trs_sq *sq;
	unsigned long flags;

	if (!d)
		return -ENODEV;
	sq = kzalloc(sizeof(*sq), GFP_KERNEL);
	if (!sq)
		return -ENOMEM;
	sq->stream = stream;
	sq->tgid = task_tgid_nr(current);
	spin_lock_irqsave(&d->lock, flags);
	list_add_tail(&sq->node, &d->sqs);
	spin_unlock_irqrestore(&d->lock, flags);
	return 0;
}

void npusim_trs_sq_del(u32 device, u32 stream)
{
	struct trs_dev *d = trs_dev(device);
	struct trs_sq *sq;
	unsigned long flags;

	if (!d)
		return;
	spin_lock_irqsave(&d->lock, flags);
	sq = trs_sq_find(d, stream);
	if (sq)
		list_del(&sq->node);
	spin_unlock_irqrestore(&d->lock, flags);
	kfree(sq);
}

/* Count one submit on @stream's SQ. */
static void trs_note_tail(struct trs_dev *d, u32 stream)
{
	struct trs_sq *sq;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	sq = trs_sq_find(d, stream);
	if (sq)
		sq->tail++;
	spin_unlock_irqrestore(&d->lock, flags);
}

void npusim_trs_send(u32 device, u32 stream, u32 task_id, u32 type)
{
	struct trs_dev *d = trs_dev(device);
	struct trs_ent *e;
	unsigned long flags;

	if (!d)
		return;
	trs_note_tail(d, stream);
	switch (trs_mode_of(stream)) {
	case TRS_SQ_KIO:
		trs_fire_sqe(d, stream, task_id, trs_sqe_type(type));
		return;
	case TRS_SQ_UIO_T:
		break;
	default: /* uio_d: user space rang the doorbell itself */
		return;
	}
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	spin_lock_irqsave(&d->lock, flags);
	if (e) {
		e->stream = stream;
		e->task_id = task_id;
		e->sqe_type = trs_sqe_type(type);
		list_add_tail(&e->node, &d->pending);
	} else {
		d->lost++;
	}
	spin_unlock_irqrestore(&d->lock, flags);
	/* A doorbell the polling worker sees 1-4 ms later. */
	if (e)
		schedule_delayed_work(&d->fwd,
				      msecs_to_jiffies(1 + task_id % 4));
}

void npusim_trs_complete(u32 device, u32 stream, u32 task_id, u32 type,
			 u64 dev_ts)
{
	struct trs_dev *d = trs_dev(device);
	struct trs_ent *e;
	unsigned long flags;

	/* wr_cqe: only event records ask for a completion entry */
	if (!d || type != NPUSIM_TASK_EVENT_RECORD)
		return;
	e = kzalloc(sizeof(*e), GFP_ATOMIC);
	spin_lock_irqsave(&d->lock, flags);
	if (e) {
		e->stream = stream;
		e->task_id = task_id;
		e->sqe_type = trs_sqe_type(type);
		e->dev_ts = dev_ts;
		list_add_tail(&e->node, &d->cqes);
	} else {
		d->lost++;
	}
	spin_unlock_irqrestore(&d->lock, flags);
	if (e)
		schedule_work(&d->cqe_work);
}

/* ---- procfs ---- */

static ssize_t trs_enable_read(struct file *file, char __user *buf,
			       size_t len, loff_t *ppos)
{
	bool *on = trs_pde_data(file_inode(file));
	char s[2] = { READ_ONCE(*on) ? '1' : '0', '\n' };

	return simple_read_from_buffer(buf, len, ppos, s, sizeof(s));
}

/* Exactly "1\n" or "0\n", as the real driver takes it. */
static ssize_t trs_enable_write(struct file *file, const char __user *buf,
				size_t len, loff_t *ppos)
{
	bool *on = trs_pde_data(file_inode(file));
	char s[2];

	if (len != sizeof(s))
		return -EINVAL;
	if (copy_from_user(s, buf, sizeof(s)))
		return -EFAULT;
	if (s[1] != '\n' || (s[0] != '0' && s[0] != '1'))
		return -EINVAL;
	WRITE_ONCE(*on, s[0] == '1');
	return len;
}

static const struct proc_ops trs_enable_ops = {
	.proc_read = trs_enable_read,
	.proc_write = trs_enable_write,
	.proc_lseek = default_llseek,
};

static int trs_stream_show(struct seq_file *m, void *v)
{
	struct trs_dev *d = m->private;
	struct trs_sq *sq;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	list_for_each_entry(sq, &d->sqs, node)
		seq_printf(m, "id %u pid %u sqid %u cqid %u\n", sq->stream,
			   sq->tgid, sq->stream, sq->stream);
	spin_unlock_irqrestore(&d->lock, flags);
	return 0;
}

static int trs_hw_sq_show(struct seq_file *m, void *v)
{
	struct trs_dev *d = m->private;
	struct trs_sq *sq;
	unsigned long flags;

	spin_lock_irqsave(&d->lock, flags);
	list_for_each_entry(sq, &d->sqs, node)
		seq_printf(m, "sqid %u mode %s stream_id %u head %u tail %u lost %llu cp_proc exist\n",
			   sq->stream, trs_mode_names[trs_mode_of(sq->stream)],
			   sq->stream, sq->head, sq->tail, d->lost);
	spin_unlock_irqrestore(&d->lock, flags);
	return 0;
}

/* /proc/trs_chan/dev<N>-ts0/ and /proc/trs_core/ts_inst/dev<N>-ts0/. */
static int trs_proc_dev(struct trs_dev *d, struct proc_dir_entry *chan,
			struct proc_dir_entry *inst)
{
	struct proc_dir_entry *cd, *id;
	char name[32];

	snprintf(name, sizeof(name), "dev%u-ts0", d->id);
	cd = proc_mkdir(name, chan);
	id = proc_mkdir(name, inst);
	if (!cd || !id ||
	    !proc_create_data("trace_enable", 0444, cd, &trs_enable_ops,
			      &d->chan_on) ||
	    !proc_create_data("trace_enable", 0444, id, &trs_enable_ops,
			      &d->core_on) ||
	    !proc_create_single_data("stream", 0444, id, trs_stream_show, d) ||
	    !proc_create_single_data("hw_sq", 0444, id, trs_hw_sq_show, d))
		return -ENOMEM;
	return 0;
}

static int trs_parse_mode(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(trs_mode_names); i++) {
		if (sysfs_streq(sq_mode, trs_mode_names[i])) {
			trs_mode = i;
			return 0;
		}
	}
	pr_err("sq_mode=%s: must be kio, uio_t, uio_d or mixed\n", sq_mode);
	return -EINVAL;
}

int npusim_trs_init(unsigned int devices)
{
	struct proc_dir_entry *chan, *core, *inst;
	unsigned int i;
	int err;

	err = trs_parse_mode();
	if (err)
		return err;
	trs_devs = kcalloc(devices, sizeof(*trs_devs), GFP_KERNEL);
	if (!trs_devs)
		return -ENOMEM;
	trs_nr_devs = devices;
	for (i = 0; i < devices; i++) {
		struct trs_dev *d = &trs_devs[i];

		d->id = i;
		spin_lock_init(&d->lock);
		INIT_LIST_HEAD(&d->sqs);
		INIT_LIST_HEAD(&d->pending);
		INIT_LIST_HEAD(&d->cqes);
		INIT_DELAYED_WORK(&d->fwd, trs_fwd_work);
		INIT_WORK(&d->cqe_work, trs_cqe_work);
	}
	chan = proc_mkdir("trs_chan", NULL);
	core = proc_mkdir("trs_core", NULL);
	inst = core ? proc_mkdir("ts_inst", core) : NULL;
	err = chan && inst ? 0 : -ENOMEM;
	for (i = 0; !err && i < devices; i++)
		err = trs_proc_dev(&trs_devs[i], chan, inst);
	if (err) {
		pr_err("cannot create /proc/trs_chan and /proc/trs_core\n");
		npusim_trs_exit();
		return err;
	}
	pr_info("SQ mode %s; trace_enable off\n", trs_mode_names[trs_mode]);
	return 0;
}

static void trs_free_list(struct list_head *l)
{
	struct trs_ent *e, *next;

	list_for_each_entry_safe(e, next, l, node)
		kfree(e);
}

void npusim_trs_exit(void)
{
	unsigned int i;

	remove_proc_subtree("trs_chan", NULL);
	remove_proc_subtree("trs_core", NULL);
	for (i = 0; i < trs_nr_devs; i++) {
		struct trs_dev *d = &trs_devs[i];
		struct trs_sq *sq, *next;

		cancel_delayed_work_sync(&d->fwd);
		cancel_work_sync(&d->cqe_work);
		trs_free_list(&d->pending);
		trs_free_list(&d->cqes);
		list_for_each_entry_safe(sq, next, &d->sqs, node)
			kfree(sq);
	}
	kfree(trs_devs);
	trs_devs = NULL;
	trs_nr_devs = 0;
}
