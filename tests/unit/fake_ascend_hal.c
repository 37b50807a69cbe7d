// SPDX-License-Identifier: MIT
/*
 * The stand-in libascend_hal.so of the device-log reader's unit tests
 * (tests/unit/fake_ascend_hal.h says how a test drives it).  Built as a
 * shared library of its own; implements the functions of
 * include/npuprof/drv/ascend_hal_abi.h the reader looks up, with the
 * behaviour each device was scripted with.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <npuprof/drv/ascend_hal_abi.h>

#include "fake_ascend_hal.h"

#define EXPORT __attribute__((visibility("default")))

struct dev {
	struct fakehal_dev s;
	int ctx; /* halDeviceOpen() succeeded */
	unsigned char *now, *later;
	size_t n_now, n_later;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct dev devs[FAKEHAL_DEVICES];
static struct fakehal_calls calls;
static unsigned int chunk;

EXPORT void fakehal_reset(void)
{
	pthread_mutex_lock(&lock);
	for (int i = 0; i < FAKEHAL_DEVICES; i++) {
		free(devs[i].now);
		free(devs[i].later);
	}
	memset(devs, 0, sizeof(devs));
	memset(&calls, 0, sizeof(calls));
	chunk = 0;
	pthread_mutex_unlock(&lock);
}

EXPORT void fakehal_script(int dev, const struct fakehal_dev *s)
{
	pthread_mutex_lock(&lock);
	devs[dev].s = *s;
	pthread_mutex_unlock(&lock);
}

static void append(unsigned char **buf, size_t *len, const void *bytes, size_t n)
{
	unsigned char *p = realloc(*buf, *len + n);

	if (!p)
		abort();
	memcpy(p + *len, bytes, n);
	*buf = p;
	*len += n;
}

EXPORT void fakehal_push(int dev, const void *bytes, size_t n, int on_flush)
{
	pthread_mutex_lock(&lock);
	if (on_flush)
		append(&devs[dev].later, &devs[dev].n_later, bytes, n);
	else
		append(&devs[dev].now, &devs[dev].n_now, bytes, n);
	pthread_mutex_unlock(&lock);
}

EXPORT void fakehal_calls(struct fakehal_calls *out)
{
	pthread_mutex_lock(&lock);
	*out = calls;
	pthread_mutex_unlock(&lock);
}

EXPORT void fakehal_read_chunk(unsigned int bytes)
{
	chunk = bytes;
}

static uint64_t raw_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

EXPORT uint64_t fakehal_count_now(void)
{
	return raw_ns() / 10 + FAKEHAL_COUNT_BASE;
}

static int bad_dev(uint32_t dev)
{
	return dev >= FAKEHAL_DEVICES;
}

EXPORT int halGetDeviceInfo(uint32_t dev, int32_t module, int32_t info, int64_t *value)
{
	if (bad_dev(dev) || module != ASCEND_MODULE_TYPE_SYSTEM)
		return ASCEND_DRV_ERROR_INVALID_DEVICE;
	switch (info) {
	case ASCEND_INFO_TYPE_SYS_COUNT:
		*value = (int64_t)fakehal_count_now();
		return 0;
	case ASCEND_INFO_TYPE_MONOTONIC_RAW:
		*value = (int64_t)raw_ns();
		return 0;
	case ASCEND_INFO_TYPE_DEV_OSC_FREQUE: {
		int no_freq;

		pthread_mutex_lock(&lock);
		no_freq = devs[dev].s.no_freq;
		pthread_mutex_unlock(&lock);
		if (no_freq)
			return ASCEND_DRV_ERROR_NOT_SUPPORT;
		*value = (int64_t)FAKEHAL_FREQ_HZ;
		return 0;
	}
	}
	return ASCEND_DRV_ERROR_NOT_SUPPORT;
}

EXPORT int prof_drv_get_channels(uint32_t dev, struct ascend_prof_channel_list *list)
{
	int rc;

	if (bad_dev(dev))
		return ASCEND_DRV_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&lock);
	rc = devs[dev].s.channels_rc;
	memset(list, 0, sizeof(*list));
	list->chip_type = 5;
	list->channel[list->channel_num++].channel_id = 44;
	if (!devs[dev].s.unlisted)
		list->channel[list->channel_num++].channel_id = ASCEND_PROF_CHANNEL_STARS_SOC_LOG;
	pthread_mutex_unlock(&lock);
	return rc;
}

