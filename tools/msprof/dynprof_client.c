// SPDX-License-Identifier: MIT
/*
 * The client side of CANN's dynamic-profiling protocol (see
 * dynprof_client.h): Unix-socket connects, the parameter handshake, the
 * reconnect between windows, the goodbye after a failed setup, and the
 * messages for a server that cannot be reached or is not the app's.
 *
 * Which socket to try is server_find.c's; who is served and when is
 * dynamic.c's.  Connected sockets are checked with SO_PEERCRED: in a
 * container another process may own the name msprof computed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <dynprof_wire.h>
#include <npuprof/clock.h>
#include <npuprof/msg.h>

#include "dynprof_client.h"
#include "launch.h"
#include "server_find.h"

/*
 * One connect() to the Unix socket at @path.  A path longer than
 * sun_path's 108 bytes (a container's socket seen through /proc/P/root)
 * is reached through its directory, opened O_PATH: /proc/self/fd/N/<name>.
 * Return: 0 with *@fd, or -errno.
 */
static int connect_unix(const char *path, int *fd)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	char dir[MSPROF_SOCKET_PATH_MAX];
	const char *name = strrchr(path, '/');
	int s, e, dfd = -1;

	if (strlen(path) >= sizeof(dir))
		return -ENAMETOOLONG;
	if (strlen(path) < sizeof(addr.sun_path)) {
		strcpy(addr.sun_path, path);
	} else {
		if (!name || name == path)
			return -ENAMETOOLONG;
		snprintf(dir, sizeof(dir), "%.*s", (int)(name - path), path);
		dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			return -errno;
		if ((size_t)snprintf(addr.sun_path, sizeof(addr.sun_path), "/proc/self/fd/%d%s", dfd,
				     name) >= sizeof(addr.sun_path)) {
			close(dfd);
			return -ENAMETOOLONG;
		}
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		e = errno;
		if (dfd >= 0)
			close(dfd);
		return -e;
	}
	e = connect(s, (struct sockaddr *)&addr, sizeof(addr)) ? errno : 0;
	if (dfd >= 0)
		close(dfd);
	if (e) {
		close(s);
		return -e;
	}
	*fd = s;
	return 0;
}

int msprof_connect_target(struct msprof_target *t, const char *path)
{
	if (strlen(path) >= sizeof(t->path))
		return -ENAMETOOLONG;
	strcpy(t->path, path);
	return connect_unix(path, &t->fd);
}

int msprof_connect_launched(const struct msprof_options *o, struct msprof_dyn *d,
			    struct msprof_target *t)
{
	int64_t deadline = npuprof_mono_ms() + MSPROF_CONNECT_TIMEOUT_MS;
	char path[PATH_MAX], how[96];
	int rc;

	for (;;) {
		rc = msprof_socket_find(getuid(), getpid(), path, sizeof(path));
		if (rc == -ENAMETOOLONG) /* the caller looked first (no server possible) */
			return rc;
		if (!rc && !msprof_connect_target(t, path))
			return 0;
		if (!msprof_app_alive(d, t)) {
			msprof_describe_status(d->child_status, how, sizeof(how));
			npuprof_err("%s (pid %d) %s before it opened the dynamic profiling socket %s: see its own messages above (the socket appears when the app calls aclInit)",
				    o->app_argv[0], (int)d->child, how, path);
			return -ESRCH;
		}
		if (npuprof_mono_ms() >= deadline) {
			npuprof_err("cannot connect to server for pid %d, timeout: no socket %s after %d s: does the app call aclInit?",
				    (int)d->child, path, MSPROF_CONNECT_TIMEOUT_MS / 1000);
			return -ETIMEDOUT;
		}
		usleep(MSPROF_CONNECT_RETRY_MS * 1000);
	}
}

pid_t msprof_peer_pid(int fd, pid_t fallback)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) || cred.pid <= 0)
		return fallback;
	return cred.pid;
}

/*
 * "@path is served by ...": the socket of that name belongs to process
 * @peer, not the app (0: a process outside msprof's pid namespace).
 */
static const char *served_by(const char *path, pid_t peer, char *buf, size_t size)
{
	if (peer)
		snprintf(buf, size, "%s is served by pid %d, another process", path, (int)peer);
	else
		snprintf(buf, size, "%s is served by a process outside msprof's pid namespace", path);
	return buf;
}

void msprof_say_connect_failed(pid_t pid, int rc, const char *path, pid_t peer)
{
	char words[PATH_MAX + 96];

	if (rc == -EADDRINUSE && !peer)
		npuprof_err("cannot connect to server for pid %d: %s, not by pid %d", (int)pid,
			    served_by(path, peer, words, sizeof(words)), (int)pid);
	else if (rc == -EADDRINUSE)
		npuprof_err("cannot connect to server for pid %d: %s (a process in another pid namespace with the same pid inside)",
			    (int)pid, served_by(path, peer, words, sizeof(words)));
	else if (rc == -ENOENT)
		npuprof_err("server process %d did not create socket, or process has already exited: no dynamic profiling socket %s (start the app with PROFILING_MODE=dynamic, or attach with --require-server=off)",
			    (int)pid, path);
	else if (rc == -ECONNREFUSED)
		npuprof_err("cannot connect to server for pid %d, maybe server is closed: nothing listens on %s (a stale socket can be removed with rm %s)",
			    (int)pid, path, path);
	else if (rc == -EACCES || rc == -EPERM)
		npuprof_err("cannot connect to server for pid %d: %s: permission denied: run msprof as the app's user or as root",
			    (int)pid, path);
	else if (rc == -ENAMETOOLONG) /* its server could not bind it */
		npuprof_err("cannot connect to server for pid %d: %s",
			    (int)pid, msprof_socket_unbindable(rc, path, words, sizeof(words)));
	else
		npuprof_err("cannot connect to server for pid %d: %s: %s", (int)pid, path, strerror(-rc));
}

