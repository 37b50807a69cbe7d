// SPDX-License-Identifier: MIT
/*
 * The simulated libascend_hal.so, profiling channels: prof_drv_get_channels,
 * prof_drv_start, prof_channel_poll, prof_channel_read, prof_stop and
 * halProfDataFlush (prototypes: include/npuprof/drv/ascend_hal_abi.h).
 * One channel exists: 50, STARS_SOC_LOG, the device scheduler's log of
 * task begins and ends (64-byte struct ascend_stars_log records).
 *
 * As in the real library, the records come to the memory of the process
 * that started the channel: prof_drv_start opens a file of the device,
 * starts the channel on it (the driver's NPUSIM_IOC_PROF_START, the
 * stand-in for the host-device channel; the file owns the device's channel
 * until prof_stop or exit) and starts a thread that every sample_period ms
 * (20 when 0) moves what the device logged into a bounded buffer of this
 * process (4 MiB; NPUSIM_HAL_BUF_BYTES overrides).  Records that do not fit
 * are dropped whole and counted; prof_stop appends the count to the file
 * named by NPUSIM_HAL_STATS, when set, as one line
 *   "dev D channel C delivered N dropped M"
 * (sim-only, so tests can account for every record).  prof_channel_read
 * copies whole records out; once the channel stopped and its buffer is
 * empty it returns ASCEND_PROF_STOPPED.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "hal_internal.h"

#define HAL_BUF_DEFAULT (4u << 20)
#define HAL_PERIOD_DEFAULT_MS 20
/* Bytes one driver read moves at most (the driver's own cap). */
#define HAL_PULL_BYTES (256 * 1024)

/**
 * struct hal_chan - channel 50 of one device, in this process
 * @fd:        the file that owns the device's channel while it runs, else -1
 * @started:   prof_drv_start succeeded and prof_stop was not called yet
 * @stopping:  prof_stop asked the puller to end
 * @stopped:   prof_stop ended it; @buf stays readable
 * @eof_seen:  a read returned ASCEND_PROF_STOPPED (poll stops reporting it)
 * @period_ms: puller period
 * @thread:    the puller
 * @buf:       @cap bytes of ring, whole records
 * @head:      offset of the oldest byte
 * @len:       bytes held
 * @delivered: records put into @buf
 * @dropped:   records that did not fit
 */
struct hal_chan {
	int fd;
	int started;
	int stopping;
	int stopped;
	int eof_seen;
	unsigned int period_ms;
	pthread_t thread;
	char *buf;
	size_t cap;
	size_t head;
	size_t len;
	uint64_t delivered;
	uint64_t dropped;
};

/* hal_lock guards every channel; hal_data is signalled when data comes or a channel stops. */
static pthread_mutex_t hal_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hal_data = PTHREAD_COND_INITIALIZER;
/* hal_wake is signalled when a channel is asked to stop (its puller waits on it). */
static pthread_cond_t hal_wake = PTHREAD_COND_INITIALIZER;
static struct hal_chan hal_chans[HAL_MAX_DEVICES];

/* The channel of @dev/@channel, or NULL for an unknown one. */
static struct hal_chan *hal_chan_of(uint32_t dev, uint32_t channel)
{
	if (dev >= HAL_MAX_DEVICES || channel != ASCEND_PROF_CHANNEL_STARS_SOC_LOG)
		return NULL;
	return &hal_chans[dev];
}

/**
 * prof_drv_get_channels() - the profiling channels of a device
 * @dev:  device id
 * @list: out: chip_type 0 (the simulator's), one channel: 50
 *        "STARS_SOC_LOG", channel_type ASCEND_PROF_TS_TYPE
 * Return: 0; ASCEND_PROF_ERROR for NULL @list or no such device.
 */
HAL_API int prof_drv_get_channels(uint32_t dev, struct ascend_prof_channel_list *list)
{
	char path[32];

	if (!list || dev >= HAL_MAX_DEVICES)
		return ASCEND_PROF_ERROR;
	snprintf(path, sizeof(path), "/dev/davinci%u", dev);
	if (access(path, F_OK))
		return ASCEND_PROF_ERROR;
	memset(list, 0, sizeof(*list));
	list->channel_num = 1;
	snprintf(list->channel[0].channel_name, sizeof(list->channel[0].channel_name),
		 "STARS_SOC_LOG");
	list->channel[0].channel_type = ASCEND_PROF_TS_TYPE;
	list->channel[0].channel_id = ASCEND_PROF_CHANNEL_STARS_SOC_LOG;
	return ASCEND_PROF_OK;
}

