// SPDX-License-Identifier: MIT
/*
 * The recorded ACL functions in a libascendcl.so (acl_symbols.h): which of
 * them the file defines, where, and which it lacks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "acl_symbols.h"
#include "elf_func.h"

static const struct {
	unsigned int api;
	const char *name;
} acl_funcs[] = {
#define ACL_FUNC(id, sym, name) { NPUPROF_API_##sym, name },
	NPUPROF_API_LIST(ACL_FUNC)
#undef ACL_FUNC
};

_Static_assert(sizeof(acl_funcs) / sizeof(acl_funcs[0]) == ACL_NR_FUNCS,
	       "one entry per recorded function");

/*
 * Functions every ACL runtime has: a library without them is not a
 * libascendcl.so we understand.  Anything else may be missing in an older
 * runtime and is skipped.
 */
static int acl_func_required(unsigned int api)
{
	return api == NPUPROF_API_ACL_INIT || api == NPUPROF_API_ACL_FINALIZE ||
	       api == NPUPROF_API_RT_SET_DEVICE || api == NPUPROF_API_RT_RESET_DEVICE;
}

/* Append " @name" (no space first) to the list @buf of @size bytes. */
static void list_add(char *buf, size_t size, const char *name)
{
	size_t n = strlen(buf);

	snprintf(buf + n, size - n, "%s%s", n ? " " : "", name);
}

int acl_symbols_resolve(int fd, struct acl_symbols *sym, struct npuprof_error *err)
{
	const char *names[ACL_NR_FUNCS];
	uint64_t offs[ACL_NR_FUNCS];
	char required[NPUPROF_ERROR_FUNCS_MAX] = "";
	size_t i;
	int rc;

	memset(sym, 0, sizeof(*sym));
	for (i = 0; i < ACL_NR_FUNCS; i++)
		names[i] = acl_funcs[i].name;
	rc = elf_func_offsets(fd, names, ACL_NR_FUNCS, offs);
	for (i = 0; !rc && i < ACL_NR_FUNCS; i++) {
		if (offs[i]) {
			sym->offs[sym->nr_funcs] = offs[i];
			sym->apis[sym->nr_funcs++] = acl_funcs[i].api;
		} else if (acl_func_required(acl_funcs[i].api)) {
			list_add(required, sizeof(required), acl_funcs[i].name);
		} else {
			list_add(sym->missing, sizeof(sym->missing), acl_funcs[i].name);
		}
	}
	if (!rc && required[0])
		rc = -ENOEXEC; /* not an ACL runtime */
	if (rc && err) {
		npuprof_error_set(err, NPUPROF_STAGE_SYMBOLS, rc, 0, NULL);
		snprintf(err->functions, sizeof(err->functions), "%s", required);
	}
	return rc;
}
