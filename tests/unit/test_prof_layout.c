// SPDX-License-Identifier: MIT
/*
 * Description: the PROF_XXX layout names (npuprof/prof_layout.h) round
 * trip and refuse everything else: device directory names parse back to
 * their id for 0, 7 and UINT32_MAX and "device_", "device_1x",
 * "device_-1", "device_+1", "device_01", "device_ 1" and
 * "device_99999999999" are refused; a PROF_XXX name built from its parts
 * parses back to them, one made from a clock names the pid and local time
 * to the ms, and names with a lower-case, short or missing prefix, a bad
 * letter, a short stamp or a tail are refused by the parser (the loose
 * match still takes other tools' "PROF_*"); series, slice and .done names
 * are exact; the device directories of a PROF dir list sorted, skipping
 * names that do not parse; a name that does not fit is -ENAMETOOLONG.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"
#include <npuprof/prof_layout.h>

static void check_device_names(void)
{
	static const uint32_t ids[] = { 0, 7, 10, 4294967295u };
	static const char *const bad[] = {
		"device_",   "device_1x",  "device_-1", "device_+1",	     "device_01",
		"device_ 1", "device_1 ",  "Device_1",  "device_99999999999", "device_4294967296",
		"devices_1", "host",	   "",		"device1",
	};
	char buf[32];
	uint32_t id;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		id = 12345;
		CHECK_EQ(npuprof_device_dir_name(buf, sizeof(buf), ids[i]), 0);
		CHECK_EQ(npuprof_device_dir_parse(buf, &id), 0);
		CHECK_EQ(id, ids[i]);
	}
	npuprof_device_dir_name(buf, sizeof(buf), 7);
	CHECK_STR(buf, "device_7");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		id = 12345;
		if (npuprof_device_dir_parse(bad[i], &id) != -EINVAL)
			fprintf(stderr, "accepted \"%s\"\n", bad[i]);
		CHECK_EQ(npuprof_device_dir_parse(bad[i], &id), -EINVAL);
		CHECK_EQ(id, 12345); /* untouched */
	}
	CHECK_EQ(npuprof_device_dir_name(buf, 9, 7), 0); /* "device_7" + NUL */
	CHECK_EQ(npuprof_device_dir_name(buf, 9, 10), -ENAMETOOLONG);
}

static void check_prof_names(void)
{
	static const char *const bad[] = {
		"PROF_",
		"prof_000001_20261201002754123_00004242ABCDEFGH",
		"PROF000001_20261201002754123_00004242ABCDEFGH",
		"PROF__000001_20261201002754123_00004242ABCDEFGH",
		"PROF_000001_20261201002754123_00004242ABCDEFGS", /* S: past R */
		"PROF_000001_20261201002754123_00004242ABCDEFGh",
		"PROF_000001_2026120100275412_00004242ABCDEFGH",  /* 16-digit stamp */
		"PROF_000001_20261201002754123_00004242ABCDEFGHI", /* a tail */
		"PROF_00000A_20261201002754123_00004242ABCDEFGH",
		"PROF_000001-20261201002754123_00004242ABCDEFGH",
		"PROF_000001_20261201002754123_0004242ABCDEFGHA",
	};
	struct npuprof_prof_name n = { .index = 1, .stamp = "20261201002754123", .pid = 4242,
				       .letters = "ABCDEFGR" }, back;
	struct timespec now = { .tv_sec = 1700000000, .tv_nsec = 987654321 };
	char buf[NPUPROF_PROF_NAME_SIZE], want[32];
	struct tm tm;

	CHECK_EQ(npuprof_prof_name_build(buf, sizeof(buf), &n), 0);
	CHECK_STR(buf, "PROF_000001_20261201002754123_00004242ABCDEFGR");
	CHECK_EQ(npuprof_prof_name_parse(buf, &back), 0);
	CHECK_EQ(back.index, 1);
	CHECK_STR(back.stamp, n.stamp);
	CHECK_EQ(back.pid, 4242);
	CHECK_STR(back.letters, n.letters);
	CHECK_EQ(npuprof_prof_name_match(buf), 1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (npuprof_prof_name_parse(bad[i], &back) != -EINVAL)
			fprintf(stderr, "parsed \"%s\"\n", bad[i]);
		CHECK_EQ(npuprof_prof_name_parse(bad[i], &back), -EINVAL);
	}
	/* the export takes any PROF_*: other tools name the rest their way */
	CHECK_EQ(npuprof_prof_name_match("PROF_x"), 1);
	CHECK_EQ(npuprof_prof_name_match("PROF_"), 0);
	CHECK_EQ(npuprof_prof_name_match("prof_x"), 0);
	CHECK_EQ(npuprof_prof_name_match("PROFx"), 0);

	n.letters[0] = 'Z';
	CHECK_EQ(npuprof_prof_name_build(buf, sizeof(buf), &n), -EINVAL);
	n.letters[0] = 'A';
	n.pid = 100000000;
	CHECK_EQ(npuprof_prof_name_build(buf, sizeof(buf), &n), -EINVAL);
	n.pid = 4242;
	CHECK_EQ(npuprof_prof_name_build(buf, 20, &n), -ENAMETOOLONG);

	/* made from a clock: local time to the ms, the pid, letters that parse */
	CHECK_EQ(npuprof_prof_name_make(buf, sizeof(buf), 4242, &now, 1), 0);
	CHECK_EQ(npuprof_prof_name_parse(buf, &back), 0);
	localtime_r(&now.tv_sec, &tm);
	strftime(want, sizeof(want), "%Y%m%d%H%M%S987", &tm);
	CHECK_STR(back.stamp, want);
	CHECK_EQ(back.pid, 4242);
	CHECK_EQ(back.index, 1);
	CHECK_EQ(npuprof_prof_name_make(want, sizeof(want), 4242, &now, 1), -ENAMETOOLONG);
	/* another seed draws other letters */
	{
		char other[NPUPROF_PROF_NAME_SIZE];

		CHECK_EQ(npuprof_prof_name_make(other, sizeof(other), 4242, &now, 2), 0);
		CHECK(strcmp(other, buf) != 0);
	}
}

