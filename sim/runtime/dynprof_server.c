// SPDX-License-Identifier: MIT
/*
 * The dynamic-profiling server inside the application, as CANN runs it
 * (shared/reference/msprof.md section 2): with PROFILING_MODE=dynamic,
 * aclInit starts one thread that listens on
 * $HOME/dynamic_profiling_socket_<key> (mode 0600) and serves one msprof
 * client at a time with the protocol of wire/include/dynprof_wire.h.
 *
 * The server only keeps the collection state (started or not): the data
 * itself is collected by npuprof from outside the process (uprobes and
 * driver tracepoints), so START/STOP here are bookkeeping that lets msprof
 * see the answers CANN gives (ALREADY_START, NOT_SET_DEVICE, NOT_START).
 *
 * Limits, as CANN's: 1 s accept and handshake timeouts; 128 accepts per
 * process; 100 messages per connection; a client idle for 1800 x 1 s while
 * nothing is collected is dropped.  A dropped or vanished client stops a
 * running collection, as a quit does.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <dynprof_wire.h>

#include "acl_internal.h"

#define SRV_POLL_MS 1000
#define SRV_MAX_ACCEPTS 128
#define SRV_IDLE_LIMIT 1800 /* 1 s polls without a message, not collecting */

struct dynprof_server {
	pthread_t thread;
	int running;
	int listen_fd;
	int wake[2]; /* aclFinalize writes wake[1] to stop the thread */
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int collecting;
	unsigned int accepts;
};

static struct dynprof_server srv = { .listen_fd = -1, .wake = { -1, -1 } };

enum srv_wait { SRV_READY, SRV_TIMEOUT, SRV_STOP };

/* Wait up to @ms for @fd to be readable, or for a stop request. */
static enum srv_wait srv_wait(int fd, int ms)
{
	struct pollfd p[2] = {
		{ .fd = fd, .events = POLLIN },
		{ .fd = srv.wake[0], .events = POLLIN },
	};
	int n;

	do {
		n = poll(p, 2, ms);
	} while (n < 0 && errno == EINTR);
	if (n < 0 || p[1].revents)
		return SRV_STOP;
	return n == 0 ? SRV_TIMEOUT : SRV_READY;
}

/* Send one reply; errors only mean the client is gone, which recv sees. */
static int srv_reply(int fd, int32_t type, int32_t status)
{
	uint8_t buf[DYNPROF_MSG_SIZE];

	dynprof_encode_msg(buf, type, status);
	return dynprof_send_all(fd, buf, sizeof(buf), DYNPROF_COMMAND_TIMEOUT_MS);
}

static void srv_set_collecting(int on)
{
	if (srv.collecting == on)
		return;
	srv.collecting = on;
	rtsimProfilingSwitch(on);
	acl_log("dynamic profiling %s for pid %d", on ? "started" : "stopped", (int)getpid());
}

/* The status a request gets; updates the collection state. */
static int32_t srv_handle(int32_t type)
{
	switch (type) {
	case DYNPROF_START_REQ:
		if (srv.collecting)
			return DYNPROF_ALREADY_START;
		if (acl_devices_open() == 0)
			return DYNPROF_NOT_SET_DEVICE;
		srv_set_collecting(1);
		return DYNPROF_SUCCESS;
	case DYNPROF_STOP_REQ:
		if (!srv.collecting)
			return DYNPROF_NOT_START;
		srv_set_collecting(0);
		return DYNPROF_SUCCESS;
	case DYNPROF_QUIT_REQ:
		srv_set_collecting(0);
		return DYNPROF_SUCCESS;
	default:
		return DYNPROF_FAIL;
	}
}

