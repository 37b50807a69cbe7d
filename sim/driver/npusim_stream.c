// SPDX-License-Identifier: GPL-2.0
/*
 * Streams and tasks of the simulated NPU.
 *
 * A stream is a FIFO of tasks that one hrtimer runs in order, one at a
 * time; every stream has its own timer, so streams run concurrently.  The
 * timer callback ends the running task and starts the next one, so task
 * start and end events fire in timer (hard interrupt) context, as they
 * would from a real device's completion interrupt.
 *
 * Task times are those of an ideal device: a task starts when the previous
 * task of its stream ended or when it was submitted, whichever is later,
 * and ends exactly its duration later.  Timer latency (large under qemu
 * TCG) delays when the host sees an end, never the device timestamps.
 *
 * Lifetime: a stream is on its file's list from create to destroy (or
 * close); STREAM_SYNC holds a kref so it may sleep without the file lock.
 * Destroy marks the stream dead, cancels the timer (waiting for a running
 * callback) and frees the queued tasks; the memory goes with the last kref.
 */
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/wait.h>

#include <npuprof/drv/ascend_hal_abi.h>

#include "npusim.h"

/* Defines the tracepoints and checks them against the backend header. */
#define CREATE_TRACE_POINTS
#include "npusim_tp.h"

/* Task type of the stream sync event (enum npuprof_task_type). */
#define NPUSIM_TASK_SYNC 3

/**
 * struct npusim_task - one queued or running task
 * @node:      in npusim_stream.queue while queued
 * @id:        per-device task id (the low bits of @seq)
 * @seq:       its number among the device's tasks (npusim_dev.task_seq)
 * @type:      NPUSIM_TASK_*
 * @sqe_type:  its STARS SQE type (ASCEND_SQE_TYPE_*), for the device log
 * @tgid:      submitter's process id
 * @tid:       submitter's thread id
 * @dur_ns:    run time on the device, ns
 * @arg:       tracepoint arg: requested ns (kernel), bytes (memcpy), 0
 * @submit_ns: host CLOCK_MONOTONIC time of the SUBMIT ioctl
 * @start_ns:  host time the device started it (ideal, see banner)
 * @name:      kernel name, "" for other tasks
 */
struct npusim_task {
	struct list_head node;
	u32 id;
	u32 seq;
	u32 type;
	u32 sqe_type;
	u32 tgid;
	u32 tid;
	u64 dur_ns;
	u64 arg;
	u64 submit_ns;
	u64 start_ns;
	char name[NPUSIM_NAME_LEN];
};

/**
 * struct npusim_stream - one stream of a device, owned by one file
 * @node:         in npusim_file.streams
 * @ref:          the file's list holds one, each STREAM_SYNC one more
 * @dev:          device the stream is on
 * @id:           per-device stream id
 * @lock:         protects every field below; taken in the timer callback
 * @queue:        tasks not started yet, in submit order
 * @running:      the task on the device, or NULL
 * @queued:       number of tasks on @queue
 * @armed:        the timer owns the stream: a task is running or queued
 * @dead:         destroyed; the timer must not restart
 * @last_end_ns:  host time the last started task ends (ideal)
 * @last_task_id: id of the last task submitted, 0 before any
 * @sq_seq:       SQEs sent to the stream through NPUSIM_IOC_SQ_SEND: the
 *                number the id-reuse check of those tasks counts by
 * @idle_wq:      STREAM_SYNC waits here for !armed
 * @end_wq:       a submit whose task id is still taken on this stream
 *                waits here for a task to end (npusim_id_free())
 * @timer:        runs the tasks; absolute CLOCK_MONOTONIC expiry
 */
struct npusim_stream {
	struct list_head node;
	struct kref ref;
	struct npusim_dev *dev;
	u32 id;
	spinlock_t lock;
	struct list_head queue;
	struct npusim_task *running;
	u32 queued;
	bool armed;
	bool dead;
	u64 last_end_ns;
	u32 last_task_id;
	u32 sq_seq;
	wait_queue_head_t idle_wq;
	wait_queue_head_t end_wq;
	struct hrtimer timer;
};

