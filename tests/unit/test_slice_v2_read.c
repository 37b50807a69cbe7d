// SPDX-License-Identifier: MIT
/*
 * Description: slices in the version-2 format (zstd frames each holding
 * a version-1 block, as the writer made them before modelled blocks)
 * still read back exactly, also in a series whose next slice is version 3:
 * slice 0 of version-2 frames (a frame every 13 records, made as the old
 * writer did: slice_block_encode() and a checksummed zstd frame) and slice
 * 1 as today's writer makes it deliver every record byte for byte in
 * order, both stream headers, no truncated bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include "../../user/slice_block.h"
#include "io_engine_test.h"
#include <npuprof/slice.h>

#define NR 300
#define EVERY 13

/* Records @first..@first+@nr-1 after a stream header, as version-2 frames. */
static void write_v2(const char *path, uint64_t first, uint32_t nr)
{
	static uint8_t raw[(EVERY + 1) * RECGEN_MAX], blk[(EVERY + 1) * RECGEN_MAX + 4096];
	static uint8_t out[1 << 16];
	struct npuprof_rec_stream_hdr sh = {
		.hdr = { .type = NPUPROF_REC_STREAM_HDR, .size = sizeof(sh), .ts = 1 },
		.magic = NPUPROF_STREAM_MAGIC, .version = NPUPROF_RECORD_VERSION,
		.source = NPUPROF_SRC_BPF, .device = -1,
	};
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	FILE *f = fopen(path, "w");
	uint32_t scratch[EVERY + 1], in_blk = 1;
	size_t len = sizeof(sh);

	CHECK(f && cc);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	memcpy(raw, &sh, sizeof(sh));
	for (uint32_t i = 0; f && cc && i < nr; i++) {
		len += recgen_make(raw + len, first + i);
		if (++in_blk == EVERY || i == nr - 1) {
			long n = slice_block_encode(raw, len, in_blk, scratch, blk);
			size_t c = ZSTD_compress2(cc, out, sizeof(out), blk, (size_t)n);

			CHECK(n > 0 && !ZSTD_isError(c));
			CHECK_EQ(((struct slice_block_hdr *)blk)->version, SLICE_BLOCK_VERSION);
			fwrite(out, 1, c, f);
			len = 0;
			in_blk = 0;
		}
	}
	if (f)
		fclose(f);
	ZSTD_freeCCtx(cc);
}

/* Records @first..@first+@nr-1 as today's writer writes them, renamed to @path. */
static void write_current(const char *dir, const char *path, uint64_t first, uint32_t nr)
{
	struct slice_writer_cfg cfg = { .dir = dir, .series = "tmp.api", .slice_bytes = 1 << 20,
					.zstd_level = 1, .source = NPUPROF_SRC_BPF, .device = -1 };
	char made[600];
	uint8_t buf[RECGEN_MAX];
	struct slice_writer *w;
	struct io_engine *io;

	CHECK_EQ(test_io_engine_open(8, &io), 0);
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (uint32_t i = 0; i < nr; i++) {
		recgen_make(buf, first + i);
		CHECK_EQ(slice_writer_append(w, (void *)buf), 0);
		if (i % EVERY == EVERY - 1)
			CHECK_EQ(slice_writer_flush(w), 0);
	}
	CHECK_EQ(slice_writer_close(w, NULL), 0);
	io_engine_close(io);
	snprintf(made, sizeof(made), "%s/tmp.api.slice_0", dir);
	CHECK_EQ(rename(made, path), 0);
	strcat(made, ".done");
	unlink(made);
}

int main(void)
{
	char dir[] = "/tmp/npuprof-v2-XXXXXX", path[600];
	struct npuprof_read_report rep;
	struct recgen_got g = { 0 };

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	snprintf(path, sizeof(path), "%s/npuprof.api.slice_0", dir);
	write_v2(path, 0, NR / 2);
	snprintf(path, sizeof(path), "%s/npuprof.api.slice_1", dir);
	write_current(dir, path, NR / 2, NR / 2);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", recgen_check, &g, &rep), 0);
	CHECK_EQ(g.seq, NR);
	CHECK_EQ(g.hdrs, 2);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.slices, 2);
	CHECK_EQ(rep.records, NR + 2);
	CHECK_EQ(rep.truncated_bytes, 0);
	CHECK_EQ(rep.corrupt, 0);
	CHECK_EQ(rep.bad_version, 0);
	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
