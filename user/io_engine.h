/* SPDX-License-Identifier: MIT */
/*
 * The I/O engine under the drain and the slice writer (private to them).
 * Both are written as one event loop over completions: queue a readiness
 * poll on a ring fd, a one-shot timer, a write at a file offset or a
 * cancel, then wait and take completions, each carrying the 64-bit
 * user_data it was queued with and a result.  Two engines give that
 * contract (fio calls such back ends "I/O engines"):
 *
 *   io_uring  the fast path: the calls are IORING_OP_POLL_ADD,
 *             IORING_OP_TIMEOUT, IORING_OP_WRITE and IORING_OP_ASYNC_CANCEL
 *             on one ring (io_engine_uring.c);
 *   pwrite    the fallback for hosts and containers that refuse io_uring
 *             (a seccomp filter, kernel.io_uring_disabled, RLIMIT_MEMLOCK
 *             on kernels before 5.12): ppoll(2) in the caller's thread for
 *             the polls and the timer, and one writer thread doing
 *             pwrite(2), which hands its results back through an eventfd
 *             (io_engine_pwrite.c).  Only ordinary system calls.
 *
 * The results are io_uring's in both: a poll completes with the revents
 * mask (or -errno), a timer with -ETIME, a write with the bytes written
 * (a short count is the caller's to resubmit) or -errno, a cancelled
 * request with -ECANCELED, a cancel with 0, -ENOENT or -EALREADY (the
 * write is under way and completes on its own).  So the layers above do
 * not know which engine runs, and the files they write are the same byte
 * for byte.
 *
 * One thread queues, waits and takes completions (the drain's); nothing
 * here is safe to call from two threads at once.
 */
#ifndef NPUPROF_IO_ENGINE_H
#define NPUPROF_IO_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum io_engine_kind {
	IO_ENGINE_URING,
	IO_ENGINE_PWRITE,
};

/* One finished request: what it was queued with, and io_uring's result. */
struct io_engine_cqe {
	uint64_t user_data;
	int res;
};

struct io_engine;

/**
 * io_engine_open() - make an engine
 * @kind:    which one
 * @entries: requests that may be queued before a submit (io_uring's SQ
 *           size; the pwrite engine has no such limit)
 * @out:     the engine
 *
 * Return: 0; -ENOMEM; for io_uring the -errno of io_uring_queue_init()
 * (-EPERM, -EACCES, -ENOSYS, -ENOMEM: see npuprof_writer_probe()); for
 * pwrite the -errno of eventfd() or pthread_create().
 */
int io_engine_open(enum io_engine_kind kind, unsigned int entries, struct io_engine **out);

/**
 * io_engine_close() - free the engine
 *
 * Requests still queued or in flight are forgotten: their buffers are the
 * caller's, and a caller that may free one must have waited for its
 * completion first.  Neither engine waits for a write under way (one on
 * a hung file system may never end): the pwrite engine's writer thread
 * finishes it on its own, then frees what is left and exits.
 */
void io_engine_close(struct io_engine *e);

/** io_engine_kind() - which engine @e is. */
enum io_engine_kind io_engine_kind(const struct io_engine *e);

/**
 * io_engine_poll() - a one-shot readiness poll for POLLIN on @fd
 * io_engine_timeout() - a one-shot timer of @ns nanoseconds (at most one
 *                       queued at a time); completes with -ETIME
 * io_engine_write() - write @len bytes of @buf at offset @off of @fd; @buf
 *                     must stay valid until the completion
 * io_engine_cancel() - cancel the request queued with @target; the cancel
 *                      itself completes with @user_data
 *
 * Queued requests go to the kernel (or the writer thread) at the next
 * io_engine_submit() or io_engine_wait() at the latest.
 * Return: 0; -EBUSY when no room is left even after submitting what was
 * queued (io_uring's SQ is full); -ENOMEM.
 */
int io_engine_poll(struct io_engine *e, int fd, uint64_t user_data);
int io_engine_timeout(struct io_engine *e, uint64_t ns, uint64_t user_data);
int io_engine_write(struct io_engine *e, int fd, const void *buf, size_t len, uint64_t off,
		    uint64_t user_data);
int io_engine_cancel(struct io_engine *e, uint64_t target, uint64_t user_data);

/** io_engine_submit() - hand over what was queued.  Return: 0 or -errno. */
int io_engine_submit(struct io_engine *e);

/**
 * io_engine_wait() - submit, then wait until a completion is ready
 * @timeout_ns: the longest wait in ns; negative: no limit
 *
 * Return: 0 when a completion is ready (take it with io_engine_peek());
 * -ETIME when @timeout_ns passed first; -EINTR; -errno of the wait.
 */
int io_engine_wait(struct io_engine *e, int64_t timeout_ns);

/**
 * io_engine_peek() - take the oldest ready completion into @c
 * Return: true, or false when none is ready (never waits).
 */
bool io_engine_peek(struct io_engine *e, struct io_engine_cqe *c);

#endif /* NPUPROF_IO_ENGINE_H */
