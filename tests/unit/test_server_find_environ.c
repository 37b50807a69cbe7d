// SPDX-License-Identifier: MIT
/*
 * Description: msprof_socket_find_pid() looks for a process's
 * dynamic-profiling socket in the HOME of that process's own environment
 * first (an app run with HOME=/srv/job by another user binds it there,
 * not in its passwd home nor in msprof's $HOME), then in msprof's usual
 * homes.  A child is exec'd with a HOME of its own (a temporary
 * directory) while this process has another $HOME; the exact path found
 * or named, and the return, are checked for: the socket in the child's
 * HOME (found there, though msprof's $HOME has one too); only in msprof's
 * (found there, the fallback); in neither (-ENOENT naming the child's);
 * a child HOME whose socket path passes sun_path (-ENAMETOOLONG naming
 * the whole path); a child without HOME (msprof's $HOME).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "check.h"
#include "home_child.h"
#include "server_find.h"
#include "tmpdir.h"

static char ours[64], theirs[64], long_home[200];

/* A bound Unix socket at @dir/dynamic_profiling_socket_@pid; its fd. */
static int make_socket(const char *dir, pid_t pid)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM, 0);

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/dynamic_profiling_socket_%d", dir, (int)pid);
	CHECK(s >= 0 && !bind(s, (struct sockaddr *)&addr, sizeof(addr)));
	return s;
}

static void drop_socket(int s, const char *dir, pid_t pid)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/dynamic_profiling_socket_%d", dir, (int)pid);
	close(s);
	unlink(path);
}

/* The look-up for @pid returns @rc with the socket path in @dir named. */
static void expect(pid_t pid, int rc, const char *dir)
{
	char buf[PATH_MAX], want[PATH_MAX];

	snprintf(want, sizeof(want), "%s/dynamic_profiling_socket_%d", dir, (int)pid);
	CHECK_EQ(msprof_socket_find_pid(pid, getuid(), buf, sizeof(buf)), rc);
	CHECK_STR(buf, want);
}

static void test_own_home(void)
{
	pid_t pid = home_child_start(theirs);
	int s1, s2;

	/* the child's HOME wins over msprof's, which has one too */
	s1 = make_socket(theirs, pid);
	s2 = make_socket(ours, pid);
	expect(pid, 0, theirs);
	/* none in the child's HOME: msprof's homes, as before */
	drop_socket(s1, theirs, pid);
	expect(pid, 0, ours);
	/* in neither: the child's HOME is the one named */
	drop_socket(s2, ours, pid);
	expect(pid, -ENOENT, theirs);
	home_child_stop(pid);
}

/*
 * A child started with @home (NULL: without HOME) while msprof's $HOME
 * has a socket for it: the look-up returns @rc naming @dir's.
 */
static void test_one_home(const char *home, int rc, const char *dir)
{
	pid_t pid = home_child_start(home);
	int s;

	s = make_socket(ours, pid);
	expect(pid, rc, dir);
	drop_socket(s, ours, pid);
	home_child_stop(pid);
}

int main(void)
{
	char base[] = "/tmp/npuprof-srvfind.XXXXXX";
	size_t n;

	if (!mkdtemp(base))
		CHECK_SKIP("mkdtemp failed");
	snprintf(ours, sizeof(ours), "%s/ours", base);
	snprintf(theirs, sizeof(theirs), "%s/theirs", base);
	/* 100 bytes: with the socket's name, past sun_path's 108 */
	n = (size_t)snprintf(long_home, sizeof(long_home), "%s/", base);
	memset(long_home + n, 'x', 100 - n);
	CHECK(!mkdir(ours, 0700) && !mkdir(theirs, 0700));
	setenv("HOME", ours, 1);
	test_own_home();
	/* its server cannot bind there: said so, though msprof's $HOME has one */
	test_one_home(long_home, -ENAMETOOLONG, long_home);
	test_one_home(NULL, 0, ours);
	tmpdir_remove(base);
	return CHECK_DONE();
}
