// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_proc_getenv() reads one variable of the environment
 * a process was exec'd with, however long it is.  A child exec'd with
 * exactly {"A=1", "BIG=" + 70000 x's, "RANK=7", "HOME=/tmp/jobhome"} (an
 * attack found that a HOME past the first 64 KiB was never found: msprof
 * then looked for the app's server in its own HOME) gives A "1", RANK "7"
 * and HOME "/tmp/jobhome"; a variable it lacks gives -ENODATA; a value
 * longer than the buffer -ENAMETOOLONG; a pid that does not exist
 * -ENOENT.  Both readers (the session's RANK, msprof's HOME of an app) go
 * through it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "dead_pid.h"
#include <npuprof/proc_id.h>

#define BIG_LEN 70000

int main(void)
{
	char *const argv[] = { "sleep", "30", NULL };
	char *big = malloc(BIG_LEN + 5);
	char *envp[] = { "A=1", big, "RANK=7", "HOME=/tmp/jobhome", NULL };
	char buf[64];
	int pipefd[2], status;
	pid_t child;
	char c;

	CHECK(big != NULL);
	if (!big)
		return CHECK_DONE();
	memcpy(big, "BIG=", 4);
	memset(big + 4, 'x', BIG_LEN);
	big[BIG_LEN + 4] = '\0';
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

	CHECK_EQ(npuprof_proc_getenv(child, "A", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "1");
	CHECK_EQ(npuprof_proc_getenv(child, "RANK", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "7");
	CHECK_EQ(npuprof_proc_getenv(child, "HOME", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/tmp/jobhome");
	CHECK_EQ(npuprof_proc_getenv(child, "RAN", buf, sizeof(buf)), -ENODATA);
	CHECK_EQ(npuprof_proc_getenv(child, "PATH", buf, sizeof(buf)), -ENODATA);
	CHECK_EQ(npuprof_proc_getenv(child, "BIG", buf, sizeof(buf)), -ENAMETOOLONG);
	CHECK_EQ(npuprof_proc_getenv(child, "HOME", buf, 12), -ENAMETOOLONG);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	CHECK_EQ(npuprof_proc_getenv(dead_pid(), "HOME", buf, sizeof(buf)), -ENOENT);
	free(big);
	return CHECK_DONE();
}
