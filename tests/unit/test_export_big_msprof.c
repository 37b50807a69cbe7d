// SPDX-License-Identifier: MIT
/*
 * Description: the big generated PROF dir (bigprof.h) at full size,
 * N = 1,000,003 tasks, exported with msprof's own limits: CSV rollover at
 * 1,000,000 rows, timeline slices of at most 200 MB, slicing from 200 MB.
 * op_summary and task_time come in parts of 1,000,000 and 3 rows, each
 * with the header of part 0.  The timeline (about 720 MB) comes as
 * msprof_<k>_<stamp>.json, k = 0..n-1, n >= 2, and no unsliced
 * msprof_<stamp>.json; each slice is within the cap, is one array ('['
 * first, ']' last), holds as many metadata events as slice 0 and as many
 * flow starts ("s") as flow ends ("f"); the slices hold 4N other events
 * in all (N calls, N tasks, N flows of two ends).
 *
 * The slices are scanned in C, not parsed: an event is an occurrence of
 * the key "ph": (exact for what export_timeline.c writes: "ph" is no args
 * key, and a JSON string cannot hold it unescaped), its kind the letter
 * after it.  test_export_big.c under make check-all parses the same
 * export as JSON (check_tl_slices.py), which takes over a minute.
 *
 * Skips (77) under AddressSanitizer (make check's sanitized pass has no
 * time for it; the small test_export_big covers the same code there) and
 * when /tmp has too little room for the PROF dir and its export.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "bigexport.h"

#define BIG_TASKS 1000003ull
#define BIG_CSV_ROWS 1000000ull /* msprof's rollover (csv_max_rows 0) */
#define BIG_SLICE_CAP (200ull << 20)
/*
 * What /tmp must have free: the PROF dir and its export take about 1.25 GB
 * at their peak (0.95 GB when done: 720 MB of timeline, 145 MB of CSV, the
 * 116 MB database); 2 GB leaves room for the exporter to grow.
 */
#define BIG_DISK_NEED (2ull << 30)

/* Read size of the slice scan: few calls; the slices were just written, so in the page cache. */
#define SCAN_BUF (16u << 20)
#define PH_KEY "\"ph\":"
#define PH_KEY_LEN (sizeof(PH_KEY) - 1)
/* "ph":"X": the key, a quote and the kind. */
#define PH_EVENT_LEN (PH_KEY_LEN + 2)

/**
 * struct tl_scan - what one timeline slice holds, from tl_scan_file()
 * @bytes: its size
 * @events: occurrences of "ph": (every event, metadata included)
 * @meta:   "ph":"M"
 * @starts: "ph":"s"
 * @ends:   "ph":"f"
 * @first:  its first byte other than white space (0 if none)
 * @last:   its last byte other than white space (0 if none)
 */
struct tl_scan {
	uint64_t bytes, events, meta, starts, ends;
	char first, last;
};

