// SPDX-License-Identifier: MIT
/*
 * Description: every way a device's log can be refused is its own
 * outcome, with its own words, and the reader holds and releases exactly
 * the channels it started.  The stand-in libascend_hal.so scripts eight
 * devices: 0 lists no channel 50 (noChannel: "device 0 offers no task
 * log"); 1 answers -10 while a process named msprof runs (taken, naming
 * "pid 1234, msprof" from the fake /proc); 2 and 3 answer -12 and -13
 * (container, each side worded); 4 answers 115 until halDeviceOpen
 * succeeds, then starts (owned, the device opened once and closed at
 * stop); 5 answers 115 also after the open (noContext, the device closed
 * again at once); 6's open fails (noContext, nothing to close); 7 starts
 * (owned).  The start asks for a 20 ms period, real time, and the 44-byte
 * StarsSocLogConfigT with acsq_task and ffts_context_task on, tag 0.  A
 * second reader of device 7 while the first runs gets the HAL's "started
 * already" (taken, "this process already collects").  The stop
 * calls prof_stop once on 4 and 7 only, in parallel: both take 300 ms,
 * the stop less than 600 ms (one after another would take 600).  -3 and
 * -11 are another collector too; an unknown code of prof_drv_start or
 * prof_drv_get_channels is a failure with the call and its code named.
 * With no library (NPUPROF_ASCEND_HAL naming a missing file) every device
 * is noLibrary, the text saying which file.
 */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "check.h"
#include "fake_ascend_hal.h"
#include "tmpdir.h"
#include <npuprof/clock.h>
#include <npuprof/devlog.h>

static void no_library(void)
{
	static const int devs[] = { 0, 3 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 2 };
	const struct npuprof_devlog_dev *d;
	struct npuprof_drain_source src;
	struct npuprof_devlog *l;
	uint64_t w, lost;
	unsigned int n;

	setenv("NPUPROF_ASCEND_HAL", "/nonexistent/libascend_hal.so", 1);
	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	d = npuprof_devlog_devices(l, &n);
	CHECK_EQ(n, 2);
	for (unsigned int i = 0; i < n; i++) {
		CHECK_EQ(d[i].outcome, NPUPROF_DEVLOG_NO_LIBRARY);
		CHECK_STR(npuprof_devlog_outcome_key(d[i].outcome), "noLibrary");
		CHECK(!strncmp(d[i].text,
			       "none: NPUPROF_ASCEND_HAL=/nonexistent/libascend_hal.so: ", 56));
	}
	npuprof_devlog_source(l, &src);
	CHECK_EQ(src.stats(src.obj, 0, &w, &lost), -ENXIO);
	CHECK_EQ(npuprof_devlog_stop(l), 0);
	npuprof_devlog_free(l);
}

static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/*
 * Devices 8-12: -3 and -11 are another collector too; prof_drv_start's -1
 * and prof_drv_get_channels' 3 are failures with their codes named.
 */
static void other_codes(const char *root, struct fakehal *hal)
{
	static const int devs[] = { 8, 9, 10, 11 };
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 4, .proc_root = root };
	const struct npuprof_devlog_dev *d;
	struct npuprof_devlog *l;
	unsigned int n;

	hal->script(8, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_STARTED_ALREADY });
	hal->script(9, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_VF_FULL });
	hal->script(10, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_ERROR });
	hal->script(11, &(struct fakehal_dev){ .channels_rc = ASCEND_DRV_ERROR_INVALID_VALUE });
	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	d = npuprof_devlog_devices(l, &n);
	CHECK_EQ(n, 4);
	CHECK_EQ(d[0].outcome, NPUPROF_DEVLOG_TAKEN);
	CHECK_STR(d[0].text, "none: another process collects device 8's log (pid 1234, msprof)");
	CHECK_EQ(d[1].outcome, NPUPROF_DEVLOG_TAKEN);
	CHECK_EQ(d[1].code, ASCEND_PROF_VF_FULL);
	CHECK_EQ(d[2].outcome, NPUPROF_DEVLOG_FAILED);
	CHECK_STR(d[2].text, "none: device 10 refused its log (prof_drv_start: -1)");
	CHECK_STR(npuprof_devlog_outcome_key(d[2].outcome), "failed");
	CHECK_EQ(d[3].outcome, NPUPROF_DEVLOG_FAILED);
	CHECK_STR(d[3].text,
		  "none: device 11 does not list its channels (prof_drv_get_channels: 3)");
	CHECK_EQ(d[3].code, ASCEND_DRV_ERROR_INVALID_VALUE);
	npuprof_devlog_free(l);
}

