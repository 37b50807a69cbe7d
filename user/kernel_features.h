/* SPDX-License-Identifier: MIT */
/*
 * What the running kernel offers a tracer, asked once where it is needed:
 * vmlinux BTF, the BPF map types and helpers the uprobe programs may use,
 * and the host settings that keep unsigned modules or BPF reads of kernel
 * memory out (lockdown, Secure Boot).  Each answer is read from /sys or
 * from a libbpf probe at the time of the call; nothing is cached.
 */
#ifndef NPUPROF_KERNEL_FEATURES_H
#define NPUPROF_KERNEL_FEATURES_H

#include <stdbool.h>
#include <stddef.h>

/**
 * kernel_btf_present() - whether /sys/kernel/btf/vmlinux is readable: what
 * BPF tracing programs (iterators, tp_btf) and task storage need.
 */
bool kernel_btf_present(void);

/**
 * kernel_bpf_task_storage() - whether a uprobe (kprobe type) program can
 * keep per-thread state in task-local storage: the map type, the
 * bpf_task_storage_get() helper (Linux 5.12), bpf_get_current_task_btf()
 * and the vmlinux BTF that helper needs.
 */
bool kernel_bpf_task_storage(void);

/**
 * kernel_bpf_attach_cookie() - whether a uprobe (kprobe type) program can
 * read a cookie given at attach time (bpf_get_attach_cookie(), 5.15).
 */
bool kernel_bpf_attach_cookie(void);

/**
 * kernel_bpf_for_each_map_elem() - whether BPF programs may walk a map
 * with bpf_for_each_map_elem() (Linux 5.13), probed in a kprobe program
 */
bool kernel_bpf_for_each_map_elem(void);

/**
 * kernel_lockdown_mode() - the active lockdown mode ("integrity",
 * "confidentiality") into @mode (@size bytes, always NUL-terminated), or
 * "" when lockdown is off ("none") or the kernel does not say.
 */
void kernel_lockdown_mode(char *mode, size_t size);

/**
 * kernel_secure_boot() - whether the firmware booted with Secure Boot on,
 * as its SecureBoot EFI variable says; false without EFI variables.
 */
bool kernel_secure_boot(void);

#endif /* NPUPROF_KERNEL_FEATURES_H */
