// SPDX-License-Identifier: MIT
/*
 * Description: msprof --export writes msprof_<ts>.json as a Chrome trace
 * with exactly the expected events: processes "CANN" (one row per host
 * thread, one X per API call) and "Ascend Hardware" (one row per stream,
 * one X per task with a start and an end, on the host clock within
 * 0.01 us), and one HostToDevice flow per linked task whose "s" sits on
 * the submitting call and whose "f" sits on the task.  Task 4, the last
 * of its stream, lacks its END.  The fixture's LOST records say task
 * records were lost (ring full), so that END may be one of them: task 4
 * is left out (no X event, no flow: 28 events), never drawn to the
 * window's end.  Exported again with info.json saying nothing was lost
 * ("lost" all 0), only the capture's stop can have cut it: it is one X
 * event clamped to the window, from its START (1000050000.000 us) to
 * end_info's clock (1000051000.000 us, dur 1000), with "cut": "end", its
 * START's device count and no END count, and its flow (31 events); never
 * a lone begin.  Process ids
 * are CANN's: (pid << 10) | (sort index << 5) | device, host = 31.  The export is given
 * the parent folder, as msprof allows.  One more metadata event of the
 * host process, "npuprof_capture", says the data is incomplete and why:
 * the fixture's LOST records count 7 records lost to a full ring; and how
 * device 0's times were placed: its info.json has no clock samples, so by
 * the fit over its 7 task record times ("taskRecordFit"), no reason.
 */
#include <jansson.h>
#include <math.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

#define HOST_PID (((int64_t)FX_PID << 10) | (7 << 5) | 31) /* CANN: sort index 7, host */
#define DEV_PID (((int64_t)FX_PID << 10) | (14 << 5)) /* Ascend Hardware 14, device 0 */

struct want_task {
	const char *name;
	uint32_t task_id;
	double ts_us, dur_us;
	const char *call_ts; /* ts of the submitting call */
};

static const struct want_task want_tasks[] = {
	{ "MEMCPY", 1, 1000010000.0, 4000.0, "1000001000.000" },
	{ "add_custom", 2, 1000016000.0, 10000.0, "1000002000.000" },
	{ "matmul_custom", 3, 1000028000.0, 20000.0, "1000003000.000" },
};

static int64_t ival(json_t *ev, const char *key)
{
	return json_integer_value(json_object_get(ev, key));
}

static const char *sval(json_t *ev, const char *key)
{
	return json_string_value(json_object_get(ev, key));
}

static double ts_us(json_t *ev)
{
	const char *s = sval(ev, "ts");

	return s ? strtod(s, NULL) : -1;
}

/* The timeline's events; @cut: whether task 4 is drawn, cut by the window. */
static void count_events(json_t *evs, int cut)
{
	int host_m = 0, host_x = 0, dev_m = 0, dev_x = 0, s = 0, f = 0, other = 0;
	size_t i;
	json_t *ev;

	json_array_foreach(evs, i, ev) {
		const char *ph = sval(ev, "ph");
		int64_t pid = ival(ev, "pid");

		if (!ph)
			other++;
		else if (!strcmp(ph, "M"))
			*(pid == HOST_PID ? &host_m : &dev_m) += 1;
		else if (!strcmp(ph, "X"))
			*(pid == HOST_PID ? &host_x : &dev_x) += 1;
		else if (!strcmp(ph, "s") && pid == HOST_PID)
			s++;
		else if (!strcmp(ph, "f") && pid == DEV_PID)
			f++;
		else
			other++;
	}
	CHECK_EQ(json_array_size(evs), 28 + 3 * cut);
	CHECK_EQ(host_m, 8); /* process name/labels/sort + outcome + 2 threads x (name, sort) */
	CHECK_EQ(host_x, 6);
	CHECK_EQ(dev_m, 5); /* process name/labels/sort + 1 stream x (name, sort) */
	CHECK_EQ(dev_x, 3 + cut);
	CHECK_EQ(s, 3 + cut);
	CHECK_EQ(f, 3 + cut);
	CHECK_EQ(other, 0);
}

/* The M event @what of (@pid, @tid), its args.@key as a string or int text. */
static const char *meta_arg(json_t *evs, int64_t pid, int64_t tid, const char *what,
			    const char *key, char *buf, size_t size)
{
	size_t i;
	json_t *ev;

	json_array_foreach(evs, i, ev) {
		json_t *v;

		if (strcmp(sval(ev, "ph"), "M") || ival(ev, "pid") != pid ||
		    ival(ev, "tid") != tid || strcmp(sval(ev, "name"), what))
			continue;
		v = json_object_get(json_object_get(ev, "args"), key);
		if (json_is_integer(v)) {
			snprintf(buf, size, "%lld", (long long)json_integer_value(v));
			return buf;
		}
		return json_string_value(v);
	}
	return NULL;
}

