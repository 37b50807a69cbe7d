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
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/msg.h>
#include <npuprof/name_text.h>
#include <npuprof/prof_layout.h>
#include <npuprof/record_io.h>
#include <npuprof/slice.h>

/* An API record; "cut": "end" for a call in flight at the stop (NPUPROF_API_CUT_END). */
static json_t *api_json(const struct npuprof_rec_api *a)
{
	const char *name = npuprof_api_name(a->api);
	json_t *o = json_pack("{s:s, s:i, s:I, s:I, s:i, s:i, s:s?, s:i, s:i, s:i, s:i, s:I, s:I, s:I, s:o}",
			      "type", "api", "cpu", (int)a->hdr.cpu, "ts", (json_int_t)a->hdr.ts,
			      "exit_ts", (json_int_t)a->exit_ts, "pid", (int)a->pid, "tid",
			      (int)a->tid, "api", name, "api_id", (int)a->api, "ret", a->ret, "device",
			      a->device, "kind", (int)a->kind, "stream", (json_int_t)a->stream,
			      "bytes", (json_int_t)a->bytes, "handle", (json_int_t)a->handle, "name",
			      npuprof_name_json(a->name, sizeof(a->name)));

	if (o && (a->flags & NPUPROF_API_CUT_END))
		json_object_set_new(o, "cut", json_string("end"));
	if (o && (a->flags & ~NPUPROF_API_CUT_END))
		json_object_set_new(o, "flags", json_integer(a->flags));
	return o;
}

static json_t *task_json(const struct npuprof_rec_task *t)
{
	static const char *const events[] = { "?",	   "submit", "start", "end",
					      "stream_sync", "queued", "cqe" };
	const char *tt = npuprof_task_type_name(t->task_type);

	return json_pack("{s:s, s:i, s:I, s:I, s:i, s:i, s:i, s:i, s:i, s:s, s:s?, s:I, s:o}",
			 "type", "task", "cpu", (int)t->hdr.cpu, "ts", (json_int_t)t->hdr.ts,
			 "dev_ts", (json_int_t)t->dev_ts, "pid", (int)t->pid, "tid", (int)t->tid,
			 "device", (int)t->device, "stream", (int)t->stream, "task_id",
			 (int)t->task_id, "event", t->event < 7 ? events[t->event] : "?",
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
	if (rep.cut_record_bytes)
		npuprof_warn("%s/%s: the whole frames end inside a record (%" PRIu64 " bytes of it)",
			     dir, series, rep.cut_record_bytes);
	return 0;
}

/* Each device's series, in ascending device id order. */
static int dump_devices(const char *prof)
{
	char dir[PATH_MAX], rel[NPUPROF_PROF_SERIES_SIZE], series[NPUPROF_PROF_SERIES_SIZE];
	uint32_t *ids;
	int n = npuprof_prof_devices(prof, &ids), err = 0;

	if (n < 0) {
		npuprof_err("%s: %s", prof, strerror(-n));
		return n;
	}
	for (int i = 0; i < n; i++) {
		npuprof_series_dir(rel, sizeof(rel), ids[i]); /* u32 ids always fit */
		npuprof_series_name(series, sizeof(series), ids[i]);
		if (snprintf(dir, sizeof(dir), "%s/%s", prof, rel) >= (int)sizeof(dir) ||
		    dump_series(dir, series))
			err = -EIO;
	}
	free(ids);
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
		snprintf(host, sizeof(host), "%s/" NPUPROF_PROF_HOST_DIR, argv[i]);
		if (access(host, F_OK)) {
			/* a folder of PROF dirs, say: name what to give */
			npuprof_err("%s: not a PROF_XXX directory (it has no host/): give a PROF_XXX directory",
				    argv[i]);
			failed = 1;
			continue;
		}
		snprintf(host, sizeof(host), "%s/" NPUPROF_PROF_HOST_DATA, argv[i]);
		if (dump_series(host, NPUPROF_PROF_API_SERIES) || dump_devices(argv[i]))
			failed = 1;
	}
	return failed;
}
