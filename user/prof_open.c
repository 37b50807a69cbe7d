// SPDX-License-Identifier: MIT
/*
 * Opening a file of a PROF tree for reading (npuprof/prof_fs.h): only a
 * regular file, never through a symlink at its name, never waiting on a
 * FIFO.  Kept apart from prof_fs.c so tests that stand in for its writers
 * link without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <npuprof/prof_fs.h>

int npuprof_prof_open_regular(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return errno == ENXIO ? -EINVAL : -errno; /* ENXIO: a socket */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}
