/* SPDX-License-Identifier: MIT */
/*
 * msprof's app mode: an app given without --dynamic=on is run and
 * captured whole, as CANN's msprof does, with no prompt.
 */
#ifndef MSPROF_APP_MODE_H
#define MSPROF_APP_MODE_H

#include "options.h"

/**
 * msprof_app_run() - app mode: msprof APP ARGS (or --application) without
 * --dynamic.  Runs the app with PROFILER_SAMPLECONFIG (no in-app server),
 * follows every process it starts, collects from launch (or --delay
 * seconds later) until the job exits (or for --duration seconds), with no
 * prompt and no stdin, and saves one PROF_XXX per process with records.
 * Return: the app's exit status when it failed (128 + signal when killed),
 * else 0, MSPROF_EXIT_PARTIAL or MSPROF_EXIT_FAILURE as
 * msprof_dynamic_run().
 */
int msprof_app_run(const struct msprof_options *o);

#endif /* MSPROF_APP_MODE_H */
