// SPDX-License-Identifier: MIT
/*
 * Description: a compressor failure (zstd out of memory) is remembered by
 * the slice writer like a write error: the call that hit it returns
 * -ENOMEM, the half-built frame is thrown away, later appends and flushes
 * return -ENOMEM without compressing anything, close reports it, and what
 * was flushed before reads back whole with no truncated bytes.  The
 * compressor runs where a block ends; three places: the first flush of a
 * new slice (its stream header's block), a record that ends a full block
 * (record 70, with blocks of BLOCK_BYTES), the flush after record 99.
 * (This test defines ZSTD_compressStream2 to fail on demand.)
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include "io_engine_test.h"
#include <npuprof/slice.h>

/* Raw bytes of records 50..69 of recgen (5 rounds of 104+88+88+40): the
 * block opened after the flush at 50 is full when record 70 comes. */
#define BLOCK_BYTES 1600

static int fail_next; /* fail the next compressor call */
static int calls;     /* compressor calls so far */

typedef size_t (*compress_fn)(ZSTD_CCtx *, ZSTD_outBuffer *, ZSTD_inBuffer *,
			      ZSTD_EndDirective);

size_t ZSTD_compressStream2(ZSTD_CCtx *cctx, ZSTD_outBuffer *out, ZSTD_inBuffer *in,
			    ZSTD_EndDirective end)
{
	static compress_fn real;

	calls++;
	if (fail_next) {
		fail_next = 0;
		return (size_t)-ZSTD_error_memory_allocation;
	}
	if (!real)
		real = (compress_fn)dlsym(RTLD_NEXT, "ZSTD_compressStream2");
	return real(cctx, out, in, end);
}

static void wait_writes(struct io_engine *io, struct slice_writer *w)
{
	test_io_wait_idle(io, w);
}

static int append(struct slice_writer *w, uint64_t seq)
{
	uint8_t buf[RECGEN_MAX];

	recgen_make(buf, seq);
	return slice_writer_append(w, (void *)buf);
}

/*
 * Write records 0..49 and flush, then fail at @where: 0 the first flush,
 * after record 0 (nothing flushed before), 1 record 70, 2 the flush after
 * record 99.  Check the error sticks and what reads back.
 */
static void run(const char *dir, int where, uint64_t want_records)
{
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.api",
					.slice_bytes = 1 << 20, .zstd_level = 3,
					.block_bytes = BLOCK_BYTES,
					.source = NPUPROF_SRC_BPF, .device = -1 };
	struct slice_writer_stats st;
	struct npuprof_read_report rep;
	struct slice_writer *w;
	struct io_engine *io;
	struct recgen_got g = { 0 };
	uint64_t i = 0;
	int before;

	CHECK_EQ(test_io_engine_open(8, &io), 0);
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	if (where == 0) {
		CHECK_EQ(append(w, 0), 0);
		fail_next = 1;
		CHECK_EQ(slice_writer_flush(w), -ENOMEM);
	} else {
		for (; i < 50; i++)
			CHECK_EQ(append(w, i), 0);
		CHECK_EQ(slice_writer_flush(w), 0);
		wait_writes(io, w);
		for (; i < 100; i++) {
			fail_next = where == 1 && i == 70;
			if (append(w, i))
				break;
		}
		CHECK_EQ(i, where == 1 ? 70 : 100);
		if (where == 2) {
			fail_next = 1;
			CHECK_EQ(slice_writer_flush(w), -ENOMEM);
		}
	}
	before = calls;
	CHECK_EQ(append(w, i + 1), -ENOMEM);
	CHECK_EQ(slice_writer_flush(w), -ENOMEM);
	CHECK_EQ(calls, before); /* nothing more went into the broken frame */
	CHECK_EQ(slice_writer_close(w, &st), -ENOMEM);
	CHECK_EQ(st.error, -ENOMEM);
	CHECK_EQ(st.slices, 1);

	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", recgen_check, &g, &rep), 0);
	CHECK_EQ(g.seq, want_records);
	CHECK_EQ(g.hdrs, want_records ? 1 : 0);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.truncated_bytes, 0);
	io_engine_close(io);
}

int main(void)
{
	for (int where = 0; where < 3; where++) {
		char dir[] = "/tmp/npuprof-zstd-XXXXXX";

		if (!mkdtemp(dir))
			CHECK_SKIP("no temp dir");
		run(dir, where, where ? 50 : 0);
		if (!check_failures)
			tmpdir_remove(dir);
		else
			fprintf(stderr, "output kept in %s\n", dir);
	}
	return CHECK_DONE();
}
