// SPDX-License-Identifier: MIT
/*
 * The launcher form of the sample AI task (--ranks=N), after torchrun and
 * mpirun: it calls no ACL function itself, so it opens no device and no
 * dynamic-profiling server, and starts N rank processes, rank r on device
 * --device + r with RANK, LOCAL_RANK and WORLD_SIZE in its environment.
 * --spawn=fork runs the rank in the forked child; --spawn=exec has the
 * child exec /proc/self/exe with rank_argv()'s command line, as launchers
 * exec their workers.  The launcher then waits for every rank, passes
 * SIGINT and SIGTERM on to the ranks still running, and names each rank
 * that did not exit 0.
 *
 * Signals are taken with sigwaitinfo() on a blocked set rather than by
 * handlers, so reaping and forwarding are one loop with no race against a
 * rank's exit; each rank gets the launcher's original mask back.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ai_task.h"

/* struct rank_proc - one rank as the launcher sees it */
struct rank_proc {
	pid_t pid;  /* 0: not started */
	int device;
	int done;   /* reaped; @status holds its wait status */
	int status;
	int error;  /* -errno: could not be started */
};

struct launch {
	const struct options *opt;
	const char *argv0;
	sigset_t waited;   /* SIGCHLD, SIGINT, SIGTERM: blocked, taken by sigwaitinfo */
	sigset_t old_mask; /* what the ranks get back */
	struct rank_proc *ranks;
	unsigned int live;
};

/* In a rank: the environment torchrun gives a worker.  Return 0 or -errno. */
static int set_rank_env(unsigned int rank, unsigned int world_size)
{
	char v[16];

	snprintf(v, sizeof(v), "%u", rank);
	if (setenv("RANK", v, 1) || setenv("LOCAL_RANK", v, 1))
		return -errno;
	snprintf(v, sizeof(v), "%u", world_size);
	return setenv("WORLD_SIZE", v, 1) ? -errno : 0;
}

/* In the forked child: become rank @r, by exec when @argv is set.  No return. */
static void __attribute__((noreturn)) rank_child(const struct launch *l, unsigned int r,
						 char **argv)
{
	struct options o = *l->opt;

	sigprocmask(SIG_SETMASK, &l->old_mask, NULL);
	if (set_rank_env(r, l->opt->ranks)) {
		fprintf(stderr, "ai_task: rank %u: cannot set RANK, LOCAL_RANK and WORLD_SIZE: %s\n", r,
			strerror(errno));
		_exit(1);
	}
	if (argv) {
		execv("/proc/self/exe", argv);
		fprintf(stderr, "ai_task: rank %u: cannot exec /proc/self/exe: %s\n", r, strerror(errno));
		_exit(127);
	}
	o.ranks = 0;
	o.rank = (int)r;
	o.world_size = l->opt->ranks;
	o.device = l->opt->device + (int)r;
	exit(run_rank(&o));
}

/* Start rank @r.  Return: 0 or -errno (also kept in the rank's entry). */
static int spawn_rank(struct launch *l, unsigned int r)
{
	struct rank_proc *rp = &l->ranks[r];
	char **argv = NULL;
	pid_t pid;

	rp->device = l->opt->device + (int)r;
	if (l->opt->spawn == SPAWN_EXEC) {
		argv = rank_argv(l->opt, r, l->argv0);
		if (!argv)
			return rp->error = -ENOMEM;
	}
	fflush(NULL); /* a child must not write out our buffers again */
	pid = fork();
	if (pid == 0)
		rank_child(l, r, argv);
	if (pid < 0)
		rp->error = -errno;
	free_argv(argv);
	if (pid < 0)
		return rp->error;
	rp->pid = pid;
	l->live++;
	return 0;
}

