// SPDX-License-Identifier: MIT
/*
 * Description: the uprobes exist only between start and stop, so a process
 * that is attached but not captured pays no trap per call.
 *
 * A uprobe shows in the traced process as a breakpoint over the first
 * instruction of the probed function.  This process reads that instruction
 * of aclrtFree and aclInit in its own libascendcl.so: it is the original
 * after attach_pid, the breakpoint after enable(1), the original again after
 * enable(0), after a discard and after a close that ends a running capture;
 * a capture in between still records (1 aclrtFree call, 1 record).
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh); needs no device.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

#include <acl/acl.h>

#include "bpf_test.h"

/*
 * The breakpoint the kernel writes over a probed instruction
 * (UPROBE_SWBP_INSN): int3, one byte, on x86-64; on arm64 the whole 32-bit
 * word BRK #0x5 (UPROBES_BRK_IMM, arch/arm64/include/asm/brk-imm.h).
 */
#if defined(__x86_64__)
typedef unsigned char insn_t;
#define UPROBE_INSN 0xcc
#elif defined(__aarch64__)
typedef uint32_t insn_t;
#define UPROBE_INSN 0xd42000a0u
#else
#error "bpf_acl_trace_probes.c: say what a uprobe writes on this architecture"
#endif

static const volatile insn_t *fn_free, *fn_init;
static insn_t orig_free, orig_init;

static void find_functions(void)
{
	void *lib = dlopen("libascendcl.so", RTLD_NOW | RTLD_NOLOAD);

	if (!lib)
		CHECK_SKIP("libascendcl.so is not loaded by name here");
	fn_free = dlsym(lib, "aclrtFree");
	fn_init = dlsym(lib, "aclInit");
	if (!fn_free || !fn_init) {
		fprintf(stderr, "dlsym: %s\n", dlerror());
		exit(1);
	}
	orig_free = fn_free[0];
	orig_init = fn_init[0];
}

/* Both functions probed (@probed 1) or both as the library has them. */
static void check_probed(int probed, const char *when)
{
	int before = check_failures;

	if (probed) {
		CHECK_EQ(fn_free[0], UPROBE_INSN);
		CHECK_EQ(fn_init[0], UPROBE_INSN);
	} else {
		CHECK_EQ(fn_free[0], orig_free);
		CHECK_EQ(fn_init[0], orig_init);
	}
	if (check_failures != before)
		fprintf(stderr, "probes wrong %s\n", when);
}

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	struct api_log log = { 0 };

	find_functions();
	CHECK(orig_free != UPROBE_INSN && orig_init != UPROBE_INSN);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	check_probed(0, "after attach");
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	check_probed(1, "after start");
	aclrtFree(NULL);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	check_probed(0, "after stop");
	CHECK_EQ(bpf_test_drain(t, &log), 1);
	CHECK_EQ(log.recs[0].api, NPUPROF_API_RT_FREE);

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	check_probed(1, "after the second start");
	CHECK_EQ(npuprof_acl_trace_discard(t), 0);
	check_probed(0, "after discard");

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	npuprof_acl_trace_close(t);
	check_probed(0, "after close");
	free(log.recs);
	return CHECK_DONE();
}
