// SPDX-License-Identifier: MIT
/*
 * The libbpf print callback the tools install (see npuprof/bpf_log.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/bpf_log.h>

bool npuprof_bpf_debug(void)
{
	const char *debug = getenv("NPUPROF_DEBUG");

	return debug && strcmp(debug, "1") == 0;
}

static int bpf_log_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

libbpf_print_fn_t npuprof_bpf_print_fn(void)
{
	return npuprof_bpf_debug() ? bpf_log_print : NULL;
}
