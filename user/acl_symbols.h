/* SPDX-License-Identifier: MIT */
/*
 * The recorded functions (NPUPROF_API_LIST) in one library's ELF symbols,
 * private to the API capture (user/uprobe_attach.c): it resolves them when a
 * library is attached, before any probe is placed, so a missing function
 * and a refused probe are different outcomes.  A library holds the
 * functions of one or more layers (enum npuprof_api_layer): the acl*
 * functions of a libascendcl.so, the rt* functions of a libruntime.so.
 */
#ifndef NPUPROF_ACL_SYMBOLS_H
#define NPUPROF_ACL_SYMBOLS_H

#include <stdint.h>

#include <npuprof/acl_trace.h>
#include <npuprof/error.h>
#include <npuprof/record.h>

/* Functions npuprof records: one per entry of NPUPROF_API_LIST. */
#define ACL_NR_FUNCS (NPUPROF_API_MAX - 1)

/**
 * struct acl_symbols - what one library file defines
 * @layers:   the layers the file holds: those asked for whose required
 *            functions (acl_symbols_required()) it defines
 * @nr_funcs: functions found: @offs and @apis
 * @offs:     file offset of each, for a uprobe
 * @apis:     its enum npuprof_api (the BPF cookie)
 * @missing:  recorded functions of those layers the file lacks that a
 *            runtime may lack (an older CANN), separated by one space;
 *            "" when none
 */
struct acl_symbols {
	unsigned int layers;
	unsigned int nr_funcs;
	uint64_t offs[ACL_NR_FUNCS];
	uint64_t apis[ACL_NR_FUNCS];
	char missing[NPUPROF_ERROR_FUNCS_MAX];
};

/**
 * acl_symbols_layer() - the enum npuprof_api_layer bit of @api (by its
 * CANN level), 0 for an unknown id
 */
unsigned int acl_symbols_layer(unsigned int api);

/**
 * acl_symbols_resolve() - find the recorded functions of @layers in the
 * ELF file @fd
 * @fd:     the library, open for reading (not closed)
 * @layers: enum npuprof_api_layer bits to look for
 * @sym:    out, in NPUPROF_API_LIST order
 * @err:    out on failure (may be NULL): NPUPROF_STAGE_SYMBOLS, the errno,
 *          and in @err->functions the required functions of the first
 *          layer asked for that the file lacks (aclInit aclFinalize
 *          aclrtSetDevice aclrtResetDevice; rtSetDevice rtDeviceReset);
 *          its @object is left to the caller
 *
 * A layer counts as in the file when the file defines its required
 * functions; the other functions of that layer may be missing (listed in
 * @sym->missing and skipped).
 *
 * Return: 0 when at least one layer of @layers is in the file; -ENOEXEC
 * when @fd is not an ELF file with symbols (@err->functions "") or holds
 * none of them; -ENOMEM.
 */
int acl_symbols_resolve(int fd, unsigned int layers, struct acl_symbols *sym,
			struct npuprof_error *err);

#endif /* NPUPROF_ACL_SYMBOLS_H */