/* Move what the device holds into @c's buffer; hal_lock held.  Return: records moved. */
static uint64_t hal_pull_locked(struct hal_chan *c, char *tmp)
{
	uint64_t moved = 0;

	for (;;) {
		struct npusim_prof_read_req req = {
			.channel = ASCEND_PROF_CHANNEL_STARS_SOC_LOG,
			.size = HAL_PULL_BYTES,
			.buf = (uintptr_t)tmp,
		};
		uint32_t off;

		if (ioctl(c->fd, NPUSIM_IOC_PROF_READ, &req) < 0 || !req.bytes)
			return moved;
		for (off = 0; off < req.bytes; off += ASCEND_STARS_LOG_BYTES) {
			size_t tail;

			if (c->cap - c->len < ASCEND_STARS_LOG_BYTES) {
				c->dropped++;
				continue;
			}
			tail = (c->head + c->len) % c->cap;
			memcpy(c->buf + tail, tmp + off, ASCEND_STARS_LOG_BYTES);
			c->len += ASCEND_STARS_LOG_BYTES;
			c->delivered++;
			moved++;
		}
		if (req.bytes < HAL_PULL_BYTES)
			return moved;
	}
}

/* The puller: every period, and once more when prof_stop wakes it. */
static void *hal_puller(void *arg)
{
	struct hal_chan *c = arg;
	char *tmp = malloc(HAL_PULL_BYTES);
	struct timespec next;
	int stop = 0;

	if (!tmp)
		return NULL; /* the channel then delivers nothing; prof_stop still works */
	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&hal_lock);
	while (!stop) {
		next.tv_sec += c->period_ms / 1000;
		next.tv_nsec += (long)(c->period_ms % 1000) * 1000000L;
		if (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (!c->stopping &&
		       pthread_cond_clockwait(&hal_wake, &hal_lock, CLOCK_MONOTONIC, &next) != ETIMEDOUT)
			;
		stop = c->stopping;
		if (hal_pull_locked(c, tmp))
			pthread_cond_broadcast(&hal_data);
	}
	pthread_mutex_unlock(&hal_lock);
	free(tmp);
	return NULL;
}

/* The channel buffer size: NPUSIM_HAL_BUF_BYTES, whole records, or 4 MiB. */
static size_t hal_buf_bytes(void)
{
	const char *env = getenv(NPUSIM_HAL_BUF_ENV);
	unsigned long long v;
	char *end;

	if (!env || !*env)
		return HAL_BUF_DEFAULT;
	errno = 0;
	v = strtoull(env, &end, 10);
	if (errno || *end || v < ASCEND_STARS_LOG_BYTES || v > (1ull << 32)) {
		fprintf(stderr, "[WARNING] libascend_hal: %s=%s: not 64..4294967296, using %u\n",
			NPUSIM_HAL_BUF_ENV, env, HAL_BUF_DEFAULT);
		return HAL_BUF_DEFAULT;
	}
	return v / ASCEND_STARS_LOG_BYTES * ASCEND_STARS_LOG_BYTES;
}

/**
 * prof_drv_start() - start a profiling channel of a device for this process
 * @dev:     device id
 * @channel: 50
 * @para:    channel_type, sample_period (ms; 0: 20), user_data: a
 *           StarsSocLogConfigT with acsq_task = 1, user_data_size <= 128
 *
 * Return: ASCEND_PROF_OK; ASCEND_DRV_ERROR_STATUS_FAIL when this process
 * runs the channel already; the device's refusals: ASCEND_PROF_CHANNEL_OCCUPIED
 * (another process), _CONTAINER_NOT_PHY / _PHY_NOT_CONTAINER (the owner is
 * across a pid-namespace boundary), ASCEND_PROF_NO_CP_PROCESS (this process
 * has no device context: set a device or halDeviceOpen() first);
 * ASCEND_DRV_ERROR_INVALID_VALUE for bad parameters; ASCEND_PROF_ERROR when
 * the device cannot be opened or memory is short.
 */
