// SPDX-License-Identifier: MIT
/*
 * Byte strings to indexes (export_keymap.h): FNV-1a hashing, linear
 * probing, the slot table doubled when half full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export_keymap.h"

static uint64_t key_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t h = 1469598103934665603ull;

	while (len--)
		h = (h ^ *p++) * 1099511628211ull;
	return h;
}

static int slots_grow(struct xm_keymap *km)
{
	size_t nslots = km->slot ? 2 * (km->mask + 1) : 1024, i, j;
	uint32_t *slot = calloc(nslots, sizeof(*slot));

	if (!slot)
		return -ENOMEM;
	for (i = 0; i < km->n; i++) {
		j = key_hash(km->key[i], km->len[i]) & (nslots - 1);
		while (slot[j])
			j = (j + 1) & (nslots - 1);
		slot[j] = (uint32_t)i + 1;
	}
	free(km->slot);
	km->slot = slot;
	km->mask = nslots - 1;
	return 0;
}

/* Append a copy of @key as key @km->n. */
static int key_append(struct xm_keymap *km, const void *key, size_t len)
{
	size_t cap = km->cap ? 2 * km->cap : 256;
	char **k;
	size_t *l;

	if (km->n == km->cap) {
		k = realloc(km->key, cap * sizeof(*k));
		if (k)
			km->key = k;
		l = k ? realloc(km->len, cap * sizeof(*l)) : NULL;
		if (!l)
			return -ENOMEM;
		km->len = l;
		km->cap = cap;
	}
	km->key[km->n] = malloc(len ? len : 1);
	if (!km->key[km->n])
		return -ENOMEM;
	memcpy(km->key[km->n], key, len);
	km->len[km->n] = len;
	return 0;
}

int xm_keymap_get(struct xm_keymap *km, const void *key, size_t len, size_t *idx, int *added)
{
	size_t j;
	int err;

	if (added)
		*added = 0;
	if (km->n >= UINT32_MAX - 1)
		return -EOVERFLOW;
	if ((!km->slot || 2 * (km->n + 1) > km->mask + 1) && (err = slots_grow(km)))
		return err;
	for (j = key_hash(key, len) & km->mask; km->slot[j]; j = (j + 1) & km->mask) {
		size_t i = km->slot[j] - 1;

		if (km->len[i] == len && !memcmp(km->key[i], key, len)) {
			*idx = i;
			return 0;
		}
	}
	err = key_append(km, key, len);
	if (err)
		return err;
	km->slot[j] = (uint32_t)km->n + 1;
	*idx = km->n++;
	if (added)
		*added = 1;
	return 0;
}

void xm_keymap_free(struct xm_keymap *km)
{
	for (size_t i = 0; i < km->n; i++)
		free(km->key[i]);
	free(km->key);
	free(km->len);
	free(km->slot);
	memset(km, 0, sizeof(*km));
}
