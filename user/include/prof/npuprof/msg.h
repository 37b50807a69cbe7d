/* SPDX-License-Identifier: MIT */
/*
 * Messages a person reads.  One helper prints them all, in msprof's style:
 * "[ERROR] msprof: --output=/x: not a directory".  Callers pass what failed,
 * on what, and what to do; an errno is turned into words by the caller with
 * strerror(-err), never printed as a number.
 */
#ifndef NPUPROF_MSG_H
#define NPUPROF_MSG_H

enum npuprof_msg_level {
	NPUPROF_MSG_INFO,    /* "[INFO] " to stdout */
	NPUPROF_MSG_WARNING, /* "[WARNING] " to stderr */
	NPUPROF_MSG_ERROR,   /* "[ERROR] " to stderr */
};

/** npuprof_msg_set_prog() - name printed after the level ("msprof"). */
void npuprof_msg_set_prog(const char *prog);

/** npuprof_msg() - print one line with the level prefix and program name. */
void npuprof_msg(enum npuprof_msg_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), nonnull(2)));

#define npuprof_info(...) npuprof_msg(NPUPROF_MSG_INFO, __VA_ARGS__)
#define npuprof_warn(...) npuprof_msg(NPUPROF_MSG_WARNING, __VA_ARGS__)
#define npuprof_err(...) npuprof_msg(NPUPROF_MSG_ERROR, __VA_ARGS__)

#endif /* NPUPROF_MSG_H */
