// SPDX-License-Identifier: MIT
/*
 * Description: the writer models records (version-3 frames) while its
 * blocks end by a flush, and writes version-1 blocks (version-2 frames)
 * after a block ended full, until a flush ends one again: with 4 KiB
 * blocks, 300 records appended without a flush and then 200 flushed every
 * 10, the frames are modelled, then plain for as long as blocks fill, then
 * modelled; the series reads back every record byte for byte in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include "../../user/slice_model.h"
#include "io_engine_test.h"
#include <npuprof/slice.h>

#define MAX_FRAMES 256

/* Block version of each frame of @path, in order.  Return: frames. */
static unsigned int frame_versions(const char *path, uint16_t *v)
{
	static uint8_t buf[1 << 20], out[1 << 20];
	FILE *f = fopen(path, "rb");
	size_t len = f ? fread(buf, 1, sizeof(buf), f) : 0, pos = 0;
	unsigned int n = 0;

	if (f)
		fclose(f);
	while (pos < len && n < MAX_FRAMES) {
		size_t c = ZSTD_findFrameCompressedSize(buf + pos, len - pos);
		size_t d = ZSTD_isError(c) ? c : ZSTD_decompress(out, sizeof(out), buf + pos, c);

		CHECK(!ZSTD_isError(d) && slice_block_is(out, d));
		if (ZSTD_isError(d))
			break;
		v[n++] = ((const struct slice_block_hdr *)out)->version;
		pos += c;
	}
	return n;
}

int main(void)
{
	char dir[] = "/tmp/npuprof-rate-XXXXXX", path[600];
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.api", .slice_bytes = 1 << 20,
					.zstd_level = 1, .block_bytes = 4096,
					.source = NPUPROF_SRC_BPF, .device = -1 };
	struct npuprof_read_report rep;
	struct recgen_got g = { 0 };
	uint16_t v[MAX_FRAMES];
	uint8_t buf[RECGEN_MAX];
	struct slice_writer *w;
	struct io_engine *io;
	unsigned int n, plain = 0;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	CHECK_EQ(test_io_engine_open(8, &io), 0);
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (uint64_t i = 0; i < 500; i++) {
		recgen_make(buf, i);
		CHECK_EQ(slice_writer_append(w, (void *)buf), 0);
		if (i >= 300 && i % 10 == 9)
			CHECK_EQ(slice_writer_flush(w), 0);
	}
	CHECK_EQ(slice_writer_close(w, NULL), 0);
	io_engine_close(io);
	snprintf(path, sizeof(path), "%s/npuprof.api.slice_0", dir);
	n = frame_versions(path, v);
	CHECK(n > 20);
	CHECK_EQ(v[0], SLICE_MBLOCK_VERSION); /* nothing ended full yet */
	for (unsigned int i = 1; i < n && v[i] == SLICE_BLOCK_VERSION; i++)
		plain++;
	CHECK(plain >= 5); /* 300 records of ~70 bytes fill 4 KiB blocks */
	/* the block the first flush ended was plain; every one after it is modelled */
	for (unsigned int i = plain + 2; i < n; i++)
		CHECK_EQ(v[i], SLICE_MBLOCK_VERSION);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", recgen_check, &g, &rep), 0);
	CHECK_EQ(g.seq, 500);
	CHECK_EQ(g.hdrs, 1);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.truncated_bytes, 0);
	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
