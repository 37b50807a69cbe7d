// SPDX-License-Identifier: MIT
/*
 * Device clock sampling (npuprof/devclock.h) through the NPU driver.  The
 * only backend is the simulated driver's NPUSIM_IOC_CLOCK, which reads
 * both clocks inside one ioctl, so a pair is exact to well under 1 us.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <npusim_ioctl.h>
#include <npuprof/devclock.h>

static int npusim_sample(int device, uint64_t *host_ns, uint64_t *dev_ts)
{
	struct npusim_clock_req req = { 0 };
	char path[64];
	int fd, err = 0;

	snprintf(path, sizeof(path), "/dev/davinci%d", device);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ENODEV : -errno;
	if (ioctl(fd, NPUSIM_IOC_CLOCK, &req))
		err = errno == ENOTTY ? -ENODEV : -errno;
	close(fd);
	if (err)
		return err;
	*host_ns = req.host_ns;
	*dev_ts = req.dev_ts;
	return 0;
}

int npuprof_devclock_sample(int device, uint64_t *host_ns, uint64_t *dev_ts)
{
	if (device < 0)
		return -ENODEV;
	return npusim_sample(device, host_ns, dev_ts);
}
