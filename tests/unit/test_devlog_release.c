// SPDX-License-Identifier: MIT
/*
 * Description: a channel the reader started is stopped on every exit
 * path, not only by npuprof_devlog_stop().  Freed without a stop (an
 * error path), the reader flushes, stops and closes: one prof_stop.  A
 * process that exits with its reader still running (exit(3) from an
 * error, or a signal handler that exits) stops it in its atexit handler:
 * a check registered before the reader, so run after its handler, finds
 * prof_stop called once and the channel no longer running.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "fake_ascend_hal.h"
#include <npuprof/devlog.h>

static struct fakehal hal;

static void exit_check(void)
{
	struct fakehal_calls c;

	hal.calls(&c);
	_exit(c.stops[2] == 1 && c.flushes[2] == 1 && !c.started[2] ? 0 : 3);
}

static void exit_path(void)
{
	static const int devs[] = { 2 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 1, .proc_root = "/nonexistent" };
	struct npuprof_devlog *l;
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		hal.reset();
		atexit(exit_check); /* runs after the reader's own handler */
		if (npuprof_devlog_start(&o, &l))
			_exit(4);
		exit(0); /* neither stopped nor freed */
	}
	CHECK(pid > 0);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
}

int main(void)
{
	static const int devs[] = { 1 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 1, .proc_root = "/nonexistent" };
	struct npuprof_devlog *l;
	struct fakehal_calls c;

	if (fakehal_load(&hal))
		CHECK_SKIP("build/tests/fixtures/libascend_hal.so not built");
	exit_path(); /* first: the child's check must be registered before the reader's handler */
	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	hal.calls(&c);
	CHECK_EQ(c.started[1], 1);
	npuprof_devlog_free(l);
	hal.calls(&c);
	CHECK_EQ(c.stops[1], 1);
	CHECK_EQ(c.flushes[1], 1);
	CHECK_EQ(c.started[1], 0);
	return CHECK_DONE();
}
