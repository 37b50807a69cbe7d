// SPDX-License-Identifier: MIT
/*
 * The one printer of messages a person reads (see npuprof/msg.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include <npuprof/msg.h>

static const char *msg_prog = "npuprof";

void npuprof_msg_set_prog(const char *prog)
{
	msg_prog = prog;
}

void npuprof_msg(enum npuprof_msg_level level, const char *fmt, ...)
{
	static const char *const prefix[] = {
		[NPUPROF_MSG_INFO] = "[INFO] ",
		[NPUPROF_MSG_WARNING] = "[WARNING] ",
		[NPUPROF_MSG_ERROR] = "[ERROR] ",
	};
	FILE *out = level == NPUPROF_MSG_INFO ? stdout : stderr;
	va_list ap;

	fprintf(out, "%s%s: ", prefix[level], msg_prog);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	fflush(out);
}
