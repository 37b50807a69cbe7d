/* SPDX-License-Identifier: MIT */
/*
 * Clock reads used across the tree: the slice writer's flush ages, the
 * drain's and the session's timeouts, msprof's deadlines.
 * CLOCK_MONOTONIC is the clock of every record (see
 * include/npuprof/record.h).  Header-only; the tools' plumbing, not
 * installed.
 */
#ifndef NPUPROF_CLOCK_H
#define NPUPROF_CLOCK_H

#include <stdint.h>
#include <time.h>

/** npuprof_clock_ns() - clock @id in ns. */
static inline uint64_t npuprof_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/** npuprof_mono_ns() - CLOCK_MONOTONIC in ns, the records' clock. */
static inline uint64_t npuprof_mono_ns(void)
{
	return npuprof_clock_ns(CLOCK_MONOTONIC);
}

/** npuprof_mono_ms() - CLOCK_MONOTONIC in ms, for timeouts and deadlines. */
static inline int64_t npuprof_mono_ms(void)
{
	return (int64_t)(npuprof_mono_ns() / 1000000ULL);
}

#endif /* NPUPROF_CLOCK_H */
