/* SPDX-License-Identifier: MIT */
/* A test's temporary directory tree: removing it, comparing its files. */
#ifndef NPUPROF_TEST_TMPDIR_H
#define NPUPROF_TEST_TMPDIR_H

#include <ftw.h>
#include <stdio.h>
#include <string.h>

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

/* Whether <@a>/<@name> and <@b>/<@name> exist and hold the same bytes. */
static inline int tmpdir_same_file(const char *a, const char *b, const char *name)
{
	char pa[700], pb[700], ba[65536], bb[65536];
	FILE *fa, *fb;
	size_t na, nb;
	int same = 1;

	snprintf(pa, sizeof(pa), "%s/%s", a, name);
	snprintf(pb, sizeof(pb), "%s/%s", b, name);
	fa = fopen(pa, "rb");
	fb = fopen(pb, "rb");
	if (!fa || !fb) {
		same = 0;
	} else {
		do {
			na = fread(ba, 1, sizeof(ba), fa);
			nb = fread(bb, 1, sizeof(bb), fb);
			same = na == nb && !memcmp(ba, bb, na);
		} while (same && na);
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}

#endif /* NPUPROF_TEST_TMPDIR_H */
