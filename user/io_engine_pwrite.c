// SPDX-License-Identifier: MIT
/*
 * The pwrite I/O engine (io_engine.h): the drain's fallback where io_uring
 * is refused.  It needs only system calls every container profile allows:
 * ppoll, pwrite, eventfd, futex (through pthreads).
 *
 *  - Polls and the timer live in the caller's thread: io_engine_wait()
 *    ppoll()s the fds of the polls still armed plus an eventfd, with the
 *    timer's deadline as timeout, and turns what fired into completions.
 *  - Writes go to one writer thread through a FIFO under a mutex, so the
 *    caller (the drain, reading the producers' rings) never waits for the
 *    disk, as with io_uring.  The thread pwrite()s each write once, at
 *    its offset, and hands the result back as a completion, signalling
 *    the eventfd.  A short write is reported as such: the slice writer
 *    resubmits the rest, as it does for io_uring.  Writes of one slice
 *    series are never two in flight at once (slice_writer.c), and the
 *    thread takes them in order, so files grow as they do with io_uring.
 *  - A cancel finds a write still in the FIFO (it completes with
 *    -ECANCELED) or a poll still armed; the write under way is -EALREADY,
 *    and completes on its own.
 * No fsync: like the io_uring engine, a write is done once the kernel
 * took it; the crash guarantees are the frames' (slice.h), not the disk's.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/clock.h>

#include "io_engine_int.h"

/* One request: a poll, the timer, a write, or a cancel's own completion. */
struct pw_req {
	struct pw_req *next;
	uint64_t user_data;
	int fd;		 /* poll, write */
	const void *buf; /* write */
	size_t len;
	uint64_t off;	 /* write: file offset; timer: CLOCK_MONOTONIC deadline */
	int res;
};

/* A FIFO of requests. */
struct pw_list {
	struct pw_req *head;
	struct pw_req *tail;
};

struct pwrite_engine {
	struct io_engine base;
	/* the caller's thread only */
	struct pw_list polls;	 /* armed polls */
	struct pw_req *timer;	 /* the armed timer, or NULL */
	struct pw_list ready;	 /* completions io_engine_peek() hands out */
	struct pollfd *pfd;	 /* io_engine_wait()'s set: the eventfd, the polls */
	struct pw_req **pfd_req; /* the poll of each pfd[i], i >= 1 */
	unsigned int pfd_cap;
	/* shared with the writer thread, under lock */
	pthread_mutex_t lock;
	pthread_cond_t more;	 /* signalled when a write is queued, or at quit */
	struct pw_list queue;	 /* writes not started */
	struct pw_req *busy;	 /* the write under way, or NULL */
	struct pw_list done;	 /* writes finished, not yet moved to ready */
	bool quit;
	bool orphaned;		 /* closed while busy: the thread frees the engine */
	int done_fd;		 /* eventfd: the thread finished a write */
	pthread_t thread;
};

static struct pwrite_engine *to_pw(struct io_engine *e)
{
	return (struct pwrite_engine *)e;
}

static void list_push(struct pw_list *l, struct pw_req *r)
{
	r->next = NULL;
	if (l->tail)
		l->tail->next = r;
	else
		l->head = r;
	l->tail = r;
}

static struct pw_req *list_pop(struct pw_list *l)
{
	struct pw_req *r = l->head;

	if (r) {
		l->head = r->next;
		if (!l->head)
			l->tail = NULL;
	}
	return r;
}

/* Move every request of @from to the end of @to. */
static void list_splice(struct pw_list *to, struct pw_list *from)
{
	if (!from->head)
		return;
	if (to->tail)
		to->tail->next = from->head;
	else
		to->head = from->head;
	to->tail = from->tail;
	from->head = from->tail = NULL;
}

/*
 * Take the first request of @l that is @which (when not NULL) or has
 * @user_data out of @l; NULL when there is none.
 */
static struct pw_req *list_take(struct pw_list *l, const struct pw_req *which,
				uint64_t user_data)
{
	struct pw_req *prev = NULL;

	for (struct pw_req *r = l->head; r; prev = r, r = r->next) {
		if (which ? r != which : r->user_data != user_data)
			continue;
		if (prev)
			prev->next = r->next;
		else
			l->head = r->next;
		if (l->tail == r)
			l->tail = prev;
		return r;
	}
	return NULL;
}

static void list_free(struct pw_list *l)
{
	struct pw_req *r;

	while ((r = list_pop(l)))
		free(r);
}

static struct pw_req *req_new(uint64_t user_data)
{
	struct pw_req *r = calloc(1, sizeof(*r));

	if (r)
		r->user_data = user_data;
	return r;
}

static void complete(struct pwrite_engine *p, struct pw_req *r, int res)
{
	r->res = res;
	list_push(&p->ready, r);
}

