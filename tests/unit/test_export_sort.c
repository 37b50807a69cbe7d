// SPDX-License-Identifier: MIT
/*
 * Description: the export's external sort gives records back in key order,
 * equal keys in the order they were added, whether they all fit in memory
 * (no run file) or were spilled as many runs through a buffer of a few
 * records; a second pass (rewind) gives the same sequence; an empty sort
 * gives nothing; adding after reading began and a record size of 0 are
 * refused.  Without a comparator (a spool) records come back in the order
 * they were added, in memory and spilled.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"
#include "export_sort.h"

struct rec {
	uint32_t key;
	uint32_t seq; /* order of adding */
	uint64_t pad;
};

static int cmp_key(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;

	return (a->key > b->key) - (a->key < b->key);
}

/*
 * Read every record; check key order and stability (@spool: the order of
 * adding alone); return how many.
 */
static uint64_t read_sorted(struct xsort *s, int spool, uint64_t *sum)
{
	const void *p;
	struct rec prev = { 0 };
	uint64_t n = 0;
	int r;

	*sum = 0;
	CHECK_EQ(xsort_rewind(s), 0);
	while ((r = xsort_next(s, &p)) == 1) {
		const struct rec *x = p;

		if (spool ? x->seq != n :
			    n && (x->key < prev.key || (x->key == prev.key && x->seq <= prev.seq))) {
			fprintf(stderr, "record %llu: (%u, %u) after (%u, %u)\n",
				(unsigned long long)n, x->key, x->seq, prev.key, prev.seq);
			check_failures++;
		}
		prev = *x;
		*sum += x->seq;
		n++;
	}
	CHECK_EQ(r, 0);
	return n;
}

static void sort_case(int dir_fd, int spool, size_t mem_recs, uint32_t n, uint32_t keys,
		      size_t want_runs)
{
	struct xsort_cfg cfg = { sizeof(struct rec), spool ? NULL : cmp_key,
				 mem_recs * sizeof(struct rec), dir_fd };
	uint64_t rnd = 88172645463325252ull, sum, want_sum = (uint64_t)n * (n - 1) / 2;
	struct xsort *s;

	CHECK_EQ(xsort_open(&cfg, &s), 0);
	for (uint32_t i = 0; i < n; i++) {
		struct rec r = { .seq = i };

		rnd ^= rnd << 13;
		rnd ^= rnd >> 7;
		rnd ^= rnd << 17;
		r.key = (uint32_t)(rnd % keys);
		CHECK_EQ(xsort_add(s, &r), 0);
	}
	CHECK_EQ(xsort_count(s), n);
	CHECK_EQ(read_sorted(s, spool, &sum), n);
	CHECK_EQ(sum, want_sum);
	CHECK_EQ(xsort_runs(s), want_runs);
	CHECK_EQ(read_sorted(s, spool, &sum), n); /* a second pass: the same */
	CHECK_EQ(sum, want_sum);
	CHECK_EQ(xsort_add(s, &(struct rec){ 0 }), -EINVAL);
	xsort_close(s);
}

int main(void)
{
	char dir[] = "/tmp/npuprof-xsort-XXXXXX";
	struct xsort_cfg bad = { 0, cmp_key, 4096, -1 };
	struct xsort *s;
	const void *p;
	int fd;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);

	sort_case(fd, 0, 4096, 1000, 50, 0);	 /* fits: no run file */
	sort_case(fd, 0, 64, 10000, 50, 157);	 /* 157 runs, 156 full + the rest */
	sort_case(fd, 0, 2, 101, 3, 51);	 /* the smallest buffer */
	sort_case(fd, 0, 1000, 5000, 1, 5);	 /* one key: pure stability */
	sort_case(fd, 1, 4096, 1000, 50, 0);	 /* spool in memory */
	sort_case(fd, 1, 64, 10000, 50, 157);	 /* spool spilled */

	CHECK_EQ(xsort_open(&bad, &s), -EINVAL);
	bad.rec_size = sizeof(struct rec);
	bad.dir_fd = fd;
	CHECK_EQ(xsort_open(&bad, &s), 0);
	CHECK_EQ(xsort_next(s, &p), -EINVAL); /* not rewound yet */
	CHECK_EQ(xsort_rewind(s), 0);
	CHECK_EQ(xsort_next(s, &p), 0);
	xsort_close(s);
	xsort_close(NULL);

	close(fd);
	CHECK_EQ(tmpdir_remove(dir), 0); /* run files left nothing behind */
	return CHECK_DONE();
}
