// SPDX-License-Identifier: MIT
/*
 * The recorded functions of each layer in a library file (acl_symbols.h):
 * which of them the file defines, where, and which it lacks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <npuprof/record_io.h>

#include "acl_symbols.h"
#include "elf_func.h"

static const struct {
	unsigned int api;
	const char *func;
} acl_funcs[] = {
#define ACL_FUNC(id, sym, level, name, func) { NPUPROF_API_##sym, func },
	NPUPROF_API_LIST(ACL_FUNC)
#undef ACL_FUNC
};

_Static_assert(sizeof(acl_funcs) / sizeof(acl_funcs[0]) == ACL_NR_FUNCS,
	       "one entry per recorded function");

unsigned int acl_symbols_layer(unsigned int api)
{
	switch (npuprof_api_level(api, NULL)) {
	case NPUPROF_LEVEL_ACL:
		return NPUPROF_LAYER_ACL;
	case NPUPROF_LEVEL_RUNTIME:
		return NPUPROF_LAYER_RUNTIME;
	default:
		return 0;
	}
}

/*
 * Functions every runtime of a layer has: a library without them holds
 * no such layer we understand.  Anything else may be missing in an older
 * runtime and is skipped.
 */
static int acl_func_required(unsigned int api)
{
	switch (api) {
	case NPUPROF_API_ACL_INIT:
	case NPUPROF_API_ACL_FINALIZE:
	case NPUPROF_API_RT_SET_DEVICE:
	case NPUPROF_API_RT_RESET_DEVICE:
	case NPUPROF_API_RTS_SET_DEVICE:
	case NPUPROF_API_RTS_DEVICE_RESET:
		return 1;
	default:
		return 0;
	}
}

/* Append " @name" (no space first) to the list @buf of @size bytes. */
static void list_add(char *buf, size_t size, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, size - n, "%s%s", n ? " " : "", name);
}

/*
 * The layers of @layers whose required functions all have an offset in
 * @offs; @lacking gets the required functions the first layer asked for
 * lacks.
 */
static unsigned int layers_present(unsigned int layers, const uint64_t *offs, char *lacking,
				   size_t size)
{
	unsigned int present = layers, first = layers & -layers, l;
	size_t i;

	for (i = 0; i < ACL_NR_FUNCS; i++) {
		l = acl_symbols_layer(acl_funcs[i].api);
		if (!(layers & l) || offs[i] || !acl_func_required(acl_funcs[i].api))
			continue;
		present &= ~l;
		if (l == first)
			list_add(lacking, size, acl_funcs[i].func);
	}
	return present;
}

int acl_symbols_resolve(int fd, unsigned int layers, struct acl_symbols *sym,
			struct npuprof_error *err)
{
	const char *names[ACL_NR_FUNCS];
	uint64_t offs[ACL_NR_FUNCS];
	char required[NPUPROF_ERROR_FUNCS_MAX] = "";
	size_t i;
	int rc;

	memset(sym, 0, sizeof(*sym));
	for (i = 0; i < ACL_NR_FUNCS; i++)
		names[i] = acl_funcs[i].func;
	rc = elf_func_offsets(fd, names, ACL_NR_FUNCS, offs);
	if (!rc)
		sym->layers = layers_present(layers, offs, required, sizeof(required));
	for (i = 0; !rc && i < ACL_NR_FUNCS; i++) {
		if (!(sym->layers & acl_symbols_layer(acl_funcs[i].api)))
			continue;
		if (offs[i]) {
			sym->offs[sym->nr_funcs] = offs[i];
			sym->apis[sym->nr_funcs++] = acl_funcs[i].api;
		} else {
			list_add(sym->missing, sizeof(sym->missing), acl_funcs[i].func);
		}
	}
	if (!rc && !sym->layers)
		rc = -ENOEXEC; /* no runtime of a layer asked for */
	if (rc && err) {
		npuprof_error_set(err, NPUPROF_STAGE_SYMBOLS, rc, 0, NULL);
		snprintf(err->functions, sizeof(err->functions), "%s", required);
	}
	return rc;
}
