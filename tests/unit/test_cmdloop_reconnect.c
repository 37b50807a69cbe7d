// SPDX-License-Identifier: MIT
/*
 * Description: more windows than one connection carries, from any message
 * count.  The server answers DYNPROF_MAX_MESSAGES (100) commands on a
 * connection, then drops it and stops collecting; it serves one client at
 * a time (CANN's does the same, shared/reference/msprof.md).  The loop
 * replaces a connection between windows when it has no room left for a
 * START and its STOP, closing the old one first.  Each case gives the
 * exact commands per connection, and checks that no server waited for a
 * command until its timeout (the old connection left open) and that no
 * collection was cut by a dropped connection.  Found by review: a "stop"
 * before the first "start" left 99 commands; the START of the 50th window
 * then went out as the 100th, after a 5 s timeout on a second connection,
 * and the app stopped collecting while msprof reported the window running.
 */
#include "check.h"
#include "cmdloop_fake.h"

#define MAX_CONNS 4

/* Why a fake server's connection ended. */
enum srv_end { END_LIMIT = 1, END_QUIT, END_CLOSED, END_TIMEOUT };

/* One connection of the app's server, which drops it after 100 commands. */
struct limited_server {
	int fd;
	unsigned int got;
	int32_t types[DYNPROF_MAX_MESSAGES];
	enum srv_end end;
	pthread_t thread;
	int joined;
};

static struct limited_server conns[MAX_CONNS];
static unsigned int nr_conns;
static int app_collecting;    /* the app's state, across connections */
static unsigned int cut_windows; /* connections that ended while it collected */
static int fail_reconnect;    /* the next reconnect fails with this */

/* The app's answer to @type, as the simulated runtime's server gives it. */
static int32_t app_handle(int32_t type)
{
	switch (type) {
	case DYNPROF_START_REQ:
		if (app_collecting)
			return DYNPROF_ALREADY_START;
		app_collecting = 1;
		return DYNPROF_SUCCESS;
	case DYNPROF_STOP_REQ:
		if (!app_collecting)
			return DYNPROF_NOT_START;
		app_collecting = 0;
		return DYNPROF_SUCCESS;
	default:
		app_collecting = 0;
		return DYNPROF_SUCCESS;
	}
}

