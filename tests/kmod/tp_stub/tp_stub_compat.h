/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel-version differences of the test stub driver, in one place (the
 * module's own counterpart of kmod/compat.h): every #if on
 * LINUX_VERSION_CODE of npuprof_tp_stub.ko lives here.
 */
#ifndef NPUPROF_TP_STUB_COMPAT_H
#define NPUPROF_TP_STUB_COMPAT_H

#include <linux/version.h>

/*
 * __assign_str() of a trace event lost its source argument in 6.10: the
 * string is copied from the one named in __string().  Expanded inside
 * TP_fast_assign, so it picks up whatever __assign_str the trace stage
 * being generated defines.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define tp_stub_assign_str(dst, src) __assign_str(dst)
#else
#define tp_stub_assign_str(dst, src) __assign_str(dst, src)
#endif

#endif /* NPUPROF_TP_STUB_COMPAT_H */
