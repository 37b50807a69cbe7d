// SPDX-License-Identifier: MIT
/*
 * msprof --export=on (export.h): find the PROF_XXX directories under
 * --output, and for each load its records (export_model.c), then write
 * mindstudio_profiler_output/ with the timeline (export_timeline.c) and
 * the summary CSVs (export_summary.c), named with the local export time as
 * msprof does: msprof_<YYYYmmddHHMMSS>.json, op_summary_<...>.csv, ...
 *
 * Every file is first written under a temporary name and, once the whole
 * set is written, renamed into place; only then are the files of an
 * earlier export removed.  A re-export leaves exactly one set, and a
 * failed one (a full disk, say) leaves the earlier set untouched and no
 * half-written file behind.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/loss.h>
#include <npuprof/msg.h>

#include "export.h"
#include "export_model.h"
#include "export_job.h"
#include "export_summary.h"
#include "export_timeline.h"

#define EXPORT_OUT_DIR "mindstudio_profiler_output"
#define EXPORT_TOP_OPS 10

typedef int (*export_writer_fn)(const struct export_model *m, FILE *f);

/* The files one export writes: <prefix><YYYYmmddHHMMSS><ext>. */
static const struct {
	const char *prefix;
	const char *ext;
	export_writer_fn write;
} export_files[] = {
	{ "msprof_", ".json", export_write_timeline },
	{ "api_statistic_", ".csv", export_write_api_statistic },
	{ "op_summary_", ".csv", export_write_op_summary },
	{ "op_statistic_", ".csv", export_write_op_statistic },
	{ "task_time_", ".csv", export_write_task_time },
};

#define EXPORT_NR_FILES (sizeof(export_files) / sizeof(export_files[0]))

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static const char *base_name(const char *path)
{
	const char *s = path + strlen(path);

	while (s > path && s[-1] == '/')
		s--;
	while (s > path && s[-1] != '/')
		s--;
	return s;
}

/* A PROF dir is named PROF_* or holds host/ (a renamed copy). */
static int is_prof_dir(const char *path)
{
	char host[PATH_MAX];

	if (!is_dir(path))
		return 0;
	if (!strncmp(base_name(path), "PROF_", 5))
		return 1;
	snprintf(host, sizeof(host), "%s/host", path);
	return is_dir(host);
}

/*
 * Does @name match <prefix><14 digits><ext>, an export of ours, with a
 * stamp other than @keep (the set just written)?
 */
static int is_old_export(const char *name, const char *keep)
{
	size_t i, j, lp, le, len = strlen(name);

	for (i = 0; i < EXPORT_NR_FILES; i++) {
		lp = strlen(export_files[i].prefix);
		le = strlen(export_files[i].ext);
		if (len != lp + 14 + le || strncmp(name, export_files[i].prefix, lp) ||
		    strcmp(name + lp + 14, export_files[i].ext))
			continue;
		for (j = lp; j < lp + 14 && name[j] >= '0' && name[j] <= '9'; j++)
			;
		if (j == lp + 14)
			return strncmp(name + lp, keep, 14) != 0;
	}
	return 0;
}

static int remove_old_exports(const char *out, const char *keep)
{
	char path[PATH_MAX + 256];
	struct dirent *de;
	DIR *d = opendir(out);
	int err = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!is_old_export(de->d_name, keep))
			continue;
		snprintf(path, sizeof(path), "%s/%s", out, de->d_name);
		if (unlink(path) && !err)
			err = -errno;
	}
	closedir(d);
	return err;
}

/* Write one file to @tmp; a stream error (ENOSPC at a flush) fails it. */
static int write_tmp(const struct export_model *m, const char *tmp, export_writer_fn fn)
{
	FILE *f = fopen(tmp, "w");
	int err;

	if (!f)
		return -errno;
	errno = 0;
	err = fn(m, f);
	if (!err && ferror(f))
		err = errno ? -errno : -EIO;
	errno = 0;
	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	return err;
}

/* Unlink the first @n of @files (paths in rows of PATH_MAX + 8 bytes). */
static void unlink_tmps(char files[][PATH_MAX + 8], size_t n)
{
	while (n--)
		unlink(files[n]);
}

