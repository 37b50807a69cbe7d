/* SPDX-License-Identifier: MIT */
/*
 * msprof --check=on (check.c): what this host's NPU driver offers
 * npuprof, as "key: value" lines for a bug report.
 */
#ifndef MSPROF_CHECK_H
#define MSPROF_CHECK_H

#include <stdio.h>

/**
 * msprof_check_run() - print the host's answers to @out
 * Return: 0 when task begin/end can be captured on every device, else 1
 * (msprof's exit status).
 */
int msprof_check_run(FILE *out);

#endif /* MSPROF_CHECK_H */
