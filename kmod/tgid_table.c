// SPDX-License-Identifier: GPL-2.0
/*
 * Which capture session owns a tgid.  A tgid belongs to at most one
 * session, and the probe looks the event's tgid up on every tracepoint
 * hit, so the table is an RCU hash (linux/hashtable.h): readers take no
 * lock, writers are serialised by one spinlock (not a mutex: writers will
 * include tracepoint probes, which must not sleep; nothing sleeps under
 * it, entries are allocated before it is taken).  An entry points at its
 * session; a session outlives its entries by a grace period (see
 * npuprof_session_destroy()), so the pointer a probe found stays valid
 * until the probe returns.  Besides the ioctls, proc_follow.c's probes
 * write it: a followed process's child joins at fork, a process leaves
 * at exit.
 */
#include <linux/hashtable.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include "npuprof.h"

/*
 * 1024 buckets (8 KiB): chains stay a few entries long even with
 * max_sessions x NPUPROF_MAX_TGIDS = 4096 tgids at the defaults, and the
 * usual handful of tgids leaves nearly every bucket empty, so an event of
 * an unselected process costs one hash and one load.
 */
#define NPUPROF_TGID_HASH_BITS 10

/**
 * struct npuprof_tgid_ent - one owned tgid
 * @node:    in npuprof_tgids (RCU)
 * @sibling: in the owning session's @tgids list (npuprof_tgid_lock)
 * @session: the owner
 * @tgid:    the process
 * @follow:  its new processes join @session too (NPUPROF_TGID_FOLLOW);
 *           written under npuprof_tgid_lock, read locklessly by the fork
 *           probe's first look
 * @rcu:     frees the entry once no probe can still see it
 */
struct npuprof_tgid_ent {
	struct hlist_node node;
	struct list_head sibling;
	struct npuprof_session *session;
	u32 tgid;
	bool follow;
	struct rcu_head rcu;
};

static DEFINE_HASHTABLE(npuprof_tgids, NPUPROF_TGID_HASH_BITS);
/* Serialises writers of npuprof_tgids and of every session's tgid list. */
static DEFINE_SPINLOCK(npuprof_tgid_lock);

/* Caller holds npuprof_tgid_lock. */
static struct npuprof_tgid_ent *npuprof_tgid_find(u32 tgid)
{
	struct npuprof_tgid_ent *e;

	hash_for_each_possible(npuprof_tgids, e, node, tgid)
		if (e->tgid == tgid)
			return e;
	return NULL;
}

/* Caller holds npuprof_tgid_lock; @e is freed after a grace period. */
static void npuprof_tgid_unhash(struct npuprof_tgid_ent *e)
{
	hash_del_rcu(&e->node);
	list_del(&e->sibling);
	e->session->nr_tgids--;
	kfree_rcu(e, rcu);
}

/* Caller holds npuprof_tgid_lock and checked that @s has room. */
static void npuprof_tgid_insert(struct npuprof_session *s,
				struct npuprof_tgid_ent *e, u32 tgid,
				bool follow)
{
	e->session = s;
	e->tgid = tgid;
	e->follow = follow;
	list_add(&e->sibling, &s->tgids);
	s->nr_tgids++;
	hash_add_rcu(npuprof_tgids, &e->node, tgid);
}

/**
 * npuprof_tgid_add() - make session @s the owner of @tgid
 * @s:     the session
 * @tgid:  process to record
 * @flags: NPUPROF_TGID_* bits, already checked; FOLLOW is only ever
 *         turned on, also on a tgid @s owns already
 *
 * Return: 0, also when @s owns @tgid already; -EINVAL for tgid 0; -EBUSY
 * when another session owns it (nothing changes); -ENOSPC when @s owns
 * NPUPROF_MAX_TGIDS tgids; -ENOMEM.
 */
int npuprof_tgid_add(struct npuprof_session *s, u32 tgid, u32 flags)
{
	bool follow = flags & NPUPROF_TGID_FOLLOW;
	struct npuprof_tgid_ent *e, *new;
	int ret = 0;

	if (!tgid)
		return -EINVAL;
	new = kmalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	spin_lock(&npuprof_tgid_lock);
	e = npuprof_tgid_find(tgid);
	if (e) {
		ret = e->session == s ? 0 : -EBUSY;
		if (!ret && follow)
			WRITE_ONCE(e->follow, true);
		goto out_unlock;
	}
	if (s->nr_tgids >= NPUPROF_MAX_TGIDS) {
		ret = -ENOSPC;
		goto out_unlock;
	}
	npuprof_tgid_insert(s, new, tgid, follow);
	new = NULL;
out_unlock:
	spin_unlock(&npuprof_tgid_lock);
	kfree(new);
	return ret;
}

/**
 * npuprof_tgid_del() - stop recording @tgid in session @s
 * @s:    the session
 * @tgid: process
 *
 * A probe that found the entry just before may still write one record of
 * @tgid into @s; DISABLE is the barrier for that, not this.
 *
 * Return: 0; -ENOENT when @s does not own @tgid (another session's tgid
 * stays untouched).
 */
int npuprof_tgid_del(struct npuprof_session *s, u32 tgid)
{
	struct npuprof_tgid_ent *e;
	int ret = 0;

	spin_lock(&npuprof_tgid_lock);
	e = tgid ? npuprof_tgid_find(tgid) : NULL;
	if (e && e->session == s)
		npuprof_tgid_unhash(e);
	else
		ret = -ENOENT;
	spin_unlock(&npuprof_tgid_lock);
	return ret;
}

