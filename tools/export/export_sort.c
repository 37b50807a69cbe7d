// SPDX-License-Identifier: MIT
/*
 * External merge sort of fixed-size records (export_sort.h).
 *
 * Adding: records are copied into one buffer.  A full buffer is sorted
 * through an array of pointers into it (ties broken by the pointers'
 * order, which is the order of adding: the sort is stable without a
 * sequence number in the records) and appended to the run file as one
 * run.  All runs share one O_TMPFILE file, each remembered as (offset,
 * records).
 *
 * Reading: when nothing was spilled the sorted pointer array is walked.
 * Otherwise the buffer's last records become a run too, the buffer is
 * freed, and each run gets a read window of mem_bytes / runs; a binary
 * heap of runs, keyed by their current record and then by run index
 * (earlier runs hold earlier records: stable), yields the records.  The
 * record handed out stays in its window until the next call, which only
 * then moves past it.
 *
 * Without a comparator every record compares equal, so the stable order
 * is the order of adding: the sorter is a spool, records kept in memory up
 * to mem_bytes and on disk beyond.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export_sort.h"

/*
 * The run file below @dir_fd: an O_TMPFILE file, or, on a filesystem
 * without O_TMPFILE (FUSE such as sshfs, vfat: EOPNOTSUPP; kernels before
 * 3.11: EISDIR), a new file of a name of its own, unlinked at once (a
 * crash between the two leaves it, named .msprof-sort.*).
 * Return: its fd or -errno.
 */
