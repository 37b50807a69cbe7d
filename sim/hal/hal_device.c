// SPDX-License-Identifier: MIT
/*
 * The simulated libascend_hal.so, device side: device contexts
 * (halDeviceOpen/halDeviceClose), halGetDeviceInfo (the device counter,
 * CLOCK_MONOTONIC_RAW at the same instant, the counter frequency) and
 * halSqTaskSend, the call the runtime sends every task with.  Prototypes
 * and constants: include/npuprof/drv/ascend_hal_abi.h.
 *
 * The simulated driver is /dev/davinci<N> (sim/include/npusim_ioctl.h).
 * halSqTaskSend sends on the fd the runtime lent with halsimSetDeviceFd()
 * (sim/include/npusim_hal.h), the file that owns the runtime's streams.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hal_internal.h"

static pthread_mutex_t hal_dev_lock = PTHREAD_MUTEX_INITIALIZER;
/* halDeviceOpen's files: the process's device context (hal_dev_lock). */
static int hal_ctx_fd[HAL_MAX_DEVICES] = { [0 ... HAL_MAX_DEVICES - 1] = -1 };
static unsigned int hal_ctx_refs[HAL_MAX_DEVICES];
/* The runtime's files (halsimSetDeviceFd), read without a lock. */
static int hal_rt_fd[HAL_MAX_DEVICES] = { [0 ... HAL_MAX_DEVICES - 1] = -1 };

int hal_open_device(uint32_t dev)
{
	char path[32];

	if (dev >= HAL_MAX_DEVICES) {
		errno = EINVAL;
		return -1;
	}
	snprintf(path, sizeof(path), "/dev/davinci%u", dev);
	return open(path, O_RDWR | O_CLOEXEC);
}

int hal_errno_to_drv(int err)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return ASCEND_DRV_ERROR_NO_DEVICE;
	case EINVAL:
	case EFAULT:
		return ASCEND_DRV_ERROR_INVALID_VALUE;
	case ENOTTY:
		return ASCEND_DRV_ERROR_NOT_SUPPORT;
	default:
		return ASCEND_DRV_ERROR_STATUS_FAIL;
	}
}

HAL_API int halsimSetDeviceFd(uint32_t dev, int fd)
{
	if (dev >= HAL_MAX_DEVICES)
		return ASCEND_DRV_ERROR_INVALID_DEVICE;
	__atomic_store_n(&hal_rt_fd[dev], fd, __ATOMIC_RELEASE);
	return ASCEND_DRV_OK;
}

/**
 * halDeviceOpen() - open a device context for the calling process
 * @devid: device id
 * @in:    halDevOpenIn *, reserved (the real structure is opaque to us;
 *         ignored)
 * @out:   halDevOpenOut *, reserved (ignored)
 *
 * Opens /dev/davinci<devid> and keeps it until the matching
 * halDeviceClose(); calls nest.  The real prototype is
 * drvError_t halDeviceOpen(uint32_t, halDevOpenIn *, halDevOpenOut *);
 * the two structures are only passed through, so void * is the same ABI.
 * Return: ASCEND_DRV_OK, ASCEND_DRV_ERROR_INVALID_DEVICE or _NO_DEVICE.
 */
HAL_API int halDeviceOpen(uint32_t devid, void *in, void *out)
{
	int ret = ASCEND_DRV_OK;

	(void)in;
	(void)out;
	if (devid >= HAL_MAX_DEVICES)
		return ASCEND_DRV_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&hal_dev_lock);
	if (hal_ctx_fd[devid] < 0) {
		hal_ctx_fd[devid] = hal_open_device(devid);
		if (hal_ctx_fd[devid] < 0)
			ret = errno == ENOENT ? ASCEND_DRV_ERROR_NO_DEVICE : hal_errno_to_drv(errno);
	}
	if (ret == ASCEND_DRV_OK)
		hal_ctx_refs[devid]++;
	pthread_mutex_unlock(&hal_dev_lock);
	return ret;
}

/**
 * halDeviceClose() - drop a context halDeviceOpen() gave; the last closes
 * the device file
 * @devid: device id
 * @in:    halDevCloseIn *, reserved (ignored)
 * Return: ASCEND_DRV_OK, or ASCEND_DRV_ERROR_INVALID_DEVICE when @devid has
 * no open context.
 */
HAL_API int halDeviceClose(uint32_t devid, void *in)
{
	int ret = ASCEND_DRV_OK;

	(void)in;
	if (devid >= HAL_MAX_DEVICES)
		return ASCEND_DRV_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&hal_dev_lock);
	if (!hal_ctx_refs[devid]) {
		ret = ASCEND_DRV_ERROR_INVALID_DEVICE;
	} else if (!--hal_ctx_refs[devid]) {
		close(hal_ctx_fd[devid]);
		hal_ctx_fd[devid] = -1;
	}
	pthread_mutex_unlock(&hal_dev_lock);
	return ret;
}

