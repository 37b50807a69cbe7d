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

/*
 * The smallest record: a bare header.  A PAD must be able to hold one, so
 * the producer never leaves fewer than this many bytes (but more than 0)
 * at the end of the ring; see npuprof_ring_reserve().
 */
#define NPUPROF_MIN_REC ((u32)sizeof(struct npuprof_rec_hdr))

/**
 * npuprof_ring_free_bytes() - room the producer may write into
 * @r:         the ring
 * @data_size: bytes of data, a power of two
 *
 * consumer_pos comes from a user-writable page, so it is only ever used
 * as a number: a position ahead of the producer or more than @data_size
 * behind it makes the ring count as full (nothing is written, the reader
 * only hurts itself).  Acquire pairs with the reader's release store, so
 * its reads of the old bytes are done before we overwrite them.
 *
 * Return: free bytes, 0..@data_size.
 */
static __always_inline u64 npuprof_ring_free_bytes(const struct npuprof_ring *r,
						   u64 data_size)
{
	u64 used = r->head - smp_load_acquire(&r->cons->consumer_pos);

	if (used > data_size)
		return 0;
	return data_size - used;
}

/**
 * npuprof_ring_reserve() - claim @len contiguous bytes for one record
 * @r:         this CPU's ring (IRQs off)
 * @data_size: bytes of data, a power of two
 * @len:       record size in bytes, multiple of 8, >= NPUPROF_MIN_REC
 *
 * A record never wraps.  When it does not fit before the end of the data
 * area, or would leave a tail too short for a PAD header, the rest of the
 * area becomes one NPUPROF_REC_PAD record and the record starts at offset
 * 0.  The PAD is only written when the record fits too.  Every index is
 * the private head masked by @data_size - 1, never a reader's value.
 *
 * Return: where to write the record, or NULL when the ring is full.
 */
static __always_inline void *npuprof_ring_reserve(struct npuprof_ring *r,
						  u64 data_size, u32 len)
{
	u64 free = npuprof_ring_free_bytes(r, data_size);
	u64 off = r->head & (data_size - 1);
	u64 to_end = data_size - off;
	u64 pad = 0;
	struct npuprof_rec_hdr *ph;

	if (to_end != len && to_end < (u64)len + NPUPROF_MIN_REC)
		pad = to_end;
	if (pad + len > free)
		return NULL;
	if (pad) {
		/* pad < len + NPUPROF_MIN_REC, so it fits hdr.size (u16). */
		ph = (struct npuprof_rec_hdr *)(r->data + off);
		ph->type = NPUPROF_REC_PAD;
		ph->size = (u16)pad;
		ph->cpu = r->cpu;
		ph->ts = 0;
		off = 0;
	}
	r->reserved = r->head + pad;
	return r->data + off;
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
