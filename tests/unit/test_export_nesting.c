// SPDX-License-Identifier: MIT
/*
 * Description: timeline rows nest for every kind of reader (issue 12).
 *
 * Three device tasks run back to back on one stream (the end count of one
 * is the start count of the next) under a clock fit with a rate of
 * 20.0000305 ns per count and an offset of 1/6 ns, on today's wall clock
 * (1.796e15 us, where a double holds quarter microseconds).  The mapping
 * must give the shared count one host time, and the timeline must be
 * written so that
 *   - a reader that takes "ts" exactly (Perfetto) and
 *   - a reader that parses "ts" into a double (Chrome's viewer, Python:
 *     ../shared/checks/check_prof.py)
 * both see each task end at or before the next one starts.  The first
 * task starts at ...910.140 us (a double reads ...910.250) and ends at
 * ...920.340 us: written as it was, a double reader put its end at
 * ...920.500, 0.25 us after the next task's start (...920.250).  It is
 * now written with dur 10.124 (end ...920.264, the latest end both
 * readers agree on); tasks 2 and 3 keep their exact durations.
 *
 * A nested API call whose end lies 36 ns before its caller's end, where
 * the caller's end has to move 76 ns earlier, stays inside its caller.
 *
 * Every expected value was worked out independently with exact rational
 * arithmetic and Python's float().
 */
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "export_model.h"
#include "model_tasks.h"
#include "export_timeline.h"

#define H0 1796042795885890000ll /* host ns of device count D0 */
#define D0 123000000000ull
#define PID 77u
#define TID 78u

/* Clock pairs on a line of 20.0000305 ns per count, LS offset 1/6 ns. */
static const struct clock_pair pairs[] = {
	{ D0, H0 },
	{ D0 + 1000000, H0 + 20000031 },
	{ D0 + 2000000, H0 + 40000061 },
};

/* Task k runs from count bounds[k] to bounds[k + 1]. */
static const uint64_t bounds[] = { D0 + 1007, D0 + 1517, D0 + 2027, D0 + 2537 };

static const struct {
	const char *ts;
	double dur;
	int64_t start_ns, end_ns; /* the mapped host times */
} want_tasks[] = {
	{ "1796042795885910.140", 10.124, 1796042795885910140ll, 1796042795885920340ll },
	{ "1796042795885920.340", 10.200, 1796042795885920340ll, 1796042795885930540ll },
	{ "1796042795885930.540", 10.200, 1796042795885930540ll, 1796042795885940740ll },
};

static void add_task_record(struct export_model *m, uint16_t have, uint32_t id, uint64_t dev_ts)
{
	struct xm_task task = { .have = have }, *t = &task;
	char name[NPUPROF_NAME_LEN] = { 0 };

	t->pid = PID;
	t->tid = TID;
	t->stream = 5;
	t->task_id = id;
	t->type = NPUPROF_TT_KERNEL;
	snprintf(name, sizeof(name), "k%u", id);
	if (xm_names_add(&m->names, name, &t->name))
		abort(); /* out of memory for a few names */
	if (have == XM_HAVE_START)
		t->start_dev = dev_ts;
	else
		t->end_dev = dev_ts;
	if (export_model_add_task(m, t))
		abort(); /* out of memory for six records */
}

static void add_call(struct export_model *m, uint16_t api, int64_t entry, int64_t exit)
{
	struct xm_call call = { 0 }, *c = &call;

	c->pid = PID;
	c->tid = TID;
	c->api = api;
	c->device = -1;
	c->entry_ns = (uint64_t)entry;
	c->exit_ns = (uint64_t)exit;
	if (export_model_add_call(m, c))
		abort(); /* out of memory for two calls */
}

static int build(struct export_model *m)
{
	size_t i;

	export_model_init(m, AT_FDCWD);
	m->app_pid = PID;
	m->samples = calloc(3, sizeof(*m->samples));
	if (!m->samples)
		return -1;
	for (i = 0; i < 3; i++) {
		m->samples[i].pair = pairs[i];
		add_task_record(m, XM_HAVE_START, (uint32_t)i + 1, bounds[i]);
		add_task_record(m, XM_HAVE_END, (uint32_t)i + 1, bounds[i + 1]);
	}
	m->n_samples = 3;
	/* caller ...910.140 .. ...920.340, callee ...915.000 .. ...920.304 */
	add_call(m, NPUPROF_API_OP_EXECUTE_V2, 1796042795885910140ll, 1796042795885920340ll);
	add_call(m, NPUPROF_API_RT_LAUNCH_KERNEL, 1796042795885915000ll, 1796042795885920304ll);
	return export_model_join(m);
}

struct slice {
	const char *name, *ts;
	double dur;
};

