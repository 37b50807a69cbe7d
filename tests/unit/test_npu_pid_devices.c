// SPDX-License-Identifier: MIT
/*
 * Description: npu_pid_devices() finds the devices a process holds open
 * from its descriptors' links in procfs: exactly the "/dev/davinci<N>"
 * ones (N in 0..63, one spelling), and a character device of that name
 * elsewhere (a container's /dev), nothing else that looks alike.  A fake
 * procfs tree of symlinks stands for /proc/<pid>/fd.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"
#include <npuprof/npu_backend.h>

static char root[] = "/tmp/npu_pid_devices.XXXXXX";

static void fd_link(const char *target, int fd)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/42/fd/%d", root, fd);
	CHECK_EQ(symlink(target, path), 0);
}

int main(void)
{
	const char *other[] = { "/dev/davinci", "/dev/davinci01", "/dev/davinci64",
				"/dev/davinci_manager", "/tmp/dev/davinci4", "socket:[1234]",
				"/dev/davinci3 (deleted)", "/dev/shm/davinci7", "/xyz/davinci8" };
	char path[512];
	uint64_t mask = 1;

	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	snprintf(path, sizeof(path), "%s/42", root);
	CHECK_EQ(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/42/fd", root);
	CHECK_EQ(mkdir(path, 0700), 0);

	CHECK_EQ(npu_pid_devices(42, root, &mask), 0);
	CHECK_EQ(mask, 0);
	fd_link("/dev/davinci0", 3);
	fd_link("/dev/davinci2", 4);
	fd_link("/dev/davinci2", 5);
	fd_link("/dev/davinci63", 6);
	for (unsigned int i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		fd_link(other[i], 10 + (int)i);
	CHECK_EQ(npu_pid_devices(42, root, &mask), 0);
	CHECK_EQ(mask, (1ULL << 0) | (1ULL << 2) | (1ULL << 63));

	/*
	 * A process in a container: the link names the node in its own mount
	 * namespace (the path readlink showed for a chroot on a private
	 * tmpfs, "/tmp/ctrx/dev/null"); it counts when it is a character
	 * device (/dev/null stands for the node), not as any other file.
	 */
	snprintf(path, sizeof(path), "%s/ctr", root);
	CHECK_EQ(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/ctr/davinci5", root);
	CHECK_EQ(symlink("/dev/null", path), 0);
	fd_link(path, 20);
	snprintf(path, sizeof(path), "%s/ctr/davinci6", root);
	close(creat(path, 0600));
	fd_link(path, 21);
	CHECK_EQ(npu_pid_devices(42, root, &mask), 0);
	CHECK_EQ(mask, (1ULL << 0) | (1ULL << 2) | (1ULL << 5) | (1ULL << 63));
	CHECK_EQ(npu_pid_devices(43, root, &mask), -ENOENT);
	CHECK_EQ(mask, 0);
	tmpdir_remove(root);
	return CHECK_DONE();
}
