// SPDX-License-Identifier: MIT
/*
 * Function symbol -> file offset in an ELF shared object (see elf_func.h),
 * through libelf, the library libbpf itself reads ELF files with.
 */
#include <errno.h>
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#include "elf_func.h"

/* Whether symbol @name (maybe "name@VER" or "name@@VER") is @want. */
static int sym_is(const char *name, const char *want)
{
	size_t n = strlen(want);

	return strncmp(name, want, n) == 0 && (name[n] == '\0' || name[n] == '@');
}

/* Fill the offsets still 0 from the symbol table section @scn. */
static void scan_symtab(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			const char *const *names, size_t n, uint64_t *offs)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t i, k, nr = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Shdr fsh;
	GElf_Sym sym;
	const char *name;
	int type;

	for (i = 0; data && i < nr; i++) {
		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_GNU_IFUNC)
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name)
			continue;
		for (k = 0; k < n; k++) {
			if (offs[k] || !sym_is(name, names[k]))
				continue;
			if (gelf_getshdr(elf_getscn(elf, sym.st_shndx), &fsh))
				offs[k] = sym.st_value - fsh.sh_addr + fsh.sh_offset;
		}
	}
}

int elf_func_offsets(int fd, const char *const *names, size_t n, uint64_t *offs)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int found = 0, pass;
	Elf *elf;

	memset(offs, 0, n * sizeof(*offs));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOEXEC;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return -ENOEXEC;
	if (elf_kind(elf) != ELF_K_ELF) {
		elf_end(elf);
		return -ENOEXEC;
	}
	/* .symtab first (it has everything), then .dynsym (stripped files). */
	for (pass = 0; pass < 2; pass++) {
		Elf32_Word want = pass ? SHT_DYNSYM : SHT_SYMTAB;

		while ((scn = elf_nextscn(elf, scn))) {
			if (!gelf_getshdr(scn, &sh) || sh.sh_type != want)
				continue;
			found = 1;
			scan_symtab(elf, scn, &sh, names, n, offs);
		}
	}
	elf_end(elf);
	return found ? 0 : -ENOEXEC;
}
