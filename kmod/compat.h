/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences npuprof.ko cares about, in one place.  The
 * module targets Linux 6.1 (Debian 6.1.0-57); every #if on
 * LINUX_VERSION_CODE lives here and nowhere else.
 */
#ifndef NPUPROF_COMPAT_H
#define NPUPROF_COMPAT_H

#include <linux/version.h>
#include <linux/mm.h>

/*
 * vm_area_struct.vm_flags became read-only in 6.3; writers go through
 * vm_flags_set()/vm_flags_clear() from then on.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
static inline void npuprof_vm_flags_set(struct vm_area_struct *vma,
					vm_flags_t flags)
{
	vm_flags_set(vma, flags);
}

static inline void npuprof_vm_flags_clear(struct vm_area_struct *vma,
					  vm_flags_t flags)
{
	vm_flags_clear(vma, flags);
}
#else
static inline void npuprof_vm_flags_set(struct vm_area_struct *vma,
					vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void npuprof_vm_flags_clear(struct vm_area_struct *vma,
					  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

#endif /* NPUPROF_COMPAT_H */
