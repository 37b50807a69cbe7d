// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_proc_environ() reads the environment a process was
 * exec'd with: a child exec'd with exactly {"A=1", "RANK=7"} gives the 11
 * bytes "A=1\0RANK=7\0"; a 5-byte buffer gets the first 4 of them and a
 * NUL; a pid that does not exist gives -ENOENT.  Both readers of it (the
 * session's RANK, msprof's HOME of an app in a container) go through it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "dead_pid.h"
#include <npuprof/proc_id.h>

int main(void)
{
	static const char want[] = "A=1\0RANK=7";
	char *const argv[] = { "sleep", "30", NULL };
	char *const envp[] = { "A=1", "RANK=7", NULL };
	char buf[64];
	int pipefd[2], status;
	pid_t child;
	char c;

	CHECK_EQ(pipe2(pipefd, O_CLOEXEC), 0);
	child = fork();
	if (child == 0) {
		close(pipefd[0]);
		execve("/bin/sleep", argv, envp); /* the pipe closes at exec */
		_exit(127);
	}
	CHECK(child > 0);
	close(pipefd[1]);
	CHECK_EQ(read(pipefd[0], &c, 1), 0); /* EOF: exec'd (or failed) */
	close(pipefd[0]);

	CHECK_EQ(npuprof_proc_environ(child, buf, sizeof(buf)), (ssize_t)sizeof(want));
	CHECK(!memcmp(buf, want, sizeof(want)));
	CHECK_EQ(npuprof_proc_environ(child, buf, 5), 4);
	CHECK(!memcmp(buf, "A=1\0", 5));
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	CHECK_EQ(npuprof_proc_environ(dead_pid(), buf, sizeof(buf)), -ENOENT);
	return CHECK_DONE();
}
