// SPDX-License-Identifier: MIT
/*
 * Codec and blocking-with-timeout transport of the dynamic-profiling socket
 * protocol (see dynprof_wire.h).  Used by both ends: the server in the
 * simulated runtime and the msprof client, so the wire image is defined in
 * exactly one place.
 *
 * Every integer on the wire is host endian (both ends run on one machine),
 * copied with memcpy so no alignment is assumed of the caller's buffers.
 * The transport waits with poll() and never blocks inside send()/recv()
 * (MSG_DONTWAIT), so a timeout always bounds a call; EINTR only restarts
 * the wait; MSG_NOSIGNAL turns a vanished peer into -EPIPE, not SIGPIPE.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>

#include <dynprof_wire.h>

/* CLOCK_MONOTONIC in ms: deadlines, immune to wall clock steps. */
static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int dynprof_socket_path(char *buf, size_t size, const char *home, long key)
{
	size_t sun_path_size = sizeof(((struct sockaddr_un *)0)->sun_path);
	int n;

	if (!buf || !home)
		return -EINVAL;
	n = snprintf(buf, size, "%s/%s%ld", home, DYNPROF_SOCKET_PREFIX, key);
	if (n < 0)
		return -EINVAL;
	/* The path must fit both the caller's buffer and sun_path, NUL included. */
	if ((size_t)n >= size || (size_t)n >= sun_path_size)
		return -ENAMETOOLONG;
	return 0;
}

int dynprof_encode_params(uint8_t out[DYNPROF_PARAMS_SIZE], const char *json)
{
	size_t len = strlen(json);
	uint32_t len32;

	if (len >= DYNPROF_PARAMS_DATA_LEN)
		return -EMSGSIZE;
	len32 = (uint32_t)len;
	memset(out, 0, DYNPROF_PARAMS_SIZE);
	memcpy(out, &len32, sizeof(len32));
	memcpy(out + sizeof(len32), json, len);
	return 0;
}

int dynprof_decode_params(const uint8_t in[DYNPROF_PARAMS_SIZE], char *json)
{
	uint32_t len;

	memcpy(&len, in, sizeof(len));
	if (len >= DYNPROF_PARAMS_DATA_LEN)
		return -EBADMSG;
	memcpy(json, in + sizeof(len), len);
	json[len] = '\0';
	return (int)len;
}

void dynprof_encode_msg(uint8_t out[DYNPROF_MSG_SIZE], int32_t type, int32_t status)
{
	memcpy(out, &type, sizeof(type));
	memcpy(out + sizeof(type), &status, sizeof(status));
}

void dynprof_decode_msg(const uint8_t in[DYNPROF_MSG_SIZE], struct dynprof_msg *msg)
{
	memcpy(&msg->type, in, sizeof(msg->type));
	memcpy(&msg->status, in + sizeof(msg->type), sizeof(msg->status));
}

/*
 * Wait until @fd is ready for @events or @deadline (ms, mono_ms() clock;
 * < 0 waits for ever) passes.  Return: 0 ready, -ETIMEDOUT, or -errno.
 * POLLHUP/POLLERR count as ready: the following send/recv reports them.
 */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int timeout, n;

	for (;;) {
		timeout = -1;
		if (deadline >= 0) {
			int64_t left = deadline - mono_ms();

			if (left <= 0)
				return -ETIMEDOUT;
			timeout = left > 0x7fffffff ? 0x7fffffff : (int)left;
		}
		n = poll(&pfd, 1, timeout);
		if (n > 0)
			return 0;
		if (n == 0)
			continue; /* the deadline check above reports it */
		if (errno != EINTR)
			return -errno;
	}
}

static int64_t deadline_after(int timeout_ms)
{
	return timeout_ms < 0 ? -1 : mono_ms() + timeout_ms;
}

int dynprof_send_all(int fd, const void *buf, size_t len, int timeout_ms)
{
	const uint8_t *p = buf;
	int64_t deadline = deadline_after(timeout_ms);
	ssize_t n;
	int err;

	while (len) {
		err = wait_fd(fd, POLLOUT, deadline);
		if (err)
			return err;
		n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			/* A reset peer is as gone as a closed one. */
			return errno == ECONNRESET ? -EPIPE : -errno;
		}
		p += n;
		len -= (size_t)n;
		deadline = deadline_after(timeout_ms); /* progress: restart the clock */
	}
	return 0;
}

int dynprof_recv_all(int fd, void *buf, size_t len, int timeout_ms)
{
	uint8_t *p = buf;
	int64_t deadline = deadline_after(timeout_ms);
	ssize_t n;
	int err;

	while (len) {
		err = wait_fd(fd, POLLIN, deadline);
		if (err)
			return err;
		n = recv(fd, p, len, MSG_DONTWAIT);
		if (n == 0)
			return -ECONNRESET; /* orderly close before a whole message */
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

const char *dynprof_status_name(int32_t status)
{
	switch (status) {
	case DYNPROF_SUCCESS:
		return "success";
	case DYNPROF_FAIL:
		return "fail";
	case DYNPROF_ALREADY_START:
		return "already started";
	case DYNPROF_NOT_SET_DEVICE:
		return "device not set";
	case DYNPROF_NOT_START:
		return "not started";
	}
	return "unknown status";
}

const char *dynprof_type_name(int32_t type)
{
	static const char *const names[] = {
		[DYNPROF_PARAMS_RSQ] = "PARAMS_RSQ",
		[DYNPROF_START_REQ] = "START_REQ",
		[DYNPROF_START_RSQ] = "START_RSQ",
		[DYNPROF_STOP_REQ] = "STOP_REQ",
		[DYNPROF_STOP_RSQ] = "STOP_RSQ",
		[DYNPROF_QUIT_REQ] = "QUIT_REQ",
		[DYNPROF_QUIT_RSQ] = "QUIT_RSQ",
		[DYNPROF_DISCONNECT_RSQ] = "DISCONNECT_RSQ",
	};

	if (type < 0 || type >= (int32_t)(sizeof(names) / sizeof(names[0])))
		return "UNKNOWN";
	return names[type];
}
