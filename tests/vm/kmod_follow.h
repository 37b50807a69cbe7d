/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the follow VM tests (tests/vm/kmod_follow_*.c), on top of
 * kmod_sessions.h: ADD_TGID_FLAGS and FOLLOW_STATS as the ABI header
 * describes them, a tally of records by the thread that caused them, and
 * the "forker": a child process that forks, releases and reaps children
 * of its own when the test tells it to, so the test decides exactly when
 * a followed process forks.
 */
#ifndef NPUPROF_KMOD_FOLLOW_H
#define NPUPROF_KMOD_FOLLOW_H

#include <pthread.h>
#include "kmod_sessions.h"

/*
 * NPUPROF_IOC_ADD_TGID_FLAGS with @reserved5 in the last reserved word.
 * Return: 0 or -errno.
 */
static inline int kt_add_tgid_flags(struct kt_dev *d, uint32_t tgid,
				    uint32_t flags, uint32_t reserved5)
{
	struct npuprof_tgid_add req;

	memset(&req, 0, sizeof(req));
	req.tgid = tgid;
	req.flags = flags;
	req.reserved[5] = reserved5;
	return ioctl(d->fd, NPUPROF_IOC_ADD_TGID_FLAGS, &req) ? -errno : 0;
}

static inline int kt_follow(struct kt_dev *d, uint32_t tgid)
{
	return kt_add_tgid_flags(d, tgid, NPUPROF_TGID_FOLLOW, 0);
}

/* NPUPROF_IOC_FOLLOW_STATS; reserved words must come back 0.  0 or -errno. */
static inline int kt_follow_stats(struct kt_dev *d,
				  struct npuprof_follow_stats *st)
{
	unsigned int i;

	memset(st, 0xa5, sizeof(*st)); /* out only: all must be overwritten */
	if (ioctl(d->fd, NPUPROF_IOC_FOLLOW_STATS, st) != 0)
		return -errno;
	for (i = 0; i < sizeof(st->reserved) / sizeof(st->reserved[0]); i++)
		if (st->reserved[i])
			return -EPROTO;
	return 0;
}

/* TGID_OWNER of @tgid, or UINT32_MAX when the ioctl failed. */
static inline uint32_t kt_owner(struct kt_dev *d, uint32_t tgid)
{
	uint32_t owner = UINT32_MAX;

	return kt_tgid_owner(d, tgid, 0, &owner) ? UINT32_MAX : owner;
}

/* True once @pid is a zombie (exited, not reaped); waits up to 5 s. */
static inline bool kt_wait_zombie(pid_t pid)
{
	char path[64], buf[512], *p;
	ssize_t n;
	int i, fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (i = 0; i < 500; i++) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return false;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		buf[n > 0 ? n : 0] = '\0';
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'Z')
			return true;
		usleep(10000);
	}
	return false;
}

/*
 * Records by the thread that caused them: every task record's tid must be
 * one source's, with that source's pid and kernel name.
 */
struct kt_src {
	uint32_t pid;
	uint32_t tid;
	const char *name;
	unsigned int kernels; /* 0: no record expected at all */
	unsigned int per_event[5];
};

struct kt_srcs {
	struct kt_src src[8];
	unsigned int n;
	unsigned int records;
	unsigned int bad;
};

static inline void kt_srcs_add(struct kt_srcs *t, uint32_t pid, uint32_t tid,
			       const char *name, unsigned int kernels)
{
	struct kt_src *s = &t->src[t->n++];

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	s->tid = tid;
	s->name = name;
	s->kernels = kernels;
}

/* kt_rec_fn: route a record to the source of its tid and check it. */
static inline void kt_srcs_rec(void *ctx, unsigned int cpu,
			       const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct kt_srcs *t = ctx;
	struct kt_src *s = NULL;
	unsigned int i;

	(void)cpu;
	t->records++;
	for (i = 0; h->type == NPUPROF_REC_TASK && i < t->n; i++)
		if (t->src[i].tid == r->tid)
			s = &t->src[i];
	if (!s || r->pid != s->pid || r->event < NPUPROF_TASK_SUBMIT ||
	    r->event > NPUPROF_TASK_STREAM_SYNC ||
	    (r->event != NPUPROF_TASK_STREAM_SYNC &&
	     (r->task_type != NPUPROF_TT_KERNEL ||
	      strncmp(r->name, s->name, NPUPROF_NAME_LEN) != 0))) {
		if (t->bad++ < 5)
			fprintf(stderr, "record of type %u pid %u tid %u event %u name %.32s: no such source\n",
				h->type, r->pid, r->tid, r->event, r->name);
		return;
	}
	s->per_event[r->event]++;
}

/* Records every source should have: 3 per kernel and 1 sync if any. */
static inline unsigned int kt_srcs_expected(const struct kt_srcs *t)
{
	unsigned int i, n = 0;

	for (i = 0; i < t->n; i++)
		n += t->src[i].kernels ? 3 * t->src[i].kernels + 1 : 0;
	return n;
}

