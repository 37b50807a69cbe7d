// SPDX-License-Identifier: MIT
/*
 * Description: more windows than one connection carries.  The server
 * answers DYNPROF_MAX_MESSAGES (100) commands on a connection and drops
 * it, as CANN's does; the loop reconnects, so 51 start/stop windows in one
 * run all succeed: the first connection carries exactly 100 commands, the
 * second the 51st window and the quit.  A START that would be the 100th
 * command goes on a new connection, so its STOP is never cut off.  Found
 * by the soak (tests/e2e/soak.sh), which stopped after 50 windows with
 * "server process N closed the connection".
 */
#include "check.h"
#include "cmdloop_fake.h"

#define MAX_CONNS 4

/* A server like the app's: SUCCESS to everything, drops after 100. */
struct limited_server {
	int fd;
	unsigned int got;
	int32_t types[DYNPROF_MAX_MESSAGES];
	pthread_t thread;
};

static struct limited_server conns[MAX_CONNS];
static unsigned int nr_conns;

static void *limited_main(void *arg)
{
	struct limited_server *srv = arg;
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;

	while (srv->got < DYNPROF_MAX_MESSAGES &&
	       !dynprof_recv_all(srv->fd, buf, sizeof(buf), 5000)) {
		dynprof_decode_msg(buf, &m);
		srv->types[srv->got++] = m.type;
		dynprof_encode_msg(buf, m.type + 1, DYNPROF_SUCCESS);
		if (dynprof_send_all(srv->fd, buf, sizeof(buf), 5000) || m.type == DYNPROF_QUIT_REQ)
			break;
	}
	close(srv->fd);
	return NULL;
}

/* A new connection with a server of its own; -1 when none is left. */
static int limited_connect(void)
{
	struct limited_server *srv;
	int sv[2];

	if (nr_conns == MAX_CONNS || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	srv = &conns[nr_conns++];
	memset(srv, 0, sizeof(*srv));
	srv->fd = sv[1];
	if (pthread_create(&srv->thread, NULL, limited_main, srv))
		return -1;
	return sv[0];
}

static int reconnect(struct msprof_dyn *d, struct msprof_target *t)
{
	int fd = limited_connect();

	(void)d;
	if (fd < 0)
		return -ENOMEM;
	close(t->fd);
	t->fd = fd;
	return 0;
}

/* Run the loop over @input; Return its result. */
static int run(const char *input)
{
	struct msprof_dyn d;
	struct capture c;
	int pfd[2], rc;
	unsigned int i;
	char *out;

	nr_conns = 0;
	if (pipe(pfd))
		CHECK_SKIP("pipe failed");
	fake_dyn_init(&d, limited_connect());
	d.t[0].app_pid = getpid();
	d.reconnect = reconnect;
	if (write(pfd[1], input, strlen(input)) != (ssize_t)strlen(input))
		CHECK_SKIP("pipe too small");
	close(pfd[1]);
	capture_begin(&c);
	rc = msprof_cmd_loop(&d, pfd[0]);
	out = capture_end(&c);
	close(pfd[0]);
	for (i = 0; i < nr_conns; i++)
		pthread_join(conns[i].thread, NULL);
	if (strstr(out, "closed the connection"))
		fprintf(stderr, "%s", out);
	CHECK(!strstr(out, "closed the connection"));
	free(out);
	return rc;
}

static char *repeat(const char *first, const char *pair, unsigned int n)
{
	size_t len = strlen(first) + n * strlen(pair) + 1;
	char *s = malloc(len);

	strcpy(s, first);
	while (n--)
		strcat(s, pair);
	return s;
}

/* 51 windows: 100 commands on the first connection, the rest on a second. */
static void test_51_windows(void)
{
	char *in = repeat("", "start\nstop\n", 51);

	CHECK_EQ(run(in), 0);
	CHECK_EQ(fake_ss.starts, 51);
	CHECK_EQ(fake_ss.stops, 51);
	CHECK_EQ(nr_conns, 2);
	CHECK_EQ(conns[0].got, 100);
	CHECK_EQ(conns[0].types[99], DYNPROF_STOP_REQ);
	CHECK_EQ(conns[1].got, 3);
	CHECK_EQ(conns[1].types[0], DYNPROF_START_REQ);
	CHECK_EQ(conns[1].types[1], DYNPROF_STOP_REQ);
	CHECK_EQ(conns[1].types[2], DYNPROF_QUIT_REQ);
	free(in);
}

/* One stray stop first: the 50th START would be command 100, so it moves. */
static void test_start_needs_room(void)
{
	char *in = repeat("stop\n", "start\nstop\n", 50);

	CHECK_EQ(run(in), 0);
	CHECK_EQ(fake_ss.starts, 50);
	CHECK_EQ(fake_ss.stops, 50);
	CHECK_EQ(nr_conns, 2);
	CHECK_EQ(conns[0].got, 99);
	CHECK_EQ(conns[0].types[98], DYNPROF_STOP_REQ);
	CHECK_EQ(conns[1].got, 3);
	CHECK_EQ(conns[1].types[0], DYNPROF_START_REQ);
	free(in);
}

int main(void)
{
	test_51_windows();
	test_start_needs_room();
	return CHECK_DONE();
}
