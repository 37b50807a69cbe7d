// SPDX-License-Identifier: MIT
/*
 * Description: slices in the version-1 format (zstd frames holding records
 * as they are, as the writer made them before blocks) still read back
 * exactly: a series of two such slices, frames ended after various
 * records and one frame ending inside a record, delivers every record
 * byte for byte in order with both stream headers and no truncated bytes;
 * a slice mixing a version-1 frame and a version-2 block frame reads too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include "../../user/slice_block.h"
#include <npuprof/slice.h>

#define NR 300

static size_t stream_hdr(uint8_t *p, unsigned int idx)
{
	struct npuprof_rec_stream_hdr sh = {
		.hdr = { .type = NPUPROF_REC_STREAM_HDR, .size = sizeof(sh), .ts = 1 },
		.magic = NPUPROF_STREAM_MAGIC, .version = NPUPROF_RECORD_VERSION,
		.source = NPUPROF_SRC_BPF, .slice = idx, .device = -1,
	};

	memcpy(p, &sh, sizeof(sh));
	return sizeof(sh);
}

/* Compress @len bytes as one frame and append it to @f. */
static void put_frame(FILE *f, const void *p, size_t len, int is_block)
{
	static uint8_t out[1 << 20];
	size_t n = ZSTD_compress(out, sizeof(out), p, len, 3);

	CHECK(!ZSTD_isError(n));
	CHECK(is_block == slice_block_is(p, len));
	fwrite(out, 1, n, f);
}

/* Version-1 slice @idx: records @first..@first+@nr-1, a frame every @every
 * records, and (when @split) one frame boundary in the middle of a record. */
static void write_v1(const char *dir, unsigned int idx, uint64_t first, uint32_t nr,
		     uint32_t every, int split)
{
	static uint8_t raw[NR * RECGEN_MAX + 64];
	char path[600];
	size_t len = stream_hdr(raw, idx), start = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/npuprof.api.slice_%u", dir, idx);
	f = fopen(path, "w");
	CHECK(f != NULL);
	for (uint32_t i = 0; f && i < nr; i++) {
		len += recgen_make(raw + len, first + i);
		if (i % every == every - 1) {
			size_t end = split && i == every - 1 ? len - 20 : len;

			put_frame(f, raw + start, end - start, 0);
			start = end;
		}
	}
	if (f) {
		put_frame(f, raw + start, len - start, 0);
		fclose(f);
	}
}

/* One slice: a version-1 frame of records 0..9, then a block of 10..19. */
static void write_mixed(const char *dir)
{
	static uint8_t raw[64 * RECGEN_MAX], blk[64 * RECGEN_MAX + 4096];
	uint32_t scratch[64];
	char path[600];
	size_t len = stream_hdr(raw, 0), blen;
	FILE *f;

	snprintf(path, sizeof(path), "%s/npuprof.api.slice_0", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	for (uint64_t i = 0; i < 10; i++)
		len += recgen_make(raw + len, i);
	put_frame(f, raw, len, 0);
	len = 0;
	for (uint64_t i = 10; i < 20; i++)
		len += recgen_make(raw + len, i);
	blen = (size_t)slice_block_encode(raw, len, 10, scratch, blk);
	put_frame(f, blk, blen, 1);
	fclose(f);
}

static void read_back(const char *dir, uint64_t want, uint64_t want_hdrs, uint64_t want_slices)
{
	struct npuprof_read_report rep;
	struct recgen_got g = { 0 };

	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", recgen_check, &g, &rep), 0);
	CHECK_EQ(g.seq, want);
	CHECK_EQ(g.hdrs, want_hdrs);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.slices, want_slices);
	CHECK_EQ(rep.truncated_bytes, 0);
	CHECK_EQ(rep.corrupt, 0);
	CHECK_EQ(rep.records, want + want_hdrs);
}

int main(void)
{
	char dir[] = "/tmp/npuprof-v1-XXXXXX", dir2[] = "/tmp/npuprof-v1m-XXXXXX";

	if (!mkdtemp(dir) || !mkdtemp(dir2))
		CHECK_SKIP("no temp dir");
	write_v1(dir, 0, 0, NR / 2, 17, 1);
	write_v1(dir, 1, NR / 2, NR / 2, 40, 0);
	read_back(dir, NR, 2, 2);
	write_mixed(dir2);
	read_back(dir2, 20, 1, 1);
	if (!check_failures) {
		tmpdir_remove(dir);
		tmpdir_remove(dir2);
	}
	return CHECK_DONE();
}