int main(void)
{
	static const int devs[] = { 0, 1, 2, 3, 4, 5, 6, 7 }, seven[] = { 7 }, eight[] = { 8 };
	static const char *const want[] = {
		"none: device 0 offers no task log (no channel 50)",
		"none: another process collects device 1's log (pid 1234, msprof)",
		"none: device 2's log is held outside this container (the host collects it)",
		"none: device 3's log is held by a container (the host cannot collect it)",
		"device log (channel 50)",
		"none: no device context on device 5",
		"none: no device context on device 6",
		"device log (channel 50)",
	};
	static const int outcome[] = { NPUPROF_DEVLOG_NO_CHANNEL, NPUPROF_DEVLOG_TAKEN,
				       NPUPROF_DEVLOG_CONTAINER,  NPUPROF_DEVLOG_CONTAINER,
				       NPUPROF_DEVLOG_OWNED,	  NPUPROF_DEVLOG_NO_CONTEXT,
				       NPUPROF_DEVLOG_NO_CONTEXT, NPUPROF_DEVLOG_OWNED };
	char root[] = "/tmp/npuprof-devlog-out-XXXXXX", path[700], empty[700], stat[128];
	struct npuprof_devlog_opts o = { .devices = devs, .nr_devices = 8 };
	const struct npuprof_devlog_dev *d;
	struct npuprof_devlog *l, *l2;
	struct fakehal_calls c;
	struct fakehal hal;
	uint64_t t0, ms;
	unsigned int n;

	no_library();
	if (fakehal_load(&hal))
		CHECK_SKIP("build/tests/fixtures/libascend_hal.so not built");
	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	snprintf(path, sizeof(path), "%s/1234", root);
	CHECK_EQ(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/1234/comm", root);
	CHECK_EQ(write_file(path, "msprof\n"), 0);
	snprintf(empty, sizeof(empty), "%s/empty", root);
	CHECK_EQ(mkdir(empty, 0755), 0);
	o.proc_root = root;

	hal.script(0, &(struct fakehal_dev){ .unlisted = 1 });
	hal.script(1, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_CHANNEL_OCCUPIED });
	hal.script(2, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_CONTAINER_NOT_PHY });
	hal.script(3, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_PHY_NOT_CONTAINER });
	hal.script(4, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_NO_CP_PROCESS, .stop_ms = 300 });
	hal.script(5, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_NO_CP_PROCESS,
					     .opened_start_rc = ASCEND_PROF_NO_CP_PROCESS });
	hal.script(6, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_NO_CP_PROCESS, .open_rc = 7 });
	hal.script(7, &(struct fakehal_dev){ .stop_ms = 300 });

	CHECK_EQ(npuprof_devlog_start(&o, &l), 0);
	d = npuprof_devlog_devices(l, &n);
	CHECK_EQ(n, 8);
	for (unsigned int i = 0; i < 8 && i < n; i++) {
		CHECK_EQ(d[i].device, (int)i);
		CHECK_EQ(d[i].outcome, outcome[i]);
		CHECK_STR(d[i].text, want[i]);
	}
	CHECK_EQ(d[1].code, ASCEND_PROF_CHANNEL_OCCUPIED);
	CHECK_EQ(d[5].code, ASCEND_PROF_NO_CP_PROCESS);
	CHECK_STR(npuprof_devlog_outcome_key(d[0].outcome), "noChannel");
	CHECK_STR(npuprof_devlog_outcome_key(d[1].outcome), "taken");
	CHECK_STR(npuprof_devlog_outcome_key(d[2].outcome), "container");
	CHECK_STR(npuprof_devlog_outcome_key(d[4].outcome), "deviceLog");
	CHECK_STR(npuprof_devlog_outcome_key(d[5].outcome), "noContext");
	CHECK(d[4].opened);
	hal.calls(&c);
	CHECK_EQ(c.last_sample_period, 20);
	CHECK_EQ(c.last_real_time, 1);
	CHECK_EQ(c.last_user_size, 44);
	CHECK_EQ(c.last_acsq_task, 1);
	CHECK_EQ(c.last_ffts_context_task, 1);
	CHECK_EQ(c.last_tag, 0);
	CHECK_EQ(c.starts[0], 0);
	CHECK_EQ(c.starts[4], 2);
	CHECK_EQ(c.opens[4], 1);
	CHECK_EQ(c.opens[5], 1);
	CHECK_EQ(c.closes[5], 1);
	CHECK_EQ(c.opens[6], 1);
	CHECK_EQ(c.closes[6], 0);

	/* the other codes of another collector, and codes the reader does not know */
	other_codes(root, &hal);

	/* a second reader of device 7 in this process */
	o = (struct npuprof_devlog_opts){ .devices = seven, .nr_devices = 1, .proc_root = empty };
	CHECK_EQ(npuprof_devlog_start(&o, &l2), 0);
	d = npuprof_devlog_devices(l2, &n);
	CHECK_EQ(d[0].outcome, NPUPROF_DEVLOG_TAKEN);
	CHECK_EQ(d[0].code, ASCEND_DRV_ERROR_STATUS_FAIL);
	CHECK_STR(d[0].text, "none: this process already collects device 7's log (its own profiler, or another npuprof reader in it)");
	npuprof_devlog_free(l2);
	hal.calls(&c);
	CHECK_EQ(c.stops[7], 0); /* the refused reader stopped nothing */

	/*
	 * msprof's own child, not yet the app it execs (app and launch mode),
	 * is still named msprof: never the holder
	 */
	snprintf(path, sizeof(path), "%s/child", root);
	CHECK_EQ(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/child/2345", root);
	CHECK_EQ(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/child/2345/comm", root);
	CHECK_EQ(write_file(path, "msprof\n"), 0);
	snprintf(path, sizeof(path), "%s/child/2345/stat", root);
	snprintf(stat, sizeof(stat), "2345 (msprof) S %d 2345 2345 0 -1\n", (int)getpid());
	CHECK_EQ(write_file(path, stat), 0);
	snprintf(empty, sizeof(empty), "%s/child", root);
	/* another process holds device 8 (-10): the holder search skips our child */
	hal.script(8, &(struct fakehal_dev){ .start_rc = ASCEND_PROF_CHANNEL_OCCUPIED });
	o = (struct npuprof_devlog_opts){ .devices = eight, .nr_devices = 1, .proc_root = empty };
	CHECK_EQ(npuprof_devlog_start(&o, &l2), 0);
	d = npuprof_devlog_devices(l2, &n);
	CHECK_STR(d[0].text, "none: another process collects device 8's log (no msprof or MSPTI process found: the app's own profiler?)");
	npuprof_devlog_free(l2);

	t0 = npuprof_mono_ns();
	CHECK_EQ(npuprof_devlog_stop(l), 0);
	ms = (npuprof_mono_ns() - t0) / 1000000;
	CHECK(ms >= 300 && ms < 600); /* one after another: 600 at least */
	hal.calls(&c);
	for (int i = 0; i < 8; i++) {
		CHECK_EQ(c.stops[i], i == 4 || i == 7);
		CHECK_EQ(c.started[i], 0);
		CHECK_EQ(c.flushes[i], i == 4 || i == 7);
	}
	CHECK_EQ(c.closes[4], 1);
	CHECK_EQ(npuprof_devlog_stop(l), 0); /* a second stop does nothing */
	npuprof_devlog_free(l);
	hal.calls(&c);
	CHECK_EQ(c.stops[4], 1);
	CHECK_EQ(c.closes[4], 1);
	if (!check_failures)
		tmpdir_remove(root);
	return CHECK_DONE();
}
