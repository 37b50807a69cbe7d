// SPDX-License-Identifier: MIT
/*
 * Description: when the app exits or its server closes the connection in
 * the middle of a capture, the loop stops the capture (the data so far is
 * saved), says so, and ends: -ESRCH for an exited app ("server process N
 * has exited"), -ECONNRESET for a closed connection of a live app.  The
 * server stops collecting when its connection closes, so with
 * --require-server=on a closed connection in the middle of a window makes
 * that window incomplete; by default the app is captured on from the
 * kernel side and the window is whole.
 */
#include <sys/wait.h>

#include "check.h"
#include "cmdloop_fake.h"

/*
 * Server closes after START; the app (this process) lives on.  With
 * --require-server=on (CANN's behaviour) the capture ends there.
 */
static void test_connection_closed(void)
{
	struct fake_server f = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS }, { FAKE_CLOSE, 0 } },
		.n = 2,
	};
	char want[1024];
	struct msprof_dyn d;
	struct capture c;
	int fd, pfd[2], rc;
	char *out;

	if (fake_server_start(&f, &fd) || pipe(pfd))
		CHECK_SKIP("socketpair/pthread/pipe failed");
	fake_dyn_init(&d, fd);
	d.t[0].app_pid = getpid();
	d.require_server = 1;
	/* "start", then the server's second reply never comes: it closes. */
	CHECK_EQ(write(pfd[1], "start\nstop\n", 11), 11);

	capture_begin(&c);
	rc = msprof_cmd_loop(&d, pfd[0]);
	out = capture_end(&c);
	close(pfd[0]);
	close(pfd[1]);
	fake_server_join(&f);

	CHECK_EQ(rc, -ECONNRESET);
	CHECK_EQ(d.t[0].fd, -1);
	CHECK_EQ(fake_ss.stops, 1);
	CHECK_EQ(fake_ss.running, 0);
	CHECK_EQ(d.incomplete, 1);
	CHECK_EQ(d.failures, 0);
	snprintf(want, sizeof(want),
		 "dynamic profiling for pid %d start success\n"
		 "[WARNING] msprof: server process %d closed the connection (no start within 30 min, "
		 "or 100 commands on one connection): run msprof again to reconnect\n"
		 "[WARNING] msprof: pid %d stopped collecting when its connection closed: "
		 "its data of this window ends there\n"
		 "saving the data collected so far\n"
		 "PROF data saved in /out/PROF_000001_20260101000000000_00000042ABCDEFGH: "
		 "12 api records, 34 device task events, 0 records lost\n",
		 (int)d.t[0].app_pid, (int)d.t[0].app_pid, (int)d.t[0].app_pid);
	CHECK_STR(out, want);
	free(out);
}

/*
 * The same by default: the capture needs no server, so the app goes on
 * from the kernel side (said once); the window is whole, stop and quit are
 * answered for it.
 */
static void test_connection_closed_kernel_side(void)
{
	struct fake_server f = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS }, { FAKE_CLOSE, 0 } },
		.n = 2,
	};
	char want[1024];
	struct msprof_dyn d;
	char *out;
	int fd, rc;

	if (fake_server_start(&f, &fd))
		CHECK_SKIP("socketpair/pthread failed");
	fake_dyn_init(&d, fd);
	d.t[0].app_pid = getpid();
	rc = fake_loop_input(&d, "start\nstop\n", &out);
	fake_server_join(&f);

	CHECK_EQ(rc, 0);
	CHECK_EQ(d.t[0].fd, -1);
	CHECK_EQ(d.t[0].kernel_only, 1);
	CHECK_EQ(fake_ss.stops, 1);
	CHECK_EQ(d.incomplete, 0);
	CHECK_EQ(d.failures, 0);
	snprintf(want, sizeof(want),
		 "dynamic profiling for pid %d start success\n"
		 "[WARNING] msprof: pid %d: its server closed the connection: capturing it from the kernel "
		 "side only from now on (--require-server=on drops it instead)\n"
		 "dynamic profiling for pid %d stop success\n"
		 "PROF data saved in /out/PROF_000001_20260101000000000_00000042ABCDEFGH: "
		 "12 api records, 34 device task events, 0 records lost\n"
		 "dynamic profiling for pid %d quit success\n",
		 (int)getpid(), (int)getpid(), (int)getpid(), (int)getpid());
	CHECK_STR(out, want);
	free(out);
}

/* Launch mode: the child app exits while capturing; stdin stays open. */
static void test_app_exited(void)
{
	struct fake_server f = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_SUCCESS } },
		.n = 1,
	};
	char want[1024];
	struct msprof_dyn d;
	struct capture c;
	int fd, pfd[2], rc;
	pid_t child;
	char *out;

	if (fake_server_start(&f, &fd) || pipe(pfd))
		CHECK_SKIP("socketpair/pthread/pipe failed");
	fake_dyn_init(&d, fd);
	child = fork();
	if (child == 0) {
		usleep(300 * 1000);
		_exit(3);
	}
	d.child = child;
	d.t[0].app_pid = child;
	CHECK_EQ(write(pfd[1], "start\n", 6), 6);

	capture_begin(&c);
	rc = msprof_cmd_loop(&d, pfd[0]);
	out = capture_end(&c);
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
	fake_server_join(&f);

	CHECK_EQ(rc, -ESRCH);
	CHECK_EQ(d.child_reaped, 1);
	CHECK(WIFEXITED(d.child_status) && WEXITSTATUS(d.child_status) == 3);
	CHECK_EQ(fake_ss.stops, 1);
	CHECK_EQ(d.incomplete, 0); /* the app ended: its data ends with it */
	snprintf(want, sizeof(want),
		 "dynamic profiling for pid %d start success\n"
		 "server process %d has exited\n"
		 "saving the data collected so far\n"
		 "PROF data saved in /out/PROF_000001_20260101000000000_00000042ABCDEFGH: "
		 "12 api records, 34 device task events, 0 records lost\n",
		 (int)child, (int)child);
	CHECK_STR(out, want);
	free(out);
}

int main(void)
{
	test_connection_closed();
	test_connection_closed_kernel_side();
	test_app_exited();
	return CHECK_DONE();
}
