// SPDX-License-Identifier: MIT
/*
 * The export's database file as an fd (export_db_fd.h).
 *
 * SQLite opens its files by path, and its default VFS resolves symlinks
 * on the way.  The export runs as root over PROF dirs that users own, and
 * every other output is created relative to the dir's fd and never
 * through a symlink (npuprof/prof_fs.h).  So the database gets a VFS of
 * its own, "npuprof-fd": the main database's "name" is the number of an
 * fd the export made, and its file methods are pread/pwrite on that fd.
 * Anything else SQLite opens (sorting temporaries, which have no name)
 * goes to the default VFS; a named file other than the database (a
 * journal, which journal_mode OFF never asks for) is refused.
 *
 * No locking: the file was created new (O_EXCL) and nobody else knows it
 * until it is renamed into place, complete.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <npuprof/msg.h>

#include "export_db_fd.h"

#define FD_VFS_NAME "npuprof-fd"
#define FD_NAME_PREFIX "npuprof-fd:"

/* The database's file: its fd and the errno of its last failed read or write. */
struct fd_file {
	sqlite3_file base;
	int fd;
	int err;
};

static sqlite3_vfs *fd_base; /* the default VFS, for everything else */

static int fd_close(sqlite3_file *f)
{
	(void)f; /* the fd is the caller's */
	return SQLITE_OK;
}

static int fd_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off)
{
	struct fd_file *p = (struct fd_file *)f;
	size_t done = 0;
	ssize_t n;

	while (done < (size_t)amt) {
		n = pread(p->fd, (char *)buf + done, (size_t)amt - done, off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			p->err = errno;
			return SQLITE_IOERR_READ;
		}
		if (!n)
			break;
		done += (size_t)n;
	}
	if (done == (size_t)amt)
		return SQLITE_OK;
	memset((char *)buf + done, 0, (size_t)amt - done); /* SQLite wants the rest zeroed */
	return SQLITE_IOERR_SHORT_READ;
}

static int fd_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off)
{
	struct fd_file *p = (struct fd_file *)f;
	size_t done = 0;
	ssize_t n;

	while (done < (size_t)amt) {
		n = pwrite(p->fd, (const char *)buf + done, (size_t)amt - done, off + (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			p->err = n < 0 ? errno : ENOSPC;
			return p->err == ENOSPC || p->err == EDQUOT ? SQLITE_FULL : SQLITE_IOERR_WRITE;
		}
		done += (size_t)n;
	}
	return SQLITE_OK;
}

static int fd_truncate(sqlite3_file *f, sqlite3_int64 size)
{
	struct fd_file *p = (struct fd_file *)f;

	if (!ftruncate(p->fd, (off_t)size))
		return SQLITE_OK;
	p->err = errno;
	return SQLITE_IOERR_TRUNCATE;
}

/*
 * Sync, lock and unlock: nothing to do.  Nobody else knows the file until
 * its rename (no locks), and it is not synced, as the export's other
 * outputs are not: the rename publishes it.
 */
static int fd_nothing(sqlite3_file *f, int arg)
{
	(void)f;
	(void)arg;
	return SQLITE_OK;
}

static int fd_size(sqlite3_file *f, sqlite3_int64 *size)
{
	struct fd_file *p = (struct fd_file *)f;
	struct stat st;

	if (fstat(p->fd, &st)) {
		p->err = errno;
		return SQLITE_IOERR_FSTAT;
	}
	*size = st.st_size;
	return SQLITE_OK;
}

static int fd_check_lock(sqlite3_file *f, int *out)
{
	(void)f;
	*out = 0;
	return SQLITE_OK;
}

static int fd_control(sqlite3_file *f, int op, void *arg)
{
	(void)f;
	(void)op;
	(void)arg;
	return SQLITE_NOTFOUND;
}

static int fd_sector_size(sqlite3_file *f)
{
	(void)f;
	return 4096;
}

static int fd_device_flags(sqlite3_file *f)
{
	(void)f;
	return 0;
}

static const sqlite3_io_methods fd_methods = {
	.iVersion = 1,
	.xClose = fd_close,
	.xRead = fd_read,
	.xWrite = fd_write,
	.xTruncate = fd_truncate,
	.xSync = fd_nothing,
	.xFileSize = fd_size,
	.xLock = fd_nothing,
	.xUnlock = fd_nothing,
	.xCheckReservedLock = fd_check_lock,
	.xFileControl = fd_control,
	.xSectorSize = fd_sector_size,
	.xDeviceCharacteristics = fd_device_flags,
};

static int fd_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out_flags)
{
	struct fd_file *p = (struct fd_file *)f;
	char *end;
	long fd;

	(void)vfs;
	if (!name) /* a sorting temporary: the default VFS's, unnamed */
		return fd_base->xOpen(fd_base, name, f, flags, out_flags);
	memset(p, 0, sizeof(*p));
	if (!(flags & SQLITE_OPEN_MAIN_DB) || strncmp(name, FD_NAME_PREFIX, strlen(FD_NAME_PREFIX)))
		return SQLITE_CANTOPEN;
	errno = 0;
	fd = strtol(name + strlen(FD_NAME_PREFIX), &end, 10);
	if (errno || *end || fd < 0 || fd > INT32_MAX)
		return SQLITE_CANTOPEN;
	p->base.pMethods = &fd_methods;
	p->fd = (int)fd;
	if (out_flags)
		*out_flags = flags;
	return SQLITE_OK;
}