HAL_API int prof_drv_start(uint32_t dev, uint32_t channel, struct ascend_prof_start_para *para)
{
	struct hal_chan *c = hal_chan_of(dev, channel);
	struct npusim_prof_start_req req;
	int ret = ASCEND_PROF_OK;

	if (!c || !para || para->user_data_size > ASCEND_PROF_USER_DATA_MAX ||
	    (para->user_data_size && !para->user_data))
		return ASCEND_DRV_ERROR_INVALID_VALUE;
	memset(&req, 0, sizeof(req));
	req.channel = channel;
	req.channel_type = para->channel_type;
	req.user_data_size = para->user_data_size;
	if (para->user_data_size)
		memcpy(req.user_data, (const void *)(uintptr_t)para->user_data, para->user_data_size);

	pthread_mutex_lock(&hal_lock);
	if (c->started) {
		ret = ASCEND_DRV_ERROR_STATUS_FAIL;
		goto out_unlock;
	}
	free(c->buf); /* a stopped channel's rest, if any, is discarded */
	memset(c, 0, sizeof(*c));
	c->fd = hal_open_device(dev);
	if (c->fd < 0) {
		ret = ASCEND_PROF_ERROR;
		goto out_unlock;
	}
	if (ioctl(c->fd, NPUSIM_IOC_PROF_START, &req) < 0)
		req.status = ASCEND_PROF_ERROR;
	ret = req.status;
	if (ret == ASCEND_PROF_OK) {
		c->cap = hal_buf_bytes();
		c->buf = malloc(c->cap);
		c->period_ms = para->sample_period ? para->sample_period : HAL_PERIOD_DEFAULT_MS;
		if (!c->buf || pthread_create(&c->thread, NULL, hal_puller, c)) {
			ret = ASCEND_PROF_ERROR;
			free(c->buf);
			c->buf = NULL;
		}
	}
	if (ret != ASCEND_PROF_OK) {
		close(c->fd); /* also gives the device's channel back */
		c->fd = -1;
	} else {
		c->started = 1;
	}
out_unlock:
	pthread_mutex_unlock(&hal_lock);
	return ret;
}

/* A channel prof_channel_poll reports: data to read, or stopped (read says so). */
static int hal_chan_ready(const struct hal_chan *c)
{
	return c->len || (c->stopped && !c->eof_seen);
}

/**
 * prof_channel_poll() - wait for channels with data to read
 * @out:       out: up to @num (device, channel) pairs
 * @num:       room at @out
 * @timeout_s: seconds to wait; < 0 waits without end
 *
 * A stopped channel whose data was all read is reported too (its read
 * returns ASCEND_PROF_STOPPED).
 * Return: pairs written, 0 on timeout, ASCEND_PROF_ERROR for bad arguments.
 */
HAL_API int prof_channel_poll(struct ascend_prof_poll_info *out, int num, int timeout_s)
{
	struct timespec deadline;
	int n = 0, i, timed_out = 0;

	if (!out || num <= 0)
		return ASCEND_PROF_ERROR;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_s;
	pthread_mutex_lock(&hal_lock);
	for (;;) {
		for (i = 0; i < HAL_MAX_DEVICES && n < num; i++) {
			if (hal_chan_ready(&hal_chans[i])) {
				out[n].device_id = (uint32_t)i;
				out[n].channel_id = ASCEND_PROF_CHANNEL_STARS_SOC_LOG;
				n++;
			}
		}
		if (n || timed_out)
			break;
		if (timeout_s < 0)
			pthread_cond_wait(&hal_data, &hal_lock);
		else
			timed_out = pthread_cond_clockwait(&hal_data, &hal_lock, CLOCK_MONOTONIC,
							   &deadline) == ETIMEDOUT;
	}
	pthread_mutex_unlock(&hal_lock);
	return n;
}

/**
 * prof_channel_read() - copy whole records out of this process's buffer
 * @dev:     device id
 * @channel: 50
 * @buf:     destination
 * @size:    bytes at @buf; fewer than 64 copies nothing
 *
 * Return: bytes copied (a multiple of 64), 0 when none is waiting,
 * ASCEND_PROF_STOPPED once the channel stopped and all was read,
 * ASCEND_PROF_ERROR when the channel was never started or bad arguments.
 */
HAL_API int prof_channel_read(uint32_t dev, uint32_t channel, char *buf, uint32_t size)
{
	struct hal_chan *c = hal_chan_of(dev, channel);
	size_t n, first;
	int ret;

	if (!c || !buf)
		return ASCEND_PROF_ERROR;
	pthread_mutex_lock(&hal_lock);
	if (!c->started && !c->stopped) {
		ret = ASCEND_PROF_ERROR;
		goto out_unlock;
	}
	n = size / ASCEND_STARS_LOG_BYTES * ASCEND_STARS_LOG_BYTES;
	if (n > c->len)
		n = c->len;
	if (n > INT32_MAX / 2)
		n = INT32_MAX / 2 / ASCEND_STARS_LOG_BYTES * ASCEND_STARS_LOG_BYTES;
	if (!n) {
		ret = c->started || c->len ? 0 : ASCEND_PROF_STOPPED;
		c->eof_seen |= ret == ASCEND_PROF_STOPPED;
		goto out_unlock;
	}
	first = c->cap - c->head < n ? c->cap - c->head : n;
	memcpy(buf, c->buf + c->head, first);
	memcpy(buf + first, c->buf, n - first);
	c->head = (c->head + n) % c->cap;
	c->len -= n;
	ret = (int)n;
out_unlock:
	pthread_mutex_unlock(&hal_lock);
	return ret;
}

