// SPDX-License-Identifier: MIT
/*
 * --result lines (format in result.h).  Each line is built whole and
 * written with one fwrite and a flush, so a script reading the file while
 * msprof runs never sees half a line.  Host names, paths and reasons are
 * written as text under the rule of name_text.h: bytes that are not UTF-8
 * must not cost the line.
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/loss_json.h>
#include <npuprof/name_text.h>

#include "result.h"

FILE *msprof_result_open(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "a");
	if (!f)
		close(fd);
	return f;
}

/* Write @line (steals it) and a newline; flush. */
static int put_line(FILE *f, json_t *line)
{
	char host[256] = "";
	char *text;
	int err = 0;

	if (!line)
		return -ENOMEM;
	gethostname(host, sizeof(host) - 1);
	if (json_object_set_new(line, "host", npuprof_name_json(host, sizeof(host)))) {
		json_decref(line);
		return -ENOMEM;
	}
	text = json_dumps(line, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(line);
	if (!text)
		return -ENOMEM;
	if (fprintf(f, "%s\n", text) < 0 || fflush(f))
		err = -EIO;
	free(text);
	return err;
}

int msprof_result_saved(FILE *f, const struct npuprof_session_result *r)
{
	int complete = !npuprof_loss_total(&r->loss) && !r->skipped_bytes && !r->write_error &&
		       !r->unwritten[0] && !r->follow_missed && !r->unrouted;
	json_t *line;

	line = json_pack("{s:i, s:o, s:o, s:I, s:I, s:I, s:I, s:o, s:I, s:b, s:s?}", "pid",
			 (int)r->pid, "rank", r->rank >= 0 ? json_integer(r->rank) : json_null(),
			 "prof_dir", npuprof_name_json(r->prof_dir, sizeof(r->prof_dir)), "start_ns",
			 (json_int_t)r->start_unix_ns, "end_ns", (json_int_t)r->end_unix_ns,
			 "api_records", (json_int_t)r->api_records,
			 "task_records", (json_int_t)r->task_records, "lost",
			 npuprof_loss_report_json(&r->loss, r->cpu_loss, r->nr_cpu_loss), "corrupt_bytes",
			 (json_int_t)r->skipped_bytes, "complete", complete, "error",
			 r->write_error	      ? strerror(-r->write_error)
			 : r->unwritten_error ? strerror(-r->unwritten_error)
					      : NULL);
	return put_line(f, line);
}

int msprof_result_failed(FILE *f, pid_t pid, const char *why)
{
	static const struct npuprof_loss none;

	/* the same keys as a saved line, so a script can read every line alike */
	return put_line(f, json_pack("{s:i, s:n, s:n, s:n, s:n, s:i, s:i, s:o, s:i, s:b, s:o}",
				     "pid", (int)pid, "rank", "prof_dir", "start_ns", "end_ns",
				     "api_records", 0, "task_records", 0, "lost",
				     npuprof_loss_report_json(&none, NULL, 0), "corrupt_bytes", 0, "complete", 0,
				     "error", why && *why ? npuprof_name_json(why, strlen(why))
							  : json_string("not captured")));
}
