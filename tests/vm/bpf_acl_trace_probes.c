// SPDX-License-Identifier: MIT
/*
 * Description: the uprobes exist only between start and stop, so a process
 * that is attached but not captured pays no trap per call.
 *
 * A uprobe shows in the traced process as a breakpoint (int3, 0xcc) over
 * the first byte of the probed function.  This process reads the first byte
 * of aclrtFree and aclInit in its own libascendcl.so: it is the original
 * byte after attach_pid, 0xcc after enable(1), the original again after
 * enable(0), after a discard and after a close that ends a running capture;
 * a capture in between still records (1 aclrtFree call, 1 record).
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh); needs no device.
 */
#include <dlfcn.h>
#include <stdio.h>

#include <acl/acl.h>

#include "bpf_test.h"

#define INT3 0xcc

static const volatile unsigned char *fn_free, *fn_init;
static unsigned char orig_free, orig_init;

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
		CHECK_EQ(fn_free[0], INT3);
		CHECK_EQ(fn_init[0], INT3);
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
	CHECK(orig_free != INT3 && orig_init != INT3);
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
