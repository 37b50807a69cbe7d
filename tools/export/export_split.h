/* SPDX-License-Identifier: MIT */
/*
 * One export file written as several when it grows past a size: the
 * summary CSVs roll over to a new file every EXPORT_CSV_MAX_ROWS data
 * rows, each new file starting with the header again (msprof splits its
 * summaries at 1,000,000 rows; reference msprof.md section 4).
 *
 * The writers (export_summary.c) stay as they are: they write one stream,
 * and the stream given to them (fopencookie) cuts it at row boundaries.
 * Every row is one line: names reach a CSV through the name rule
 * (npuprof/name_text.h), which escapes CR and LF, so a newline always ends
 * a row.
 *
 * Names: part 0 is <stem><ext> (op_summary_<YYYYmmddHHMMSS>.csv, as
 * before), part k >= 1 is <stem>_<k><ext> (op_summary_<stamp>_1.csv):
 * msprof-analyze's glob op_summary_*.csv finds them all, and they sort
 * in part order.  Each part is written as "<name>.tmp" until the export
 * renames the whole set (export_fileset.c).
 */
#ifndef MSPROF_EXPORT_SPLIT_H
#define MSPROF_EXPORT_SPLIT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Data rows per summary CSV, as msprof splits them. */
#define EXPORT_CSV_MAX_ROWS 1000000ULL

/* Parts one file may be cut into (a billion rows of CSV). */
#define EXPORT_SPLIT_MAX_PARTS 1000

/**
 * struct export_split - one export file, possibly cut into parts
 * @outfd:    the output directory
 * @stem:     the name without the extension: "op_summary_<stamp>"
 * @ext:      ".csv"
 * @max_rows: data rows per part (the header line not counted); 0: never cut
 * @create:   makes the file @name in @outfd for writing, returns its fd or
 *            -errno (export_fileset.c's: never through a symlink)
 * @ctx:      for @create
 * @sliced:   the parts are timeline slices: part k is named
 *            <prefix><k>_<stamp><ext> (msprof_0_<ts>.json, msprof's
 *            slice names), the stem being <prefix><stamp>
 * @prefix_len: bytes of the prefix in @stem ("msprof_")
 * @parts:    out: parts made so far (1 once opened)
 * @err:      out: first failure of the stream, -errno
 *
 * The rest is the stream's own state.
 */
struct export_split {
	int outfd;
	char stem[NAME_MAX + 1];
	const char *ext;
	uint64_t max_rows;
	int (*create)(void *ctx, int outfd, const char *name);
	void *ctx;
	bool sliced;
	size_t prefix_len;
	unsigned int parts;
	int err;
	/* private */
	int fd;
	uint64_t rows;
	bool in_header;
	bool line_start;
	char *header;
	size_t header_len;
	size_t header_cap;
};

/**
 * export_split_name() - name of part @k: <stem><ext> or <stem>_<k><ext>
 * (<prefix><k>_<stamp><ext> for every k of a sliced timeline), with
 * ".tmp" after it when @tmp.  Return: 0, or -ENAMETOOLONG.
 */
int export_split_name(const struct export_split *s, unsigned int k, bool tmp, char *buf,
		      size_t size);

/**
 * export_split_open() - create part 0 (as its .tmp name) and a stream that
 * cuts what is written into parts of @s->max_rows rows.
 *
 * Return: the stream (fclose() it: that closes the last part; its result
 * is @s->err or the close's), or NULL with errno set.
 */
FILE *export_split_open(struct export_split *s);

#endif /* MSPROF_EXPORT_SPLIT_H */
