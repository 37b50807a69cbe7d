// SPDX-License-Identifier: MIT
/*
 * Description: a slice whose whole zstd frames end inside a record (a
 * version-1 slice: its stream header and records 0..4 in one frame, then
 * a frame holding only the first 20 bytes of record 5) reads back records
 * 0..4 and the header, and reports those 20 decoded bytes as
 * cut_record_bytes, with truncated_bytes 0 and no cut: truncated_bytes
 * counts the file's compressed bytes after its last whole frame, and
 * every frame of this file is whole.  (Before, the 20 decoded bytes were
 * added to truncated_bytes, which slice.h documents as compressed bytes.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include <npuprof/slice.h>

static void put_frame(FILE *f, const void *p, size_t len)
{
	static uint8_t out[1 << 16];
	size_t n = ZSTD_compress(out, sizeof(out), p, len, 3);

	CHECK(!ZSTD_isError(n));
	fwrite(out, 1, n, f);
}

int main(void)
{
	static uint8_t raw[8 * RECGEN_MAX + 64];
	struct npuprof_rec_stream_hdr sh = {
		.hdr = { .type = NPUPROF_REC_STREAM_HDR, .size = sizeof(sh), .ts = 1 },
		.magic = NPUPROF_STREAM_MAGIC, .version = NPUPROF_RECORD_VERSION,
		.source = NPUPROF_SRC_BPF, .slice = 0, .device = -1,
	};
	char dir[] = "/tmp/npuprof-cutrec-XXXXXX", path[600];
	struct npuprof_read_report rep;
	struct recgen_got g = { 0 };
	size_t len = sizeof(sh), rec5;
	FILE *f;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	memcpy(raw, &sh, sizeof(sh));
	for (uint64_t i = 0; i < 5; i++)
		len += recgen_make(raw + len, i);
	rec5 = recgen_make(raw + len, 5);
	CHECK(rec5 > 20);
	snprintf(path, sizeof(path), "%s/npuprof.api.slice_0", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return CHECK_DONE();
	put_frame(f, raw, len);
	put_frame(f, raw + len, 20);
	fclose(f);

	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", recgen_check, &g, &rep), 0);
	CHECK_EQ(g.seq, 5);
	CHECK_EQ(g.hdrs, 1);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.records, 6);
	CHECK_EQ(rep.cut, 0);
	CHECK_EQ(rep.truncated_bytes, 0);
	CHECK_EQ(rep.cut_record_bytes, 20);
	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
