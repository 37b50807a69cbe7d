/* SPDX-License-Identifier: MIT */
/*
 * File offsets of functions in an ELF shared object, private to the
 * runtime-API capture: acl_symbols.c resolves the ACL functions once, when
 * a library is attached, and uprobe_attach.c places uprobes by offset at every
 * start.
 */
#ifndef NPUPROF_ELF_FUNC_H
#define NPUPROF_ELF_FUNC_H

#include <stddef.h>
#include <stdint.h>

/**
 * elf_func_offsets() - file offset of each function in @names
 * @fd:    the ELF file, open for reading (not closed, position unused)
 * @names: symbol names, unversioned ("aclInit" matches "aclInit@@V1")
 * @n:     number of names
 * @offs:  out: the offset a uprobe takes for names[i], 0 when the file has
 *         no defined function of that name
 *
 * Looks in .symtab, then .dynsym, at defined STT_FUNC and STT_GNU_IFUNC
 * symbols, and converts each address to a file offset through its section,
 * as libbpf does for a uprobe given by name.
 * Return: 0; -ENOEXEC when @fd is not an ELF file with symbols; -ENOMEM.
 */
int elf_func_offsets(int fd, const char *const *names, size_t n, uint64_t *offs);

#endif /* NPUPROF_ELF_FUNC_H */
