// SPDX-License-Identifier: MIT
/*
 * Description: a driver whose halGetDeviceInfo() does not know the
 * counter frequency (DEV_OSC_FREQUE unsupported, as on older drivers)
 * still has its device log placed in time.  The reader measures the
 * frequency from two pairs (within 1% of the stand-in's 100 MHz), and a
 * begin record stamped with the counter of now, in a window opened just
 * before, is delivered with a host time within 5 ms of now, not counted
 * outside the window.
 */
#include <stdlib.h>

#include "check.h"
#include "fake_ascend_hal.h"
#include "stars_log.h"
#include <npuprof/clock.h>
#include <npuprof/devlog.h>

static int collect(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct npuprof_rec_task *out = ctx;

	memcpy(out, rec, sizeof(*out));
	return 0;
}

int main(void)
{
	static const int devs[] = { 0 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 1, .windowed = 1,
					 .proc_root = "/nonexistent" };
	struct fakehal_dev s = { .no_freq = 1 };
	struct npuprof_rec_task got = { 0 };
	const struct npuprof_devlog_dev *d;
	struct npuprof_drain_source src;
	struct npuprof_devlog *l;
	struct ascend_stars_log r;
	struct fakehal hal;
	uint64_t now, freq;
	unsigned int n;

	if (fakehal_load(&hal))
		CHECK_SKIP("build/tests/fixtures/libascend_hal.so not built");
	hal.script(0, &s);
	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	npuprof_devlog_window(l, npuprof_mono_ns(), UINT64_MAX);
	now = npuprof_mono_ns();
	r = stars_log(ASCEND_STARS_FUNC_BEGIN, 0, ASCEND_SQE_TYPE_AIC, 3, 7, hal.count_now());
	hal.push(0, &r, sizeof(r), 0);
	CHECK_EQ(npuprof_devlog_stop(l), 0);
	npuprof_devlog_source(l, &src);
	CHECK_EQ(src.consume(src.obj, collect, &got), 1);
	d = npuprof_devlog_devices(l, &n);
	CHECK_EQ(n, 1);
	freq = d[0].start_clock.freq_hz;
	CHECK(freq > FAKEHAL_FREQ_HZ / 100 * 99 && freq < FAKEHAL_FREQ_HZ / 100 * 101);
	CHECK_EQ(d[0].outside, 0);
	CHECK_EQ(d[0].begins, 1);
	CHECK(got.hdr.ts + 5000000 > now && got.hdr.ts < now + 5000000);
	npuprof_devlog_free(l);
	return CHECK_DONE();
}
