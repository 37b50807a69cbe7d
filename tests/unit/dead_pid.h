/* SPDX-License-Identifier: MIT */
/* A pid whose process has exited and been reaped, for tests of -ESRCH. */
#ifndef NPUPROF_TEST_DEAD_PID_H
#define NPUPROF_TEST_DEAD_PID_H

#include <sys/wait.h>
#include <unistd.h>

/* Fork a child that exits at once and reap it; its pid is then free. */
static inline pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

#endif /* NPUPROF_TEST_DEAD_PID_H */
