// SPDX-License-Identifier: MIT
/*
 * Description: batch input (a pipe) runs line by line through the same
 * dispatch: commands run in order, a bad line is reported as stdin:N, no
 * prompt is printed, and end of input acts as quit (the running capture is
 * stopped first), so "start\nstop\nstart\n" sends START, STOP, START,
 * STOP, QUIT.
 */
#include "check.h"
#include "cmdloop_fake.h"

int main(void)
{
	static const char input[] = "start\n\nbogus\nstop\n  start  \n";
	struct fake_server f = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_STOP_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_START_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_STOP_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_QUIT_RSQ, DYNPROF_SUCCESS } },
		.n = 5,
	};
	const char *saved = "PROF data saved in /out/PROF_000001_20260101000000000_00000042ABCDEFGH: "
			    "12 api records, 34 device task events, 0 records lost\n";
	char want[4096];
	struct msprof_dyn d;
	struct capture c;
	int fd, pfd[2], rc;
	char *out;

	if (fake_server_start(&f, &fd) || pipe(pfd))
		CHECK_SKIP("socketpair/pthread/pipe failed");
	fake_dyn_init(&d, fd);
	d.t[0].app_pid = getpid(); /* alive for the loop's checks */
	CHECK_EQ(write(pfd[1], input, sizeof(input) - 1), (long)sizeof(input) - 1);
	close(pfd[1]);

	capture_begin(&c);
	rc = msprof_cmd_loop(&d, pfd[0]);
	out = capture_end(&c);
	close(pfd[0]);
	fake_server_join(&f);

	CHECK_EQ(rc, 0);
	CHECK_EQ(d.lineno, 5);
	CHECK_EQ(f.n_got, 5);
	CHECK(fake_got(&f, 0, DYNPROF_START_REQ));
	CHECK(fake_got(&f, 1, DYNPROF_STOP_REQ));
	CHECK(fake_got(&f, 2, DYNPROF_START_REQ));
	CHECK(fake_got(&f, 3, DYNPROF_STOP_REQ));
	CHECK(fake_got(&f, 4, DYNPROF_QUIT_REQ));
	CHECK_EQ(fake_ss.starts, 2);
	CHECK_EQ(fake_ss.stops, 2);
	snprintf(want, sizeof(want),
		 "dynamic profiling for pid %d start success\n"
		 "[ERROR] msprof: stdin:3: invalid option -- 'bogus'\n"
		 "Usage:\n"
		 "  start: Start a collection in interactive mode.\n"
		 "  stop: Stop a collection that was started in interactive mode.\n"
		 "  quit (q): Stop collection and quit interactive mode.\n"
		 "  status: List the controlled processes, whether each is capturing, and where to.\n"
		 "  help (h): Print this help.\n"
		 "dynamic profiling for pid %d stop success\n%s"
		 "dynamic profiling for pid %d start success\n"
		 "dynamic profiling for pid %d stop success\n%s"
		 "dynamic profiling for pid %d quit success\n",
		 (int)d.t[0].app_pid, (int)d.t[0].app_pid, saved, (int)d.t[0].app_pid, (int)d.t[0].app_pid, saved,
		 (int)d.t[0].app_pid);
	CHECK_STR(out, want);
	free(out);
	return CHECK_DONE();
}
