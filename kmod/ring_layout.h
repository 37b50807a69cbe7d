/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Where the next record goes in a per-CPU ring: the producer's position
 * arithmetic, as pure functions of numbers.  npuprof.ko's fast path
 * (kmod/ring_frontend.h) and the in-memory producer of the host tests
 * (tests/unit/memring.h) both call these, so the tests exercise the very
 * rule the kernel follows: free space against an untrusted consumer
 * position, whether the tail of the data area becomes a PAD record, and
 * the offset of the record.
 *
 * No kernel API and no libc here, only <linux/types.h> types, so the file
 * builds in both worlds.
 *
 * The rule.  A record never wraps.  With to_end bytes left before the end
 * of the data area, a record of len bytes goes at the current offset when
 * it fills the tail exactly (to_end == len) or leaves room for at least a
 * record header (to_end >= len + NPUPROF_RING_MIN_REC); otherwise the whole
 * tail becomes one PAD record and the record starts at offset 0.  So every
 * tail left behind is 0 or >= NPUPROF_RING_MIN_REC bytes, and every PAD
 * carries a whole header (>= 16 bytes): a reader never meets a stub.
 */
#ifndef NPUPROF_RING_LAYOUT_H
#define NPUPROF_RING_LAYOUT_H

#include <linux/types.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif

/* Bytes of struct npuprof_rec_hdr: the smallest record and the smallest PAD. */
#define NPUPROF_RING_MIN_REC 16U

/* The largest record the rule accepts: a PAD of up to len + 8 bytes must
 * still fit the u16 hdr.size. */
#define NPUPROF_RING_MAX_REC (0xffffU - 7U - NPUPROF_RING_MIN_REC)

/**
 * struct npuprof_ring_slot - where one record goes
 * @pad:     bytes of the PAD record to write first, 0 for none
 * @pad_off: data offset of that PAD (the producer's current offset)
 * @off:     data offset of the record
 * @start:   producer position of the record; the position after it is
 *           @start + len
 */
struct npuprof_ring_slot {
	__u64 pad;
	__u64 pad_off;
	__u64 off;
	__u64 start;
};

/**
 * npuprof_ring_room() - bytes the producer may still write
 * @head:      producer position (the producer's own, trusted)
 * @cons:      consumer position as read from the reader's page (untrusted)
 * @data_size: bytes of data, a power of two
 *
 * A consumer position ahead of @head, or more than @data_size behind it,
 * cannot come from a reader following the ABI: the ring then counts as
 * full, so a bad reader only loses its own records.
 *
 * Return: free bytes, 0..@data_size.
 */
static __always_inline __u64 npuprof_ring_room(__u64 head, __u64 cons,
					       __u64 data_size)
{
	__u64 used = head - cons;

	if (used > data_size)
		return 0;
	return data_size - used;
}

/**
 * npuprof_ring_place() - decide where a record of @len bytes goes
 * @head:      producer position, a multiple of 8
 * @cons:      consumer position (untrusted, see npuprof_ring_room())
 * @data_size: bytes of data, a power of two, >= NPUPROF_RING_MIN_REC
 * @len:       record size in bytes, a multiple of 8,
 *             NPUPROF_RING_MIN_REC..NPUPROF_RING_MAX_REC
 * @slot:      filled in when the record fits
 *
 * Offsets derive from @head only, never from @cons, so a reader's value
 * cannot steer a write.  The PAD is part of the decision: when the record
 * does not fit, neither is written (discard mode, the caller counts it).
 *
 * Return: 1 when the record (and its PAD) fit, 0 when the ring is full or
 * @len is out of range.
 */
static __always_inline int npuprof_ring_place(__u64 head, __u64 cons,
					      __u64 data_size, __u32 len,
					      struct npuprof_ring_slot *slot)
{
	__u64 off = head & (data_size - 1);
	__u64 to_end = data_size - off;
	__u64 pad = 0;

	if (len < NPUPROF_RING_MIN_REC || len > NPUPROF_RING_MAX_REC)
		return 0;
	if (to_end != len && to_end < (__u64)len + NPUPROF_RING_MIN_REC)
		pad = to_end;
	if (pad + len > npuprof_ring_room(head, cons, data_size))
		return 0;
	slot->pad = pad;
	slot->pad_off = off;
	slot->off = pad ? 0 : off;
	slot->start = head + pad;
	return 1;
}

#endif /* NPUPROF_RING_LAYOUT_H */