/* Append this channel's counts to NPUSIM_HAL_STATS, when set. */
static void hal_write_stats(uint32_t dev, uint32_t channel, const struct hal_chan *c)
{
	const char *path = getenv(NPUSIM_HAL_STATS_ENV);
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "ae");
	if (!f) {
		fprintf(stderr, "[WARNING] libascend_hal: %s=%s: %s\n", NPUSIM_HAL_STATS_ENV, path,
			strerror(errno));
		return;
	}
	fprintf(f, "dev %u channel %u delivered %llu dropped %llu\n", dev, channel,
		(unsigned long long)c->delivered, (unsigned long long)c->dropped);
	fclose(f);
}

/**
 * prof_stop() - stop a channel this process started
 * @dev:     device id
 * @channel: 50
 *
 * Pulls what the device still holds, stops the device's channel (this
 * takes the driver's prof_stop_ms) and gives it back; what is buffered
 * stays readable.
 * Return: ASCEND_PROF_OK; ASCEND_PROF_ERROR when the channel is not
 * running in this process.
 */
HAL_API int prof_stop(uint32_t dev, uint32_t channel)
{
	struct hal_chan *c = hal_chan_of(dev, channel);
	uint32_t ch = channel;
	pthread_t thread;

	if (!c)
		return ASCEND_PROF_ERROR;
	pthread_mutex_lock(&hal_lock);
	if (!c->started || c->stopping) {
		pthread_mutex_unlock(&hal_lock);
		return ASCEND_PROF_ERROR;
	}
	c->stopping = 1;
	pthread_cond_broadcast(&hal_wake);
	thread = c->thread;
	pthread_mutex_unlock(&hal_lock);
	/* Its last round pulls after the flag: nothing logged before is left. */
	pthread_join(thread, NULL);
	if (ioctl(c->fd, NPUSIM_IOC_PROF_STOP, &ch) < 0)
		fprintf(stderr, "[WARNING] libascend_hal: device %u channel %u stop: %s\n", dev,
			channel, strerror(errno));
	pthread_mutex_lock(&hal_lock);
	close(c->fd);
	c->fd = -1;
	c->started = 0;
	c->stopped = 1;
	hal_write_stats(dev, channel, c);
	pthread_cond_broadcast(&hal_data);
	pthread_mutex_unlock(&hal_lock);
	return ASCEND_PROF_OK;
}

/**
 * halProfDataFlush() - pull what the device holds now
 * @dev:     device id
 * @channel: 50
 * @len:     out: bytes now readable by prof_channel_read()
 * Return: ASCEND_DRV_OK; ASCEND_DRV_ERROR_INVALID_VALUE for a NULL @len or
 * a channel not started in this process; ASCEND_PROF_ERROR when out of memory.
 */
HAL_API int halProfDataFlush(uint32_t dev, uint32_t channel, uint32_t *len)
{
	struct hal_chan *c = hal_chan_of(dev, channel);
	char *tmp;

	if (!c || !len)
		return ASCEND_DRV_ERROR_INVALID_VALUE;
	tmp = malloc(HAL_PULL_BYTES);
	if (!tmp)
		return ASCEND_PROF_ERROR;
	pthread_mutex_lock(&hal_lock);
	if (!c->started && !c->stopped) {
		pthread_mutex_unlock(&hal_lock);
		free(tmp);
		return ASCEND_DRV_ERROR_INVALID_VALUE;
	}
	if (c->started && !c->stopping && hal_pull_locked(c, tmp))
		pthread_cond_broadcast(&hal_data);
	*len = c->len > UINT32_MAX ? UINT32_MAX : (uint32_t)c->len;
	pthread_mutex_unlock(&hal_lock);
	free(tmp);
	return ASCEND_DRV_OK;
}

/* Channels start unowned: fd -1 (static storage starts at 0). */
__attribute__((constructor)) static void hal_prof_init(void)
{
	int i;

	for (i = 0; i < HAL_MAX_DEVICES; i++)
		hal_chans[i].fd = -1;
}