static void pw_free(struct pwrite_engine *p);

/*
 * The writer thread: pwrite() each queued write once, in order.  At quit
 * it ends after the write under way; when the engine was closed during
 * that write (orphaned), the thread is the one to free it.
 */
static void *pw_thread(void *arg)
{
	struct pwrite_engine *p = arg;
	const uint64_t one = 1;
	bool orphaned;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		struct pw_req *r;
		ssize_t n;

		while (!p->quit && !p->queue.head)
			pthread_cond_wait(&p->more, &p->lock);
		if (p->quit)
			break;
		r = list_pop(&p->queue);
		p->busy = r;
		pthread_mutex_unlock(&p->lock);

		n = pwrite(r->fd, r->buf, r->len, (off_t)r->off);
		/* a pipe has no offsets: io_uring writes it as a stream */
		if (n < 0 && errno == ESPIPE)
			n = write(r->fd, r->buf, r->len);
		r->res = n < 0 ? -errno : (int)n;

		pthread_mutex_lock(&p->lock);
		p->busy = NULL;
		list_push(&p->done, r);
		/* cannot fail below the eventfd's limit of 2^64 - 2 */
		n = write(p->done_fd, &one, sizeof(one));
		(void)n;
	}
	orphaned = p->orphaned;
	pthread_mutex_unlock(&p->lock);
	if (orphaned)
		pw_free(p);
	return NULL;
}

static int pw_poll(struct io_engine *e, int fd, uint64_t user_data)
{
	struct pwrite_engine *p = to_pw(e);
	struct pw_req *r = req_new(user_data);

	if (!r)
		return -ENOMEM;
	r->fd = fd;
	list_push(&p->polls, r);
	return 0;
}

static int pw_timeout(struct io_engine *e, uint64_t ns, uint64_t user_data)
{
	struct pwrite_engine *p = to_pw(e);
	struct pw_req *r;

	if (p->timer)
		return -EBUSY; /* one at a time (io_engine.h) */
	r = req_new(user_data);
	if (!r)
		return -ENOMEM;
	r->off = npuprof_mono_ns() + ns;
	p->timer = r;
	return 0;
}

static int pw_write(struct io_engine *e, int fd, const void *buf, size_t len, uint64_t off,
		    uint64_t user_data)
{
	struct pwrite_engine *p = to_pw(e);
	struct pw_req *r = req_new(user_data);

	if (!r)
		return -ENOMEM;
	r->fd = fd;
	r->buf = buf;
	r->len = len;
	r->off = off;
	pthread_mutex_lock(&p->lock);
	list_push(&p->queue, r);
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->lock);
	return 0;
}

static int pw_cancel(struct io_engine *e, uint64_t target, uint64_t user_data)
{
	struct pwrite_engine *p = to_pw(e);
	struct pw_req *self = req_new(user_data), *r;
	int res = -ENOENT;

	if (!self)
		return -ENOMEM;
	r = list_take(&p->polls, NULL, target);
	if (!r && p->timer && p->timer->user_data == target) {
		r = p->timer;
		p->timer = NULL;
	}
	if (!r) {
		pthread_mutex_lock(&p->lock);
		r = list_take(&p->queue, NULL, target);
		if (!r && p->busy && p->busy->user_data == target)
			res = -EALREADY;
		pthread_mutex_unlock(&p->lock);
	}
	if (r) {
		complete(p, r, -ECANCELED);
		res = 0;
	}
	complete(p, self, res);
	return 0;
}

static int pw_submit(struct io_engine *e)
{
	(void)e; /* every request went out when it was queued */
	return 0;
}

/* Room in the ppoll set for the eventfd and @n polls. */
static int pfd_reserve(struct pwrite_engine *p, unsigned int n)
{
	struct pollfd *pfd;
	struct pw_req **req;

	if (n + 1 <= p->pfd_cap)
		return 0;
	pfd = realloc(p->pfd, (n + 1) * sizeof(*pfd));
	if (!pfd)
		return -ENOMEM;
	p->pfd = pfd;
	req = realloc(p->pfd_req, (n + 1) * sizeof(*req));
	if (!req)
		return -ENOMEM;
	p->pfd_req = req;
	p->pfd_cap = n + 1;
	return 0;
}

/* Writes the thread finished, and the timer when it is due, into ready. */
static void collect(struct pwrite_engine *p, uint64_t now)
{
	pthread_mutex_lock(&p->lock);
	list_splice(&p->ready, &p->done);
	pthread_mutex_unlock(&p->lock);
	if (p->timer && now >= p->timer->off) {
		complete(p, p->timer, -ETIME);
		p->timer = NULL;
	}
}