/* Receive the 4100-byte parameter block and answer it.  0: go on. */
static int srv_handshake(int fd)
{
	uint8_t buf[DYNPROF_PARAMS_SIZE];
	char json[DYNPROF_PARAMS_DATA_LEN + 1];
	int err;

	/* A second client waiting in the backlog times out here, as in CANN. */
	err = dynprof_recv_all(fd, buf, sizeof(buf), DYNPROF_HANDSHAKE_TIMEOUT_MS);
	if (err)
		return err;
	if (dynprof_decode_params(buf, json) < 0) {
		srv_reply(fd, DYNPROF_PARAMS_RSQ, DYNPROF_FAIL);
		return -EBADMSG;
	}
	return srv_reply(fd, DYNPROF_PARAMS_RSQ, DYNPROF_SUCCESS);
}

/* Read and answer commands until quit, a limit, a stop or the client goes. */
static void srv_commands(int fd)
{
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg msg;
	unsigned int nr_msgs = 0, idle = 0;
	enum srv_wait w;

	while (nr_msgs < DYNPROF_MAX_MESSAGES) {
		w = srv_wait(fd, SRV_POLL_MS);
		if (w == SRV_STOP)
			return;
		if (w == SRV_TIMEOUT) {
			if (!srv.collecting && ++idle >= SRV_IDLE_LIMIT) {
				acl_log("dynamic profiling client idle for 30 min; dropped");
				return;
			}
			continue;
		}
		idle = 0;
		if (dynprof_recv_all(fd, buf, sizeof(buf), DYNPROF_COMMAND_TIMEOUT_MS)) {
			srv_reply(fd, DYNPROF_DISCONNECT_RSQ, DYNPROF_SUCCESS);
			return;
		}
		nr_msgs++;
		dynprof_decode_msg(buf, &msg);
		if (srv_reply(fd, (int32_t)((uint32_t)msg.type + 1), srv_handle(msg.type)))
			return;
		if (msg.type == DYNPROF_QUIT_REQ)
			return;
	}
	acl_log("dynamic profiling client sent %d messages; dropped", DYNPROF_MAX_MESSAGES);
}

static void srv_serve(int fd)
{
	acl_log("dynamic profiling client connected to pid %d", (int)getpid());
	if (srv_handshake(fd) == 0)
		srv_commands(fd);
	/* However the client left, it ends like a quit. */
	srv_set_collecting(0);
	acl_log("dynamic profiling client left pid %d", (int)getpid());
}

static void *srv_main(void *arg)
{
	int fd;

	(void)arg;
	while (srv.accepts < SRV_MAX_ACCEPTS) {
		enum srv_wait w = srv_wait(srv.listen_fd, SRV_POLL_MS);

		if (w == SRV_STOP)
			break;
		if (w == SRV_TIMEOUT)
			continue;
		fd = accept4(srv.listen_fd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		srv.accepts++;
		srv_serve(fd);
		close(fd);
	}
	close(srv.listen_fd);
	srv.listen_fd = -1;
	unlink(srv.path);
	srv.path[0] = '\0'; /* nothing left for srv_exit() to remove */
	return NULL;
}

/* $HOME, else the passwd entry's home; NULL if neither is known. */
static const char *srv_home(void)
{
	const char *home = getenv("HOME");
	struct passwd *pw;

	if (home && *home)
		return home;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir && *pw->pw_dir ? pw->pw_dir : NULL;
}

/* $DYNAMIC_PROFILING_KEY_PID as a positive number, else 0. */
static long srv_env_key(void)
{
	const char *s = getenv("DYNAMIC_PROFILING_KEY_PID");
	char *end;
	long key;

	if (!s || !*s)
		return 0;
	key = strtol(s, &end, 10);
	return *end || key <= 0 ? 0 : key;
}

/*
 * 1 when a server listens at @addr: then the name is taken (say, by the
 * parent of a multi-process app that inherited the same
 * DYNAMIC_PROFILING_KEY_PID) and must not be unlinked from under it.  The
 * probe never blocks: a listener busy with msprof has a full backlog,
 * which a non-blocking connect reports as EAGAIN, and that counts as live.
 */
static int srv_name_in_use(const struct sockaddr_un *addr)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	int live;

	if (fd < 0)
		return 0;
	live = connect(fd, (const struct sockaddr *)addr, sizeof(*addr)) == 0 ||
	       errno == EAGAIN || errno == EINPROGRESS;
	close(fd);
	return live;
}

