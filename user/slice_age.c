// SPDX-License-Identifier: MIT
/*
 * Which old slices go under --storage-limit (slice_age.h).  A directory
 * holds a few series of slices of megabytes each, so the queue is short
 * and a linear scan is all it takes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "slice_age.h"

int slice_age_closed(struct slice_age *a, const struct slice_age_item *it)
{
	if (!a->limit)
		return 0;
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 16;
		struct slice_age_item *q = realloc(a->q, cap * sizeof(*q));

		if (!q)
			return -ENOMEM;
		a->q = q;
		a->cap = cap;
	}
	a->q[a->n++] = *it;
	return 0;
}

/* Whether a slice of the same series was closed after q[i]. */
static bool has_newer(const struct slice_age *a, size_t i)
{
	for (size_t j = i + 1; j < a->n; j++)
		if (a->q[j].series == a->q[i].series)
			return true;
	return false;
}

bool slice_age_next(struct slice_age *a, uint64_t used, struct slice_age_item *out)
{
	if (!a->limit || used <= a->limit)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		if (!has_newer(a, i))
			continue;
		*out = a->q[i];
		memmove(&a->q[i], &a->q[i + 1], (a->n - i - 1) * sizeof(*a->q));
		a->n--;
		a->slices++;
		a->bytes += out->bytes;
		a->records += out->records;
		return true;
	}
	return false;
}

void slice_age_kept(struct slice_age *a, const struct slice_age_item *it)
{
	size_t n = 0;

	a->slices--;
	a->bytes -= it->bytes;
	a->records -= it->records;
	for (size_t i = 0; i < a->n; i++)
		if (a->q[i].series != it->series)
			a->q[n++] = a->q[i];
	a->n = n;
}

void slice_age_free(struct slice_age *a)
{
	free(a->q);
	a->q = NULL;
	a->n = a->cap = 0;
}
