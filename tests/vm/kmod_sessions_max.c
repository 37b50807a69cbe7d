// SPDX-License-Identifier: MIT
/*
 * Description: max_sessions bounds the sessions that exist at once, and
 * one open() more fails with EUSERS.  By default (max_sessions 64, shown
 * in sysfs) 64 opens succeed and the 65th fails with EUSERS; closing one
 * lets the next open succeed.  With max_sessions=2 the third open fails
 * with EUSERS.  max_sessions=0 is refused at load with EINVAL.
 */
#include "kmod_common.h"

#define PARAM "/sys/module/npuprof/parameters/max_sessions"

static int open_dev(void)
{
	int fd = open(KT_DEV, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* The parameter as sysfs shows it, or -1. */
static long read_param(void)
{
	char buf[32] = "";
	int fd = open(PARAM, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* @max opens succeed, one more fails with EUSERS; then all are closed. */
static void fill_up(unsigned int max)
{
	int fds[64];
	unsigned int i;

	for (i = 0; i < max; i++) {
		fds[i] = open_dev();
		CHECK(fds[i] >= 0);
	}
	CHECK_EQ(open_dev(), -EUSERS);
	/* A closed session frees its place. */
	close(fds[0]);
	fds[0] = open_dev();
	CHECK(fds[0] >= 0);
	CHECK_EQ(open_dev(), -EUSERS);
	for (i = 0; i < max; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

int main(void)
{
	kt_require();
	/* ring_pages=1: 64 sessions take 64 x CPUs x 3 pages. */
	kt_load_both("ring_pages=1");
	CHECK_EQ(read_param(), 64);
	fill_up(64);
	CHECK_EQ(kt_unload("npuprof"), 0);

	CHECK_EQ(kt_load(kt_npuprof_ko(), "ring_pages=1 max_sessions=2"), 0);
	CHECK_EQ(read_param(), 2);
	fill_up(2);
	CHECK_EQ(kt_unload("npuprof"), 0);

	CHECK_EQ(kt_load(kt_npuprof_ko(), "max_sessions=0"), -EINVAL);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	return CHECK_DONE();
}