static void check_outcome(json_t *evs)
{
	json_t *ev, *args = NULL, *lost, *why, *clocks;
	size_t i;

	json_array_foreach(evs, i, ev)
		if (!strcmp(sval(ev, "name"), "npuprof_capture") && ival(ev, "pid") == HOST_PID)
			args = json_object_get(ev, "args");
	CHECK(args != NULL);
	if (!args)
		return;
	CHECK(json_is_false(json_object_get(args, "complete")));
	why = json_object_get(args, "incomplete");
	CHECK_EQ(json_array_size(why), 1);
	CHECK_STR(json_string_value(json_array_get(why, 0)),
		  "7 records lost (ring full: 7, write error: 0, decode error: 0)");
	clocks = json_object_get(args, "clocks");
	CHECK_EQ(json_array_size(clocks), 1);
	CHECK_EQ(ival(json_array_get(clocks, 0), "device"), 0);
	CHECK_STR(sval(json_array_get(clocks, 0), "placement"), "taskRecordFit");
	CHECK_EQ(ival(json_array_get(clocks, 0), "pairs"), 7);
	lost = json_object_get(args, "lost");
	CHECK_EQ(ival(lost, "total"), 7);
	CHECK_EQ(ival(lost, "ring_full"), 7);
	CHECK_EQ(ival(lost, "write_error"), 0);
	CHECK_EQ(ival(lost, "decode_error"), 0);
	CHECK_EQ(json_array_size(json_object_get(lost, "byCpu")), 0);
}

static void check_meta(json_t *evs)
{
	char b[32];

	CHECK_STR(meta_arg(evs, HOST_PID, 0, "process_name", "name", b, sizeof(b)), "CANN");
	CHECK_STR(meta_arg(evs, HOST_PID, 0, "process_labels", "labels", b, sizeof(b)), "CPU");
	CHECK_STR(meta_arg(evs, HOST_PID, 0, "process_sort_index", "sort_index", b, sizeof(b)),
		  "7");
	CHECK_STR(meta_arg(evs, HOST_PID, FX_TID, "thread_name", "name", b, sizeof(b)),
		  "Thread 4243");
	CHECK_STR(meta_arg(evs, HOST_PID, FX_TID2, "thread_name", "name", b, sizeof(b)),
		  "Thread 4250");
	CHECK_STR(meta_arg(evs, DEV_PID, 0, "process_name", "name", b, sizeof(b)),
		  "Ascend Hardware");
	CHECK_STR(meta_arg(evs, DEV_PID, 0, "process_labels", "labels", b, sizeof(b)), "NPU 0");
	CHECK_STR(meta_arg(evs, DEV_PID, 0, "process_sort_index", "sort_index", b, sizeof(b)),
		  "14");
	CHECK_STR(meta_arg(evs, DEV_PID, FX_STREAM, "thread_name", "name", b, sizeof(b)),
		  "Stream 3");
}

static json_t *find_x(json_t *evs, int64_t pid, const char *name, const char *ts)
{
	size_t i;
	json_t *ev;

	json_array_foreach(evs, i, ev)
		if (!strcmp(sval(ev, "ph"), "X") && ival(ev, "pid") == pid &&
		    !strcmp(sval(ev, "name"), name) && (!ts || !strcmp(sval(ev, "ts"), ts)))
			return ev;
	return NULL;
}

/* The flow event @ph whose ts is @ts on @pid, or NULL. */
static json_t *find_flow(json_t *evs, const char *ph, int64_t pid, json_t *id)
{
	size_t i;
	json_t *ev;

	json_array_foreach(evs, i, ev)
		if (!strcmp(sval(ev, "ph"), ph) && ival(ev, "pid") == pid &&
		    json_equal(json_object_get(ev, "id"), id))
			return ev;
	return NULL;
}

