/* SPDX-License-Identifier: MIT */
/*
 * Modelled slice blocks: the content of a version-3 zstd frame of a slice
 * file (format in user/include/prof/npuprof/slice.h).  Like a version-1 block
 * (slice_block.h) it holds whole records as byte planes of 64-bit deltas,
 * but each delta is taken against a prediction from earlier records of
 * the same slice, chosen per record type and field (slice_model.c):
 *
 *  - records are grouped by size, type and "class" (a task's event, an
 *    API call's id), so submits, starts and ends each form their own planes;
 *  - a field is predicted from the previous record of its group, of its
 *    group and stream (a task's device stream, an API call's thread), of
 *    its stream, of its type, from its "parent" (the task's earlier record
 *    with the same device, stream and task id: a start or end repeats its
 *    submit's name, arg and thread), from another field of the same record
 *    (an API call's exit time from its entry time), or a device timestamp
 *    linearly from the host timestamp (device counts per host ns);
 *  - host-time deltas are divided by their common quantum (a host whose
 *    clock ticks in 10 ns has every delta a multiple of 10);
 *  - the records a prediction reads may be in earlier frames of the slice:
 *    encoder and decoder keep the same history (the last
 *    SLICE_MODEL_HISTORY modelled records), so a small frame does not start
 *    cold.  A frame is decoded after the frames before it in its slice;
 *    each slice starts afresh.
 * Records of other types or sizes (stream headers, loss records, a newer
 * writer's longer records) are deltas against the previous record of their
 * group in the same block, as in version 1.
 *
 * Layout of a block (all little-endian):
 *   struct slice_mblock_hdr
 *   struct slice_mblock_group[nr_groups]
 *   u8 seq[nr_records]           group of each record, in order; absent
 *                                when nr_groups == 1
 *   u8 present[size / 8] per group: bit b of byte j set when plane
 *                                8 * j + b of the group is stored
 *   planes of group 0, 1, ...    count bytes each, the present ones in
 *                                order (byte b of word j's deltas is
 *                                plane 8 * j + b)
 * Private to libnpuprof: the writer (slice_writer.c), the reader
 * (slice_reader.c), the tests and the byte-breakdown benchmark tool.
 */
#ifndef NPUPROF_SLICE_MODEL_H
#define NPUPROF_SLICE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <npuprof/record.h>

#include "slice_block.h"

/* Block version of a modelled block (same magic as slice_block.h's). */
#define SLICE_MBLOCK_VERSION 2
/* Groups per block: seq[] holds a group index in a byte. */
#define SLICE_MBLOCK_MAX_GROUPS 255
/* Modelled records remembered across frames for predictions. */
#define SLICE_MODEL_HISTORY 4096

/* Models (slice_mblock_group.model); 0: deltas within the block only. */
enum slice_model_id {
	SLICE_MODEL_NONE = 0,
	SLICE_MODEL_TASK = 1, /* struct npuprof_rec_task, 88 bytes */
	SLICE_MODEL_API = 2,  /* struct npuprof_rec_api, 104 bytes */
	SLICE_MODEL_COUNT
};

/**
 * struct slice_mblock_hdr - head of a modelled block (32 bytes)
 * @magic:      SLICE_BLOCK_MAGIC
 * @version:    SLICE_MBLOCK_VERSION; a reader refuses a newer one
 * @flags:      0; a reader refuses others
 * @nr_records: records in the block
 * @nr_groups:  1..SLICE_MBLOCK_MAX_GROUPS
 * @quantum:    every host-time delta of the block is a multiple of it and
 *              is stored divided by it (>= 1)
 * @reserved:   0
 * @slope:      device counts per host ns, signed 32.32 fixed point, for
 *              the linear device-time prediction
 */
struct slice_mblock_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t flags;
	uint32_t nr_records;
	uint32_t nr_groups;
	uint32_t quantum;
	uint32_t reserved;
	int64_t slope;
};

