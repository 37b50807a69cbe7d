/* SPDX-License-Identifier: MIT */
/*
 * Consumer side of one npuprof ring buffer (layout in
 * include/npuprof/npuprof_ioctl.h).  Pure memory logic with no system
 * calls, so the same code reads the kernel's mmap()ed rings and the
 * in-memory rings of the unit tests.
 */
#ifndef NPUPROF_RING_H
#define NPUPROF_RING_H

#include <npuprof/record_io.h>
#include <npuprof/npuprof_ioctl.h>

/**
 * struct npuprof_ring_view - one CPU's ring as the consumer sees it
 * @cons:      consumer page (read-write)
 * @prod:      producer page (read-only)
 * @data:      data area, @data_size bytes, a power of two
 * @data_size: bytes
 * @cpu:       CPU id, for messages
 */
struct npuprof_ring_view {
	struct npuprof_ring_consumer *cons;
	const struct npuprof_ring_producer *prod;
	const uint8_t *data;
	uint64_t data_size;
	unsigned int cpu;
};

/**
 * npuprof_ring_consume() - hand every published record to @fn, then free it
 * @r:   the ring
 * @fn:  callback per record (PAD records are skipped, not passed)
 * @ctx: for @fn
 *
 * Reads [consumer_pos, producer_pos) with acquire/release ordering and
 * advances consumer_pos after each record so the producer can reuse it.
 *
 * Return: records delivered (>= 0); -EBADMSG when a header is corrupt
 * (size 0, not aligned, or past the published data), leaving consumer_pos
 * at the bad record; or the negative value @fn returned.
 */
long npuprof_ring_consume(struct npuprof_ring_view *r, npuprof_rec_fn fn, void *ctx);

/** npuprof_ring_pending() - bytes published and not yet consumed. */
uint64_t npuprof_ring_pending(const struct npuprof_ring_view *r);

/**
 * npuprof_ring_skip_published() - give up on everything published so far
 * @r: the ring
 *
 * For a ring npuprof_ring_consume() refused with -EBADMSG: moves
 * consumer_pos to producer_pos (release), so the producer can reuse the
 * space and the next records are read from a clean start.  The records in
 * the skipped bytes cannot be counted, as their headers are not to be
 * trusted.
 *
 * Return: bytes skipped; when the positions themselves were impossible
 * (consumer ahead of producer, or more than a ring behind), @r->data_size,
 * the most a ring can have held.
 */
uint64_t npuprof_ring_skip_published(struct npuprof_ring_view *r);

#endif /* NPUPROF_RING_H */
