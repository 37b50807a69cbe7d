/* SPDX-License-Identifier: MIT */
/*
 * The I/O engine a test of the slice writer runs on: io_uring, or the
 * pwrite fallback when NPUPROF_WRITER=pwrite (tests/run.sh runs the slice
 * and drain tests once more that way, as pwrite/test_*), and a reaper
 * that hands completions to the slice writer until a series is idle.
 */
#ifndef NPUPROF_IO_ENGINE_TEST_H
#define NPUPROF_IO_ENGINE_TEST_H

#include <stdlib.h>
#include <string.h>

#include "../../user/io_engine.h"
#include "../../user/slice_writer.h"

static inline enum io_engine_kind test_io_engine_kind(void)
{
	const char *v = getenv("NPUPROF_WRITER");

	return v && !strcmp(v, "pwrite") ? IO_ENGINE_PWRITE : IO_ENGINE_URING;
}

/* An engine of the kind the environment asks for, @entries deep; 0 or -errno. */
static inline int test_io_engine_open(unsigned int entries, struct io_engine **io)
{
	return io_engine_open(test_io_engine_kind(), entries, io);
}

/* Hand every ready completion to the slice writer, without waiting. */
static inline void test_io_reap_ready(struct io_engine *io)
{
	struct io_engine_cqe cqe;

	while (io_engine_peek(io, &cqe))
		slice_writer_handle_cqe(&cqe);
}

/* Wait until @w has nothing queued or in flight, handing completions over. */
static inline void test_io_wait_idle(struct io_engine *io, struct slice_writer *w)
{
	while (slice_writer_busy(w) && io_engine_wait(io, -1) == 0)
		test_io_reap_ready(io);
}

#endif /* NPUPROF_IO_ENGINE_TEST_H */
