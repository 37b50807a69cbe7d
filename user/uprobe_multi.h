/* SPDX-License-Identifier: MIT */
/*
 * BPF uprobe_multi links (Linux 6.6+), private to the runtime-API capture
 * (user/acl_trace.c asks whether the kernel has them, user/uprobe_attach.c
 * makes them).  Debian 12's libbpf 1.1 predates them (libbpf 1.3 has
 * bpf_program__attach_uprobe_multi()), so this file creates them with the
 * bpf() system call itself.  One such link places a probe on every listed
 * offset of a file, and removing it waits for the kernel once, where one
 * link per probe waits once per probe (tens of ms each on 6.18).
 */
#ifndef NPUPROF_UPROBE_MULTI_H
#define NPUPROF_UPROBE_MULTI_H

#include <stddef.h>
#include <stdint.h>

/* enum bpf_attach_type value of uprobe_multi links (uapi, Linux 6.6). */
#define NPUPROF_BPF_TRACE_UPROBE_MULTI 48

/**
 * uprobe_multi_supported() - 1 when this kernel creates uprobe_multi
 * links, else 0 (asked once, the answer is kept)
 */
int uprobe_multi_supported(void);

/**
 * uprobe_multi_attach() - attach @prog_fd at @cnt offsets of the file @path
 * @prog_fd:  a BPF_PROG_TYPE_KPROBE program loaded with expected attach
 *            type NPUPROF_BPF_TRACE_UPROBE_MULTI
 * @offs:     file offsets of the probes
 * @cookies:  bpf_get_attach_cookie() of each probe
 * @retprobe: probe the returns instead of the entries
 * Every process running the file is probed (pid 0).
 * Return: the link's fd (close() it to detach) or -errno.
 */
int uprobe_multi_attach(int prog_fd, const char *path, const uint64_t *offs,
			const uint64_t *cookies, uint32_t cnt, int retprobe);

#endif /* NPUPROF_UPROBE_MULTI_H */
