// SPDX-License-Identifier: MIT
/*
 * Description: the prompt's command table matches exact names and unique
 * prefixes ("sta" = start, "qu" = quit, "h" = help), rejects an ambiguous
 * prefix ("s") and unknown words with msprof's "invalid option -- 'w'"
 * plus the usage, ignores blank lines, and sends nothing for any of those.
 */
#include "check.h"
#include "cmdloop_fake.h"

static const char usage[] =
	"Usage:\n"
	"  start: Start a collection in interactive mode.\n"
	"  stop: Stop a collection that was started in interactive mode.\n"
	"  quit (q): Stop collection and quit interactive mode.\n"
	"  status: List the controlled processes, whether each is capturing, and where to.\n"
	"  help (h): Print this help.\n";

int main(void)
{
	struct fake_server f = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_STOP_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_QUIT_RSQ, DYNPROF_SUCCESS } },
		.n = 3,
	};
	char want[4096];
	struct msprof_dyn d;
	struct capture c;
	int fd, res[8];
	char *out;

	if (fake_server_start(&f, &fd))
		CHECK_SKIP("socketpair/pthread failed");
	fake_dyn_init(&d, fd);
	d.tty = 1; /* no "stdin:N:" prefix */

	capture_begin(&c);
	res[0] = msprof_cmd_run_line(&d, "   ");
	res[1] = msprof_cmd_run_line(&d, "");
	res[2] = msprof_cmd_run_line(&d, "foo");
	res[3] = msprof_cmd_run_line(&d, "s");
	res[4] = msprof_cmd_run_line(&d, "h");
	res[5] = msprof_cmd_run_line(&d, "sta");
	res[6] = msprof_cmd_run_line(&d, "start now"); /* whole line is the word */
	res[7] = msprof_cmd_run_line(&d, "qu"); /* running: stop, then quit */
	out = capture_end(&c);
	fake_server_join(&f);

	CHECK_EQ(res[0], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[1], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[2], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[3], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[4], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[5], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[6], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[7], MSPROF_CMD_QUIT);
	CHECK_EQ(f.n_got, 3);
	CHECK(fake_got(&f, 0, DYNPROF_START_REQ));
	CHECK(fake_got(&f, 1, DYNPROF_STOP_REQ));
	CHECK(fake_got(&f, 2, DYNPROF_QUIT_REQ));
	snprintf(want, sizeof(want),
		 "[ERROR] msprof: invalid option -- 'foo'\n%s"
		 "[ERROR] msprof: ambiguous option -- 's'\n%s"
		 "%s"
		 "dynamic profiling for pid 42 start success\n"
		 "[ERROR] msprof: invalid option -- 'start now'\n%s"
		 "dynamic profiling for pid 42 stop success\n"
		 "PROF data saved in /out/PROF_000001_20260101000000000_00000042ABCDEFGH: "
		 "12 api records, 34 device task events, 0 records lost\n"
		 "dynamic profiling for pid 42 quit success\n",
		 usage, usage, usage, usage);
	CHECK_STR(out, want);
	free(out);
	return CHECK_DONE();
}
