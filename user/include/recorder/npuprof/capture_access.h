/* SPDX-License-Identifier: MIT */
/*
 * Whether this process may use what capture needs, asked before anything
 * is launched or attached: the bpf() system call (the runtime-API uprobes
 * and the BPF device-task path), perf_event_open() (each runtime-API
 * uprobe on kernels without uprobe_multi links, before Linux 6.6) and
 * npuprof.ko's device node.  A container's default seccomp profile
 * (Docker, containerd) refuses bpf() and perf_event_open() unless the
 * container has CAP_SYS_ADMIN (or CAP_BPF and CAP_PERFMON); the probes
 * try each call the way capture makes it and say why it was refused.
 */
#ifndef NPUPROF_CAPTURE_ACCESS_H
#define NPUPROF_CAPTURE_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

/**
 * enum npuprof_access_cause - why a call was refused
 * @NPUPROF_ACCESS_OK:      not refused
 * @NPUPROF_ACCESS_SECCOMP: EPERM, EACCES or ENOSYS while a seccomp filter
 *                          is installed and the capabilities are there
 * @NPUPROF_ACCESS_CAPS:    EPERM or EACCES and the process lacks the
 *                          capabilities the call needs (bpf(): CAP_BPF and
 *                          CAP_PERFMON, or CAP_SYS_ADMIN; perf_event_open():
 *                          CAP_PERFMON or CAP_SYS_ADMIN)
 * @NPUPROF_ACCESS_PARANOID: perf_event_open() answered EACCES to a process
 *                          with CAP_PERFMON but not CAP_SYS_ADMIN while
 *                          kernel.perf_event_paranoid is above 2 (Debian's
 *                          kernels then ask for CAP_SYS_ADMIN)
 * @NPUPROF_ACCESS_OTHER:   another refusal: the errno says
 */
enum npuprof_access_cause {
	NPUPROF_ACCESS_OK = 0,
	NPUPROF_ACCESS_SECCOMP,
	NPUPROF_ACCESS_CAPS,
	NPUPROF_ACCESS_PARANOID,
	NPUPROF_ACCESS_OTHER,
};

/**
 * struct npuprof_access - one call's answer
 * @err:   0, or the -errno the kernel answered
 * @cause: enum npuprof_access_cause
 */
struct npuprof_access {
	int err;
	enum npuprof_access_cause cause;
};

/**
 * struct npuprof_capture_access - what this process may use
 * @bpf:          loading a kprobe-type BPF program (what a uprobe runs)
 * @perf:         perf_event_open() of a system-wide event (what a
 *                per-function uprobe link opens)
 * @kmod_err:     0 when npuprof.ko's device node opened, else its -errno
 *                (-ENOENT: not loaded)
 * @uprobe_multi: the kernel has uprobe_multi links (Linux 6.6): the
 *                runtime-API uprobes need no perf_event_open(); false
 *                when bpf() is refused (nothing tells then)
 * @root:         the effective uid is 0 (with or without the capabilities)
 * @host_pidns:   this process runs in the host's pid namespace
 *                (npuprof_in_host_pid_ns()); from one of its own, the
 *                host's pid of an attached process is found with BPF
 */
struct npuprof_capture_access {
	struct npuprof_access bpf;
	struct npuprof_access perf;
	int kmod_err;
	bool uprobe_multi;
	bool root;
	bool host_pidns;
};

/**
 * struct npuprof_self_status - what /proc/self/status says of this process
 * @seccomp_filter: "Seccomp: 2": a seccomp filter is installed
 * @cap_eff:        "CapEff": the effective capabilities, bit N for
 *                  capability N (all set when the file is unreadable)
 */
struct npuprof_self_status {
	bool seccomp_filter;
	uint64_t cap_eff;
};

/** npuprof_self_status_read() - fill @st; unreadable: no filter, every capability. */
void npuprof_self_status_read(struct npuprof_self_status *st);

/** npuprof_self_has_cap() - whether capability number @cap is in @st's CapEff. */
bool npuprof_self_has_cap(const struct npuprof_self_status *st, int cap);

/**
 * npuprof_sysctl_int() - the integer a /proc/sys file (@path) holds, e.g.
 * "/proc/sys/kernel/io_uring_disabled"; @dflt when it is missing (the
 * kernel has no such setting) or unreadable
 */
int npuprof_sysctl_int(const char *path, int dflt);

/**
 * npuprof_capture_access_probe() - ask the kernel, now, each call capture
 * needs, and fill @a
 * @kdev: npuprof.ko's device node, NULL for /dev/npuprof
 *
 * Each probe makes and closes at once what it asks for (a two-instruction
 * program, a dummy software event, a session of npuprof.ko): nothing stays.
 */
void npuprof_capture_access_probe(const char *kdev, struct npuprof_capture_access *a);

#endif /* NPUPROF_CAPTURE_ACCESS_H */
