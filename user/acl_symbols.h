/* SPDX-License-Identifier: MIT */
/*
 * The recorded ACL functions (NPUPROF_API_LIST) in one libascendcl.so's
 * ELF symbols, private to the runtime-API capture (user/acl_trace.c): it
 * resolves them when a library is attached, before any probe is placed, so
 * a missing function and a refused probe are different outcomes.
 */
#ifndef NPUPROF_ACL_SYMBOLS_H
#define NPUPROF_ACL_SYMBOLS_H

#include <stdint.h>

#include <npuprof/error.h>
#include <npuprof/record.h>

/* Functions npuprof records: one per entry of NPUPROF_API_LIST. */
#define ACL_NR_FUNCS (NPUPROF_API_MAX - 1)

/**
 * struct acl_symbols - what one library file defines
 * @nr_funcs: functions found: @offs and @apis
 * @offs:     file offset of each, for a uprobe
 * @apis:     its enum npuprof_api (the BPF cookie)
 * @missing:  recorded functions the file lacks that a runtime may lack
 *            (an older CANN), separated by one space; "" when none
 */
struct acl_symbols {
	unsigned int nr_funcs;
	uint64_t offs[ACL_NR_FUNCS];
	uint64_t apis[ACL_NR_FUNCS];
	char missing[NPUPROF_ERROR_FUNCS_MAX];
};

/**
 * acl_symbols_resolve() - find the recorded functions in the ELF file @fd
 * @fd:  the library, open for reading (not closed)
 * @sym: out, in NPUPROF_API_LIST order
 * @err: out on failure (may be NULL): NPUPROF_STAGE_SYMBOLS, the errno,
 *       and in @err->functions the functions every ACL runtime has that
 *       the file lacks (aclInit aclFinalize aclrtSetDevice
 *       aclrtResetDevice); its @object is left to the caller
 *
 * Return: 0 (functions a runtime may lack are listed in @sym->missing and
 * skipped); -ENOEXEC when @fd is not an ELF file with symbols
 * (@err->functions "") or lacks a function every runtime has; -ENOMEM.
 */
int acl_symbols_resolve(int fd, struct acl_symbols *sym, struct npuprof_error *err);

#endif /* NPUPROF_ACL_SYMBOLS_H */
