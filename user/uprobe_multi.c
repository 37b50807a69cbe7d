// SPDX-License-Identifier: MIT
/*
 * uprobe_multi links through bpf(BPF_LINK_CREATE) (see uprobe_multi.h),
 * with the uapi layout of the link_create attribute written out here
 * because the installed <linux/bpf.h> (Linux 6.1) lacks it.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>

#include "uprobe_multi.h"

#define UPROBE_MULTI_RETURN 1u /* BPF_F_UPROBE_MULTI_RETURN */

/* union bpf_attr's link_create as Linux 6.6 lays it out for uprobe_multi. */
struct link_create_uprobe_multi {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	uint64_t path;
	uint64_t offsets;
	uint64_t ref_ctr_offsets;
	uint64_t cookies;
	uint32_t cnt;
	uint32_t multi_flags;
	uint32_t pid;
	uint32_t pad;
};

static int link_create(const struct link_create_uprobe_multi *a)
{
	union bpf_attr attr;
	long fd;

	_Static_assert(sizeof(*a) <= sizeof(attr), "link_create layout");
	memset(&attr, 0, sizeof(attr));
	memcpy(&attr, a, sizeof(*a));
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : (int)fd;
}

int uprobe_multi_attach(int prog_fd, const char *path, const uint64_t *offs,
			const uint64_t *cookies, uint32_t cnt, int retprobe)
{
	struct link_create_uprobe_multi a = {
		.prog_fd = (uint32_t)prog_fd,
		.attach_type = NPUPROF_BPF_TRACE_UPROBE_MULTI,
		.path = (uint64_t)(uintptr_t)path,
		.offsets = (uint64_t)(uintptr_t)offs,
		.cookies = (uint64_t)(uintptr_t)cookies,
		.cnt = cnt,
		.multi_flags = retprobe ? UPROBE_MULTI_RETURN : 0,
	};

	return link_create(&a);
}

/*
 * The test libbpf 1.3 makes: a program of that attach type loads, and a
 * link on "/" (not a regular file) fails with EBADF, not EINVAL (an attach
 * type the kernel does not know).
 */
static int probe_kernel(void)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = NPUPROF_BPF_TRACE_UPROBE_MULTI);
	uint64_t off = 0;
	int prog, link;

	prog = bpf_prog_load(BPF_PROG_TYPE_KPROBE, NULL, "GPL", insns, 2, &opts);
	if (prog < 0)
		return 0;
	link = uprobe_multi_attach(prog, "/", &off, NULL, 1, 0);
	close(prog);
	if (link >= 0) {
		close(link);
		return 1;
	}
	return link == -EBADF;
}

int uprobe_multi_supported(void)
{
	static int answer = -1;

	if (answer < 0)
		answer = probe_kernel();
	return answer;
}
