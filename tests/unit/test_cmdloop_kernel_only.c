// SPDX-License-Identifier: MIT
/*
 * Description: one prompt controls a process with a dynamic-profiling
 * server (pid 42, a scripted server) and two without (kernel_only): this
 * test process, and its parent recorded with a start time one tick off,
 * as if its pid had been given to another process since it was attached.
 * "start" reaches 42's server and answers for this process as a server
 * would ("start success (kernel side only)", and that it has opened no
 * NPU device yet); the reused pid is refused by name before the window
 * opens and leaves the session, never captured: a failure, with its
 * --result line.  "status", a second
 * "start" (ALREADY_START for both), "stop" and "quit" go on for the two
 * left.  The exact lines printed are checked.
 */
#include "check.h"
#include "cmdloop_fake.h"

int main(void)
{
	struct fake_server a = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_START_RSQ, DYNPROF_ALREADY_START },
			    { DYNPROF_STOP_RSQ, DYNPROF_SUCCESS },
			    { DYNPROF_QUIT_RSQ, DYNPROF_SUCCESS } },
		.n = 4,
	};
	pid_t self = getpid(), parent = getppid();
	unsigned long long parent_ticks;
	struct msprof_dyn d;
	struct capture c;
	int fa, res[5];
	char *out, want[4096];

	if (fake_server_start(&a, &fa))
		CHECK_SKIP("socketpair/pthread failed");
	fake_dyn_init(&d, fa);
	d.t[1] = (struct msprof_target){ .fd = -1, .app_pid = self, .kernel_only = 1 };
	d.t[2] = (struct msprof_target){ .fd = -1, .app_pid = parent, .kernel_only = 1 };
	CHECK_EQ(npuprof_proc_id_read(self, NULL, &d.t[1].id), 0);
	CHECK_EQ(npuprof_proc_id_read(parent, NULL, &d.t[2].id), 0);
	parent_ticks = d.t[2].id.start_ticks;
	d.t[2].id.start_ticks++; /* the process attached was another one */
	d.nr_targets = 3;
	d.tty = 1;
	d.result = tmpfile();
	fake_ss.nr_pids = 3;
	fake_ss.pids[0] = 42;
	fake_ss.pids[1] = self;
	fake_ss.pids[2] = parent;

	capture_begin(&c);
	res[0] = msprof_cmd_run_line(&d, "start");
	res[1] = msprof_cmd_run_line(&d, "status");
	res[2] = msprof_cmd_run_line(&d, "start");
	res[3] = msprof_cmd_run_line(&d, "stop");
	res[4] = msprof_cmd_run_line(&d, "quit");
	out = capture_end(&c);
	fake_server_join(&a);

	for (int i = 0; i < 4; i++)
		CHECK_EQ(res[i], MSPROF_CMD_CONTINUE);
	CHECK_EQ(res[4], MSPROF_CMD_QUIT);
	CHECK_EQ(fake_ss.starts, 1);
	CHECK_EQ(fake_ss.stops, 1);
	CHECK_EQ(fake_ss.removes, 1);
	CHECK_EQ(d.failures, 1); /* the reused pid: asked for, never captured */
	CHECK(fake_got(&a, 0, DYNPROF_START_REQ) && fake_got(&a, 1, DYNPROF_START_REQ));
	CHECK(fake_got(&a, 2, DYNPROF_STOP_REQ) && fake_got(&a, 3, DYNPROF_QUIT_REQ));
	CHECK_EQ(d.t[1].gone, 1);
	CHECK_EQ(d.t[2].gone, -ESRCH);
	snprintf(want, sizeof(want),
		 "[WARNING] msprof: pid %d now belongs to another process (started %llu clock ticks after boot, the attached one at %llu): the attached process has exited; not capturing the new one\n"
		 "dynamic profiling for pid 42 start success\n"
		 "dynamic profiling for pid %d start success (kernel side only)\n"
		 "pid %d has not opened an NPU device yet (no aclrtSetDevice): the capture is armed and records from its first device call\n"
		 "3 processes, capture running\n"
		 "  pid 42: connected, capturing into /out/PROF_x\n"
		 "  pid %d: no server, kernel side only, capturing into /out/PROF_x\n"
		 "  pid %d: gone (the process exited)\n"
		 "[WARNING] msprof: dynamic profiling for pid 42 already started\n"
		 "[WARNING] msprof: dynamic profiling for pid %d already started\n"
		 "dynamic profiling for pid 42 stop success\n"
		 "dynamic profiling for pid %d stop success\n"
		 "PROF data saved in /out/PROF_42: 10 api records, 20 device task events, 0 records lost\n"
		 "PROF data saved in /out/PROF_%d: 11 api records, 21 device task events, 0 records lost\n"
		 "dynamic profiling for pid 42 quit success\n"
		 "dynamic profiling for pid %d quit success\n",
		 (int)parent, parent_ticks, parent_ticks + 1, (int)self, (int)self, (int)self, (int)parent,
		 (int)self, (int)self, (int)self, (int)self);
	CHECK_STR(out, want);
	free(out);

	/* the reused pid's --result line: no PROF dir, why */
	{
		char line[1024] = "", pid_key[32];

		CHECK(d.result != NULL);
		rewind(d.result);
		CHECK(fgets(line, sizeof(line), d.result) != NULL);
		snprintf(pid_key, sizeof(pid_key), "\"pid\":%d,", (int)parent);
		CHECK(strstr(line, pid_key) != NULL);
		CHECK(strstr(line, "\"prof_dir\":null") != NULL);
		CHECK(strstr(line, "\"error\":\"its pid now names another process: the process exited before any capture window\"") != NULL);
		for (int n = 0; n < 2; n++) { /* then one per saved PROF dir */
			CHECK(fgets(line, sizeof(line), d.result) != NULL);
			CHECK(strstr(line, "\"prof_dir\":\"/out/PROF_") != NULL);
		}
		CHECK(!fgets(line, sizeof(line), d.result));
		fclose(d.result);
	}
	return CHECK_DONE();
}
