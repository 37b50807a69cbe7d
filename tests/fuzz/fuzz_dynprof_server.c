// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the server side of the dynamic-profiling protocol, i.e.
 * the message handling of sim/runtime/dynprof_server.c (included, so its
 * per-connection code runs without a thread or a listening socket) over
 * the codec of wire/dynprof_wire.c.
 *
 * Input: a flags byte (bit 0: the app holds a device open), then the byte
 * stream a client sends: the 4100-byte parameter block and 8-byte
 * commands, or anything else.  It is written into one end of a
 * socketpair, whose writing side is then shut, and the server serves the
 * other end to the end of the stream.
 *
 * Property beyond the sanitizers: the replies are exactly those of the
 * protocol (wire/include/dynprof_wire.h), computed here from the input by a
 * model of the exchange: PARAMS_RSQ SUCCESS or FAIL, then one {type + 1,
 * status} per command with CANN's statuses, DISCONNECT_RSQ when the
 * stream ends, nothing after QUIT or the 100th message; and no collection
 * is left running when the client is gone.
 */
#include "../../sim/runtime/dynprof_server.c"

#include "fuzz_util.h"

#define MAX_REPLIES (DYNPROF_MAX_MESSAGES + 2)

/* The rest of the runtime, as this file sees it. */
static int devices_open;

int acl_devices_open(void)
{
	return devices_open;
}

void acl_log(const char *fmt, ...)
{
	(void)fmt;
}

/* The status the server owes @type; updates *@collecting. */
static int32_t model_status(int32_t type, int *collecting)
{
	switch (type) {
	case DYNPROF_START_REQ:
		if (*collecting)
			return DYNPROF_ALREADY_START;
		if (!devices_open)
			return DYNPROF_NOT_SET_DEVICE;
		*collecting = 1;
		return DYNPROF_SUCCESS;
	case DYNPROF_STOP_REQ:
		if (!*collecting)
			return DYNPROF_NOT_START;
		*collecting = 0;
		return DYNPROF_SUCCESS;
	case DYNPROF_QUIT_REQ:
		*collecting = 0;
		return DYNPROF_SUCCESS;
	}
	return DYNPROF_FAIL;
}

/* The replies owed to client stream @in (@len bytes); returns how many. */
static size_t model_replies(const uint8_t *in, size_t len, struct dynprof_msg *rep)
{
	size_t n = 0, pos = DYNPROF_PARAMS_SIZE;
	int collecting = 0;
	uint32_t plen;

	if (len < DYNPROF_PARAMS_SIZE)
		return 0; /* the handshake never completed */
	memcpy(&plen, in, sizeof(plen));
	if (plen >= DYNPROF_PARAMS_DATA_LEN) {
		rep[n++] = (struct dynprof_msg){ DYNPROF_PARAMS_RSQ, DYNPROF_FAIL };
		return n;
	}
	rep[n++] = (struct dynprof_msg){ DYNPROF_PARAMS_RSQ, DYNPROF_SUCCESS };
	for (int msgs = 0; msgs < DYNPROF_MAX_MESSAGES; msgs++) {
		int32_t type;

		if (len - pos < DYNPROF_MSG_SIZE) {
			rep[n++] = (struct dynprof_msg){ DYNPROF_DISCONNECT_RSQ, DYNPROF_SUCCESS };
			return n;
		}
		memcpy(&type, in + pos, sizeof(type));
		pos += DYNPROF_MSG_SIZE;
		rep[n].status = model_status(type, &collecting);
		rep[n++].type = (int32_t)((uint32_t)type + 1);
		if (type == DYNPROF_QUIT_REQ)
			return n;
	}
	return n;
}

/*
 * The client's reading side, on its own thread: it takes every reply as
 * it comes, as a real client does (unread replies would fill the socket
 * and stall the server's next send).
 */
struct reader {
	pthread_t thread;
	int fd;
	uint8_t buf[(MAX_REPLIES + 1) * DYNPROF_MSG_SIZE];
	size_t got;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	ssize_t n;

	while (r->got < sizeof(r->buf) && (n = recv(r->fd, r->buf + r->got,
						     sizeof(r->buf) - r->got, 0)) > 0)
		r->got += (size_t)n;
	return NULL;
}

/* Decode what @r read; returns the number of replies. */
static size_t decode_replies(const struct reader *r, struct dynprof_msg *rep)
{
	size_t n = r->got / DYNPROF_MSG_SIZE;

	FUZZ_ASSERT(r->got % DYNPROF_MSG_SIZE == 0 && n <= MAX_REPLIES);
	for (size_t i = 0; i < n; i++)
		dynprof_decode_msg(r->buf + i * DYNPROF_MSG_SIZE, &rep[i]);
	return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dynprof_msg want[MAX_REPLIES], got[MAX_REPLIES];
	static struct reader r;
	struct fuzz_in in = { data, size };
	const uint8_t *stream;
	size_t len, n_want, n_got;
	int sv[2];

	devices_open = fuzz_u8(&in) & 1;
	len = fuzz_take(&in, in.left, &stream);
	FUZZ_ASSERT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	FUZZ_ASSERT(!len || send(sv[0], stream, len, MSG_DONTWAIT) == (ssize_t)len);
	shutdown(sv[0], SHUT_WR);
	r.fd = sv[0];
	r.got = 0;
	FUZZ_ASSERT(pthread_create(&r.thread, NULL, reader_main, &r) == 0);

	srv.collecting = 0;
	srv_serve(sv[1]);
	FUZZ_ASSERT(srv.collecting == 0);
	close(sv[1]);
	pthread_join(r.thread, NULL);
	close(sv[0]);

	n_got = decode_replies(&r, got);
	n_want = model_replies(stream, len, want);
	FUZZ_ASSERT(n_got == n_want);
	for (size_t i = 0; i < n_got; i++)
		FUZZ_ASSERT(got[i].type == want[i].type && got[i].status == want[i].status);
	return 0;
}
