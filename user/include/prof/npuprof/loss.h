/* SPDX-License-Identifier: MIT */
/*
 * Records lost, by cause: the one definition of the causes, their names
 * and how a count is written (info.json, msprof's line at stop, --result,
 * the export's summary and timeline metadata all go through here).
 *
 * A record is lost when it was produced inside the capture window and is
 * not in the slice files.  Each lost record has exactly one cause:
 *   ring full     the producer found its ring full (npuprof.ko, BPF) or
 *                 could not build the record (BPF's "missed" calls);
 *   write error   the drain read it but it never reached the disk: its
 *                 series could not be created or written (a full disk),
 *                 or the zstd frame holding it was not written whole, or
 *                 it belongs to a process of a followed job that got no
 *                 directory.  One edge counts too many: a frame given up
 *                 at stop while its write was still in flight is counted
 *                 lost even if that write later completes (rare: only
 *                 when the disk stalls past the stop's wait);
 *   decode error  the ring accepted it but the drain could not read it
 *                 out (a corrupt record header made the drain skip the
 *                 rest of that ring), or it still arrived after the stop.
 */
#ifndef NPUPROF_LOSS_H
#define NPUPROF_LOSS_H

#include <stddef.h>
#include <stdint.h>

enum npuprof_loss_cause {
	NPUPROF_LOSS_RING_FULL = 0,
	NPUPROF_LOSS_WRITE_ERROR,
	NPUPROF_LOSS_DECODE_ERROR,
	NPUPROF_LOSS_CAUSES
};

/**
 * struct npuprof_loss - records lost, one count per cause
 * @n:   records, indexed by enum npuprof_loss_cause
 * @cpu: the CPU whose ring carried them, in per-CPU tables; else unused
 */
struct npuprof_loss {
	uint64_t n[NPUPROF_LOSS_CAUSES];
	uint32_t cpu;
};

/** npuprof_loss_key() - JSON key of @cause ("ring_full"), never NULL. */
const char *npuprof_loss_key(enum npuprof_loss_cause cause);

/** npuprof_loss_words() - @cause for people ("ring full"), never NULL. */
const char *npuprof_loss_words(enum npuprof_loss_cause cause);

/** npuprof_loss_total() - records lost over every cause (UINT64_MAX at most). */
uint64_t npuprof_loss_total(const struct npuprof_loss *l);

/**
 * npuprof_loss_causes() - "ring full: 5, write error: 2, decode error: 0"
 * into @buf (@size bytes, always NUL-terminated).  Return: @buf.
 */
char *npuprof_loss_causes(const struct npuprof_loss *l, char *buf, size_t size);

/**
 * npuprof_loss_format() - "0 records lost", or "7 records lost (ring
 * full: 5, write error: 2, decode error: 0)", into @buf (@size bytes,
 * always NUL-terminated).  Return: @buf.
 */
char *npuprof_loss_format(const struct npuprof_loss *l, char *buf, size_t size);

#endif /* NPUPROF_LOSS_H */
