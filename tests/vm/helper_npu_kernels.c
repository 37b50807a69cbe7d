// SPDX-License-Identifier: MIT
/*
 * Not a test: the program the follow tests (tests/vm/kmod_follow_*.c)
 * exec in a forked child, so that a rank's fork+exec is what they check.
 * Right after starting it opens /dev/davinci0, submits COUNT kernels named
 * NAME of 20 us each on a stream of its own and synchronises the stream:
 * 3 x COUNT task events and 1 STREAM_SYNC, under its own pid.  It talks
 * to npusim.ko directly, as a rank's runtime would.
 *
 *   helper_npu_kernels COUNT NAME
 *
 * Exit 0 when every ioctl succeeded, 2 on bad arguments, 3 otherwise.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <npusim_ioctl.h>

static int submit(int dev, unsigned long count, const char *name)
{
	struct npusim_stream_req sreq = { 0, 0 };
	struct npusim_task_req req;
	unsigned long i;

	if (ioctl(dev, NPUSIM_IOC_STREAM_CREATE, &sreq) != 0)
		return -1;
	for (i = 0; i < count; i++) {
		memset(&req, 0, sizeof(req));
		req.stream = sreq.stream;
		req.type = NPUSIM_TASK_KERNEL;
		req.duration_ns = 20000;
		snprintf(req.name, sizeof(req.name), "%s", name);
		if (ioctl(dev, NPUSIM_IOC_SUBMIT, &req) != 0)
			return -1;
	}
	return ioctl(dev, NPUSIM_IOC_STREAM_SYNC, &sreq.stream);
}

int main(int argc, char **argv)
{
	unsigned long count;
	char *end;
	int dev, ret;

	if (argc != 3)
		return 2;
	count = strtoul(argv[1], &end, 10);
	if (*end || !count || count > 10000)
		return 2;
	dev = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return 3;
	ret = submit(dev, count, argv[2]);
	close(dev);
	return ret ? 3 : 0;
}
