// SPDX-License-Identifier: MIT
/*
 * Description: the loader tries a job's own libascend_hal.so (the hint,
 * a file of the job's owner) only when it could be this process's own
 * code: not writable by group or others, owned by root or by us.  A copy
 * of the stand-in library with mode 0666 is hinted: it is not loaded, and
 * the reason says why.  The same file made 0644 loads from its path at
 * the next try (a failure is not remembered).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "fake_ascend_hal.h"
#include "tmpdir.h"
#include <npuprof/ascend_hal.h>

/* Copy @from to @to.  Return: 0 or -1. */
static int copy(const char *from, const char *to)
{
	char buf[8192];
	ssize_t n;
	int in = open(from, O_RDONLY | O_CLOEXEC), out, err = 0;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		err |= write(out, buf, (size_t)n) != n;
	close(in);
	if (out < 0)
		return -1;
	close(out);
	return err ? -1 : 0;
}

int main(void)
{
	char root[] = "/tmp/npuprof-haltrust-XXXXXX", lib[PATH_MAX], path[PATH_MAX + 64];
	const struct npuprof_ascend_hal *hal = NULL;
	char why[1024] = "";
	int err;

	if (fakehal_path(lib, sizeof(lib)))
		CHECK_SKIP("build/tests/fixtures/libascend_hal.so not built");
	if (!mkdtemp(root))
		return 1;
	snprintf(path, sizeof(path), "%s/libascend_hal.so", root);
	CHECK_EQ(copy(lib, path), 0);
	CHECK_EQ(chmod(path, 0666), 0);
	unsetenv("NPUPROF_ASCEND_HAL");
	npuprof_ascend_hal_hint(path);
	err = npuprof_ascend_hal_get(&hal, why, sizeof(why));
	if (!err && !strcmp(hal->path, path)) {
		CHECK(!"the 0666 hint was loaded");
		return CHECK_DONE();
	}
	if (!err) { /* something on the loader's path loaded instead */
		tmpdir_remove(root);
		CHECK_SKIP("a libascend_hal.so on the loader's path loaded first");
	}
	CHECK_EQ(err, -ENOENT);
	CHECK(strstr(why, "writable by group or others") != NULL);
	CHECK_EQ(chmod(path, 0644), 0);
	CHECK_EQ(npuprof_ascend_hal_get(&hal, why, sizeof(why)), 0);
	if (hal)
		CHECK_EQ(strcmp(hal->path, path), 0);
	if (!check_failures)
		tmpdir_remove(root);
	return CHECK_DONE();
}
