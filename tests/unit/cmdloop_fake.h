/* SPDX-License-Identifier: MIT */
/*
 * Fakes for the msprof command-loop tests (test_cmdloop_*.c): a scripted
 * dynamic-profiling server on one end of a socketpair, fake session calls
 * that count what the loop asked for, and capture of stdout/stderr so a
 * test can compare the exact lines printed.
 */
#ifndef NPUPROF_TEST_CMDLOOP_FAKE_H
#define NPUPROF_TEST_CMDLOOP_FAKE_H

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <dynprof_wire.h>
#include <npuprof/msg.h>

#include "cmdloop.h"

#define FAKE_MAX 16
#define FAKE_CLOSE (-1) /* script entry: close the connection instead of replying */

/**
 * struct fake_server - scripted server
 * @fd:      its end of the socketpair
 * @script:  reply to the i-th request ({FAKE_CLOSE, 0} closes)
 * @n:       entries in @script
 * @got:     the raw 8-byte requests received, in order
 * @n_got:   how many
 * @running_at: whether the fake capture ran when request i arrived
 */
struct fake_server {
	int fd;
	struct dynprof_msg script[FAKE_MAX];
	int n;
	uint8_t got[FAKE_MAX][DYNPROF_MSG_SIZE];
	int n_got;
	int running_at[FAKE_MAX];
	pthread_t thread;
};

/* Fake session: counts calls, "captures" while running. */
struct fake_session_state {
	int running;
	int starts, stops, discards, pid_discards, removes;
	/* several processes: their pids (0: one process, pid 42's results) */
	unsigned int nr_pids;
	pid_t pids[4];
	int discarded[4];
	int start_rc;
	/* one process: how its stop went (copied into its result) */
	int stop_rc;
	struct npuprof_loss loss;
	struct npuprof_loss cpu_loss[2];
	unsigned int nr_cpu_loss;
	int write_error;
	const char *unwritten;
	int unwritten_error;
	/* the session's last failure; NULL: a full disk at start (fake_error()) */
	const struct npuprof_error *error;
};

static struct fake_session_state fake_ss;

static void *fake_server_main(void *arg)
{
	struct fake_server *f = arg;
	uint8_t buf[DYNPROF_MSG_SIZE];

	while (f->n_got < FAKE_MAX && !dynprof_recv_all(f->fd, buf, sizeof(buf), 5000)) {
		int i = f->n_got++;

		memcpy(f->got[i], buf, sizeof(buf));
		/* The request was sent after the session call: the socket orders them. */
		f->running_at[i] = __atomic_load_n(&fake_ss.running, __ATOMIC_ACQUIRE);
		if (i >= f->n || f->script[i].type == FAKE_CLOSE)
			break;
		dynprof_encode_msg(buf, f->script[i].type, f->script[i].status);
		if (dynprof_send_all(f->fd, buf, sizeof(buf), 5000))
			break;
	}
	close(f->fd);
	return NULL;
}

/* Start the server; *@client_fd gets the msprof end. */
static inline int fake_server_start(struct fake_server *f, int *client_fd)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	f->fd = sv[1];
	*client_fd = sv[0];
	return pthread_create(&f->thread, NULL, fake_server_main, f) ? -1 : 0;
}

static inline void fake_server_join(struct fake_server *f)
{
	pthread_join(f->thread, NULL);
}

/* 1 when request @i was exactly {@type, 0} on the wire. */
static inline int fake_got(const struct fake_server *f, int i, int32_t type)
{
	uint8_t want[DYNPROF_MSG_SIZE];

	dynprof_encode_msg(want, type, 0);
	return i < f->n_got && !memcmp(f->got[i], want, sizeof(want));
}

static int fake_start(struct npuprof_session *s)
{
	(void)s;
	fake_ss.starts++;
	if (fake_ss.start_rc)
		return fake_ss.start_rc;
	fake_ss.running = 1;
	return 0;
}

static int fake_running(const struct npuprof_session *s)
{
	(void)s;
	return fake_ss.running;
}

static int fake_stop(struct npuprof_session *s, struct npuprof_session_result *res,
		     unsigned int nres)
{
	(void)s;
	fake_ss.stops++;
	fake_ss.running = 0;
	if (res && nres && !fake_ss.nr_pids) {
		memset(res, 0, sizeof(*res));
		res->discarded = fake_ss.pid_discards > 0;
		snprintf(res->prof_dir, sizeof(res->prof_dir), "/out/PROF_000001_20260101000000000_00000042ABCDEFGH");
		res->api_records = 12;
		res->task_records = 34;
		res->loss = fake_ss.loss;
		memcpy(res->cpu_loss, fake_ss.cpu_loss, sizeof(fake_ss.cpu_loss));
		res->nr_cpu_loss = fake_ss.nr_cpu_loss;
		res->write_error = fake_ss.write_error;
		snprintf(res->unwritten, sizeof(res->unwritten), "%s",
			 fake_ss.unwritten ? fake_ss.unwritten : "");
		res->unwritten_error = fake_ss.unwritten_error;
	}
	for (unsigned int i = 0; res && i < nres && i < fake_ss.nr_pids; i++) {
		memset(&res[i], 0, sizeof(res[i]));
		res[i].pid = fake_ss.pids[i];
		res[i].discarded = fake_ss.discarded[i];
		snprintf(res[i].prof_dir, sizeof(res[i].prof_dir), "/out/PROF_%d", (int)fake_ss.pids[i]);
		res[i].api_records = 10 + i;
		res[i].task_records = 20 + i;
	}
	memset(fake_ss.discarded, 0, sizeof(fake_ss.discarded));
	fake_ss.pid_discards = 0;
	return fake_ss.stop_rc;
}

