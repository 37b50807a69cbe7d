/* SPDX-License-Identifier: MIT */
/*
 * The names of an export's calls and tasks, each distinct one held once.
 * A trace repeats a few op types and kernel names millions of times; the
 * model's calls and tasks carry a 4-byte id into this table instead of a
 * 33-byte copy each (export_model.h).
 */
#ifndef MSPROF_EXPORT_NAMES_H
#define MSPROF_EXPORT_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include <npuprof/record.h>

#define XM_NAME_LEN (NPUPROF_NAME_LEN + 1) /* NUL-terminated copy of the bytes */

/**
 * struct xm_names - interned record name fields
 * @text:    the names, NPUPROF_NAME_LEN bytes as recorded and a NUL each;
 *           id 0 is the empty name
 * @n:       names held (ids 0 ... @n - 1)
 * @slots:   hash table of id + 1 (0: free slot), @n_slots a power of two
 */
struct xm_names {
	char (*text)[XM_NAME_LEN];
	size_t n, cap;
	uint32_t *slots;
	size_t n_slots;
};

/**
 * xm_names_add() - the id of a record's name field, added when new
 * @raw: NPUPROF_NAME_LEN bytes as recorded.  A name whose first byte is
 *       NUL is the empty name, id 0: its text is "" (name_text.h) and
 *       every reader treats it as no name.
 *
 * Return: 0 with *@id set; -ENOMEM; -EOVERFLOW past 2^32 - 2 names.
 */
int xm_names_add(struct xm_names *t, const char *raw, uint32_t *id);

/** xm_names_get() - the NUL-terminated name of @id (from xm_names_add()). */
static inline const char *xm_names_get(const struct xm_names *t, uint32_t id)
{
	return id ? t->text[id] : "";
}

/** xm_names_free() - free the table; it is empty and usable again. */
void xm_names_free(struct xm_names *t);

#endif /* MSPROF_EXPORT_NAMES_H */
