// SPDX-License-Identifier: MIT
/*
 * Description: records lost by cause and by CPU go from info.json into the
 * export's summary and timeline metadata with every count intact.  The
 * fixture's info.json gets a "lost" object written with the session's own
 * layout code (npuprof_loss_json, npuprof_loss_by_cpu_json): ring full 5,
 * write error 7, decode error 3; CPU 1 lost 5 + 3 + 0, CPU 3 0 + 4 + 3,
 * CPU 2 nothing (left out of "byCpu").  It replaces the 7 records the
 * fixture's LOST records count.  The summary prints "Records lost: 15
 * (ring full: 5, write error: 7, decode error: 3)" and one line per CPU
 * that lost records; the timeline's "npuprof_capture" metadata carries the
 * same counts and a reason "15 records lost (...)"; the export counts the
 * directory as incomplete.
 */
#include <jansson.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

#include <npuprof/loss_json.h>

static const struct npuprof_loss total = { .n = { 5, 7, 3 } };
static const struct npuprof_loss cpus[] = {
	{ .n = { 0, 0, 0 }, .cpu = 0 },
	{ .n = { 5, 3, 0 }, .cpu = 1 },
	{ .n = { 0, 0, 0 }, .cpu = 2 },
	{ .n = { 0, 4, 3 }, .cpu = 3 },
};

/* Rewrite host/info.json with a "lost" object. */
static int write_info(const char *prof)
{
	char path[1024];
	json_t *info, *lost = npuprof_loss_json(&total, 0);
	int err;

	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	info = json_load_file(path, 0, NULL);
	if (!info || !lost)
		return -EIO;
	json_object_set_new(lost, "byCpu", npuprof_loss_by_cpu_json(cpus, 4));
	json_object_set_new(info, "lost", lost);
	err = json_dump_file(info, path, JSON_INDENT(2)) ? -EIO : 0;
	json_decref(info);
	return err;
}

/* Run the export with stdout in @out_path. */
static int export_to(const char *prof, const char *out_path, struct msprof_export_opts *opts)
{
	int saved = fx_fd_to(1, out_path), rc;

	opts->output = prof;
	opts->print_summary = 1;
	rc = msprof_export(opts);
	fx_fd_back(1, saved);
	return rc;
}

static int64_t count(json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static void check_metadata(const char *prof)
{
	char path[2048];
	json_t *evs, *args, *lost, *by, *c;

	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	args = fx_capture_args(evs);
	CHECK(json_is_false(json_object_get(args, "complete")));
	CHECK_STR(json_string_value(json_array_get(json_object_get(args, "incomplete"), 0)),
		  "15 records lost (ring full: 5, write error: 7, decode error: 3)");
	lost = json_object_get(args, "lost");
	CHECK_EQ(count(lost, "total"), 15);
	CHECK_EQ(count(lost, "ring_full"), 5);
	CHECK_EQ(count(lost, "write_error"), 7);
	CHECK_EQ(count(lost, "decode_error"), 3);
	by = json_object_get(lost, "byCpu");
	CHECK_EQ(json_array_size(by), 2);
	c = json_array_get(by, 0);
	CHECK_EQ(count(c, "cpu"), 1);
	CHECK_EQ(count(c, "total"), 8);
	CHECK_EQ(count(c, "ring_full"), 5);
	CHECK_EQ(count(c, "write_error"), 3);
	CHECK_EQ(count(c, "decode_error"), 0);
	c = json_array_get(by, 1);
	CHECK_EQ(count(c, "cpu"), 3);
	CHECK_EQ(count(c, "total"), 7);
	CHECK_EQ(count(c, "ring_full"), 0);
	CHECK_EQ(count(c, "write_error"), 4);
	CHECK_EQ(count(c, "decode_error"), 3);
	json_decref(evs);
}

int main(void)
{
	char root[256], prof[512], out[600];
	struct msprof_export_opts opts = { 0 };
	char *text;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0) ||
	    write_info(prof)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	snprintf(out, sizeof(out), "%s/stdout.txt", root);
	CHECK_EQ(export_to(prof, out, &opts), 0);
	CHECK_EQ(opts.incomplete, 1);
	text = fx_slurp(out);
	CHECK(text && strstr(text, "\n  Records lost: 15 (ring full: 5, write error: 7, decode error: 3)\n"
				   "    CPU 1: 8 (ring full: 5, write error: 3, decode error: 0)\n"
				   "    CPU 3: 7 (ring full: 0, write error: 4, decode error: 3)\n"));
	CHECK(text && strstr(text, "\n    - 15 records lost (ring full: 5, write error: 7, decode error: 3)\n"));
	if (check_failures && text)
		fputs(text, stderr);
	free(text);
	check_metadata(prof);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
