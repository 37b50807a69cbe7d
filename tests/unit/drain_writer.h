/* SPDX-License-Identifier: MIT */
/*
 * The writer a drain test must have run on: the pwrite fallback when
 * NPUPROF_WRITER=pwrite (tests/run.sh's pwrite/ runs), else io_uring.  The
 * drain tests check stats.writer against it, so a run that asked for the
 * fallback cannot pass on io_uring unnoticed.
 */
#ifndef NPUPROF_TEST_DRAIN_WRITER_H
#define NPUPROF_TEST_DRAIN_WRITER_H

#include <stdlib.h>
#include <string.h>

#include <npuprof/drain.h>

static inline int test_drain_writer(void)
{
	const char *v = getenv("NPUPROF_WRITER");

	return v && !strcmp(v, "pwrite") ? NPUPROF_WRITER_PWRITE : NPUPROF_WRITER_IO_URING;
}

#endif /* NPUPROF_TEST_DRAIN_WRITER_H */
