// SPDX-License-Identifier: MIT
/*
 * Description: --storage-limit in the real drain.  A producer writes K API
 * records (ts 0..K-1) over about 300 ms with 2 KiB slices and an 8 KiB
 * limit (bytes of the API calls are pseudo-random, so they take room).  At stop: slices 0..A-1 of host/data/npuprof.api are gone (A =
 * stats.aged_slices > 0), with their .done files, and A..last remain
 * contiguous, each with its .done; the slices left hold at most the
 * limit; file bytes left plus aged_bytes equal file_bytes; the records
 * left are exactly the newest K - aged_records (ts aged_records..K-1, in
 * order).  Without a limit nothing goes.  (The source has no counters, so
 * no LOST record is written.)
 *
 * And when a slice cannot be removed (unlinkat of npuprof.api.slice_1
 * fails with EPERM here): slice_0 is gone, slice_1 and every later slice
 * stay, each with its .done, so the series has no gap and reads whole
 * from slice_1 (ts aged_records..K-1); aged_slices is 1, the bytes left
 * pass the limit, the drain tried exactly 2 slice removals (it ages that
 * series no more) and said so in exactly one warning naming
 * npuprof.api.slice_1 and the error.  Before the fix it went on ageing
 * slice_2, slice_3 ..., and the reader stopped at the gap after slice_1.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "check.h"
#include "drain_writer.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>
#include <npuprof/slice.h>

#define K 20000
#define LIMIT (8u << 10)

static struct memring_src f;

/* The slice whose removal fails (EPERM), NULL: none; removals of api slices tried. */
static const char *fail_unlink;
static unsigned int api_unlinks;

/* The drain's unlinkat (this definition comes before libc's). */
int unlinkat(int dirfd, const char *path, int flags)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;

	if (!strncmp(base, "npuprof.api.slice_", 18) && !strstr(base, ".done"))
		api_unlinks++;
	if (fail_unlink && !strcmp(base, fail_unlink)) {
		errno = EPERM;
		return -1;
	}
	return (int)syscall(SYS_unlinkat, dirfd, path, flags);
}

static void *producer(void *arg)
{
	uint64_t one = 1;

	(void)arg;
	for (uint64_t i = 0; i < K; i++) {
		struct npuprof_rec_api a = { .hdr = { NPUPROF_REC_API, sizeof(a), 0, i },
					     .pid = 7, .api = 1 + (uint16_t)(i % 5),
					     .bytes = (i * 0x9e3779b97f4a7c15ULL) >> 7 };

		while (memring_write(&f.ring, &a.hdr))
			usleep(100);
		if (i % 64 == 63) {
			(void)!write(f.efd, &one, sizeof(one));
			usleep(1000);
		}
	}
	(void)!write(f.efd, &one, sizeof(one));
	return NULL;
}

struct readback {
	uint64_t next_ts, count, lost, bad;
};

static int on_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct readback *rb = ctx;

	if (rec->type == NPUPROF_REC_STREAM_HDR)
		return 0;
	if (rec->type == NPUPROF_REC_LOST) {
		rb->lost++;
		return 0;
	}
	if (rec->type != NPUPROF_REC_API || rb->lost || (rb->count && rec->ts != rb->next_ts))
		rb->bad++;
	rb->next_ts = rec->ts + 1;
	if (!rb->count++)
		rb->next_ts = rec->ts + 1;
	return 0;
}

/* Size of slice @i of the api series in @dir, -1 when absent; *@done its .done's size. */
static long long slice_size(const char *dir, uint64_t i, long long *done)
{
	char path[700];
	struct stat sb;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/npuprof.api.slice_%llu", dir, (unsigned long long)i);
	if (stat(path, &sb))
		return -1;
	strcat(path, ".done");
	*done = -1;
	fp = fopen(path, "r");
	if (fp && fscanf(fp, "filesize:%lld", done) != 1)
		*done = -1;
	if (fp)
		fclose(fp);
	return sb.st_size;
}

