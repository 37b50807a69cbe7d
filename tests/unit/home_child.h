/* SPDX-License-Identifier: MIT */
/*
 * A child process exec'd with a HOME of the test's choosing, for tests of
 * what msprof reads from /proc/PID/environ (the environment a process was
 * started with, which a fork without an exec does not change).
 */
#ifndef NPUPROF_TEST_HOME_CHILD_H
#define NPUPROF_TEST_HOME_CHILD_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Start /bin/sleep with HOME=@home as its only environment (NULL: an
 * empty environment), and return once it runs sleep; its pid, or -1.
 */
static inline pid_t home_child_start(const char *home)
{
	char env[512], path[64], comm[32] = "";
	char *envp[] = { env, NULL };
	pid_t pid;
	FILE *f;

	snprintf(env, sizeof(env), "HOME=%s", home ? home : "");
	pid = fork();
	if (pid == 0) {
		execle("/bin/sleep", "sleep", "30", (char *)NULL, home ? envp : &envp[1]);
		_exit(127);
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	for (int i = 0; pid > 0 && i < 500 && strncmp(comm, "sleep", 5); i++) {
		f = fopen(path, "re");
		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = '\0';
			fclose(f);
		}
		usleep(10000);
	}
	return pid;
}

/* Kill and reap the child. */
static inline void home_child_stop(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

#endif /* NPUPROF_TEST_HOME_CHILD_H */
