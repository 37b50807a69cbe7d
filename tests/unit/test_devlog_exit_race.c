// SPDX-License-Identifier: MIT
/*
 * Description: a process that exits while another of its threads is
 * inside npuprof_devlog_stop() (a slow prof_stop: 1 s here) neither
 * stops the channel twice nor leaves before it is stopped: the reader's
 * atexit handler waits for that stop.  The child calls exit(3) 200 ms
 * into it; a check registered before the reader (so run after its
 * handler) finds prof_stop called exactly once and the channel no longer
 * running, and the child is gone within 8 s with status 0.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "fake_ascend_hal.h"
#include <npuprof/devlog.h>

static struct fakehal hal;

static void exit_check(void)
{
	struct fakehal_calls c;

	hal.calls(&c);
	_exit(c.stops[3] == 1 && !c.started[3] ? 0 : 3);
}

static void *stopper(void *arg)
{
	npuprof_devlog_stop(arg);
	return NULL;
}

static void child(void)
{
	static const int devs[] = { 3 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 1, .proc_root = "/nonexistent" };
	struct fakehal_dev s = { .stop_ms = 1000 };
	struct timespec pause = { 0, 200 * 1000000L };
	struct npuprof_devlog *l;
	pthread_t th;

	hal.reset();
	hal.script(3, &s);
	atexit(exit_check); /* runs after the reader's own handler */
	if (npuprof_devlog_start(&o, &l) || pthread_create(&th, NULL, stopper, l))
		_exit(4);
	nanosleep(&pause, NULL);
	exit(0);
}

int main(void)
{
	int status = -1, waited = 0;
	pid_t pid, got = 0;

	if (fakehal_load(&hal))
		CHECK_SKIP("build/tests/fixtures/libascend_hal.so not built");
	pid = fork();
	if (pid == 0)
		child();
	CHECK(pid > 0);
	for (; pid > 0 && waited < 8000; waited += 50) {
		struct timespec step = { 0, 50 * 1000000L };

		got = waitpid(pid, &status, WNOHANG);
		if (got)
			break;
		nanosleep(&step, NULL);
	}
	if (!got && pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	CHECK_EQ(got, pid);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 0);
	return CHECK_DONE();
}
