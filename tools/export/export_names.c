// SPDX-License-Identifier: MIT
/*
 * Interning record names (export_names.h): an array of the distinct names
 * and an open-addressing hash table of their ids, grown to stay at most
 * half full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "export_names.h"

/* FNV-1a over the recorded bytes. */
static uint64_t name_hash(const char *raw)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < NPUPROF_NAME_LEN; i++)
		h = (h ^ (unsigned char)raw[i]) * 0x100000001b3ull;
	return h;
}

/* The slot holding @raw, or the free slot where it belongs. */
static uint32_t *find_slot(const struct xm_names *t, const char *raw)
{
	size_t mask = t->n_slots - 1, i = name_hash(raw) & mask;

	while (t->slots[i] && memcmp(t->text[t->slots[i] - 1], raw, NPUPROF_NAME_LEN))
		i = (i + 1) & mask;
	return &t->slots[i];
}

static int grow_slots(struct xm_names *t)
{
	size_t n = t->n_slots ? 2 * t->n_slots : 64, i;
	uint32_t *old = t->slots;
	size_t n_old = t->n_slots;

	t->slots = calloc(n, sizeof(*t->slots));
	if (!t->slots) {
		t->slots = old;
		return -ENOMEM;
	}
	t->n_slots = n;
	for (i = 0; i < n_old; i++)
		if (old[i])
			*find_slot(t, t->text[old[i] - 1]) = old[i];
	free(old);
	return 0;
}

static int grow_text(struct xm_names *t)
{
	size_t n = t->cap ? 2 * t->cap : 64;
	void *p = realloc(t->text, n * sizeof(*t->text));

	if (!p)
		return -ENOMEM;
	t->text = p;
	t->cap = n;
	return 0;
}

int xm_names_add(struct xm_names *t, const char *raw, uint32_t *id)
{
	uint32_t *slot;

	*id = 0;
	if (!raw[0])
		return 0;
	if (!t->n) { /* id 0: the empty name */
		if (grow_text(t))
			return -ENOMEM;
		memset(t->text[t->n++], 0, XM_NAME_LEN);
	}
	if (2 * (t->n + 1) > t->n_slots && grow_slots(t))
		return -ENOMEM;
	slot = find_slot(t, raw);
	if (!*slot) {
		if (t->n >= UINT32_MAX - 1)
			return -EOVERFLOW;
		if (t->n == t->cap && grow_text(t))
			return -ENOMEM;
		memcpy(t->text[t->n], raw, NPUPROF_NAME_LEN);
		t->text[t->n][NPUPROF_NAME_LEN] = '\0';
		*slot = (uint32_t)++t->n; /* id n - 1, stored + 1 */
	}
	*id = *slot - 1;
	return 0;
}

void xm_names_free(struct xm_names *t)
{
	free(t->text);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}
