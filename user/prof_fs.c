// SPDX-License-Identifier: MIT
/*
 * File system access to a PROF tree without following planted symlinks
 * (see npuprof/prof_fs.h for the threat and the rules).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <npuprof/prof_fs.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define PROBE_NAME ".npuprof_probe"

/* Keep @fd clear of 0..2, so it never stands for stdin (an unset fd). */
static int high_fd(int fd)
{
	int hi;

	if (fd < 0 || fd > STDERR_FILENO)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	close(fd);
	return hi < 0 ? -errno : hi;
}

/* Open the existing directory @name in @dirfd, not through a symlink. */
static int open_dir_at(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, DIR_FLAGS);

	return fd < 0 ? -errno : high_fd(fd);
}

/* Copy the next component of *@rel into @name; advance *@rel.  0 at the end. */
static int next_component(const char **rel, char *name, size_t size)
{
	const char *p = *rel, *end;

	while (*p == '/')
		p++;
	if (!*p)
		return 0;
	end = strchrnul(p, '/');
	if ((size_t)(end - p) >= size)
		return -ENAMETOOLONG;
	memcpy(name, p, (size_t)(end - p));
	name[end - p] = '\0';
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return -EINVAL; /* every path stays below its directory */
	*rel = end;
	return 1;
}

/*
 * Walk the directories of @rel below @dirfd (@create: make missing ones);
 * the last component is left in @last when @last is not NULL.  Return:
 * the fd of the directory holding @last (or of the last directory).
 */
static int walk(int dirfd, const char *rel, int create, char *last, size_t size)
{
	char name[NAME_MAX + 1];
	int fd = -1, at = dirfd, rc;

	if (*rel == '/')
		return -EINVAL; /* only paths below @dirfd */
	while ((rc = next_component(&rel, name, sizeof(name))) > 0) {
		if (last && !strchr(rel, '/') && !*rel) {
			snprintf(last, size, "%s", name);
			break;
		}
		if (create && mkdirat(at, name, NPUPROF_PROF_DIR_MODE) && errno != EEXIST) {
			rc = -errno;
			break;
		}
		rc = open_dir_at(at, name);
		if (at != dirfd)
			close(at);
		at = rc;
		if (rc < 0)
			break;
	}
	if (rc < 0) {
		if (at >= 0 && at != dirfd)
			close(at);
		return rc;
	}
	if (at == dirfd) {
		fd = fcntl(dirfd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		return fd < 0 ? -errno : fd;
	}
	return at;
}

int npuprof_prof_mkdirs(int dirfd, const char *rel)
{
	return walk(dirfd, rel, 1, NULL, 0);
}

int npuprof_prof_mkdir_new(int dirfd, const char *name)
{
	if (strchr(name, '/'))
		return -EINVAL;
	if (mkdirat(dirfd, name, NPUPROF_PROF_DIR_MODE))
		return -errno; /* EEXIST: someone else's, symlink or not */
	return open_dir_at(dirfd, name);
}

/* Create @rel below @dirfd, opened with @access (O_WRONLY or O_RDWR). */
static int create_at(int dirfd, const char *rel, int access)
{
	char name[NAME_MAX + 1] = "";
	int at, fd, e;

	at = walk(dirfd, rel, 0, name, sizeof(name));
	if (at < 0)
		return at;
	if (!name[0]) {
		close(at);
		return -EINVAL;
	}
	fd = openat(at, name, access | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    NPUPROF_PROF_FILE_MODE);
	e = errno;
	close(at);
	return fd < 0 ? -e : high_fd(fd);
}

int npuprof_prof_create(int dirfd, const char *rel)
{
	return create_at(dirfd, rel, O_WRONLY);
}

int npuprof_prof_create_rw(int dirfd, const char *rel)
{
	return create_at(dirfd, rel, O_RDWR);
}

/*
 * renameat2(RENAME_NOREPLACE), or where the file system does not take the
 * flag (9p, older NFS: EINVAL), a hard link and unlink, which never
 * replace either; last, a check and a plain rename.
 */
static int rename_noreplace(int at, const char *from, const char *to)
{
	struct stat st;

	if (!renameat2(at, from, at, to, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	if (!linkat(at, from, at, to, 0))
		return unlinkat(at, from, 0) ? -errno : 0;
	if (errno == EEXIST)
		return -EEXIST;
	if (!fstatat(at, to, &st, AT_SYMLINK_NOFOLLOW))
		return -EEXIST;
	return renameat(at, from, at, to) ? -errno : 0;
}

int npuprof_prof_rename_new(int dirfd, const char *from_rel, const char *to_rel)
{
	const char *a = strrchr(from_rel, '/'), *b = strrchr(to_rel, '/');
	size_t la = a ? (size_t)(a - from_rel) : 0, lb = b ? (size_t)(b - to_rel) : 0;
	char name[NAME_MAX + 1] = "";
	int at, err = 0;

	if (la != lb || strncmp(from_rel, to_rel, la))
		return -EXDEV;
	at = walk(dirfd, to_rel, 0, name, sizeof(name));
	if (at < 0)
		return at;
	if (!name[0])
		err = -EINVAL;
	else
		err = rename_noreplace(at, a ? a + 1 : from_rel, name);
	close(at);
	return err;
}

int npuprof_prof_unlink(int dirfd, const char *rel)
{
	char name[NAME_MAX + 1] = "";
	int at, err = 0;

	at = walk(dirfd, rel, 0, name, sizeof(name));
	if (at < 0)
		return at;
	if (!name[0])
		err = -EINVAL;
	else if (unlinkat(at, name, 0))
		err = -errno;
	close(at);
	return err;
}

/* Empty the open directory @fd (it is closed), not following symlinks. */
static int empty_dir(int fd)
{
	DIR *dir = fdopendir(fd);
	struct dirent *de;
	int err = 0, e;

	if (!dir) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(dir))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		e = npuprof_prof_remove(dirfd(dir), de->d_name);
		err = err ? err : e;
	}
	closedir(dir);
	return err;
}

int npuprof_prof_remove(int dirfd, const char *name)
{
	int fd, err;

	if (!unlinkat(dirfd, name, 0))
		return 0;
	if (errno != EISDIR && errno != EPERM)
		return errno == ENOENT ? 0 : -errno;
	fd = open_dir_at(dirfd, name);
	if (fd < 0)
		return fd;
	err = empty_dir(fd);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) && !err)
		err = -errno;
	return err;
}