/* 1 when an export stamped @stamp already exists in @out. */
static int stamp_taken(const char *out, const char *stamp)
{
	char path[PATH_MAX + 64];
	size_t i;

	for (i = 0; i < EXPORT_NR_FILES; i++) {
		snprintf(path, sizeof(path), "%s/%s%s%s", out, export_files[i].prefix, stamp,
			 export_files[i].ext);
		if (access(path, F_OK) == 0)
			return 1;
	}
	return 0;
}

/*
 * The local export time as msprof stamps it (YYYYmmddHHMMSS), moved on by
 * a second while an earlier export holds that stamp: a re-export within
 * the same second must not rename over the set it is about to replace.
 */
static void export_stamp(const char *out, char *stamp, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	int tries;

	for (tries = 0; tries < 60; tries++, t++) {
		localtime_r(&t, &tm);
		strftime(stamp, size, "%Y%m%d%H%M%S", &tm);
		if (!stamp_taken(out, stamp))
			return;
	}
}

static int write_outputs(const struct export_model *m, const char *out)
{
	char stamp[32], path[EXPORT_NR_FILES][PATH_MAX + 8], tmp[EXPORT_NR_FILES][PATH_MAX + 8];
	size_t i;
	int err;

	export_stamp(out, stamp, sizeof(stamp));
	for (i = 0; i < EXPORT_NR_FILES; i++) {
		if (snprintf(path[i], PATH_MAX, "%s/%s%s%s", out, export_files[i].prefix, stamp,
			     export_files[i].ext) >= PATH_MAX ||
		    snprintf(tmp[i], sizeof(tmp[i]), "%s.tmp", path[i]) >= (int)sizeof(tmp[i])) {
			unlink_tmps(tmp, i);
			return -ENAMETOOLONG;
		}
		err = write_tmp(m, tmp[i], export_files[i].write);
		if (err) {
			npuprof_err("writing %s: %s", path[i], strerror(-err));
			unlink_tmps(tmp, i + 1);
			return err;
		}
	}
	/*
	 * New names carry a stamp no earlier set has, so renaming replaces
	 * nothing; a failed rename takes back the new files already in place.
	 * Only a complete new set lets the old one go.
	 */
	for (i = 0; i < EXPORT_NR_FILES; i++) {
		if (rename(tmp[i], path[i])) {
			err = -errno;
			npuprof_err("renaming %s: %s", tmp[i], strerror(-err));
			unlink_tmps(path, i);
			unlink_tmps(tmp + i, EXPORT_NR_FILES - i);
			return err;
		}
	}
	err = remove_old_exports(out, stamp);
	if (err)
		npuprof_warn("removing the earlier export in %s: %s", out, strerror(-err));
	return 0;
}

