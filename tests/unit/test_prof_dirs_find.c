// SPDX-License-Identifier: MIT
/*
 * Description: finding PROF dirs (npuprof_prof_dirs_find(), user/
 * prof_layout.c).  A folder holding PROF_b, PROF_a (directories), PROF_c
 * (a file), other/ and a symlink PROF_d to PROF_a gives exactly
 * "<dir>/PROF_a", "<dir>/PROF_b", "<dir>/PROF_d" in that order; PROF_a
 * itself gives itself; a directory renamed "copy" holding host/ gives
 * itself; a folder with none gives 0 dirs and 0; a missing path gives
 * -ENOENT; npuprof_prof_dir_is() agrees with each.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"
#include <npuprof/prof_layout.h>

static char root[] = "/tmp/npuprof-dirs-XXXXXX";

static void make(const char *rel, int dir)
{
	char p[512];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (dir) {
		CHECK_EQ(mkdir(p, 0755), 0);
		return;
	}
	fd = open(p, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0);
	close(fd);
}

static void check_found(const char *rel, long want_n, const char *const *want)
{
	char p[512], w[512];
	char **dirs;
	long n;

	snprintf(p, sizeof(p), "%s%s%s", root, *rel ? "/" : "", rel);
	CHECK_EQ(npuprof_prof_dirs_find(p, &dirs, &n), 0);
	CHECK_EQ(n, want_n);
	for (long i = 0; i < n && i < want_n; i++) {
		snprintf(w, sizeof(w), "%s/%s", root, want[i]);
		CHECK_STR(dirs[i], w);
	}
	npuprof_prof_dirs_free(dirs, n);
}

int main(void)
{
	static const char *const all[] = { "PROF_a", "PROF_b", "PROF_d" };
	static const char *const a[] = { "PROF_a" };
	static const char *const copy[] = { "copy" };
	char p[512], **dirs;
	long n;

	CHECK(mkdtemp(root) != NULL);
	make("PROF_b", 1);
	make("PROF_a", 1);
	make("PROF_c", 0);
	make("other", 1);
	make("copy", 1);
	make("copy/host", 1);
	make("empty", 1);
	snprintf(p, sizeof(p), "%s/PROF_d", root);
	CHECK_EQ(symlink("PROF_a", p), 0);

	check_found("", 3, all);
	check_found("PROF_a", 1, a);
	check_found("copy", 1, copy);
	check_found("empty", 0, NULL);
	snprintf(p, sizeof(p), "%s/missing", root);
	CHECK_EQ(npuprof_prof_dirs_find(p, &dirs, &n), -ENOENT);
	CHECK_EQ(n, 0);
	npuprof_prof_dirs_free(dirs, n);

	CHECK_EQ(npuprof_prof_dir_is(root), 0);
	snprintf(p, sizeof(p), "%s/PROF_c", root);
	CHECK_EQ(npuprof_prof_dir_is(p), 0);
	snprintf(p, sizeof(p), "%s/copy", root);
	CHECK_EQ(npuprof_prof_dir_is(p), 1);
	snprintf(p, sizeof(p), "%s/other", root);
	CHECK_EQ(npuprof_prof_dir_is(p), 0);
	tmpdir_remove(root);
	return CHECK_DONE();
}