static void npusim_trace_task(struct npusim_stream *s, struct npusim_task *t,
			      bool start)
{
	u64 ts = npusim_dev_ts(start ? t->start_ns : t->start_ns + t->dur_ns);

	npusim_devlog_task(s->dev, s->id, t->id, t->sqe_type, t->tgid, ts, start);
	if (start)
		npusim_tp_start(t->tgid, t->tid, s->dev->id, s->id, t->id,
				t->type, ts, t->arg, t->name);
	else
		npusim_tp_end(t->tgid, t->tid, s->dev->id, s->id, t->id,
			      t->type, ts, t->arg, t->name);
}

/*
 * Timer callback: end the running task, start the next queued one and
 * re-arm for its end, or go idle and wake STREAM_SYNC callers.
 */
static enum hrtimer_restart npusim_stream_timer(struct hrtimer *timer)
{
	struct npusim_stream *s = container_of(timer, struct npusim_stream,
					       timer);
	enum hrtimer_restart ret = HRTIMER_NORESTART;
	struct npusim_task *t;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	if (s->dead)
		goto out_unlock;
	t = s->running;
	if (t) {
		s->running = NULL;
		npusim_trace_task(s, t, false);
		npusim_trs_complete(s->dev->id, s->id, t->id, t->type,
				    npusim_dev_ts(t->start_ns + t->dur_ns));
		kfree(t);
		if (wq_has_sleeper(&s->end_wq))
			wake_up_all(&s->end_wq);
	}
	t = list_first_entry_or_null(&s->queue, struct npusim_task, node);
	if (t) {
		list_del(&t->node);
		s->queued--;
		t->start_ns = max(s->last_end_ns, t->submit_ns);
		s->last_end_ns = t->start_ns + t->dur_ns;
		s->running = t;
		npusim_trace_task(s, t, true);
		hrtimer_set_expires(timer, ns_to_ktime(s->last_end_ns));
		ret = HRTIMER_RESTART;
	} else {
		s->armed = false;
		wake_up_all(&s->idle_wq);
	}
out_unlock:
	spin_unlock_irqrestore(&s->lock, flags);
	return ret;
}

static void npusim_stream_free(struct kref *ref)
{
	kfree(container_of(ref, struct npusim_stream, ref));
}

/* Find a stream of @nf by id; the caller holds nf->lock. */
static struct npusim_stream *npusim_stream_find(struct npusim_file *nf,
						u32 stream_id)
{
	struct npusim_stream *s;

	list_for_each_entry(s, &nf->streams, node) {
		if (s->id == stream_id)
			return s;
	}
	return NULL;
}

/**
 * npusim_stream_create() - open a stream on the file's device
 * @nf:        the file; owns the stream until destroy or close
 * @stream_id: out: the new per-device stream id
 *
 * Return: 0, -ENOMEM, or -ENOSPC when the device has no free stream id.
 */
