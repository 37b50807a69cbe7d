// SPDX-License-Identifier: GPL-2.0
/*
 * A capture session: everything one open of /dev/npuprof owns.  Its
 * per-CPU rings, allocated at open; its tgids (tgid_table.c); its enabled
 * flag, counters, poll wait queue and wake-up.  Probes reach a session
 * only through the tgid table, inside the tracepoint call, so one grace
 * period (tracepoint_synchronize_unregister()) is all that stopping or
 * destroying a session has to wait for.
 */
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include "npuprof.h"

/* Every session; written under npuprof_sessions_lock, read under RCU. */
LIST_HEAD(npuprof_sessions);
static DEFINE_MUTEX(npuprof_sessions_lock);

static void npuprof_wake_work_fn(struct irq_work *work)
{
	struct npuprof_session *s =
		container_of(work, struct npuprof_session, wake_work);

	wake_up_all(&s->wq);
}

/**
 * npuprof_session_create() - a new session of the calling process
 * @ring_pages: data pages per CPU ring, a power of two
 * @watermark:  bytes of unread data that wake a poll()ing reader
 *
 * Allocates possible CPUs x (@ring_pages + 2) pages of rings.  Capture is
 * off and the session owns no tgid.
 *
 * Return: the session; ERR_PTR(-ENOMEM), or ERR_PTR(-EINVAL) for a bad
 * @ring_pages.
 */
struct npuprof_session *npuprof_session_create(unsigned int ring_pages,
					       u64 watermark)
{
	struct npuprof_session *s;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	ret = npuprof_rings_alloc(&s->rings, ring_pages, watermark);
	if (ret) {
		kfree(s);
		return ERR_PTR(ret);
	}
	INIT_LIST_HEAD(&s->tgids);
	mutex_init(&s->lock);
	init_waitqueue_head(&s->wq);
	init_irq_work(&s->wake_work, npuprof_wake_work_fn);
	s->owner = get_pid(task_tgid(current));
	mutex_lock(&npuprof_sessions_lock);
	list_add_tail_rcu(&s->all, &npuprof_sessions);
	mutex_unlock(&npuprof_sessions_lock);
	return s;
}

/**
 * npuprof_session_destroy() - free a session at the last close
 * @s: the session; its file is being released, so no ioctl, poll() or
 *     mapping of it is left
 *
 * Capture may still be on, with probes writing: the tgids and the list
 * entry go first, so no new probe finds @s, then a grace period waits for those that did and
 * irq_work_sync() for a wake-up they queued, before the rings are freed.
 * The grace period is needed even with capture off: a probe registered
 * for another session may have found @s and be reading @s->enabled.
 */
void npuprof_session_destroy(struct npuprof_session *s)
{
	npuprof_tgid_drop_session(s);
	mutex_lock(&npuprof_sessions_lock);
	list_del_rcu(&s->all);
	mutex_unlock(&npuprof_sessions_lock);
	if (READ_ONCE(s->enabled)) {
		WRITE_ONCE(s->enabled, 0);
		npuprof_tp_put();
	}
	tracepoint_synchronize_unregister();
	irq_work_sync(&s->wake_work);
	npuprof_rings_free(&s->rings);
	put_pid(s->owner);
	mutex_destroy(&s->lock);
	kfree(s);
}

/* Capture off; on return no probe writes @s, nor runs a wake-up it queued. */
static void npuprof_session_quiesce(struct npuprof_session *s)
{
	WRITE_ONCE(s->enabled, 0);
	tracepoint_synchronize_unregister();
	irq_work_sync(&s->wake_work);
}

/**
 * npuprof_session_stop() - capture off; returns once no probe writes @s
 * @s: the session; caller holds @s->lock
 *
 * Probes run with preemption disabled inside the tracepoint call, which is
 * what tracepoint_synchronize_unregister() (SRCU + RCU grace period) waits
 * for.  Other sessions capture on undisturbed; after the last one the
 * probes are unregistered (npuprof_tp_put()).
 */
void npuprof_session_stop(struct npuprof_session *s)
{
	lockdep_assert_held(&s->lock);
	if (!READ_ONCE(s->enabled))
		return;
	npuprof_tp_put();
	npuprof_session_quiesce(s);
	wake_up_all(&s->wq); /* the final drain must not wait */
}

/**
 * npuprof_session_start() - reset the counters and start capture
 * @s: the session; caller holds @s->lock
 *
 * The first start registers the probes (npuprof_tp_get()); a start while
 * capturing keeps them and only quiesces @s, so no probe is writing the
 * counters while they are zeroed.  The release store pairs with the
 * probe's acquire load.
 */
void npuprof_session_start(struct npuprof_session *s)
{
	lockdep_assert_held(&s->lock);
	if (READ_ONCE(s->enabled))
		npuprof_session_quiesce(s);
	else
		npuprof_tp_get();
	npuprof_rings_reset_counters(&s->rings);
	smp_store_release(&s->enabled, 1); /* pairs with the probe's acquire */
}

/**
 * npuprof_session_readable() - whether poll() reports POLLIN
 * @s: the session
 *
 * Return: true when one of its rings holds at least the watermark, or
 * anything at all once capture is off, so the reader's final drain never
 * waits.
 */
bool npuprof_session_readable(struct npuprof_session *s)
{
	const struct npuprof_rings *rs = &s->rings;
	u64 need = READ_ONCE(s->enabled) ? rs->watermark : 1;
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (npuprof_ring_pending(rs, rs->ring[cpu]) >= need)
			return true;
	return false;
}
