// SPDX-License-Identifier: MIT
/*
 * Finding the socket of an app's dynamic-profiling server (see
 * server_find.h): which home it was made in, what its name's pid is,
 * how msprof reaches it when the app runs in a container (another mount
 * or pid namespace), and whether an app msprof launches can bind one at
 * all (and the words for why not).  Looking only: nothing here connects,
 * so the options check (options.c) and the dynamic-profiling client both
 * ask it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <dynprof_wire.h>
#include <npuprof/proc_id.h>

#include "server_find.h"

/* The longest path a Unix socket can be bound at: sun_path, less its NUL. */
#define SOCKET_PATH_LIMIT (sizeof(((struct sockaddr_un *)0)->sun_path) - 1)

static int is_socket(const char *path)
{
	struct stat st;

	return !lstat(path, &st) && S_ISSOCK(st.st_mode);
}

int msprof_socket_find(uid_t uid, long key, char *buf, size_t size)
{
	const char *env_home = getenv("HOME"), *homes[2] = { NULL, NULL };
	struct passwd *pw = getpwuid(uid);
	const char *pw_home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	char path[PATH_MAX], first[PATH_MAX] = "";
	int i, rc = -ENOENT;

	if (!env_home || env_home[0] != '/')
		env_home = NULL;
	/* Our own user's server looks at $HOME first (as we would); another
	 * user's server lives in that user's home. */
	homes[0] = uid == getuid() && env_home ? env_home : pw_home;
	homes[1] = homes[0] == env_home ? pw_home : env_home;
	if (!homes[0])
		homes[0] = "/";
	if (homes[1] && !strcmp(homes[0], homes[1]))
		homes[1] = NULL;
	for (i = 0; i < 2 && homes[i]; i++) {
		if (!dynprof_socket_path(path, sizeof(path), homes[i], key) && is_socket(path)) {
			snprintf(buf, size, "%s", path);
			return 0;
		}
		if (i)
			continue;
		/* the first names the failure; too long there: no server can bind it */
		snprintf(first, sizeof(first), "%s/%s%ld", homes[0], DYNPROF_SOCKET_PREFIX, key);
		if (strlen(first) > SOCKET_PATH_LIMIT)
			rc = -ENAMETOOLONG;
	}
	snprintf(buf, size, "%s", first);
	return rc;
}

/*
 * Bind a Unix socket at @path and remove it again: what the app's server
 * will do there.  A directory that is missing, not writable, or does not
 * take sockets (/proc, some FUSE and network file systems, a security
 * module's refusal) fails here as it would fail the app.  0 or -errno.
 */
static int try_bind(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), rc = 0;

	if (fd < 0)
		return -errno;
	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path); /* fits: checked */
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)))
		rc = -errno;
	else
		unlink(path);
	close(fd);
	return rc;
}

int msprof_launch_socket(char *buf, size_t size)
{
	int rc = msprof_socket_find(getuid(), getpid(), buf, size);

	if (rc != -ENOENT)
		return rc == -ENAMETOOLONG ? rc : 0;
	return try_bind(buf);
}

const char *msprof_socket_unbindable(int rc, const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	if (rc == -ENAMETOOLONG)
		snprintf(buf, size, "the socket path %s is too long for a Unix socket: %zu bytes, the limit is %zu",
			 path, strlen(path), SOCKET_PATH_LIMIT);
	else
		snprintf(buf, size, "the socket %s cannot be created in %.*s: %s", path,
			 slash && slash > path ? (int)(slash - path) : 1, path, strerror(-rc));
	return buf;
}

/* Whether @pid's mount namespace is another than ours (unknown: no). */
static int other_mount_ns(pid_t pid)
{
	char path[64];
	struct stat ours, theirs;

	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", (int)pid);
	if (stat("/proc/self/ns/mnt", &ours) || stat(path, &theirs))
		return 0;
	return ours.st_ino != theirs.st_ino || ours.st_dev != theirs.st_dev;
}

/*
 * HOME of @pid's environment (as it was exec'd) into @buf, when it is an
 * absolute path (the server binds a relative one against its cwd, which
 * this look-up does not follow); 0 or -errno.
 */
static int environ_home(pid_t pid, char *buf, size_t size)
{
	int rc = npuprof_proc_getenv(pid, "HOME", buf, size);

	if (rc)
		return rc == -ENODATA ? -ENOENT : rc;
	return buf[0] == '/' ? 0 : -ENOENT;
}

/* The home of @uid in the passwd file of the tree at @root (/proc/P/root). */
static int passwd_home(const char *root, uid_t uid, char *buf, size_t size)
{
	char path[128];
	struct passwd *pw;
	int rc = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/etc/passwd", root);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while ((pw = fgetpwent(f))) {
		if (pw->pw_uid == uid && pw->pw_dir && pw->pw_dir[0] == '/' &&
		    (size_t)snprintf(buf, size, "%s", pw->pw_dir) < size) {
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

int msprof_socket_find_pid(pid_t pid, uid_t uid, char *buf, size_t size)
{
	char root[64] = "", home[PATH_MAX], inner[PATH_MAX];
	struct npuprof_proc_id id;
	long key = pid;
	int rc, have_home;

	if (!npuprof_proc_id_read(pid, NULL, &id) && id.nr_nspid)
		key = id.nspid[id.nr_nspid - 1];
	if (other_mount_ns(pid))
		snprintf(root, sizeof(root), "/proc/%d/root", (int)pid);
	/*
	 * The HOME it was started with is where its server binds, whoever
	 * runs it (a job's HOME=/srv/job, not its user's passwd home).
	 */
	have_home = !environ_home(pid, home, sizeof(home));
	/* no HOME: its server takes the passwd entry's, in its own tree */
	if (!have_home && root[0])
		have_home = !passwd_home(root, uid, home, sizeof(home));
	if (have_home) {
		/* the path the app binds is within sun_path; ours may be longer */
		rc = dynprof_socket_path(inner, sizeof(inner), home, key);
		if (rc) /* its server cannot bind it: named as it would have */
			snprintf(buf, size, "%s/%s%ld", home, DYNPROF_SOCKET_PREFIX, key);
		else if ((size_t)snprintf(buf, size, "%s%s", root, inner) >= size)
			rc = -ENAMETOOLONG;
		if (rc || is_socket(buf))
			return rc;
		if (root[0]) /* our homes mean nothing in its tree: the one it has */
			return -ENOENT;
	}
	if (!root[0]) { /* our tree: the usual homes too */
		rc = msprof_socket_find(uid, key, inner, sizeof(inner));
		if (rc && have_home) /* named already: the HOME it has */
			return -ENOENT;
		snprintf(buf, size, "%s", inner);
		return rc;
	}
	/* its environment unreadable: our own homes' names, in its tree */
	rc = msprof_socket_find(uid, key, inner, sizeof(inner)); /* names the candidate */
	if (rc == -ENAMETOOLONG) {
		snprintf(buf, size, "%s", inner);
		return rc;
	}
	if ((size_t)snprintf(buf, size, "%s%s", root, inner) >= size)
		return -ENAMETOOLONG;
	return is_socket(buf) ? 0 : -ENOENT;
}
