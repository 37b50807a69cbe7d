// SPDX-License-Identifier: MIT
/*
 * CSV writer for the summary files (export_csv.h).  Quoting follows
 * RFC 4180: a field holding a comma, a quote or a line break is put in
 * quotes with its quotes doubled, so kernel names from an application can
 * never shift a column.  Fields are formatted into the output buffer of
 * export_out.h.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export_csv.h"

char *export_fmt_us(int64_t ns, char *buf, size_t size)
{
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, size, "%s%" PRIu64 ".%03u", ns < 0 ? "-" : "", mag / 1000,
		 (unsigned int)(mag % 1000));
	return buf;
}

/*
 * Below 2^53 ns, ns and 1000 are exact doubles and one division rounds
 * once: the nearest double.  Above (while q = ns / 1000 is below 2^53, an
 * exact double: past every clamped time), x = q + r / 1000 is at least 9e12,
 * where doubles are at most 2^-10 apart; x lies at least 1 / (1000 *
 * 2^10) from any halfway point unless it is one (r a multiple of 125,
 * when r / 1000 is exact), and r / 1000 is off by at most 2^-54, so
 * rounding q + r / 1000.0 once gives the same double.
 */
double export_us_value(int64_t ns)
{
	char buf[32];

	if (ns >= 0 && ns < (int64_t)1 << 53)
		return (double)ns / 1000.0;
	if (ns >= 0 && ns / 1000 < (int64_t)1 << 53)
		return (double)(ns / 1000) + (double)(ns % 1000) / 1000.0;
	return strtod(export_fmt_us(ns, buf, sizeof(buf)), NULL);
}

int csv_open(struct csv_writer *w, FILE *f)
{
	w->col = 0;
	return xout_open(&w->o, f);
}

int csv_close(struct csv_writer *w)
{
	return xout_close(&w->o);
}

static inline void sep(struct csv_writer *w)
{
	if (w->col++)
		xout_char(&w->o, ',');
}

void csv_str(struct csv_writer *w, const char *s)
{
	const char *q;

	sep(w);
	if (!s || !*s)
		return;
	if (!strpbrk(s, ",\"\r\n")) {
		xout_str(&w->o, s);
		return;
	}
	xout_char(&w->o, '"');
	while ((q = strchr(s, '"'))) {
		xout_mem(&w->o, s, (size_t)(q + 1 - s));
		xout_char(&w->o, '"');
		s = q + 1;
	}
	xout_str(&w->o, s);
	xout_char(&w->o, '"');
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
	static const char commas[] = ",,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,";
	unsigned int k;

	if (n && !w->col++)
		n--; /* the row's first field has no separator */
	w->col += n;
	for (; n; n -= k) {
		k = n < sizeof(commas) - 1 ? n : (unsigned int)sizeof(commas) - 1;
		xout_mem(&w->o, commas, k);
	}
}

void csv_u64(struct csv_writer *w, uint64_t v)
{
	sep(w);
	xout_u64(&w->o, v);
}

void csv_us(struct csv_writer *w, int64_t ns)
{
	sep(w);
	xout_us(&w->o, ns);
}

void csv_real(struct csv_writer *w, double v)
{
	sep(w);
	xout_fixed3(&w->o, v);
}

void csv_end_row(struct csv_writer *w)
{
	xout_char(&w->o, '\n');
	w->col = 0;
}
