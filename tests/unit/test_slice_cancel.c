// SPDX-License-Identifier: MIT
/*
 * Description: when waiting for CQEs fails while a slice write is in
 * flight, the writer never frees that write's buffer before its CQE.  The
 * slice is a FIFO whose pipe is full, so the write stays in flight;
 * io_uring's wait is made to fail (this test defines
 * io_uring_submit_and_wait, which the io_uring engine waits with, and
 * fails it on demand; and io_uring_submit, to hold the cancel request back
 * in case 2).  io_uring's own cancel is what is tested: the test runs on
 * the io_uring engine whatever NPUPROF_WRITER says.
 *  1. One failed wait: close cancels the write, waits for its CQE, returns
 *     the error; the pipe holds only the test's filler; the .done says 0.
 *  2. Every wait fails and the cancel is not submitted: close gives up and
 *     returns, but the slice stays open (no .done) until the test submits
 *     the cancel and hands the write's CQE to slice_writer_handle_cqe(),
 *     which frees the buffer and closes the slice.
 * Run it under ASan or valgrind to see no use after free.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <liburing.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include "io_engine_test.h"

/*
 * The writer makes each file with npuprof_prof_create(), which refuses a
 * name that is taken (prof_fs.h).  This test sets its slice up in advance
 * on purpose, so it stands in for that call and opens what is there.
 */
