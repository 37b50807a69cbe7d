// SPDX-License-Identifier: MIT
/*
 * The io_uring I/O engine (io_engine.h): each request is one SQE on a
 * ring of the caller's, each completion one CQE.  The fast path of the
 * drain: the thread that reads the producers' rings never makes a write
 * system call of its own, and one io_uring_enter() submits and waits.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <liburing.h>

#include "io_engine_int.h"

struct uring_engine {
	struct io_engine base;
	struct io_uring ring;
	struct __kernel_timespec tick; /* the timer's; read when submitted */
};

static struct uring_engine *to_uring(struct io_engine *e)
{
	return (struct uring_engine *)e;
}

/* A free SQE, submitting what is queued to make room; NULL when none. */
static struct io_uring_sqe *uring_sqe(struct uring_engine *u)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe) {
		io_uring_submit(&u->ring);
		sqe = io_uring_get_sqe(&u->ring);
	}
	return sqe;
}

static int uring_poll(struct io_engine *e, int fd, uint64_t user_data)
{
	struct io_uring_sqe *sqe = uring_sqe(to_uring(e));

	if (!sqe)
		return -EBUSY;
	io_uring_prep_poll_add(sqe, fd, POLLIN);
	io_uring_sqe_set_data64(sqe, user_data);
	return 0;
}

static int uring_timeout(struct io_engine *e, uint64_t ns, uint64_t user_data)
{
	struct uring_engine *u = to_uring(e);
	struct io_uring_sqe *sqe = uring_sqe(u);

	if (!sqe)
		return -EBUSY;
	u->tick.tv_sec = (long long)(ns / 1000000000ULL);
	u->tick.tv_nsec = (long long)(ns % 1000000000ULL);
	io_uring_prep_timeout(sqe, &u->tick, 0, 0);
	io_uring_sqe_set_data64(sqe, user_data);
	return 0;
}

static int uring_write(struct io_engine *e, int fd, const void *buf, size_t len, uint64_t off,
		       uint64_t user_data)
{
	struct io_uring_sqe *sqe = uring_sqe(to_uring(e));

	if (!sqe)
		return -EBUSY;
	io_uring_prep_write(sqe, fd, buf, (unsigned int)len, off);
	io_uring_sqe_set_data64(sqe, user_data);
	return 0;
}

static int uring_cancel(struct io_engine *e, uint64_t target, uint64_t user_data)
{
	struct io_uring_sqe *sqe = uring_sqe(to_uring(e));

	if (!sqe)
		return -EBUSY;
	io_uring_prep_cancel64(sqe, target, 0);
	io_uring_sqe_set_data64(sqe, user_data);
	return 0;
}

static int uring_submit(struct io_engine *e)
{
	int n = io_uring_submit(&to_uring(e)->ring);

	return n < 0 ? n : 0;
}

static int uring_wait(struct io_engine *e, int64_t timeout_ns)
{
	struct uring_engine *u = to_uring(e);
	struct __kernel_timespec ts;
	struct io_uring_cqe *cqe;
	int err;

	if (timeout_ns < 0) {
		err = io_uring_submit_and_wait(&u->ring, 1);
		return err < 0 ? err : 0;
	}
	ts.tv_sec = timeout_ns / 1000000000LL;
	ts.tv_nsec = timeout_ns % 1000000000LL;
	err = io_uring_submit_and_wait_timeout(&u->ring, &cqe, 1, &ts, NULL);
	/* -EAGAIN: a kernel without IORING_FEAT_EXT_ARG needed an SQE too. */
	if (err == -EAGAIN)
		return -ETIME;
	if (err < 0)
		return err;
	/* it counts what it submitted, even when the time ran out */
	return io_uring_cq_ready(&u->ring) ? 0 : -ETIME;
}

static bool uring_peek(struct io_engine *e, struct io_engine_cqe *c)
{
	struct uring_engine *u = to_uring(e);
	struct io_uring_cqe *cqe;

	if (io_uring_peek_cqe(&u->ring, &cqe))
		return false;
	c->user_data = io_uring_cqe_get_data64(cqe);
	c->res = cqe->res;
	io_uring_cqe_seen(&u->ring, cqe);
	return true;
}

static void uring_close(struct io_engine *e)
{
	struct uring_engine *u = to_uring(e);

	io_uring_queue_exit(&u->ring);
	free(u);
}

static const struct io_engine_ops uring_ops = {
	.poll = uring_poll,
	.timeout = uring_timeout,
	.write = uring_write,
	.cancel = uring_cancel,
	.submit = uring_submit,
	.wait = uring_wait,
	.peek = uring_peek,
	.close = uring_close,
};

int io_engine_uring_open(unsigned int entries, struct io_engine **out)
{
	struct uring_engine *u = calloc(1, sizeof(*u));
	int err;

	if (!u)
		return -ENOMEM;
	err = io_uring_queue_init(entries, &u->ring, 0);
	if (err) {
		free(u);
		return err;
	}
	u->base.ops = &uring_ops;
	u->base.kind = IO_ENGINE_URING;
	*out = &u->base;
	return 0;
}