/* ppoll() the armed polls and the eventfd until @until (0: no limit). */
static int poll_once(struct pwrite_engine *p, uint64_t now, uint64_t until)
{
	struct timespec ts, *tsp = NULL;
	unsigned int n = 1;
	int err;

	for (struct pw_req *r = p->polls.head; r; r = r->next)
		n++;
	err = pfd_reserve(p, n - 1);
	if (err)
		return err;
	p->pfd[0] = (struct pollfd){ .fd = p->done_fd, .events = POLLIN };
	n = 1;
	for (struct pw_req *r = p->polls.head; r; r = r->next, n++) {
		p->pfd[n] = (struct pollfd){ .fd = r->fd, .events = POLLIN };
		p->pfd_req[n] = r;
	}
	if (until) {
		uint64_t left = until > now ? until - now : 0;

		ts.tv_sec = (time_t)(left / 1000000000ULL);
		ts.tv_nsec = (long)(left % 1000000000ULL);
		tsp = &ts;
	}
	if (ppoll(p->pfd, n, tsp, NULL) < 0)
		return -errno;
	if (p->pfd[0].revents) {
		uint64_t count; /* it only wakes ppoll(): the count means nothing */
		ssize_t got = read(p->done_fd, &count, sizeof(count));

		(void)got;
	}
	for (unsigned int i = 1; i < n; i++) {
		short ev = p->pfd[i].revents;

		if (!ev)
			continue;
		list_take(&p->polls, p->pfd_req[i], 0);
		complete(p, p->pfd_req[i], ev & POLLNVAL ? -EBADF : ev);
	}
	return 0;
}

static int pw_wait(struct io_engine *e, int64_t timeout_ns)
{
	struct pwrite_engine *p = to_pw(e);
	uint64_t now = npuprof_mono_ns();
	uint64_t deadline = timeout_ns < 0 ? 0 : now + (uint64_t)timeout_ns;

	for (;;) {
		uint64_t until = deadline;
		int err;

		collect(p, now);
		if (p->ready.head)
			return 0;
		if (deadline && now >= deadline)
			return -ETIME;
		if (p->timer && (!until || p->timer->off < until))
			until = p->timer->off;
		err = poll_once(p, now, until);
		if (err)
			return err;
		now = npuprof_mono_ns();
	}
}

static bool pw_peek(struct io_engine *e, struct io_engine_cqe *c)
{
	struct pwrite_engine *p = to_pw(e);
	struct pw_req *r;

	if (!p->ready.head)
		collect(p, npuprof_mono_ns());
	r = list_pop(&p->ready);
	if (!r)
		return false;
	c->user_data = r->user_data;
	c->res = r->res;
	free(r);
	return true;
}

/* Free everything; the writer thread is gone (or is the caller). */
static void pw_free(struct pwrite_engine *p)
{
	list_free(&p->queue);
	list_free(&p->done);
	list_free(&p->ready);
	list_free(&p->polls);
	free(p->timer);
	free(p->pfd);
	free(p->pfd_req);
	close(p->done_fd);
	pthread_cond_destroy(&p->more);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

/*
 * Stop the writer thread.  A write under way may never return (a hung
 * network file system, a full FIFO): the caller is not made to wait for
 * it, as io_uring does not make it wait; the thread is left to finish
 * that write and free the engine.  Its buffer is the caller's, who gave
 * it up on purpose (slice_writer.c leaves such a buffer to its CQE).
 */
static void pw_close(struct io_engine *e)
{
	struct pwrite_engine *p = to_pw(e);
	bool busy;

	pthread_mutex_lock(&p->lock);
	p->quit = true;
	busy = p->busy != NULL;
	p->orphaned = busy;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->lock);
	if (busy) {
		pthread_detach(p->thread);
		return;
	}
	pthread_join(p->thread, NULL);
	pw_free(p);
}

static const struct io_engine_ops pwrite_ops = {
	.poll = pw_poll,
	.timeout = pw_timeout,
	.write = pw_write,
	.cancel = pw_cancel,
	.submit = pw_submit,
	.wait = pw_wait,
	.peek = pw_peek,
	.close = pw_close,
};

int io_engine_pwrite_open(struct io_engine **out)
{
	struct pwrite_engine *p = calloc(1, sizeof(*p));
	sigset_t all, old;
	int err;

	if (!p)
		return -ENOMEM;
	p->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (p->done_fd < 0) {
		err = -errno;
		free(p);
		return err;
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->more, NULL);
	/* Signals are the application's: the thread starts with all blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = -pthread_create(&p->thread, NULL, pw_thread, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		close(p->done_fd);
		pthread_cond_destroy(&p->more);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return err;
	}
	p->base.ops = &pwrite_ops;
	p->base.kind = IO_ENGINE_PWRITE;
	*out = &p->base;
	return 0;
}
