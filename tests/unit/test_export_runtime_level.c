// SPDX-License-Identifier: MIT
/*
 * Description: a capture with both CANN levels (--runtime-api=on) exports
 * them apart and nested.  The fixture's host data has each ACL call with
 * the runtime call it made inside it (aclrtMemcpyAsync > MemcpyAsync,
 * two aclrtLaunchKernel > KernelLaunch), and the tasks' SUBMIT times fall
 * inside both.  api_statistic has one row per API with its Level,
 * "AscendCL" or "Runtime" (msprof's level names), exact figures; in the
 * timeline every runtime call is an X event of cat "Runtime" with args
 * level "Runtime" on its ACL call's thread, inside it; each task's
 * HostToDevice flow starts at the innermost call that submitted it, the
 * runtime call (export_join.c); the ACL calls keep cat and level
 * "AscendCL".
 */
#include <jansson.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

static const char api_statistic[] =
	"Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n"
	"host,AscendCL,aclrtLaunchKernel,8.000,2,4.000,2.000,6.000,4.000\n"
	"host,Runtime,KernelLaunch,6.000,2,3.000,1.500,4.500,2.250\n"
	"host,AscendCL,aclrtMemcpyAsync,4.000,1,4.000,4.000,4.000,0.000\n"
	"host,Runtime,MemcpyAsync,3.000,1,3.000,3.000,3.000,0.000\n";

/* Each ACL call (ts) and the runtime call inside it (ts), as the timeline writes them. */
static const struct {
	const char *acl, *acl_ts, *rt, *rt_ts;
	uint32_t task_id;
} nested[] = {
	{ "aclrtMemcpyAsync", "1000001000.000", "MemcpyAsync", "1000001000.500", 1 },
	{ "aclrtLaunchKernel", "1000002000.000", "KernelLaunch", "1000002000.200", 2 },
	{ "aclrtLaunchKernel", "1000003000.000", "KernelLaunch", "1000003000.300", 3 },
};

/* ACL calls with a runtime call inside; the submits of tasks 1-3 inside both. */
static int host_data(const char *prof)
{
	struct fx_buf *b = calloc(1, sizeof(*b));
	char dir[1024];
	int err;

	if (!b)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	fx_stream_hdr(b, NPUPROF_SRC_BPF, 0, -1);
	fx_api(b, NPUPROF_API_RT_MEMCPY_ASYNC, 1 * FX_MS, 4000, FX_TID, 0xabc, 4096, NULL);
	fx_api(b, NPUPROF_API_RTS_MEMCPY_ASYNC, 1 * FX_MS + 500, 3000, FX_TID, 0xabc, 4096, NULL);
	fx_api(b, NPUPROF_API_RT_LAUNCH_KERNEL, 2 * FX_MS, 2000, FX_TID, 0xabc, 0, NULL);
	fx_api(b, NPUPROF_API_RTS_KERNEL_LAUNCH, 2 * FX_MS + 200, 1500, FX_TID, 0xabc, 0, NULL);
	fx_api(b, NPUPROF_API_RT_LAUNCH_KERNEL, 3 * FX_MS, 6000, FX_TID, 0xabc, 0, NULL);
	fx_api(b, NPUPROF_API_RTS_KERNEL_LAUNCH, 3 * FX_MS + 300, 4500, FX_TID, 0xabc, 0, NULL);
	err = fx_write_slice(dir, "npuprof.api", 0, b, 7, 0, 1);
	free(b);
	return err;
}

static const char *sval(json_t *ev, const char *key)
{
	return json_string_value(json_object_get(ev, key)) ?: "";
}

/* The event of phase @ph named @name at @ts (NULL: any), or NULL. */
static json_t *find_ev(json_t *evs, const char *ph, const char *name, const char *ts)
{
	json_t *ev;
	size_t i;

	json_array_foreach(evs, i, ev)
		if (!strcmp(sval(ev, "ph"), ph) && !strcmp(sval(ev, "name"), name) &&
		    (!ts || !strcmp(sval(ev, "ts"), ts)))
			return ev;
	return NULL;
}

/* The flow end @ph of connection @id, or NULL. */
static json_t *find_flow(json_t *evs, const char *ph, json_t *id)
{
	json_t *ev;
	size_t i;

	json_array_foreach(evs, i, ev)
		if (!strcmp(sval(ev, "ph"), ph) && !strcmp(sval(ev, "cat"), "HostToDevice") &&
		    json_equal(json_object_get(ev, "id"), id))
			return ev;
	return NULL;
}

static double end_us(json_t *x)
{
	return strtod(sval(x, "ts"), NULL) + json_real_value(json_object_get(x, "dur"));
}

static void check_pair(json_t *evs, unsigned int i)
{
	json_t *acl = find_ev(evs, "X", nested[i].acl, nested[i].acl_ts);
	json_t *rt = find_ev(evs, "X", nested[i].rt, nested[i].rt_ts);
	json_t *id = NULL, *ev, *s;
	size_t k;

	CHECK(acl && rt);
	if (!acl || !rt)
		return;
	CHECK_STR(sval(acl, "cat"), "AscendCL");
	CHECK_STR(sval(json_object_get(acl, "args"), "level"), "AscendCL");
	CHECK_STR(sval(rt, "cat"), "Runtime");
	CHECK_STR(sval(json_object_get(rt, "args"), "level"), "Runtime");
	CHECK_EQ(json_integer_value(json_object_get(rt, "tid")), FX_TID);
	CHECK(json_equal(json_object_get(rt, "pid"), json_object_get(acl, "pid")));
	CHECK(end_us(rt) <= end_us(acl));
	/* the task's flow starts on the runtime call, not its ACL caller */
	json_array_foreach(evs, k, ev)
		if (!strcmp(sval(ev, "ph"), "X") &&
		    json_integer_value(json_object_get(json_object_get(ev, "args"), "Task Id")) ==
			    nested[i].task_id)
			id = json_object_get(json_object_get(ev, "args"), "connection_id");
	CHECK(id != NULL);
	s = id ? find_flow(evs, "s", id) : NULL;
	CHECK(s != NULL);
	if (s)
		CHECK_STR(sval(s, "ts"), nested[i].rt_ts);
}

int main(void)
{
	char root[256], prof[512], path[1024], *csv;
	struct msprof_export_opts opts = { 0 };
	json_t *evs;
	unsigned int i;

	if (fx_tmpdir(root, sizeof(root))) {
		fprintf(stderr, "cannot make a directory in /tmp\n");
		return 1;
	}
	snprintf(prof, sizeof(prof), "%s/" FX_PROF_NAME, root);
	if (fx_mkdirs(prof) || fx_control_files(prof) || host_data(prof) ||
	    fx_device_data(prof, 0, 0)) {
		fprintf(stderr, "cannot build the fixture in %s\n", root);
		return 1;
	}
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_find_output(prof, "api_statistic_", ".csv", path, sizeof(path)), 1);
	csv = fx_slurp(path);
	CHECK_STR(csv, api_statistic);
	free(csv);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	CHECK(json_is_array(evs));
	for (i = 0; json_is_array(evs) && i < sizeof(nested) / sizeof(nested[0]); i++)
		check_pair(evs, i);
	json_decref(evs);
	fx_rmtree(root);
	return CHECK_DONE();
}
