/* SPDX-License-Identifier: MIT */
/*
 * An in-memory producer for the ring reader tests, following the ABI of
 * include/npuprof/npuprof_ioctl.h as npuprof.ko does: free-running
 * positions, a record never wraps, discard mode when full (the record is
 * counted in @lost and not written), producer_pos published with release
 * semantics after the record is complete.
 *
 * Where a record goes, and when the tail of the data area becomes a PAD,
 * is decided by npuprof_ring_place() from kmod/ring_layout.h: the same
 * function npuprof.ko's fast path calls, so these tests run the kernel's
 * rule, not a copy of it.  The PAD is written as the kernel writes it
 * (whole header, ts 0).
 */
#ifndef NPUPROF_TEST_MEMRING_H
#define NPUPROF_TEST_MEMRING_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/ring.h>
#include "../../kmod/ring_layout.h"

_Static_assert(NPUPROF_RING_MIN_REC == sizeof(struct npuprof_rec_hdr),
	       "ring_layout.h: NPUPROF_RING_MIN_REC is not the record header size");

/**
 * struct memring - one CPU's ring in plain memory
 * @cons:  consumer page
 * @prod:  producer page
 * @data:  data area, view.data_size bytes, filled with 0xa5 at init
 * @view:  what the reader (user/ring.c) is given
 * @last:  slot of the last record written, for tests of the layout
 */
struct memring {
	struct npuprof_ring_consumer cons;
	struct npuprof_ring_producer prod;
	uint8_t *data;
	struct npuprof_ring_view view;
	struct npuprof_ring_slot last;
};

static inline int memring_init(struct memring *m, uint64_t data_size, unsigned int cpu)
{
	memset(m, 0, sizeof(*m));
	m->data = aligned_alloc(64, data_size);
	if (!m->data)
		return -ENOMEM;
	memset(m->data, 0xa5, data_size); /* stale bytes a reader must not trust */
	m->view.cons = &m->cons;
	m->view.prod = &m->prod;
	m->view.data = m->data;
	m->view.data_size = data_size;
	m->view.cpu = cpu;
	return 0;
}

static inline void memring_free(struct memring *m)
{
	free(m->data);
	m->data = NULL;
}

/*
 * Produce one record of @rec->size bytes.  Return: 0; -ENOSPC when the
 * ring is full (the record is counted as lost, as in discard mode).
 */
static inline int memring_write(struct memring *m, const struct npuprof_rec_hdr *rec)
{
	uint64_t prod = m->prod.producer_pos;
	uint64_t cons = __atomic_load_n(&m->cons.consumer_pos, __ATOMIC_ACQUIRE);
	struct npuprof_ring_slot s;

	if (!npuprof_ring_place(prod, cons, m->view.data_size, rec->size, &s)) {
		__atomic_fetch_add(&m->prod.lost, 1, __ATOMIC_RELAXED);
		return -ENOSPC;
	}
	if (s.pad) {
		struct npuprof_rec_hdr pad = { .type = NPUPROF_REC_PAD, .size = (uint16_t)s.pad,
					       .cpu = m->view.cpu };

		memcpy(m->data + s.pad_off, &pad, sizeof(pad));
	}
	memcpy(m->data + s.off, rec, rec->size);
	m->last = s;
	__atomic_fetch_add(&m->prod.written, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&m->prod.producer_pos, s.start + rec->size, __ATOMIC_RELEASE);
	return 0;
}

/*
 * A drain source of one in-memory ring on CPU 0 behind an eventfd: the
 * test writes with memring_write() and pokes @efd; consume() reads the
 * eventfd's count and the ring (an eventfd source must stop being
 * readable once consumed, see user/drain.c).
 */
struct memring_src {
	struct memring ring;
	int efd;
};

static inline long memring_src_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	struct memring_src *f = obj;
	uint64_t v;

	if (read(f->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	return npuprof_ring_consume(&f->ring.view, fn, ctx);
}

#endif /* NPUPROF_TEST_MEMRING_H */
