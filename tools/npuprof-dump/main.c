// SPDX-License-Identifier: MIT
/*
 * npuprof-dump: print every record of a PROF_XXX directory as one JSON
 * object per line (like `perf script` for perf.data), for scripts, tests
 * and bug reports.  Reads the slices only through the slice reader, so it
 * sees exactly what the export sees.  Names are printed as text under the
 * rule of name_text.h, the same text the export writes.
 *
 *   npuprof-dump PROF_DIR...
 *
 * Exit status: 0, 1 on a read error (message on stderr), 2 on bad usage;
 * --help prints the usage and exits 0.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/msg.h>
#include <npuprof/name_text.h>
#include <npuprof/record_io.h>
#include <npuprof/slice.h>

static json_t *api_json(const struct npuprof_rec_api *a)
{
	const char *name = npuprof_api_name(a->api);

	return json_pack("{s:s, s:i, s:I, s:I, s:i, s:i, s:s?, s:i, s:i, s:i, s:i, s:I, s:I, s:I, s:o}",
			 "type", "api", "cpu", (int)a->hdr.cpu, "ts", (json_int_t)a->hdr.ts,
			 "exit_ts", (json_int_t)a->exit_ts, "pid", (int)a->pid, "tid",
			 (int)a->tid, "api", name, "api_id", (int)a->api, "ret", a->ret, "device",
			 a->device, "kind", (int)a->kind, "stream", (json_int_t)a->stream,
			 "bytes", (json_int_t)a->bytes, "handle", (json_int_t)a->handle, "name",
			 npuprof_name_json(a->name, sizeof(a->name)));
}

static json_t *task_json(const struct npuprof_rec_task *t)
{
	static const char *const events[] = { "?", "submit", "start", "end", "stream_sync" };
	const char *tt = npuprof_task_type_name(t->task_type);

	return json_pack("{s:s, s:i, s:I, s:I, s:i, s:i, s:i, s:i, s:i, s:s, s:s?, s:I, s:o}",
			 "type", "task", "cpu", (int)t->hdr.cpu, "ts", (json_int_t)t->hdr.ts,
			 "dev_ts", (json_int_t)t->dev_ts, "pid", (int)t->pid, "tid", (int)t->tid,
			 "device", (int)t->device, "stream", (int)t->stream, "task_id",
			 (int)t->task_id, "event", t->event < 5 ? events[t->event] : "?",
			 "task_type", tt, "arg", (json_int_t)t->arg, "name",
			 npuprof_name_json(t->name, sizeof(t->name)));
}

static int print_record(void *ctx, const struct npuprof_rec_hdr *rec)
{
	json_t *doc = NULL;

	(void)ctx;
	if (rec->type == NPUPROF_REC_API && rec->size >= sizeof(struct npuprof_rec_api)) {
		doc = api_json((const void *)rec);
	} else if (rec->type == NPUPROF_REC_TASK && rec->size >= sizeof(struct npuprof_rec_task)) {
		doc = task_json((const void *)rec);
	} else if (rec->type == NPUPROF_REC_LOST && rec->size >= sizeof(struct npuprof_rec_lost)) {
		const struct npuprof_rec_lost *l = (const void *)rec;

		doc = json_pack("{s:s, s:i, s:i, s:I, s:I}", "type", "lost", "source",
				(int)l->source, "cpu", (int)l->cpu, "written",
				(json_int_t)l->written, "lost", (json_int_t)l->lost);
	} else {
		return 0; /* stream headers and unknown types */
	}
	if (!doc)
		return -ENOMEM; /* a record must never vanish from the dump unsaid */
	json_dumpf(doc, stdout, JSON_COMPACT | JSON_SORT_KEYS);
	fputc('\n', stdout);
	json_decref(doc);
	return 0;
}

static int dump_series(const char *dir, const char *series)
{
	struct npuprof_read_report rep = { 0 };
	int err = npuprof_slice_read_series(dir, series, print_record, NULL, &rep);

	if (err) {
		npuprof_err("%s/%s: %s", dir, series, strerror(-err));
		return err;
	}
	if (rep.truncated_bytes)
		npuprof_warn("%s/%s: last %" PRIu64 " bytes are a truncated tail (capture cut short?)",
			     dir, series, rep.truncated_bytes);
	return 0;
}

/* Device series are named npuprof.task.<id> in device_<id>/data. */
static int dump_devices(const char *prof)
{
	struct dirent *de;
	DIR *d = opendir(prof);
	int err = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char dir[PATH_MAX], series[64];
		int id;

		if (sscanf(de->d_name, "device_%d", &id) != 1)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s/data", prof, de->d_name);
		snprintf(series, sizeof(series), "npuprof.task.%d", id);
		if (dump_series(dir, series) && !err)
			err = -EIO;
	}
	closedir(d);
	return err;
}

int main(int argc, char **argv)
{
	char host[PATH_MAX];
	int i, failed = 0;

	npuprof_msg_set_prog("npuprof-dump");
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: npuprof-dump PROF_DIR...\n"
		       "prints every record of each PROF_XXX directory as JSON lines\n"
		       "(times as recorded: host CLOCK_MONOTONIC ns, raw device counts)\n");
		return 0;
	}
	if (argc < 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: npuprof-dump PROF_DIR... (npuprof-dump --help)\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		snprintf(host, sizeof(host), "%s/host", argv[i]);
		if (access(host, F_OK)) {
			/* a folder of PROF dirs, say: name what to give */
			npuprof_err("%s: not a PROF_XXX directory (it has no host/): give a PROF_XXX directory",
				    argv[i]);
			failed = 1;
			continue;
		}
		snprintf(host, sizeof(host), "%s/host/data", argv[i]);
		if (dump_series(host, "npuprof.api") || dump_devices(argv[i]))
			failed = 1;
	}
	return failed;
}
