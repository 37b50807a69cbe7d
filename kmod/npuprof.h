/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal interfaces between the parts of npuprof.ko:
 *
 *   ring_backend.c   per-CPU ring regions (vmalloc_user) and their mmap
 *   ring_frontend.h  reserve/commit fast path used by the probe
 *   session.c        a capture session: its rings, enable/disable, teardown
 *   tgid_table.c     which session owns a tgid (RCU hash, probe lookup)
 *   probes.c         task record: route by tgid, write into the ring
 *   drv_*.c          one per driver backend: tracepoint names and a probe
 *                    with their prototype that calls probes.c
 *   tp_attach.c      find the drivers' tracepoints by name; probes on
 *                    while a session captures
 *   proc_follow.c    core process tracepoints: children join at fork,
 *                    tgids leave at exit
 *   npuprof_main.c   module init/exit, /dev/npuprof, ioctls, poll
 *
 * The user ABI is include/npuprof/npuprof_ioctl.h; the record format is
 * include/npuprof/record.h.
 */
#ifndef NPUPROF_KMOD_H
#define NPUPROF_KMOD_H

#include <linux/list.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/irq_work.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <npuprof/npuprof_ioctl.h>
#include <npuprof/record.h>

/**
 * struct npuprof_ring - kernel side of one CPU's ring buffer
 * @region:   vmalloc_user() area: consumer page, producer page, data
 * @cons:     consumer page (user-writable: every value read is untrusted)
 * @prod:     producer page (mapped read-only)
 * @data:     data area, npuprof_rings.data_size bytes
 * @head:     private producer position, the truth @prod->producer_pos
 *            publishes; only the owning CPU writes it, with IRQs off
 * @reserved: start position of the record being written (reserve->commit)
 * @cpu:      owning CPU
 */
struct npuprof_ring {
	void *region;
	struct npuprof_ring_consumer *cons;
	struct npuprof_ring_producer *prod;
	u8 *data;
	u64 head;
	u64 reserved;
	unsigned int cpu;
};

/**
 * struct npuprof_rings - the per-CPU rings and their geometry
 * @ring:        array of nr_cpu_ids pointers, NULL for impossible CPUs
 * @data_size:   bytes of data per CPU, a power of two
 * @region_size: bytes per CPU region (2 pages + @data_size)
 * @watermark:   pending bytes that wake a poll()ing reader
 */
struct npuprof_rings {
	struct npuprof_ring **ring;
	u64 data_size;
	u64 region_size;
	u64 watermark;
};

/**
 * struct npuprof_session - one open of /dev/npuprof: a capture session
 * @rings:     its per-CPU ring buffers, allocated at open
 * @enabled:   capture on; probes read it with acquire semantics; while
 *             set the session holds a npuprof_tp_get() reference
 * @tgids:     entries of tgid_table.c this session owns, under that
 *             table's lock
 * @nr_tgids:  how many (at most NPUPROF_MAX_TGIDS)
 * @follow_joined: children of followed processes that joined, since open
 * @follow_missed: children of followed processes that could not join
 *             (NPUPROF_IOC_FOLLOW_STATS); both under the table's lock
 * @owner:     the process that opened the session (NPUPROF_IOC_TGID_OWNER)
 * @lock:      serialises ENABLE and DISABLE of this session
 * @wq:        poll() waiters
 * @wake_work: defers the reader wake-up out of probe context
 * @wake_sent: a probe queued @wake_work since the last poll() call;
 *             probes set it, poll() clears it (npuprof_session_want_wake())
 * @all:       in npuprof_sessions, for events that name no process
 *             (npuprof_task_record_current())
 *
 * Probes find a session through the tgid table under RCU and write its
 * rings; npuprof_session_destroy() unhashes it and waits for them before
 * anything is freed.
 */
struct npuprof_session {
	struct npuprof_rings rings;
	int enabled;
	struct list_head tgids;
	unsigned int nr_tgids;
	u64 follow_joined;
	u64 follow_missed;
	struct pid *owner;
	struct mutex lock;
	wait_queue_head_t wq;
	struct irq_work wake_work;
	bool wake_sent;
	struct list_head all;
};

/* Every session, RCU list (session.c); probes walk it under RCU. */
extern struct list_head npuprof_sessions;

