/* SPDX-License-Identifier: MIT */
/*
 * A stand-in libascend_hal.so for the device-log reader's unit tests
 * (tests/unit/fake_ascend_hal.c, built as build/tests/fixtures/
 * libascend_hal.so): the ABI of include/npuprof/drv/ascend_hal_abi.h
 * with scripted behaviour.  A test loads the same file the reader loads
 * (NPUPROF_ASCEND_HAL names it; dlopen(3) hands both the one copy), finds
 * the fakehal_* functions below with dlsym(3), scripts each device (is
 * channel 50 listed, what prof_drv_start answers, before and after
 * halDeviceOpen), queues records to deliver (at once, or only after
 * halProfDataFlush), and reads back what the reader called.
 *
 * The device counter is CLOCK_MONOTONIC_RAW ns / 10 + FAKEHAL_COUNT_BASE
 * at FAKEHAL_FREQ_HZ, so a test knows which host time a count stands for.
 */
#ifndef NPUPROF_TEST_FAKE_ASCEND_HAL_H
#define NPUPROF_TEST_FAKE_ASCEND_HAL_H

#include <dlfcn.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FAKEHAL_DEVICES 16
#define FAKEHAL_FREQ_HZ 100000000ull /* 100 MHz: one count per 10 ns */
#define FAKEHAL_COUNT_BASE 5000000ull

/**
 * struct fakehal_dev - one device's script
 * @unlisted:       prof_drv_get_channels() lists no channel 50
 * @channels_rc:    prof_drv_get_channels()'s code (0: lists)
 * @start_rc:       prof_drv_start()'s code while the device is not open
 * @open_rc:        halDeviceOpen()'s code
 * @opened_start_rc: prof_drv_start()'s code once halDeviceOpen() succeeded
 * @stop_ms:        prof_stop() takes this long
 * @no_freq:        halGetDeviceInfo() does not know DEV_OSC_FREQUE (an
 *                  older driver): ASCEND_DRV_ERROR_NOT_SUPPORT
 */
struct fakehal_dev {
	int unlisted;
	int channels_rc;
	int start_rc;
	int open_rc;
	int opened_start_rc;
	unsigned int stop_ms;
	int no_freq;
};

/**
 * struct fakehal_calls - what the reader called, per device
 * @started:  the channel runs now (started, not stopped)
 */
struct fakehal_calls {
	int starts[FAKEHAL_DEVICES], stops[FAKEHAL_DEVICES], flushes[FAKEHAL_DEVICES];
	int opens[FAKEHAL_DEVICES], closes[FAKEHAL_DEVICES];
	int started[FAKEHAL_DEVICES];
	uint32_t last_sample_period, last_real_time, last_user_size;
	uint32_t last_acsq_task, last_ffts_context_task, last_tag;
};

struct fakehal {
	void (*reset)(void);
	void (*script)(int dev, const struct fakehal_dev *s);
	/* queue @n bytes to deliver now (@on_flush 0) or after halProfDataFlush (1) */
	void (*push)(int dev, const void *bytes, size_t n, int on_flush);
	void (*calls)(struct fakehal_calls *out);
	uint64_t (*count_now)(void);
	/* bytes one prof_channel_read() gives at most (0: as asked) */
	void (*read_chunk)(unsigned int bytes);
};

/* Path of the built fake: beside the test binary, fixtures/libascend_hal.so. */
static inline int fakehal_path(char *out, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = 0;
	if (snprintf(out, size, "%s/fixtures/libascend_hal.so", self) >= (int)size)
		return -1;
	return access(out, R_OK);
}

/*
 * Load the fake, point NPUPROF_ASCEND_HAL at it and fill @f.
 * Return: 0, or -1 when it is not built (the test then skips).
 */
static inline int fakehal_load(struct fakehal *f)
{
	char path[PATH_MAX + 32];
	void *dl;

	if (fakehal_path(path, sizeof(path)))
		return -1;
	setenv("NPUPROF_ASCEND_HAL", path, 1);
	dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl)
		return -1;
	*(void **)&f->reset = dlsym(dl, "fakehal_reset");
	*(void **)&f->script = dlsym(dl, "fakehal_script");
	*(void **)&f->push = dlsym(dl, "fakehal_push");
	*(void **)&f->calls = dlsym(dl, "fakehal_calls");
	*(void **)&f->count_now = dlsym(dl, "fakehal_count_now");
	*(void **)&f->read_chunk = dlsym(dl, "fakehal_read_chunk");
	if (!f->reset || !f->script || !f->push || !f->calls || !f->count_now || !f->read_chunk)
		return -1;
	f->reset();
	return 0;
}

#endif /* NPUPROF_TEST_FAKE_ASCEND_HAL_H */
