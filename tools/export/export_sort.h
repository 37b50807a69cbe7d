/* SPDX-License-Identifier: MIT */
/*
 * External merge sort of fixed-size records, the building block of an
 * export whose memory does not grow with the trace.
 *
 * Records are added in any order and come back in the order of a
 * comparator; records the comparator calls equal come back in the order
 * they were added (stable), as the exporter's in-memory sorts give them
 * today.  Memory is a buffer of at most cfg.mem_bytes: when it fills, its
 * records are sorted and written as one run to an unnamed temporary file
 * below cfg.dir_fd (O_TMPFILE, gone when closed or when the process dies;
 * on a filesystem without O_TMPFILE, a named file unlinked at once), and
 * reading k-way merges the runs with a heap.  A sort whose records all
 * fit in the buffer never touches the disk.
 */
#ifndef MSPROF_EXPORT_SORT_H
#define MSPROF_EXPORT_SORT_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct xsort_cfg - what a sorter sorts and where it may spill
 * @rec_size:  bytes per record (> 0)
 * @cmp:       total order of two records: <0, 0, >0; NULL keeps the
 *             order of adding (a spool: memory-bounded, read again and
 *             again)
 * @mem_bytes: the record buffer's size, bytes; at least two records are
 *             always held
 * @dir_fd:    directory for the temporary run file
 */
struct xsort_cfg {
	size_t rec_size;
	int (*cmp)(const void *a, const void *b);
	size_t mem_bytes;
	int dir_fd;
};

struct xsort;

/**
 * xsort_open() - a sorter, empty and taking records
 * Return: 0; -EINVAL for a zero @cfg->rec_size; -ENOMEM.
 */
int xsort_open(const struct xsort_cfg *cfg, struct xsort **out);

/**
 * xsort_add() - copy one record (cfg.rec_size bytes) into the sorter
 *
 * Return: 0; -errno of creating or writing the run file (the sorter is
 * then unusable: every later call returns the same error); -EINVAL once
 * reading began.
 */
int xsort_add(struct xsort *s, const void *rec);

/**
 * xsort_rewind() - start reading all records in order, from the first
 *
 * The first call ends the adding; later calls read the same sequence
 * again (a pass that needs the sorted records twice).
 * Return: 0; -errno of writing the last run or reading; -ENOMEM.
 */
int xsort_rewind(struct xsort *s);

/**
 * xsort_next() - the next record in order
 * @rec: set to the record, valid until the next call on @s
 *
 * Return: 1 with *@rec set; 0 after the last record; -errno of reading
 * the run file (-EIO when it ended early).
 */
int xsort_next(struct xsort *s, const void **rec);

/** xsort_count() - records added so far. */
uint64_t xsort_count(const struct xsort *s);

/** xsort_runs() - runs written to the temporary file so far (0: all in memory). */
size_t xsort_runs(const struct xsort *s);

/** xsort_close() - free @s and its temporary file; NULL is fine. */
void xsort_close(struct xsort *s);

#endif /* MSPROF_EXPORT_SORT_H */
