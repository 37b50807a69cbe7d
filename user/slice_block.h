/* SPDX-License-Identifier: MIT */
/*
 * Slice blocks: the content of a version-2 zstd frame of a slice file
 * (format in user/include/prof/npuprof/slice.h).  A block holds whole records,
 * rearranged so zstd finds long runs: records are grouped by size (a
 * "layout"), each 8-byte word is replaced by its difference to the same
 * word of the previous record of that layout (lane by lane with
 * SLICE_BLOCK_F_LANE16, written since it was added; timestamps become
 * small steps, repeated ids and names become zeros), and the words of a layout
 * are stored byte plane by byte plane (byte b of word j of every record in
 * a row).  A per-record layout index restores the order.  Planes that
 * are all zero (high bytes of small deltas, unchanged fields: about half
 * of a task record's) are left out, and a bitmap per layout says
 * which are there, so the compressor reads about half the bytes.
 *
 * Layout of a block (all little-endian):
 *   struct slice_block_hdr
 *   struct slice_block_layout[nr_layouts]
 *   u8 seq[nr_records]           layout index of each record, in order;
 *                                absent when nr_layouts == 1
 *   u8 present[size / 8] per layout, layout 0, 1, ...: bit b of byte j
 *                                set when plane 8 * j + b is stored;
 *                                only with SLICE_BLOCK_F_SPARSE
 *   planes of layout 0, 1, ...   count bytes each: all size of them, or
 *                                with SLICE_BLOCK_F_SPARSE the present
 *                                ones in order (the others are zeros)
 * Private to libnpuprof: the writer (slice_writer.c) and the reader
 * (slice_reader.c).
 */
#ifndef NPUPROF_SLICE_BLOCK_H
#define NPUPROF_SLICE_BLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * "NPB" 1.  Read as a record header (a version-1 frame starts with one),
 * its size field is 322, not a multiple of 8: no version-1 frame can start
 * like a block, and a version-1 reader rejects a block as corrupt.
 */
#define SLICE_BLOCK_MAGIC 0x0142504eU
#define SLICE_BLOCK_VERSION 1
#define SLICE_BLOCK_MAX_LAYOUTS 255
/* Flag: zero planes left out, present[] bitmaps say which are stored.
 * Written since it was added; blocks without it still decode. */
#define SLICE_BLOCK_F_SPARSE 0x0001
/* Flag: deltas per 16-bit lane (no borrow between lanes), not per word. */
#define SLICE_BLOCK_F_LANE16 0x0002
#define SLICE_BLOCK_F_KNOWN (SLICE_BLOCK_F_SPARSE | SLICE_BLOCK_F_LANE16)

/**
 * struct slice_block_hdr - head of a block (16 bytes)
 * @magic:      SLICE_BLOCK_MAGIC
 * @version:    SLICE_BLOCK_VERSION; a reader refuses a newer one
 * @flags:      SLICE_BLOCK_F_*; a reader refuses unknown ones
 * @nr_records: records in the block
 * @nr_layouts: distinct record sizes, 1..SLICE_BLOCK_MAX_LAYOUTS
 */
struct slice_block_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t flags;
	uint32_t nr_records;
	uint32_t nr_layouts;
};

/** struct slice_block_layout - @count records of @size bytes (a multiple of 8). */
struct slice_block_layout {
	uint32_t size;
	uint32_t count;
};

/* High bit of each 16-bit or 32-bit lane: deltas taken lane by lane. */
#define SLICE_LANE16_HI 0x8000800080008000ULL
#define SLICE_LANE32_HI 0x8000000080000000ULL

/* @a - @b in each lane (@hi: the lanes' high bits) on its own: no borrow
 * crosses a field. */
static inline uint64_t slice_lane_sub(uint64_t a, uint64_t b, uint64_t hi)
{
	return ((a | hi) - (b & ~hi)) ^ ((a ^ ~b) & hi);
}

/* @a + @b in each lane on its own: undoes slice_lane_sub(). */
static inline uint64_t slice_lane_add(uint64_t a, uint64_t b, uint64_t hi)
{
	return ((a & ~hi) + (b & ~hi)) ^ ((a ^ b) & hi);
}

/** slice_block_bound() - largest block for @nr records of @raw_bytes. */
static inline size_t slice_block_bound(size_t raw_bytes, uint32_t nr)
{
	return sizeof(struct slice_block_hdr) +
	       SLICE_BLOCK_MAX_LAYOUTS * sizeof(struct slice_block_layout) + nr + raw_bytes / 8 +
	       raw_bytes;
}

/**
 * slice_block_encode() - encode @nr whole records
 * @src:     records back to back, @raw_bytes in all; each hdr.size a
 *           multiple of 8, at least a record header
 * @nr:      records in @src
 * @scratch: @nr entries, the caller's
 * @dst:     slice_block_bound(@raw_bytes, @nr) bytes
 *
 * Return: bytes of the block in @dst; -E2BIG when @src holds more than
 * SLICE_BLOCK_MAX_LAYOUTS distinct sizes; -EINVAL for a bad record size.
 */
long slice_block_encode(const uint8_t *src, size_t raw_bytes, uint32_t nr, uint32_t *scratch,
			uint8_t *dst);

/**
 * slice_planes_put() - the byte planes of one column of 64-bit values
 * (the modelled blocks' layout, slice_model.h)
 * @col:    @count values, @stride values apart
 * @planes: room for 8 * @count bytes
 *
 * Return: which planes were kept (bit b: plane b, byte b of every value);
 * the kept ones are at @planes in order, @count bytes each, the all-zero
 * ones left out.
 */
uint8_t slice_planes_put(const uint64_t *col, size_t stride, uint32_t count, uint8_t *planes);

/**
 * slice_planes_get() - undo slice_planes_put(): the column from the planes
 * @present says are at @planes.  Return: the plane bytes it read.
 */
size_t slice_planes_get(uint64_t *col, size_t stride, uint32_t count, uint8_t present,
			const uint8_t *planes);

/**
 * slice_seq_check() - the order bytes of a block (untrusted): each of the
 * @nr is below @n (at most 256) and names group i exactly @count[i] times.
 */
bool slice_seq_check(const uint8_t *seq, uint32_t nr, const uint32_t *count, uint32_t n);

/** slice_block_is() - true when @len bytes at @p begin with a block's magic. */
bool slice_block_is(const uint8_t *p, size_t len);

/**
 * slice_block_check() - validate a block's header, layouts and order
 * @p:          the whole block (untrusted)
 * @len:        its bytes
 * @nr_records: set to its record count
 *
 * Return: the bytes its records take once decoded; -EBADMSG when the
 * block is malformed (sizes, counts, order indexes, present planes or
 * length disagree);
 * -EPROTO for a newer version or unknown flags.
 */
long slice_block_check(const uint8_t *p, size_t len, uint32_t *nr_records);

/**
 * slice_block_decode() - the records of a block that slice_block_check()
 * accepted, back to back in their order
 * @p, @len: the block
 * @scratch: its nr_records entries, the caller's
 * @dst:     the size slice_block_check() returned
 */
void slice_block_decode(const uint8_t *p, size_t len, uint32_t *scratch, uint8_t *dst);

#endif /* NPUPROF_SLICE_BLOCK_H */
