// SPDX-License-Identifier: MIT
/*
 * Description: the device -> host clock fit (tools/export/clock_sync.c)
 * recovers offset and drift from (device count, host ns) readings.
 *
 * Synthetic device clock: offset 1.23e11 counts at host time H0, nominal
 * 50 MHz, +30 ppm drift, so count = 1.23e11 + (t - H0) * 0.05 * 1.00003.
 * Readings are spread over 10 s.  Bounds asserted:
 *   - no jitter (host ns computed exactly from the integer count, rounded
 *     to 1 ns): every mapped time within 1 ns, frequency within 0.001 Hz;
 *   - uniform jitter of +-1000 ns on the host side, 2000 readings, fixed
 *     seed: every mapped time within 100 ns of the true line (expected
 *     error of the fitted line is about 15 ns), frequency within 0.05 ppm;
 *   - the same plus 20 readings delayed by 50 us (interrupt latency):
 *     still within 100 ns, because the outliers are dropped and refitted;
 *   - fewer than 2 readings, or one device count only: -EINVAL;
 *   - a fit from a damaged file (slope -1e9, a NaN, host0 past 2^62) maps
 *     into [0, 2^62] without overflow; found by fuzz_export, whose input
 *     (tests/fuzz/corpus/export/regress_time_overflow) mapped a task end to
 *     -7427323726284263448 ns and overflowed the timeline's end - start.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "clock_sync.h"

#define H0 5000000000000ull /* host ns at which the device reads D0 */
#define D0 123000000000ull
#define RATE (0.05 * 1.00003) /* counts per ns */
#define N 2000
#define SPAN_NS 10000000000.0 /* 10 s */

/* True host time of device count @dev, ns (exact line, as a double). */
static double true_host(uint64_t dev)
{
	return (double)H0 + (double)(dev - D0) / RATE;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* Deterministic uniform in [-1, 1). */
static double rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (double)(rng_state >> 11) / 4503599627370496.0 - 1.0;
}

static void make_pairs(struct clock_pair *p, double jitter_ns, size_t outliers)
{
	size_t i;

	for (i = 0; i < N; i++) {
		double t = SPAN_NS * (double)i / N + 3777.0 * (double)(i % 7);
		uint64_t dev = D0 + (uint64_t)llround(t * RATE);
		double host = true_host(dev) + jitter_ns * rnd();

		if (i % (N / (outliers ? outliers : 1)) == 5 && outliers)
			host += 50000.0;
		p[i].dev_ts = dev;
		p[i].host_ns = (uint64_t)llround(host);
	}
}

/* Largest |mapped - true| over the whole span, ns. */
static double max_error(const struct clock_fit *fit)
{
	double worst = 0;
	uint64_t dev;

	for (dev = D0; dev <= D0 + (uint64_t)(SPAN_NS * RATE); dev += 1000003) {
		double e = fabs((double)clock_dev_to_host_ns(fit, dev) - true_host(dev));

		worst = e > worst ? e : worst;
	}
	return worst;
}

static void test_exact(void)
{
	static struct clock_pair p[N];
	struct clock_fit fit;

	make_pairs(p, 0, 0);
	CHECK_EQ(clock_fit_pairs(p, N, &fit), 0);
	CHECK(max_error(&fit) <= 1.0);
	CHECK(fabs(clock_fit_freq_hz(&fit) - 50001500.0) < 0.001);
	CHECK_EQ(fit.n_used, N);
}

static void test_jitter(size_t outliers)
{
	static struct clock_pair p[N];
	struct clock_fit fit;
	double ppm;

	make_pairs(p, 1000.0, outliers);
	CHECK_EQ(clock_fit_pairs(p, N, &fit), 0);
	ppm = (clock_fit_freq_hz(&fit) / 50e6 - 1.0) * 1e6;
	if (max_error(&fit) > 100.0 || fabs(ppm - 30.0) > 0.05)
		fprintf(stderr, "outliers %zu: max error %.1f ns, drift %.4f ppm\n", outliers,
			max_error(&fit), ppm);
	CHECK(max_error(&fit) <= 100.0);
	CHECK(fabs(ppm - 30.0) <= 0.05);
	CHECK_EQ(fit.n_pairs, N);
	if (outliers)
		CHECK_EQ(fit.n_used, N - outliers);
}

static void test_degenerate(void)
{
	struct clock_pair p[3] = { { D0, H0 }, { D0, H0 + 10 }, { D0, H0 + 20 } };
	struct clock_fit fit;

	CHECK_EQ(clock_fit_pairs(p, 0, &fit), -EINVAL);
	CHECK_EQ(clock_fit_pairs(p, 1, &fit), -EINVAL);
	CHECK_EQ(clock_fit_pairs(p, 3, &fit), -EINVAL);
}

static void test_damaged_fit(void)
{
	struct clock_fit f = { .dev0 = 100, .host0 = 1000, .a = 0, .b = -1e9 };

	CHECK_EQ(clock_dev_to_host_ns(&f, 100), 1000);
	CHECK_EQ(clock_dev_to_host_ns(&f, 101), 0);		      /* below 0 */
	CHECK_EQ(clock_dev_to_host_ns(&f, 100 - (1ull << 40)), CLOCK_HOST_NS_MAX); /* rel = +1.1e21 */
	f.b = 1e12;
	CHECK_EQ(clock_dev_to_host_ns(&f, (uint64_t)1 << 62), CLOCK_HOST_NS_MAX);
	f.b = NAN;
	CHECK_EQ(clock_dev_to_host_ns(&f, 5), 0);
	f = (struct clock_fit){ .dev0 = 0, .host0 = UINT64_MAX, .a = 0, .b = 1 };
	CHECK_EQ(clock_dev_to_host_ns(&f, 0), CLOCK_HOST_NS_MAX);
}

int main(void)
{
	test_exact();
	test_damaged_fit();
	test_jitter(0);
	test_jitter(20);
	test_degenerate();
	return CHECK_DONE();
}
