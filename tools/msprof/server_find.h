/* SPDX-License-Identifier: MIT */
/*
 * Where an app's dynamic-profiling server has its socket.  CANN's server
 * binds $HOME/dynamic_profiling_socket_<pid> (dynprof_wire.h names it),
 * with the HOME and the pid the app itself sees: another user's home when
 * msprof attaches as root, a path inside the container's tree when the app
 * runs in one.  These functions only look; connecting, and telling the
 * app's server from another process serving the same name, is the
 * client's.
 */
#ifndef MSPROF_SERVER_FIND_H
#define MSPROF_SERVER_FIND_H

#include <stddef.h>
#include <sys/types.h>

/**
 * msprof_socket_find() - locate the dynamic-profiling socket for @key
 * @uid:  owner of the server process; its home holds the socket
 * @key:  the pid in the socket name
 * @buf:  output, @size bytes
 *
 * The server puts it in its home: $HOME or the password entry's.  For
 * our own uid try $HOME first, then the password entry; for another uid
 * (attaching as root to a user's app) that user's home first, then $HOME.
 * A candidate too long for sun_path is passed over (no server can bind
 * it).  Return: 0 with @buf naming an existing socket; -ENOENT with @buf
 * naming the first candidate (for messages); -ENAMETOOLONG when that
 * first candidate passes sun_path, @buf naming it: for our own uid, the
 * socket an app launched with our $HOME cannot bind.
 */
int msprof_socket_find(uid_t uid, long key, char *buf, size_t size);

/**
 * msprof_socket_find_pid() - locate the dynamic-profiling socket of a
 * running process, also when it runs in a container
 * @pid:  the process, as msprof's pid namespace numbers it
 * @uid:  its owner
 * @buf:  output, @size bytes
 *
 * The server names its socket $HOME/dynamic_profiling_socket_<pid> with
 * the HOME of its own environment and the pid it sees itself as (the last
 * NSpid of /proc/@pid/status).  It is looked for in the HOME read from
 * /proc/@pid/environ first: a job run by another user with a HOME of its
 * own (HOME=/srv/job) has its socket there, not in the passwd home.  A
 * process in msprof's mount namespace is then looked up as
 * msprof_socket_find() does (under its inner pid when it runs in another
 * pid namespace).  One in another mount namespace is reached through
 * /proc/@pid/root: in the HOME of its environment, else its passwd
 * entry's in its own tree (msprof's own homes only when neither can be
 * read).  The socket found may be another process's (a process of
 * another pid namespace with the same inner pid): the caller checks who
 * serves it.  Return: as msprof_socket_find(); -ENOENT names the HOME of
 * its environment when known; -ENAMETOOLONG when the socket path of that
 * HOME passes sun_path (its server cannot have bound it), @buf naming it
 * as the process would (without /proc/@pid/root).
 */
int msprof_socket_find_pid(pid_t pid, uid_t uid, char *buf, size_t size);

/**
 * msprof_launch_socket() - the socket an app msprof launches binds, and
 * whether it can: in our $HOME (the app inherits our environment), named
 * after our pid (its DYNAMIC_PROFILING_KEY_PID)
 * @buf:  output, @size bytes: the socket's path
 *
 * The app runs as we do, so what stops us stops it: a socket is bound
 * there and removed again before the app starts.  Return: 0 when it can
 * bind it; -ENAMETOOLONG (the path passes sun_path) or the -errno of
 * binding it (-ENOENT: no such directory; -EACCES; -EROFS; a directory
 * that takes no sockets, as /proc) when it can have no server.
 */
int msprof_launch_socket(char *buf, size_t size);

/**
 * msprof_socket_unbindable() - why a server cannot bind @path, with @rc
 * from msprof_launch_socket() or the look-ups above, for a message: "the
 * socket path @path is too long for a Unix socket: N bytes, the limit is
 * 107" (sun_path, its NUL excluded) or "the socket @path cannot be created
 * in DIR: <error>", into @buf (@size bytes).  Return: @buf.
 */
const char *msprof_socket_unbindable(int rc, const char *path, char *buf, size_t size);

#endif /* MSPROF_SERVER_FIND_H */