/**
 * struct slice_mblock_group - @count records of @size bytes (a multiple
 * of 8), hdr.type @type and class @cls, coded with model @model
 * (enum slice_model_id; @cls is 0 for SLICE_MODEL_NONE).
 */
struct slice_mblock_group {
	uint16_t size;
	uint16_t type;
	uint16_t cls;
	uint16_t model;
	uint32_t count;
};

/** slice_mblock_bound() - largest block for @nr records of @raw_bytes. */
static inline size_t slice_mblock_bound(size_t raw_bytes, uint32_t nr)
{
	return sizeof(struct slice_mblock_hdr) +
	       SLICE_MBLOCK_MAX_GROUPS * sizeof(struct slice_mblock_group) + nr + raw_bytes / 8 +
	       raw_bytes;
}

/* An encoder or decoder of one series' modelled blocks. */
struct slice_coder;

/**
 * slice_coder_new() - a coder whose buffers fit blocks of @max_raw record
 * bytes and @max_nr records (a decoder may pass 0 and grow as it goes).
 * Return: the coder, NULL when out of memory.
 */
struct slice_coder *slice_coder_new(size_t max_raw, uint32_t max_nr);

/** slice_coder_free() - free @c (NULL is fine). */
void slice_coder_free(struct slice_coder *c);

/**
 * slice_coder_reset() - forget every record: the next block is the first
 * of a slice.  An encoder also forgets the records noted for its open block.
 */
void slice_coder_reset(struct slice_coder *c);

/**
 * slice_coder_drop() - forget the records noted for the open block (the
 * caller encoded them otherwise, e.g. as a version-1 block); the history
 * is kept.
 */
void slice_coder_drop(struct slice_coder *c);

/**
 * slice_coder_plain() - note the next records without their model (@plain)
 * or with it: plain records are deltas against the previous record of
 * their group in the block, as in version-1 blocks, at a fraction of the
 * modelled records' CPU cost (the drain's choice at high rates, see
 * slice_writer.c).  A reset turns it off.
 */
void slice_coder_plain(struct slice_coder *c, bool plain);

/**
 * slice_coder_note() - note one more record for the encoder's open block
 *
 * Return: 0; -E2BIG when the record would need a group more than a block
 * can hold (encode the open block first, then note it again).
 */
int slice_coder_note(struct slice_coder *c, const struct npuprof_rec_hdr *rec);

/**
 * slice_mblock_encode() - encode the records noted since the last encode
 * @c:         the encoder; its history moves on to the end of @src
 * @src:       those records, back to back, @raw_bytes in all (each
 *             hdr.size a multiple of 8, at least a record header)
 * @raw_bytes: within the coder's max_raw
 * @dst:       slice_mblock_bound(@raw_bytes, records) bytes
 *
 * Return: bytes of the block in @dst; -EINVAL when @src is not the noted
 * records; -ENOMEM when they pass the sizes @c was made for and growing
 * failed.
 */
long slice_mblock_encode(struct slice_coder *c, const uint8_t *src, size_t raw_bytes,
			 uint8_t *dst);

/**
 * slice_mblock_check() - validate a modelled block's header, groups and
 * order (the magic was seen by slice_block_is())
 * @p, @len:    the block (untrusted)
 * @nr_records: set to its record count
 *
 * Return: the bytes its records take once decoded; -EBADMSG when it is
 * malformed; -EPROTO for a newer version, unknown flags or an unknown model.
 */
long slice_mblock_check(const uint8_t *p, size_t len, uint32_t *nr_records);

/**
 * slice_mblock_decode() - the records of a block that slice_mblock_check()
 * accepted, back to back in their order, into @dst (the size it returned)
 * @c: the decoder, which saw the slice's earlier blocks; its history moves on
 *
 * Return: 0; -ENOMEM when growing @c's buffers for the block failed.
 */
int slice_mblock_decode(struct slice_coder *c, const uint8_t *p, size_t len, uint8_t *dst);

#endif /* NPUPROF_SLICE_MODEL_H */
