// SPDX-License-Identifier: MIT
/*
 * Description: a write error (ENOSPC, from a slice that is a symlink to
 * /dev/full) is remembered by the slice writer: later appends and flushes
 * return it, no further slice is created, close reports it, and the slices
 * written before stay readable with all their records.  Every record an
 * append took is either read back or reported to cfg.lost, with its CPU:
 * exactly the taken records after the last one on disk (NPUPROF_REC_LOST
 * records, every 4th, are not counted).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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
#include <npuprof/slice.h>

#define FLUSH_EVERY 40

static uint64_t lost_by_cpu[2], lost_other;

static void on_lost(void *ctx, uint32_t cpu, uint16_t type, uint64_t records)
{
	(void)ctx;
	(void)type;
	if (cpu < 2)
		lost_by_cpu[cpu] += records;
	else
		lost_other += records;
}

/* Reap until the series has no write in flight, as the drain loop would. */
static void wait_writes(struct io_engine *io, struct slice_writer *w)
{
	test_io_wait_idle(io, w);
}

int main(void)
{
	char dir[] = "/tmp/npuprof-enospc-XXXXXX";
	char link[600], path[600];
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.api", .slice_bytes = 8192,
					.zstd_level = 3, .source = NPUPROF_SRC_BPF, .device = -1,
					.lost = on_lost };
	uint64_t taken = 0, want[2] = { 0, 0 };
	struct slice_writer_stats st;
	struct npuprof_read_report rep;
	struct slice_writer *w;
	struct io_engine *io;
	struct recgen_got g = { 0 };
	struct stat sb;
	uint8_t buf[RECGEN_MAX];
	int err = 0;
	uint64_t i;

	if (!mkdtemp(dir) || test_io_engine_open(8, &io))
		CHECK_SKIP("no temp dir or no I/O engine");
	snprintf(link, sizeof(link), "%s/npuprof.api.slice_1", dir);
	if (symlink("/dev/full", link))
		CHECK_SKIP("cannot link to /dev/full");
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (i = 0; i < 100000 && !err; i++) {
		recgen_make(buf, i);
		err = slice_writer_append(w, (void *)buf);
		taken += !err;
		if (!err && i % FLUSH_EVERY == FLUSH_EVERY - 1)
			err = slice_writer_flush(w);
		wait_writes(io, w);
	}
	CHECK_EQ(err, -ENOSPC);
	CHECK_EQ(slice_writer_flush(w), -ENOSPC);
	CHECK_EQ(slice_writer_append(w, (void *)buf), -ENOSPC);
	CHECK_EQ(slice_writer_close(w, &st), -ENOSPC);
	CHECK_EQ(st.error, -ENOSPC);
	CHECK_EQ(st.slices, 2);
	snprintf(path, sizeof(path), "%s/npuprof.api.slice_2", dir);
	CHECK(access(path, F_OK) != 0);

	unlink(link); /* /dev/full reads back zeros forever */
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", recgen_check, &g, &rep), 0);
	CHECK(g.seq > 0);
	CHECK_EQ(g.seq % FLUSH_EVERY, 0);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.slices, 1);
	CHECK_EQ(rep.truncated_bytes, 0);
	snprintf(path, sizeof(path), "%s/npuprof.api.slice_0", dir);
	CHECK_EQ(stat(path, &sb), 0);
	CHECK_EQ(st.file_bytes, sb.st_size);
	for (i = g.seq; i < taken; i++)
		want[i % 2] += i % 4 != 3;
	CHECK(taken > g.seq);
	CHECK_EQ(lost_by_cpu[0], want[0]);
	CHECK_EQ(lost_by_cpu[1], want[1]);
	CHECK_EQ(lost_other, 0);

	io_engine_close(io);
	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