int msprof_connect_attached(pid_t pid, struct msprof_target *t, char *path, size_t size,
			    pid_t *peer)
{
	char proc[64];
	struct stat st;
	int rc;

	*peer = 0;
	snprintf(proc, sizeof(proc), "/proc/%d", (int)pid);
	if (stat(proc, &st)) {
		npuprof_err("--pid=%d: the process has exited", (int)pid);
		return -ESRCH;
	}
	rc = msprof_socket_find_pid(pid, st.st_uid, path, size);
	if (!rc)
		rc = msprof_connect_target(t, path);
	if (rc)
		return rc;
	/* 0: a process our pid namespace cannot see (outside it) */
	*peer = msprof_peer_pid(t->fd, 0);
	if (*peer == pid)
		return 0;
	close(t->fd);
	t->fd = -1;
	return -EADDRINUSE;
}

int msprof_send_params_why(struct msprof_target *d, const char *params, int reply_ms, char *why,
			   size_t size)
{
	static uint8_t block[DYNPROF_PARAMS_SIZE];
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;
	int rc;

	*why = '\0';
	rc = dynprof_encode_params(block, params);
	if (rc) {
		npuprof_err("the profiling parameters are %zu bytes, more than the %d the protocol carries: use a shorter --output",
			    strlen(params), DYNPROF_PARAMS_DATA_LEN - 1);
		snprintf(why, size, "they do not fit the protocol's %d bytes",
			 DYNPROF_PARAMS_DATA_LEN - 1);
		return rc;
	}
	rc = dynprof_send_all(d->fd, block, sizeof(block), DYNPROF_HANDSHAKE_TIMEOUT_MS);
	if (!rc)
		rc = dynprof_recv_all(d->fd, buf, sizeof(buf), reply_ms);
	if (rc == -ETIMEDOUT) {
		snprintf(why, size, "no reply within %d s: another msprof may be connected to it (one user per app at a time)",
			 reply_ms / 1000);
		return rc;
	}
	if (rc) {
		snprintf(why, size, "sending them failed: %s", strerror(-rc));
		return rc;
	}
	dynprof_decode_msg(buf, &m);
	if (m.type != DYNPROF_PARAMS_RSQ || m.status != DYNPROF_SUCCESS) {
		snprintf(why, size, "it answered %s %s", dynprof_type_name(m.type),
			 dynprof_status_name(m.status));
		return -EPROTO;
	}
	return 0;
}

void msprof_say_params_not_taken(pid_t pid, const char *why)
{
	npuprof_err("the dynamic profiling server of pid %d did not take the profiling parameters: %s",
		    (int)pid, why);
}

int msprof_send_params(struct msprof_target *d, const char *params, int reply_ms)
{
	char why[256];
	int rc = msprof_send_params_why(d, params, reply_ms, why, sizeof(why));

	if (rc && rc != -EMSGSIZE)
		msprof_say_params_not_taken(d->app_pid, why);
	return rc;
}

int msprof_reconnect_target(struct msprof_dyn *d, struct msprof_target *t)
{
	int rc;

	if (!t->path[0])
		return -ENOTCONN; /* no socket name to connect to */
	rc = connect_unix(t->path, &t->fd);
	if (rc)
		return rc;
	rc = msprof_send_params(t, d->params, MSPROF_PARAMS_REPLY_MS);
	if (rc) {
		close(t->fd);
		t->fd = -1;
	}
	return rc;
}

void msprof_disconnect_quietly(struct msprof_target *t)
{
	uint8_t buf[DYNPROF_MSG_SIZE];

	if (t->fd < 0)
		return;
	dynprof_encode_msg(buf, DYNPROF_QUIT_REQ, 0);
	if (!dynprof_send_all(t->fd, buf, sizeof(buf), DYNPROF_HANDSHAKE_TIMEOUT_MS))
		dynprof_recv_all(t->fd, buf, sizeof(buf), DYNPROF_HANDSHAKE_TIMEOUT_MS);
	close(t->fd);
	t->fd = -1;
}

void msprof_say_no_server(pid_t pid, int rc, const char *path, pid_t peer, const char *params_why)
{
	char why[PATH_MAX + 128];

	if (params_why) {
		npuprof_info("pid %d: its dynamic profiling server at %s did not take the profiling parameters (%s): capturing it from the kernel side only",
			     (int)pid, path, params_why);
		return;
	}
	if (rc == -ENOENT)
		snprintf(why, sizeof(why), "no socket %s", path);
	else if (rc == -EADDRINUSE)
		served_by(path, peer, why, sizeof(why));
	else if (rc == -EACCES || rc == -EPERM)
		snprintf(why, sizeof(why), "%s: permission denied; run msprof as the app's user or as root to reach it",
			 path);
	else if (rc == -ENAMETOOLONG) /* its server could not bind it */
		msprof_socket_unbindable(rc, path, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s: %s", path, strerror(-rc));
	msprof_say_kernel_side(pid, why);
}

void msprof_say_kernel_side(pid_t pid, const char *why)
{
	npuprof_info("pid %d has no dynamic-profiling server (%s): capturing it from the kernel side only",
		     (int)pid, why);
}
