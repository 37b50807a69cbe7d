// SPDX-License-Identifier: MIT
/*
 * Consumer of one npuprof ring buffer (layout and memory ordering in
 * include/npuprof/npuprof_ioctl.h).  Pure memory logic: the same code reads
 * the rings npuprof.ko maps into the reader and the in-memory rings of the
 * unit tests.
 *
 * Ordering: producer_pos is loaded with acquire semantics, so every record
 * byte below it is visible; consumer_pos is stored with release semantics
 * after a record has been handed out, so the producer never reuses bytes the
 * callback may still be reading.  consumer_pos is ours alone: a relaxed load
 * suffices.
 *
 * The producer is trusted to follow the ABI but its data is checked anyway:
 * a header that cannot be right stops the read at that record with
 * -EBADMSG instead of walking off into stale bytes.
 */
#include <errno.h>
#include <string.h>

#include <npuprof/ring.h>

static uint64_t ring_load_prod(const struct npuprof_ring_view *r)
{
	return __atomic_load_n(&r->prod->producer_pos, __ATOMIC_ACQUIRE);
}

static uint64_t ring_load_cons(const struct npuprof_ring_view *r)
{
	return __atomic_load_n(&r->cons->consumer_pos, __ATOMIC_RELAXED);
}

static void ring_store_cons(struct npuprof_ring_view *r, uint64_t pos)
{
	__atomic_store_n(&r->cons->consumer_pos, pos, __ATOMIC_RELEASE);
}

/*
 * Size of the record at @pos, or 0 when its header is corrupt: size 0 or
 * not a multiple of NPUPROF_REC_ALIGN, shorter than a header, running past
 * the end of the data area (records never wrap) or past @prod.  A PAD is a
 * record like any other: the producer never leaves a tail too short for a
 * whole header (kmod/ring_layout.h), so a shorter one is corrupt too.
 */
static uint32_t ring_rec_size(const struct npuprof_ring_view *r, uint64_t pos,
			      uint64_t prod, uint16_t *type)
{
	uint64_t off = pos & (r->data_size - 1);
	const struct npuprof_rec_hdr *h = (const void *)(r->data + off);
	uint32_t size = h->size;

	*type = h->type;
	if (size == 0 || size % NPUPROF_REC_ALIGN)
		return 0;
	if (size < sizeof(*h))
		return 0;
	if (size > r->data_size - off || size > prod - pos)
		return 0;
	return size;
}

long npuprof_ring_consume(struct npuprof_ring_view *r, npuprof_rec_fn fn, void *ctx)
{
	uint64_t prod = ring_load_prod(r);
	uint64_t pos = ring_load_cons(r);
	long delivered = 0;

	/* Positions that no producer could have published: refuse to read. */
	if (prod < pos || prod - pos > r->data_size)
		return -EBADMSG;
	while (pos < prod) {
		uint16_t type;
		uint32_t size = ring_rec_size(r, pos, prod, &type);
		int err;

		if (!size)
			return -EBADMSG;
		if (type != NPUPROF_REC_PAD) {
			err = fn(ctx, (const void *)(r->data + (pos & (r->data_size - 1))));
			if (err < 0)
				return err; /* the record stays in the ring */
			delivered++;
		}
		pos += size;
		ring_store_cons(r, pos);
	}
	return delivered;
}

uint64_t npuprof_ring_pending(const struct npuprof_ring_view *r)
{
	return ring_load_prod(r) - ring_load_cons(r);
}

uint64_t npuprof_ring_skip_published(struct npuprof_ring_view *r)
{
	uint64_t prod = ring_load_prod(r);
	uint64_t bytes = prod - ring_load_cons(r);

	/* Positions no producer could have published: at most one ring's
	 * worth of records can have been in it. */
	if (bytes > r->data_size)
		bytes = r->data_size;
	ring_store_cons(r, prod);
	return bytes;
}
