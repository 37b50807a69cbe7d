/* SPDX-License-Identifier: MIT */
/*
 * A clock a test can hold still: this header defines clock_gettime(), in
 * place of libc's, answering a fixed time while clock_held is set (so two
 * runs of the slice writer make stream headers with the same time, and
 * files that compare byte for byte).  Include it in one file of a test.
 */
#ifndef NPUPROF_TEST_CLOCK_HOLD_H
#define NPUPROF_TEST_CLOCK_HOLD_H

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int clock_held;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	if (clock_held) {
		ts->tv_sec = 1000;
		ts->tv_nsec = 0;
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, id, ts);
}

#endif /* NPUPROF_TEST_CLOCK_HOLD_H */