int npuprof_prof_create(int dirfd, const char *rel)
{
	int fd = openat(dirfd, rel, O_WRONLY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		fd = openat(dirfd, rel, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0640);
	return fd < 0 ? -errno : fd;
}

static int fail_waits;	 /* waits still to fail */
static int failed_waits; /* waits failed so far */
static int hold_submits; /* io_uring_submit() leaves SQEs queued */

typedef int (*submit_wait_fn)(struct io_uring *, unsigned);

/* Stands in for liburing's: fails blocking waits while fail_waits > 0. */
int io_uring_submit_and_wait(struct io_uring *ring, unsigned wait_nr)
{
	static submit_wait_fn real;

	if (wait_nr && fail_waits > 0) {
		fail_waits--;
		failed_waits++;
		return -EIO;
	}
	if (!real)
		real = (submit_wait_fn)dlsym(RTLD_NEXT, "io_uring_submit_and_wait");
	return real(ring, wait_nr);
}

typedef int (*submit_fn)(struct io_uring *);

/* Stands in for liburing's: while hold_submits, SQEs stay in the SQ. */
int io_uring_submit(struct io_uring *ring)
{
	static submit_fn real;

	if (hold_submits)
		return -EBUSY;
	if (!real)
		real = (submit_fn)dlsym(RTLD_NEXT, "io_uring_submit");
	return real(ring);
}

struct fifo {
	char path[600];
	int rfd;
	size_t filler; /* bytes the test wrote to fill the pipe */
};

/* Make <dir>/npuprof.api.slice_0 a FIFO with a full pipe behind it. */
static int fifo_setup(const char *dir, struct fifo *p)
{
	char buf[4096];
	int wfd;
	ssize_t n;

	memset(buf, 'F', sizeof(buf));
	snprintf(p->path, sizeof(p->path), "%s/npuprof.api.slice_0", dir);
	if (mkfifo(p->path, 0600))
		return -errno;
	p->rfd = open(p->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	wfd = open(p->path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (p->rfd < 0 || wfd < 0)
		return -errno;
	p->filler = 0;
	while ((n = write(wfd, buf, sizeof(buf))) > 0)
		p->filler += (size_t)n;
	close(wfd);
	return 0;
}

/* Bytes in the pipe, and whether all of them are filler. */
static size_t fifo_drain(struct fifo *p, int *foreign)
{
	char buf[4096];
	size_t total = 0;
	ssize_t n;

	*foreign = 0;
	while ((n = read(p->rfd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			*foreign |= buf[i] != 'F';
		total += (size_t)n;
	}
	return total;
}

static long long done_size(const struct fifo *p)
{
	char path[620];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s.done", p->path);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "filesize:%lld", &v) != 1)
		v = -2;
	fclose(f);
	return v;
}

/* A writer with one frame queued on the FIFO, its write in flight. */
static struct slice_writer *start_stuck_write(struct io_engine *io, const char *dir)
{
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.api",
					.slice_bytes = 1 << 20, .zstd_level = 3,
					.source = NPUPROF_SRC_BPF, .device = -1 };
	struct slice_writer *w;
	uint8_t buf[RECGEN_MAX];

	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (uint64_t i = 0; i < 100; i++) {
		recgen_make(buf, i);
		CHECK_EQ(slice_writer_append(w, (void *)buf), 0);
	}
	CHECK_EQ(slice_writer_flush(w), 0);
	CHECK(slice_writer_busy(w));
	usleep(20000); /* the write found the pipe full and waits in the kernel */
	return w;
}

/* Reap every CQE left on the ring; each must be a slice write or cancel. */
static int reap_rest(struct io_engine *io, int want)
{
	struct io_engine_cqe cqe;
	int n = 0;

	while (n < want && io_engine_wait(io, -1) == 0) {
		while (io_engine_peek(io, &cqe)) {
			CHECK(slice_writer_handle_cqe(&cqe));
			n++;
		}
	}
	while (io_engine_peek(io, &cqe)) {
		CHECK(slice_writer_handle_cqe(&cqe));
		n++;
	}
	return n;
}

static void test_one_failed_wait(const char *dir)
{
	struct slice_writer_stats st;
	struct io_engine *io;
	struct slice_writer *w;
	struct fifo p;
	int foreign;

	CHECK_EQ(io_engine_open(IO_ENGINE_URING, 8, &io), 0);
	CHECK_EQ(fifo_setup(dir, &p), 0);
	w = start_stuck_write(io, dir);
	fail_waits = 1;
	failed_waits = 0;
	CHECK_EQ(slice_writer_close(w, &st), -EIO);
	CHECK_EQ(failed_waits, 1);
	CHECK_EQ(st.error, -EIO);
	CHECK_EQ(st.file_bytes, 0);
	CHECK_EQ(done_size(&p), 0); /* closed once the cancelled write came back */
	CHECK(reap_rest(io, 0) <= 1); /* at most the cancel request's own CQE */
	CHECK_EQ(fifo_drain(&p, &foreign), p.filler);
	CHECK_EQ(foreign, 0);
	close(p.rfd);
	unlink(p.path);
	strcat(p.path, ".done");
	unlink(p.path);
	io_engine_close(io);
}

static void test_waits_keep_failing(const char *dir)
{
	struct slice_writer_stats st;
	struct io_engine *io;
	struct slice_writer *w;
	struct fifo p;
	int foreign;

	CHECK_EQ(io_engine_open(IO_ENGINE_URING, 8, &io), 0);
	CHECK_EQ(fifo_setup(dir, &p), 0);
	w = start_stuck_write(io, dir);
	fail_waits = 1000;
	failed_waits = 0;
	hold_submits = 1; /* the cancel request stays queued: no CQE comes */
	CHECK_EQ(slice_writer_close(w, &st), -EIO);
	CHECK_EQ(failed_waits, 8); /* SLICE_WAIT_TRIES, then it gives up */
	fail_waits = 0;
	hold_submits = 0;
	/* The buffer is the kernel's until its CQE: the slice is not closed. */
	CHECK_EQ(done_size(&p), -1);
	/* Submitting the cancel brings the write's CQE and the cancel's. */
	CHECK_EQ(io_engine_submit(io), 0);
	CHECK_EQ(reap_rest(io, 2), 2);
	CHECK_EQ(done_size(&p), 0);
	CHECK_EQ(fifo_drain(&p, &foreign), p.filler);
	CHECK_EQ(foreign, 0);
	close(p.rfd);
	io_engine_close(io);
}

int main(void)
{
	char dir[] = "/tmp/npuprof-cancel-XXXXXX";
	struct io_uring probe;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	if (io_uring_queue_init(2, &probe, 0))
		CHECK_SKIP("no io_uring");
	io_uring_queue_exit(&probe);
	test_one_failed_wait(dir);
	test_waits_keep_failing(dir);
	if (!check_failures)
		tmpdir_remove(dir);
	else
		fprintf(stderr, "output kept in %s\n", dir);
	return CHECK_DONE();
}
