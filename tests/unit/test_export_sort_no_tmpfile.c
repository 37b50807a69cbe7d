// SPDX-License-Identifier: MIT
/*
 * Description: on a filesystem without O_TMPFILE (FUSE such as sshfs or
 * bindfs, vfat: openat(O_TMPFILE) fails with EOPNOTSUPP) the export's
 * external sort still spills: 1000 records through a buffer of 4 records
 * (250 runs) come back as keys 0..999 in order, and the spill directory
 * is empty afterwards (the named run file was unlinked at once).  Before
 * the fix xsort_add() returned -EOPNOTSUPP and a PROF dir on such a
 * filesystem could not be exported past 16 MB of records.  This program
 * stands in for such a filesystem by defining openat(): O_TMPFILE fails
 * with EOPNOTSUPP, everything else goes to the kernel.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"
#include "export_sort.h"

static unsigned int tmpfile_refused;

int openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | __O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	if ((flags & O_TMPFILE) == O_TMPFILE) {
		tmpfile_refused++;
		errno = EOPNOTSUPP;
		return -1;
	}
	return (int)syscall(SYS_openat, dirfd, path, flags, mode);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static unsigned int dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	unsigned int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.' || (de->d_name[1] && strcmp(de->d_name, ".."));
	if (d)
		closedir(d);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/npuprof-sort-notmp-XXXXXX";
	struct xsort_cfg cfg = { .rec_size = 4, .cmp = cmp_u32, .mem_bytes = 16 };
	struct xsort *s;
	const void *p;
	uint32_t k, want = 0;
	int r = 0;

	CHECK(mkdtemp(dir) != NULL);
	cfg.dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(cfg.dir_fd >= 0);
	CHECK_EQ(xsort_open(&cfg, &s), 0);
	for (uint32_t i = 0; !r && i < 1000; i++) {
		k = (i * 7919u) % 1000u; /* every key 0..999 once, out of order */
		r = xsort_add(s, &k);
		CHECK_EQ(r, 0);
	}
	CHECK_EQ(xsort_rewind(s), 0);
	CHECK_EQ(xsort_runs(s), 250);
	CHECK_EQ(tmpfile_refused, 1);
	while ((r = xsort_next(s, &p)) == 1)
		want += *(const uint32_t *)p == want;
	CHECK_EQ(r, 0);
	CHECK_EQ(want, 1000);
	CHECK_EQ(dir_entries(dir), 0);
	xsort_close(s);
	close(cfg.dir_fd);
	tmpdir_remove(dir);
	return CHECK_DONE();
}