/* ring_backend.c */
int npuprof_rings_check(unsigned int pages);
int npuprof_rings_alloc(struct npuprof_rings *rs, unsigned int pages,
			u64 watermark);
void npuprof_rings_free(struct npuprof_rings *rs);
int npuprof_rings_mmap(struct npuprof_rings *rs, struct vm_area_struct *vma);
u64 npuprof_ring_pending(const struct npuprof_rings *rs,
			 const struct npuprof_ring *r);
void npuprof_rings_reset_counters(struct npuprof_rings *rs);
int npuprof_rings_stats(const struct npuprof_rings *rs,
			struct npuprof_cpu_stats *st);

/* session.c */
struct npuprof_session *npuprof_session_create(unsigned int ring_pages,
					       u64 watermark);
void npuprof_session_destroy(struct npuprof_session *s);
void npuprof_session_start(struct npuprof_session *s);
void npuprof_session_stop(struct npuprof_session *s);
bool npuprof_session_readable(struct npuprof_session *s);

/**
 * npuprof_session_want_wake() - whether a probe should wake the reader
 * @s: the session; the caller saw a sleeper after publishing its record
 *
 * The first probe since the reader's last poll() call gets true, the
 * others false.  No wake-up is lost: poll() clears the flag, then queues
 * itself, then (full barrier) looks at the rings; a probe publishes, then
 * (the full barrier of wq_has_sleeper()) reads the flag.  So either the
 * probe sees the flag clear or poll() sees the record.
 */
static inline bool npuprof_session_want_wake(struct npuprof_session *s)
{
	if (READ_ONCE(s->wake_sent))
		return false;
	WRITE_ONCE(s->wake_sent, true);
	return true;
}

/* tgid_table.c */
int npuprof_tgid_add(struct npuprof_session *s, u32 tgid, u32 flags);
int npuprof_tgid_del(struct npuprof_session *s, u32 tgid);
void npuprof_tgid_drop_session(struct npuprof_session *s);
struct pid *npuprof_tgid_owner(u32 tgid);
struct npuprof_session *npuprof_tgid_session(u32 tgid);
void npuprof_tgid_fork(u32 parent, u32 child);
void npuprof_tgid_exit(u32 tgid);
void npuprof_tgid_follow_stats(struct npuprof_session *s,
			       struct npuprof_follow_stats *st);

/* probes.c */
void npuprof_task_record(enum npuprof_task_event event, u32 tgid, u32 tid,
			 u32 device, u32 stream, u32 task_id, u32 task_type,
			 u64 dev_ts, u64 arg, const char *name);
void npuprof_task_record_current(enum npuprof_task_event event, u32 device,
				 u32 stream, u32 task_id, u32 task_type,
				 u64 dev_ts, u64 arg);

/**
 * struct npuprof_drv - a driver backend's task tracepoints (drv_*.c)
 * @name:    backend name, as in include/npuprof/drv/ (LIST_TP reports it)
 * @tp:      tracepoint name of each enum npuprof_tp_bit, NULL for none
 * @probe:   probe with the tracepoints' exact prototype; its data is the
 *           enum npuprof_task_event of the tracepoint, as a pointer value,
 *           and it calls npuprof_task_record()
 * @probes:  per event, a probe for a tracepoint whose prototype differs
 *           from the others' (NULL: @probe)
 * @modules: NULL-terminated names of the modules that may define the
 *           tracepoints, or NULL for any module
 *
 * The kernel keeps no prototype with a tracepoint, so a name is trusted
 * to mean its backend's prototype: the names carry the driver's prefix,
 * or, when the driver's names are bare words ("sqe"), @modules says whose.
 * The drivers npuprof.ko knows are listed in kmod/Kbuild.
 */
struct npuprof_drv {
	const char *name;
	const char *tp[NPUPROF_TP_COUNT];
	void *probe;
	void *probes[NPUPROF_TP_COUNT];
	const char *const *modules;
};

/* tp_attach.c */
int npuprof_tp_init(void);
void npuprof_tp_exit(void);
u32 npuprof_tp_attached(void);
void npuprof_tp_list(struct npuprof_tp_list *list);
void npuprof_tp_get(void);
void npuprof_tp_put(void);

/* proc_follow.c */
int npuprof_follow_init(void);
void npuprof_follow_exit(void);

#endif /* NPUPROF_KMOD_H */
