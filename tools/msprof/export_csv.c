// SPDX-License-Identifier: MIT
/*
 * CSV writer for the summary files (export_csv.h).  Quoting follows
 * RFC 4180: a field holding a comma, a quote or a line break is put in
 * quotes with its quotes doubled, so kernel names from an application can
 * never shift a column.
 */
#include <inttypes.h>
#include <string.h>

#include "export_csv.h"

char *export_fmt_us(int64_t ns, char *buf, size_t size)
{
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, size, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", mag / 1000,
		 (unsigned int)(mag % 1000));
	return buf;
}

void csv_init(struct csv_writer *w, FILE *f)
{
	w->f = f;
	w->col = 0;
}

static void sep(struct csv_writer *w)
{
	if (w->col++)
		fputc(',', w->f);
}

void csv_str(struct csv_writer *w, const char *s)
{
	sep(w);
	if (!s || !*s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, w->f);
		return;
	}
	fputc('"', w->f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', w->f);
		fputc(*s, w->f);
	}
	fputc('"', w->f);
}

void csv_header(struct csv_writer *w, const char *const *cols, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		csv_str(w, cols[i]);
	csv_end_row(w);
}

void csv_empty(struct csv_writer *w, unsigned int n)
{
	while (n--)
		sep(w);
}

void csv_u64(struct csv_writer *w, uint64_t v)
{
	sep(w);
	fprintf(w->f, "%" PRIu64, v);
}

void csv_us(struct csv_writer *w, int64_t ns)
{
	char buf[32];

	sep(w);
	fputs(export_fmt_us(ns, buf, sizeof(buf)), w->f);
}

void csv_real(struct csv_writer *w, double v)
{
	sep(w);
	fprintf(w->f, "%.3f", v);
}

void csv_end_row(struct csv_writer *w)
{
	fputc('\n', w->f);
	w->col = 0;
}
