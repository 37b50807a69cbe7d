// SPDX-License-Identifier: MIT
/*
 * Description: host/device clock pairs through libascend_hal.so
 * (npuprof/ascend_hal.h), against the stand-in library whose counter is
 * CLOCK_MONOTONIC_RAW / 10 + a base at 100 MHz.  A pair's host time is
 * CLOCK_MONOTONIC (the RAW time the HAL gives, moved by the two clocks'
 * offset), so it lies between CLOCK_MONOTONIC read just before and just
 * after; its count is the counter of that instant within 1 us; the
 * frequency is 100 MHz.  The backend's clock callback gives the same kind
 * of pair.  Counts map to host ns exactly: 100 counts after the pair are
 * 1000 ns after, 100 before are 1000 ns before, and a count further back
 * than the host clock's zero maps to 0.  Without the library (a path that
 * does not load) the callback says -ENOENT and the loader names the path.
 */
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "fake_ascend_hal.h"
#include <npuprof/ascend_hal.h>
#include <npuprof/clock.h>

int main(void)
{
	const struct npuprof_ascend_hal *h;
	struct npuprof_ascend_clock c, far = { .host_ns = 500, .dev = 1000000, .freq_hz = 100000000 };
	struct fakehal hal;
	uint64_t before, after, host, dev, raw;
	char why[256];

	setenv("NPUPROF_ASCEND_HAL", "/nonexistent/libascend_hal.so", 1);
	CHECK_EQ(npuprof_ascend_hal_clock(0, &host, &dev), -ENOENT);
	CHECK_EQ(npuprof_ascend_hal_get(&h, why, sizeof(why)), -ENOENT);
	CHECK(!strncmp(why, "NPUPROF_ASCEND_HAL=/nonexistent/libascend_hal.so: ", 50));
	if (fakehal_load(&hal))
		CHECK_SKIP("build/tests/fixtures/libascend_hal.so not built");
	CHECK_EQ(npuprof_ascend_hal_get(&h, why, sizeof(why)), 0);
	CHECK(h->flush != NULL && h->dev_open != NULL && h->dev_close != NULL);

	before = npuprof_mono_ns();
	CHECK_EQ(npuprof_ascend_hal_clock_pair(h, 0, &c, NULL), 0);
	after = npuprof_mono_ns();
	raw = npuprof_clock_ns(CLOCK_MONOTONIC_RAW);
	CHECK(c.host_ns >= before && c.host_ns <= after);
	CHECK(c.dev <= raw / 10 + FAKEHAL_COUNT_BASE);
	CHECK(c.dev + 100 + (after - before) / 10 >= raw / 10 + FAKEHAL_COUNT_BASE);
	CHECK_EQ(c.freq_hz, FAKEHAL_FREQ_HZ);

	CHECK_EQ(npuprof_ascend_hal_to_host(&c, c.dev), c.host_ns);
	CHECK_EQ(npuprof_ascend_hal_to_host(&c, c.dev + 100), c.host_ns + 1000);
	CHECK_EQ(npuprof_ascend_hal_to_host(&c, c.dev - 100), c.host_ns - 1000);
	CHECK_EQ(npuprof_ascend_hal_to_host(&far, 0), 0);

	before = npuprof_mono_ns();
	CHECK_EQ(npuprof_ascend_hal_clock(3, &host, &dev), 0);
	after = npuprof_mono_ns();
	CHECK(host >= before && host <= after);
	CHECK(dev > FAKEHAL_COUNT_BASE);
	/* a device the library refuses */
	CHECK_EQ(npuprof_ascend_hal_clock(99, &host, &dev), -EIO);
	return CHECK_DONE();
}
