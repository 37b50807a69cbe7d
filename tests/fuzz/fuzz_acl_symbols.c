// SPDX-License-Identifier: MIT
/*
 * Fuzz target: resolving the recorded functions of both layers (ACL,
 * runtime) in a library file
 * (user/acl_symbols.c, through user/elf_func.c and libelf) when the file
 * is not what a linker wrote: truncated, with a corrupt section header
 * table, symbol tables of zero or huge size, symbols pointing past the
 * end of the file or into sections that do not exist.
 *
 * Input: the bytes of the file, as they are (seeds: the test fixtures of
 * tests/unit/acl_lib_fixture.c and their mutations).  They are written to
 * a memfd, which is what acl_symbols_resolve() reads.
 *
 * Properties beyond the sanitizers: the result is 0 or -ENOEXEC (-ENOMEM
 * is allowed); on 0 at least one layer is found and at most ACL_NR_FUNCS
 * functions, each with a nonzero offset and a known API number of a layer
 * found, appearing once, and the list of
 * missing functions ends inside its buffer; on an error the stage is
 * SYMBOLS with the same errno and the list of required functions ends
 * inside its buffer; resolving the same file again gives the same answer.
 */
#include <sys/mman.h>

#include "fuzz_util.h"
#include "../../user/acl_symbols.h"

#define LAYERS (NPUPROF_LAYER_ACL | NPUPROF_LAYER_RUNTIME)

static int same(const struct acl_symbols *a, const struct acl_symbols *b)
{
	return a->layers == b->layers && a->nr_funcs == b->nr_funcs &&
	       !memcmp(a->offs, b->offs, a->nr_funcs * sizeof(a->offs[0])) &&
	       !memcmp(a->apis, b->apis, a->nr_funcs * sizeof(a->apis[0])) &&
	       !strcmp(a->missing, b->missing);
}

static void check_found(const struct acl_symbols *sym)
{
	uint64_t seen = 0;

	FUZZ_ASSERT(sym->layers && !(sym->layers & ~(NPUPROF_LAYER_ACL | NPUPROF_LAYER_RUNTIME)));
	FUZZ_ASSERT(sym->nr_funcs <= ACL_NR_FUNCS);
	FUZZ_ASSERT(memchr(sym->missing, '\0', sizeof(sym->missing)));
	for (unsigned int i = 0; i < sym->nr_funcs; i++) {
		FUZZ_ASSERT(sym->offs[i] != 0);
		FUZZ_ASSERT(sym->apis[i] >= 1 && sym->apis[i] <= ACL_NR_FUNCS);
		FUZZ_ASSERT(sym->layers & acl_symbols_layer((unsigned int)sym->apis[i]));
		FUZZ_ASSERT(!(seen & (1ull << sym->apis[i])));
		seen |= 1ull << sym->apis[i];
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct acl_symbols sym, again;
	struct npuprof_error err;
	int fd = memfd_create("fuzz_acl", MFD_CLOEXEC), rc, rc2;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	memset(&err, 0, sizeof(err));
	rc = acl_symbols_resolve(fd, LAYERS, &sym, &err);
	FUZZ_ASSERT(rc == 0 || rc == -ENOEXEC || rc == -ENOMEM);
	if (!rc) {
		check_found(&sym);
	} else {
		FUZZ_ASSERT(err.stage == NPUPROF_STAGE_SYMBOLS && err.err == rc);
		FUZZ_ASSERT(memchr(err.functions, '\0', sizeof(err.functions)));
	}
	rc2 = acl_symbols_resolve(fd, LAYERS, &again, NULL);
	FUZZ_ASSERT(rc2 == rc || rc2 == -ENOMEM || rc == -ENOMEM);
	if (!rc && !rc2)
		FUZZ_ASSERT(same(&sym, &again));
	close(fd);
	return 0;
}