/*
 * Is a socket of any live process bound at @path?  /proc/net/unix lists
 * every bound socket with its path (the last field): a file left by a
 * crash has no entry, while a process that bound the name an instant ago
 * and does not listen yet has one.  Unreadable table: assume bound.
 */
static int srv_name_bound(const char *path)
{
	FILE *f = fopen("/proc/net/unix", "re");
	size_t len = strlen(path);
	char line[512];
	int bound = 0;

	if (!f)
		return 1;
	while (!bound && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');
		size_t n = p ? strcspn(p, "\n") : 0;

		bound = p && n == len && !memcmp(p, path, len);
	}
	fclose(f);
	return bound;
}

/*
 * Create, bind, chmod 0600 and listen at @key.  bind() comes first, so a
 * free name is taken without touching anyone's file; only when the name
 * exists, nobody listens there and no live socket is bound to it (a stale
 * file left by a crash) is it unlinked and bound again.  A live one gives
 * -EADDRINUSE, also one that a process starting at the same instant has
 * bound but not yet listens on (taking that name left the other process
 * unreachable under any name).
 */
static int srv_bind(const char *home, long key)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd, err;

	err = dynprof_socket_path(srv.path, sizeof(srv.path), home, key);
	if (err)
		return err;
	memcpy(addr.sun_path, srv.path, strlen(srv.path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		if (errno != EADDRINUSE)
			goto out_close;
		if (srv_name_in_use(&addr) || srv_name_bound(srv.path)) {
			close(fd);
			return -EADDRINUSE;
		}
		unlink(srv.path);
		if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0)
			goto out_close;
	}
	if (chmod(srv.path, 0600) < 0 || listen(fd, 1) < 0)
		goto out_unlink;
	return fd;

out_unlink:
	err = -errno;
	unlink(srv.path);
	close(fd);
	return err;
out_close:
	err = -errno;
	close(fd);
	return err;
}

/* Listen at the env key, falling back to the pid when it is taken. */
static int srv_listen(void)
{
	const char *home = srv_home();
	long key = srv_env_key();
	int fd;

	if (!home)
		return -ENOENT;
	fd = srv_bind(home, key ? key : (long)getpid());
	if (fd == -EADDRINUSE && key)
		fd = srv_bind(home, (long)getpid());
	return fd;
}

/* Start the thread with every signal blocked: they belong to the app. */
static int srv_spawn(void)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&srv.thread, NULL, srv_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return -err;
}

int dynprof_server_start(void)
{
	const char *mode = getenv("PROFILING_MODE");
	int err;

	if (!mode || strcmp(mode, "dynamic") != 0 || srv.running)
		return 0;
	if (pipe2(srv.wake, O_CLOEXEC) < 0)
		return -errno;
	srv.listen_fd = srv_listen();
	if (srv.listen_fd < 0) {
		err = srv.listen_fd;
		goto out_close_wake;
	}
	srv.collecting = 0;
	err = srv_spawn();
	if (err)
		goto out_close_listen;
	srv.running = 1;
	acl_log("dynamic profiling server of pid %d listening at %s", (int)getpid(), srv.path);
	return 0;

out_close_listen:
	close(srv.listen_fd);
	srv.listen_fd = -1;
	unlink(srv.path);
out_close_wake:
	close(srv.wake[0]);
	close(srv.wake[1]);
	srv.wake[0] = srv.wake[1] = -1;
	return err;
}

void dynprof_server_stop(void)
{
	if (!srv.running)
		return;
	/* The pipe cannot be full: one byte per stop. */
	(void)!write(srv.wake[1], "", 1);
	pthread_join(srv.thread, NULL);
	close(srv.wake[0]);
	close(srv.wake[1]);
	srv.wake[0] = srv.wake[1] = -1;
	srv.running = 0;
}

/* An app that exits without aclFinalize leaves no stale socket file. */
__attribute__((destructor)) static void srv_exit(void)
{
	if (srv.running && srv.path[0])
		unlink(srv.path);
}