/**
 * npuprof_tgid_drop_session() - give up every tgid session @s owns
 * @s: the session, about to be destroyed
 *
 * On return no new lookup finds @s and other sessions may take its tgids;
 * probes that found it before may still run until a grace period ends.
 */
void npuprof_tgid_drop_session(struct npuprof_session *s)
{
	struct npuprof_tgid_ent *e, *tmp;

	spin_lock(&npuprof_tgid_lock);
	list_for_each_entry_safe(e, tmp, &s->tgids, sibling)
		npuprof_tgid_unhash(e);
	spin_unlock(&npuprof_tgid_lock);
}

/**
 * npuprof_tgid_owner() - the process that opened the session owning @tgid
 * @tgid: process asked about
 *
 * Return: a reference the caller drops with put_pid(), or NULL when no
 * session owns @tgid.
 */
struct pid *npuprof_tgid_owner(u32 tgid)
{
	struct npuprof_tgid_ent *e;
	struct pid *owner = NULL;

	spin_lock(&npuprof_tgid_lock);
	e = npuprof_tgid_find(tgid);
	if (e)
		owner = get_pid(e->session->owner);
	spin_unlock(&npuprof_tgid_lock);
	return owner;
}

/* Lock-free lookup; the caller is in an RCU read-side critical section. */
static struct npuprof_tgid_ent *npuprof_tgid_lookup(u32 tgid)
{
	struct npuprof_tgid_ent *e;

	hash_for_each_possible_rcu_notrace(npuprof_tgids, e, node, tgid)
		if (e->tgid == tgid)
			return e;
	return NULL;
}

/**
 * npuprof_tgid_session() - the session that owns @tgid, for the probe
 * @tgid: the event's tgid
 *
 * Lock-free.  The caller must be in an RCU read-side critical section (a
 * tracepoint probe is: it runs with preemption disabled) and may use the
 * session until that section ends.
 *
 * Return: the session, or NULL when no session owns @tgid.
 */
struct npuprof_session *npuprof_tgid_session(u32 tgid)
{
	struct npuprof_tgid_ent *e = npuprof_tgid_lookup(tgid);

	return e ? e->session : NULL;
}

/**
 * npuprof_tgid_exit() - the process @tgid is gone: it leaves its session
 * @tgid: the exiting process
 *
 * Called from the sched_process_exit probe (preemption disabled), for
 * every process that exits on the system: the lock is only taken when a
 * session has @tgid.  The ABI header says what this means to readers.
 */
void npuprof_tgid_exit(u32 tgid)
{
	struct npuprof_tgid_ent *e;

	if (!npuprof_tgid_lookup(tgid))
		return;
	spin_lock(&npuprof_tgid_lock);
	e = npuprof_tgid_find(tgid);
	if (e)
		npuprof_tgid_unhash(e);
	spin_unlock(&npuprof_tgid_lock);
}

/*
 * A followed process forked @child: under the lock, with @new (may be NULL:
 * no memory) for its entry.  Return: whether @new was used.
 */
static bool npuprof_tgid_join(u32 parent, u32 child,
			      struct npuprof_tgid_ent *new)
{
	struct npuprof_tgid_ent *p, *c;
	struct npuprof_session *s;

	/* DEL_TGID or the last close may have come between. */
	p = npuprof_tgid_find(parent);
	if (!p || !p->follow)
		return false;
	s = p->session;
	c = npuprof_tgid_find(child);
	if (c && c->session == s) { /* added before it existed */
		WRITE_ONCE(c->follow, true);
		s->follow_joined++;
		return false;
	}
	if (c || !new || s->nr_tgids >= NPUPROF_MAX_TGIDS) {
		s->follow_missed++;
		return false;
	}
	npuprof_tgid_insert(s, new, child, true);
	s->follow_joined++;
	return true;
}

/**
 * npuprof_tgid_fork() - process @parent forked the new process @child
 * @parent: tgid of the forking process
 * @child:  tgid of the new process (not a thread of @parent)
 *
 * Called from the sched_process_fork probe (preemption disabled), before
 * @child first runs, for every fork on the system: nothing but a
 * lock-free lookup unless a session follows @parent.  Then @child joins
 * that session, followed too, or counts as missed there (ABI header).
 */
void npuprof_tgid_fork(u32 parent, u32 child)
{
	struct npuprof_tgid_ent *p = npuprof_tgid_lookup(parent);
	struct npuprof_tgid_ent *new;

	if (!p || !READ_ONCE(p->follow))
		return;
	/* No sleeping here; a failure is counted as a miss, not warned. */
	new = kmalloc(sizeof(*new), GFP_ATOMIC | __GFP_NOWARN);
	spin_lock(&npuprof_tgid_lock);
	if (npuprof_tgid_join(parent, child, new))
		new = NULL;
	spin_unlock(&npuprof_tgid_lock);
	kfree(new);
}

/**
 * npuprof_tgid_follow_stats() - what following did for session @s
 * @s:  the session
 * @st: out: its counters and tgid count; reserved fields zeroed
 */
void npuprof_tgid_follow_stats(struct npuprof_session *s,
			       struct npuprof_follow_stats *st)
{
	memset(st, 0, sizeof(*st));
	spin_lock(&npuprof_tgid_lock);
	st->joined = s->follow_joined;
	st->missed = s->follow_missed;
	st->nr_tgids = s->nr_tgids;
	spin_unlock(&npuprof_tgid_lock);
}
