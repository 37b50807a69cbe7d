/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces between the files of the simulated libascend_hal.so
 * (sim/hal/): hal_device.c (device contexts, halGetDeviceInfo,
 * halSqTaskSend) and hal_prof.c (the profiling channel API).  Only the
 * HAL_API functions are exported (-fvisibility=hidden).
 */
#ifndef SIM_HAL_INTERNAL_H
#define SIM_HAL_INTERNAL_H

#include <stdint.h>

#include <npusim_hal.h> /* also npusim_ioctl.h and ascend_hal_abi.h */

#define HAL_API __attribute__((visibility("default")))

/* Device ids the library serves: 0..HAL_MAX_DEVICES-1. */
#define HAL_MAX_DEVICES 64

/**
 * hal_open_device() - open /dev/davinci<dev> (O_RDWR, close-on-exec)
 * Return: the fd, or -1 with errno set (EINVAL for @dev out of range).
 */
int hal_open_device(uint32_t dev);

/** hal_errno_to_drv() - the drvError_t of an errno from the driver. */
int hal_errno_to_drv(int err);

#endif /* SIM_HAL_INTERNAL_H */
