// SPDX-License-Identifier: MIT
/*
 * Description: "start", "stop", "quit" at the msprof prompt send exactly
 * {START_REQ,0}, {STOP_REQ,0}, {QUIT_REQ,0} in that order, start the
 * capture before the request and stop it after the reply, and print
 * msprof's reply lines plus where the PROF data went.
 */
#include "check.h"
#include "cmdloop_fake.h"

int main(void)
{
	struct fake_server f = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_STOP_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_QUIT_RSQ, DYNPROF_SUCCESS } },
		.n = 3,
	};
	struct msprof_dyn d;
	struct capture c;
	int fd, r1, r2, r3;
	char *out;

	if (fake_server_start(&f, &fd))
		CHECK_SKIP("socketpair/pthread failed");
	fake_dyn_init(&d, fd);

	capture_begin(&c);
	r1 = msprof_cmd_run_line(&d, "start");
	r2 = msprof_cmd_run_line(&d, "  stop \t");
	r3 = msprof_cmd_run_line(&d, "quit\n");
	out = capture_end(&c);
	fake_server_join(&f);

	CHECK_EQ(r1, MSPROF_CMD_CONTINUE);
	CHECK_EQ(r2, MSPROF_CMD_CONTINUE);
	CHECK_EQ(r3, MSPROF_CMD_QUIT);
	CHECK_EQ(f.n_got, 3);
	CHECK(fake_got(&f, 0, DYNPROF_START_REQ));
	CHECK(fake_got(&f, 1, DYNPROF_STOP_REQ));
	CHECK(fake_got(&f, 2, DYNPROF_QUIT_REQ));
	CHECK_EQ(f.running_at[0], 1); /* capture enabled before START_REQ */
	CHECK_EQ(f.running_at[1], 1); /* still capturing when STOP_REQ goes out */
	CHECK_EQ(fake_ss.starts, 1);
	CHECK_EQ(fake_ss.stops, 1);
	CHECK_EQ(fake_ss.discards, 0);
	CHECK_EQ(fake_ss.running, 0);
	CHECK_EQ(d.t[0].fd, -1);
	CHECK_STR(out, "dynamic profiling for pid 42 start success\n"
		       "dynamic profiling for pid 42 stop success\n"
		       "PROF data saved in /out/PROF_000001_20260101000000000_00000042ABCDEFGH: "
		       "12 api records, 34 device task events, 0 records lost\n"
		       "dynamic profiling for pid 42 quit success\n");
	free(out);
	return CHECK_DONE();
}
