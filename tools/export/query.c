// SPDX-License-Identifier: MIT
/*
 * msprof --query=on (query.h): reads the control files of each PROF dir
 * (host/start_info, device_<id>/start_info.<id>, host/info.json; their
 * names from npuprof/prof_layout.h) and prints CANN's query table.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <npuprof/msg.h>
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
 * collectionTimeBegin (wall-clock us, a decimal string).  Return: 0, or
 * -EINVAL when it is not one.
 */
static int collection_time(json_t *start_info, char *buf, size_t size)
{
	const char *us = json_string_value(json_object_get(start_info, "collectionTimeBegin"));
	long long v;
	char *end;
	time_t sec;
	struct tm tm;
	size_t n;

	if (!us)
		return -EINVAL;
	errno = 0;
	v = strtoll(us, &end, 10);
	if (errno || end == us || *end || v < 0)
		return -EINVAL;
	sec = (time_t)(v / 1000000);
	if (!localtime_r(&sec, &tm))
		return -EINVAL;
	n = strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
	if (!n)
		return -EINVAL;
	snprintf(buf + n, size - n, ".%06lld", v % 1000000);
	return 0;
}

/* The row of folder @rel ("host", "device_0") of PROF dir @prof. */
static int fill_row(struct query_row *r, const char *prof, const char *label, const char *rel,
		    const char *start_info, const char *rank)
{
	char path[PATH_MAX * 2], text[EXPORT_PATH_TEXT_LEN];
	json_t *doc;
	int err;

	/* Names are bytes: a tab or an escape sequence in one must not reach a
	 * terminal or split a tab-separated row (export_file.h). */
	snprintf(r->col[COL_DIR], sizeof(r->col[COL_DIR]), "%.200s%s%s",
		 export_path_text(label, text, sizeof(text)), *label ? "/" : "", rel);
	snprintf(r->col[COL_RANK], sizeof(r->col[COL_RANK]), "%s", rank);
	snprintf(path, sizeof(path), "%s/%s", prof, start_info);
	doc = export_load_json(path, &err);
	if (doc && collection_time(doc, r->col[COL_TIME], sizeof(r->col[COL_TIME])))
		err = -EBADMSG;
	json_decref(doc);
	if (err)
		npuprof_warn("%s/%s: %s: its Collection Time is unknown",
			     export_path_text(prof, text, sizeof(text)), start_info,
			     err == -ENOENT ? "missing" : "damaged (not start_info JSON)");
	return err;
}

/* host/info.json "rank" as text, "" when unknown. */
static void read_rank(const char *prof, char *buf, size_t size)
{
	char path[PATH_MAX * 2];
	json_t *doc, *rank;
	int err;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/" NPUPROF_PROF_INFO_JSON, prof);
	doc = export_load_json(path, &err);
	rank = json_object_get(doc, "rank");
	if (json_is_integer(rank) && json_integer_value(rank) >= 0)
		snprintf(buf, size, "%lld", (long long)json_integer_value(rank));
	json_decref(doc);
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
				     export_path_text(export_base_name(dirs[i]), text, sizeof(text)));
		err = query_prof(&t, dirs[i], n == 1 && !strcmp(dirs[i], output) ? "" :
					      export_base_name(dirs[i]), incomplete);
	}
	if (!err)
		print_table(&t, out, form);
	for (long i = 0; !err && form == MSPROF_QUERY_TABLE && i < n; i++)
		npuprof_info("Query all data in %s. done.",
			     export_path_text(export_base_name(dirs[i]), text, sizeof(text)));
	if (err == -ENOMEM)
		npuprof_err("out of memory listing %s", export_path_text(output, text, sizeof(text)));
	free(t.rows);
	msprof_prof_dirs_free(dirs, n);
	return err;
}
