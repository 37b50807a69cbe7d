// SPDX-License-Identifier: MIT
/*
 * Backend of the simulated NPU driver npusim.ko (sim/driver).  The only
 * product file that includes the simulator's ioctl header: its clock
 * request reads the host clock and the device counter inside one ioctl,
 * so a pair is exact to well under 1 us.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <npusim_ioctl.h>
#include <npuprof/drv/npusim_tp.h>
#include <npuprof/npu_backend.h>

static int npusim_clock(int device, uint64_t *host_ns, uint64_t *dev_ts)
{
	struct npusim_clock_req req = { 0 };
	char path[64];
	int fd, err = 0;

	if (device < 0)
		return -ENODEV;
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

const struct npu_backend npu_backend_npusim = {
	.name = NPUSIM_DRV_NAME,
	.module = NPUSIM_DRV_MODULE,
	.tp_names = { NPUSIM_TP_TASK_SUBMIT, NPUSIM_TP_TASK_START, NPUSIM_TP_TASK_END,
		      NPUSIM_TP_STREAM_SYNC },
	.layout = NPUSIM_TP_LAYOUT,
	.clock = npusim_clock,
};