/* The X events of @evs, in file order; returns how many (at most @max). */
static size_t slices(json_t *evs, struct slice *out, size_t max)
{
	size_t i, n = 0;
	json_t *ev;

	json_array_foreach(evs, i, ev) {
		const char *ph = json_string_value(json_object_get(ev, "ph"));

		if (!ph || strcmp(ph, "X") || n == max)
			continue;
		out[n].name = json_string_value(json_object_get(ev, "name"));
		out[n].ts = json_string_value(json_object_get(ev, "ts"));
		out[n].dur = json_real_value(json_object_get(ev, "dur"));
		n++;
	}
	return n;
}

/* ts + dur in ns, as a reader that takes ts exactly computes it. */
static int64_t exact_end_ns(const struct slice *s)
{
	long long us = 0;
	unsigned int frac = 0;

	sscanf(s->ts, "%lld.%3u", &us, &frac);
	return us * 1000 + frac + llround(s->dur * 1000.0);
}

static void check_mapping(const struct export_model *m)
{
	struct xm_task *tasks = model_tasks(m);
	size_t i;

	CHECK_EQ(m->n_tasks, 3);
	CHECK(tasks != NULL);
	CHECK_EQ(m->n_devs, 1);
	CHECK_EQ(m->n_devs ? (int)m->devs[0].clock : -1, XM_CLOCK_INFO_JSON);
	for (i = 0; tasks && i < 3 && i < m->n_tasks; i++) {
		CHECK_EQ(tasks[i].start_ns, want_tasks[i].start_ns);
		CHECK_EQ(tasks[i].end_ns, want_tasks[i].end_ns);
	}
	free(tasks);
	/* the mapping never goes backwards, count by count */
	for (i = 0; i + 1 < 4000 && m->n_devs; i++)
		CHECK(clock_dev_to_host_ns(&m->devs[0].fit, D0 + i) <=
		      clock_dev_to_host_ns(&m->devs[0].fit, D0 + i + 1));
}

static void check_timeline(json_t *evs)
{
	struct slice s[8];
	size_t n = slices(evs, s, 8), i;

	CHECK_EQ(n, 5);
	if (n != 5)
		return;
	/* calls first: caller, then callee */
	CHECK_STR(s[0].name, "aclopExecuteV2");
	CHECK_STR(s[0].ts, "1796042795885910.140");
	CHECK(s[0].dur == 10.124);
	CHECK_STR(s[1].name, "aclrtLaunchKernel");
	CHECK_STR(s[1].ts, "1796042795885915.000");
	CHECK(s[1].dur == 5.264); /* clamped to the caller's written end */
	CHECK(exact_end_ns(&s[1]) <= exact_end_ns(&s[0]));
	CHECK(strtod(s[1].ts, NULL) + s[1].dur <= strtod(s[0].ts, NULL) + s[0].dur);
	for (i = 0; i < 3; i++) {
		const struct slice *t = &s[2 + i];

		CHECK_STR(t->ts, want_tasks[i].ts);
		CHECK(t->dur == want_tasks[i].dur);
		if (i == 2)
			continue;
		/* exact reader: ends at or before the next start */
		CHECK(exact_end_ns(t) <= exact_end_ns(t + 1) - llround(t[1].dur * 1000.0));
		/* double reader: the same, and what it reads is the written end */
		CHECK(strtod(t->ts, NULL) + t->dur <= strtod(t[1].ts, NULL));
	}
}

/* Direct cases of export_tl_end_ns(), at wall-clock magnitude and small. */
static void check_end_rule(void)
{
	/* start reads down (...910.120 -> ...910.000): end kept */
	CHECK_EQ(export_tl_end_ns(1796042795885910120ll, 1796042795885920340ll),
		 1796042795885920340ll);
	/* start reads up by 0.110 us, end near a cell's top: 76 ns earlier */
	CHECK_EQ(export_tl_end_ns(1796042795885910140ll, 1796042795885920340ll),
		 1796042795885920264ll);
	/* zero and negative durations: the start */
	CHECK_EQ(export_tl_end_ns(1796042795885910140ll, 1796042795885910140ll),
		 1796042795885910140ll);
	CHECK_EQ(export_tl_end_ns(1796042795885910140ll, 1796042795885910000ll),
		 1796042795885910140ll);
	/* monotonic-clock magnitudes (1e9 us): doubles hold every ns */
	CHECK_EQ(export_tl_end_ns(1000010000123ll, 1000014000457ll), 1000014000457ll);
}

int main(void)
{
	struct export_model m;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	json_t *evs;

	check_end_rule();
	CHECK_EQ(build(&m), 0);
	check_mapping(&m);
	f = open_memstream(&text, &len);
	CHECK(f != NULL);
	if (!f)
		return CHECK_DONE();
	CHECK_EQ(export_write_timeline(&m, f), 0);
	fclose(f);
	evs = json_loads(text, 0, NULL);
	CHECK(evs != NULL);
	if (evs)
		check_timeline(evs);
	json_decref(evs);
	free(text);
	export_model_free(&m);
	return CHECK_DONE();
}
