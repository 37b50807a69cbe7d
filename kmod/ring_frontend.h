/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Producer fast path of the per-CPU rings: reserve space for one record,
 * fill it in place, commit (publish) it.  Discard mode only: a record that
 * does not fit is not written and the caller counts it as lost.
 *
 * Concurrency contract: one producer per CPU, and the caller keeps local
 * IRQs disabled from reserve to commit (see probes.c for why), so reserve
 * and commit of one CPU never interleave with another record on that CPU.
 * The only other party is the reader, which shares nothing with us but
 * producer_pos (we write, release) and consumer_pos (it writes, release).
 */
#ifndef NPUPROF_RING_FRONTEND_H
#define NPUPROF_RING_FRONTEND_H

#include <linux/compiler.h>
#include <asm/barrier.h>
#include "npuprof.h"
#include "ring_layout.h"

/* The shared rule measures records in header sizes: they must agree. */
_Static_assert(NPUPROF_RING_MIN_REC == sizeof(struct npuprof_rec_hdr),
	       "ring_layout.h: NPUPROF_RING_MIN_REC is not the record header size");

/**
 * npuprof_ring_free_bytes() - room the producer may write into
 * @r:         the ring
 * @data_size: bytes of data, a power of two
 *
 * consumer_pos comes from a user-writable page, so it is only ever used
 * as a number (see npuprof_ring_room()).  Acquire pairs with the reader's
 * release store, so its reads of the old bytes are done before we
 * overwrite them.
 *
 * Return: free bytes, 0..@data_size.
 */
static __always_inline u64 npuprof_ring_free_bytes(const struct npuprof_ring *r,
						   u64 data_size)
{
	return npuprof_ring_room(r->head,
				 smp_load_acquire(&r->cons->consumer_pos),
				 data_size);
}

/**
 * npuprof_ring_reserve() - claim @len contiguous bytes for one record
 * @r:         this CPU's ring (IRQs off)
 * @data_size: bytes of data, a power of two
 * @len:       record size in bytes, multiple of 8, >= NPUPROF_RING_MIN_REC
 *
 * Where the record goes, and whether the tail of the data area becomes a
 * NPUPROF_REC_PAD record first, is npuprof_ring_place()'s decision (the
 * rule is in ring_layout.h, shared with the host tests).  The PAD is only
 * written when the record fits too.
 *
 * Return: where to write the record, or NULL when the ring is full.
 */
static __always_inline void *npuprof_ring_reserve(struct npuprof_ring *r,
						  u64 data_size, u32 len)
{
	u64 cons = smp_load_acquire(&r->cons->consumer_pos);
	struct npuprof_ring_slot slot;
	struct npuprof_rec_hdr *ph;

	if (!npuprof_ring_place(r->head, cons, data_size, len, &slot))
		return NULL;
	if (slot.pad) {
		/* slot.pad < len + NPUPROF_RING_MIN_REC: it fits hdr.size. */
		ph = (struct npuprof_rec_hdr *)(r->data + slot.pad_off);
		ph->type = NPUPROF_REC_PAD;
		ph->size = (u16)slot.pad;
		ph->cpu = r->cpu;
		ph->ts = 0;
	}
	r->reserved = slot.start;
	return r->data + slot.off;
}

/**
 * npuprof_ring_commit() - publish the record reserved last
 * @r:   this CPU's ring (IRQs off, same section as the reserve)
 * @len: the length passed to npuprof_ring_reserve()
 *
 * Release ordering makes the record bytes (and a PAD before it) visible
 * before the new producer_pos.
 */
static __always_inline void npuprof_ring_commit(struct npuprof_ring *r,
						u32 len)
{
	r->head = r->reserved + len;
	WRITE_ONCE(r->prod->written, r->prod->written + 1);
	smp_store_release(&r->prod->producer_pos, r->head);
}

/** npuprof_ring_count_lost() - count one record dropped (ring full). */
static __always_inline void npuprof_ring_count_lost(struct npuprof_ring *r)
{
	WRITE_ONCE(r->prod->lost, r->prod->lost + 1);
}

#endif /* NPUPROF_RING_FRONTEND_H */
