/* SPDX-License-Identifier: MIT */
/*
 * An in-memory producer for the ring reader tests, following the ABI of
 * include/npuprof/npuprof_ioctl.h exactly as npuprof.ko must: free-running
 * positions, a record never wraps (the rest of the data area becomes one
 * PAD record, 8 bytes long at the least), discard mode when full (the
 * record is counted in @lost and not written), producer_pos published with
 * release semantics after the record is complete.
 */
#ifndef NPUPROF_TEST_MEMRING_H
#define NPUPROF_TEST_MEMRING_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/ring.h>

struct memring {
	struct npuprof_ring_consumer cons;
	struct npuprof_ring_producer prod;
	uint8_t *data;
	struct npuprof_ring_view view;
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

/* Write a PAD of @len bytes at data offset @off (len >= 8, a multiple of 8). */
static inline void memring_pad(struct memring *m, uint64_t off, uint32_t len, unsigned int cpu)
{
	struct npuprof_rec_hdr pad = { .type = NPUPROF_REC_PAD, .size = (uint16_t)len,
				       .cpu = cpu };

	memcpy(m->data + off, &pad, len < sizeof(pad) ? 8 : sizeof(pad));
}

/*
 * Produce one record of @rec->size bytes.  Return: 0; -ENOSPC when the
 * ring is full (the record is counted as lost, as in discard mode).
 */
static inline int memring_write(struct memring *m, const struct npuprof_rec_hdr *rec)
{
	uint64_t size_mask = m->view.data_size - 1;
	uint64_t prod = m->prod.producer_pos;
	uint64_t cons = __atomic_load_n(&m->cons.consumer_pos, __ATOMIC_ACQUIRE);
	uint64_t off = prod & size_mask;
	uint64_t pad = off + rec->size > m->view.data_size ? m->view.data_size - off : 0;

	if (prod + pad + rec->size - cons > m->view.data_size) {
		__atomic_fetch_add(&m->prod.lost, 1, __ATOMIC_RELAXED);
		return -ENOSPC;
	}
	if (pad)
		memring_pad(m, off, (uint32_t)pad, m->view.cpu);
	memcpy(m->data + ((prod + pad) & size_mask), rec, rec->size);
	__atomic_fetch_add(&m->prod.written, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&m->prod.producer_pos, prod + pad + rec->size, __ATOMIC_RELEASE);
	return 0;
}

#endif /* NPUPROF_TEST_MEMRING_H */
