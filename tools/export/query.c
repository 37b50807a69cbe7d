// SPDX-License-Identifier: MIT
/*
 * msprof --query=on (query.h): reads the control files of each PROF dir
 * (host/start_info, device_<id>/start_info.<id>, host/info.json; their
 * names from npuprof/prof_layout.h, their contents through
 * npuprof/prof_control.h) and prints CANN's query table.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <npuprof/msg.h>
#include <npuprof/prof_control.h>
#include <npuprof/prof_layout.h>

#include "export.h"
#include "export_file.h"
#include "query.h"

enum { COL_JOB, COL_DEVICE, COL_DIR, COL_TIME, COL_MODEL, COL_ITERS, COL_TOP, COL_RANK, NR_COLS };

static const char *const headers[NR_COLS] = {
	"Job Info",	    "Device ID",	  "Dir Name", "Collection Time",
	"Model ID",	    "Iteration Number", "Top Time Iteration", "Rank ID",
};

/* One row; a column npuprof cannot know stays "". */
struct query_row {
	char col[NR_COLS][NAME_MAX + 1]; /* Dir Name: two folder names */
};

/* Widths of the table form: a column is as wide as its widest cell. */
struct query_table {
	struct query_row *rows;
	size_t n;
	size_t width[NR_COLS];
};

/*
 * "YYYY-mm-dd HH:MM:SS.uuuuuu" (local time) of a start_info's
 * collectionTimeBegin (wall-clock us).  Return: 0, or -EINVAL when it has
 * none.
 */
static int collection_time(const struct npuprof_ctrl_edge_info *start_info, char *buf,
			   size_t size)
{
	int64_t v = start_info->time_us;
	time_t sec;
	struct tm tm;
	size_t n;

	if (!start_info->has_time)
		return -EINVAL;
	sec = (time_t)(v / 1000000);
	if (!localtime_r(&sec, &tm))
		return -EINVAL;
	n = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
	if (!n)
		return -EINVAL;
	snprintf(buf + n, size - n, ".%06lld", (long long)(v % 1000000));
	return 0;
}

/* The row of folder @rel ("host", "device_0") of PROF dir @prof. */
static int fill_row(struct query_row *r, const char *prof, const char *label, const char *rel,
		    const char *start_info, const char *rank)
{
	char path[PATH_MAX * 2], text[EXPORT_PATH_TEXT_LEN];
	struct npuprof_ctrl_edge_info start;
	int err;

	/* Names are bytes: a tab or an escape sequence in one must not reach a
	 * terminal or split a tab-separated row (export_file.h). */
	snprintf(r->col[COL_DIR], sizeof(r->col[COL_DIR]), "%.200s%s%s",
		 export_path_text(label, text, sizeof(text)), *label ? "/" : "", rel);
	snprintf(r->col[COL_RANK], sizeof(r->col[COL_RANK]), "%s", rank);
	snprintf(path, sizeof(path), "%s/%s", prof, start_info);
	err = npuprof_ctrl_edge_read(path, 1, &start);
	if (!err && collection_time(&start, r->col[COL_TIME], sizeof(r->col[COL_TIME])))
		err = -EBADMSG;
	if (err)
		npuprof_warn("%s/%s: %s: its Collection Time is unknown",
			     export_path_text(prof, text, sizeof(text)), start_info,
			     err == -ENOENT ? "missing" : "damaged (not start_info JSON)");
	return err;
}

/* host/info.json "rank" as text, "" when unknown. */
static void read_rank(const char *prof, char *buf, size_t size)
{
	struct npuprof_ctrl_info_parsed info;
	char path[PATH_MAX * 2];

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/" NPUPROF_PROF_INFO_JSON, prof);
	if (npuprof_ctrl_info_read(path, &info))
		return;
	if (info.rank >= 0)
		snprintf(buf, size, "%d", info.rank);
	npuprof_ctrl_info_free(&info);
}

