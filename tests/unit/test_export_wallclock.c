// SPDX-License-Identifier: MIT
/*
 * Description: exported times are wall-clock us, as msprof's: start_info
 * pairs the capture clock (clockMonotonic, ns) with the wall clock
 * (collectionTimeBegin, us since the epoch), and every absolute time in
 * the timeline and the CSVs moves by that offset while durations stay.
 * The fixture's MEMCPY task starts at monotonic 1000010000.000 us; with
 * collectionTimeBegin 1767268800000000 us at clockMonotonic
 * 999990000000 ns it must start at 1767268800020000.000 us.  A garbled
 * or overflowing collectionTimeBegin (regression: it was multiplied by
 * 1000 unchecked) leaves the times monotonic: 1000010000.000 us.
 */
#include <jansson.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

static const char start_info[] =
	"{\"collectionDateBegin\": \"2026-01-01 12:00:00\", "
	"\"collectionTimeBegin\": \"1767268800000000\", "
	"\"clockMonotonicRaw\": 999000000000, \"clockMonotonic\": 999990000000}\n";

static const char garbled_start_info[] =
	"{\"collectionTimeBegin\": \"99999999999999999999\", \"clockMonotonic\": 999990000000}\n";

static json_t *find_task(json_t *evs, const char *name)
{
	json_t *ev;
	size_t i;

	json_array_foreach(evs, i, ev) {
		const char *ph = json_string_value(json_object_get(ev, "ph"));
		const char *n = json_string_value(json_object_get(ev, "name"));

		if (ph && n && !strcmp(ph, "X") && !strcmp(n, name))
			return ev;
	}
	return NULL;
}

int main(void)
{
	char root[256], prof[512], path[1024];
	struct msprof_export_opts opts = { 0 };
	json_t *evs, *x;
	char *csv;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0))
		return 1;
	snprintf(path, sizeof(path), "%s/host/start_info", prof);
	if (fx_write_file(path, start_info, strlen(start_info)))
		return 1;
	opts.output = root;
	CHECK_EQ(msprof_export(&opts), 0);

	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	x = evs ? find_task(evs, "MEMCPY") : NULL;
	CHECK(x != NULL);
	if (x) {
		CHECK_STR(json_string_value(json_object_get(x, "ts")), "1767268800020000.000");
		CHECK(json_real_value(json_object_get(x, "dur")) == 4000.0);
	}
	json_decref(evs);

	CHECK_EQ(fx_find_output(prof, "task_time_", ".csv", path, sizeof(path)), 1);
	csv = fx_slurp(path);
	CHECK(csv && strstr(csv, "0,MEMCPY,MEMCPY,3,1,4000.000,1767268800020000.000,"
				 "1767268800024000.000\n"));
	free(csv);

	snprintf(path, sizeof(path), "%s/host/start_info", prof);
	if (fx_write_file(path, garbled_start_info, strlen(garbled_start_info)))
		return 1;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	x = evs ? find_task(evs, "MEMCPY") : NULL;
	CHECK(x != NULL);
	if (x)
		CHECK_STR(json_string_value(json_object_get(x, "ts")), "1000010000.000");
	json_decref(evs);
	fx_rmtree(root);
	return CHECK_DONE();
}
