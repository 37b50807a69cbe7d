// SPDX-License-Identifier: MIT
/*
 * Description: the export's hand-written output (export_out.h) prints
 * what jansson 2.14 and printf print: reals exactly as json_dumps() with
 * JSON_REAL_PRECISION(15) and (17) over durations made from ns (0, whole,
 * 1..3 decimals, up to and past 1e15 ns), integer-valued, tiny, subnormal,
 * huge, negative, -0 and random doubles; strings exactly as json_dumps()
 * escapes them (every ASCII byte, quote, backslash, control characters,
 * "/", DEL, non-ASCII UTF-8 of 2 to 4 bytes, random mixes); integers as
 * "%llu"/"%lld", hex as "0x%llx", times as export_fmt_us(), "%.3f";
 * export_us_value() is the double strtod() reads from export_fmt_us(); and
 * pieces that cross the 1 MiB buffer reach the stream whole and in order.
 */
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "export_csv.h"
#include "export_out.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned long real_checked;

static void check_real(double v, int precision)
{
	json_t *j = json_real(v);
	char *want = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY |
					       JSON_REAL_PRECISION(precision)) : NULL;
	char got[64];
	size_t n = xout_fmt_real(got, v, precision);

	got[n] = '\0';
	if (!want || strcmp(got, want)) {
		fprintf(stderr, "real %.17g precision %d: got \"%s\", jansson \"%s\"\n", v,
			precision, got, want ? want : "(null)");
		check_failures++;
	}
	free(want);
	json_decref(j);
	real_checked++;
}

static void check_real_both(double v)
{
	check_real(v, 15);
	check_real(v, 17);
}

static void reals(void)
{
	static const double edge[] = {
		0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.001, 0.0001, 0.00001, 1e-5, 123456.789,
		1e12, 999999999999.999, 1e15, 1e16, 1e17, 1e21, 1e22, 1e100, 1e300,
		9007199254740992.0, 9007199254740993.0, 4.611686018427388e15, DBL_MAX,
		-DBL_MAX, DBL_MIN, DBL_TRUE_MIN, 5e-324, 2.2250738585072014e-308, 1e-300,
		-1e-300, 3.0, 18.0, 18.02, 26.124, 1234567890123.456, -18.02, 0.1 + 0.2,
	};
	uint64_t n, i;

	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		check_real_both(edge[i]);
	for (n = 0; n < 100000; n++) /* durations: every ns below 100 us */
		check_real((double)(int64_t)n / 1000.0, 15);
	for (i = 0; i < CHECK_ROUNDS(200000); i++) { /* durations of every size, as the timeline makes them */
		n = next() >> (next() % 64);
		check_real((double)(int64_t)(n >> 1) / 1000.0, 15);
	}
	for (n = 999999999999000ull; n < 1000000000001000ull; n += 7)
		check_real((double)(int64_t)n / 1000.0, 15); /* around the 1e15 ns edge */
	for (i = 0; i < CHECK_ROUNDS(100000); i++) { /* whole numbers, and any double at all */
		double v = (double)(int64_t)(next() >> (next() % 64));
		uint64_t bits = next();
		double r;

		check_real_both(v);
		check_real_both(-v);
		memcpy(&r, &bits, sizeof(r));
		if (isfinite(r))
			check_real_both(r);
	}
	printf("%lu reals checked\n", real_checked);
}

/* What @s becomes through xout_json_str(), through a memstream. */
static char *ours(const char *s)
{
	struct xout o;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f != NULL);
	CHECK_EQ(xout_open(&o, f), 0);
	xout_json_str(&o, s);
	CHECK_EQ(xout_close(&o), 0);
	fclose(f);
	return text;
}

static void check_str(const char *s)
{
	json_t *j = json_string(s);
	char *want = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	char *got = ours(s);

	CHECK(want != NULL);
	if (want && strcmp(got, want)) {
		fprintf(stderr, "string \"%s\": got %s, jansson %s\n", s, got, want);
		check_failures++;
	}
	free(got);
	free(want);
	json_decref(j);
}

