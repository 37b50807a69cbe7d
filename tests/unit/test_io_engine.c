// SPDX-License-Identifier: MIT
/*
 * Description: the two I/O engines (user/io_engine.h) keep one contract,
 * and the slice writer makes the same files on both.
 *  1. On io_uring and on pwrite alike: a timer completes with -ETIME after
 *     its time; a poll on an empty pipe does not complete, and completes
 *     with POLLIN once a byte is in; a write lands at its offset and
 *     completes with its byte count; a write to a read-only fd completes
 *     with -EBADF; cancelling an armed poll completes it with -ECANCELED
 *     and the cancel with 0; cancelling what is not there gives -ENOENT.
 *  2. pwrite only: while the writer thread is stuck in a write to a full
 *     FIFO, a second write waits in its queue: cancelling it gives
 *     -ECANCELED (and 0), cancelling the stuck one -EALREADY; once the
 *     FIFO is read, the stuck write completes with its bytes.
 *     Closing the engine while its thread is stuck so returns at once; the
 *     thread ends once the write is let through.
 *  3. 5000 records through the slice writer, with flushes every 97 records
 *     and 8 KiB slices, on each engine (the clock held still, so the
 *     stream headers match): every slice and .done file is the same, byte
 *     for byte, and there are as many.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "clock_hold.h"
#include "recgen.h"
#include "tmpdir.h"
#include "io_engine_test.h"

static const char *const kind_name[] = { "io_uring", "pwrite" };

/* Wait for and take one completion, failing the test after 5 s. */
static int next(struct io_engine *io, struct io_engine_cqe *c)
{
	if (io_engine_peek(io, c))
		return 0;
	if (io_engine_wait(io, 5000000000LL))
		return -ETIME;
	return io_engine_peek(io, c) ? 0 : -EAGAIN;
}

/* Take two completions, in either order, into by[0] (@ud0) and by[1]. */
static void next_two(struct io_engine *io, uint64_t ud0, uint64_t ud1, int res[2])
{
	struct io_engine_cqe c;

	res[0] = res[1] = 12345;
	for (int i = 0; i < 2; i++) {
		CHECK_EQ(next(io, &c), 0);
		CHECK(c.user_data == ud0 || c.user_data == ud1);
		res[c.user_data == ud1] = c.res;
	}
}

/*
 * Cancel request @target with a cancel of user_data @ud: the request, still
 * queued or armed, completes with -ECANCELED and the cancel with 0.
 */
static void cancel_pending(struct io_engine *io, uint64_t target, uint64_t ud)
{
	int res[2];

	CHECK_EQ(io_engine_cancel(io, target, ud), 0);
	next_two(io, target, ud, res);
	CHECK_EQ(res[0], -ECANCELED);
	CHECK_EQ(res[1], 0);
}

/* Cancel @target with user_data @ud, which completes alone with @want. */
static void cancel_none(struct io_engine *io, uint64_t target, uint64_t ud, int want)
{
	struct io_engine_cqe c;

	CHECK_EQ(io_engine_cancel(io, target, ud), 0);
	CHECK_EQ(next(io, &c), 0);
	CHECK_EQ(c.user_data, ud);
	CHECK_EQ(c.res, want);
}

