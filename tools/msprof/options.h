/* SPDX-License-Identifier: MIT */
/*
 * msprof command line: the options npuprof supports, parsed with msprof's
 * syntax (shared/reference/msprof.md section 1).
 *
 * Two steps, so that a usage error leaves nothing behind:
 *  1. msprof_options_parse()   syntax and values only; touches nothing;
 *  2. msprof_options_check()   modes, conflicts, --output and --pid against
 *                              the file system; creates nothing.
 * --output itself is created and probed by the run, before anything is
 * attached (dynamic.c), and removed again if the run leaves it empty.
 * Steps 1 and 2 put the message in @err (without the "[ERROR] msprof: "
 * prefix); main prints it and exits with MSPROF_EXIT_USAGE.
 */
#ifndef MSPROF_OPTIONS_H
#define MSPROF_OPTIONS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <npuprof/session.h>

#include "export.h"

/*
 * Exit statuses, for scripts and cluster launchers (README "Exit status").
 * msprof's own main returns -1 (status 255) on any failure; we tell the
 * outcomes apart and stay clear of ssh's 255.
 *   0  every requested capture (or export) succeeded and is complete
 *   1  failure: nothing was captured or exported (start failed, no module,
 *      no process reachable, export could not read or write)
 *   2  usage error: a bad option or value; nothing was started or created
 *   3  incomplete: data was saved or exported but is known to miss part of
 *      what was asked for (records lost, capture cut short, write error)
 *   4  partial: some processes were captured and others not (each is named),
 *      or some PROF dirs of an --output folder exported and others not
 * In launch and app mode the app's own non-zero status takes precedence.
 */
#define MSPROF_EXIT_FAILURE 1
#define MSPROF_EXIT_USAGE 2
#define MSPROF_EXIT_INCOMPLETE 3
#define MSPROF_EXIT_PARTIAL 4
/* --application splits into at most this many words. */
#define MSPROF_APP_WORDS 64
/* --pid takes at most this many processes: one session's. */
#define MSPROF_MAX_PIDS NPUPROF_SESSION_MAX_PIDS

#define MSPROF_OUTPUT_MAX 1024 /* msprof's limit on --output, in chars */
#define MSPROF_ERR_MAX 512     /* size of the @err buffers below */

/* --task-time levels; msprof's "on" is l1. */
enum msprof_task_time {
	MSPROF_TASK_TIME_OFF = 0,
	MSPROF_TASK_TIME_L0 = 1, /* timing only */
	MSPROF_TASK_TIME_L1 = 2, /* timing + op info */
};

/**
 * struct msprof_options - one parsed command line
 * @dynamic:     --dynamic=on
 * @pid:         the first --pid, 0 when not given
 * @pids:        every --pid (P1,P2,...), @nr_pids of them
 * @result:      --result file, "" when not given
 * @delay_s:     --delay, s (app mode), 0 when not given
 * @duration_s:  --duration, s (app mode), 0 when not given
 * @storage_limit_mb: --storage-limit, MB (200..4294967295), 0 when not
 *               given; the session takes it in bytes (MiB, as CANN counts)
 * @application: the app came from --application (split into @app_words)
 * @output:      --output as given, "" when not given
 * @output_abs:  absolute --output (cwd when not given); set by check
 * @ascendcl:    --ascendcl (default on)
 * @runtime_api: --runtime-api (default off)
 * @task_time:   --task-time level (default l1)
 * @export_on:   --export=on
 * @export_type: --type (default text; export.h)
 * @query_on:    --query=on
 * @check_on:    --check=on: what the host's driver offers (check.c)
 * @help:        --help was given
 * @app_argv:    the app command (points into argv, NULL-terminated), or NULL
 * @app_argc:    words in @app_argv
 */
struct msprof_options {
	int dynamic;
	pid_t pid;
	pid_t pids[MSPROF_MAX_PIDS];
	unsigned int nr_pids;
	char output[MSPROF_OUTPUT_MAX + 1];
	char output_abs[PATH_MAX];
	char result[PATH_MAX];
	uint32_t delay_s;
	uint32_t duration_s;
	uint32_t storage_limit_mb;
	int application;
	char app_line[4096];
	char *app_words[MSPROF_APP_WORDS + 1];
	int ascendcl;
	int runtime_api;
	int require_server; /* --require-server=on: CANN's refusal of a pid without a server */
	enum msprof_task_time task_time;
	int export_on;
	enum msprof_export_type export_type;
	int query_on;
	int check_on;
	int help;
	char **app_argv;
	int app_argc;
};

/**
 * msprof_options_parse() - parse @argv (msprof syntax) into @o
 * @err: MSPROF_ERR_MAX bytes for the message of a usage error
 *
 * Options are "--name=value" (or "--name" for --help); a unique prefix of a
 * name is accepted as getopt_long does.  The first word not starting with
 * "--" begins the app command; a lone "--" ends the options too.
 * Return: 0, or -EINVAL with @err set.  Reads nothing but @argv.
 */
int msprof_options_parse(int argc, char **argv, struct msprof_options *o, char *err);

/**
 * msprof_options_check() - check modes, conflicts, --output and --pid
 * @err: MSPROF_ERR_MAX bytes for the message of a usage error
 *
 * Looks at the file system (/proc/<pid>, the dynamic-profiling socket,
 * --output and its parents) but creates and changes nothing.  Fills
 * @o->output_abs.  Return: 0, or -EINVAL with @err set.
 */
int msprof_options_check(struct msprof_options *o, char *err);

/**
 * msprof_pid_problem() - whether @pid can be attached as a process
 * @buf: out, @size bytes: what is wrong, in words for a message
 *
 * Return: 0 when /proc/@pid is a live process (or procfs cannot say
 * more); -ESRCH when it does not exist or is a zombie; -EINVAL when @pid
 * is a thread of another process (procfs shows threads at /proc/<tid>
 * too), naming that process.
 */
int msprof_pid_problem(pid_t pid, char *buf, size_t size);

/** msprof_print_help() - every supported option with values and default. */
void msprof_print_help(FILE *out);

#endif /* MSPROF_OPTIONS_H */