/*
 * Create, write and remove a probe file in @dirfd: writing there works.
 * Its name is random, so nobody can make the probe fail by planting
 * something at a name they guessed; a name taken is drawn again.
 */
static int probe(int dirfd)
{
	char name[64];
	int fd = -EEXIST, err = 0;
	uint64_t r;

	for (int i = 0; i < 8 && fd == -EEXIST; i++) {
		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			return -errno;
		snprintf(name, sizeof(name), PROBE_NAME ".%d.%016llx", (int)getpid(),
			 (unsigned long long)r);
		fd = npuprof_prof_create(dirfd, name);
	}
	if (fd < 0)
		return fd;
	if (write(fd, "npuprof\n", 8) != 8 || fsync(fd))
		err = errno ? -errno : -EIO;
	close(fd);
	unlinkat(dirfd, name, 0);
	return err;
}

/* Drop trailing slashes of @path ("a/b//" -> "a/b"), keeping a lone "/". */
static void strip_slashes(char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
}

void npuprof_prof_output_unmake(const char *path, unsigned int made)
{
	char tmp[PATH_MAX], *slash;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return;
	while (made--) {
		strip_slashes(tmp);
		if (rmdir(tmp))
			return;
		slash = strrchr(tmp, '/');
		if (!slash || slash == tmp)
			return;
		*slash = '\0';
	}
}

/* mkdir -p @path; *@made: how many it created (the last ones). */
static int make_path(const char *path, unsigned int *made, char *failed, size_t size)
{
	char tmp[PATH_MAX];
	size_t i, len = strlen(path);

	*made = 0;
	if (len >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, len + 1);
	for (i = 1; i <= len; i++) {
		if (tmp[i] != '/' && tmp[i] != '\0')
			continue;
		if (path[i - 1] == '/')
			continue; /* an empty component: "a//b", "a/b/" */
		tmp[i] = '\0';
		if (!mkdir(tmp, NPUPROF_PROF_DIR_MODE)) {
			(*made)++;
		} else if (errno != EEXIST) {
			snprintf(failed, size, "%s", tmp);
			return -errno;
		} else if (*made) {
			*made = 0; /* someone else made it meanwhile: not ours */
		}
		tmp[i] = path[i];
	}
	return 0;
}

int npuprof_prof_output_open(const char *path, unsigned int *made, char *failed, size_t size)
{
	int fd, err;

	snprintf(failed, size, "%s", path);
	err = make_path(path, made, failed, size);
	if (err)
		goto out_unmake;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		goto out_unmake;
	}
	fd = high_fd(fd);
	if (fd < 0) {
		err = fd;
		goto out_unmake;
	}
	err = probe(fd);
	if (!err)
		return fd;
	close(fd);
out_unmake:
	npuprof_prof_output_unmake(path, *made);
	*made = 0;
	return err;
}
