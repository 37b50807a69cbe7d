// SPDX-License-Identifier: MIT
/*
 * Description: a slice of version-3 frames (each decoded with the history
 * of the frames before it), as the writer makes it from task records of
 * two streams with a flush every 20 records, cut at every byte: the read
 * returns 0 and delivers exactly the records of the whole frames before
 * the cut, byte for byte and in order; truncated_bytes is what follows
 * them and the cut is reported at their end.  The same slice with one
 * byte flipped, at every byte: the read delivers exactly the records of
 * the frames before the damaged one and reports it corrupt at its start
 * (-EBADMSG), or, when the flip left the frame intact or made it end past
 * the file, the same as a whole read or a cut there.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>

#include "check.h"
#include "taskgen.h"
#include "tmpdir.h"
#include "../../user/slice_model.h"
#include "io_engine_test.h"
#include <npuprof/slice.h>

#define NR 140
#define FLUSH_EVERY 20
#define MAX_FRAMES 16

static struct npuprof_rec_task recs[NR];
static char dir[] = "/tmp/npuprof-v3cut-XXXXXX";
static char path[600];

struct frames {
	size_t end[MAX_FRAMES]; /* file offset past frame i */
	uint64_t records[MAX_FRAMES]; /* task records in frames 0..i */
	unsigned int n;
};

struct got {
	uint64_t tasks, hdrs, bad;
};

static int on_record(void *ctx, const struct npuprof_rec_hdr *h)
{
	struct got *g = ctx;

	if (h->type == NPUPROF_REC_STREAM_HDR) {
		g->hdrs++;
		return 0;
	}
	if (g->tasks >= NR || h->size != sizeof(recs[0]) || memcmp(h, &recs[g->tasks], h->size))
		g->bad++;
	g->tasks++;
	return 0;
}

static void write_slice(void)
{
	struct slice_writer_cfg cfg = { .dir = dir, .series = "npuprof.task.0",
					.slice_bytes = 1 << 20, .zstd_level = 1,
					.source = NPUPROF_SRC_KMOD, .device = 0 };
	struct slice_writer *w;
	struct io_engine *io;
	struct taskgen g[2];

	taskgen_init(&g[0], 7, 0, 0);
	taskgen_init(&g[1], 8, 1, 0);
	CHECK_EQ(test_io_engine_open(8, &io), 0);
	CHECK_EQ(slice_writer_open(io, &cfg, &w), 0);
	for (int i = 0; i < NR; i++) {
		int k = (i / 3) % 2;

		taskgen_next(&g[k], &recs[i]);
		recs[i].stream = 1 + k;
		CHECK_EQ(slice_writer_append(w, &recs[i].hdr), 0);
		if (i % FLUSH_EVERY == FLUSH_EVERY - 1)
			CHECK_EQ(slice_writer_flush(w), 0);
	}
	CHECK_EQ(slice_writer_close(w, NULL), 0);
	io_engine_close(io);
}

static uint8_t *read_all(size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = malloc(1 << 20);

	CHECK(f && buf);
	*len = f && buf ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

/* Frame ends and task records per frame; every frame a modelled block. */
static struct frames find_frames(const uint8_t *buf, size_t len)
{
	static uint8_t out[1 << 20];
	struct frames fr = { .n = 0 };
	uint64_t total = 0;
	size_t pos = 0;

	while (pos < len && fr.n < MAX_FRAMES) {
		size_t n = ZSTD_findFrameCompressedSize(buf + pos, len - pos);
		size_t d = ZSTD_isError(n) ? n : ZSTD_decompress(out, sizeof(out), buf + pos, n);
		const struct slice_mblock_hdr *h = (const void *)out;

		CHECK(!ZSTD_isError(d) && slice_block_is(out, d));
		if (ZSTD_isError(d))
			break;
		CHECK_EQ(h->version, SLICE_MBLOCK_VERSION);
		total += h->nr_records - (fr.n == 0); /* the stream header goes first */
		pos += n;
		fr.end[fr.n] = pos;
		fr.records[fr.n++] = total;
	}
	CHECK_EQ(pos, len);
	return fr;
}

static void put(const uint8_t *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_TRUNC);

	CHECK(fd >= 0 && write(fd, buf, len) == (ssize_t)len);
	close(fd);
}

/* Whole frames within the first @len bytes. */
static unsigned int whole(const struct frames *fr, size_t len)
{
	unsigned int k = 0;

	while (k < fr->n && fr->end[k] <= len)
		k++;
	return k;
}

static void check_cut(const struct frames *fr, const uint8_t *buf, size_t len)
{
	struct npuprof_read_report rep;
	struct got g = { 0 };
	unsigned int k = whole(fr, len);
	size_t end = k ? fr->end[k - 1] : 0;

	put(buf, len);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.task.0", on_record, &g, &rep), 0);
	CHECK_EQ(g.tasks, k ? fr->records[k - 1] : 0);
	CHECK_EQ(g.hdrs, k ? 1 : 0);
	CHECK_EQ(g.bad, 0);
	CHECK_EQ(rep.truncated_bytes, len - end);
	CHECK_EQ(rep.cut, len > end);
	if (len > end)
		CHECK_EQ(rep.cut_at, end);
}

/* Return: 1 when the flip at @at was caught as a corrupt frame. */
static int check_flip(const struct frames *fr, uint8_t *buf, size_t len, size_t at)
{
	struct npuprof_read_report rep;
	struct got g = { 0 };
	unsigned int k = whole(fr, at); /* frames before the damaged one */
	size_t start = k ? fr->end[k - 1] : 0;
	int err;

	buf[at] ^= 0x5a;
	put(buf, len);
	buf[at] ^= 0x5a;
	err = npuprof_slice_read_series(dir, "npuprof.task.0", on_record, &g, &rep);
	CHECK_EQ(g.bad, 0);
	if (err == -EBADMSG) {
		CHECK_EQ(rep.corrupt, 1);
		CHECK_EQ(rep.corrupt_at, start);
		CHECK_EQ(g.tasks, k ? fr->records[k - 1] : 0);
		return 1;
	}
	CHECK_EQ(err, 0);
	if (rep.cut) { /* the frame now claims more bytes than the file has */
		CHECK_EQ(rep.cut_at, start);
		CHECK_EQ(g.tasks, k ? fr->records[k - 1] : 0);
	} else {
		CHECK_EQ(g.tasks, NR);
	}
	return 0;
}

int main(void)
{
	struct frames fr;
	size_t len, caught = 0;
	uint8_t *buf;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	snprintf(path, sizeof(path), "%s/npuprof.task.0.slice_0", dir);
	write_slice();
	buf = read_all(&len);
	fr = find_frames(buf, len);
	CHECK_EQ(fr.n, NR / FLUSH_EVERY);
	CHECK_EQ(fr.records[fr.n - 1], NR);
	for (size_t cut = 0; cut <= len; cut++)
		check_cut(&fr, buf, cut);
	for (size_t at = 0; at < len; at++)
		caught += (size_t)check_flip(&fr, buf, len, at);
	/* zstd's checksum catches nearly every flip */
	CHECK(caught * 10 >= len * 9);
	free(buf);
	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
