// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_proc_id_read(), _same() and npuprof_proc_stat_read()
 * (user/proc_id.c) on a fake procfs and on real processes:
 *  - a comm holding ") 9 (" and spaces does not shift the fields: start
 *    ticks 4242424242 (field 22), NSpid "7001 12 1" kept in order;
 *  - no NSpid line (kernels before 4.1): the pid alone;
 *  - a thread's entry: Tgid names its process; a Groups line of 33 KB
 *    before NSpid does not hide it;
 *  - a zombie ("Z") is -ESRCH to read and not the same process;
 *  - a stat line cut before field 22 is -EBADMSG; a missing pid -ESRCH;
 *  - the stat fields alone: a zombie's state 'Z', parent 4321 behind a
 *    comm "a) 5 (b", a parent field "?" is -EBADMSG, ours is getppid();
 *  - the same pid with another start time (reused) is not the same;
 *  - this process reads the same twice and is the same; a child that
 *    exited and was reaped is not;
 *  - npuprof_in_host_pid_ns() is 0 in a new pid namespace (as root).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <npuprof/proc_id.h>

#include "check.h"

static char root[] = "/tmp/npuprof_proc_id_XXXXXX";

static void put(int pid, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d", root, pid);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%d/%s", root, pid, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A stat line of @pid, state @st, start ticks @ticks, comm @comm. */
static void put_stat(int pid, const char *comm, char st, unsigned long long ticks)
{
	char line[512];

	/* fields 4-21 (ppid .. itrealvalue), then starttime, vsize, rss */
	snprintf(line, sizeof(line),
		 "%d (%s) %c 1 %d %d 0 -1 4194560 100 0 0 0 5 6 0 0 20 0 3 0 %llu 1000 10\n", pid,
		 comm, st, pid, pid, ticks);
	put(pid, "stat", line);
}

int main(void)
{
	struct npuprof_proc_id id, again;
	struct npuprof_proc_stat ps;
	pid_t child;

	CHECK(mkdtemp(root) != NULL);

	put_stat(7001, "evil) 9 (name x", 'S', 4242424242ull);
	put(7001, "status", "Name:\tevil\nState:\tS (sleeping)\nNSpid:\t7001\t12\t1\nNSpgid:\t7001\n");
	CHECK_EQ(npuprof_proc_id_read(7001, root, &id), 0);
	CHECK_EQ(id.start_ticks, 4242424242ull);
	CHECK_EQ(id.nr_nspid, 3);
	CHECK_EQ(id.nspid[0], 7001);
	CHECK_EQ(id.nspid[1], 12);
	CHECK_EQ(id.nspid[2], 1);
	CHECK_EQ(npuprof_proc_id_same(7001, root, &id), 1);
	CHECK_EQ(id.tgid, 7001); /* no Tgid line: the pid itself */

	/*
	 * A thread's /proc/<tid> (Tgid names its process), with a Groups line
	 * of 5,000 groups (33 KB) before NSpid: the line is still read.
	 */
	{
		size_t cap = 64 * 1024, n;
		char *text = malloc(cap);

		CHECK(text != NULL);
		n = (size_t)snprintf(text, cap, "Name:\tworker\nTgid:\t7005\nPid:\t7006\nGroups:\t");
		for (int g = 0; g < 5000; g++)
			n += (size_t)snprintf(text + n, cap - n, "%d ", 100000 + g);
		snprintf(text + n, cap - n, "\nNSpid:\t7006\t3\n");
		put_stat(7006, "worker", 'S', 500);
		put(7006, "status", text);
		free(text);
		CHECK_EQ(npuprof_proc_id_read(7006, root, &id), 0);
		CHECK_EQ(id.tgid, 7005);
		CHECK_EQ(id.nr_nspid, 2);
		CHECK_EQ(id.nspid[1], 3);
	}

	/* the pid reused by a process started later */
	put_stat(7001, "other", 'R', 4242429999ull);
	CHECK_EQ(npuprof_proc_id_same(7001, root, &id), 0);

	put_stat(7002, "old", 'S', 77);
	put(7002, "status", "Name:\told\nState:\tS (sleeping)\n");
	CHECK_EQ(npuprof_proc_id_read(7002, root, &id), 0);
	CHECK_EQ(id.nr_nspid, 1);
	CHECK_EQ(id.nspid[0], 7002);

	put_stat(7003, "dead", 'Z', 88);
	put(7003, "status", "NSpid:\t7003\n");
	CHECK_EQ(npuprof_proc_id_read(7003, root, &id), -ESRCH);
	CHECK_EQ(id.start_ticks, 0); /* a failed read leaves nothing half-read */
	id.start_ticks = 88;
	CHECK_EQ(npuprof_proc_id_same(7003, root, &id), 0);

	/* the stat fields themselves, zombie included: state, parent, start */
	CHECK_EQ(npuprof_proc_stat_read(7003, root, &ps), 0);
	CHECK_EQ(ps.state, 'Z');
	CHECK_EQ(ps.ppid, 1);
	CHECK_EQ(ps.start_ticks, 88);
	put(7007, "stat", "7007 (a) 5 (b) S 4321 7007 7007 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 1 1\n");
	CHECK_EQ(npuprof_proc_stat_read(7007, root, &ps), 0);
	CHECK_EQ(ps.state, 'S');
	CHECK_EQ(ps.ppid, 4321);
	CHECK_EQ(ps.start_ticks, 99);
	put(7008, "stat", "7008 (x) S ? 7008 7008 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 99 1 1\n");
	CHECK_EQ(npuprof_proc_stat_read(7008, root, &ps), -EBADMSG);
	CHECK_EQ(ps.ppid, 0); /* zeroed on error */
	CHECK_EQ(npuprof_proc_stat_read(getpid(), NULL, &ps), 0);
	CHECK_EQ(ps.ppid, getppid());

	put(7004, "stat", "7004 (short) S 1 2 3\n");
	CHECK_EQ(npuprof_proc_id_read(7004, root, &id), -EBADMSG);
	CHECK_EQ(npuprof_proc_stat_read(7004, root, &ps), -EBADMSG);
	CHECK_EQ(npuprof_proc_id_read(7999, root, &id), -ESRCH);
	CHECK_EQ(npuprof_proc_id_same(7999, root, &id), 0);

	CHECK_EQ(npuprof_proc_id_read(getpid(), NULL, &id), 0);
	CHECK(id.start_ticks > 0);
	CHECK_EQ(id.nspid[0], getpid());
	CHECK_EQ(npuprof_proc_id_read(getpid(), NULL, &again), 0);
	CHECK_EQ(again.start_ticks, id.start_ticks);
	CHECK_EQ(npuprof_proc_id_same(getpid(), NULL, &id), 1);
	CHECK_EQ(id.tgid, getpid());

	child = fork();
	if (child == 0)
		_exit(0);
	CHECK(child > 0);
	CHECK_EQ(npuprof_proc_id_read(child, NULL, &id) == 0 || id.start_ticks == 0, 1);
	waitpid(child, NULL, 0);
	CHECK_EQ(npuprof_proc_id_same(child, NULL, &id), 0);

	/*
	 * A process in a new pid namespace is not in the host's (needs
	 * CAP_SYS_ADMIN to make one; without, that part is not run).
	 */
	child = fork();
	if (child == 0) {
		pid_t inner;
		int st = 0;

		if (unshare(CLONE_NEWPID))
			_exit(77);
		inner = fork();
		if (inner == 0)
			_exit(npuprof_in_host_pid_ns() ? 1 : 0);
		waitpid(inner, &st, 0);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 2);
	}
	{
		int st = 0;

		waitpid(child, &st, 0);
		CHECK(WIFEXITED(st));
		if (WEXITSTATUS(st) != 77)
			CHECK_EQ(WEXITSTATUS(st), 0);
	}

	if (!check_failures) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		CHECK_EQ(system(cmd), 0);
	}
	return CHECK_DONE();
}
