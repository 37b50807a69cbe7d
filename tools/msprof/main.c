// SPDX-License-Identifier: MIT
/*
 * msprof: npuprof's msprof-compatible command-line tool.
 *
 *   msprof --dynamic=on [options] <app> [args]   launch, then start/stop at a prompt
 *   msprof --dynamic=on --pid=PID[,PID...]       attach to running apps
 *   msprof [--delay=S] [--duration=S] <app>      app mode: collect the whole job
 *   msprof --export=on --output=DIR              PROF_XXX -> timeline JSON, CSV, database
 *   msprof --query=on --output=DIR               list the PROF_XXX dirs (CANN's columns)
 *   msprof --check=on                            what the host's NPU driver offers (check.c)
 *
 * main() only sequences the parts: options.c parses and checks the command
 * line, dynamic.c runs dynamic mode, app_mode.c app mode, export.c exports,
 * query.c lists.
 */
#include <malloc.h>
#include <stdio.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include <npuprof/bpf_log.h>
#include <npuprof/msg.h>

#include "app_mode.h"
#include "dynamic.h"
#include "check.h"
#include "export.h"
#include "options.h"
#include "query.h"

static int usage_error(const char *msg)
{
	npuprof_err("%s", msg);
	fprintf(stderr, "Run 'msprof --help' for the supported options.\n");
	return MSPROF_EXIT_USAGE;
}

static int run_export(const struct msprof_options *o)
{
	struct msprof_export_opts eo = { .output = o->output_abs, .type = o->export_type,
					 .print_summary = 1 };

	/* some PROF dirs exported and others not: partial, as a capture */
	if (msprof_export(&eo))
		return eo.exported ? MSPROF_EXIT_PARTIAL : MSPROF_EXIT_FAILURE;
	return eo.incomplete ? MSPROF_EXIT_INCOMPLETE : 0;
}

/* A table on a terminal, tab-separated fields for a script (query.h). */
static int run_query(const struct msprof_options *o)
{
	unsigned int incomplete;

	if (msprof_query(o->output_abs, stdout,
			 isatty(STDOUT_FILENO) ? MSPROF_QUERY_TABLE : MSPROF_QUERY_TSV, &incomplete))
		return MSPROF_EXIT_FAILURE;
	return incomplete ? MSPROF_EXIT_INCOMPLETE : 0;
}

/*
 * --output was checked, not created: the run creates it and proves it
 * writable before anything is attached, and removes it again when a
 * failure left it empty, so a launch that fails early leaves nothing.
 */
static int run_dynamic(const struct msprof_options *o)
{
	return o->dynamic ? msprof_dynamic_run(o) : msprof_app_run(o);
}

int main(int argc, char **argv)
{
	struct msprof_options o;
	char err[MSPROF_ERR_MAX];

	npuprof_msg_set_prog("msprof");
	libbpf_set_print(npuprof_bpf_print_fn()); /* process-wide: the tool's */
	/*
	 * A capture session runs for days and allocates its 1 MiB slice
	 * blocks window after window.  A fixed mmap threshold keeps glibc
	 * from raising it after the first free, which would move those
	 * blocks onto the heap, where fragments stay resident.
	 */
	mallopt(M_MMAP_THRESHOLD, 128 * 1024);
	if (msprof_options_parse(argc, argv, &o, err))
		return usage_error(err);
	if (o.help) {
		msprof_print_help(stdout);
		return 0;
	}
	/* Everything is checked before anything is created or started. */
	if (msprof_options_check(&o, err))
		return usage_error(err);
	if (o.export_on)
		return run_export(&o);
	if (o.query_on)
		return run_query(&o);
	if (o.check_on)
		return msprof_check_run(stdout);
	return run_dynamic(&o);
}