static struct query_row *add_row(struct query_table *t)
{
	struct query_row *v = realloc(t->rows, (t->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	t->rows = v;
	memset(&v[t->n], 0, sizeof(v[t->n]));
	return &v[t->n++];
}

/* The rows of PROF dir @prof, labelled @label below --output ("" for itself). */
static int query_prof(struct query_table *t, const char *prof, const char *label,
		      unsigned int *incomplete)
{
	char rank[32], dir[NPUPROF_PROF_SERIES_SIZE], start[NPUPROF_PROF_SERIES_SIZE];
	struct query_row *r;
	uint32_t *ids;
	int n, i;

	read_rank(prof, rank, sizeof(rank));
	r = add_row(t);
	if (!r)
		return -ENOMEM;
	*incomplete += !!fill_row(r, prof, label, NPUPROF_PROF_HOST_DIR, NPUPROF_PROF_START_INFO,
				  rank);
	n = npuprof_prof_devices(prof, &ids);
	for (i = 0; i < n; i++) {
		r = add_row(t);
		if (!r) {
			free(ids);
			return -ENOMEM;
		}
		snprintf(r->col[COL_DEVICE], sizeof(r->col[COL_DEVICE]), "%u", ids[i]);
		npuprof_device_dir_name(dir, sizeof(dir), ids[i]);
		npuprof_device_ctrl_name(start, sizeof(start), ids[i], NPUPROF_CTRL_START_INFO);
		*incomplete += !!fill_row(r, prof, label, dir, start, rank);
	}
	free(ids);
	return n < 0 ? n : 0;
}

/* One line: fields split by a tab (TSV), or padded to @width, trailing blanks dropped. */
static void print_line(FILE *out, const char *const *cells, const size_t *width,
		       enum msprof_query_form form)
{
	char line[NR_COLS * (NAME_MAX + 3)];
	int len = 0;

	for (int c = 0; c < NR_COLS; c++) {
		if (form == MSPROF_QUERY_TSV)
			len += snprintf(line + len, sizeof(line) - (size_t)len, "%s%s", c ? "\t" : "",
					cells[c]);
		else
			len += snprintf(line + len, sizeof(line) - (size_t)len, "%-*s  ",
					(int)width[c], cells[c]);
	}
	while (form == MSPROF_QUERY_TABLE && len > 0 && line[len - 1] == ' ')
		len--;
	fprintf(out, "%.*s\n", len, line);
}

static void print_table(const struct query_table *t, FILE *out, enum msprof_query_form form)
{
	size_t width[NR_COLS];
	const char *cells[NR_COLS];

	for (int c = 0; c < NR_COLS; c++) {
		width[c] = strlen(headers[c]);
		for (size_t i = 0; i < t->n; i++)
			if (strlen(t->rows[i].col[c]) > width[c])
				width[c] = strlen(t->rows[i].col[c]);
	}
	print_line(out, headers, width, form);
	for (size_t i = 0; i < t->n; i++) {
		for (int c = 0; c < NR_COLS; c++)
			cells[c] = t->rows[i].col[c];
		print_line(out, cells, width, form);
	}
}

int msprof_query(const char *output, FILE *out, enum msprof_query_form form,
		 unsigned int *incomplete)
{
	struct query_table t = { 0 };
	char text[EXPORT_PATH_TEXT_LEN];
	char **dirs = NULL;
	long n = 0;
	int err;

	*incomplete = 0;
	err = msprof_prof_dirs(output, &dirs, &n);
	for (long i = 0; !err && i < n; i++) {
		if (form == MSPROF_QUERY_TABLE)
			npuprof_info("Start query data in %s.",
				     export_path_text(npuprof_prof_base_name(dirs[i]), text, sizeof(text)));
		err = query_prof(&t, dirs[i], n == 1 && !strcmp(dirs[i], output) ? "" :
					      npuprof_prof_base_name(dirs[i]), incomplete);
	}
	if (!err)
		print_table(&t, out, form);
	for (long i = 0; !err && form == MSPROF_QUERY_TABLE && i < n; i++)
		npuprof_info("Query all data in %s. done.",
			     export_path_text(npuprof_prof_base_name(dirs[i]), text, sizeof(text)));
	if (err == -ENOMEM)
		npuprof_err("out of memory listing %s", export_path_text(output, text, sizeof(text)));
	free(t.rows);
	msprof_prof_dirs_free(dirs, n);
	return err;
}
