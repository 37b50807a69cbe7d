// SPDX-License-Identifier: MIT
/*
 * Description: the --storage-limit policy (user/slice_age.h) removes the
 * oldest closed slices first, across series in the order they closed,
 * until the bytes in use are within the limit; never the slice a series
 * closed last; nothing without a limit or within it.  Exact picks and
 * exact totals of slices, bytes and records removed.  A pick the caller
 * could not remove (slice_age_kept()) is no longer counted, and no other
 * queued slice of its series is picked: api_0 kept, so with api_1 and
 * api_2 queued only task0_0 can go.
 */
#include "check.h"
#include "../../user/slice_age.h"

static const char api[] = "api", task0[] = "task0";

static void closed(struct slice_age *a, const char *series, unsigned int idx, uint64_t bytes,
		   uint64_t records)
{
	struct slice_age_item it = { series, idx, bytes, records };

	CHECK_EQ(slice_age_closed(a, &it), 0);
}

/* The next pick is slice @idx of @series. */
static void picks(struct slice_age *a, uint64_t used, const char *series, unsigned int idx)
{
	struct slice_age_item it = { 0 };

	CHECK(slice_age_next(a, used, &it));
	CHECK(it.series == series);
	CHECK_EQ(it.idx, idx);
}

int main(void)
{
	struct slice_age none = { .limit = 0 }, a = { .limit = 1000 }, k = { .limit = 1000 };
	struct slice_age_item it;

	/* no limit: nothing is kept track of, nothing goes */
	closed(&none, api, 0, 600, 10);
	closed(&none, api, 1, 600, 10);
	CHECK_EQ(none.n, 0);
	CHECK(!slice_age_next(&none, 1200, &it));

	/* api_0 (400 B), task0_0 (300 B), api_1 (400 B), task0_1 (100 B), closed in that order */
	closed(&a, api, 0, 400, 40);
	closed(&a, task0, 0, 300, 30);
	CHECK(!slice_age_next(&a, 700, &it)); /* within the limit */
	/* over it, but each series' only slice is its newest: both stay */
	CHECK(!slice_age_next(&a, 1700, &it));
	closed(&a, api, 1, 400, 41);
	/* 1100 > 1000: the oldest that has a newer one of its series goes */
	picks(&a, 1100, api, 0);
	CHECK(!slice_age_next(&a, 700, &it));
	closed(&a, task0, 1, 100, 9);
	/* task0_0 is now the oldest with a newer sibling; api_1 is api's newest */
	picks(&a, 1100, task0, 0);
	CHECK(!slice_age_next(&a, 1100 - 300, &it));
	/* still over: only each series' newest slice is left, they stay */
	CHECK(!slice_age_next(&a, 5000, &it));
	CHECK_EQ(a.n, 2);
	CHECK(a.q[0].series == api && a.q[0].idx == 1);
	CHECK(a.q[1].series == task0 && a.q[1].idx == 1);
	CHECK_EQ(a.slices, 2);
	CHECK_EQ(a.bytes, 700);
	CHECK_EQ(a.records, 70);

	/* api_2 closes: api_1 goes at once, before task0_1 (older first, newest kept) */
	closed(&a, api, 2, 400, 42);
	picks(&a, 1001, api, 1);
	CHECK(!slice_age_next(&a, 1001, &it));
	CHECK_EQ(a.slices, 3);
	CHECK_EQ(a.bytes, 1100);
	CHECK_EQ(a.records, 111);
	slice_age_free(&a);

	/* api_0 (400 B), task0_0 (300 B), api_1, task0_1, api_2 (400 B each) */
	closed(&k, api, 0, 400, 40);
	closed(&k, task0, 0, 300, 30);
	closed(&k, api, 1, 400, 41);
	closed(&k, task0, 1, 400, 31);
	closed(&k, api, 2, 400, 42);
	picks(&k, 1900, api, 0);
	it = (struct slice_age_item){ api, 0, 400, 40 };
	slice_age_kept(&k, &it); /* its unlink failed: api ages no more */
	CHECK_EQ(k.slices, 0);
	CHECK_EQ(k.bytes, 0);
	CHECK_EQ(k.records, 0);
	CHECK_EQ(k.n, 2); /* task0_0, task0_1 */
	picks(&k, 1900, task0, 0);
	CHECK(!slice_age_next(&k, 1600, &it)); /* task0_1 is task0's newest */
	CHECK_EQ(k.slices, 1);
	CHECK_EQ(k.bytes, 300);
	CHECK_EQ(k.records, 30);
	slice_age_free(&k);
	slice_age_free(&none);
	return CHECK_DONE();
}