/* Collect every rank that has exited. */
static void reap_ranks(struct launch *l)
{
	unsigned int r;
	pid_t pid;
	int status;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (r = 0; r < l->opt->ranks; r++) {
			if (l->ranks[r].pid != pid || l->ranks[r].done)
				continue;
			l->ranks[r].done = 1;
			l->ranks[r].status = status;
			l->live--;
		}
	}
}

static void signal_ranks(const struct launch *l, int sig)
{
	unsigned int r;

	for (r = 0; r < l->opt->ranks; r++)
		if (l->ranks[r].pid && !l->ranks[r].done)
			kill(l->ranks[r].pid, sig);
}

/* Until no rank runs: reap the ones that exit, pass on SIGINT and SIGTERM. */
static void wait_ranks(struct launch *l)
{
	int sig;

	reap_ranks(l);
	while (l->live) {
		sig = sigwaitinfo(&l->waited, NULL);
		if (sig == SIGCHLD) {
			reap_ranks(l);
		} else if (sig > 0) {
			if (!l->opt->quiet)
				fprintf(stderr, "ai_task: %s: passing it on to %u running rank(s)\n",
					strsignal(sig), l->live);
			signal_ranks(l, sig);
		}
	}
}

/* Name each rank that did not exit 0.  Return: how many. */
static unsigned int report_ranks(const struct launch *l)
{
	const struct rank_proc *rp;
	unsigned int r, failed = 0;

	for (r = 0; r < l->opt->ranks; r++) {
		rp = &l->ranks[r];
		if (rp->done && WIFEXITED(rp->status) && WEXITSTATUS(rp->status) == 0)
			continue;
		failed++;
		if (!rp->pid && rp->error)
			fprintf(stderr, "ai_task: rank %u (device %d) could not be started: %s\n", r,
				rp->device, strerror(-rp->error));
		else if (!rp->pid)
			fprintf(stderr, "ai_task: rank %u (device %d) was not started: an earlier rank could not be\n",
				r, rp->device);
		else if (WIFEXITED(rp->status))
			fprintf(stderr, "ai_task: rank %u (pid %d, device %d) failed: exit status %d\n", r,
				(int)rp->pid, rp->device, WEXITSTATUS(rp->status));
		else
			fprintf(stderr, "ai_task: rank %u (pid %d, device %d) failed: killed by signal %d (%s)\n",
				r, (int)rp->pid, rp->device, WTERMSIG(rp->status),
				strsignal(WTERMSIG(rp->status)));
	}
	return failed;
}

int launch_ranks(const struct options *opt, const char *argv0)
{
	struct launch l = { .opt = opt, .argv0 = argv0 };
	unsigned int r, failed;

	l.ranks = calloc(opt->ranks, sizeof(*l.ranks));
	if (!l.ranks) {
		fprintf(stderr, "ai_task: out of memory for %u ranks\n", opt->ranks);
		return 1;
	}
	/* An inherited SIG_IGN would have the kernel reap the ranks for us. */
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&l.waited);
	sigaddset(&l.waited, SIGCHLD);
	sigaddset(&l.waited, SIGINT);
	sigaddset(&l.waited, SIGTERM);
	sigprocmask(SIG_BLOCK, &l.waited, &l.old_mask);
	if (!opt->quiet)
		fprintf(stderr, "ai_task: launcher pid %d: %u rank(s) by %s on devices %d..%u\n",
			(int)getpid(), opt->ranks, opt->spawn == SPAWN_EXEC ? "fork+exec" : "fork",
			opt->device, opt->device + opt->ranks - 1);
	for (r = 0; r < opt->ranks; r++) {
		if (spawn_rank(&l, r)) {
			signal_ranks(&l, SIGTERM); /* a job without all its ranks is no job */
			break;
		}
	}
	wait_ranks(&l);
	failed = report_ranks(&l);
	if (!failed && !opt->quiet)
		fprintf(stderr, "ai_task: all %u rank(s) exited 0\n", opt->ranks);
	free(l.ranks);
	return failed ? 1 : 0;
}
