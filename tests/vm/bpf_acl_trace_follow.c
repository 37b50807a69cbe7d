// SPDX-License-Identifier: MIT
/*
 * Description: following a launcher records every process it starts from
 * the process's first call.
 *
 * The probes sit on libascendcl.so (this process maps it and is attached).
 * A launcher child is followed (npuprof_acl_trace_follow_pid) before it
 * does anything; it makes no ACL call itself, then starts three ranks: one
 * forked that calls at once (6 calls), one forked that forks a grandchild
 * (4 calls by the grandchild, 2 by the middle process), and one that execs
 * this binary again in "rank" mode (5 calls).  Exactly those 17 records
 * arrive, each under its own pid; a sibling of the launcher that is not
 * followed makes 30 calls and leaves none; after the ranks exited, the
 * launcher's and every rank's pid have left the filter (looked up in it),
 * and a new unrelated process is not recorded.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <stdio.h>
#include <string.h>
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

static void reap(pid_t pid)
{
	int status = 0;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		_exit(1);
}

/* The launcher: starts the three ranks and waits for them. */
static void launcher(const char *self)
{
	pid_t a, b, c;

	a = fork();
	if (a == 0) {
		copies(6);
		_exit(0);
	}
	b = fork();
	if (b == 0) {
		pid_t g = fork();

		if (g == 0) {
			copies(4);
			_exit(0);
		}
		copies(2);
		reap(g);
		_exit(0);
	}
	c = fork();
	if (c == 0) {
		execl(self, self, "rank", (char *)NULL);
		_exit(1);
	}
	reap(a);
	reap(b);
	reap(c);
}

/* Fork a child that waits for a byte on @go's pipe, then runs @fn. */
static pid_t spawn(void (*fn)(const char *), const char *self, int *go)
{
	pid_t pid = bpf_test_fork_waiting(go);

	if (pid)
		return pid;
	fn(self);
	_exit(0);
}

static void bystander(const char *self)
{
	(void)self;
	copies(30);
}

static void go_and_reap(pid_t pid, int go)
{
	int status = 0;

	CHECK_EQ(write(go, "x", 1), 1);
	close(go);
	CHECK_EQ(waitpid(pid, &status, 0), pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

int main(int argc, char **argv)
{
	struct npuprof_acl_trace *t;
	struct api_log log = { 0 };
	pid_t lpid, other;
	int go_l, go_o;
	size_t i, others = 0;

	if (argc == 2 && !strcmp(argv[1], "rank")) {
		copies(5);
		return 0;
	}
	if (geteuid() != 0)
		CHECK_SKIP("needs root (BPF uprobes)");
	CHECK_EQ(npuprof_acl_trace_open_follow(64 * 1024, &t), 0);
	if (!t)
		return CHECK_DONE();
	lpid = spawn(launcher, "/proc/self/exe", &go_l);
	other = spawn(bystander, NULL, &go_o);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0); /* places the probes */
	CHECK_EQ(npuprof_acl_trace_detach_pid(t, getpid()), 0); /* ...but records none of ours */
	CHECK_EQ(npuprof_acl_trace_follow_pid(t, lpid), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	go_and_reap(lpid, go_l);
	go_and_reap(other, go_o);

	CHECK_EQ(bpf_test_drain(t, &log), 17);
	CHECK_EQ(api_log_count_pid(&log, lpid), 0);
	CHECK_EQ(api_log_count_pid(&log, other), 0);
	for (i = 0; i < log.nr; i++)
		others += log.recs[i].pid == (uint32_t)lpid;
	CHECK_EQ(others, 0);
	CHECK_EQ(npuprof_acl_trace_follow_missed(t), 0);

	/* the ranks (and the launcher) have left the filter at their exit */
	CHECK_EQ(npuprof_acl_trace_selected(t, lpid), 0);
	for (i = 0; i < log.nr; i++)
		if (npuprof_acl_trace_selected(t, (pid_t)log.recs[i].pid)) {
			fprintf(stderr, "pid %u still selected after its exit\n", log.recs[i].pid);
			check_failures++;
			break;
		}
	/* a new process, whatever pid it gets, is not recorded */
	other = spawn(bystander, NULL, &go_o);
	go_and_reap(other, go_o);
	CHECK_EQ(bpf_test_drain(t, &log), 0);

	npuprof_acl_trace_close(t);
	free(log.recs);
	return CHECK_DONE();
}