EXPORT int prof_drv_start(uint32_t dev, uint32_t channel, struct ascend_prof_start_para *para)
{
	const struct ascend_stars_soc_log_config *cfg;
	int rc;

	if (bad_dev(dev) || channel != ASCEND_PROF_CHANNEL_STARS_SOC_LOG)
		return ASCEND_PROF_ERROR;
	pthread_mutex_lock(&lock);
	calls.starts[dev]++;
	calls.last_sample_period = para->sample_period;
	calls.last_real_time = para->real_time;
	calls.last_user_size = para->user_data_size;
	cfg = (const void *)(uintptr_t)para->user_data;
	if (cfg && para->user_data_size >= sizeof(*cfg)) {
		calls.last_acsq_task = cfg->acsq_task;
		calls.last_ffts_context_task = cfg->ffts_context_task;
		calls.last_tag = cfg->tag;
	}
	rc = devs[dev].ctx ? devs[dev].s.opened_start_rc : devs[dev].s.start_rc;
	if (!rc && calls.started[dev])
		rc = ASCEND_DRV_ERROR_STATUS_FAIL;
	if (!rc)
		calls.started[dev] = 1;
	pthread_mutex_unlock(&lock);
	return rc;
}

EXPORT int prof_channel_poll(struct ascend_prof_poll_info *out, int num, int timeout_s)
{
	struct timespec pause = { 0, 2000000 };
	int n = 0;

	(void)timeout_s; /* the tests want quick answers: 2 ms at most */
	for (int round = 0; round < 2 && !n; round++) {
		if (round)
			nanosleep(&pause, NULL);
		pthread_mutex_lock(&lock);
		for (uint32_t d = 0; d < FAKEHAL_DEVICES && n < num; d++) {
			if (calls.started[d] && devs[d].n_now)
				out[n++] = (struct ascend_prof_poll_info){ d,
									   ASCEND_PROF_CHANNEL_STARS_SOC_LOG };
		}
		pthread_mutex_unlock(&lock);
	}
	return n;
}

EXPORT int prof_channel_read(uint32_t dev, uint32_t channel, char *buf, uint32_t size)
{
	size_t n;

	if (bad_dev(dev) || channel != ASCEND_PROF_CHANNEL_STARS_SOC_LOG)
		return ASCEND_PROF_ERROR;
	pthread_mutex_lock(&lock);
	if (!calls.started[dev]) {
		pthread_mutex_unlock(&lock);
		return ASCEND_PROF_STOPPED;
	}
	n = devs[dev].n_now < size ? devs[dev].n_now : size;
	if (chunk && n > chunk)
		n = chunk;
	else if (!chunk)
		n -= n % ASCEND_STARS_LOG_BYTES;
	memcpy(buf, devs[dev].now, n);
	memmove(devs[dev].now, devs[dev].now + n, devs[dev].n_now - n);
	devs[dev].n_now -= n;
	pthread_mutex_unlock(&lock);
	return (int)n;
}

EXPORT int halProfDataFlush(uint32_t dev, uint32_t channel, uint32_t *len)
{
	if (bad_dev(dev) || channel != ASCEND_PROF_CHANNEL_STARS_SOC_LOG)
		return ASCEND_PROF_ERROR;
	pthread_mutex_lock(&lock);
	calls.flushes[dev]++;
	if (devs[dev].n_later) {
		append(&devs[dev].now, &devs[dev].n_now, devs[dev].later, devs[dev].n_later);
		devs[dev].n_later = 0;
	}
	*len = (uint32_t)devs[dev].n_now;
	pthread_mutex_unlock(&lock);
	return 0;
}

EXPORT int prof_stop(uint32_t dev, uint32_t channel)
{
	struct timespec wait;

	if (bad_dev(dev) || channel != ASCEND_PROF_CHANNEL_STARS_SOC_LOG)
		return ASCEND_PROF_ERROR;
	pthread_mutex_lock(&lock);
	wait = (struct timespec){ devs[dev].s.stop_ms / 1000,
				  (long)(devs[dev].s.stop_ms % 1000) * 1000000L };
	pthread_mutex_unlock(&lock);
	nanosleep(&wait, NULL); /* a slow stop, as the device's can be */
	pthread_mutex_lock(&lock);
	calls.stops[dev]++;
	calls.started[dev] = 0;
	pthread_mutex_unlock(&lock);
	return 0;
}

EXPORT int halDeviceOpen(uint32_t dev, struct ascend_hal_dev_open_in *in,
			 struct ascend_hal_dev_open_out *out)
{
	int rc;

	if (bad_dev(dev) || !in || !out)
		return ASCEND_DRV_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&lock);
	calls.opens[dev]++;
	rc = devs[dev].s.open_rc;
	devs[dev].ctx = !rc;
	pthread_mutex_unlock(&lock);
	return rc;
}

EXPORT int halDeviceClose(uint32_t dev, struct ascend_hal_dev_close_in *in)
{
	if (bad_dev(dev) || !in)
		return ASCEND_DRV_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&lock);
	calls.closes[dev]++;
	devs[dev].ctx = 0;
	pthread_mutex_unlock(&lock);
	return 0;
}