/* UTF-8 of code point @cp at @p; returns its length. */
static size_t utf8(char *p, uint32_t cp)
{
	if (cp < 0x80) {
		p[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = (char)(0xc0 | cp >> 6);
		p[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		p[0] = (char)(0xe0 | cp >> 12);
		p[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		p[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	p[0] = (char)(0xf0 | cp >> 18);
	p[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	p[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	p[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static void strings(void)
{
	static const char *const fixed[] = {
		"", "Relu", "a\"b", "back\\slash", "a/b", "tab\there", "nl\nx", "cr\rx",
		"\b\f", "\x01\x1f", "\x7f", "caf\xc3\xa9", "\xe6\xbc\xa2\xe5\xad\x97",
		"\xf0\x9f\x98\x80 emoji", "\\x00 as text", "\"\"\"",
	};
	static const uint32_t cps[] = { 0x1, 0x1f, 0x20, '"', '\\', '/', 0x7f, 0x80, 0x9f, 0xa0,
					0x7ff, 0x800, 0xfffd, 0xffff, 0x10000, 0x10ffff, 'a' };
	char s[256];
	size_t i, k, len;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		check_str(fixed[i]);
	for (i = 1; i < 128; i++) { /* every ASCII byte, alone and inside text */
		snprintf(s, sizeof(s), "%c", (int)i);
		check_str(s);
		snprintf(s, sizeof(s), "ab%ccd%c", (int)i, (int)i);
		check_str(s);
	}
	for (i = 0; i < CHECK_ROUNDS(3000); i++) {
		len = 0;
		for (k = next() % 20; k; k--)
			len += utf8(s + len, cps[next() % (sizeof(cps) / sizeof(cps[0]))]);
		s[len] = '\0';
		check_str(s);
	}
}

/* Format @fn into a memstream and compare with @want. */
#define CHECK_OUT(want, ...)                                              \
	do {                                                              \
		struct xout o_;                                           \
		char *t_ = NULL;                                          \
		size_t l_ = 0;                                            \
		FILE *f_ = open_memstream(&t_, &l_);                      \
		CHECK_EQ(xout_open(&o_, f_), 0);                          \
		__VA_ARGS__;                                              \
		CHECK_EQ(xout_close(&o_), 0);                             \
		fclose(f_);                                               \
		CHECK_STR(t_, want);                                      \
		free(t_);                                                 \
	} while (0)

static void numbers(void)
{
	static const uint64_t edge[] = { 0, 1, 9, 10, 99, 100, 999, 1000, 12345, UINT32_MAX,
					 (uint64_t)INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX };
	char want[128], us[64];
	size_t i;

	for (i = 0; i < CHECK_ROUNDS(20000); i++) {
		uint64_t v = i < sizeof(edge) / sizeof(edge[0]) ? edge[i] : next() >> (next() % 64);
		double d = (double)(int64_t)v / 997.0;

		snprintf(want, sizeof(want), "%llu|%lld|0x%llx|%s|%s|%.3f",
			 (unsigned long long)v, (long long)v, (unsigned long long)v,
			 export_fmt_us((int64_t)v, us, sizeof(us)),
			 export_fmt_us(-(int64_t)(v >> 1), us + 32, 32), d);
		CHECK_OUT(want, xout_u64(&o_, v); xout_char(&o_, '|'); xout_i64(&o_, (int64_t)v);
			  xout_char(&o_, '|'); xout_hex(&o_, v); xout_char(&o_, '|');
			  xout_us(&o_, (int64_t)v); xout_char(&o_, '|');
			  xout_us(&o_, -(int64_t)(v >> 1)); xout_char(&o_, '|');
			  xout_fixed3(&o_, d));
	}
	CHECK_OUT("-9223372036854775808", xout_i64(&o_, INT64_MIN));
	for (i = 0; i < CHECK_ROUNDS(2000000); i++) { /* ns of every size as a reader parses them */
		int64_t ns = (int64_t)(next() >> (1 + next() % 63));
		double d;

		if (i < 1000)
			ns = (((int64_t)1 << 53) - 500 + (int64_t)i) * (i & 1 ? 1 : 1000);
		if (i % 7 == 0)
			ns = -ns;
		d = strtod(export_fmt_us(ns, us, sizeof(us)), NULL);
		if (export_us_value(ns) != d) {
			fprintf(stderr, "export_us_value(%lld) = %.17g, strtod %.17g\n",
				(long long)ns, export_us_value(ns), d);
			check_failures++;
		}
	}
	CHECK_OUT("-9223372036854775.808", xout_us(&o_, INT64_MIN));
}

/* 3 MiB in pieces of every size up to 1000 bytes: all of it, in order. */
static void big(void)
{
	size_t total = 3u << 20, done = 0, n, i;
	char *src = malloc(total), *text = NULL;
	size_t len = 0;
	struct xout o;
	FILE *f = open_memstream(&text, &len);

	for (i = 0; i < total; i++)
		src[i] = (char)('a' + next() % 26);
	CHECK_EQ(xout_open(&o, f), 0);
	for (i = 0; done < total; i++) {
		n = i % 1001;
		if (n > total - done)
			n = total - done;
		if (i % 3 == 0 && n >= 20) {
			xout_u64(&o, 12345678901234567890ull); /* 20 bytes through xout_room() */
			memcpy(src + done, "12345678901234567890", 20);
			n = 20;
		} else {
			xout_mem(&o, src + done, n);
		}
		done += n;
	}
	CHECK_EQ(xout_close(&o), 0);
	fclose(f);
	CHECK_EQ(len, total);
	CHECK(len == total && !memcmp(text, src, total));
	free(text);
	free(src);
}

int main(void)
{
	reals();
	strings();
	numbers();
	big();
	return CHECK_DONE();
}
