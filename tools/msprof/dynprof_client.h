/* SPDX-License-Identifier: MIT */
/*
 * msprof as the client of CANN's dynamic-profiling server: connect to the
 * socket the app serves, hand over the profiling parameters, connect
 * again when the server's message limit is near, say goodbye on the way
 * out, and word each failure as CANN's msprof does.  The bytes on the
 * wire are dynprof_wire.h's; the start, stop and quit exchanges of the
 * prompt are cmdloop.c's.  Private to tools/msprof (dynprof_client.c).
 */
#ifndef MSPROF_DYNPROF_CLIENT_H
#define MSPROF_DYNPROF_CLIENT_H

#include <stddef.h>
#include <sys/types.h>

#include "cmdloop.h"
#include "options.h"

/* Wait for PARAMS_RSQ after sending the parameters, ms.  Longer than
 * CANN's 1 s because the test VM runs under software emulation. */
#define MSPROF_PARAMS_REPLY_MS 5000
#define MSPROF_CONNECT_RETRY_MS 100	/* launch mode: between connect tries */
#define MSPROF_CONNECT_TIMEOUT_MS 60000 /* launch mode: give up after */

/**
 * msprof_connect_target() - connect @t to the server socket at @path and
 * keep @path in @t->path for connecting again
 *
 * A path longer than sun_path (a container's socket seen through
 * /proc/P/root) is reached through its directory.  Return: 0 with @t->fd
 * set, or -errno (-ENAMETOOLONG beyond MSPROF_SOCKET_PATH_MAX).
 */
int msprof_connect_target(struct msprof_target *t, const char *path);

/**
 * msprof_connect_launched() - launch mode: connect @t to the socket the
 * launched app creates in aclInit, $HOME/dynamic_profiling_socket_<msprof
 * pid>
 *
 * Tries every MSPROF_CONNECT_RETRY_MS for up to MSPROF_CONNECT_TIMEOUT_MS
 * while the child lives.  Return: 0, or -errno after saying why
 * (-ESRCH: the app ended first; -ETIMEDOUT); -ENAMETOOLONG, not said:
 * the socket path passes sun_path, so the app can have no server (the
 * caller looks first, with msprof_launch_socket()).
 */
int msprof_connect_launched(const struct msprof_options *o, struct msprof_dyn *d,
			    struct msprof_target *t);

/**
 * msprof_connect_attached() - attach mode: one connect to @pid's socket
 * @path: out, @size bytes: the socket's path, for messages
 * @peer: out: the process serving the socket when it is not @pid (0: a
 *        process outside msprof's pid namespace)
 *
 * The socket must be served by @pid itself: one of that name served by
 * another process (a process in another pid namespace has the same pid
 * inside) is left alone.  Return: 0 with @t connected; -ESRCH (the
 * process has exited: said here); -EADDRINUSE (another process serves
 * it); or the -errno of the search or the connect, not said: the caller
 * decides (msprof_say_connect_failed(), msprof_say_no_server()).
 */
int msprof_connect_attached(pid_t pid, struct msprof_target *t, char *path, size_t size,
			    pid_t *peer);

/**
 * msprof_peer_pid() - the process listening on connected socket @fd: the
 * app, even when a wrapper was launched; @fallback when unknown
 */
pid_t msprof_peer_pid(int fd, pid_t fallback);

/**
 * msprof_send_params_why() - send the 4100-byte parameter block on @t and
 * expect {PARAMS_RSQ, SUCCESS} within @reply_ms
 * @why: out, @size bytes: what went wrong, not printed ("" on success)
 *
 * The caller reports @why, or captures the process from the kernel side
 * and says so in one line.  Parameters too long for the block (a long
 * --output) are an error of the command line: printed here too.
 * Return: 0; -EMSGSIZE; -ETIMEDOUT (no reply: another msprof may hold
 * the server); -EPROTO (another answer); or the -errno of the exchange.
 */
int msprof_send_params_why(struct msprof_target *t, const char *params, int reply_ms, char *why,
			   size_t size);

/**
 * msprof_send_params() - msprof_send_params_why(), a failure printed as
 * an error (msprof_say_params_not_taken()); same return
 */
int msprof_send_params(struct msprof_target *t, const char *params, int reply_ms);

/**
 * msprof_say_params_not_taken() - the error for @pid's server not taking
 * the parameters, @why from msprof_send_params_why()
 */
void msprof_say_params_not_taken(pid_t pid, const char *why);

/**
 * msprof_reconnect_target() - @d->reconnect: connect @t, whose old
 * connection the prompt closed (cmdloop.c renew_idle()), to @t->path
 * again and send @d->params
 *
 * A timeout now means another client took the server in between.
 * Return: 0 with @t->fd set; -ENOTCONN when @t has no socket path; or
 * the -errno of the connect or the parameters, with @t->fd -1.
 */
int msprof_reconnect_target(struct msprof_dyn *d, struct msprof_target *t);

/**
 * msprof_disconnect_quietly() - after a failed setup: send QUIT_REQ so the
 * server accepts its next client, wait briefly for its reply and close
 * @t->fd (-1 after; nothing when it is -1 already)
 */
void msprof_disconnect_quietly(struct msprof_target *t);

/**
 * msprof_say_connect_failed() - the error for connecting to @pid's server
 * at @path failing with @rc, worded as CANN's msprof does; -EADDRINUSE:
 * the socket is served by process @peer instead
 */
void msprof_say_connect_failed(pid_t pid, int rc, const char *path, pid_t peer);

/**
 * msprof_say_no_server() - the one [INFO] line for a process captured
 * without its server: why @pid's server could not be used (@rc from the
 * connect, @peer as msprof_connect_attached() gave it; or @params_why,
 * when set, from the parameters after connecting) and that the kernel
 * side captures it
 */
void msprof_say_no_server(pid_t pid, int rc, const char *path, pid_t peer, const char *params_why);

/**
 * msprof_say_kernel_side() - that one [INFO] line, @why worded already
 * (launch mode: msprof_socket_unbindable())
 */
void msprof_say_kernel_side(pid_t pid, const char *why);

#endif /* MSPROF_DYNPROF_CLIENT_H */