static void *limited_main(void *arg)
{
	struct limited_server *srv = arg;
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;
	int rc;

	while (!srv->end) {
		rc = dynprof_recv_all(srv->fd, buf, sizeof(buf), 5000);
		if (rc) {
			srv->end = rc == -ETIMEDOUT ? END_TIMEOUT : END_CLOSED;
			break;
		}
		dynprof_decode_msg(buf, &m);
		srv->types[srv->got++] = m.type;
		dynprof_encode_msg(buf, m.type + 1, app_handle(m.type));
		if (dynprof_send_all(srv->fd, buf, sizeof(buf), 5000))
			srv->end = END_CLOSED;
		else if (m.type == DYNPROF_QUIT_REQ)
			srv->end = END_QUIT;
		else if (srv->got == DYNPROF_MAX_MESSAGES)
			srv->end = END_LIMIT;
	}
	/* However the client left, the app stops collecting (srv_serve()). */
	if (app_collecting)
		cut_windows++;
	app_collecting = 0;
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

static void join_conn(unsigned int i)
{
	if (!conns[i].joined)
		pthread_join(conns[i].thread, NULL);
	conns[i].joined = 1;
}

/*
 * d->reconnect.  One client at a time: the server takes the new connection
 * only once it is done with the old one, so the loop must have closed it.
 */
static int reconnect(struct msprof_dyn *d, struct msprof_target *t)
{
	int fd;

	(void)d;
	CHECK_EQ(t->fd, -1);
	CHECK_EQ(t->msgs, 0);
	CHECK_EQ(t->collecting, 0);
	join_conn(nr_conns - 1);
	if (fail_reconnect)
		return fail_reconnect;
	fd = limited_connect();
	if (fd < 0)
		return -ENOMEM;
	t->fd = fd;
	return 0;
}

/* --require-server=on for the next run() (CANN's behaviour when a server is lost). */
static int strict;

/* Run the loop over @input into *@d; its output in *@out.  Return: its result. */
static int run(struct msprof_dyn *d, const char *input, char **out)
{
	struct capture c;
	int pfd[2], rc;
	unsigned int i;

	nr_conns = 0;
	app_collecting = 0;
	cut_windows = 0;
	if (pipe(pfd))
		CHECK_SKIP("pipe failed");
	fake_dyn_init(d, limited_connect());
	d->t[0].app_pid = getpid();
	d->reconnect = reconnect;
	d->require_server = strict;
	if (write(pfd[1], input, strlen(input)) != (ssize_t)strlen(input))
		CHECK_SKIP("pipe too small");
	close(pfd[1]);
	capture_begin(&c);
	rc = msprof_cmd_loop(d, pfd[0]);
	*out = capture_end(&c);
	close(pfd[0]);
	for (i = 0; i < nr_conns; i++)
		join_conn(i);
	for (i = 0; i < nr_conns; i++)
		CHECK(conns[i].end != END_TIMEOUT);
	CHECK_EQ(cut_windows, 0);
	return rc;
}

/* Run @input that should end well: no drop, no error; 0 incomplete. */
static void run_clean(const char *input, int want_starts)
{
	struct msprof_dyn d;
	char *out;

	CHECK_EQ(run(&d, input, &out), 0);
	if (strstr(out, "closed the connection") || strstr(out, "[ERROR]") || strstr(out, "stopped collecting"))
		fprintf(stderr, "%s", out);
	CHECK(!strstr(out, "closed the connection"));
	CHECK(!strstr(out, "[ERROR]"));
	CHECK(!strstr(out, "stopped collecting"));
	CHECK_EQ(d.incomplete, 0);
	CHECK_EQ(d.failures, 0);
	CHECK_EQ(fake_ss.starts, want_starts);
	CHECK_EQ(fake_ss.stops, want_starts);
	free(out);
}

static char *repeat(const char *first, const char *pair, unsigned int n, const char *last)
{
	size_t len = strlen(first) + n * strlen(pair) + strlen(last) + 1;
	char *s = malloc(len);

	strcpy(s, first);
	while (n--)
		strcat(s, pair);
	strcat(s, last);
	return s;
}

/* The commands connection @i carried, and how it ended. */
static void check_conn(unsigned int i, unsigned int got, enum srv_end end)
{
	CHECK_EQ(conns[i].got, got);
	CHECK_EQ(conns[i].end, end);
}

/* 51 windows: 100 commands on the first connection, the rest on a second. */
static void test_51_windows(void)
{
	char *in = repeat("", "start\nstop\n", 51, "");

	run_clean(in, 51);
	CHECK_EQ(nr_conns, 2);
	check_conn(0, 100, END_LIMIT);
	CHECK_EQ(conns[0].types[99], DYNPROF_STOP_REQ);
	check_conn(1, 3, END_QUIT);
	CHECK_EQ(conns[1].types[0], DYNPROF_START_REQ);
	CHECK_EQ(conns[1].types[1], DYNPROF_STOP_REQ);
	CHECK_EQ(conns[1].types[2], DYNPROF_QUIT_REQ);
	free(in);
}

/* A stop before any start, then 50 windows: after 99 commands the
 * connection has no room for a window and is replaced at once. */
static void test_stop_first(void)
{
	char *in = repeat("stop\n", "start\nstop\n", 50, "");

	run_clean(in, 50);
	CHECK_EQ(nr_conns, 2);
	check_conn(0, 99, END_CLOSED);
	CHECK_EQ(conns[0].types[0], DYNPROF_STOP_REQ);
	CHECK_EQ(conns[0].types[98], DYNPROF_STOP_REQ);
	check_conn(1, 3, END_QUIT);
	CHECK_EQ(conns[1].types[0], DYNPROF_START_REQ);
	free(in);
}

/* A start twice, then 50 windows: 3 + 48 * 2 = 99 on the first. */
static void test_start_twice(void)
{
	char *in = repeat("start\nstart\nstop\n", "start\nstop\n", 50, "");

	run_clean(in, 51);
	CHECK_EQ(nr_conns, 2);
	check_conn(0, 99, END_CLOSED);
	CHECK_EQ(conns[0].types[1], DYNPROF_START_REQ);
	check_conn(1, 5, END_QUIT);
	CHECK_EQ(conns[1].types[4], DYNPROF_QUIT_REQ);
	free(in);
}

/*
 * During a window the last command is the STOP's: with 99 sent and the
 * app collecting, a third start is answered without sending it.
 */
static void test_start_at_the_last_command(void)
{
	char *in = repeat("stop\n", "start\nstop\n", 48, "start\nstart\nstart\nstop\nstart\nstop\n");
	struct msprof_dyn d;
	char *out;

	CHECK_EQ(run(&d, in, &out), 0);
	CHECK_EQ(fake_ss.starts, 50);
	CHECK_EQ(fake_ss.stops, 50);
	CHECK_EQ(d.incomplete, 0);
	CHECK_EQ(nr_conns, 2);
	check_conn(0, 100, END_LIMIT);
	CHECK_EQ(conns[0].types[97], DYNPROF_START_REQ);
	CHECK_EQ(conns[0].types[98], DYNPROF_START_REQ);
	CHECK_EQ(conns[0].types[99], DYNPROF_STOP_REQ);
	check_conn(1, 3, END_QUIT);
	free(out);
	free(in);
}

/*
 * Connecting again fails.  With --require-server=on: said, the run counts
 * incomplete, and ends.  By default the app goes on from the kernel side:
 * said once, every window is had and whole.
 */
static void test_renewal_fails(void)
{
	char *in = repeat("stop\n", "start\nstop\n", 50, "");
	struct msprof_dyn d;
	char want[256];
	char *out;
	int rc;

	fail_reconnect = -ECONNREFUSED;
	rc = run(&d, in, &out);
	CHECK_EQ(rc, 0);
	CHECK_EQ(fake_ss.starts, 50);
	CHECK_EQ(fake_ss.stops, 50);
	CHECK_EQ(d.incomplete, 0);
	CHECK_EQ(d.failures, 0);
	CHECK_EQ(d.t[0].kernel_only, 1);
	CHECK_EQ(nr_conns, 1);
	snprintf(want, sizeof(want),
		 "[WARNING] msprof: pid %d: connecting to its server again failed: capturing it from the "
		 "kernel side only from now on (--require-server=on drops it instead)\n",
		 (int)getpid());
	CHECK(strstr(out, want) != NULL);
	free(out);

	strict = 1;
	rc = run(&d, in, &out);
	strict = 0;
	fail_reconnect = 0;
	CHECK_EQ(rc, -ECONNABORTED);
	CHECK_EQ(fake_ss.starts, 49);
	CHECK_EQ(d.incomplete, 1);
	CHECK_EQ(d.failures, 0);
	CHECK_EQ(d.t[0].fd, -1);
	CHECK_EQ(nr_conns, 1);
	check_conn(0, 99, END_CLOSED);
	snprintf(want, sizeof(want),
		 "[ERROR] msprof: pid %d: connecting to its server again after 99 commands failed: "
		 "Connection refused; its later windows cannot be collected\n",
		 (int)getpid());
	CHECK(strstr(out, want) != NULL);
	free(out);
	free(in);
}

int main(void)
{
	test_51_windows();
	test_stop_first();
	test_start_twice();
	test_start_at_the_last_command();
	test_renewal_fails();
	return CHECK_DONE();
}
