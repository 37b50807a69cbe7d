// SPDX-License-Identifier: MIT
/*
 * Description: the capture records only the processes it was attached to.
 *
 * With the probes live on libascendcl.so, a child that was not attached
 * makes 50 calls and must leave no record; a second child that was
 * attached (reusing the probes already on the same library file) makes 9
 * calls and the parent 7: exactly those 16 records arrive, each with the
 * right pid.  The attached child, once exited, is out of the filter (the
 * exit program; a process given its pid later is never recorded), and
 * the host-pid iterator finds live pids and not the exited one.  After
 * detaching the parent its calls stop being recorded.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <stdio.h>
#include <sys/wait.h>

#include <acl/acl.h>

#include "bpf_test.h"

static void copies(int n)
{
	static char src[256], dst[256];
	int i;

	for (i = 0; i < n; i++)
		aclrtMemcpy(dst, sizeof(dst), src, 16, ACL_MEMCPY_HOST_TO_HOST);
}

/*
 * Fork a child that waits for a byte on a pipe, makes @n calls and exits.
 * Return: its pid; *@go is the write end that starts it.
 */
static pid_t spawn_caller(int n, int *go)
{
	pid_t pid = bpf_test_fork_waiting(go);

	if (pid)
		return pid;
	copies(n);
	_exit(0);
}

static void run_and_reap(pid_t pid, int go)
{
	int status = 0;

	CHECK_EQ(write(go, "x", 1), 1);
	close(go);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	struct api_log log = { 0 };
	int go_other, go_traced;
	pid_t other, traced;
	uint64_t written, lost;

	other = spawn_caller(50, &go_other);
	traced = spawn_caller(9, &go_traced);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, traced), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	run_and_reap(other, go_other);
	run_and_reap(traced, go_traced);
	copies(7);

	CHECK_EQ(bpf_test_drain(t, &log), 16);
	CHECK_EQ(api_log_count_pid(&log, getpid()), 7);
	CHECK_EQ(api_log_count_pid(&log, traced), 9);
	CHECK_EQ(api_log_count_pid(&log, other), 0);
	/*
	 * The attached child has exited: the exit program took it out of
	 * the filter, so a later process given its pid is not recorded.
	 */
	CHECK_EQ(npuprof_acl_trace_selected(t, traced), 0);
	CHECK_EQ(npuprof_acl_trace_selected(t, getpid()), 1);
	/*
	 * The host-pid iterator, from the host's pid namespace: each pid is
	 * its own; one that no process has is -ESRCH (in a pid namespace of
	 * its own: tests/e2e/containers.sh).
	 */
	{
		pid_t host = 0;

		CHECK_EQ(npuprof_acl_trace_host_pid(t, getpid(), &host), 0);
		CHECK_EQ(host, getpid());
		CHECK_EQ(npuprof_acl_trace_host_pid(t, 1, &host), 0);
		CHECK_EQ(host, 1);
		CHECK_EQ(npuprof_acl_trace_host_pid(t, traced, &host), -ESRCH);
	}

	CHECK_EQ(npuprof_acl_trace_detach_pid(t, getpid()), 0);
	copies(5);
	CHECK_EQ(bpf_test_drain(t, &log), 0);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 16);
	CHECK_EQ(lost, 0);

	npuprof_acl_trace_close(t);
	free(log.recs);
	return CHECK_DONE();
}
