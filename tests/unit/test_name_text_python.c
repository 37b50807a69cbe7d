// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_name_text() agrees with its definition in Python,
 * bytes.decode("utf-8", "backslashreplace") with every control character
 * (category Cc) escaped byte by byte, on 20000 seeded random 32-byte name
 * fields: a mix of ASCII, control bytes, well-formed sequences of every
 * length (C1 controls, edges of the surrogate range, U+10FFFF), stray
 * continuation and lead bytes, cut sequences, and fields with no NUL.
 * Any disagreement is printed with the name's bytes.  Skips (77) without
 * python3.
 */
#include <npuprof/name_text.h>
#include <npuprof/record.h>

#include "check.h"
#include "test_export_fixture.h"

#define N_NAMES 20000

static const char reference[] =
	"import sys, unicodedata\n"
	"def text(b):\n"
	"    s = b.split(b'\\0', 1)[0].decode('utf-8', 'backslashreplace')\n"
	"    return ''.join(''.join('\\\\x%02x' % x for x in c.encode())\n"
	"                   if unicodedata.category(c) == 'Cc' else c for c in s)\n"
	"bad = 0\n"
	"for line in open(sys.argv[1], encoding='utf-8'):\n"
	"    hexed, got = line.rstrip('\\n').split('\\t')\n"
	"    want = text(bytes.fromhex(hexed))\n"
	"    if got != want:\n"
	"        bad += 1\n"
	"        if bad <= 10:\n"
	"            print('bytes %s: got %r, want %r' % (hexed, got, want))\n"
	"print('%d disagreements' % bad)\n"
	"sys.exit(1 if bad else 0)\n";

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 16);
}

/* Append the UTF-8 form of @cp (no checks: surrogates are made too). */
static size_t put_cp(unsigned char *p, uint32_t cp)
{
	if (cp < 0x80) {
		p[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		p[0] = (unsigned char)(0xc0 | cp >> 6);
		p[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		p[0] = (unsigned char)(0xe0 | cp >> 12);
		p[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		p[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	p[0] = (unsigned char)(0xf0 | cp >> 18);
	p[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	p[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	p[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A code point near one of the edges the rule cares about. */
static uint32_t edge_cp(void)
{
	static const uint32_t edges[] = { 0x7f, 0x80, 0x9f, 0xa0, 0x7ff, 0x800, 0xd7ff, 0xd800,
					  0xdfff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x10ffff,
					  0x110000, 0x1fffff };
	uint32_t e = edges[next() % (sizeof(edges) / sizeof(edges[0]))];

	return e + (next() % 3) - 1;
}

static void random_field(unsigned char *f)
{
	unsigned char tmp[4];
	size_t n = 0, len = next() % (NPUPROF_NAME_LEN + 1), k;

	memset(f, 0, NPUPROF_NAME_LEN);
	while (n < len) {
		switch (next() % 6) {
		case 0:
			tmp[0] = (unsigned char)(0x20 + next() % 95), k = 1;
			break;
		case 1:
			tmp[0] = (unsigned char)(1 + next() % 31), k = 1;
			break;
		case 2:
			k = put_cp(tmp, next() % 0x110000);
			break;
		case 3:
			k = put_cp(tmp, edge_cp());
			break;
		case 4:
			tmp[0] = (unsigned char)(0x80 + next() % 128), k = 1;
			break;
		default:
			k = put_cp(tmp, next() % 0x110000);
			k = 1 + next() % k; /* a sequence, perhaps cut */
			break;
		}
		if (k > len - n)
			k = len - n; /* the field's end cuts it */
		memcpy(f + n, tmp, k);
		n += k;
	}
	for (k = 0; k < n; k++)
		if (!f[k])
			f[k] = 'z'; /* 0x00 from a code point: the name would end there */
}

int main(void)
{
	unsigned char field[NPUPROF_NAME_LEN];
	char text[NPUPROF_NAME_TEXT_SIZE(NPUPROF_NAME_LEN)], root[256], path[512], cmd[1200];
	FILE *f;
	size_t i, k;

	if (system("python3 -c '' 2>/dev/null"))
		CHECK_SKIP("python3 not available");
	if (fx_tmpdir(root, sizeof(root)))
		return 1;
	snprintf(path, sizeof(path), "%s/names.tsv", root);
	f = fopen(path, "w");
	if (!f)
		return 1;
	for (i = 0; i < N_NAMES; i++) {
		random_field(field);
		npuprof_name_text(text, sizeof(text), (const char *)field, sizeof(field));
		for (k = 0; k < sizeof(field); k++)
			fprintf(f, "%02x", field[k]);
		fprintf(f, "\t%s\n", text);
	}
	CHECK_EQ(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/reference.py", root);
	CHECK_EQ(fx_write_file(path, reference, strlen(reference)), 0);
	snprintf(cmd, sizeof(cmd), "python3 '%s' '%s/names.tsv'", path, root);
	CHECK_EQ(system(cmd), 0);
	fx_rmtree(root);
	return CHECK_DONE();
}