static int fake_discard(struct npuprof_session *s)
{
	(void)s;
	fake_ss.discards++;
	fake_ss.running = 0;
	return 0;
}

static int fake_discard_pid(struct npuprof_session *s, pid_t pid)
{
	(void)s;
	fake_ss.pid_discards++;
	for (unsigned int i = 0; i < fake_ss.nr_pids; i++)
		if (fake_ss.pids[i] == pid)
			fake_ss.discarded[i] = 1;
	return 0;
}

/*
 * As the session does: a process removed during a window keeps its data
 * of the window (saved at stop); one removed outside a window is gone.
 */
static int fake_remove_pid(struct npuprof_session *s, pid_t pid)
{
	(void)s;
	fake_ss.removes++;
	for (unsigned int i = 0; !fake_ss.running && i < fake_ss.nr_pids; i++) {
		if (fake_ss.pids[i] != pid)
			continue;
		for (unsigned int j = i + 1; j < fake_ss.nr_pids; j++) {
			fake_ss.pids[j - 1] = fake_ss.pids[j];
			fake_ss.discarded[j - 1] = fake_ss.discarded[j];
		}
		fake_ss.nr_pids--;
		break;
	}
	return 0;
}

static unsigned int fake_window_dirs(const struct npuprof_session *s)
{
	unsigned int i, n = 0;

	(void)s;
	if (!fake_ss.running)
		return 0;
	if (!fake_ss.nr_pids)
		return !fake_ss.pid_discards;
	for (i = 0; i < fake_ss.nr_pids; i++)
		n += !fake_ss.discarded[i];
	return n;
}

static const char *fake_prof_dir(const struct npuprof_session *s, pid_t pid)
{
	(void)s;
	for (unsigned int i = 0; i < fake_ss.nr_pids; i++)
		if (fake_ss.pids[i] == pid)
			return fake_ss.running && !fake_ss.discarded[i] ? "/out/PROF_x" : NULL;
	return fake_ss.running && !fake_ss.pid_discards ? "/out/PROF_000001_20260101000000000_00000042ABCDEFGH"
							: NULL;
}

/* fake_ss.error, else what a full disk at start leaves: stage OUTPUT on /out. */
static const struct npuprof_error *fake_error(const struct npuprof_session *s)
{
	static const struct npuprof_error full = {
		.stage = NPUPROF_STAGE_OUTPUT, .err = -ENOSPC, .object = "/out"
	};

	(void)s;
	return fake_ss.error ? fake_ss.error : &full;
}

static const struct msprof_session_ops fake_ops = {
	.start = fake_start,
	.running = fake_running,
	.stop = fake_stop,
	.discard = fake_discard,
	.discard_pid = fake_discard_pid,
	.remove_pid = fake_remove_pid,
	.window_dirs = fake_window_dirs,
	.prof_dir = fake_prof_dir,
	.error = fake_error,
};

/* A msprof_dyn talking to @fd, for an app of pid 42 (set t[0].app_pid to a
 * live process where the loop checks it). */
static inline void fake_dyn_init(struct msprof_dyn *d, int fd)
{
	memset(d, 0, sizeof(*d));
	memset(&fake_ss, 0, sizeof(fake_ss));
	d->t[0].fd = fd;
	d->t[0].app_pid = 42;
	d->nr_targets = 1;
	d->ops = &fake_ops;
	d->cmd_timeout_ms = 2000;
	npuprof_msg_set_prog("msprof");
}

/* stdout+stderr capture into one temporary file, in print order. */
struct capture {
	int saved_out, saved_err;
	FILE *tmp;
};

static inline void capture_begin(struct capture *c)
{
	fflush(stdout);
	fflush(stderr);
	c->tmp = tmpfile();
	c->saved_out = dup(STDOUT_FILENO);
	c->saved_err = dup(STDERR_FILENO);
	dup2(fileno(c->tmp), STDOUT_FILENO);
	dup2(fileno(c->tmp), STDERR_FILENO);
}

/* Restore stdout/stderr; return what was printed (malloc'd). */
static inline char *capture_end(struct capture *c)
{
	static const size_t max = 65536;
	char *text = calloc(1, max);
	size_t n;

	fflush(stdout);
	fflush(stderr);
	dup2(c->saved_out, STDOUT_FILENO);
	dup2(c->saved_err, STDERR_FILENO);
	close(c->saved_out);
	close(c->saved_err);
	rewind(c->tmp);
	n = fread(text, 1, max - 1, c->tmp);
	text[n] = '\0';
	fclose(c->tmp);
	return text;
}

/*
 * Run the command loop of @d on @input (a pipe, as batch mode reads it);
 * *@out gets everything printed (malloc'd).  Return: the loop's result,
 * or -1 when no pipe could be had.
 */
static inline int fake_loop_input(struct msprof_dyn *d, const char *input, char **out)
{
	struct capture c;
	int pfd[2], rc;
	ssize_t len = (ssize_t)strlen(input);

	*out = NULL;
	if (pipe(pfd))
		return -1;
	if (write(pfd[1], input, (size_t)len) != len) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	close(pfd[1]);
	capture_begin(&c);
	rc = msprof_cmd_loop(d, pfd[0]);
	*out = capture_end(&c);
	close(pfd[0]);
	return rc;
}

#endif /* NPUPROF_TEST_CMDLOOP_FAKE_H */
