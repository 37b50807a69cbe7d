/* SPDX-License-Identifier: MIT */
/*
 * A map from byte strings to 0, 1, 2, ... in the order they are first
 * added: for the export's tables keyed by text (the database's STRING_IDS,
 * op_statistic's rows by device and op type).  Lookups are hashed, so a
 * table of n keys costs O(n), not O(n^2).
 */
#ifndef MSPROF_EXPORT_KEYMAP_H
#define MSPROF_EXPORT_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct xm_keymap - keys by index; zero-initialised is empty
 * @key, @len: key i's bytes (malloc'ed) and length, i < @n
 * @slot:      open addressing: index + 1 of a key (0: free), @mask + 1
 *             slots, at most half used
 */
struct xm_keymap {
	char **key;
	size_t *len;
	size_t n, cap;
	uint32_t *slot;
	size_t mask;
};

/**
 * xm_keymap_get() - the index of the @len bytes at @key, added when new
 * @added: out, when not NULL: 1 when the key was added now, else 0
 * Return: 0 with *@idx set; -ENOMEM; -EOVERFLOW past 2^32 - 2 keys.
 */
int xm_keymap_get(struct xm_keymap *km, const void *key, size_t len, size_t *idx, int *added);

/** xm_keymap_free() - free every key; @km is empty again. */
void xm_keymap_free(struct xm_keymap *km);

#endif /* MSPROF_EXPORT_KEYMAP_H */
