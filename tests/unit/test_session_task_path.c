// SPDX-License-Identifier: MIT
/*
 * Description: how a session picks the path for device tasks, where no
 * kernel side is needed to tell: a bad NPUPROF_TASK_CAPTURE is refused
 * with its value named (-EINVAL); NPUPROF_TASK_CAPTURE=kmod with the
 * module's device missing is the old refusal (-ENOENT, the device named),
 * so msprof still says "npuprof.ko is not loaded"; the opts field wins over
 * the environment; and with the device missing in auto mode the session
 * goes for BPF instead, so a caller without the rights to load BPF gets
 * the BPF error with the reason the module was not used (as root the BPF
 * path may load on this host, and that case is left to the VM tests).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/session.h>

#include "check.h"

#define NO_DEV "/nonexistent/npuprof"
#define REASON "npuprof.ko not loaded (no " NO_DEV

static int create(int task_capture, struct npuprof_session **s)
{
	struct npuprof_session_opts o = {
		.output = "/tmp",
		.output_fd = -1,
		.task_time = 1,
		.kdev = NO_DEV,
		.task_capture = task_capture,
	};

	*s = NULL;
	return npuprof_session_create(&o, s);
}

int main(void)
{
	struct npuprof_session *s;
	int err;

	setenv("NPUPROF_TASK_CAPTURE", "module", 1);
	CHECK_EQ(create(NPUPROF_TASK_CAPTURE_AUTO, &s), -EINVAL);
	CHECK_STR(npuprof_session_last_error(NULL),
		  "NPUPROF_TASK_CAPTURE=module: not kmod, bpf or auto: Invalid argument");
	CHECK_EQ(npuprof_session_error(NULL)->stage, NPUPROF_STAGE_SESSION);

	setenv("NPUPROF_TASK_CAPTURE", "kmod", 1);
	CHECK_EQ(create(NPUPROF_TASK_CAPTURE_AUTO, &s), -ENOENT);
	CHECK_STR(npuprof_session_last_error(NULL), NO_DEV ": No such file or directory");
	CHECK_EQ(npuprof_session_error(NULL)->stage, NPUPROF_STAGE_MODULE);

	/* the option wins over the environment */
	setenv("NPUPROF_TASK_CAPTURE", "bpf", 1);
	CHECK_EQ(create(NPUPROF_TASK_CAPTURE_KMOD, &s), -ENOENT);

	/*
	 * auto: the device missing, so BPF.  On a host without an NPU driver
	 * npuprof knows (this one), no task program is loaded: the session
	 * opens, says why BPF, and names no driver.  With a driver, loading
	 * the programs needs root: without, the error keeps the reason.
	 */
	unsetenv("NPUPROF_TASK_CAPTURE");
	err = create(NPUPROF_TASK_CAPTURE_AUTO, &s);
	if (!err) {
		const struct npuprof_task_capture_info *tc = npuprof_session_task_capture(s);

		CHECK_EQ(tc->path, NPUPROF_TASK_PATH_BPF);
		/* "; kernel lockdown: ..." or "; Secure Boot" before the ")" where on */
		CHECK(!strncmp(tc->reason, REASON, strlen(REASON)));
		CHECK(!strcmp(tc->reason + strlen(REASON), ")") ||
		      !strncmp(tc->reason + strlen(REASON), "; ", 2));
		CHECK(tc->driver == NULL || geteuid() == 0);
		npuprof_session_close(s);
	} else {
		CHECK(err == -EPERM || err == -EACCES);
		CHECK(!strncmp(npuprof_session_last_error(NULL), REASON, strlen(REASON)));
		CHECK(strstr(npuprof_session_last_error(NULL),
			     ", and loading the BPF task programs failed: ") != NULL);
		CHECK_EQ(npuprof_session_error(NULL)->stage, NPUPROF_STAGE_BPF_LOAD);
	}
	return CHECK_DONE();
}
