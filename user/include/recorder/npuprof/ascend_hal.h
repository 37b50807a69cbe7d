/* SPDX-License-Identifier: MIT */
/*
 * libascend_hal.so, loaded at run time: the functions of Huawei's
 * user-space driver library the device-log reader (npuprof/devlog.h) and
 * the Ascend backend's clock use, found with dlopen(3) and dlsym(3) and
 * never linked, so npuprof runs (without device timing) on a host that
 * lacks the library.  The binary interface is
 * include/npuprof/drv/ascend_hal_abi.h.
 *
 * The library is loaded once per process and kept: it starts threads of
 * its own (the profiling channels' receiver) and is not safe to unload.
 */
#ifndef NPUPROF_ASCEND_HAL_H
#define NPUPROF_ASCEND_HAL_H

#include <stddef.h>
#include <stdint.h>

#include <npuprof/drv/ascend_hal_abi.h>

/* Environment variable naming the library's path (tests, odd installs). */
#define NPUPROF_ASCEND_HAL_ENV "NPUPROF_ASCEND_HAL"

/**
 * struct npuprof_ascend_hal - the functions found
 * @path:         what was loaded: $NPUPROF_ASCEND_HAL, "libascend_hal.so"
 *                (the loader's search) or the driver package's default
 *                directory
 * @device_info:  halGetDeviceInfo
 * @get_channels: prof_drv_get_channels
 * @start:        prof_drv_start
 * @poll:         prof_channel_poll
 * @read:         prof_channel_read
 * @stop:         prof_stop
 * @flush:        halProfDataFlush; NULL in a library without it (the
 *                reader then reads what came, without asking for more)
 * @dev_open, @dev_close: halDeviceOpen / halDeviceClose; NULL when absent
 */
struct npuprof_ascend_hal {
	char path[4096];
	ascend_hal_get_device_info_fn device_info;
	ascend_prof_drv_get_channels_fn get_channels;
	ascend_prof_drv_start_fn start;
	ascend_prof_channel_poll_fn poll;
	ascend_prof_channel_read_fn read;
	ascend_prof_stop_fn stop;
	ascend_hal_prof_data_flush_fn flush;
	ascend_hal_device_open_fn dev_open;
	ascend_hal_device_close_fn dev_close;
};

/**
 * npuprof_ascend_hal_get() - the process's libascend_hal.so, loaded on
 * first use
 * @out:  the functions (valid for the life of the process)
 * @why:  on failure, for a person: what was tried and why it failed
 *        (dlerror(3)'s text, or the missing function); may be NULL
 * @size: bytes of @why
 *
 * Tries $NPUPROF_ASCEND_HAL when set (and only it), else the library the
 * job itself maps (npuprof_ascend_hal_hint()), else the dynamic loader's
 * search for "libascend_hal.so", else ASCEND_HAL_LIB_DEFAULT_DIR.
 * A failure is not remembered: the next call tries again.
 * Return: 0; -ENOENT when no library loads; -ENOEXEC when one loads but
 * lacks a function the reader needs (halGetDeviceInfo and the prof_*
 * functions).
 */
int npuprof_ascend_hal_get(const struct npuprof_ascend_hal **out, char *why, size_t size);

/**
 * npuprof_ascend_hal_hint() - where a job's own libascend_hal.so is, for
 * npuprof_ascend_hal_get() to try before the loader's search: the driver
 * the job talks to is the one to ask (an msprof started without the
 * driver's library path set still finds it).  The first hint given is
 * kept; one given after the library loaded changes nothing.
 * @path: a path this process can open, e.g. /proc/<pid>/root/<as mapped>
 */
void npuprof_ascend_hal_hint(const char *path);

/**
 * struct npuprof_ascend_clock - one host/device clock pair of a device
 * @host_ns: host CLOCK_MONOTONIC ns (npuprof's record clock)
 * @dev:     the device's system counter at that instant
 * @freq_hz: the counter's frequency, Hz (0 when the device did not say)
 */
struct npuprof_ascend_clock {
	uint64_t host_ns;
	uint64_t dev;
	uint64_t freq_hz;
};

/**
 * npuprof_ascend_hal_clock_pair() - read one clock pair of @device
 * @hal:    the library
 * @device: device id
 * @c:      out; @c->freq_hz is read too (DEV_OSC_FREQUE), 0 if refused
 *
 * halGetDeviceInfo(SYS_COUNT) gives the counter, bracketed by two
 * CLOCK_MONOTONIC reads whose midpoint is its host time; of a few tries the
 * quickest call is kept (error at most half its time).  The driver's
 * MONOTONIC_RAW answer comes from a sample of another call, so it is not
 * paired with the counter.
 * Return: 0; -EIO when the device refuses the counter (its code in
 * *@code, when @code is not NULL).
 */
int npuprof_ascend_hal_clock_pair(const struct npuprof_ascend_hal *hal, int device,
				  struct npuprof_ascend_clock *c, int *code);

/**
 * npuprof_ascend_hal_clock() - the Ascend backend's clock callback
 * (struct npu_backend.clock): one pair of @device, host CLOCK_MONOTONIC
 * ns in *@host_ns and the device counter in *@dev_ts.
 * Return: 0; -ENOENT/-ENOEXEC without a usable library; -EIO when the
 * device refuses.
 */
int npuprof_ascend_hal_clock(int device, uint64_t *host_ns, uint64_t *dev_ts);

/**
 * npuprof_ascend_hal_to_host() - host CLOCK_MONOTONIC ns of device count
 * @count, mapped with the pair @c (@c->freq_hz must not be 0); counts
 * before @c->dev map before @c->host_ns (0 at the least)
 */
uint64_t npuprof_ascend_hal_to_host(const struct npuprof_ascend_clock *c, uint64_t count);

#endif /* NPUPROF_ASCEND_HAL_H */
