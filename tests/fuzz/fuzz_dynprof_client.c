// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the client side of the dynamic-profiling protocol, i.e.
 * msprof's prompt (tools/msprof/cmdloop.c) talking to one or two app
 * servers whose replies are fuzzed, over the codec of wire/dynprof_wire.c,
 * with the fake session calls of the command-loop unit tests.  One
 * thread: the requests are collected from the server ends between lines.
 *
 * Input: a flags byte (bit 0: two apps; bit 1: the capture cannot start;
 * bit 2: stdin is a terminal), a u8 length and that many bytes of command
 * lines, then the byte stream each server sends (with two apps: a u16
 * length and the first stream, the rest is the second).  Each stream is
 * written into a socketpair whose server side then only reads.  The lines
 * run in order, then end of input (quit) as msprof_cmd_loop() does.
 *
 * Properties beyond the sanitizers: at the end no capture runs and every
 * connection is closed; a server receives only {START|STOP|QUIT, 0}
 * requests, none after QUIT, and never more than one past the replies it
 * had sent or past its DISCONNECT_RSQ.  The command bytes also go through
 * the parameter-block codec: what is encoded decodes the same.
 */
#include <signal.h>

#include "cmdloop_fake.h"
#include "fuzz_util.h"

#define NR_APPS_MAX 2
#define MAX_REQUESTS 512

/* A server end: sends the fuzzed stream, reads and keeps the requests. */
struct app_end {
	int fd;
	uint8_t req[MAX_REQUESTS][DYNPROF_MSG_SIZE];
	size_t n_req;
	const uint8_t *stream;
	size_t len;
};

/* Take the requests @a's socket holds (whole ones: the client sends 8 bytes at once). */
static void take_requests(struct app_end *a)
{
	uint8_t buf[DYNPROF_MSG_SIZE];

	while (recv(a->fd, buf, sizeof(buf), MSG_DONTWAIT) == (ssize_t)sizeof(buf)) {
		FUZZ_ASSERT(a->n_req < MAX_REQUESTS);
		memcpy(a->req[a->n_req++], buf, sizeof(buf));
	}
}

static void take_all_requests(struct app_end *apps, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		take_requests(&apps[i]);
}

/* Pid of an app that does not exist: the loop finds it gone at once. */
static pid_t absent_pid(unsigned int i)
{
	return (pid_t)(0x7ffffff0 - i);
}

static void open_app(struct msprof_dyn *d, struct app_end *a, unsigned int i)
{
	int sv[2];

	FUZZ_ASSERT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
	FUZZ_ASSERT(!a->len || send(sv[1], a->stream, a->len, MSG_DONTWAIT) == (ssize_t)a->len);
	shutdown(sv[1], SHUT_WR);
	a->fd = sv[1];
	a->n_req = 0;
	d->t[i].fd = sv[0];
	d->t[i].app_pid = absent_pid(i);
	d->t[i].gone = 0;
}

/* What @a received fits the replies it had to give. */
static void check_requests(const struct app_end *a)
{
	size_t replies = a->len / DYNPROF_MSG_SIZE, i;
	struct dynprof_msg m;

	for (i = 0; i < replies; i++) {
		dynprof_decode_msg(a->stream + i * DYNPROF_MSG_SIZE, &m);
		if (m.type == DYNPROF_DISCONNECT_RSQ) {
			replies = i;
			break;
		}
	}
	FUZZ_ASSERT(a->n_req <= replies + 1);
	for (i = 0; i < a->n_req; i++) {
		dynprof_decode_msg(a->req[i], &m);
		FUZZ_ASSERT(m.type == DYNPROF_START_REQ || m.type == DYNPROF_STOP_REQ ||
			    m.type == DYNPROF_QUIT_REQ);
		FUZZ_ASSERT(m.status == 0);
		FUZZ_ASSERT(m.type != DYNPROF_QUIT_REQ || i == a->n_req - 1);
	}
}

/* Run each line of @text (@len bytes), then quit; returns when over. */
static void run_lines(struct msprof_dyn *d, const uint8_t *text, size_t len,
		      struct app_end *apps)
{
	char line[256 + 1]; /* the u8 length bounds the text */
	size_t start = 0, end;

	while (start < len) {
		for (end = start; end < len && text[end] != '\n'; end++)
			;
		snprintf(line, sizeof(line), "%.*s", (int)(end - start), (const char *)text + start);
		d->lineno++;
		if (msprof_cmd_run_line(d, line) == MSPROF_CMD_QUIT)
			return;
		take_all_requests(apps, d->nr_targets);
		start = end + 1;
	}
	msprof_cmd_quit(d);
}

/* The parameter block carries @text (as a C string) unchanged. */
static void check_params_codec(const uint8_t *text, size_t len)
{
	static uint8_t block[DYNPROF_PARAMS_SIZE];
	char json[DYNPROF_PARAMS_DATA_LEN + 1], back[DYNPROF_PARAMS_DATA_LEN + 1];
	int n;

	snprintf(json, sizeof(json), "%.*s", (int)len, (const char *)text);
	FUZZ_ASSERT(dynprof_encode_params(block, json) == 0);
	n = dynprof_decode_params(block, back);
	FUZZ_ASSERT(n == (int)strlen(json) && strcmp(json, back) == 0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	fuzz_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct app_end apps[NR_APPS_MAX];
	static struct msprof_dyn d;
	struct fuzz_in in = { data, size };
	uint8_t flags = fuzz_u8(&in);
	unsigned int n = flags & 1 ? 2 : 1, i;
	const uint8_t *text;
	size_t text_len = fuzz_take(&in, fuzz_u8(&in), &text);

	check_params_codec(text, text_len);
	if (n == 2)
		apps[0].len = fuzz_section(&in, &apps[0].stream);
	apps[n - 1].len = fuzz_take(&in, in.left, &apps[n - 1].stream);

	fake_dyn_init(&d, -1);
	fake_ss.start_rc = flags & 2 ? -ENOSPC : 0;
	d.tty = !!(flags & 4);
	d.nr_targets = n;
	for (i = 0; i < n; i++)
		open_app(&d, &apps[i], i);

	run_lines(&d, text, text_len, apps);
	take_all_requests(apps, n);

	FUZZ_ASSERT(!fake_ss.running);
	for (i = 0; i < n; i++) {
		FUZZ_ASSERT(d.t[i].fd == -1);
		close(apps[i].fd);
		check_requests(&apps[i]);
	}
	return 0;
}
