/* SPDX-License-Identifier: MIT */
/*
 * Device clock sampling: one host CLOCK_MONOTONIC ns reading paired with
 * the device's clock count at the same instant, read from the NPU driver.
 * CANN keeps such pairs in host_start.log / dev_start.log.<dev>; npuprof
 * keeps them in info.json "clockSamples", taken at start and at stop, and
 * the export maps device counts onto the host clock with them (offset and
 * drift).  Record timestamps alone cannot do this exactly: a device reports
 * when a task really started, while the host sees the interrupt later.
 *
 * Backends: the simulated driver (npusim, NPUSIM_IOC_CLOCK on
 * /dev/davinci<N>).  A real host's driver needs its own backend here.
 */
#ifndef NPUPROF_DEVCLOCK_H
#define NPUPROF_DEVCLOCK_H

#include <stdint.h>

/**
 * npuprof_devclock_sample() - read one host/device clock pair of @device
 * @device:  device id (N of /dev/davinciN)
 * @host_ns: out: host CLOCK_MONOTONIC ns
 * @dev_ts:  out: device clock count at the same instant
 *
 * Return: 0; -ENODEV when no driver backend knows the device; -errno of
 * the driver call otherwise.
 */
int npuprof_devclock_sample(int device, uint64_t *host_ns, uint64_t *dev_ts);

#endif /* NPUPROF_DEVCLOCK_H */