static int open_run_file(int dir_fd)
{
	static unsigned int seq;
	char name[64];
	int fd, tries;

	fd = openat(dir_fd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	if (errno != EOPNOTSUPP && errno != EISDIR)
		return -errno;
	for (tries = 0; tries < 100; tries++) {
		snprintf(name, sizeof(name), ".msprof-sort.%d.%u", (int)getpid(), seq++);
		fd = openat(dir_fd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0) {
			unlinkat(dir_fd, name, 0);
			return fd;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Bytes gathered in sorted order before each write of a run. */
#define XSORT_WRITE_CHUNK (256u << 10)

struct xsort_run {
	off_t off;     /* first byte of the run in the file */
	uint64_t n;    /* its records */
};

/* A run being read: a window of its records. */
struct xsort_cursor {
	off_t next_off; /* file offset of the first record not in the window */
	uint64_t left;	/* records of the run not yet in the window */
	uint8_t *win;
	size_t len;	/* bytes in the window */
	size_t pos;	/* offset of the current record in it */
};

struct xsort {
	struct xsort_cfg cfg;
	uint8_t *buf;	/* records as added */
	size_t cap, n;	/* records buf holds at most / now */
	const uint8_t **order;
	int fd;		/* run file, -1 until the first spill */
	off_t end;	/* its size */
	struct xsort_run *runs;
	size_t n_runs;
	uint64_t count;
	int err;	/* sticky */
	int reading;
	/* reading */
	size_t mem_pos;
	struct xsort_cursor *cur;
	uint8_t *wins;	/* the runs' windows, one block: freed whole, no holes left */
	size_t *heap, n_heap;
	int pending;	/* heap[0]'s current record was handed out */
};

static int cmp_order(const void *pa, const void *pb, void *ctx)
{
	const struct xsort *s = ctx;
	const uint8_t *a = *(const uint8_t *const *)pa, *b = *(const uint8_t *const *)pb;
	int c = s->cfg.cmp(a, b);

	return c ? c : (a > b) - (a < b);
}

int xsort_open(const struct xsort_cfg *cfg, struct xsort **out)
{
	struct xsort *s;

	*out = NULL;
	if (!cfg->rec_size)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cfg = *cfg;
	s->cap = cfg->mem_bytes / cfg->rec_size;
	if (s->cap < 2)
		s->cap = 2;
	s->buf = malloc(s->cap * cfg->rec_size);
	s->order = malloc(s->cap * sizeof(*s->order));
	s->fd = -1;
	if (!s->buf || !s->order) {
		xsort_close(s);
		return -ENOMEM;
	}
	*out = s;
	return 0;
}

static void sort_buffer(struct xsort *s)
{
	for (size_t i = 0; i < s->n; i++)
		s->order[i] = s->buf + i * s->cfg.rec_size;
	if (s->cfg.cmp)
		qsort_r(s->order, s->n, sizeof(*s->order), cmp_order, s);
}

static int write_all(int fd, const uint8_t *p, size_t len, off_t off)
{
	while (len) {
		ssize_t w = pwrite(fd, p, len, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
		off += w;
	}
	return 0;
}

/* The buffer, sorted, as one more run at the end of the run file. */
static int spill(struct xsort *s)
{
	size_t rs = s->cfg.rec_size, per = XSORT_WRITE_CHUNK / rs ? XSORT_WRITE_CHUNK / rs : 1;
	struct xsort_run *r;
	uint8_t *chunk;
	size_t i, k;
	int err = 0;

	if (s->fd < 0) {
		s->fd = open_run_file(s->cfg.dir_fd);
		if (s->fd < 0)
			return s->fd;
	}
	r = realloc(s->runs, (s->n_runs + 1) * sizeof(*r));
	chunk = malloc(per * rs);
	if (!r || !chunk) {
		free(chunk);
		if (r)
			s->runs = r;
		return -ENOMEM;
	}
	s->runs = r;
	sort_buffer(s);
	for (i = 0; !err && i < s->n; i += k) {
		for (k = 0; k < per && i + k < s->n; k++)
			memcpy(chunk + k * rs, s->order[i + k], rs);
		err = write_all(s->fd, chunk, k * rs, s->end + (off_t)(i * rs));
	}
	free(chunk);
	if (err)
		return err;
	s->runs[s->n_runs++] = (struct xsort_run){ s->end, s->n };
	s->end += (off_t)(s->n * rs);
	s->n = 0;
	return 0;
}

int xsort_add(struct xsort *s, const void *rec)
{
	if (s->err)
		return s->err;
	if (s->reading)
		return -EINVAL;
	if (s->n == s->cap) {
		s->err = spill(s);
		if (s->err)
			return s->err;
	}
	memcpy(s->buf + s->n++ * s->cfg.rec_size, rec, s->cfg.rec_size);
	s->count++;
	return 0;
}

/* Refill @c's window with the run's next records; 0 or -errno. */
static int refill(struct xsort *s, struct xsort_cursor *c, size_t win_recs)
{
	size_t rs = s->cfg.rec_size, want;

	want = (c->left < win_recs ? (size_t)c->left : win_recs) * rs;
	c->len = 0;
	c->pos = 0;
	while (c->len < want) {
		ssize_t r = pread(s->fd, c->win + c->len, want - c->len, c->next_off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO; /* the file shrank under us */
		c->len += (size_t)r;
		c->next_off += r;
	}
	c->left -= want / rs;
	return 0;
}

static size_t win_recs(const struct xsort *s)
{
	size_t w = s->cfg.mem_bytes / s->cfg.rec_size / (s->n_runs ? s->n_runs : 1);

	return w ? w : 1;
}

static int heap_less(const struct xsort *s, size_t a, size_t b)
{
	const struct xsort_cursor *x = &s->cur[a], *y = &s->cur[b];
	int c = s->cfg.cmp ? s->cfg.cmp(x->win + x->pos, y->win + y->pos) : 0;

	return c ? c < 0 : a < b;
}

static void sift_down(struct xsort *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i, t;

		if (l < s->n_heap && heap_less(s, s->heap[l], s->heap[m]))
			m = l;
		if (r < s->n_heap && heap_less(s, s->heap[r], s->heap[m]))
			m = r;
		if (m == i)
			return;
		t = s->heap[i];
		s->heap[i] = s->heap[m];
		s->heap[m] = t;
		i = m;
	}
}

/* The first call: the buffer's records become the last run, the buffer goes. */
static int start_merge(struct xsort *s)
{
	size_t w;

	if (s->n) {
		int err = spill(s);

		if (err)
			return err;
	}
	free(s->buf);
	free(s->order);
	s->buf = NULL;
	s->order = NULL;
	w = win_recs(s);
	s->cur = calloc(s->n_runs, sizeof(*s->cur));
	s->heap = calloc(s->n_runs, sizeof(*s->heap));
	if (!s->cur || !s->heap)
		return -ENOMEM;
	s->wins = malloc(s->n_runs * w * s->cfg.rec_size);
	if (!s->wins)
		return -ENOMEM;
	for (size_t i = 0; i < s->n_runs; i++)
		s->cur[i].win = s->wins + i * w * s->cfg.rec_size;
	return 0;
}

int xsort_rewind(struct xsort *s)
{
	size_t w;
	int err;

	if (s->err)
		return s->err;
	if (!s->reading && s->fd < 0)
		sort_buffer(s); /* all in memory: no run file at all */
	else if (!s->reading && (err = start_merge(s)))
		return s->err = err;
	s->reading = 1;
	s->mem_pos = 0;
	s->pending = 0;
	if (s->fd < 0)
		return 0;
	w = win_recs(s);
	s->n_heap = 0;
	for (size_t i = 0; i < s->n_runs; i++) {
		struct xsort_cursor *c = &s->cur[i];

		c->next_off = s->runs[i].off;
		c->left = s->runs[i].n;
		err = refill(s, c, w);
		if (err)
			return s->err = err;
		if (c->len)
			s->heap[s->n_heap++] = i;
	}
	for (size_t i = s->n_heap / 2; i-- > 0;)
		sift_down(s, i);
	return 0;
}

/* Move heap[0]'s run past the record handed out last. */
static int advance(struct xsort *s)
{
	struct xsort_cursor *c = &s->cur[s->heap[0]];
	int err;

	c->pos += s->cfg.rec_size;
	if (c->pos == c->len) {
		err = refill(s, c, win_recs(s));
		if (err)
			return s->err = err;
		if (!c->len)
			s->heap[0] = s->heap[--s->n_heap];
	}
	if (s->n_heap)
		sift_down(s, 0);
	return 0;
}

int xsort_next(struct xsort *s, const void **rec)
{
	int err;

	if (s->err)
		return s->err;
	if (!s->reading)
		return -EINVAL;
	if (s->fd < 0) {
		if (s->mem_pos == s->n)
			return 0;
		*rec = s->order[s->mem_pos++];
		return 1;
	}
	if (s->pending) {
		s->pending = 0;
		err = advance(s);
		if (err)
			return err;
	}
	if (!s->n_heap)
		return 0;
	*rec = s->cur[s->heap[0]].win + s->cur[s->heap[0]].pos;
	s->pending = 1;
	return 1;
}

uint64_t xsort_count(const struct xsort *s)
{
	return s->count;
}

size_t xsort_runs(const struct xsort *s)
{
	return s->n_runs;
}

void xsort_close(struct xsort *s)
{
	if (!s)
		return;
	free(s->wins);
	free(s->cur);
	free(s->heap);
	free(s->runs);
	free(s->buf);
	free(s->order);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}
