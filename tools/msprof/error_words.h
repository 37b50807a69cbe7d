/* SPDX-License-Identifier: MIT */
/*
 * msprof's words for a failure of the capture session: chosen from the
 * stage that failed and its errno (npuprof/error.h), never from message
 * text.  Every message about a session failure goes through here.
 */
#ifndef MSPROF_ERROR_WORDS_H
#define MSPROF_ERROR_WORDS_H

#include <stddef.h>
#include <sys/types.h>

#include <npuprof/error.h>

/**
 * msprof_error_words() - what failed and what to do about it, one phrase
 * with no "msprof:" prefix and no final period ("npuprof.ko is not loaded:
 * load it with insmod npuprof.ko (see README)")
 * @e:    the failure (npuprof_session_error())
 * @pid:  the process msprof was setting up, for the words when @e names
 *        none (0: none)
 * @buf:  output, @size bytes, always terminated
 */
void msprof_error_words(const struct npuprof_error *e, pid_t pid, char *buf, size_t size);

/**
 * msprof_error_words_as() - msprof_error_words() for a caller that is
 * root (@root 1) or not (0): a permission error of a kernel-side stage is
 * "needs root" to a user, and to root names what refuses root (a security
 * module or a user namespace).  msprof_error_words() passes geteuid() == 0.
 */
void msprof_error_words_as(const struct npuprof_error *e, pid_t pid, int root, char *buf,
			   size_t size);

/**
 * msprof_untraced_words() - the warning for recorded ACL functions the
 * profiled library lacks (npuprof_session_untraced(), not ""): which, and
 * that their calls are not in the data
 */
void msprof_untraced_words(const char *untraced, char *buf, size_t size);

#endif /* MSPROF_ERROR_WORDS_H */