static void check_task(json_t *evs, const struct want_task *w)
{
	json_t *x = find_x(evs, DEV_PID, w->name, NULL), *args, *id, *s, *f;

	CHECK(x != NULL);
	if (!x)
		return;
	args = json_object_get(x, "args");
	CHECK(fabs(ts_us(x) - w->ts_us) < 0.01);
	CHECK(fabs(json_real_value(json_object_get(x, "dur")) - w->dur_us) < 0.01);
	CHECK_EQ(ival(x, "tid"), FX_STREAM);
	CHECK_EQ(ival(args, "Task Id"), w->task_id);
	CHECK_EQ(ival(args, "Stream Id"), FX_STREAM);
	CHECK_STR(sval(args, "Task Type"), w->task_id == 1 ? "MEMCPY" : "AI_CORE");
	/* the flow: f at this task's start, s at the call that submitted it */
	id = json_object_get(args, "connection_id");
	CHECK(id != NULL);
	f = find_flow(evs, "f", DEV_PID, id);
	s = find_flow(evs, "s", HOST_PID, id);
	CHECK(f && s);
	if (!f || !s)
		return;
	CHECK_STR(sval(f, "ts"), sval(x, "ts"));
	CHECK_STR(sval(f, "bp"), "e");
	CHECK_STR(sval(f, "cat"), "HostToDevice");
	CHECK_STR(sval(s, "cat"), "HostToDevice");
	CHECK_EQ(ival(f, "tid"), FX_STREAM);
	CHECK_EQ(ival(s, "tid"), FX_TID);
	CHECK_STR(sval(s, "ts"), w->call_ts);
	CHECK(find_x(evs, HOST_PID, w->task_id == 1 ? "aclrtMemcpyAsync" : "aclrtLaunchKernel",
		     w->call_ts) != NULL);
}

static void check_calls(json_t *evs)
{
	json_t *x = find_x(evs, HOST_PID, "aclrtSynchronizeStream", "1000005000.000");

	CHECK(x != NULL);
	if (x) {
		CHECK(fabs(json_real_value(json_object_get(x, "dur")) - 43500.0) < 1e-9);
		CHECK_STR(sval(json_object_get(x, "args"), "level"), "AscendCL");
		CHECK_STR(sval(json_object_get(x, "args"), "Sync Wait(us)"), "43400.000");
	}
	x = find_x(evs, HOST_PID, "aclrtMalloc", "1000000100.000");
	CHECK(x != NULL);
	if (x) {
		CHECK_EQ(ival(x, "tid"), FX_TID2);
		CHECK_EQ(ival(json_object_get(x, "args"), "Bytes"), 1024);
	}
}

/*
 * Task 4, cut by the window's end (@cut): clamped to end_info's clock,
 * marked; else left out.
 */
static void check_cut_task(json_t *evs, int cut)
{
	json_t *x = find_x(evs, DEV_PID, "add_custom", "1000050000.000"), *args, *f;

	CHECK_EQ(x != NULL, cut);
	if (!x)
		return;
	args = json_object_get(x, "args");
	CHECK(json_real_value(json_object_get(x, "dur")) == 1000.0);
	CHECK_STR(sval(args, "cut"), "end");
	CHECK_EQ(ival(args, "Task Id"), 4);
	CHECK(json_object_get(args, "Device Start(count)") != NULL);
	CHECK(json_object_get(args, "Device End(count)") == NULL);
	CHECK_EQ(ival(args, "connection_id"), 4);
	f = find_flow(evs, "f", DEV_PID, json_object_get(args, "connection_id"));
	CHECK(f != NULL);
	if (f)
		CHECK_STR(sval(f, "ts"), "1000050000.000");
	CHECK(find_flow(evs, "s", HOST_PID, json_object_get(args, "connection_id")) != NULL);
}

/* Say in @prof's info.json that no record was lost. */
static int nothing_lost(const char *prof)
{
	char path[1024];
	json_t *info;
	int err;

	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	info = json_load_file(path, 0, NULL);
	if (!info)
		return -EIO;
	json_object_set_new(info, "lost", json_pack("{s:i, s:i, s:i}", "ring_full", 0,
						    "write_error", 0, "decode_error", 0));
	err = json_dump_file(info, path, JSON_INDENT(2)) ? -EIO : 0;
	json_decref(info);
	return err;
}

/* Export the fixture in @root; @cut: nothing was lost, task 4 is cut. */
static void export_and_check(const char *root, const char *prof, int cut)
{
	struct msprof_export_opts opts = { 0 };
	char path[1024];
	json_t *evs;
	size_t i;

	opts.output = root;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	CHECK(json_is_array(evs));
	if (json_is_array(evs)) {
		count_events(evs, cut);
		check_meta(evs);
		if (!cut)
			check_outcome(evs);
		for (i = 0; i < sizeof(want_tasks) / sizeof(want_tasks[0]); i++)
			check_task(evs, &want_tasks[i]);
		check_calls(evs);
		check_cut_task(evs, cut);
	}
	json_decref(evs);
}

int main(void)
{
	char root[256], prof[512], root2[256], prof2[512];

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0) ||
	    fx_tmpdir(root2, sizeof(root2)) || fx_build(root2, prof2, sizeof(prof2), 1, 0) ||
	    nothing_lost(prof2)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	export_and_check(root, prof, 0);
	export_and_check(root2, prof2, 1);
	fx_rmtree(root);
	fx_rmtree(root2);
	return CHECK_DONE();
}