int npusim_stream_create(struct npusim_file *nf, u32 *stream_id)
{
	struct npusim_stream *s;
	int id;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	id = ida_alloc_max(&nf->dev->stream_ida, NPUSIM_MAX_STREAMS - 1,
			   GFP_KERNEL);
	if (id < 0) {
		kfree(s);
		return id;
	}
	if (npusim_trs_sq_add(nf->dev->id, id)) {
		ida_free(&nf->dev->stream_ida, id);
		kfree(s);
		return -ENOMEM;
	}
	kref_init(&s->ref);
	s->dev = nf->dev;
	s->id = id;
	spin_lock_init(&s->lock);
	INIT_LIST_HEAD(&s->queue);
	init_waitqueue_head(&s->idle_wq);
	init_waitqueue_head(&s->end_wq);
	hrtimer_init(&s->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	s->timer.function = npusim_stream_timer;

	mutex_lock(&nf->lock);
	list_add_tail(&s->node, &nf->streams);
	mutex_unlock(&nf->lock);
	*stream_id = id;
	return 0;
}

/*
 * Stop a stream that is off its file's list: cancel the timer, drop the
 * running and queued tasks (they never end), wake syncers, free its id and
 * drop the list's reference.
 */
static void npusim_stream_kill(struct npusim_stream *s)
{
	struct npusim_task *t, *next;
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	s->dead = true;
	spin_unlock_irqrestore(&s->lock, flags);
	/* Waits for a running callback; a dead stream never re-arms. */
	hrtimer_cancel(&s->timer);

	spin_lock_irqsave(&s->lock, flags);
	kfree(s->running);
	s->running = NULL;
	list_for_each_entry_safe(t, next, &s->queue, node) {
		list_del(&t->node);
		kfree(t);
	}
	s->queued = 0;
	s->armed = false;
	spin_unlock_irqrestore(&s->lock, flags);
	wake_up_all(&s->idle_wq);
	wake_up_all(&s->end_wq);

	npusim_trs_sq_del(s->dev->id, s->id);
	ida_free(&s->dev->stream_ida, s->id);
	kref_put(&s->ref, npusim_stream_free);
}

/**
 * npusim_stream_destroy() - destroy a stream, cancelling its pending tasks
 * @nf:        the file that created it
 * @stream_id: the stream id
 *
 * Return: 0, or -ENOENT if @nf has no such stream.
 */
int npusim_stream_destroy(struct npusim_file *nf, u32 stream_id)
{
	struct npusim_stream *s;

	mutex_lock(&nf->lock);
	s = npusim_stream_find(nf, stream_id);
	if (s)
		list_del(&s->node);
	mutex_unlock(&nf->lock);
	if (!s)
		return -ENOENT;
	npusim_stream_kill(s);
	return 0;
}

/**
 * npusim_file_release_streams() - destroy every stream of a closing file
 * @nf: the file; no ioctl can be running on it any more
 */
void npusim_file_release_streams(struct npusim_file *nf)
{
	struct npusim_stream *s, *next;

	mutex_lock(&nf->lock);
	list_for_each_entry_safe(s, next, &nf->streams, node) {
		list_del(&s->node);
		npusim_stream_kill(s);
	}
	mutex_unlock(&nf->lock);
}

/*
 * Device run time of a task request, ns, and the tracepoint arg.
 * Return: 0, or -EINVAL for an unknown type or a too long task.
 */
static int npusim_task_timing(u32 type, u64 duration_ns, u64 bytes,
			      u64 *dur_ns, u64 *arg)
{
	switch (type) {
	case NPUSIM_TASK_KERNEL:
		*dur_ns = duration_ns;
		*arg = duration_ns;
		break;
	case NPUSIM_TASK_MEMCPY:
		/* MB/s with MB = 1e6 bytes: ns = bytes * 1000 / MB/s. */
		if (div_u64(bytes, npusim_memcpy_bw_mbps) >
		    NPUSIM_MAX_TASK_NS / 1000)
			return -EINVAL;
		/* The quotient fits: the 128-bit product cannot trap. */
		*dur_ns = npusim_memcpy_latency_ns +
			  mul_u64_u64_div_u64(bytes, 1000,
					      npusim_memcpy_bw_mbps);
		*arg = bytes;
		break;
	case NPUSIM_TASK_EVENT_RECORD:
		*dur_ns = npusim_event_ns;
		*arg = 0;
		break;
	default:
		return -EINVAL;
	}
	return *dur_ns > NPUSIM_MAX_TASK_NS ? -EINVAL : 0;
}

/* The SQE type a NPUSIM_IOC_SUBMIT task would have been sent with. */
static u32 npusim_sqe_type(u32 type)
{
	switch (type) {
	case NPUSIM_TASK_KERNEL:
		return ASCEND_SQE_TYPE_AIC;
	case NPUSIM_TASK_MEMCPY:
		return ASCEND_SQE_TYPE_SDMA;
	default:
		return ASCEND_SQE_TYPE_EVENT_RECORD;
	}
}

/*
 * Build a task of a validated type, timed; NULL when out of memory or
 * -EINVAL (ERR_PTR) for a bad duration or size.
 */
static struct npusim_task *npusim_task_new(u32 type, u64 duration_ns, u64 bytes,
					   const char *name)
{
	struct npusim_task *t;
	u64 dur_ns, arg;
	int err;

	err = npusim_task_timing(type, duration_ns, bytes, &dur_ns, &arg);
	if (err)
		return ERR_PTR(err);
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		return ERR_PTR(-ENOMEM);
	t->type = type;
	t->sqe_type = npusim_sqe_type(type);
	t->tgid = task_tgid_nr(current);
	t->tid = task_pid_nr(current);
	t->dur_ns = dur_ns;
	t->arg = arg;
	if (type == NPUSIM_TASK_KERNEL)
		strscpy(t->name, name, sizeof(t->name));
	return t;
}

/* Queue @t on @s and start the timer if the stream was idle. */
static void npusim_stream_enqueue(struct npusim_stream *s,
				  struct npusim_task *t)
{
	unsigned long flags;

	spin_lock_irqsave(&s->lock, flags);
	list_add_tail(&t->node, &s->queue);
	s->queued++;
	s->last_task_id = t->id;
	if (!s->armed) {
		s->armed = true;
		/* Fire now: the start event comes from the timer, too. */
		hrtimer_start(&s->timer, ns_to_ktime(t->submit_ns),
			      HRTIMER_MODE_ABS);
	}
	spin_unlock_irqrestore(&s->lock, flags);
}

/*
 * 1 when no task on @s still has the id of task number @seq: ids repeat
 * every @period numbers (the device's: 2^bits; the runtime's, which skip
 * 0: 2^bits - 1), the stream runs its tasks in submit order, so only its
 * oldest (running, else first queued) task can be @period or more numbers
 * behind.  A dead stream holds none.
 */
static bool npusim_id_free(struct npusim_stream *s, u32 seq, u32 period)
{
	struct npusim_task *oldest;
	unsigned long flags;
	bool free = true;

	spin_lock_irqsave(&s->lock, flags);
	oldest = s->running ?:
		 list_first_entry_or_null(&s->queue, struct npusim_task, node);
	if (!s->dead && oldest && seq - oldest->seq >= period)
		free = false;
	spin_unlock_irqrestore(&s->lock, flags);
	return free;
}

/*
 * Queue task @t (id and seq set) on @s, nf->lock held: wait while its id
 * still names a task of the stream (@period: see npusim_id_free(); 0: ids
 * never repeat), fire the submit tracepoint, hand it to the device.
 * Return: 0 (the stream owns @t), or -ERESTARTSYS (the caller frees @t).
 */
static int npusim_stream_queue(struct npusim_file *nf, struct npusim_stream *s,
			       struct npusim_task *t, u32 period)
{
	int err;

	/*
	 * Ids wrap, but like a real driver's they are never handed out twice
	 * at once: while this stream still holds the task that had this id,
	 * the submit waits for it to end (nf->lock only orders this file's
	 * submits; the timer never takes it).
	 */
	if (period) {
		err = wait_event_interruptible(s->end_wq, npusim_id_free(s, t->seq, period));
		if (err)
			return err;
	}
	npusim_tp_submit(t->tgid, t->tid, nf->dev->id, s->id, t->id, t->type,
			 npusim_dev_ts(ktime_get_ns()), t->arg, t->name);
	npusim_trs_send(nf->dev->id, s->id, t->id, t->type);
	/*
	 * The device sees the task only after its submission was traced, as
	 * a real doorbell follows the driver's bookkeeping: so no task can
	 * start before the host time its submit event carries.
	 */
	t->submit_ns = ktime_get_ns();
	npusim_stream_enqueue(s, t);
	return 0;
}

/**
 * npusim_stream_submit() - queue a task on a stream
 * @nf:  the file that owns the stream
 * @req: the request; on success req->task_id is set
 *
 * The submit tracepoint fires after the id is assigned and before the task
 * is queued, so it always precedes the task's start.
 *
 * The task's id is free on the stream when it is handed out: a submit whose
 * id (wrapped) still names a task of the stream waits for that task's end.
 *
 * Return: 0; -EINVAL for a bad type, pad, name or duration; -ENOENT for an
 * unknown stream; -EBUSY when NPUSIM_MAX_QUEUED tasks wait on the stream
 * already; -ERESTARTSYS when a signal came while waiting for the id;
 * -ENOMEM.
 */
int npusim_stream_submit(struct npusim_file *nf, struct npusim_task_req *req)
{
	struct npusim_stream *s;
	struct npusim_task *t;
	int err;

	if (req->pad || strnlen(req->name, NPUSIM_NAME_LEN) == NPUSIM_NAME_LEN)
		return -EINVAL;
	if (req->type > NPUSIM_TASK_EVENT_RECORD)
		return -EINVAL;
	t = npusim_task_new(req->type, req->duration_ns, req->bytes, req->name);
	if (IS_ERR(t))
		return PTR_ERR(t);

	mutex_lock(&nf->lock);
	s = npusim_stream_find(nf, req->stream);
	err = s ? 0 : -ENOENT;
	/* Only the submit paths add, under nf->lock: the count cannot grow. */
	if (s && READ_ONCE(s->queued) >= NPUSIM_MAX_QUEUED)
		err = -EBUSY;
	if (err) {
		mutex_unlock(&nf->lock);
		kfree(t);
		return err;
	}
	t->seq = (u32)atomic_inc_return(&nf->dev->task_seq);
	t->id = t->seq;
	if (npusim_task_id_bits < 32)
		t->id &= (1u << npusim_task_id_bits) - 1;
	err = npusim_stream_queue(nf, s, t, npusim_task_id_bits < 32 ?
				  1u << npusim_task_id_bits : 0);
	mutex_unlock(&nf->lock);
	if (!err)
		req->task_id = t->id;
	return err;
}

/*
 * Check one SQE for stream @stream_id; for tasks, build it (*out), else
 * *out = NULL (a place holder).  Return: 0 or -EINVAL / -ENOMEM.
 */
static int npusim_sqe_task(const struct npusim_sqe *q, u32 stream_id,
			   struct npusim_task **out)
{
	const struct ascend_sqe_header *h = (const void *)q->header;
	u32 type;

	*out = NULL;
	if (h->rt_stream_id != stream_id ||
	    strnlen(q->name, NPUSIM_NAME_LEN) == NPUSIM_NAME_LEN)
		return -EINVAL;
	if (npusim_task_id_bits < 16 && h->task_id >> npusim_task_id_bits)
		return -EINVAL;
	switch (ASCEND_SQE_TYPE(h)) {
	case ASCEND_SQE_TYPE_AIC:
	case ASCEND_SQE_TYPE_AIV:
		type = NPUSIM_TASK_KERNEL;
		break;
	case ASCEND_SQE_TYPE_SDMA:
		type = NPUSIM_TASK_MEMCPY;
		break;
	case ASCEND_SQE_TYPE_EVENT_RECORD:
		type = NPUSIM_TASK_EVENT_RECORD;
		break;
	case ASCEND_SQE_TYPE_PLACE_HOLDER:
		if (q->prof_op > NPUSIM_SQE_PROF_DISABLE)
			return -EINVAL;
		return 0;
	default:
		return -EINVAL;
	}
	*out = npusim_task_new(type, q->duration_ns, q->bytes, q->name);
	if (IS_ERR(*out)) {
		int err = PTR_ERR(*out);

		*out = NULL;
		return err;
	}
	(*out)->sqe_type = ASCEND_SQE_TYPE(h);
	(*out)->id = h->task_id;
	return 0;
}

/**
 * npusim_stream_sq_send() - queue @n SQEs (NPUSIM_IOC_SQ_SEND) on a stream
 * @nf:        the file that owns the stream
 * @stream_id: the stream (= its SQ)
 * @sqes:      the SQEs, in kernel memory
 * @n:         how many, >= 1
 *
 * Every SQE is checked and its task built before any is queued.  Tasks
 * carry the SQE's task id; a task whose id still names a task of the
 * stream waits for that task's end (the runtime's ids are per stream,
 * wrapping at task_id_bits with 0 skipped).  A place holder queues no
 * task; with a profiling op it switches the device log for a process.
 *
 * Return: 0; -EINVAL for a bad SQE (none queued); -ENOENT for an unknown
 * stream; -EBUSY for a full stream; -ESRCH or -ENOSPC from a profiling
 * op; -ERESTARTSYS when a signal came while waiting for an id (the SQEs
 * before it are queued); -ENOMEM.
 */
int npusim_stream_sq_send(struct npusim_file *nf, u32 stream_id,
			  const struct npusim_sqe *sqes, u32 n)
{
	/* 16-bit SQE ids: wider task_id_bits still wrap at 16 */
	u32 period = (1u << min(npusim_task_id_bits, 16u)) - 1;
	struct npusim_task **tasks;
	struct npusim_stream *s;
	int err = 0;
	u32 i;

	tasks = kvcalloc(n, sizeof(*tasks), GFP_KERNEL);
	if (!tasks)
		return -ENOMEM;
	for (i = 0; i < n && !err; i++)
		err = npusim_sqe_task(&sqes[i], stream_id, &tasks[i]);
	if (err)
		goto out_free;

	mutex_lock(&nf->lock);
	s = npusim_stream_find(nf, stream_id);
	err = s ? 0 : -ENOENT;
	if (s && READ_ONCE(s->queued) + n > NPUSIM_MAX_QUEUED)
		err = -EBUSY;
	for (i = 0; i < n && !err; i++) {
		u32 seq = ++s->sq_seq;

		if (!tasks[i]) {
			if (sqes[i].prof_op)
				err = npusim_devlog_prof_op(nf->dev, sqes[i].prof_op,
							    sqes[i].prof_pid);
			continue;
		}
		tasks[i]->seq = seq;
		err = npusim_stream_queue(nf, s, tasks[i], period);
		if (!err)
			tasks[i] = NULL; /* the stream owns it */
	}
	mutex_unlock(&nf->lock);
out_free:
	for (i = 0; i < n; i++)
		kfree(tasks[i]);
	kvfree(tasks);
	return err;
}

static bool npusim_stream_idle(struct npusim_stream *s)
{
	unsigned long flags;
	bool idle;

	spin_lock_irqsave(&s->lock, flags);
	idle = !s->armed || s->dead;
	spin_unlock_irqrestore(&s->lock, flags);
	return idle;
}

/**
 * npusim_stream_sync() - wait until a stream has no queued or running task
 * @nf:        the file that owns the stream
 * @stream_id: the stream id
 *
 * Sleeps interruptibly.  On success fires the stream sync event with the
 * stream's last task id and the ns waited.
 *
 * Return: 0; -ENOENT for an unknown stream or one destroyed while waiting;
 * -ERESTARTSYS when a signal interrupted the wait.
 */
int npusim_stream_sync(struct npusim_file *nf, u32 stream_id)
{
	struct npusim_stream *s;
	u64 begin_ns, end_ns;
	u32 last_id;
	bool dead;
	int err;

	mutex_lock(&nf->lock);
	s = npusim_stream_find(nf, stream_id);
	if (s)
		kref_get(&s->ref);
	mutex_unlock(&nf->lock);
	if (!s)
		return -ENOENT;

	begin_ns = ktime_get_ns();
	err = wait_event_interruptible(s->idle_wq, npusim_stream_idle(s));
	end_ns = ktime_get_ns();
	spin_lock_irq(&s->lock);
	last_id = s->last_task_id;
	dead = s->dead;
	spin_unlock_irq(&s->lock);
	if (!err && dead)
		err = -ENOENT;
	if (!err)
		npusim_tp_sync(task_tgid_nr(current), task_pid_nr(current),
			       s->dev->id, s->id, last_id, NPUSIM_TASK_SYNC,
			       npusim_dev_ts(end_ns), end_ns - begin_ns, "");
	kref_put(&s->ref, npusim_stream_free);
	return err;
}
