// SPDX-License-Identifier: MIT
/*
 * Description: a database that cannot be written fails the export with a
 * message naming it and leaves no partial file.  The fixture PROF dir sits
 * on a small tmpfs (a mount namespace of the test's own; root only, else
 * skipped):
 *  1. the tmpfs is full: msprof_export(--type=db) returns -ENOSPC, says
 *     "writing <prof>/msprof_<stamp>.db: No space left on device", and
 *     the PROF dir's top holds no msprof_*.db and no *.tmp;
 *  2. with the space back the same export works: one database;
 *  3. the tmpfs remounted read-only: --type=db returns -EROFS and says
 *     "writing <prof>/msprof_<stamp>.db: Read-only file system";
 *     --type=text returns -EROFS and says "creating
 *     <prof>/mindstudio_profiler_output: Read-only file system"; the
 *     database of step 2 is still the only one, unchanged.
 */
#include <sched.h>
#include <sys/mount.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

/* Fill the filesystem of @path with the file @path: ENOSPC at the end. */
static int fill(const char *path)
{
	static char block[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ssize_t n;

	if (fd < 0)
		return -errno;
	do
		n = write(fd, block, sizeof(block));
	while (n > 0);
	while (write(fd, block, 1) == 1) /* the last bytes of a partial block */
		;
	close(fd);
	return errno == ENOSPC ? 0 : -EIO;
}

/* msprof_export() of @prof as @type, its stderr in @log; returns its result. */
static int export_as(const char *prof, enum msprof_export_type type, const char *log)
{
	struct msprof_export_opts opts = { .output = prof, .type = type };
	int saved = fx_stderr_to(log), rc;

	rc = msprof_export(&opts);
	fx_stderr_back(saved);
	return rc;
}

/* Does file @path hold @a ... @b on one line, with a 14-digit stamp between? */
static int says(const char *path, const char *a, const char *b)
{
	char *text = fx_slurp(path), *p, *q;
	int ok = 0;

	for (p = text; p && (p = strstr(p, a)); p++) {
		q = p + strlen(a);
		if (strspn(q, "0123456789") == 14 && !strncmp(q + 14, b, strlen(b)))
			ok = 1;
	}
	if (!ok)
		fprintf(stderr, "%s does not say \"%s<stamp>%s\":\n%s\n", path, a, b,
			text ? text : "(none)");
	free(text);
	return ok;
}

int main(void)
{
	char root[256], prof[512], fill_path[600], db[1024], db2[1024], a[1100];
	char log[] = "/tmp/npuprof_db_fail_XXXXXX", *before, *after, *text;
	struct stat st;
	size_t size;
	int tmps, fd;

	if (geteuid())
		CHECK_SKIP("a tmpfs of its own needs root");
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		CHECK_SKIP("no mount namespace of its own");
	fd = mkstemp(log);
	if (fd < 0 || fx_tmpdir(root, sizeof(root)) ||
	    mount("npuprof_db_fail", root, "tmpfs", 0, "size=256k,mode=0755")) {
		fprintf(stderr, "cannot set up a tmpfs at %s: %s\n", root, strerror(errno));
		return 1;
	}
	close(fd);
	if (fx_build(root, prof, sizeof(prof), 0, 0)) {
		fprintf(stderr, "cannot build the fixture on the tmpfs\n");
		return 1;
	}
	snprintf(fill_path, sizeof(fill_path), "%s/filler", root);
	CHECK_EQ(fill(fill_path), 0);

	CHECK_EQ(export_as(prof, MSPROF_EXPORT_DB, log), -ENOSPC);
	snprintf(a, sizeof(a), "writing %s/msprof_", prof);
	CHECK(says(log, a, ".db: No space left on device"));
	CHECK_EQ(fx_find_db(prof, db, sizeof(db), &tmps), 0);
	CHECK_EQ(tmps, 0);

	CHECK_EQ(unlink(fill_path), 0);
	CHECK_EQ(export_as(prof, MSPROF_EXPORT_DB, log), 0);
	CHECK_EQ(fx_find_db(prof, db, sizeof(db), &tmps), 1);
	CHECK_EQ(tmps, 0);
	CHECK_EQ(stat(db, &st), 0);
	size = (size_t)st.st_size;
	before = fx_slurp(db);

	CHECK_EQ(mount(NULL, root, NULL, MS_REMOUNT | MS_RDONLY, NULL), 0);
	CHECK_EQ(export_as(prof, MSPROF_EXPORT_DB, log), -EROFS);
	CHECK(says(log, a, ".db: Read-only file system"));
	CHECK_EQ(export_as(prof, MSPROF_EXPORT_TEXT, log), -EROFS);
	snprintf(a, sizeof(a), "creating %s/mindstudio_profiler_output: Read-only file system",
		 prof);
	text = fx_slurp(log);
	CHECK(text && strstr(text, a));
	free(text);
	CHECK_EQ(fx_find_db(prof, db2, sizeof(db2), &tmps), 1);
	CHECK_STR(db2, db);
	CHECK_EQ(stat(db2, &st), 0);
	after = fx_slurp(db2);
	CHECK_EQ(st.st_size, size);
	CHECK(before && after && !memcmp(before, after, size));
	free(before);
	free(after);
	umount(root);
	rmdir(root);
	unlink(log);
	return CHECK_DONE();
}
