// SPDX-License-Identifier: MIT
/*
 * Description: an export of a PROF dir that --storage-limit aged: the
 * fixture's host/data/npuprof.api.slice_0 (3 calls) and its .done are
 * removed and info.json says so ("storageLimit": 1 slice, its bytes, 3
 * records).  The export reads the series from slice_1 (the 3 later calls:
 * exactly 3 AscendCL events in the timeline), counts the directory as
 * incomplete, and names the reason, in the summary and in the timeline's
 * "npuprof_capture" metadata: "1 oldest slices (B bytes, 3 records)
 * removed at capture by --storage-limit", B the removed slice's size.
 */
#include <jansson.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

/* Age slice_0 out as the drain does; Return: its size, or -errno. */
static long long age_slice0(const char *prof)
{
	char path[1024];
	struct stat sb;
	json_t *info;
	int err;

	snprintf(path, sizeof(path), "%s/host/data/npuprof.api.slice_0", prof);
	if (stat(path, &sb) || unlink(path))
		return -errno;
	strcat(path, ".done");
	if (unlink(path))
		return -errno;
	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	info = json_load_file(path, 0, NULL);
	if (!info)
		return -EIO;
	json_object_set_new(info, "storageLimit",
			    json_pack("{s:I, s:I, s:I, s:I}", "limitBytes", (json_int_t)200 << 20,
				      "agedSlices", (json_int_t)1, "agedBytes",
				      (json_int_t)sb.st_size, "agedRecords", (json_int_t)3));
	err = json_dump_file(info, path, JSON_INDENT(2)) ? -EIO : 0;
	json_decref(info);
	return err ? err : (long long)sb.st_size;
}

static size_t acl_events(json_t *evs)
{
	size_t i, n = 0;
	json_t *e;

	json_array_foreach(evs, i, e)
		n += !strcmp(json_string_value(json_object_get(e, "ph")) ?: "", "X") &&
		     !strcmp(json_string_value(json_object_get(e, "cat")) ?: "", "AscendCL");
	return n;
}

int main(void)
{
	char root[256], prof[512], out[600], path[2048], want[256];
	struct msprof_export_opts opts = { 0 };
	long long bytes;
	json_t *evs, *args;
	char *text;
	int saved;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0) ||
	    (bytes = age_slice0(prof)) <= 0) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	snprintf(want, sizeof(want),
		 "1 oldest slices (%lld bytes, 3 records) removed at capture by --storage-limit", bytes);
	snprintf(out, sizeof(out), "%s/stdout.txt", root);
	opts.output = prof;
	opts.print_summary = 1;
	saved = fx_fd_to(1, out);
	CHECK_EQ(msprof_export(&opts), 0);
	fx_fd_back(1, saved);
	CHECK_EQ(opts.incomplete, 1);
	text = fx_slurp(out);
	CHECK(text && strstr(text, want));
	if (check_failures && text)
		fputs(text, stderr);
	free(text);

	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	CHECK_EQ(acl_events(evs), 3);
	args = fx_capture_args(evs);
	CHECK(json_is_false(json_object_get(args, "complete")));
	text = json_dumps(json_object_get(args, "incomplete"), 0);
	CHECK(text && strstr(text, want));
	free(text);
	json_decref(evs);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
