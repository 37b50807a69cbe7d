// SPDX-License-Identifier: MIT
/*
 * Description: the library leaves libbpf's process-wide print callback to
 * the program.  A callback this test installs is still the one installed
 * after npuprof_acl_trace_open() (which used to replace it, whether or
 * not the BPF programs loaded), and npuprof_bpf_print_fn(), the callback
 * the tools install, is NULL (libbpf silent) unless NPUPROF_DEBUG=1.
 */
#include <stdarg.h>
#include <stdlib.h>

#include <bpf/libbpf.h>

#include "check.h"
#include <npuprof/acl_trace.h>
#include <npuprof/bpf_log.h>

static int ours(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int main(void)
{
	struct npuprof_acl_trace *t = NULL;

	unsetenv("NPUPROF_DEBUG");
	CHECK(npuprof_bpf_print_fn() == NULL);
	CHECK_EQ(npuprof_bpf_debug(), 0);
	setenv("NPUPROF_DEBUG", "0", 1);
	CHECK(npuprof_bpf_print_fn() == NULL);
	setenv("NPUPROF_DEBUG", "1", 1);
	CHECK(npuprof_bpf_print_fn() != NULL);
	CHECK_EQ(npuprof_bpf_debug(), 1);
	unsetenv("NPUPROF_DEBUG");

	libbpf_set_print(ours);
	/* loads or fails (no privilege here): either way, the hook stays */
	if (!npuprof_acl_trace_open(64 * 1024, &t))
		npuprof_acl_trace_close(t);
	CHECK(libbpf_set_print(NULL) == ours);
	return CHECK_DONE();
}
