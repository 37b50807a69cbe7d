// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_acl_trace_attach_pid() refuses what it cannot trace
 * and leaves nothing behind.
 *
 * A pid that no longer exists gives -ESRCH; a live process without
 * libascendcl.so mapped (a child exec'ing /bin/sleep) gives -ENOENT; pid 0
 * gives -EINVAL; and none of them is recorded afterwards.  Attaching to the
 * same process twice is fine.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>

#include <acl/acl.h>

#include "bpf_test.h"

static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

/* A live process that maps no libascendcl.so; wait until it has exec'd. */
static pid_t sleeper(void)
{
	char exe[64], link[64];
	pid_t pid = fork();
	int i;

	if (pid == 0) {
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)pid);
	for (i = 0; i < 500; i++) {
		ssize_t n = readlink(exe, link, sizeof(link) - 1);

		if (n > 0) {
			link[n] = '\0';
			if (strstr(link, "sleep"))
				break;
		}
		usleep(10000);
	}
	return pid;
}

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	struct api_log log = { 0 };
	pid_t pid;

	CHECK_EQ(npuprof_acl_trace_attach_pid(t, dead_pid()), -ESRCH);
	pid = sleeper();
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, pid), -ENOENT);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, 0), -EINVAL);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	aclrtSetDevice(0);
	CHECK_EQ(bpf_test_drain(t, &log), 0);

	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	aclrtSetDevice(0);
	CHECK_EQ(bpf_test_drain(t, &log), 1);

	npuprof_acl_trace_close(t);
	free(log.recs);
	return CHECK_DONE();
}
