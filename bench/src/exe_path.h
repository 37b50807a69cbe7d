/* SPDX-License-Identifier: MIT */
/*
 * The bench programs find the fixtures of the build they belong to
 * (build/bench/ is beside build/tests/fixtures/).
 */
#ifndef NPUPROF_BENCH_EXE_PATH_H
#define NPUPROF_BENCH_EXE_PATH_H

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/*
 * @out (@size bytes): this program's directory, then "/" and @rel.
 * Return: 0, or -1 when /proc/self/exe is unreadable or @out too small.
 */
static inline int exe_relative(char *out, size_t size, const char *rel)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = 0;
	return snprintf(out, size, "%s/%s", self, rel) < (int)size ? 0 : -1;
}

#endif /* NPUPROF_BENCH_EXE_PATH_H */
