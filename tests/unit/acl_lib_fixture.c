// SPDX-License-Identifier: MIT
/*
 * Stand-ins for a libascendcl.so whose symbols are not the simulator's,
 * for the tests of resolving the ACL functions in a library's ELF symbols
 * (tests/unit/test_acl_symbols.c, tests/vm/bpf_acl_trace_attach_errors.c).
 * Built three ways (Makefile, FIXTURE_LIBS):
 *
 *   -DFIXTURE_partial   the four functions every runtime has, and
 *                       aclrtMalloc and aclrtFree: an older runtime that
 *                       lacks the other recorded functions
 *   -DFIXTURE_required  aclInit and aclrtMalloc only: lacks aclFinalize,
 *                       aclrtSetDevice, aclrtResetDevice
 *   -DFIXTURE_pastend   the four, and aclrtMalloc defined 1 MiB into a
 *                       NOBITS section: its file offset lies past the end of
 *                       the file, so the kernel refuses a uprobe on it
 *                       (-EINVAL) although the symbol resolves
 *
 * Each function returns its own number, so no two are folded into one.
 */
int aclInit(const char *config)
{
	(void)config;
	return 1;
}

#ifndef FIXTURE_required
int aclFinalize(void)
{
	return 2;
}

int aclrtSetDevice(int dev)
{
	return dev + 3;
}

int aclrtResetDevice(int dev)
{
	return dev + 4;
}
#endif

#ifdef FIXTURE_pastend
__asm__(".pushsection .bss.acl_far, \"aw\", @nobits\n"
	".skip 0x100000\n"
	".globl aclrtMalloc\n"
	".type aclrtMalloc, @function\n"
	"aclrtMalloc:\n"
	".skip 16\n"
	".size aclrtMalloc, 16\n"
	".popsection\n");
#else
int aclrtMalloc(void **p, unsigned long size, int policy)
{
	(void)p;
	return (int)size + policy + 7;
}
#endif

#ifdef FIXTURE_partial
int aclrtFree(void *p)
{
	return p ? 8 : 9;
}
#endif
