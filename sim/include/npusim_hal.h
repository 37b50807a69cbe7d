/* SPDX-License-Identifier: MIT */
/*
 * Sim-private interface of the simulated libascend_hal.so (sim/hal/) to
 * the simulated runtime (sim/runtime/).  The real libascend_hal.so has no
 * such call: there the runtime and the HAL are one driver stack sharing
 * the device's state.  In the simulator the runtime opens /dev/davinci<N>
 * and creates its streams on that file; halSqTaskSend() must send the
 * SQEs on the same file (streams belong to the file that created them),
 * so the runtime lends the HAL its fd.
 *
 * The real interface the HAL implements is include/npuprof/drv/
 * ascend_hal_abi.h.
 */
#ifndef NPUSIM_HAL_H
#define NPUSIM_HAL_H

#include <stdint.h>

/* <linux/types.h> (npusim_ioctl.h) first: ascend_hal_abi.h then uses its types. */
#include <npusim_ioctl.h>
#include <ascend_hal_abi.h>

/*
 * The real functions the simulated library exports, as the simulated
 * runtime and the tests call them (types: ascend_hal_abi.h).  halDeviceOpen's
 * halDevOpenIn/halDevOpenOut and halDeviceClose's halDevCloseIn are
 * reserved structures it only passes through: void * here.
 */
int halSqTaskSend(uint32_t dev, struct ascend_hal_task_send_info *info);
int halGetDeviceInfo(uint32_t dev, int32_t module_type, int32_t info_type, int64_t *value);
int halDeviceOpen(uint32_t devid, void *in, void *out);
int halDeviceClose(uint32_t devid, void *in);
int prof_drv_get_channels(uint32_t dev, struct ascend_prof_channel_list *list);
int prof_drv_start(uint32_t dev, uint32_t channel, struct ascend_prof_start_para *para);
int prof_channel_poll(struct ascend_prof_poll_info *out, int num, int timeout_s);
int prof_channel_read(uint32_t dev, uint32_t channel, char *buf, uint32_t size);
int prof_stop(uint32_t dev, uint32_t channel);
int halProfDataFlush(uint32_t dev, uint32_t channel, uint32_t *len);

/**
 * halsimSetDeviceFd() - lend (or take back) the fd that owns a device's
 * streams, for halSqTaskSend()
 * @dev: device id, < 64
 * @fd:  the runtime's open /dev/davinci<dev>, or -1 before the runtime
 *       closes it; the HAL never closes it
 *
 * The runtime keeps the fd open while any halSqTaskSend() on it may run
 * (it holds its own lock across submits and this call).
 * Return: 0, or ASCEND_DRV_ERROR_INVALID_DEVICE for @dev out of range.
 */
int halsimSetDeviceFd(uint32_t dev, int fd);

/* Environment of the simulated HAL (sim-only knobs for tests). */
#define NPUSIM_HAL_BUF_ENV "NPUSIM_HAL_BUF_BYTES" /* channel buffer, bytes (4 MiB) */
#define NPUSIM_HAL_STATS_ENV "NPUSIM_HAL_STATS"   /* file prof_stop appends its counts to */

#endif /* NPUSIM_HAL_H */
