// SPDX-License-Identifier: MIT
/*
 * Description: short writes, on the writer NPUPROF_WRITER picks (run as
 * unit/ on io_uring and as pwrite/ on the fallback).
 *  1. RLIMIT_FSIZE of 20000 bytes (SIGXFSZ ignored): the write that
 *     crosses it is cut short at byte 20000, the rest of it fails with
 *     EFBIG.  Close returns -EFBIG; the slice is exactly 20000 bytes and
 *     its .done says so; every record taken is either read back from the
 *     whole frames or reported lost, exactly; the reader reports the cut
 *     tail.  Both writers read back the same 280 records; how many more
 *     an append took before the failure came back (and so are lost)
 *     depends on when the failed write completes (the test prints it).
 *  2. pwrite only: every pwrite(2) cut to at most 1000 bytes (this test
 *     stands in for libc's): the slice writer resubmits the rest each
 *     time and the files match a run without the cut, byte for byte (the
 *     clock held still, so the stream headers match).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "clock_hold.h"
#include "recgen.h"
#include "tmpdir.h"
#include "io_engine_test.h"
#include <npuprof/slice.h>

#define NR_RECORDS 3000
#define FSIZE 20000

static size_t pwrite_cap;    /* 0: pwrite(2) as libc does it */
static unsigned long pwrites; /* calls cut short */

/* Stands in for libc's: at most pwrite_cap bytes a call when set. */
ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	if (pwrite_cap && len > pwrite_cap) {
		len = pwrite_cap;
		pwrites++;
	}
	return syscall(SYS_pwrite64, fd, buf, len, off);
}

static uint64_t lost_records;

static void on_lost(void *ctx, uint32_t cpu, uint16_t type, uint64_t records)
{
	(void)ctx;
	(void)cpu;
	(void)type;
	lost_records += records;
}

struct got {
	uint64_t seq;
	uint64_t bad;
};

static int check_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct got *g = ctx;

	if (rec->type == NPUPROF_REC_STREAM_HDR)
		return 0;
	g->bad += !recgen_equal(rec, g->seq);
	g->seq++;
	return 0;
}

/* Write NR_RECORDS through one series into @dir; return close's value. */
static int write_series(const char *dir, uint64_t slice_bytes, struct slice_writer_stats *st,
			uint64_t *taken)
{
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.task.7",
					.slice_bytes = slice_bytes, .zstd_level = 3,
					.source = NPUPROF_SRC_KMOD, .device = 7, .lost = on_lost };
	struct slice_writer *w;
	struct io_engine *io;
	uint8_t buf[RECGEN_MAX];
	int err;

	*taken = 0;
	CHECK_EQ(test_io_engine_open(8, &io), 0);
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (uint64_t i = 0; i < NR_RECORDS; i++) {
		recgen_make(buf, i);
		if (slice_writer_append(w, (void *)buf) == 0 && i % 4 != 3)
			(*taken)++; /* every 4th is a LOST record: never counted */
		if (i % 40 == 39)
			slice_writer_flush(w);
		test_io_reap_ready(io);
	}
	err = slice_writer_close(w, st);
	io_engine_close(io);
	return err;
}

static long long done_size(const char *dir, unsigned int idx)
{
	char path[700];
	long long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/npuprof.task.7.slice_%u.done", dir, idx);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "filesize:%lld\n", &n) != 1)
		n = -2;
	fclose(f);
	return n;
}

static void test_fsize(const char *root)
{
	struct rlimit old, lim = { .rlim_cur = FSIZE, .rlim_max = RLIM_INFINITY };
	struct npuprof_read_report rep;
	struct slice_writer_stats st;
	struct got g = { 0 };
	char dir[600], path[700];
	uint64_t taken;
	struct stat sb;

	snprintf(dir, sizeof(dir), "%s/fsize", root);
	CHECK_EQ(mkdir(dir, 0700), 0);
	lost_records = 0;
	signal(SIGXFSZ, SIG_IGN);
	CHECK_EQ(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim.rlim_max = old.rlim_max;
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &lim), 0);
	CHECK_EQ(write_series(dir, 1 << 30, &st, &taken), -EFBIG);
	CHECK_EQ(setrlimit(RLIMIT_FSIZE, &old), 0);
	CHECK_EQ(st.error, -EFBIG);
	CHECK_EQ(st.file_bytes, FSIZE);
	snprintf(path, sizeof(path), "%s/npuprof.task.7.slice_0", dir);
	CHECK_EQ(stat(path, &sb), 0);
	CHECK_EQ(sb.st_size, FSIZE);
	CHECK_EQ(done_size(dir, 0), FSIZE);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.task.7", check_rec, &g, &rep), 0);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(g.seq, 280);
	CHECK(rep.truncated_bytes > 0);
	/* the records read back, less the LOST ones among them, and the lost */
	CHECK_EQ(g.seq - g.seq / 4 + lost_records, taken);
	CHECK(lost_records > 0);
	fprintf(stderr, "%s: RLIMIT_FSIZE %d: %llu records read back, %llu lost, %llu bytes cut\n",
		test_io_engine_kind() == IO_ENGINE_PWRITE ? "pwrite" : "io_uring", FSIZE,
		(unsigned long long)g.seq, (unsigned long long)lost_records,
		(unsigned long long)rep.truncated_bytes);
}

static void test_cut_pwrites(const char *root)
{
	struct slice_writer_stats full, cut;
	char a[600], b[600], name[64];
	uint64_t taken;

	snprintf(a, sizeof(a), "%s/whole", root);
	snprintf(b, sizeof(b), "%s/cut", root);
	CHECK_EQ(mkdir(a, 0700), 0);
	CHECK_EQ(mkdir(b, 0700), 0);
	lost_records = 0;
	clock_held = 1;
	CHECK_EQ(write_series(a, 16384, &full, &taken), 0);
	pwrite_cap = 1000;
	CHECK_EQ(write_series(b, 16384, &cut, &taken), 0);
	pwrite_cap = 0;
	clock_held = 0;
	CHECK_EQ(lost_records, 0);
	CHECK(pwrites > 10);
	CHECK(full.slices >= 3);
	CHECK_EQ(cut.slices, full.slices);
	CHECK_EQ(cut.file_bytes, full.file_bytes);
	for (uint64_t i = 0; i < full.slices; i++) {
		snprintf(name, sizeof(name), "npuprof.task.7.slice_%llu", (unsigned long long)i);
		CHECK(tmpdir_same_file(a, b, name));
	}
	fprintf(stderr, "pwrite cut to 1000 bytes %lu times: %llu slices as without the cut\n",
		pwrites, (unsigned long long)full.slices);
}

int main(void)
{
	char root[] = "/tmp/npuprof-short-XXXXXX";

	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	test_fsize(root);
	if (test_io_engine_kind() == IO_ENGINE_PWRITE)
		test_cut_pwrites(root);
	if (!check_failures)
		tmpdir_remove(root);
	else
		fprintf(stderr, "output kept in %s\n", root);
	return CHECK_DONE();
}
