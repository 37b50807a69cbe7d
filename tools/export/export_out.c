// SPDX-License-Identifier: MIT
/*
 * Buffered text output for the export files (export_out.h): integers and
 * times formatted by hand, JSON strings and reals as jansson 2.14 dumps
 * them.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "export_out.h"

int xout_open(struct xout *o, FILE *f)
{
	o->f = f;
	o->len = 0;
	o->flushed = 0;
	o->buf = malloc(XOUT_BUF_SIZE);
	o->err = o->buf ? 0 : -ENOMEM;
	return o->err;
}

int xout_flush(struct xout *o)
{
	errno = 0;
	if (!o->err && o->len && fwrite(o->buf, 1, o->len, o->f) != o->len)
		o->err = errno ? -errno : -EIO;
	o->flushed += o->len;
	o->len = 0;
	return o->err;
}

int xout_close(struct xout *o)
{
	int err = xout_flush(o);

	free(o->buf);
	o->buf = NULL;
	return err;
}

void xout_mem(struct xout *o, const void *p, size_t n)
{
	const char *s = p;
	size_t k;

	while (n) {
		if (o->len == XOUT_BUF_SIZE)
			xout_flush(o);
		k = XOUT_BUF_SIZE - o->len < n ? XOUT_BUF_SIZE - o->len : n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

size_t xout_fmt_u64(char *p, uint64_t v)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	char tmp[20], *e = tmp + sizeof(tmp), *q = e;
	size_t n;

	while (v >= 100) {
		q -= 2;
		memcpy(q, pairs + (v % 100) * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		q -= 2;
		memcpy(q, pairs + v * 2, 2);
	} else {
		*--q = (char)('0' + v);
	}
	n = (size_t)(e - q);
	memcpy(p, q, n);
	return n;
}

void xout_u64(struct xout *o, uint64_t v)
{
	char *p = xout_room(o);

	o->len += xout_fmt_u64(p, v);
}

void xout_i64(struct xout *o, int64_t v)
{
	char *p = xout_room(o);

	if (v >= 0) {
		o->len += xout_fmt_u64(p, (uint64_t)v);
		return;
	}
	*p = '-';
	o->len += 1 + xout_fmt_u64(p + 1, (uint64_t)0 - (uint64_t)v);
}

void xout_hex(struct xout *o, uint64_t v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[16], *e = tmp + sizeof(tmp), *q = e;
	char *p = xout_room(o);

	do {
		*--q = hex[v & 15];
		v >>= 4;
	} while (v);
	p[0] = '0';
	p[1] = 'x';
	memcpy(p + 2, q, (size_t)(e - q));
	o->len += 2 + (size_t)(e - q);
}

void xout_us(struct xout *o, int64_t ns)
{
	uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
	char *p = xout_room(o), *q = p;
	unsigned int frac = (unsigned int)(mag % 1000);

	if (ns < 0)
		*q++ = '-';
	q += xout_fmt_u64(q, mag / 1000);
	q[0] = '.';
	q[1] = (char)('0' + frac / 100);
	q[2] = (char)('0' + frac / 10 % 10);
	q[3] = (char)('0' + frac % 10);
	o->len += (size_t)(q + 4 - p);
}

void xout_fixed3(struct xout *o, double v)
{
	char buf[512]; /* "%.3f" of DBL_MAX has 313 digits */
	int n = snprintf(buf, sizeof(buf), "%.3f", v);

	xout_mem(o, buf, n > 0 ? (size_t)n : 0);
}

/* Does byte @c end a run of bytes a JSON string holds as they are? */
static inline int json_special(unsigned char c)
{
	return c < 0x20 || c == '"' || c == '\\';
}

static void json_escape(struct xout *o, unsigned char c)
{
	static const char hex[] = "0123456789ABCDEF";
	char esc[6] = { '\\', 0 };
	size_t n = 2;

	switch (c) {
	case '"': esc[1] = '"'; break;
	case '\\': esc[1] = '\\'; break;
	case '\b': esc[1] = 'b'; break;
	case '\f': esc[1] = 'f'; break;
	case '\n': esc[1] = 'n'; break;
	case '\r': esc[1] = 'r'; break;
	case '\t': esc[1] = 't'; break;
	default:
		memcpy(esc + 1, "u00", 3);
		esc[4] = hex[c >> 4];
		esc[5] = hex[c & 15];
		n = 6;
	}
	xout_mem(o, esc, n);
}

void xout_json_str(struct xout *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *run;

	xout_char(o, '"');
	while (*p) {
		for (run = p; *p && !json_special(*p); p++)
			;
		xout_mem(o, run, (size_t)(p - run));
		if (*p)
			json_escape(o, *p++);
	}
	xout_char(o, '"');
}

/*
 * The fast path: @v is the double nearest n / 1000 for an integer n in
 * [0, 1e15) (how every duration in us is made from ns).  n / 1000 has at
 * most 15 significant digits, so "%.15g" prints exactly that decimal
 * (DBL_DIG): integer part, then the fraction without trailing zeros, or
 * ".0" (jansson's suffix) when there is none.  Returns 0 when @v is not
 * such a value.
 */
static size_t fmt_milli(char *p, double v)
{
	double scaled = v * 1000.0;
	uint64_t n, frac;
	size_t len;

	if (!(scaled >= 0 && scaled < 1e15) || signbit(v))
		return 0;
	n = (uint64_t)llround(scaled);
	if ((double)n / 1000.0 != v)
		return 0;
	len = xout_fmt_u64(p, n / 1000);
	p[len++] = '.';
	frac = n % 1000;
	if (!frac) {
		p[len++] = '0';
		return len;
	}
	p[len++] = (char)('0' + frac / 100);
	if (frac % 100) {
		p[len++] = (char)('0' + frac / 10 % 10);
		if (frac % 10)
			p[len++] = (char)('0' + frac % 10);
	}
	return len;
}

/* jansson's jsonp_dtostr() (strconv.c) in the C locale. */
static size_t fmt_real_slow(char *p, double v, int precision)
{
	char *e, *digits, *end;
	int len = snprintf(p, 32, "%.*g", precision ? precision : 17, v);

	if (len < 0 || len >= 30)
		return 0;
	if (!strchr(p, '.') && !strchr(p, 'e')) {
		memcpy(p + len, ".0", 3);
		return (size_t)len + 2;
	}
	e = strchr(p, 'e');
	if (!e)
		return (size_t)len;
	digits = e + 1;
	end = digits + 1;
	if (*digits == '-')
		digits++;
	while (*end == '0')
		end++;
	if (end != digits) {
		memmove(digits, end, (size_t)(p + len + 1 - end));
		len -= (int)(end - digits);
	}
	return (size_t)len;
}

size_t xout_fmt_real(char *p, double v, int precision)
{
	size_t n = precision == 15 ? fmt_milli(p, v) : 0;

	return n ? n : fmt_real_slow(p, v, precision);
}

void xout_json_real(struct xout *o, double v, int precision)
{
	char *p = xout_room(o);

	o->len += xout_fmt_real(p, v, precision);
}
