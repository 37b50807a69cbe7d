// SPDX-License-Identifier: MIT
/*
 * make bench: print CLOCK_MONOTONIC in ns, the clock of ai_task's step
 * begin_ns/end_ns, so a benchmark script can mark phase boundaries on it
 * (P7) without the start-up time of an interpreter under emulation.
 */
#include <stdio.h>
#include <time.h>

int main(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	printf("%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	return 0;
}
