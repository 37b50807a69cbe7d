// SPDX-License-Identifier: GPL-2.0
/*
 * The task record: one struct npuprof_rec_task per driver tracepoint hit
 * of a tgid some session owns, written into that session's ring of the
 * CPU it runs on.  Each driver backend's probe (drv_*.c), registered by
 * tp_attach.c on that driver's tracepoints, calls it with the fields
 * taken from its own prototype; a driver whose tracepoints name no
 * process calls npuprof_task_record_current() instead.
 */
#include <linux/hardirq.h>
#include <linux/irqflags.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/ktime.h> /* timekeeping.h alone does not build on 5.10 */
#include "npuprof.h"
#include "ring_frontend.h"

/*
 * Fill the reserved record.  hdr.ts is taken here, inside the IRQ-off
 * section, so timestamps in one CPU's ring never go backwards.
 */
static void npuprof_fill_task(struct npuprof_rec_task *rec, unsigned int cpu,
			      u16 event, u32 tgid, u32 tid, u32 device,
			      u32 stream, u32 task_id, u32 task_type,
			      u64 dev_ts, u64 arg, const char *name)
{
	rec->hdr.type = NPUPROF_REC_TASK;
	rec->hdr.size = sizeof(*rec);
	rec->hdr.cpu = cpu;
	rec->hdr.ts = ktime_get_ns();
	rec->dev_ts = dev_ts;
	rec->pid = tgid;
	rec->tid = tid;
	rec->device = device;
	rec->stream = stream;
	rec->task_id = task_id;
	rec->event = event;
	rec->task_type = (u16)task_type;
	rec->arg = arg;
	/* Bounded copy, NUL-padded: no stale ring bytes leak to the reader. */
	strscpy_pad(rec->name, name ? name : "", sizeof(rec->name));
}

/*
 * Write one task record into @s's ring of this CPU, if @s captures.  The
 * caller found @s under RCU (preemption off at the tracepoint call site).
 */
static void npuprof_session_task(struct npuprof_session *s, u16 event,
				 u32 tgid, u32 tid, u32 device, u32 stream,
				 u32 task_id, u32 task_type, u64 dev_ts,
				 u64 arg, const char *name)
{
	struct npuprof_rings *rs;
	struct npuprof_rec_task *rec;
	struct npuprof_ring *r;
	unsigned long flags;
	bool wake = false;
	unsigned int cpu;

	/* Acquire pairs with ENABLE's release: counters reset before use. */
	if (!s || !smp_load_acquire(&s->enabled))
		return;

	rs = &s->rings;
	local_irq_save(flags);
	cpu = smp_processor_id();
	r = rs->ring[cpu];
	rec = npuprof_ring_reserve(r, rs->data_size, sizeof(*rec));
	if (rec) {
		npuprof_fill_task(rec, cpu, event, tgid, tid, device,
				  stream, task_id, task_type, dev_ts, arg, name);
		npuprof_ring_commit(r, sizeof(*rec));
		wake = rs->data_size - npuprof_ring_free_bytes(r, rs->data_size) >=
		       rs->watermark;
	} else {
		npuprof_ring_count_lost(r);
		wake = true; /* full is above any watermark */
	}
	local_irq_restore(flags);

	/*
	 * Never wake_up() here: the probe may run under the scheduler's or a
	 * waitqueue's locks.  irq_work defers it to a clean IRQ context;
	 * wq_has_sleeper() (a full barrier) skips the work with no reader.
	 * One wake-up per poll() (npuprof_session_want_wake()): a woken reader
	 * stays on the wait queue until it runs, and queueing the work for
	 * every record until then costs a self-IPI each.
	 */
	if (wake && wq_has_sleeper(&s->wq) && npuprof_session_want_wake(s))
		irq_work_queue(&s->wake_work);
}

/**
 * npuprof_task_record() - record one driver task event
 * @event:     enum npuprof_task_event of the tracepoint
 * @tgid:      owner process of the task (the submitter), not "current"
 * @tid:       owner thread
 * @device:    device id, N of /dev/davinciN
 * @stream:    stream id
 * @task_id:   per-device task id
 * @task_type: enum npuprof_task_type (the record keeps 16 bits)
 * @dev_ts:    device clock count at the event
 * @arg:       kernel: requested ns; memcpy: bytes; sync: ns waited
 * @name:      kernel name, may be NULL; at most 31 bytes are kept
 *
 * Called by a backend's probe (drv_*.c) with preemption disabled
 * (tracepoint call site), in process, softirq or hardirq context.  The
 * event goes to the one session that owns
 * @tgid, if that session is enabled (tgid_table.c: an RCU lookup, valid
 * until we return), so a full ring only ever loses its own session's
 * records.  Everything between reserve and commit runs with local IRQs
 * disabled: the driver fires these tracepoints from process context
 * (submit) and from hrtimer callbacks (start/end), so a probe can
 * interrupt another probe on the same CPU.  Blocking IRQs for
 * the ~100-byte copy makes each CPU's ring a strict single producer at the
 * cost of a few hundred ns of IRQ latency, instead of the nested
 * reservation counters a lock-free multi-context ring would need.  NMIs
 * cannot be blocked that way; these tracepoints never fire in NMI, and if
 * one did it is refused before touching the ring.
 */
void npuprof_task_record(enum npuprof_task_event event, u32 tgid, u32 tid,
			 u32 device, u32 stream, u32 task_id, u32 task_type,
			 u64 dev_ts, u64 arg, const char *name)
{
	if (unlikely(in_nmi()))
		return;
	npuprof_session_task(npuprof_tgid_session(tgid), (u16)event, tgid,
			     tid, device, stream, task_id, task_type, dev_ts,
			     arg, name);
}

/**
 * npuprof_task_record_current() - record an event whose tracepoint names
 * no process (the real Ascend driver's trs_chan:sqe, trs_core:logic_cqe)
 * @event:     enum npuprof_task_event of the tracepoint
 * @device:    device id
 * @stream:    stream id
 * @task_id:   task id
 * @task_type: enum npuprof_task_type, 0 when the tracepoint has none
 * @dev_ts:    device clock count, 0 when the tracepoint has none
 * @arg:       event-specific (QUEUED/CQE: the SQE type)
 *
 * In process context, "current" is the submitter when the driver fires
 * in the submit call (a kio SQ): a followed process gets the record with
 * its tgid and tid, into its session.  From a kernel thread (a uio_t
 * forwarder, a completion worker) or an interrupt, current tells nothing:
 * the record goes with pid 0 to every capturing session, whose reader
 * attributes it by (device, stream) owner.  A process no session follows
 * is not recorded.  Same context rules as npuprof_task_record().
 */
void npuprof_task_record_current(enum npuprof_task_event event, u32 device,
				 u32 stream, u32 task_id, u32 task_type,
				 u64 dev_ts, u64 arg)
{
	struct npuprof_session *s;

	if (unlikely(in_nmi()))
		return;
	if (!in_task() || (current->flags & PF_KTHREAD)) {
		rcu_read_lock();
		list_for_each_entry_rcu(s, &npuprof_sessions, all)
			npuprof_session_task(s, (u16)event, 0, 0, device,
					     stream, task_id, task_type,
					     dev_ts, arg, NULL);
		rcu_read_unlock();
		return;
	}
	npuprof_task_record(event, task_tgid_nr(current),
			    task_pid_nr(current), device, stream, task_id,
			    task_type, dev_ts, arg, NULL);
}
