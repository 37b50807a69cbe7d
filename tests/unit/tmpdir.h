/* SPDX-License-Identifier: MIT */
/* Removing a test's temporary directory tree (files and subdirectories). */
#ifndef NPUPROF_TEST_TMPDIR_H
#define NPUPROF_TEST_TMPDIR_H

#include <ftw.h>
#include <stdio.h>

static int tmpdir_rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove @dir and everything below it; 0 or -1. */
static inline int tmpdir_remove(const char *dir)
{
	return nftw(dir, tmpdir_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* NPUPROF_TEST_TMPDIR_H */
