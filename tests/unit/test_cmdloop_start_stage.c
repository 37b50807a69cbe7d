// SPDX-License-Identifier: MIT
/*
 * Description: a start that fails is worded from the stage the session
 * names, not from its text: the kernel refusing the uprobes (stage ATTACH,
 * -EINVAL, on the library) reads "attach failed: the kernel refused the
 * probes on <library>: Invalid argument"; the process gone meanwhile
 * (stage PROCESS, -ESRCH) reads "process N has exited".
 * The app is asked nothing, the window counts as incomplete, and with
 * nothing saved msprof's exit status is 1 (README "Exit status").
 */
#include "check.h"
#include "cmdloop_fake.h"
#include "dynamic.h"

int main(void)
{
	struct npuprof_error attach = { .stage = NPUPROF_STAGE_ATTACH, .err = -EINVAL,
					.object = "/tmp/lib/libascendcl.so" };
	struct npuprof_error gone = { .stage = NPUPROF_STAGE_PROCESS, .err = -ESRCH, .pid = 42 };
	struct fake_server f = { .n = 0 };
	struct msprof_dyn d;
	struct capture c;
	char *out;
	int fd;

	if (fake_server_start(&f, &fd))
		CHECK_SKIP("socketpair/pthread failed");
	fake_dyn_init(&d, fd);
	fake_ss.start_rc = -EINVAL;
	fake_ss.error = &attach;
	capture_begin(&c);
	msprof_cmd_run_line(&d, "start");
	fake_ss.start_rc = -ESRCH;
	fake_ss.error = &gone;
	msprof_cmd_run_line(&d, "start");
	out = capture_end(&c);
	close(d.t[0].fd);
	fake_server_join(&f);

	CHECK_EQ(fake_ss.starts, 2);
	CHECK_EQ(f.n_got, 0);
	CHECK_EQ(d.incomplete, 2);
	CHECK_EQ(msprof_run_status(&d, 0), 1);
	CHECK_STR(out, "[ERROR] msprof: cannot start the capture for pid 42: attach failed: the "
		       "kernel refused the probes on /tmp/lib/libascendcl.so: Invalid argument\n"
		       "[ERROR] msprof: cannot start the capture for pid 42: process 42 has exited\n");
	free(out);
	return CHECK_DONE();
}