static void capture(const char *prof, uint64_t limit, struct npuprof_drain_stats *st)
{
	struct npuprof_drain_source src = { .name = "fake", .source = NPUPROF_SRC_BPF,
					    .nr_cpus = 1, .obj = &f,
					    .consume = memring_src_consume };
	struct npuprof_drain_config cfg = { .prof_dir = prof, .slice_bytes = 2048, .flush_ms = 20,
					    .frame_ms = 20, .storage_limit = limit };
	struct npuprof_drain *d;
	pthread_t thr;

	CHECK_EQ(memring_init(&f.ring, 16384, 0), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	CHECK_EQ(pthread_create(&thr, NULL, producer, NULL), 0);
	pthread_join(thr, NULL);
	CHECK_EQ(npuprof_drain_stop(d, st, NULL), 0);
	CHECK_EQ(st->writer, test_drain_writer());
	close(f.efd);
	memring_free(&f.ring);
}

/*
 * The api slices of @prof after a capture that aged @st.aged_slices of
 * them: those gone, the rest there, contiguous, each with its .done, read
 * back whole.  Return: the bytes left.
 */
static uint64_t check_left(const char *prof, const struct npuprof_drain_stats *st)
{
	struct npuprof_read_report rep;
	struct readback rb = { 0 };
	uint64_t left = 0, i;
	long long size, done;
	char data[700];

	snprintf(data, sizeof(data), "%s/host/data", prof);
	for (i = 0; i < st->aged_slices; i++)
		CHECK_EQ(slice_size(data, i, &done), -1);
	for (; (size = slice_size(data, i, &done)) >= 0; i++) {
		CHECK_EQ(done, size);
		left += (uint64_t)size;
	}
	CHECK(i > st->aged_slices); /* the newest stays */
	CHECK_EQ(left + st->aged_bytes, st->file_bytes);
	CHECK_EQ(npuprof_slice_read_series(data, "npuprof.api", on_rec, &rb, &rep), 0);
	CHECK_EQ(rep.first_slice, st->aged_slices);
	CHECK_EQ(rep.slices, i - st->aged_slices);
	CHECK_EQ(rep.missing, 0);
	CHECK_EQ(rb.bad, 0);
	CHECK_EQ(rb.lost, 0);
	CHECK_EQ(rb.count + st->aged_records, K);
	CHECK_EQ(rb.next_ts, K);
	return left;
}

/* Lines of @path holding @what. */
static unsigned int lines_with(const char *path, const char *what)
{
	char line[1024];
	unsigned int n = 0;
	FILE *fp = fopen(path, "r");

	while (fp && fgets(line, sizeof(line), fp))
		n += strstr(line, what) != NULL;
	if (fp)
		fclose(fp);
	return n;
}

/* A capture whose removal of slice_1 fails: the series keeps it and all after it. */
static void check_unlink_fails(const char *prof)
{
	char log[700], want[200];
	struct npuprof_drain_stats st;
	int saved, fd;

	snprintf(log, sizeof(log), "%s.stderr", prof);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	CHECK(fd >= 0);
	fflush(stderr);
	saved = dup(2);
	dup2(fd, 2);
	fail_unlink = "npuprof.api.slice_1";
	api_unlinks = 0;
	capture(prof, LIMIT, &st);
	fail_unlink = NULL;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	CHECK_EQ(st.records, K);
	CHECK_EQ(st.aged_slices, 1);
	CHECK_EQ(api_unlinks, 2);
	CHECK(check_left(prof, &st) > LIMIT);
	snprintf(want, sizeof(want), "host/data/npuprof.api.slice_1 under --storage-limit: %s;",
		 strerror(EPERM));
	CHECK_EQ(lines_with(log, "cannot remove"), 1);
	CHECK_EQ(lines_with(log, want), 1);
	unlink(log);
}

int main(void)
{
	char prof[] = "/tmp/npuprof-age-XXXXXX", data[700], none[] = "/tmp/npuprof-noage-XXXXXX";
	char stuck[] = "/tmp/npuprof-agestuck-XXXXXX";
	struct npuprof_drain_stats st;
	long long done;

	if (!mkdtemp(prof) || !mkdtemp(none) || !mkdtemp(stuck))
		CHECK_SKIP("no temp dir");
	capture(prof, LIMIT, &st);
	CHECK_EQ(st.records, K);
	CHECK(st.aged_slices > 0);
	CHECK(check_left(prof, &st) <= LIMIT);

	/* no limit: every slice stays */
	capture(none, 0, &st);
	CHECK_EQ(st.aged_slices, 0);
	CHECK_EQ(st.aged_bytes, 0);
	snprintf(data, sizeof(data), "%s/host/data", none);
	CHECK(slice_size(data, 0, &done) > 0);

	check_unlink_fails(stuck);
	if (!check_failures) {
		tmpdir_remove(prof);
		tmpdir_remove(none);
		tmpdir_remove(stuck);
	} else {
		fprintf(stderr, "output kept in %s, %s and %s\n", prof, none, stuck);
	}
	return CHECK_DONE();
}
