/* SPDX-License-Identifier: MIT */
/*
 * How user space recognises the driver behind a device node without
 * sending it an ioctl: the module of the driver bound to the node's parent
 * device, /sys/dev/char/MAJ:MIN/device/driver/module.  Shared by the VM
 * tests of the simulated drivers.
 */
#ifndef NPUPROF_TESTS_DRIVER_LINK_H
#define NPUPROF_TESTS_DRIVER_LINK_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/*
 * Last path component of the sysfs link /sys/dev/char/MAJ:MIN/@rel of
 * character device @node into @out (@len bytes).  Return: 0, or -errno
 * (-ENOTTY: @node is not a character device).
 */
static inline int drv_link_name(const char *node, const char *rel, char *out,
				size_t len)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct stat st;
	const char *base;
	ssize_t n;

	if (stat(node, &st) != 0)
		return -errno;
	if (!S_ISCHR(st.st_mode))
		return -ENOTTY;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/%s",
		 major(st.st_rdev), minor(st.st_rdev), rel);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	memcpy(out, base, strlen(base) + 1);
	return 0;
}

#endif /* NPUPROF_TESTS_DRIVER_LINK_H */
