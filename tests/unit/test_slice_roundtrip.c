// SPDX-License-Identifier: MIT
/*
 * Description: records of mixed types written through the slice writer with
 * a tiny slice size come back from the slice reader with the same bytes, in
 * the same order, spread over several slices that each start with a stream
 * header naming their index; every .done file holds the slice's file size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include "io_engine_test.h"
#include <npuprof/slice.h>

#define NR_RECORDS 3000
#define FLUSH_EVERY 40

struct got {
	uint64_t seq;
	uint64_t hdrs;
	uint64_t bad;
};

static int check_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct got *g = ctx;

	if (rec->type == NPUPROF_REC_STREAM_HDR) {
		const struct npuprof_rec_stream_hdr *sh = (const void *)rec;

		if (sh->slice != g->hdrs || sh->device != 7 || sh->source != NPUPROF_SRC_KMOD ||
		    sh->version != NPUPROF_RECORD_VERSION)
			g->bad++;
		g->hdrs++;
		return 0;
	}
	if (!recgen_equal(rec, g->seq))
		g->bad++;
	g->seq++;
	return 0;
}

static long long done_size(const char *slice)
{
	char path[600];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s.done", slice);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "filesize:%lld\n", &n) != 1)
		n = -1;
	fclose(f);
	return n;
}

/* Every slice_<i> has a .done equal to its size; returns the size sum. */
static uint64_t check_done_files(const char *dir, uint64_t slices)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < slices; i++) {
		char path[512];
		struct stat st;

		snprintf(path, sizeof(path), "%s/npuprof.task.7.slice_%llu", dir,
			 (unsigned long long)i);
		CHECK_EQ(stat(path, &st), 0);
		CHECK_EQ(done_size(path), st.st_size);
		sum += (uint64_t)st.st_size;
	}
	return sum;
}

int main(void)
{
	char dir[] = "/tmp/npuprof-slice-XXXXXX";
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.task.7", .slice_bytes = 8192,
					.zstd_level = 3, .source = NPUPROF_SRC_KMOD, .device = 7 };
	struct slice_writer_stats st;
	struct npuprof_read_report rep;
	struct slice_writer *w;
	struct io_engine *io;
	struct got g = { 0 };
	uint64_t raw = 0;
	uint8_t buf[RECGEN_MAX];

	if (!mkdtemp(dir) || test_io_engine_open(8, &io))
		CHECK_SKIP("no temp dir or no I/O engine");
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (uint64_t i = 0; i < NR_RECORDS; i++) {
		raw += recgen_make(buf, i);
		CHECK_EQ(slice_writer_append(w, (void *)buf), 0);
		if (i % FLUSH_EVERY == FLUSH_EVERY - 1)
			CHECK_EQ(slice_writer_flush(w), 0);
	}
	CHECK_EQ(slice_writer_close(w, &st), 0);
	CHECK_EQ(st.error, 0);
	CHECK(st.slices >= 5);
	CHECK_EQ(st.raw_bytes, raw + st.slices * sizeof(struct npuprof_rec_stream_hdr));

	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.task.7", check_rec, &g, &rep), 0);
	CHECK_EQ(g.seq, NR_RECORDS);
	CHECK_EQ(g.hdrs, st.slices);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.slices, st.slices);
	CHECK_EQ(rep.records, NR_RECORDS + st.slices);
	CHECK_EQ(rep.truncated_bytes, 0);
	CHECK_EQ(rep.bad_version, 0);
	CHECK_EQ(check_done_files(dir, st.slices), st.file_bytes);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", check_rec, &g, NULL), -ENOENT);

	io_engine_close(io);
	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
