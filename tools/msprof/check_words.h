/* SPDX-License-Identifier: MIT */
/*
 * The words of msprof --check=on's lines that depend on who runs it
 * (check.c); apart from check.h so that tests can include them.
 */
#ifndef MSPROF_CHECK_WORDS_H
#define MSPROF_CHECK_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include <npuprof/capture_access.h>

/**
 * msprof_check_present() - "present" or "absent" for @path, or, when
 * neither can be told (a directory on the way is not searchable by this
 * user, as tracefs and procfs entries of root are not), "unknown (<why>:
 * run msprof --check=on as root)" into @buf
 * Return: the words (a constant, or @buf).
 */
const char *msprof_check_present(const char *path, char *buf, size_t size);

/**
 * msprof_check_root_writable() - whether root may write @path, in words:
 * "yes" or "no" when asked as root (@root), else "unknown (...)": the
 * driver's switches are mode 0444 and written by root through its
 * capabilities, so neither the mode nor another user's access tells
 */
const char *msprof_check_root_writable(const char *path, bool root);

/**
 * msprof_check_user() - whether a capture by this process can run, as the
 * words after "capture as this user: " into @buf: "yes", or "no: ..."
 * with why (msprof captures as root only; what @a says was refused)
 * Return: true when it can.
 */
bool msprof_check_user(const struct npuprof_capture_access *a, char *buf, size_t size);

#endif /* MSPROF_CHECK_WORDS_H */
