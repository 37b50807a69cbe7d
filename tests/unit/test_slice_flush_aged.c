// SPDX-License-Identifier: MIT
/*
 * Description: slice_writer_flush_aged() (the drain's tick) leaves the
 * open frame alone until its oldest record is max_age old, then writes it
 * as slice_writer_flush() does: nothing queued and the file empty before,
 * one write queued and the file holding the frame after, which reads back
 * every record.  With nothing taken it never writes.
 */
#include <stdio.h>
#include <sys/stat.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include "io_engine_test.h"
#include <npuprof/clock.h>
#include <npuprof/slice.h>

#define AGE_NS 10000000000ULL /* 10 s: never reached by the test's own pace */

static long long file_size(const char *dir)
{
	char path[600];
	struct stat sb;

	snprintf(path, sizeof(path), "%s/npuprof.api.slice_0", dir);
	return stat(path, &sb) ? -1 : (long long)sb.st_size;
}

/* Reap the writes in flight. */
static void reap(struct io_engine *io, struct slice_writer *w)
{
	test_io_wait_idle(io, w);
}

int main(void)
{
	char dir[] = "/tmp/npuprof-aged-XXXXXX";
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.api", .slice_bytes = 1 << 20,
					.zstd_level = 1, .source = NPUPROF_SRC_BPF, .device = -1 };
	struct npuprof_read_report rep;
	struct recgen_got g = { 0 };
	uint8_t buf[RECGEN_MAX];
	struct slice_writer *w;
	struct io_engine *io;
	uint64_t t0;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	CHECK_EQ(test_io_engine_open(8, &io), 0);
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	CHECK_EQ(slice_writer_flush_aged(w, npuprof_mono_ns() + 2 * AGE_NS, AGE_NS), 0);
	CHECK(!slice_writer_busy(w));
	t0 = npuprof_mono_ns();
	for (uint64_t i = 0; i < 50; i++) {
		recgen_make(buf, i);
		CHECK_EQ(slice_writer_append(w, (void *)buf), 0);
	}
	CHECK_EQ(slice_writer_flush_aged(w, npuprof_mono_ns(), AGE_NS), 0);
	CHECK(!slice_writer_busy(w));
	CHECK_EQ(file_size(dir), 0);
	CHECK_EQ(slice_writer_flush_aged(w, t0 + AGE_NS - 1, AGE_NS), 0); /* not yet */
	CHECK(!slice_writer_busy(w));
	CHECK_EQ(slice_writer_flush_aged(w, npuprof_mono_ns() + AGE_NS, AGE_NS), 0);
	CHECK(slice_writer_busy(w));
	reap(io, w);
	CHECK(file_size(dir) > 0);
	CHECK_EQ(slice_writer_close(w, NULL), 0);
	io_engine_close(io);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", recgen_check, &g, &rep), 0);
	CHECK_EQ(g.seq, 50);
	CHECK_EQ(g.bad, 0);
	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
