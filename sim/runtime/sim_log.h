/* SPDX-License-Identifier: MIT */
/*
 * The one-line stderr printer both simulated libraries use (libascendcl.so:
 * acl_log()/acl_warn(); libruntime.so: rt_log()).  Header-only, as each
 * library links its own copy and exports none.  The libraries do not link
 * npuprof's messaging code, and stdout belongs to the application.
 */
#ifndef SIM_RUNTIME_SIM_LOG_H
#define SIM_RUNTIME_SIM_LOG_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "<level><lib>: <message>\n" to stderr; @level "[INFO] ", "[WARNING] ". */
static inline void sim_vlog(const char *level, const char *lib, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s%s: ", level, lib);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

/* INFO lines only when NPUSIM_VERBOSE=1. */
static inline int sim_verbose(void)
{
	const char *v = getenv("NPUSIM_VERBOSE");

	return v && strcmp(v, "1") == 0;
}

#endif /* SIM_RUNTIME_SIM_LOG_H */