/* Only the database has a name, and nothing is ever next to it. */
static int fd_delete(sqlite3_vfs *vfs, const char *name, int sync_dir)
{
	(void)vfs;
	(void)name;
	(void)sync_dir;
	return SQLITE_OK;
}

static int fd_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	(void)vfs;
	(void)name;
	(void)flags;
	*out = 0;
	return SQLITE_OK;
}

static int fd_full_name(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	(void)vfs;
	return snprintf(out, (size_t)n, "%s", name) < n ? SQLITE_OK : SQLITE_CANTOPEN;
}

static int fd_random(sqlite3_vfs *vfs, int n, char *out)
{
	(void)vfs;
	return fd_base->xRandomness(fd_base, n, out);
}

static int fd_sleep(sqlite3_vfs *vfs, int us)
{
	(void)vfs;
	return fd_base->xSleep(fd_base, us);
}

static int fd_time(sqlite3_vfs *vfs, double *t)
{
	(void)vfs;
	return fd_base->xCurrentTime(fd_base, t);
}

static int fd_last_error(sqlite3_vfs *vfs, int n, char *out)
{
	(void)vfs;
	return fd_base->xGetLastError(fd_base, n, out);
}

static sqlite3_vfs fd_vfs = {
	.iVersion = 1,
	.mxPathname = 64,
	.zName = FD_VFS_NAME,
	.xOpen = fd_open,
	.xDelete = fd_delete,
	.xAccess = fd_access,
	.xFullPathname = fd_full_name,
	.xRandomness = fd_random,
	.xSleep = fd_sleep,
	.xCurrentTime = fd_time,
	.xGetLastError = fd_last_error,
};

static int fd_vfs_err;

static void fd_vfs_register(void)
{
	fd_base = sqlite3_vfs_find(NULL);
	if (!fd_base) {
		fd_vfs_err = SQLITE_ERROR;
		return;
	}
	/* a temporary opened through it lives in the same sqlite3_file */
	fd_vfs.szOsFile = fd_base->szOsFile > (int)sizeof(struct fd_file) ?
				  fd_base->szOsFile : (int)sizeof(struct fd_file);
	fd_vfs_err = sqlite3_vfs_register(&fd_vfs, 0);
}

int export_db_fd_open(int fd, sqlite3 **db)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	char name[32];
	int rc;

	*db = NULL;
	pthread_once(&once, fd_vfs_register);
	if (fd_vfs_err) {
		npuprof_err("SQLite: cannot register the export's file layer: %s",
			    sqlite3_errstr(fd_vfs_err));
		return -EIO;
	}
	snprintf(name, sizeof(name), FD_NAME_PREFIX "%d", fd);
	rc = sqlite3_open_v2(name, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, FD_VFS_NAME);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(*db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;", NULL,
				  NULL, NULL);
	if (rc == SQLITE_OK)
		return 0;
	if (rc == SQLITE_NOMEM)
		rc = -ENOMEM;
	else
		npuprof_err("SQLite: opening the database: %s",
			    *db ? sqlite3_errmsg(*db) : sqlite3_errstr(rc));
	sqlite3_close(*db);
	*db = NULL;
	return rc == -ENOMEM ? rc : -EIO;
}

int export_db_fd_errno(sqlite3 *db)
{
	sqlite3_file *f = NULL;

	if (sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &f) != SQLITE_OK || !f ||
	    f->pMethods != &fd_methods)
		return 0;
	return ((struct fd_file *)f)->err;
}
