// SPDX-License-Identifier: MIT
/*
 * Capture's access probes (npuprof/capture_access.h): try bpf(),
 * perf_event_open() and npuprof.ko's device node the way capture uses
 * them, and tell a seccomp filter from missing capabilities by what
 * /proc/self/status says of this process.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include <npuprof/capture_access.h>
#include <npuprof/kring.h>
#include <npuprof/proc_id.h>

#include "uprobe_multi.h"

/* Capability bits (linux/capability.h; CAP_PERFMON and CAP_BPF: 5.8). */
#define CAP_BIT_SYS_ADMIN 21
#define CAP_BIT_PERFMON 38
#define CAP_BIT_BPF 39

/* Above this kernel.perf_event_paranoid, Debian's kernels ask for CAP_SYS_ADMIN. */
#define PERF_PARANOID_MAX 2

int npuprof_sysctl_int(const char *path, int dflt)
{
	FILE *f = fopen(path, "re");
	int v;

	if (!f)
		return dflt;
	if (fscanf(f, "%d", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

void npuprof_self_status_read(struct npuprof_self_status *st)
{
	unsigned long long caps;
	char line[256];
	int mode;
	FILE *f;

	st->seccomp_filter = false;
	st->cap_eff = UINT64_MAX;
	f = fopen("/proc/self/status", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			st->seccomp_filter = mode == 2;
		else if (sscanf(line, "CapEff: %llx", &caps) == 1)
			st->cap_eff = caps;
	}
	fclose(f);
}

bool npuprof_self_has_cap(const struct npuprof_self_status *st, int cap)
{
	return cap >= 0 && cap < 64 && (st->cap_eff & (1ull << cap));
}

/*
 * Why @err was answered: the capabilities first (a container without them
 * is refused by its profile and by the kernel alike, and granting them is
 * what helps), then a filter.
 */
static void judge(struct npuprof_access *a, int err, bool caps_ok, const struct npuprof_self_status *st)
{
	a->err = err;
	if (!err)
		a->cause = NPUPROF_ACCESS_OK;
	else if ((err == -EPERM || err == -EACCES) && !caps_ok)
		a->cause = NPUPROF_ACCESS_CAPS;
	else if ((err == -EPERM || err == -EACCES || err == -ENOSYS) && st->seccomp_filter)
		a->cause = NPUPROF_ACCESS_SECCOMP;
	else
		a->cause = NPUPROF_ACCESS_OTHER;
}

/* Load and drop "r0 = 0; exit" as a kprobe-type program: 0 or -errno. */
static int try_bpf(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 2, NULL);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* Open and close a dummy software event on CPU 0 for every process. */
static int try_perf(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
	};
	long fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}

void npuprof_capture_access_probe(const char *kdev, struct npuprof_capture_access *a)
{
	struct npuprof_kring *kr = NULL;
	struct npuprof_self_status st;
	bool admin, perfmon, bpf;

	npuprof_self_status_read(&st);
	admin = npuprof_self_has_cap(&st, CAP_BIT_SYS_ADMIN);
	perfmon = npuprof_self_has_cap(&st, CAP_BIT_PERFMON);
	bpf = npuprof_self_has_cap(&st, CAP_BIT_BPF);
	judge(&a->bpf, try_bpf(), admin || (bpf && perfmon), &st);
	judge(&a->perf, try_perf(), admin || perfmon, &st);
	if (a->perf.err == -EACCES && a->perf.cause == NPUPROF_ACCESS_OTHER && !admin &&
	    npuprof_sysctl_int("/proc/sys/kernel/perf_event_paranoid", 0) > PERF_PARANOID_MAX)
		a->perf.cause = NPUPROF_ACCESS_PARANOID;
	a->uprobe_multi = !a->bpf.err && uprobe_multi_supported();
	a->root = geteuid() == 0;
	a->host_pidns = npuprof_in_host_pid_ns();
	a->kmod_err = npuprof_kring_open(kdev, &kr);
	npuprof_kring_close(kr);
}
