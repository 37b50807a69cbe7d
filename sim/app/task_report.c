// SPDX-License-Identifier: MIT
/*
 * The one JSON line each rank of the sample AI task prints at exit:
 *   {"pid":P,"rank":R,"world_size":W,"device":D,"devices":[d,...],
 *    "threads":T,"streams":S,
 *    "api":{name:count,...},"tasks":{"AI_CORE":n,"MEMCPY":n,"EVENT_RECORD":n},
 *    "kernels":{name:count,...},
 *    "steps":[{"step":i,"thread":t,"tid":x,"device":d,"begin_ns":b,"end_ns":e,
 *              "api":{...},"tasks":{...},"kernels":{...}},...],
 *    "error":"..."}            (only when a call failed)
 * A process started without --rank (nor by --ranks) is rank 0 of 1.
 * "device" is thread 0's device, "devices" the device of each thread, by
 * thread index (all the same unless --devices was given).
 * Totals cover the whole run (aclInit to aclFinalize, setup and teardown
 * included); steps only what lies between their begin_ns and end_ns.
 * Maps list only names with a non-zero count, except "tasks", which always
 * has all three.  begin_ns/end_ns are CLOCK_MONOTONIC ns.  Steps are
 * ordered by thread, then step.
 *
 * The line goes out in one write(), so the lines of several processes
 * (ranks of one job) sharing a file or terminal never interleave.  (On a
 * pipe, a write longer than PIPE_BUF, 4096 bytes, can still be split when
 * the pipe fills and the writer has to wait; a reader that keeps up gets
 * whole lines.)
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ai_task.h"

static void add_counts(struct counts *sum, const struct counts *c)
{
	int i;

	for (i = 0; i < API_MAX; i++)
		sum->api[i] += c->api[i];
	for (i = 0; i < TASK_MAX; i++)
		sum->tasks[i] += c->tasks[i];
	for (i = 0; i < K_MAX; i++)
		sum->kernels[i] += c->kernels[i];
}

/* Object of @n named counts; zero counts left out unless @all. */
static json_t *count_map(const char *const *names, const unsigned int *v, int n, int all)
{
	json_t *o = json_object();
	int i;

	for (i = 0; o && i < n; i++)
		if (all || v[i])
			json_object_set_new(o, names[i], json_integer(v[i]));
	return o;
}

/* Set "api", "tasks", "kernels" of @c on @o. */
static void set_counts(json_t *o, const struct counts *c)
{
	json_object_set_new(o, "api", count_map(app_api_names, c->api, API_MAX, 0));
	json_object_set_new(o, "tasks", count_map(app_task_names, c->tasks, TASK_MAX, 1));
	json_object_set_new(o, "kernels", count_map(app_kernel_names, c->kernels, K_MAX, 0));
}

static json_t *step_json(const struct worker *w, const struct step_record *s)
{
	json_t *o = json_object();

	json_object_set_new(o, "step", json_integer(s->step));
	json_object_set_new(o, "thread", json_integer(w->idx));
	json_object_set_new(o, "tid", json_integer(w->tid));
	json_object_set_new(o, "device", json_integer(w->device));
	json_object_set_new(o, "begin_ns", json_integer((json_int_t)s->begin_ns));
	json_object_set_new(o, "end_ns", json_integer((json_int_t)s->end_ns));
	set_counts(o, &s->c);
	return o;
}

/* Write all of @len bytes of @text to stdout, in one write() unless cut short. */
static int write_line(const char *text, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(STDOUT_FILENO, text, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			fprintf(stderr, "ai_task: cannot write the JSON report to stdout: %s\n",
				strerror(-err));
			return err;
		}
		text += n;
		len -= (size_t)n;
	}
	return 0;
}

int print_report(const struct options *opt, const struct counts *proc,
		 const struct worker *workers, const char *error)
{
	json_t *root = json_object(), *steps = json_array(), *devices = json_array();
	struct counts total = *proc;
	unsigned int t, i;
	char *text, *line;
	int err;

	for (t = 0; t < opt->threads; t++) {
		json_array_append_new(devices, json_integer(thread_device(opt, t)));
		add_counts(&total, &workers[t].other);
		for (i = 0; i < workers[t].nr_steps; i++) {
			add_counts(&total, &workers[t].steps[i].c);
			json_array_append_new(steps, step_json(&workers[t], &workers[t].steps[i]));
		}
	}
	json_object_set_new(root, "pid", json_integer(getpid()));
	json_object_set_new(root, "rank", json_integer(opt->rank >= 0 ? opt->rank : 0));
	json_object_set_new(root, "world_size", json_integer(opt->world_size));
	json_object_set_new(root, "device", json_integer(opt->device));
	json_object_set_new(root, "devices", devices);
	json_object_set_new(root, "threads", json_integer(opt->threads));
	json_object_set_new(root, "streams", json_integer(opt->streams));
	set_counts(root, &total);
	json_object_set_new(root, "steps", steps);
	if (error)
		json_object_set_new(root, "error", json_string(error));
	text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	if (!text || asprintf(&line, "%s\n", text) < 0) {
		free(text);
		fprintf(stderr, "ai_task: out of memory formatting the JSON report\n");
		return -ENOMEM;
	}
	free(text);
	fflush(stdout); /* whatever stdio still holds goes first */
	err = write_line(line, strlen(line));
	free(line);
	return err;
}