static int is_space(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/*
 * Count into @s the events of @buf[0..@len) whose "ph":"X" ends inside it.
 * Return: how many bytes at its end to carry over to the next read (where
 * an event cut by this one begins).
 */
static size_t scan_events(const char *buf, size_t len, struct tl_scan *s)
{
	const char *p = buf, *end = buf + len;

	while ((p = memmem(p, (size_t)(end - p), PH_KEY, PH_KEY_LEN))) {
		if ((size_t)(end - p) < PH_EVENT_LEN)
			break; /* cut by the read: counted with the next one */
		s->events++;
		if (p[PH_KEY_LEN] == '"') {
			s->meta += p[PH_KEY_LEN + 1] == 'M';
			s->starts += p[PH_KEY_LEN + 1] == 's';
			s->ends += p[PH_KEY_LEN + 1] == 'f';
		}
		p += PH_KEY_LEN;
	}
	return len < PH_EVENT_LEN - 1 ? len : PH_EVENT_LEN - 1;
}

/*
 * Scan @path in reads of SCAN_BUF, carrying the last PH_EVENT_LEN - 1
 * bytes of each read over to the next so an event cut by a read counts
 * once.  Return: 0, or -errno of opening or reading it.
 */
static int tl_scan_file(const char *path, struct tl_scan *s)
{
	static char buf[PH_EVENT_LEN + SCAN_BUF];
	size_t keep = 0;
	ssize_t got;
	int fd = open(path, O_RDONLY);

	memset(s, 0, sizeof(*s));
	if (fd < 0)
		return -errno;
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	while ((got = read(fd, buf + keep, SCAN_BUF)) > 0) {
		size_t len = keep + (size_t)got;

		s->bytes += (uint64_t)got;
		for (size_t i = keep; !s->first && i < len; i++)
			if (!is_space(buf[i]))
				s->first = buf[i];
		for (size_t i = len; i > keep; i--)
			if (!is_space(buf[i - 1])) {
				s->last = buf[i - 1];
				break;
			}
		keep = scan_events(buf, len, s);
		memmove(buf, buf + len - keep, keep);
	}
	if (got < 0)
		got = -errno;
	close(fd);
	return got < 0 ? (int)got : 0;
}

/* "<name>: <got> <what>, want <want><whose>" unless @got is @want. */
static void slice_expect(const char *name, uint64_t got, const char *what, uint64_t want,
			 const char *whose)
{
	if (got == want)
		return;
	fprintf(stderr, "%s: %llu %s, want %llu%s\n", name, (unsigned long long)got, what,
		(unsigned long long)want, whose);
	check_failures++;
}

/* Files of @out named msprof_<digits>_<stamp>.json. */
static uint64_t count_slice_files(const char *out, const char *stamp)
{
	static const char head[] = "msprof_";
	const size_t lh = sizeof(head) - 1;
	char tail[32];
	struct dirent *e;
	uint64_t n = 0;
	DIR *d = opendir(out);

	if (!d)
		return 0;
	snprintf(tail, sizeof(tail), "_%s.json", stamp);
	while ((e = readdir(d))) {
		const char *name = e->d_name;
		size_t len = strlen(name), lt = strlen(tail);

		if (len > lh + lt && !strncmp(name, head, lh) && !strcmp(name + len - lt, tail) &&
		    strspn(name + lh, "0123456789") == len - lh - lt)
			n++;
	}
	closedir(d);
	return n;
}

/* Check one slice; @meta0 is slice 0's metadata count (its own for slice 0). */
static void check_slice(const char *name, const struct tl_scan *s, uint64_t meta0)
{
	fprintf(stderr, "%s: %llu bytes, %llu events + %llu metadata, %llu flows\n", name,
		(unsigned long long)s->bytes, (unsigned long long)(s->events - s->meta),
		(unsigned long long)s->meta, (unsigned long long)s->starts);
	if (s->bytes > BIG_SLICE_CAP) {
		fprintf(stderr, "%s: %llu bytes, more than the cap of %llu\n", name,
			(unsigned long long)s->bytes, BIG_SLICE_CAP);
		check_failures++;
	}
	if (s->first != '[' || s->last != ']') {
		fprintf(stderr, "%s: starts with '%c' and ends with '%c', want '[' and ']'\n", name,
			s->first ? s->first : ' ', s->last ? s->last : ' ');
		check_failures++;
	}
	slice_expect(name, s->meta, "metadata events (\"ph\":\"M\")", meta0, " (slice 0's)");
	slice_expect(name, s->ends, "flow ends (\"ph\":\"f\")", s->starts,
		     " (its flow starts, \"ph\":\"s\")");
}

/* The timeline slices of @out (see the banner): @events events besides metadata. */
static void check_tl_slices(const char *out, const char *stamp, uint64_t events)
{
	char path[2048], name[64];
	uint64_t k, meta0 = 0, total = 0;
	struct tl_scan s;

	snprintf(path, sizeof(path), "%s/msprof_%s.json", out, stamp);
	if (!access(path, F_OK)) {
		fprintf(stderr, "%s: an unsliced timeline next to the slices\n", path);
		check_failures++;
	}
	for (k = 0;; k++) {
		int err;

		snprintf(name, sizeof(name), "msprof_%llu_%s.json", (unsigned long long)k, stamp);
		snprintf(path, sizeof(path), "%s/%s", out, name);
		err = tl_scan_file(path, &s);
		if (err == -ENOENT)
			break;
		if (err) {
			fprintf(stderr, "%s: cannot read it: %s\n", path, strerror(-err));
			check_failures++;
			return;
		}
		if (!k && !s.meta) {
			fprintf(stderr, "%s: no metadata events (\"ph\":\"M\")\n", name);
			check_failures++;
		}
		if (!k)
			meta0 = s.meta;
		check_slice(name, &s, meta0);
		total += s.events - s.meta;
	}
	if (k < 2) {
		fprintf(stderr, "%s: %llu slices msprof_<k>_%s.json, want 2 or more\n", out,
			(unsigned long long)k, stamp);
		check_failures++;
	}
	slice_expect(out, count_slice_files(out, stamp), "files msprof_<digits>_<stamp>.json", k,
		     " (those of k = 0..n-1)");
	slice_expect(out, total, "events besides metadata in all slices", events,
		     " (N calls, N tasks, 2N flow ends)");
}

/* Skip unless /tmp (fx_tmpdir()) has BIG_DISK_NEED bytes free. */
static void need_disk(void)
{
	struct statvfs fs;
	char why[160];
	uint64_t avail;

	if (statvfs("/tmp", &fs))
		return; /* fx_tmpdir() says what is wrong with /tmp */
	avail = (uint64_t)fs.f_bavail * fs.f_frsize;
	if (avail >= BIG_DISK_NEED)
		return;
	snprintf(why, sizeof(why), "/tmp has %llu MB free, the 1,000,003-task export needs %llu MB",
		 (unsigned long long)(avail >> 20), BIG_DISK_NEED >> 20);
	CHECK_SKIP(why);
}

int main(void)
{
	struct msprof_export_opts opts = { .csv_max_rows = 0, /* msprof's 1,000,000 */
					   .tl_slice_bytes = BIG_SLICE_CAP,
					   .tl_slice_min = 0 /* msprof's 200 MB */ };
	struct big_paths p;
	double t;

#if defined(__SANITIZE_ADDRESS__)
	CHECK_SKIP("too slow under AddressSanitizer; asan/test_export_big covers the same code");
#endif
	need_disk();
	if (big_export(BIG_TASKS, &opts, &p)) {
		fx_rmtree(p.root);
		return 1;
	}
	t = big_now_s();
	big_check_csv_parts(p.out, "op_summary_", p.stamp, BIG_TASKS, BIG_CSV_ROWS);
	big_check_csv_parts(p.out, "task_time_", p.stamp, BIG_TASKS, BIG_CSV_ROWS);
	check_tl_slices(p.out, p.stamp, 4 * BIG_TASKS);
	fprintf(stderr, "checked in %.1f s\n", big_now_s() - t);
	/* gigabytes: never left behind, even to look into a failure */
	fx_rmtree(p.root);
	return CHECK_DONE();
}