/**
 * halGetDeviceInfo() - one value about a device (ascend_hal_abi.h)
 * @dev:         device id
 * @module_type: ASCEND_MODULE_TYPE_SYSTEM
 * @info_type:   ASCEND_INFO_TYPE_SYS_COUNT (device counter now),
 *               _MONOTONIC_RAW (host CLOCK_MONOTONIC_RAW ns, read in the
 *               driver at the same instant as a counter read) or
 *               _DEV_OSC_FREQUE (counter frequency, Hz)
 * @value:       out
 *
 * Every call is one driver clock read (NPUSIM_IOC_CLOCK_RAW), so a
 * SYS_COUNT call and a MONOTONIC_RAW call right after it are a pair a few
 * microseconds apart, as on the real driver.
 * Return: ASCEND_DRV_OK; ASCEND_DRV_ERROR_NOT_SUPPORT for another module
 * or info type (or a driver without the clock, npustub);
 * ASCEND_DRV_ERROR_INVALID_VALUE for a NULL @value; _NO_DEVICE.
 */
HAL_API int halGetDeviceInfo(uint32_t dev, int32_t module_type, int32_t info_type,
			     int64_t *value)
{
	struct npusim_clock_raw_req clk;
	int fd, err = 0;

	if (!value)
		return ASCEND_DRV_ERROR_INVALID_VALUE;
	if (module_type != ASCEND_MODULE_TYPE_SYSTEM ||
	    (info_type != ASCEND_INFO_TYPE_SYS_COUNT && info_type != ASCEND_INFO_TYPE_MONOTONIC_RAW &&
	     info_type != ASCEND_INFO_TYPE_DEV_OSC_FREQUE))
		return ASCEND_DRV_ERROR_NOT_SUPPORT;
	if (dev >= HAL_MAX_DEVICES)
		return ASCEND_DRV_ERROR_INVALID_DEVICE;
	/* The clock is the device's, not a file's: any fd of the device serves. */
	fd = hal_open_device(dev);
	if (fd < 0)
		return errno == ENOENT ? ASCEND_DRV_ERROR_NO_DEVICE : hal_errno_to_drv(errno);
	if (ioctl(fd, NPUSIM_IOC_CLOCK_RAW, &clk) < 0)
		err = errno;
	close(fd);
	if (err)
		return hal_errno_to_drv(err);
	switch (info_type) {
	case ASCEND_INFO_TYPE_SYS_COUNT:
		*value = (int64_t)clk.dev_ts;
		break;
	case ASCEND_INFO_TYPE_MONOTONIC_RAW:
		*value = (int64_t)clk.raw_ns;
		break;
	default:
		*value = (int64_t)clk.freq_hz;
	}
	return ASCEND_DRV_OK;
}

/**
 * halSqTaskSend() - send SQEs to a stream's submission queue
 * @dev:  device id
 * @info: sq_id (= the stream id in the simulator), sqe_addr, sqe_num
 *        (1..NPUSIM_SQ_SEND_MAX) 64-byte SQEs laid out as struct
 *        npusim_sqe (the real 8-byte header, then the simulator's payload);
 *        @info->pos is set to 0 (the simulator has no SQ slots)
 *
 * Runs in the submitting thread, as the real one does.
 * Return: ASCEND_DRV_OK; ASCEND_DRV_ERROR_INVALID_VALUE for bad
 * arguments or SQEs, or an SQ the lent file does not own;
 * ASCEND_DRV_ERROR_INVALID_DEVICE when no runtime lent a file of @dev
 * (halsimSetDeviceFd); _STATUS_FAIL otherwise (a full queue, a signal).
 * On failure errno keeps the driver's error (the simulated runtime maps
 * it to its ACL code).
 */
HAL_API int halSqTaskSend(uint32_t dev, struct ascend_hal_task_send_info *info)
{
	struct npusim_sq_send_req req;
	int fd;

	if (!info || !info->sqe_addr || !info->sqe_num || info->sqe_num > NPUSIM_SQ_SEND_MAX)
		return ASCEND_DRV_ERROR_INVALID_VALUE;
	if (dev >= HAL_MAX_DEVICES)
		return ASCEND_DRV_ERROR_INVALID_DEVICE;
	fd = __atomic_load_n(&hal_rt_fd[dev], __ATOMIC_ACQUIRE);
	if (fd < 0)
		return ASCEND_DRV_ERROR_INVALID_DEVICE;
	req.stream = info->sq_id;
	req.sqe_num = info->sqe_num;
	req.sqe_addr = info->sqe_addr;
	if (ioctl(fd, NPUSIM_IOC_SQ_SEND, &req) < 0)
		return errno == ENOENT ? ASCEND_DRV_ERROR_INVALID_VALUE : hal_errno_to_drv(errno);
	info->pos = 0;
	return ASCEND_DRV_OK;
}
