// SPDX-License-Identifier: MIT
/*
 * Description: a followed process's new processes are recorded from their
 * first task, under their own pids.  The session follows process P
 * (ADD_TGID_FLAGS FOLLOW) and enables capture; then P, told to go, starts
 * a thread (6 "thread" kernels) and forks three children that submit
 * right after starting, with no word from anybody: a fork-only child (7
 * "fork_only"), a child that execs tests/vm/helper_npu_kernels (8
 * "fork_exec"), and an intermediate child that submits nothing but forks
 * a grandchild (9 "grandchild"); P itself submits 5 "parent" kernels.
 * Each syncs its stream and exits.  The session then holds exactly every
 * one of their SUBMIT, START and END records and one STREAM_SYNC each
 * (110 records), each under its own pid and tid, the thread's under P's
 * pid; written 110, lost 0.  FOLLOW_STATS: 4 joined (the three children
 * and the grandchild, not the thread), 0 missed; once all exited, 0 tgids
 * left and TGID_OWNER of each of the five pids is 0.  Skips without npusim.
 */
#include <libgen.h>
#include "kmod_follow.h"

#define K_PARENT 5
#define K_THREAD 6
#define K_FORK 7
#define K_EXEC 8
#define K_GRAND 9

/* What P reports: one word for the role, one for the pid or tid. */
enum { R_THREAD = 1, R_FORK, R_EXEC, R_MIDDLE, R_GRAND, R_DONE };

/* Each report is 8 bytes, one write(): atomic on a pipe, so writers mix. */
static int report(int fd, uint32_t role, uint32_t id)
{
	uint32_t msg[2] = { role, id };

	return write(fd, msg, sizeof(msg)) == sizeof(msg) ? 0 : -1;
}

static void *thread_fn(void *arg)
{
	int fd = *(int *)arg;

	if (report(fd, R_THREAD, (uint32_t)gettid()) ||
	    kt_run_kernels(K_THREAD, "thread"))
		return (void *)1;
	return NULL;
}

/* Fork a child running @fn(@arg); report it as @role.  Its pid or -1. */
static pid_t spawn(int out, uint32_t role, int (*fn)(const void *arg, int out),
		   const void *arg)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg, out));
	if (pid > 0 && report(out, role, (uint32_t)pid))
		return -1;
	return pid;
}

static int fork_only(const void *arg, int out)
{
	(void)arg;
	(void)out;
	return kt_run_kernels(K_FORK, "fork_only");
}

static int fork_exec(const void *helper, int out)
{
	char count[16];

	(void)out;
	snprintf(count, sizeof(count), "%d", K_EXEC);
	execl(helper, helper, count, "fork_exec", (char *)NULL);
	return 127;
}

static int grandchild(const void *arg, int out)
{
	(void)arg;
	(void)out;
	return kt_run_kernels(K_GRAND, "grandchild");
}

static int wait_ok(pid_t pid)
{
	int status;

	return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

static int middle(const void *arg, int out)
{
	(void)arg;
	return wait_ok(spawn(out, R_GRAND, grandchild, NULL)) ? 0 : 4;
}

/* P: on the word, a thread, three children, its own kernels; report all. */
static int run_parent(void *arg, struct kt_child_io *io)
{
	pid_t kids[3];
	pthread_t th;
	void *th_ret = (void *)1;
	uint32_t go, failed = 0;
	unsigned int i;

	if (kt_recv(io->in, &go))
		return 2;
	if (pthread_create(&th, NULL, thread_fn, &io->out))
		return 3;
	kids[0] = spawn(io->out, R_FORK, fork_only, NULL);
	kids[1] = spawn(io->out, R_EXEC, fork_exec, arg);
	kids[2] = spawn(io->out, R_MIDDLE, middle, NULL);
	if (kt_run_kernels(K_PARENT, "parent"))
		failed++;
	for (i = 0; i < 3; i++)
		failed += !wait_ok(kids[i]);
	if (pthread_join(th, &th_ret) || th_ret)
		failed++;
	return report(io->out, R_DONE, failed) ? 4 : 0;
}

/* Read P's reports into the sources; return P's failure count. */
static uint32_t collect(struct kt_child *p, struct kt_srcs *t, uint32_t pids[5])
{
	uint32_t msg[2];

	kt_srcs_add(t, p->pid, p->pid, "parent", K_PARENT);
	pids[0] = p->pid;
	while (read(p->from_child, msg, sizeof(msg)) == sizeof(msg)) {
		switch (msg[0]) {
		case R_THREAD:
			kt_srcs_add(t, p->pid, msg[1], "thread", K_THREAD);
			break;
		case R_FORK:
			kt_srcs_add(t, msg[1], msg[1], "fork_only", K_FORK);
			pids[1] = msg[1];
			break;
		case R_EXEC:
			kt_srcs_add(t, msg[1], msg[1], "fork_exec", K_EXEC);
			pids[2] = msg[1];
			break;
		case R_MIDDLE:
			kt_srcs_add(t, msg[1], msg[1], "middle", 0);
			pids[3] = msg[1];
			break;
		case R_GRAND:
			kt_srcs_add(t, msg[1], msg[1], "grandchild", K_GRAND);
			pids[4] = msg[1];
			break;
		case R_DONE:
			return msg[1];
		}
	}
	return UINT32_MAX;
}

static void helper_path(char *buf, size_t size)
{
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/helper_npu_kernels", dirname(self));
}

int main(void)
{
	static struct kt_dev d;
	static struct kt_srcs t;
	static char helper[4200];
	struct npuprof_follow_stats st;
	uint32_t pids[5] = { 0 };
	uint64_t written, lost;
	struct kt_child p;
	unsigned int i;
	int warnings;

	kt_require();
	helper_path(helper, sizeof(helper));
	if (access(helper, X_OK) != 0)
		CHECK_SKIP("helper_npu_kernels not built (make tests)");
	warnings = kt_kernel_warnings();
	kt_load_npusim(NULL);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_child_start(&p, run_parent, helper), 0);
	CHECK_EQ(kt_follow(&d, p.pid), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_send(p.to_child, 1), 0);

	CHECK_EQ(collect(&p, &t, pids), 0);
	CHECK_EQ(t.n, 6);
	CHECK_EQ(kt_child_wait(&p), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);

	CHECK_EQ(kt_consume(&d, kt_srcs_rec, &t), 110);
	CHECK_EQ(kt_srcs_expected(&t), 110);
	kt_srcs_check(&t);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 110);
	CHECK_EQ(lost, 0);

	CHECK_EQ(kt_follow_stats(&d, &st), 0);
	CHECK_EQ(st.joined, 4);
	CHECK_EQ(st.missed, 0);
	CHECK_EQ(st.nr_tgids, 0);
	for (i = 0; i < 5; i++) {
		CHECK(pids[i] != 0);
		CHECK_EQ(kt_owner(&d, pids[i]), 0);
	}
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DEL_TGID, p.pid), -ENOENT);

	kt_close(&d);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