static void print_top_ops(const struct export_model *m)
{
	struct xm_op_stat *s;
	size_t i, n;

	if (export_op_stats(m, &s, &n))
		return;
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
	struct xm_api_stat *s;
	size_t i, n;

	if (export_api_stats(m, &s, &n))
		return;
	printf("  API calls: %zu, by total time:\n", m->n_calls);
	if (n)
		printf("    %-32s %8s %14s %12s\n", "API", "Count", "Total(us)", "Avg(us)");
	for (i = 0; i < n; i++)
		printf("    %-32s %8llu %14.3f %12.3f\n", s[i].name, (unsigned long long)s[i].st.count,
		       (double)s[i].st.total_ns / 1000.0, s[i].st.mean_us);
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

static void print_summary(const struct export_model *m, const char *out)
{
	const char *base = base_name(m->dir);
	char dir[NPUPROF_NAME_TEXT_SIZE(NAME_MAX)];

	npuprof_name_text(dir, sizeof(dir), base, strlen(base));
	printf("Summary of %s (pid %u%s", dir, m->app_pid, m->rank >= 0 ? ", rank " : "");
	if (m->rank >= 0)
		printf("%d", m->rank);
	printf("):\n");
	print_top_ops(m);
	print_api_counts(m);
	printf("  Device tasks: %zu (%zu with start and end, %zu cut by the capture window, %zu linked to their API call)\n",
	       m->n_tasks, m->n_drawn, m->n_tasks - m->n_drawn, m->n_linked);
	print_lost(m);
	if (m->truncated_bytes)
		printf("  Truncated data: %llu bytes at the end of a slice were not readable\n",
		       (unsigned long long)m->truncated_bytes);
	if (m->n_reasons)
		printf("  Data incomplete, %zu reason%s:\n", m->n_reasons, m->n_reasons > 1 ? "s" : "");
	else
		printf("  Data complete.\n");
	for (size_t i = 0; i < m->n_reasons; i++)
		printf("    - %s\n", m->reasons[i]);
	printf("  Output: %s\n", out);
}

/* @row: filled for the job table when not NULL (and the export worked). */
static int export_one(const char *dir, struct msprof_export_opts *opts,
		      struct export_job_row *row)
{
	struct export_model m;
	char out[PATH_MAX];
	int err;

	npuprof_info("Start export data in %s.", base_name(dir));
	err = export_model_load(dir, &m);
	if (err == -ENODATA)
		npuprof_err("no profiling data in %s: was the app's device work inside the start/stop window?",
			    dir);
	else if (err)
		npuprof_err("loading %s: %s", dir, strerror(-err));
	if (err)
		goto out_free;
	if (snprintf(out, sizeof(out), "%s/" EXPORT_OUT_DIR, dir) >= (int)sizeof(out)) {
		err = -ENAMETOOLONG;
		npuprof_err("%s: path too long", dir);
		goto out_free;
	}
	if (mkdir(out, 0755) && errno != EEXIST) {
		err = -errno;
		npuprof_err("creating %s: %s", out, strerror(-err));
		goto out_free;
	}
	err = write_outputs(&m, out);
	if (err)
		goto out_free;
	npuprof_info("Export all data in %s done.", base_name(dir));
	for (size_t i = 0; i < m.n_reasons; i++)
		npuprof_warn("%s is incomplete: %s", base_name(dir), m.reasons[i]);
	if (m.n_reasons)
		opts->incomplete++;
	if (opts->print_summary)
		print_summary(&m, out);
	if (row)
		err = export_job_row(&m, row);
out_free:
	export_model_free(&m);
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* PROF_* subdirectories of @parent, sorted, into *@out (*@n of them). */
static int list_prof_dirs(const char *parent, char ***out, long *n)
{
	char path[PATH_MAX + 256], **p;
	struct dirent *de;
	DIR *d = opendir(parent);
	int err = 0;

	*out = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		if (strncmp(de->d_name, "PROF_", 5))
			continue;
		snprintf(path, sizeof(path), "%s/%s", parent, de->d_name);
		if (!is_dir(path))
			continue;
		p = realloc(*out, (*n + 1) * sizeof(*p));
		if (p)
			*out = p;
		if (!p || !(p[*n] = strdup(path)))
			err = -ENOMEM;
		else
			(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_str);
	return err;
}

static void free_list(char **v, long n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

int msprof_export(struct msprof_export_opts *opts)
{
	struct export_job_row *rows;
	char **dirs = NULL;
	size_t n_rows = 0;
	long n, i;
	int err, first = 0;

	if (!opts || !opts->output)
		return -EINVAL;
	opts->incomplete = 0;
	if (is_prof_dir(opts->output))
		return export_one(opts->output, opts, NULL);
	err = list_prof_dirs(opts->output, &dirs, &n);
	if (err) {
		npuprof_err("--output=%s: %s", opts->output, strerror(-err));
		free_list(dirs, n);
		return err;
	}
	if (!n) {
		npuprof_err("--output=%s: no PROF_* directory found; give a PROF_XXX directory or the folder that holds them",
			    opts->output);
		free(dirs);
		return -ENOENT;
	}
	rows = opts->print_summary ? calloc((size_t)n, sizeof(*rows)) : NULL;
	for (i = 0; i < n; i++) {
		err = export_one(dirs[i], opts, rows ? &rows[n_rows] : NULL);
		if (err && !first)
			first = err;
		n_rows += rows && !err;
	}
	if (rows)
		export_job_print(rows, n_rows, stdout);
	free(rows);
	free_list(dirs, n);
	return first;
}
