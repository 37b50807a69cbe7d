/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the multi-session VM tests (tests/vm/kmod_sessions_*.c), on
 * top of kmod_common.h: NPUPROF_IOC_TGID_OWNER, child processes that wait
 * for a word from the parent, and a child's work on the simulated NPU
 * (npusim.ko, whose tracepoints carry the submitting process's tgid).
 */
#ifndef NPUPROF_KMOD_SESSIONS_H
#define NPUPROF_KMOD_SESSIONS_H

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <npusim_ioctl.h>
#include "kmod_common.h"

static inline const char *kt_npusim_ko(void)
{
	return kt_first_existing("NPUSIM_KO", "build/kmod/npusim.ko",
				 "sim/driver/npusim.ko");
}

/* Skip without npusim.ko; else load npuprof.ko with @params, then npusim. */
static inline void kt_load_npusim(const char *params)
{
	if (access(kt_npusim_ko(), R_OK) != 0)
		CHECK_SKIP("npusim.ko not built");
	kt_unload_all();
	kt_unload("npusim");
	if (kt_load(kt_npuprof_ko(), params) || kt_load(kt_npusim_ko(), NULL)) {
		fprintf(stderr, "loading npuprof.ko and npusim.ko failed\n");
		kt_unload("npusim");
		kt_unload_all();
		exit(1);
	}
}

/*
 * NPUPROF_IOC_TGID_OWNER with @reserved0 in reserved[0].
 * Return: 0 with *@owner set, or -errno.
 */
static inline int kt_tgid_owner(struct kt_dev *d, uint32_t tgid,
				 uint32_t reserved0, uint32_t *owner)
{
	struct npuprof_tgid_owner req;

	memset(&req, 0, sizeof(req));
	req.tgid = tgid;
	req.owner_pid = 12345; /* out only: must be overwritten */
	req.reserved[0] = reserved0;
	if (ioctl(d->fd, NPUPROF_IOC_TGID_OWNER, &req) != 0)
		return -errno;
	*owner = req.owner_pid;
	return 0;
}

/* A child process and the two pipes to talk to it. */
struct kt_child {
	pid_t pid;
	int to_child;   /* parent writes */
	int from_child; /* parent reads */
};

/* Child side: the pipe ends of kt_child_start()'s child. */
struct kt_child_io {
	int in;
	int out;
};

/* Send / receive one u32 over a pipe.  Return 0 or -1. */
static inline int kt_send(int fd, uint32_t v)
{
	return write(fd, &v, sizeof(v)) == sizeof(v) ? 0 : -1;
}

static inline int kt_recv(int fd, uint32_t *v)
{
	return read(fd, v, sizeof(*v)) == sizeof(*v) ? 0 : -1;
}

/*
 * Fork a child that runs @fn(@arg, io) and exits with its return value
 * (0 success).  Return 0 or -errno.
 */
static inline int kt_child_start(struct kt_child *c,
				 int (*fn)(void *arg, struct kt_child_io *io),
				 void *arg)
{
	int down[2], up[2];

	c->pid = -1;
	c->to_child = c->from_child = -1;
	if (pipe(down) || pipe(up))
		return -errno;
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		struct kt_child_io io = { .in = down[0], .out = up[1] };

		close(down[1]);
		close(up[0]);
		_exit(fn(arg, &io));
	}
	close(down[0]);
	close(up[1]);
	c->to_child = down[1];
	c->from_child = up[0];
	return 0;
}

/* Wait for the child.  Return its exit status, or -1 if it did not exit. */
static inline int kt_child_wait(struct kt_child *c)
{
	int status;

	close(c->to_child);
	close(c->from_child);
	if (waitpid(c->pid, &status, 0) != c->pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* True once the parent wrote something (or closed) on @fd; never blocks. */
static inline bool kt_told(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0;
}

/* One stream of /dev/davinci0 for a child's tasks. */
struct kt_npu {
	int dev;
	uint32_t stream;
};

/* Open /dev/davinci0 and create a stream.  Return 0 or -errno. */
static inline int kt_npu_open(struct kt_npu *n)
{
	struct npusim_stream_req sreq = { 0, 0 };

	n->dev = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	if (n->dev < 0)
		return -errno;
	if (ioctl(n->dev, NPUSIM_IOC_STREAM_CREATE, &sreq) != 0) {
		close(n->dev);
		return -errno;
	}
	n->stream = sreq.stream;
	return 0;
}

/*
 * Submit @count kernel tasks named @name of @duration_ns each, then
 * synchronise the stream: 3 task events per kernel and 1 STREAM_SYNC.
 * Return 0 or -errno.
 */
static inline int kt_npu_kernels(struct kt_npu *n, unsigned int count,
				 const char *name, uint64_t duration_ns)
{
	struct npusim_task_req req;
	unsigned int i;

	for (i = 0; i < count; i++) {
		memset(&req, 0, sizeof(req));
		req.stream = n->stream;
		req.type = NPUSIM_TASK_KERNEL;
		req.duration_ns = duration_ns;
		snprintf(req.name, sizeof(req.name), "%s", name);
		if (ioctl(n->dev, NPUSIM_IOC_SUBMIT, &req) != 0)
			return -errno;
	}
	return ioctl(n->dev, NPUSIM_IOC_STREAM_SYNC, &n->stream) ? -errno : 0;
}

static inline void kt_npu_close(struct kt_npu *n)
{
	close(n->dev);
}

/* Records of one session, counted per event, checked per process. */
struct kt_tally {
	uint32_t pid;     /* the only pid expected */
	const char *name; /* kernel name of its tasks */
	unsigned int per_event[5];
	unsigned int records;
	unsigned int bad;
};

/* kt_rec_fn: count a task record of t->pid with every field as submitted. */
static inline void kt_tally_rec(void *ctx, unsigned int cpu,
				const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct kt_tally *t = ctx;
	bool sync;

	(void)cpu;
	t->records++;
	if (h->type != NPUPROF_REC_TASK || r->pid != t->pid ||
	    r->event < NPUPROF_TASK_SUBMIT || r->event > NPUPROF_TASK_STREAM_SYNC) {
		if (t->bad++ < 5)
			fprintf(stderr, "record of type %u pid %u event %u, want pid %u\n",
				h->type, r->pid, r->event, t->pid);
		return;
	}
	sync = r->event == NPUPROF_TASK_STREAM_SYNC;
	if (!sync && (r->task_type != NPUPROF_TT_KERNEL ||
		      strncmp(r->name, t->name, NPUPROF_NAME_LEN) != 0)) {
		if (t->bad++ < 5)
			fprintf(stderr, "pid %u task %u: type %u name %.32s, want %s\n",
				r->pid, r->task_id, r->task_type, r->name, t->name);
		return;
	}
	t->per_event[r->event]++;
}

#endif /* NPUPROF_KMOD_SESSIONS_H */
