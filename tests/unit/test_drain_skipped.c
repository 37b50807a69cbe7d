// SPDX-License-Identifier: MIT
/*
 * Description: bytes a source skips after a corrupt record header are
 * counted and reported, never dropped silently.  A fake source reads two
 * in-memory CPU rings the way user/kring.c reads npuprof.ko's (a ring that
 * returns -EBADMSG is skipped with npuprof_ring_skip_published() and its
 * bytes added up per CPU).  CPU 1's 4th of 10 records is corrupted (616
 * bytes skipped), then, while the drain runs, the 2nd of 5 more (352
 * bytes).  The drain reports skipped_bytes 968 and records 14 (+10 of CPU
 * 0), and warns about each skip naming CPU 1 and the bytes.  A second
 * drain on the same source (the next start/stop window of one msprof
 * session, the count still at 968) reports 0 skipped bytes and no warning
 * for 4 clean records.  Regression: it re-reported the first window's 968.
 * The records skipped are lost to a decode error: the ring's written
 * counter (15 on CPU 1) less the records read out of it (4): 11, all of
 * CPU 1; the second window (counters restart, as at an enable) loses none.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "drain_writer.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>

struct fake {
	struct memring ring[2];
	uint64_t skipped[2];
	uint64_t written_base[2]; /* written at the window's enable */
	int efd;
	pthread_mutex_t lock; /* held by a read, and by the test while it writes */
};

static long fake_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	struct fake *f = obj;
	long total = 0, bad = 0;
	uint64_t v;

	if (read(f->efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -errno;
	pthread_mutex_lock(&f->lock);
	for (int cpu = 0; cpu < 2; cpu++) {
		long n = npuprof_ring_consume(&f->ring[cpu].view, fn, ctx);

		if (n == -EBADMSG) {
			__atomic_fetch_add(&f->skipped[cpu],
					   npuprof_ring_skip_published(&f->ring[cpu].view),
					   __ATOMIC_RELAXED);
			bad = -EBADMSG;
			continue;
		}
		if (n < 0) {
			bad = n;
			break;
		}
		total += n;
	}
	pthread_mutex_unlock(&f->lock);
	return bad ? bad : total;
}

static int fake_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	struct fake *f = obj;

	if (cpu > 1)
		return -ENXIO;
	*written = f->ring[cpu].prod.written - f->written_base[cpu];
	*lost = 0;
	return 0;
}

static int fake_skipped(void *obj, unsigned int cpu, uint64_t *bytes)
{
	struct fake *f = obj;

	if (cpu > 1)
		return -ENXIO;
	*bytes = __atomic_load_n(&f->skipped[cpu], __ATOMIC_RELAXED);
	return 0;
}

/* Write @n task records to @m; the @bad-th (from 0) gets size 0. */
static void produce(struct memring *m, unsigned int cpu, int n, int bad)
{
	uint64_t bad_off = 0;

	for (int i = 0; i < n; i++) {
		struct npuprof_rec_task t = {
			.hdr = { NPUPROF_REC_TASK, sizeof(t), cpu, (uint64_t)i },
		};

		CHECK_EQ(memring_write(m, &t.hdr), 0);
		if (i == bad)
			bad_off = m->last.off;
	}
	if (bad >= 0)
		((struct npuprof_rec_hdr *)(m->data + bad_off))->size = 0;
}

/* Wake the drain and wait until it read both rings up to their ends. */
static void kick_and_wait(struct fake *f)
{
	uint64_t one = 1;

	CHECK_EQ(write(f->efd, &one, sizeof(one)), sizeof(one));
	for (int ms = 0; ms < 5000; ms++) {
		if (__atomic_load_n(&f->ring[0].cons.consumer_pos, __ATOMIC_ACQUIRE) ==
			    f->ring[0].prod.producer_pos &&
		    __atomic_load_n(&f->ring[1].cons.consumer_pos, __ATOMIC_ACQUIRE) ==
			    f->ring[1].prod.producer_pos)
			return;
		usleep(1000);
	}
	CHECK(!"the drain did not read the rings within 5 s");
}

