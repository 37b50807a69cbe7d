// SPDX-License-Identifier: MIT
/*
 * Driver backends (npuprof/npu_backend.h): the table of drivers npuprof
 * knows, and recognising which one owns this host's NPU device nodes.
 *
 * Recognition reads only the file system: the davinci<N> names in /dev,
 * the node's device number, and the module sysfs links that device to
 * (/sys/dev/char/<major>:<minor>/device/driver/module, the standard chain
 * from a character device to the driver bound to its parent device).  No
 * node is opened and no ioctl is sent, so a driver npuprof does not know
 * never receives a request it was not written for.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <npuprof/npu_backend.h>

/*
 * NPU_BACKENDS: X(<name>) for every user/drv_<name>.c, from the Makefile,
 * so a new backend is one new file; each defines npu_backend_<name>.
 */
#ifndef NPU_BACKENDS
#error "NPU_BACKENDS must list the driver backends (see the Makefile)"
#endif
#define X(b) extern const struct npu_backend npu_backend_##b;
NPU_BACKENDS
#undef X

static const struct npu_backend *const backends[] = {
#define X(b) &npu_backend_##b,
	NPU_BACKENDS
#undef X
};

#define NR_BACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct npu_backend *const *npu_backend_list(unsigned int *n)
{
	*n = NR_BACKENDS;
	return backends;
}

const struct npu_backend *npu_backend_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_BACKENDS; i++)
		if (!strcmp(backends[i]->name, name) || !strcmp(backends[i]->module, name))
			return backends[i];
	return NULL;
}

/* N of "davinci<N>" (decimal, no sign, no leading zero but "0"), or -1. */
static int davinci_id(const char *name)
{
	const char *p = name + 7;
	long v = 0;

	if (strncmp(name, "davinci", 7) || !*p || (*p == '0' && p[1]))
		return -1;
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -1;
		v = v * 10 + (*p - '0');
		if (v >= NPU_BACKEND_MAX_DEVICES)
			return -1;
	}
	return (int)v;
}

int npu_pid_devices(int pid, const char *proc_dir, uint64_t *mask)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	struct dirent *de;
	struct stat st;
	ssize_t n;
	DIR *d;
	int id, fd;

	*mask = 0;
	snprintf(path, sizeof(path), "%s/%d/fd", proc_dir ? proc_dir : "/proc", pid);
	d = opendir(path);
	if (!d)
		return -errno;
	fd = dirfd(d);
	while ((de = readdir(d))) {
		n = readlinkat(fd, de->d_name, link, sizeof(link) - 1);
		if (n <= 0)
			continue; /* ".", "..", or closed meanwhile */
		link[n] = '\0';
		base = strrchr(link, '/');
		id = base && link[0] == '/' ? davinci_id(base + 1) : -1;
		if (id < 0)
			continue;
		/*
		 * A process in another mount namespace (a container) shows
		 * the path in its own tree ("/var/lib/.../dev/davinci1"):
		 * anything but /dev/davinci<N> itself must be a character
		 * device (not /dev/shm/davinci7, a shm_open() file).
		 */
		if ((strncmp(link, "/dev/", 5) || base != link + 4) &&
		    (fstatat(fd, de->d_name, &st, 0) || !S_ISCHR(st.st_mode)))
			continue;
		*mask |= 1ULL << id;
	}
	closedir(d);
	return 0;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Module of the driver bound to the device of character node @st, or "". */
static void node_owner(const char *sys_dir, const struct stat *st, char *buf, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t n;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/dev/char/%u:%u/device/driver/module", sys_dir,
		 major(st->st_rdev), minor(st->st_rdev));
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) < size) /* a longer name is no module name */
		memcpy(buf, base, strlen(base) + 1);
}

/* One davinci<N> node found: its id and the module sysfs says owns it. */
struct npu_node {
	int id;
	char owner[sizeof(((struct npu_host *)0)->owner)];
};

static int cmp_node(const void *a, const void *b)
{
	return cmp_int(&((const struct npu_node *)a)->id, &((const struct npu_node *)b)->id);
}

/*
 * The owner the host's devices are taken from, among @nodes (ascending
 * ids): the owner of the lowest-numbered node whose owner has a backend,
 * else of the lowest-numbered node sysfs names any owner for, else "".
 */
static const char *pick_owner(const struct npu_node *nodes, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (nodes[i].owner[0] && npu_backend_find(nodes[i].owner))
			return nodes[i].owner;
	for (i = 0; i < n; i++)
		if (nodes[i].owner[0])
			return nodes[i].owner;
	return "";
}

int npu_host_detect(struct npu_host *host, const char *dev_dir, const char *sys_dir)
{
	struct npu_node nodes[NPU_BACKEND_MAX_DEVICES];
	unsigned int n = 0, i;
	char path[PATH_MAX];
	const char *owner;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int id;

	memset(host, 0, sizeof(*host));
	dev_dir = dev_dir ? dev_dir : "/dev";
	sys_dir = sys_dir ? sys_dir : "/sys";
	d = opendir(dev_dir);
	if (!d)
		return -errno;
	/* ids are 0..63 and unique in one directory: n stays in bounds */
	while ((de = readdir(d)) && n < NPU_BACKEND_MAX_DEVICES) {
		id = davinci_id(de->d_name);
		if (id < 0)
			continue;
		/* A driver makes nodes, not symlinks: a link is not its device. */
		snprintf(path, sizeof(path), "%s/%s", dev_dir, de->d_name);
		if (lstat(path, &st) || !S_ISCHR(st.st_mode))
			continue;
		nodes[n].id = id;
		node_owner(sys_dir, &st, nodes[n].owner, sizeof(nodes[n].owner));
		n++;
	}
	closedir(d);
	qsort(nodes, n, sizeof(nodes[0]), cmp_node);
	/*
	 * Nodes of one driver only: a davinci<N> name another driver (or none,
	 * when others have one) owns is not an NPU, and must not get the
	 * chosen driver's private requests (its clock ioctl).
	 */
	owner = pick_owner(nodes, n);
	snprintf(host->owner, sizeof(host->owner), "%s", owner);
	for (i = 0; i < n; i++)
		if (!strcmp(nodes[i].owner, host->owner))
			host->devices[host->nr_devices++] = nodes[i].id;
	if (host->nr_devices && host->owner[0])
		host->backend = npu_backend_find(host->owner);
	return 0;
}
