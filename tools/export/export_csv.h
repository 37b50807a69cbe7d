/* SPDX-License-Identifier: MIT */
/*
 * A small CSV writer (RFC 4180 quoting) for the summary files, plus the
 * one formatting of times every export file shares: microseconds with
 * three decimals ("123.456"), from integer ns so nothing is rounded twice.
 */
#ifndef MSPROF_EXPORT_CSV_H
#define MSPROF_EXPORT_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "export_out.h"

/**
 * struct csv_writer - a CSV file being written
 * @o:   its output buffer
 * @col: fields in the current row
 */
struct csv_writer {
	struct xout o;
	unsigned int col;
};

/** export_fmt_us() - "<us>.<3 digits>" of @ns into @buf; returns @buf. */
char *export_fmt_us(int64_t ns, char *buf, size_t size);

/**
 * export_us_value() - the double a reader parses from export_fmt_us()'s
 * text of @ns (strtod's: the double nearest @ns / 1000), without the text.
 */
double export_us_value(int64_t ns);

/** csv_open() - start writing CSV to @f.  Return: 0 or -ENOMEM (write nothing then). */
int csv_open(struct csv_writer *w, FILE *f);

/** csv_close() - flush to the stream.  Return: 0, or the write's -errno. */
int csv_close(struct csv_writer *w);

/** csv_header() - write @n column names as the first row. */
void csv_header(struct csv_writer *w, const char *const *cols, size_t n);

/** csv_str() - one field, quoted when it holds , " CR or LF; NULL = empty. */
void csv_str(struct csv_writer *w, const char *s);

/** csv_empty() - @n empty fields (columns we have no data for). */
void csv_empty(struct csv_writer *w, unsigned int n);

void csv_u64(struct csv_writer *w, uint64_t v);

/** csv_us() - a time or duration given in ns, written in us ("1.234"). */
void csv_us(struct csv_writer *w, int64_t ns);

/** csv_real() - a derived value (average, variance) with 3 decimals. */
void csv_real(struct csv_writer *w, double v);

/** csv_end_row() - finish the row with CRLF-free "\n". */
void csv_end_row(struct csv_writer *w);

#endif /* MSPROF_EXPORT_CSV_H */
