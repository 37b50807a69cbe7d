// SPDX-License-Identifier: MIT
/*
 * What an export prints for a person (export_console.h): the summary of a
 * PROF dir after its export (--summary, and the demo), the clock lines,
 * the words for a PROF dir without a record.  Figures come from the model
 * and its statistics (export_summary.c), the same the CSVs hold.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/loss.h>
#include <npuprof/msg.h>
#include <npuprof/name_text.h>
#include <npuprof/prof_layout.h>

#include "export_console.h"
#include "export_file.h"
#include "export_outcome.h"
#include "export_summary.h"

/* Rows of the top-ops table. */
#define EXPORT_TOP_OPS 10

static void print_top_ops(const struct export_model *m)
{
	struct xm_op_stat *s;
	size_t i, n;
	int err = export_op_stats(m, &s, &n);

	if (err) {
		npuprof_warn("summary: top ops left out: %s", strerror(-err));
		return;
	}
	printf("  Top ops by total device time:\n");
	if (!n)
		printf("    (no kernel task with a start and an end)\n");
	else
		printf("    %-32s %8s %14s %12s\n", "Op", "Count", "Total(us)", "Avg(us)");
	for (i = 0; i < n && i < EXPORT_TOP_OPS; i++)
		printf("    %-32s %8llu %14.3f %12.3f\n", s[i].op_type,
		       (unsigned long long)s[i].st.count, (double)s[i].st.total_ns / 1000.0,
		       s[i].st.mean_us);
	free(s);
}

static void print_api_counts(const struct export_model *m)
{
	uint64_t by_level[2] = { 0, 0 }; /* AscendCL, Runtime */
	struct xm_api_stat *s;
	size_t i, n;
	int err = export_api_stats(m, &s, &n);

	if (err) {
		npuprof_warn("summary: API calls left out: %s", strerror(-err));
		return;
	}
	for (i = 0; i < n; i++) /* runtime calls run inside ACL calls: counted apart */
		by_level[npuprof_api_level(s[i].api, NULL) == NPUPROF_LEVEL_RUNTIME] += s[i].st.count;
	printf("  API calls: %zu (AscendCL %llu, Runtime %llu", m->n_calls,
	       (unsigned long long)by_level[0], (unsigned long long)by_level[1]);
	if (m->n_calls_cut) /* not in the statistics below: no return, no time */
		printf(", and %zu in flight at the stop, drawn ending at the capture window's end",
		       m->n_calls_cut);
	printf("), by total time:\n");
	if (n)
		printf("    %-32s %-8s %8s %14s %12s\n", "API", "Level", "Count", "Total(us)",
		       "Avg(us)");
	for (i = 0; i < n; i++)
		printf("    %-32s %-8s %8llu %14.3f %12.3f\n", s[i].name, xm_api_level(s[i].api),
		       (unsigned long long)s[i].st.count, (double)s[i].st.total_ns / 1000.0,
		       s[i].st.mean_us);
	free(s);
}

/* "Records lost: N (by cause)", then a line per CPU that lost any. */
static void print_lost(const struct export_model *m)
{
	char causes[128];

	printf("  Records lost: %llu", (unsigned long long)npuprof_loss_total(&m->loss));
	if (npuprof_loss_total(&m->loss))
		printf(" (%s)", npuprof_loss_causes(&m->loss, causes, sizeof(causes)));
	printf("\n");
	for (size_t i = 0; i < m->n_cpu_loss; i++)
		printf("    CPU %u: %llu (%s)\n", m->cpu_loss[i].cpu,
		       (unsigned long long)npuprof_loss_total(&m->cpu_loss[i]),
		       npuprof_loss_causes(&m->cpu_loss[i], causes, sizeof(causes)));
}

/* How each device's times were placed (export_clock_placement()). */
static void print_clocks(const struct export_model *m)
{
	char text[200];
	bool head = false;

	for (size_t i = 0; i < m->n_devs; i++) {
		if (!export_clock_placement(&m->devs[i], text, sizeof(text)))
			continue;
		if (!head)
			printf("  Device clocks:\n");
		head = true;
		printf("    - %s\n", text);
	}
}

/*
 * The task records that are not a submitted task's life cycle, each line
 * only when there are any: tasks nobody was seen submitting (device-only
 * work), the host driver's queue and completion events, events unknown.
 */
static void print_task_kinds(const struct export_model *m)
{
	if (m->n_unsubmitted)
		printf("  Device tasks without a submit: %zu (device-only work such as graph replay or other processes' streams, a submit lost, or submitted before the window): kept, with no pid, thread or API call\n",
		       m->n_unsubmitted);
	if (m->n_queued || m->n_cqe)
		printf("  Host driver task events: %llu queued to the hardware, %llu completion entries (counted, not drawn)\n",
		       (unsigned long long)m->n_queued, (unsigned long long)m->n_cqe);
	if (m->unknown_events)
		printf("  Task records of an event this msprof does not know: %llu, skipped\n",
		       (unsigned long long)m->unknown_events);
}

void export_console_summary(const struct export_model *m, const struct export_dest *d)
{
	const char *base = npuprof_prof_base_name(m->dir);
	char dir[NPUPROF_NAME_TEXT_SIZE(NAME_MAX)];

	npuprof_name_text(dir, sizeof(dir), base, strlen(base));
	printf("Summary of %s (pid %u%s", dir, m->app_pid, m->rank >= 0 ? ", rank " : "");
	if (m->rank >= 0)
		printf("%d", m->rank);
	printf("):\n");
	print_top_ops(m);
	print_api_counts(m);
	printf("  Device tasks: %zu (%zu with start and end, %zu with one of them of which %zu cut by the capture window and drawn clamped to it, %zu linked to their API call)\n",
	       m->n_tasks, m->n_drawn, m->n_tasks - m->n_drawn, m->n_cut, m->n_linked);
	print_task_kinds(m);
	print_clocks(m);
	print_lost(m);
	if (m->truncated_bytes)
		printf("  Truncated data: %llu bytes at the end of a slice were not readable\n",
		       (unsigned long long)m->truncated_bytes);
	if (m->cut_record_bytes)
		printf("  Cut record: %llu bytes of a record at the end of a slice's whole frames were not exported\n",
		       (unsigned long long)m->cut_record_bytes);
	if (m->n_reasons)
		printf("  Data incomplete, %zu reason%s:\n", m->n_reasons, m->n_reasons > 1 ? "s" : "");
	else
		printf("  Data complete.\n");
	for (size_t i = 0; i < m->n_reasons; i++)
		printf("    - %s\n", m->reasons[i]);
	if (d->outfd >= 0)
		printf("  Output: %s\n", d->out);
	printf("  Database: %s/%s\n", d->dir, d->db_name);
}

/*
 * No record at all: say so, and why when the control files and slices
 * tell (a capture killed before its first flush has no end_info).
 */
void export_console_no_data(const struct export_model *m, const char *dir, const char *base)
{
	npuprof_err("no profiling data in %s: was the app's device work inside the start/stop window?",
		    dir);
	for (size_t i = 0; i < m->n_reasons; i++)
		npuprof_err("%s is incomplete: %s", base, m->reasons[i]);
}

/* One line per device: how its times were placed on the host clock. */
void export_console_clocks(const struct export_model *m, const char *base)
{
	char text[200];

	for (size_t i = 0; i < m->n_devs; i++) {
		if (export_clock_placement(&m->devs[i], text, sizeof(text)))
			npuprof_info("%s: %s", base, text);
		if (export_clock_correction(&m->devs[i], text, sizeof(text)))
			npuprof_info("%s: %s", base, text);
	}
}
