/* SPDX-License-Identifier: MIT */
/*
 * What npuprof's BPF loader lets libbpf print.  libbpf's print callback
 * is one per process, so it belongs to the program, not to a library: a
 * tool's main() installs it, before it opens anything BPF,
 *
 *	libbpf_set_print(npuprof_bpf_print_fn());
 *
 * and an application that links libnpuprof.a keeps its own.  libbpf is
 * silent unless NPUPROF_DEBUG=1 asks for its messages (with it, the loader
 * also says which programs the kernel got).
 */
#ifndef NPUPROF_BPF_LOG_H
#define NPUPROF_BPF_LOG_H

#include <stdbool.h>
#include <bpf/libbpf.h>

/** npuprof_bpf_debug() - is NPUPROF_DEBUG=1 set in the environment. */
bool npuprof_bpf_debug(void);

/**
 * npuprof_bpf_print_fn() - the callback for libbpf_set_print(): one that
 * prints libbpf's messages to stderr as they are when npuprof_bpf_debug(),
 * else NULL, which silences libbpf (its warnings would otherwise break
 * into the tools' one-line messages).
 */
libbpf_print_fn_t npuprof_bpf_print_fn(void);

#endif /* NPUPROF_BPF_LOG_H */