static int count_lines(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

int main(void)
{
	static struct fake f = { .lock = PTHREAD_MUTEX_INITIALIZER };
	char prof[] = "/tmp/npuprof-skipped-XXXXXX";
	char log[] = "/tmp/npuprof-skipped-log-XXXXXX";
	struct npuprof_drain_source src = { .name = "fake", .source = NPUPROF_SRC_KMOD,
					    .nr_cpus = 2, .obj = &f, .consume = fake_consume,
					    .stats = fake_stats, .skipped = fake_skipped };
	struct npuprof_loss cpu_loss[2];
	struct npuprof_drain_config cfg = { .prof_dir = prof, .flush_ms = 20,
					    .cpu_loss = cpu_loss, .nr_cpu_loss = 2 };
	struct npuprof_drain_stats st;
	struct npuprof_drain *d;
	static char text[8192];
	int logfd, saved_err;
	ssize_t len;

	if (!mkdtemp(prof))
		CHECK_SKIP("no temp dir");
	logfd = mkstemp(log);
	if (logfd < 0)
		CHECK_SKIP("no temp file");
	CHECK_EQ(memring_init(&f.ring[0], 4096, 0), 0);
	CHECK_EQ(memring_init(&f.ring[1], 4096, 1), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	produce(&f.ring[0], 0, 10, -1);
	produce(&f.ring[1], 1, 10, 3);

	/* The drain's warnings go to stderr: keep them in a file. */
	fflush(stderr);
	saved_err = dup(2);
	dup2(logfd, 2);
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	kick_and_wait(&f);
	CHECK_EQ(f.skipped[1], 880 - 3 * 88);
	pthread_mutex_lock(&f.lock); /* the corrupt header is there when published */
	produce(&f.ring[1], 1, 5, 1);
	pthread_mutex_unlock(&f.lock);
	kick_and_wait(&f);
	CHECK_EQ(npuprof_drain_stop(d, &st, NULL), 0);
	CHECK_EQ(st.writer, test_drain_writer());
	fflush(stderr);
	dup2(saved_err, 2);
	close(saved_err);

	CHECK_EQ(f.skipped[0], 0);
	CHECK_EQ(f.skipped[1], 616 + 352);
	CHECK_EQ(st.skipped_bytes, 616 + 352);
	CHECK_EQ(st.records, 10 + 3 + 1);
	CHECK_EQ(st.task_records, 14);
	CHECK_EQ(st.dropped, 0);
	CHECK_EQ(st.write_error, 0);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_DECODE_ERROR], 11);
	CHECK_EQ(npuprof_loss_total(&st.loss), 11);
	CHECK_EQ(cpu_loss[1].n[NPUPROF_LOSS_DECODE_ERROR], 11);
	CHECK_EQ(npuprof_loss_total(&cpu_loss[0]), 0);

	len = pread(logfd, text, sizeof(text) - 1, 0);
	CHECK(len > 0);
	text[len > 0 ? len : 0] = '\0';
	fputs(text, stderr);
	CHECK_EQ(count_lines(text, "held a corrupt record"), 2);
	CHECK_EQ(count_lines(text, "ring buffer of CPU 1 held a corrupt record"), 2);
	CHECK_EQ(count_lines(text, "skipped 616 bytes of its records (616 in all)"), 1);
	CHECK_EQ(count_lines(text, "skipped 352 bytes of its records (968 in all)"), 1);

	/* The next window: same source, skipped count still 968, no new skip. */
	char prof2[] = "/tmp/npuprof-skipped2-XXXXXX";
	off_t mark = lseek(logfd, 0, SEEK_END);

	CHECK(mkdtemp(prof2) != NULL);
	cfg.prof_dir = prof2;
	f.written_base[0] = f.ring[0].prod.written;
	f.written_base[1] = f.ring[1].prod.written;
	fflush(stderr);
	saved_err = dup(2);
	dup2(logfd, 2);
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	pthread_mutex_lock(&f.lock);
	produce(&f.ring[0], 0, 4, -1);
	pthread_mutex_unlock(&f.lock);
	kick_and_wait(&f);
	CHECK_EQ(npuprof_drain_stop(d, &st, NULL), 0);
	CHECK_EQ(st.writer, test_drain_writer());
	fflush(stderr);
	dup2(saved_err, 2);
	close(saved_err);
	CHECK_EQ(st.skipped_bytes, 0);
	CHECK_EQ(st.records, 4);
	CHECK_EQ(npuprof_loss_total(&st.loss), 0);
	len = pread(logfd, text, sizeof(text) - 1, mark);
	text[len > 0 ? len : 0] = '\0';
	CHECK_EQ(count_lines(text, "held a corrupt record"), 0);
	close(logfd);
	unlink(log);
	if (!check_failures)
		tmpdir_remove(prof2);

	if (!check_failures)
		tmpdir_remove(prof);
	else
		fprintf(stderr, "output kept in %s\n", prof);
	memring_free(&f.ring[0]);
	memring_free(&f.ring[1]);
	return CHECK_DONE();
}
