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
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>
#include <npuprof/slice.h>

#define K 20000
#define LIMIT (8u << 10)

static struct memring_src f;

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
	close(f.efd);
	memring_free(&f.ring);
}

int main(void)
{
	char prof[] = "/tmp/npuprof-age-XXXXXX", data[700], none[] = "/tmp/npuprof-noage-XXXXXX";
	struct npuprof_drain_stats st;
	struct npuprof_read_report rep;
	struct readback rb = { 0 };
	uint64_t left = 0, i;
	long long size, done;

	if (!mkdtemp(prof) || !mkdtemp(none))
		CHECK_SKIP("no temp dir");
	capture(prof, LIMIT, &st);
	CHECK_EQ(st.records, K);
	CHECK(st.aged_slices > 0);
	snprintf(data, sizeof(data), "%s/host/data", prof);
	for (i = 0; i < st.aged_slices; i++)
		CHECK_EQ(slice_size(data, i, &done), -1);
	for (; (size = slice_size(data, i, &done)) >= 0; i++) {
		CHECK_EQ(done, size);
		left += (uint64_t)size;
	}
	CHECK(i > st.aged_slices); /* the newest stays */
	CHECK(left <= LIMIT);
	CHECK_EQ(left + st.aged_bytes, st.file_bytes);
	CHECK_EQ(npuprof_slice_read_series(data, "npuprof.api", on_rec, &rb, &rep), 0);
	CHECK_EQ(rep.first_slice, st.aged_slices);
	CHECK_EQ(rep.slices, i - st.aged_slices);
	CHECK_EQ(rb.bad, 0);
	CHECK_EQ(rb.lost, 0);
	CHECK_EQ(rb.count + st.aged_records, K);
	CHECK_EQ(rb.next_ts, K);

	/* no limit: every slice stays */
	capture(none, 0, &st);
	CHECK_EQ(st.aged_slices, 0);
	CHECK_EQ(st.aged_bytes, 0);
	snprintf(data, sizeof(data), "%s/host/data", none);
	CHECK(slice_size(data, 0, &done) > 0);
	if (!check_failures) {
		tmpdir_remove(prof);
		tmpdir_remove(none);
	} else {
		fprintf(stderr, "output kept in %s and %s\n", prof, none);
	}
	return CHECK_DONE();
}