/* Each source got exactly its kernels' SUBMIT, START, END and its sync. */
static inline void kt_srcs_check(const struct kt_srcs *t)
{
	const struct kt_src *s;
	unsigned int i;

	CHECK_EQ(t->bad, 0);
	CHECK_EQ(t->records, kt_srcs_expected(t));
	for (i = 0; i < t->n; i++) {
		s = &t->src[i];
		if (s->per_event[NPUPROF_TASK_SUBMIT] != s->kernels ||
		    s->per_event[NPUPROF_TASK_START] != s->kernels ||
		    s->per_event[NPUPROF_TASK_END] != s->kernels ||
		    s->per_event[NPUPROF_TASK_STREAM_SYNC] != !!s->kernels)
			fprintf(stderr, "source %s (pid %u tid %u): %u/%u/%u/%u records, want %u kernels\n",
				s->name, s->pid, s->tid,
				s->per_event[NPUPROF_TASK_SUBMIT],
				s->per_event[NPUPROF_TASK_START],
				s->per_event[NPUPROF_TASK_END],
				s->per_event[NPUPROF_TASK_STREAM_SYNC], s->kernels);
		CHECK_EQ(s->per_event[NPUPROF_TASK_SUBMIT], s->kernels);
		CHECK_EQ(s->per_event[NPUPROF_TASK_START], s->kernels);
		CHECK_EQ(s->per_event[NPUPROF_TASK_END], s->kernels);
		CHECK_EQ(s->per_event[NPUPROF_TASK_STREAM_SYNC], !!s->kernels);
	}
}

/*
 * The forker: a child (kt_child_start(c, kt_forker_main, NULL)) that
 * serves one command at a time, a pair of u32 (command, argument), and
 * answers with one u32:
 *   KT_FORK k    fork a child that waits for KT_GO, then submits k kernels
 *                named "child" (none for 0) and exits; answer: its pid
 *   KT_GO 0      let every waiting child go (they exit soon); answer 0
 *   KT_REAP 0    wait for every child; answer: how many failed
 *   KT_THREAD 0  start a thread that exits at once, join it; answer: its tid
 *   KT_KERNELS k submit k kernels named "forker" itself and sync; answer 0
 * When the test closes the pipe it lets its children go, reaps them and
 * exits 0, or 1 if one failed.  Answers are UINT32_MAX on errors.
 */
enum { KT_FORK = 1, KT_GO, KT_REAP, KT_THREAD, KT_KERNELS };

#define KT_FORKER_MAX_KIDS 64

struct kt_forker {
	int go[2]; /* children read go[0] until the forker closes go[1] */
	pid_t kids[KT_FORKER_MAX_KIDS];
	unsigned int nr_kids;
};

/* A stream of its own, @kernels kernels named @name, a sync.  0 or 3. */
static inline int kt_run_kernels(unsigned int kernels, const char *name)
{
	struct kt_npu npu;

	if (kt_npu_open(&npu))
		return 3;
	if (kt_npu_kernels(&npu, kernels, name, 20000)) {
		kt_npu_close(&npu);
		return 3;
	}
	kt_npu_close(&npu);
	return 0;
}

static inline int kt_forker_kid(int go, unsigned int kernels)
{
	char byte;

	while (read(go, &byte, 1) < 0 && errno == EINTR)
		;
	return kernels ? kt_run_kernels(kernels, "child") : 0;
}

static inline uint32_t kt_forker_fork(struct kt_forker *f,
				      struct kt_child_io *io,
				      unsigned int kernels)
{
	pid_t pid;

	if (f->nr_kids == KT_FORKER_MAX_KIDS ||
	    (f->go[1] < 0 && pipe(f->go)))
		return UINT32_MAX;
	pid = fork();
	if (pid < 0)
		return UINT32_MAX;
	if (pid == 0) {
		close(io->in);
		close(io->out);
		close(f->go[1]);
		_exit(kt_forker_kid(f->go[0], kernels));
	}
	f->kids[f->nr_kids++] = pid;
	return (uint32_t)pid;
}

static inline void kt_forker_go(struct kt_forker *f)
{
	if (f->go[1] < 0)
		return;
	close(f->go[1]);
	close(f->go[0]);
	f->go[0] = f->go[1] = -1;
}

static inline uint32_t kt_forker_reap(struct kt_forker *f)
{
	uint32_t failed = 0;
	int status;

	while (f->nr_kids) {
		pid_t pid = f->kids[--f->nr_kids];

		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			failed++;
	}
	return failed;
}

static inline void *kt_forker_thread_fn(void *arg)
{
	*(uint32_t *)arg = (uint32_t)gettid();
	return NULL;
}

static inline uint32_t kt_forker_thread(void)
{
	uint32_t tid = UINT32_MAX;
	pthread_t th;

	if (pthread_create(&th, NULL, kt_forker_thread_fn, &tid) ||
	    pthread_join(th, NULL))
		return UINT32_MAX;
	return tid;
}

static inline int kt_forker_main(void *arg, struct kt_child_io *io)
{
	struct kt_forker f = { .go = { -1, -1 } };
	uint32_t cmd, val, reply;

	(void)arg;
	while (!kt_recv(io->in, &cmd) && !kt_recv(io->in, &val)) {
		switch (cmd) {
		case KT_FORK:
			reply = kt_forker_fork(&f, io, val);
			break;
		case KT_GO:
			kt_forker_go(&f);
			reply = 0;
			break;
		case KT_REAP:
			reply = kt_forker_reap(&f);
			break;
		case KT_THREAD:
			reply = kt_forker_thread();
			break;
		case KT_KERNELS:
			reply = kt_run_kernels(val, "forker") ? UINT32_MAX : 0;
			break;
		default:
			reply = UINT32_MAX;
		}
		if (kt_send(io->out, reply))
			break;
	}
	kt_forker_go(&f);
	return kt_forker_reap(&f) ? 1 : 0;
}

/* Test side: one command to the forker.  Its answer, UINT32_MAX on error. */
static inline uint32_t kt_forker_do(struct kt_child *c, uint32_t cmd,
				    uint32_t val)
{
	uint32_t reply = UINT32_MAX;

	if (kt_send(c->to_child, cmd) || kt_send(c->to_child, val) ||
	    kt_recv(c->from_child, &reply))
		return UINT32_MAX;
	return reply;
}

#endif /* NPUPROF_KMOD_FOLLOW_H */
