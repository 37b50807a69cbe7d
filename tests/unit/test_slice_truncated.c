// SPDX-License-Identifier: MIT
/*
 * Description: a series whose last slice was cut inside its last zstd frame
 * (a crash mid-write, a partial copy) reads back every record of the
 * complete frames, in order, reports the cut frame's bytes in
 * truncated_bytes and returns 0; likewise for a cut inside a frame header.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "check.h"
#include "recgen.h"
#include "tmpdir.h"
#include "../../user/slice_block.h"
#include "io_engine_test.h"
#include <npuprof/slice.h>

#define NR_RECORDS 600
#define FLUSH_EVERY 10

static uint64_t write_series(const char *dir)
{
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.api", .slice_bytes = 8192,
					.zstd_level = 3, .source = NPUPROF_SRC_BPF, .device = -1 };
	struct slice_writer_stats st = { 0 };
	struct slice_writer *w;
	struct io_engine *io;
	uint8_t buf[RECGEN_MAX];

	CHECK_EQ(test_io_engine_open(8, &io), 0);
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (uint64_t i = 0; i < NR_RECORDS; i++) {
		recgen_make(buf, i);
		CHECK_EQ(slice_writer_append(w, (void *)buf), 0);
		if (i % FLUSH_EVERY == FLUSH_EVERY - 1)
			CHECK_EQ(slice_writer_flush(w), 0);
	}
	CHECK_EQ(slice_writer_close(w, &st), 0);
	io_engine_close(io);
	return st.slices;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	struct stat sb;
	uint8_t *buf;
	int fd = open(path, O_RDONLY);

	if (fd < 0 || fstat(fd, &sb) || !(buf = malloc((size_t)sb.st_size + 1)) ||
	    read(fd, buf, (size_t)sb.st_size) != sb.st_size) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	close(fd);
	*len = (size_t)sb.st_size;
	return buf;
}

/* Records inside one frame, counted by decoding it on its own: a block
 * names its count, a version-1 frame is walked record by record. */
static uint64_t frame_records(const uint8_t *frame, size_t len)
{
	static uint8_t out[1 << 20];
	size_t n = ZSTD_decompress(out, sizeof(out), frame, len);
	uint64_t count = 0;

	CHECK(!ZSTD_isError(n));
	if (!ZSTD_isError(n) && slice_block_is(out, n))
		return ((const struct slice_block_hdr *)out)->nr_records;
	for (size_t pos = 0; !ZSTD_isError(n) && pos < n; count++)
		pos += ((struct npuprof_rec_hdr *)(out + pos))->size;
	return count;
}

struct last_frame {
	size_t start; /* file offset */
	size_t len;   /* compressed bytes */
	uint64_t records;
	unsigned int frames; /* frames in the slice */
};

static struct last_frame find_last_frame(const char *path)
{
	struct last_frame lf = { 0 };
	size_t len, pos = 0;
	uint8_t *buf = read_file(path, &len);

	while (pos < len) {
		size_t n = ZSTD_findFrameCompressedSize(buf + pos, len - pos);

		if (ZSTD_isError(n))
			break;
		lf.start = pos;
		lf.len = n;
		lf.frames++;
		pos += n;
	}
	CHECK_EQ(pos, len);
	lf.records = frame_records(buf + lf.start, lf.len);
	free(buf);
	return lf;
}

static void read_and_check(const char *dir, uint64_t want_records, uint64_t want_hdrs,
			   uint64_t want_slices, uint64_t want_truncated)
{
	struct npuprof_read_report rep;
	struct recgen_got g = { 0 };

	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", recgen_check, &g, &rep), 0);
	CHECK_EQ(g.seq, want_records);
	CHECK_EQ(g.hdrs, want_hdrs);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.records, want_records + want_hdrs);
	CHECK_EQ(rep.slices, want_slices);
	CHECK_EQ(rep.truncated_bytes, want_truncated);
}

int main(void)
{
	char dir[] = "/tmp/npuprof-trunc-XXXXXX";
	char last[600];
	struct last_frame lf;
	uint64_t slices, lost_hdr;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	slices = write_series(dir);
	CHECK(slices >= 3);
	snprintf(last, sizeof(last), "%s/npuprof.api.slice_%llu", dir,
		 (unsigned long long)(slices - 1));
	lf = find_last_frame(last);
	CHECK(lf.len > 16);
	/* The stream header goes with the slice's first frame. */
	lost_hdr = lf.frames == 1;
	CHECK_EQ(lf.records, FLUSH_EVERY + lost_hdr);
	read_and_check(dir, NR_RECORDS, slices, slices, 0);

	CHECK_EQ(truncate(last, (off_t)(lf.start + lf.len / 2)), 0);
	read_and_check(dir, NR_RECORDS - FLUSH_EVERY, slices - lost_hdr, slices, lf.len / 2);

	CHECK_EQ(truncate(last, (off_t)(lf.start + 3)), 0); /* inside the frame header */
	read_and_check(dir, NR_RECORDS - FLUSH_EVERY, slices - lost_hdr, slices, 3);

	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
