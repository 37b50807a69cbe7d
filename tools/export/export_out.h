/* SPDX-License-Identifier: MIT */
/*
 * Buffered text output for the export files: the timeline JSON and the
 * CSVs are formatted by hand into one large buffer that goes to the
 * stream a whole buffer at a time, so writing an event costs a few
 * stores, not a jansson object, a dump and an fwrite per token.
 *
 * The JSON pieces print exactly what jansson 2.14's json_dumpf() prints
 * with JSON_COMPACT (strings escaped as its dump_string() does, reals as
 * its jsonp_dtostr()), so the files stay byte for byte what they were;
 * tests/unit/test_export_out.c holds the two against each other.
 */
#ifndef MSPROF_EXPORT_OUT_H
#define MSPROF_EXPORT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define XOUT_BUF_SIZE (1u << 20)
/* Room every piece below fits in, but xout_mem() and the strings. */
#define XOUT_PIECE 64u

/**
 * struct xout - an output buffer in front of a stream
 * @f:   the stream whole buffers go to
 * @buf: XOUT_BUF_SIZE bytes
 * @len: bytes held
 * @err: 0, or the first failure (-ENOMEM at open, -EIO writing): later
 *       output is dropped and xout_close() returns it (-errno of the
 *       failed write, ENOSPC say)
 * @flushed: bytes handed to @f so far (xout_bytes() adds @len)
 */
struct xout {
	FILE *f;
	char *buf;
	size_t len;
	int err;
	uint64_t flushed;
};

/* Bytes written to @o so far, held ones included. */
static inline uint64_t xout_bytes(const struct xout *o)
{
	return o->flushed + o->len;
}

/**
 * xout_open() - start a buffer for @f.  Return: 0, or -ENOMEM: then write
 * nothing to @o (it has no buffer).
 */
int xout_open(struct xout *o, FILE *f);

/** xout_flush() - hand what is held to the stream.  Return: @o->err. */
int xout_flush(struct xout *o);

/** xout_close() - flush and free.  Return: 0, -ENOMEM or the write's -errno. */
int xout_close(struct xout *o);

/* A pointer to at least XOUT_PIECE free bytes (flushing when short). */
static inline char *xout_room(struct xout *o)
{
	if (XOUT_BUF_SIZE - o->len < XOUT_PIECE)
		xout_flush(o);
	return o->buf + o->len;
}

/** xout_mem() - @n bytes as they are. */
void xout_mem(struct xout *o, const void *p, size_t n);

/* A string literal as it is (its length known at compile time). */
#define XOUT_LIT(o, lit) xout_mem((o), "" lit, sizeof(lit) - 1)

static inline void xout_str(struct xout *o, const char *s)
{
	xout_mem(o, s, strlen(s));
}

static inline void xout_char(struct xout *o, char c)
{
	xout_room(o)[0] = c;
	o->len++;
}

/** xout_fmt_u64() - decimal of @v at @p (20 bytes at most); returns its length. */
size_t xout_fmt_u64(char *p, uint64_t v);

void xout_u64(struct xout *o, uint64_t v);
void xout_i64(struct xout *o, int64_t v);

/** xout_hex() - @v as "0x%llx" prints it. */
void xout_hex(struct xout *o, uint64_t v);

/** xout_us() - @ns as "<us>.<3 digits>" (export_fmt_us()). */
void xout_us(struct xout *o, int64_t ns);

/** xout_fixed3() - @v with 3 decimals, as printf's "%.3f". */
void xout_fixed3(struct xout *o, double v);

/**
 * xout_json_str() - @s (NUL-terminated UTF-8) as a JSON string the way
 * jansson dumps it without JSON_ENSURE_ASCII / JSON_ESCAPE_SLASH: " and \
 * escaped, control characters as \b \f \n \r \t or \u00XX, everything
 * else (non-ASCII, "/", DEL) as it is.
 */
void xout_json_str(struct xout *o, const char *s);

/**
 * xout_fmt_real() - @v as jansson dumps a real with JSON_REAL_PRECISION
 * (@precision; 0 = 17): "%.<precision>g", ".0" appended when that has
 * neither "." nor "e", the exponent without "+" and leading zeros.  @p
 * needs 32 bytes.  @v must be finite (jansson has no NaN or infinity).
 * Returns the length.
 */
size_t xout_fmt_real(char *p, double v, int precision);

void xout_json_real(struct xout *o, double v, int precision);

#endif /* MSPROF_EXPORT_OUT_H */
