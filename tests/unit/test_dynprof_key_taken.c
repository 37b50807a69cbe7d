// SPDX-License-Identifier: MIT
/*
 * Description: two processes of one app inherit the same
 * DYNAMIC_PROFILING_KEY_PID (launch mode sets it for the app, and its
 * children inherit it).  The first binds dynamic_profiling_socket_<key>;
 * the second must find that name live, leave it alone and bind
 * dynamic_profiling_socket_<its pid> instead.  Regression: the server used
 * to unlink the path before bind, so the second process silently stole
 * the first one's socket (both files must exist afterwards).  Then, while
 * msprof (here: a client that sent its parameters) holds the first
 * server, three more processes start: each must come up within 5 s on its
 * own pid.  Regression: the name probe was a blocking connect(), which
 * hung in aclInit once the busy listener's backlog was full.  Last, 30
 * rounds of 4 processes released into aclInit at the same instant: every
 * round has the key's name and 3 pid names, one per process.  Regression
 * (e2e/ranks_launch, once): a process that found the key's name bound but
 * not yet listening took it for a crash's leftover and stole it, and the
 * first process was then reachable under no name at all.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"

#define KEY "424242"

/* Child: aclInit from ../lib/libascendcl.so, say ready on @ready_fd, wait;
 * with @go_fd >= 0, only once a byte arrives there. */
static void run_app(int ready_fd, int go_fd)
{
	char exe[PATH_MAX], lib[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int (*init)(const char *);
	void *h;

	if (n < 0)
		_exit(2);
	exe[n] = '\0';
	if (go_fd >= 0 && read(go_fd, &(char){ 0 }, 1) != 1)
		_exit(5);
	snprintf(lib, sizeof(lib), "%s/../lib/libascendcl.so", dirname(exe));
	h = dlopen(lib, RTLD_NOW);
	if (!h)
		_exit(77);
	init = (int (*)(const char *))dlsym(h, "aclInit");
	if (!init || init(NULL))
		_exit(3);
	if (write(ready_fd, "r", 1) != 1)
		_exit(4);
	pause();
	_exit(0);
}

static pid_t start_app(void)
{
	int p[2];
	char c;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		run_app(p[1], -1);
	}
	close(p[1]);
	if (poll(&(struct pollfd){ .fd = p[0], .events = POLLIN }, 1, 5000) != 1) {
		fprintf(stderr, "pid %d did not finish aclInit within 5 s\n", (int)pid);
		close(p[0]);
		kill(pid, SIGKILL);
		return -1;
	}
	if (read(p[0], &c, 1) != 1) {
		int st = 0;

		waitpid(pid, &st, 0);
		close(p[0]);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
			CHECK_SKIP("build/lib/libascendcl.so not built");
		return -1;
	}
	close(p[0]);
	return pid;
}

static int is_socket(const char *dir, const char *key)
{
	char path[PATH_MAX];
	struct stat st;

	snprintf(path, sizeof(path), "%s/dynamic_profiling_socket_%s", dir, key);
	return stat(path, &st) == 0 && S_ISSOCK(st.st_mode);
}

/* Connect to the server at @key and send a parameter block: it is busy. */
static int hold_server(const char *dir, const char *key)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	static char block[4100];
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || snprintf(addr.sun_path, sizeof(addr.sun_path), "%s/dynamic_profiling_socket_%s",
			       dir, key) >= (int)sizeof(addr.sun_path))
		return -1;
	block[0] = 2;
	memcpy(block + 4, "{}", 2);
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) ||
	    write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
		return -1;
	return fd;
}

#define RACERS 4

/* Count the dynamic_profiling_socket_* names in @dir. */
static int sockets_in(const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int n = 0;

	while (d && (de = readdir(d))) {
		struct stat st;

		n += !strncmp(de->d_name, "dynamic_profiling_socket_", 25) &&
		     !fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISSOCK(st.st_mode);
	}
	if (d)
		closedir(d);
	return n;
}

/* RACERS processes of one key released into aclInit at once; 0 when
 * every one of them got a name. */
static int race_round(const char *base, int round)
{
	char home[PATH_MAX];
	int go[2], ready[2], i, up = 0, names;
	pid_t pid[RACERS];

	if (snprintf(home, sizeof(home), "%.200s/r%d", base, round) >= (int)sizeof(home) ||
	    mkdir(home, 0700) || pipe(go) || pipe(ready))
		return -1;
	setenv("HOME", home, 1);
	for (i = 0; i < RACERS; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			close(go[1]);
			close(ready[0]);
			run_app(ready[1], go[0]);
		}
	}
	close(go[0]);
	close(ready[1]);
	if (write(go[1], "gggg", RACERS) != RACERS)
		up = -1;
	while (up >= 0 && up < RACERS &&
	       poll(&(struct pollfd){ .fd = ready[0], .events = POLLIN }, 1, 5000) == 1 &&
	       read(ready[0], &(char){ 0 }, 1) == 1)
		up++;
	names = sockets_in(home);
	for (i = 0; i < RACERS; i++)
		kill(pid[i], SIGKILL);
	for (i = 0; i < RACERS; i++)
		waitpid(pid[i], NULL, 0);
	close(go[1]);
	close(ready[0]);
	if (up != RACERS || names != RACERS)
		fprintf(stderr, "round %d: %d of %d up, %d socket names\n", round, up, RACERS,
			names);
	return up == RACERS && names == RACERS ? 0 : -1;
}

int main(void)
{
	char home[PATH_MAX], second[32];
	pid_t a, b, more[3];
	int i, held;

	snprintf(home, sizeof(home), "/tmp/npuprof_key_XXXXXX");
	if (!mkdtemp(home))
		return 1;
	setenv("HOME", home, 1);
	setenv("PROFILING_MODE", "dynamic", 1);
	setenv("DYNAMIC_PROFILING_KEY_PID", KEY, 1);
	a = start_app();
	CHECK(a > 0);
	b = start_app();
	CHECK(b > 0);
	snprintf(second, sizeof(second), "%d", (int)b);
	CHECK(is_socket(home, KEY));
	CHECK(is_socket(home, second));
	held = hold_server(home, KEY);
	CHECK(held >= 0);
	for (i = 0; i < 3; i++) {
		more[i] = start_app();
		CHECK(more[i] > 0);
		snprintf(second, sizeof(second), "%d", (int)more[i]);
		CHECK(more[i] > 0 && is_socket(home, second));
	}
	CHECK(is_socket(home, KEY));
	for (i = 0; i < 3; i++)
		if (more[i] > 0)
			kill(more[i], SIGKILL);
	if (held >= 0)
		close(held);
	if (a > 0)
		kill(a, SIGKILL);
	if (b > 0)
		kill(b, SIGKILL);
	while (wait(NULL) > 0)
		;
	for (i = 0; i < 30; i++)
		CHECK_EQ(race_round(home, i), 0);
	tmpdir_remove(home);
	return CHECK_DONE();
}
