// SPDX-License-Identifier: MIT
/*
 * Description: one prompt controls several processes (--pid=P1,P2).
 * "start" reaches both servers after one capture start; pid 42 accepts,
 * pid 43 refuses (FAIL), so 43's directory of the window is discarded and
 * the refusal counts as a failed capture.  "status" lists both.  "stop"
 * reaches both (43 answers "not started") and saves only 42's directory.
 * "quit" says goodbye to both.  The exact lines printed are checked.
 */
#include "check.h"
#include "cmdloop_fake.h"

int main(void)
{
	struct fake_server a = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_STOP_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_QUIT_RSQ, DYNPROF_SUCCESS } },
		.n = 3,
	};
	struct fake_server b = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_FAIL },
			    { DYNPROF_STOP_RSQ, DYNPROF_NOT_START },
			    { DYNPROF_QUIT_RSQ, DYNPROF_SUCCESS } },
		.n = 3,
	};
	struct msprof_dyn d;
	struct capture c;
	int fa, fb, res[4];
	char *out;

	if (fake_server_start(&a, &fa) || fake_server_start(&b, &fb))
		CHECK_SKIP("socketpair/pthread failed");
	fake_dyn_init(&d, fa);
	d.t[1].fd = fb;
	d.t[1].app_pid = 43;
	d.nr_targets = 2;
	d.tty = 1;
	fake_ss.nr_pids = 2;
	fake_ss.pids[0] = 42;
	fake_ss.pids[1] = 43;

	capture_begin(&c);
	res[0] = msprof_cmd_run_line(&d, "start");
	res[1] = msprof_cmd_run_line(&d, "status");
	res[2] = msprof_cmd_run_line(&d, "stop");
	res[3] = msprof_cmd_run_line(&d, "quit");
	out = capture_end(&c);
	fake_server_join(&a);
	fake_server_join(&b);

	CHECK_EQ(res[0], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[1], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[2], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[3], MSPROF_CMD_QUIT);
	CHECK_EQ(fake_ss.starts, 1);
	CHECK_EQ(fake_ss.stops, 1);
	CHECK_EQ(fake_ss.discards, 0);
	CHECK_EQ(d.failures, 1);
	CHECK(fake_got(&a, 0, DYNPROF_START_REQ) && fake_got(&b, 0, DYNPROF_START_REQ));
	CHECK(fake_got(&a, 1, DYNPROF_STOP_REQ) && fake_got(&b, 1, DYNPROF_STOP_REQ));
	CHECK(fake_got(&a, 2, DYNPROF_QUIT_REQ) && fake_got(&b, 2, DYNPROF_QUIT_REQ));
	CHECK_EQ(d.t[0].fd, -1);
	CHECK_EQ(d.t[1].fd, -1);
	CHECK_STR(out, "dynamic profiling for pid 42 start success\n"
		       "[ERROR] msprof: dynamic profiling for pid 43 start failed (fail)\n"
		       "2 processes, capture running\n"
		       "  pid 42: connected, capturing into /out/PROF_x\n"
		       "  pid 43: connected, not capturing (refused start)\n"
		       "dynamic profiling for pid 42 stop success\n"
		       "[WARNING] msprof: dynamic profiling for pid 43 has not started\n"
		       "PROF data saved in /out/PROF_42: 10 api records, 20 device task events, 0 records lost\n"
		       "dynamic profiling for pid 42 quit success\n"
		       "dynamic profiling for pid 43 quit success\n");
	free(out);
	return CHECK_DONE();
}
