// SPDX-License-Identifier: MIT
/*
 * Description: info.json says, per device, where task timing came from
 * ("taskTiming"), and the readers get it back (npuprof/prof_control.h).
 * host/info.json lists every device with "device": device 0 read through
 * its log ("beginEnd" "device log (channel 50)", "beginEndOutcome"
 * "deviceLog", the reader's counts in "deviceLog": begins 10, ends 9,
 * skipped 2, countGaps 3, ringDrops 1, unattributed 4), device 1 refused
 * ("none: another process collects device 1's log (another process)",
 * "taken", no counts); info.json.1 holds device 1's entry alone, as an
 * object without "device".  The device log's rings are listed under
 * "rings" "devlog" by device.  npuprof_ctrl_info_read() returns both
 * entries in file order with their words, and an info.json without the
 * key reads as none.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>
#include <npuprof/prof_control.h>
#include <npuprof/prof_layout.h>
#include <npuprof/record.h>

#include "check.h"
#include "tmpdir.h"

int main(void)
{
	char dir[] = "/tmp/npuprof-timing-XXXXXX", path[600];
	struct npuprof_ctrl_timing t[2] = {
		{ .device = 0, .submit = "halSqTaskSend uprobe",
		  .begin_end = "device log (channel 50)", .outcome = "deviceLog", .has_log = true,
		  .begins = 10, .ends = 9, .skipped = 2, .gaps = 3, .ring_drops = 1,
		  .unattributed = 4 },
		{ .device = 1, .submit = "halSqTaskSend uprobe",
		  .begin_end = "none: another process collects device 1's log (another process)",
		  .outcome = "taken" },
	};
	struct npuprof_ctrl_ring rings[1] = { { NPUPROF_SRC_DEVLOG, 0, 19, 4 } };
	struct npuprof_ctrl_identity id = { .pid = 7, .name = "app", .name_len = 3,
					    .host = "h", .host_len = 1, .platform = "ascend",
					    .rank = -1 };
	struct npuprof_ctrl_info info = { .has_devlog = true, .rings = rings, .nr_rings = 1 };
	struct npuprof_ctrl_info_parsed got;
	struct npuprof_loss loss = { { 0 }, 0 };
	json_t *doc, *o;
	int fd, err;

	if (!mkdtemp(dir))
		CHECK_SKIP("no temp dir");
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	info.loss = &loss;
	info.driver = (struct npuprof_ctrl_driver){ .backend = "ascend", .module = "",
						    .reason = "", .timing = t, .nr_timing = 2 };
	CHECK_EQ(mkdirat(fd, "host", 0755), 0);
	CHECK_EQ(mkdirat(fd, "device_1", 0755), 0);
	CHECK_EQ(npuprof_ctrl_write(fd, NPUPROF_PROF_INFO_JSON, npuprof_ctrl_info_json(&id, &info)), 0);
	CHECK_EQ(npuprof_ctrl_write(fd, "device_1/info.json.1",
				    npuprof_ctrl_device_info_json(&id, 1, NULL, &info.driver)),
		 0);

	snprintf(path, sizeof(path), "%s/%s", dir, NPUPROF_PROF_INFO_JSON);
	doc = npuprof_ctrl_load(path, &err);
	CHECK(doc != NULL);
	o = json_array_get(json_object_get(doc, "taskTiming"), 0);
	CHECK_EQ(json_integer_value(json_object_get(o, "device")), 0);
	CHECK_STR(json_string_value(json_object_get(o, "beginEndOutcome")), "deviceLog");
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(o, "deviceLog"), "countGaps")), 3);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(o, "deviceLog"), "ringDrops")), 1);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(o, "deviceLog"), "begins")), 10);
	o = json_array_get(json_object_get(doc, "taskTiming"), 1);
	CHECK(json_object_get(o, "deviceLog") == NULL);
	o = json_array_get(json_object_get(json_object_get(doc, "rings"), "devlog"), 0);
	CHECK_EQ(json_integer_value(json_object_get(o, "device")), 0);
	CHECK_EQ(json_integer_value(json_object_get(o, "lost")), 4);
	json_decref(doc);

	snprintf(path, sizeof(path), "%s/device_1/info.json.1", dir);
	doc = npuprof_ctrl_load(path, &err);
	CHECK(doc != NULL);
	o = json_object_get(doc, "taskTiming");
	CHECK(json_is_object(o));
	CHECK(json_object_get(o, "device") == NULL);
	CHECK_STR(json_string_value(json_object_get(o, "beginEndOutcome")), "taken");
	CHECK_STR(json_string_value(json_object_get(o, "submit")), "halSqTaskSend uprobe");
	json_decref(doc);

	snprintf(path, sizeof(path), "%s/%s", dir, NPUPROF_PROF_INFO_JSON);
	CHECK_EQ(npuprof_ctrl_info_read(path, &got), 0);
	CHECK_EQ(got.nr_timing, 2);
	if (got.nr_timing == 2) {
		CHECK_EQ(got.timing[0].device, 0);
		CHECK_STR(got.timing[0].outcome, "deviceLog");
		CHECK_STR(got.timing[0].begin_end, "device log (channel 50)");
		CHECK_STR(got.timing[0].submit, "halSqTaskSend uprobe");
		CHECK_EQ(got.timing[0].gaps, 3);
		CHECK_EQ(got.timing[1].gaps, 0);
		CHECK_EQ(got.timing[1].device, 1);
		CHECK_STR(got.timing[1].outcome, "taken");
		CHECK_STR(got.timing[1].begin_end,
			  "none: another process collects device 1's log (another process)");
	}
	CHECK_EQ(got.ring_lost, 4);
	npuprof_ctrl_info_free(&got);

	/* an info.json without the key: none */
	info.driver.nr_timing = 0;
	snprintf(path, sizeof(path), "%s/host/info2.json", dir);
	CHECK_EQ(npuprof_ctrl_write(fd, "host/info2.json", npuprof_ctrl_info_json(&id, &info)), 0);
	CHECK_EQ(npuprof_ctrl_info_read(path, &got), 0);
	CHECK_EQ(got.nr_timing, 0);
	CHECK(got.timing == NULL);
	npuprof_ctrl_info_free(&got);
	close(fd);
	if (!check_failures)
		tmpdir_remove(dir);
	return CHECK_DONE();
}
