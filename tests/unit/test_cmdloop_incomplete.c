// SPDX-License-Identifier: MIT
/*
 * Description: a stop whose data is incomplete says so and is counted as
 * incomplete, not as a failure.  The fake stop reports 9 records lost
 * (ring full 2, write error 6, decode error 1; CPU 1 lost 2 + 3 + 0, CPU
 * 3 0 + 3 + 1), a write error ENOSPC and
 * host/end_info and host/info.json not written (the disk was full even for
 * them), and returns -ENOSPC.  msprof prints the saved line with the
 * losses by cause, a line per CPU that lost records, an error for the failed write, one naming the control
 * files it could not write, and a warning that the data is incomplete;
 * d.incomplete is 1 and d.failures 0 (exit status 3), and "stopping the
 * capture failed" is not printed: the failed write is said per directory.
 */
#include "check.h"
#include "cmdloop_fake.h"

#define DIR "/out/PROF_000001_20260101000000000_00000042ABCDEFGH"

int main(void)
{
	static const char input[] = "start\nstop\n";
	struct fake_server f = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_STOP_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_QUIT_RSQ, DYNPROF_SUCCESS } },
		.n = 3,
	};
	struct msprof_dyn d;
	char want[4096], *out;
	int fd, rc;

	if (fake_server_start(&f, &fd))
		CHECK_SKIP("socketpair/pthread failed");
	fake_dyn_init(&d, fd);
	d.t[0].app_pid = getpid(); /* alive for the loop's checks */
	fake_ss.stop_rc = -ENOSPC;
	fake_ss.loss = (struct npuprof_loss){ .n = { 2, 6, 1 } };
	fake_ss.cpu_loss[0] = (struct npuprof_loss){ .n = { 2, 3, 0 }, .cpu = 1 };
	fake_ss.cpu_loss[1] = (struct npuprof_loss){ .n = { 0, 3, 1 }, .cpu = 3 };
	fake_ss.nr_cpu_loss = 2;
	fake_ss.write_error = -ENOSPC;
	fake_ss.unwritten = "host/end_info host/info.json";
	fake_ss.unwritten_error = -ENOSPC;
	rc = fake_loop_input(&d, input, &out);
	fake_server_join(&f);

	CHECK_EQ(rc, 0);
	CHECK_EQ(d.incomplete, 1);
	CHECK_EQ(d.failures, 0);
	snprintf(want, sizeof(want),
		 "dynamic profiling for pid %d start success\n"
		 "dynamic profiling for pid %d stop success\n"
		 "PROF data saved in " DIR ": 12 api records, 34 device task events, 9 records "
		 "lost (ring full: 2, write error: 6, decode error: 1)\n"
		 "  CPU 1: 5 records lost (ring full: 2, write error: 3, decode error: 0)\n"
		 "  CPU 3: 4 records lost (ring full: 0, write error: 3, decode error: 1)\n"
		 "[ERROR] msprof: writing PROF data in " DIR " failed: No space left on device: free "
		 "disk space under --output and collect again\n"
		 "[ERROR] msprof: could not write host/end_info host/info.json in " DIR ": No space "
		 "left on device: free disk space under --output and collect again\n"
		 "[WARNING] msprof: the data in " DIR " is incomplete (9 records lost (ring full: 2, "
		 "write error: 6, decode error: 1), a write failed); msprof --export=on says why\n"
		 "dynamic profiling for pid %d quit success\n",
		 (int)d.t[0].app_pid, (int)d.t[0].app_pid, (int)d.t[0].app_pid);
	CHECK_STR(out, want);
	free(out);
	return CHECK_DONE();
}
