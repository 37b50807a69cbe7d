// SPDX-License-Identifier: MIT
/*
 * Description: the lines of msprof --check=on that depend on who runs it
 * (tools/msprof/check_words.h).  A path that cannot be looked at is
 * "unknown", never "absent" (a user other than root cannot search
 * tracefs, so every tracepoint read as absent); whether root may write a
 * switch is root's own access when asked by root (the driver's switches
 * are mode 0444 and root writes them all the same), "unknown" when asked
 * by another user (who was told root could not); a capture as a user
 * other than root, or as root with neither bpf() nor npuprof.ko, cannot
 * run and says why (--check=on then exits 1, as a script must learn).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "check_words.h"

int main(void)
{
	char dir[] = "/tmp/npuprof-check-words-XXXXXX", path[256], buf[160];
	struct npuprof_capture_access a = { .root = true };
	int fd;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	snprintf(path, sizeof(path), "%s/sw", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	CHECK(fd >= 0);
	close(fd);
	CHECK_STR(msprof_check_present(path, buf, sizeof(buf)), "present");
	CHECK_STR(msprof_check_root_writable(path, false),
		  "unknown (asked as a user other than root)");
	if (geteuid() == 0) {
		CHECK_EQ(chmod(path, 0444), 0); /* as the driver's switches */
		CHECK_STR(msprof_check_root_writable(path, true), "yes");
	}
	/* a path through a file: neither present nor absent can be told */
	snprintf(path, sizeof(path), "%s/sw/events", dir);
	CHECK_STR(msprof_check_present(path, buf, sizeof(buf)),
		  "unknown (Not a directory: run msprof --check=on as root)");
	CHECK_STR(msprof_check_root_writable(path, geteuid() == 0),
		  geteuid() == 0 ? "no" : "unknown (asked as a user other than root)");
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK_STR(msprof_check_present(path, buf, sizeof(buf)), "absent");

	CHECK(msprof_check_user(&a, buf, sizeof(buf)));
	CHECK_STR(buf, "yes");
	a.bpf.err = -EPERM;
	CHECK(msprof_check_user(&a, buf, sizeof(buf))); /* npuprof.ko is open */
	a.kmod_err = -ENOENT;
	CHECK(!msprof_check_user(&a, buf, sizeof(buf)));
	CHECK_STR(buf, "no: bpf() refused (Operation not permitted) and npuprof.ko unusable (No such file or directory)");
	a = (struct npuprof_capture_access){ .bpf = { -EPERM, NPUPROF_ACCESS_CAPS },
					     .perf = { -EACCES, NPUPROF_ACCESS_CAPS },
					     .kmod_err = -EACCES };
	CHECK(!msprof_check_user(&a, buf, sizeof(buf)));
	CHECK_STR(buf, "no: msprof captures as root only (this user: bpf() Operation not permitted, perf_event_open() Permission denied)");

	snprintf(path, sizeof(path), "%s/sw", dir);
	unlink(path);
	rmdir(dir);
	return CHECK_DONE();
}
