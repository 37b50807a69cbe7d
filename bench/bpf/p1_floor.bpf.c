// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * P1's floor (make bench): an empty uprobe and an empty uretprobe.  Whatever
 * a probe on an ACL function costs beyond these two is the program's own
 * work; what these cost is the kernel's trap and return-address hijack,
 * which every uprobe-based capture pays.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

SEC("uprobe")
int floor_enter(void *ctx)
{
	return 0;
}

SEC("uretprobe")
int floor_exit(void *ctx)
{
	return 0;
}