static void test_contract(enum io_engine_kind kind, const char *dir)
{
	struct io_engine *io;
	struct io_engine_cqe c;
	struct timespec a, b;
	char path[600], got[16];
	int p[2], fd;

	fprintf(stderr, "contract on %s\n", kind_name[kind]);
	CHECK_EQ(io_engine_open(kind, 8, &io), 0);
	CHECK_EQ(io_engine_kind(io), kind);

	/* timer */
	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK_EQ(io_engine_timeout(io, 20000000, 11), 0);
	CHECK_EQ(next(io, &c), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK_EQ(c.user_data, 11);
	CHECK_EQ(c.res, -ETIME);
	CHECK((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) >= 20000000LL);

	/* poll */
	CHECK_EQ(pipe(p), 0);
	CHECK_EQ(io_engine_poll(io, p[0], 12), 0);
	CHECK_EQ(io_engine_wait(io, 20000000), -ETIME);
	CHECK(!io_engine_peek(io, &c));
	CHECK_EQ(write(p[1], "x", 1), 1);
	CHECK_EQ(next(io, &c), 0);
	CHECK_EQ(c.user_data, 12);
	CHECK(c.res > 0 && (c.res & POLLIN));

	/* write at an offset */
	snprintf(path, sizeof(path), "%s/w.%s", dir, kind_name[kind]);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	CHECK(fd >= 0);
	CHECK_EQ(io_engine_write(io, fd, "abcdef", 6, 4, 13), 0);
	CHECK_EQ(next(io, &c), 0);
	CHECK_EQ(c.user_data, 13);
	CHECK_EQ(c.res, 6);
	CHECK_EQ(pread(fd, got, sizeof(got), 0), 10);
	CHECK(!memcmp(got, "\0\0\0\0abcdef", 10));
	close(fd);

	/* a write the kernel refuses */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	CHECK_EQ(io_engine_write(io, fd, "abc", 3, 0, 14), 0);
	CHECK_EQ(next(io, &c), 0);
	CHECK_EQ(c.user_data, 14);
	CHECK_EQ(c.res, -EBADF);
	close(fd);

	/* cancels */
	CHECK_EQ(read(p[0], got, 1), 1);
	CHECK_EQ(io_engine_poll(io, p[0], 15), 0);
	CHECK_EQ(io_engine_submit(io), 0);
	cancel_pending(io, 15, 16);
	cancel_none(io, 99, 17, -ENOENT);

	close(p[0]);
	close(p[1]);
	io_engine_close(io);
}

/* A FIFO at @path with its pipe full; returns the read end, the write end in *wfd. */
static int full_fifo(const char *path, int *wfd)
{
	static char fill[65536];
	int rfd;

	if (mkfifo(path, 0600))
		return -1;
	rfd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	*wfd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	while (write(*wfd, fill, sizeof(fill)) > 0)
		;
	/* the writer thread's pwrite() must block: a blocking fd of its own */
	close(*wfd);
	*wfd = open(path, O_WRONLY | O_CLOEXEC);
	return rfd;
}

/* Threads of this process, and whether one of them waits in write(2). */
static unsigned int threads(int *in_write)
{
	unsigned int n = 0;
	struct dirent *de;
	DIR *d = opendir("/proc/self/task");

	*in_write = 0;
	while (d && (de = readdir(d))) {
		char path[300], line[64];
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		n++;
		snprintf(path, sizeof(path), "/proc/self/task/%s/syscall", de->d_name);
		f = fopen(path, "r");
		if (f && fgets(line, sizeof(line), f) && atoi(line) == SYS_write)
			*in_write = 1;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* Wait (at most 5 s) until a thread of ours is stuck in write(2). */
static int wait_stuck_writer(void)
{
	int in_write = 0;

	for (int i = 0; i < 500 && !in_write; i++) {
		threads(&in_write);
		if (!in_write)
			usleep(10000);
	}
	return in_write;
}

static void test_pwrite_queue_cancel(const char *dir)
{
	static char buf[4096], sink[4096];
	struct io_engine *io;
	struct io_engine_cqe c;
	char path[600];
	int rfd, wfd = -1;

	snprintf(path, sizeof(path), "%s/fifo", dir);
	rfd = full_fifo(path, &wfd);
	CHECK(rfd >= 0 && wfd >= 0);
	CHECK_EQ(io_engine_open(IO_ENGINE_PWRITE, 8, &io), 0);
	CHECK_EQ(io_engine_write(io, wfd, buf, sizeof(buf), 0, 21), 0);
	CHECK(wait_stuck_writer()); /* the thread took it and is stuck in the kernel */
	CHECK_EQ(io_engine_write(io, wfd, buf, sizeof(buf), 0, 22), 0);
	cancel_pending(io, 22, 23);
	cancel_none(io, 21, 24, -EALREADY);
	/* reading the FIFO lets the stuck write through */
	while (read(rfd, sink, sizeof(sink)) > 0)
		;
	CHECK_EQ(next(io, &c), 0);
	CHECK_EQ(c.user_data, 21);
	CHECK_EQ(c.res, (int)sizeof(buf));
	io_engine_close(io);
	close(rfd);
	close(wfd);
	unlink(path);
}

/*
 * Closing the pwrite engine while its thread is stuck in a write returns
 * at once (as io_uring's close does); the thread finishes that write once
 * the FIFO is read, frees the engine and ends.
 */
static void test_pwrite_close_stuck(const char *dir)
{
	static char buf[4096], sink[65536];
	struct io_engine *io;
	struct timespec a, b;
	unsigned int before;
	char path[600];
	int rfd, wfd = -1, in_write;

	snprintf(path, sizeof(path), "%s/fifo2", dir);
	rfd = full_fifo(path, &wfd);
	CHECK(rfd >= 0 && wfd >= 0);
	before = threads(&in_write);
	CHECK_EQ(io_engine_open(IO_ENGINE_PWRITE, 8, &io), 0);
	CHECK_EQ(io_engine_write(io, wfd, buf, sizeof(buf), 0, 31), 0);
	CHECK(wait_stuck_writer());
	clock_gettime(CLOCK_MONOTONIC, &a);
	io_engine_close(io);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < 1000);
	while (read(rfd, sink, sizeof(sink)) > 0)
		;
	for (int i = 0; i < 500 && threads(&in_write) > before; i++)
		usleep(10000);
	CHECK_EQ(threads(&in_write), before); /* the thread ended */
	close(rfd);
	close(wfd);
	unlink(path);
}

/* 5000 records into <dir>/<kind>/ through the slice writer on @kind. */
static void write_series(enum io_engine_kind kind, const char *dir, uint64_t *slices)
{
	struct slice_writer_cfg cfg = { .series = "npuprof.task.7", .slice_bytes = 8192,
					.zstd_level = 3, .source = NPUPROF_SRC_KMOD, .device = 7 };
	struct slice_writer_stats st;
	struct slice_writer *w;
	struct io_engine *io;
	uint8_t buf[RECGEN_MAX];
	char sub[600];

	snprintf(sub, sizeof(sub), "%s/%s", dir, kind_name[kind]);
	CHECK_EQ(mkdir(sub, 0700), 0);
	cfg.dir = sub;
	CHECK_EQ(io_engine_open(kind, 8, &io), 0);
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (uint64_t i = 0; i < 5000; i++) {
		recgen_make(buf, i);
		CHECK_EQ(slice_writer_append(w, (void *)buf), 0);
		if (i % 97 == 96) {
			int err = slice_writer_flush(w);

			CHECK(err == 0 || err == -EBUSY);
		}
		test_io_reap_ready(io);
	}
	CHECK_EQ(slice_writer_close(w, &st), 0);
	*slices = st.slices;
	io_engine_close(io);
}

static void test_same_files(const char *dir)
{
	uint64_t slices[2];
	char a[600], b[600], name[64];

	clock_held = 1;
	write_series(IO_ENGINE_URING, dir, &slices[0]);
	write_series(IO_ENGINE_PWRITE, dir, &slices[1]);
	clock_held = 0;
	CHECK_EQ(slices[0], slices[1]);
	CHECK(slices[0] >= 10);
	snprintf(a, sizeof(a), "%s/io_uring", dir);
	snprintf(b, sizeof(b), "%s/pwrite", dir);
	for (uint64_t i = 0; i < slices[0]; i++) {
		snprintf(name, sizeof(name), "npuprof.task.7.slice_%llu", (unsigned long long)i);
		CHECK(tmpdir_same_file(a, b, name));
		strcat(name, ".done");
		CHECK(tmpdir_same_file(a, b, name));
	}
	fprintf(stderr, "%llu slices, the same on both engines\n", (unsigned long long)slices[0]);
}

int main(void)
{
	char dir[] = "/tmp/npuprof-io-engine-XXXXXX";
	struct io_engine *probe;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	if (io_engine_open(IO_ENGINE_URING, 2, &probe))
		CHECK_SKIP("no io_uring here to compare with");
	io_engine_close(probe);
	test_contract(IO_ENGINE_URING, dir);
	test_contract(IO_ENGINE_PWRITE, dir);
	test_pwrite_queue_cancel(dir);
	test_pwrite_close_stuck(dir);
	test_same_files(dir);
	if (!check_failures)
		tmpdir_remove(dir);
	else
		fprintf(stderr, "output kept in %s\n", dir);
	return CHECK_DONE();
}
