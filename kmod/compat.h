/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences npuprof.ko cares about, in one place.  The
 * module builds and is tested on Debian's 5.10, 6.1 and 6.12 kernels
 * (scripts/vm-kernel.sh targets); every #if on LINUX_VERSION_CODE lives
 * here and nowhere else.
 */
#ifndef NPUPROF_COMPAT_H
#define NPUPROF_COMPAT_H

#include <linux/version.h>
#include <linux/fs.h>
#include <linux/mm.h>

/*
 * A character device that cannot seek: no_llseek (which fails with
 * -ESPIPE) went away in 6.12.  A NULL .llseek makes vfs_llseek() fail the
 * same way on every kernel, but 6.1 and older spell the intent out.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#define npuprof_no_llseek NULL
#else
#define npuprof_no_llseek no_llseek
#endif

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