static void check_series_names(void)
{
	char buf[NPUPROF_PROF_SERIES_SIZE];

	CHECK_EQ(npuprof_series_dir(buf, sizeof(buf), NPUPROF_PROF_HOST), 0);
	CHECK_STR(buf, "host/data");
	CHECK_EQ(npuprof_series_dir(buf, sizeof(buf), 3), 0);
	CHECK_STR(buf, "device_3/data");
	CHECK_EQ(npuprof_series_dir(buf, sizeof(buf), 4294967295L), 0);
	CHECK_STR(buf, "device_4294967295/data");
	CHECK_EQ(npuprof_series_dir(buf, sizeof(buf), -2), -EINVAL);
	CHECK_EQ(npuprof_series_dir(buf, sizeof(buf), 4294967296L), -EINVAL);
	CHECK_EQ(npuprof_series_name(buf, sizeof(buf), NPUPROF_PROF_HOST), 0);
	CHECK_STR(buf, "npuprof.api");
	CHECK_EQ(npuprof_series_name(buf, sizeof(buf), 3), 0);
	CHECK_STR(buf, "npuprof.task.3");
	CHECK_EQ(npuprof_slice_name(buf, sizeof(buf), "npuprof.task.3", 12), 0);
	CHECK_STR(buf, "npuprof.task.3.slice_12");
	CHECK_EQ(npuprof_slice_done_name(buf, sizeof(buf), "npuprof.api.slice_0"), 0);
	CHECK_STR(buf, "npuprof.api.slice_0.done");
	CHECK_EQ(npuprof_slice_name(buf, 19, "npuprof.api", 0), -ENAMETOOLONG);
	CHECK_EQ(npuprof_slice_name(buf, 20, "npuprof.api", 0), 0);
}

static void check_device_listing(void)
{
	static const char *const dirs[] = { "device_10", "device_2", "device_0", "device_01",
					    "device_x", "host", "device_" };
	char dir[] = "/tmp/test_prof_layout.XXXXXX", path[128];
	uint32_t *ids = (uint32_t *)1;

	if (!mkdtemp(dir))
		CHECK_SKIP("mkdtemp");
	CHECK_EQ(npuprof_prof_devices(dir, &ids), 0);
	CHECK(ids == NULL);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		CHECK_EQ(mkdir(path, 0700), 0);
	}
	CHECK_EQ(npuprof_prof_devices(dir, &ids), 3);
	if (ids) {
		CHECK_EQ(ids[0], 0);
		CHECK_EQ(ids[1], 2);
		CHECK_EQ(ids[2], 10);
	}
	free(ids);
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK_EQ(npuprof_prof_devices(path, &ids), -ENOENT);
	tmpdir_remove(dir);
}

/* A device's control files and the temporary names they are written under. */
static void check_ctrl_names(void)
{
	char buf[NPUPROF_PROF_SERIES_SIZE];

	CHECK_EQ(npuprof_device_ctrl_name(buf, sizeof(buf), 3, NPUPROF_CTRL_START_INFO), 0);
	CHECK_STR(buf, "device_3/start_info.3");
	CHECK_EQ(npuprof_device_ctrl_name(buf, sizeof(buf), 3, NPUPROF_CTRL_END_INFO), 0);
	CHECK_STR(buf, "device_3/end_info.3");
	CHECK_EQ(npuprof_device_ctrl_name(buf, sizeof(buf), 4294967295u, NPUPROF_CTRL_INFO_JSON),
		 0);
	CHECK_STR(buf, "device_4294967295/info.json.4294967295");
	CHECK_EQ(npuprof_device_ctrl_name(buf, sizeof(buf), 0, NPUPROF_CTRL_SAMPLE_JSON), 0);
	CHECK_STR(buf, "device_0/sample.json");
	CHECK_EQ(npuprof_device_ctrl_name(buf, sizeof(buf), 0, (enum npuprof_ctrl_file)9), -EINVAL);
	CHECK_EQ(npuprof_device_ctrl_name(buf, 20, 12, NPUPROF_CTRL_INFO_JSON), -ENAMETOOLONG);
	CHECK_EQ(npuprof_ctrl_tmp_name(buf, sizeof(buf), NPUPROF_PROF_INFO_JSON), 0);
	CHECK_STR(buf, "host/.info.json.tmp");
	CHECK_EQ(npuprof_ctrl_tmp_name(buf, sizeof(buf), "device_3/start_info.3"), 0);
	CHECK_STR(buf, "device_3/.start_info.3.tmp");
	CHECK_EQ(npuprof_ctrl_tmp_name(buf, sizeof(buf), "x"), 0);
	CHECK_STR(buf, ".x.tmp");
}

int main(void)
{
	check_ctrl_names();
	check_device_names();
	check_prof_names();
	check_series_names();
	check_device_listing();
	return CHECK_DONE();
}
