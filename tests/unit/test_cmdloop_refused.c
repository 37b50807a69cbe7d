// SPDX-License-Identifier: MIT
/*
 * Description: the app's refusals get msprof's words and keep the capture
 * consistent: ALREADY_START warns and keeps the capture, NOT_SET_DEVICE
 * warns and discards it, FAIL or a reply of the wrong type is an error and
 * discards it, NOT_START on stop warns (and, after the app had accepted
 * the start, says its collection ended early: the window is incomplete); a
 * capture that cannot start sends nothing to the app.
 */
#include "check.h"
#include "cmdloop_fake.h"

int main(void)
{
	struct fake_server f = {
		.script = { { DYNPROF_START_RSQ, DYNPROF_ALREADY_START },
			    { DYNPROF_STOP_RSQ, DYNPROF_NOT_START },
			    { DYNPROF_START_RSQ, DYNPROF_NOT_SET_DEVICE },
			    { DYNPROF_START_RSQ, DYNPROF_FAIL },
			    { DYNPROF_STOP_RSQ, DYNPROF_SUCCESS }, /* wrong type for START */
			    { DYNPROF_STOP_RSQ, DYNPROF_NOT_START } },
		.n = 6,
	};
	struct msprof_dyn d;
	struct capture c;
	int fd, running_after_already, discards_after_nodev;
	char *out;

	if (fake_server_start(&f, &fd))
		CHECK_SKIP("socketpair/pthread failed");
	fake_dyn_init(&d, fd);

	capture_begin(&c);
	msprof_cmd_run_line(&d, "start"); /* ALREADY_START: keep */
	running_after_already = fake_ss.running;
	msprof_cmd_run_line(&d, "stop"); /* NOT_START: warn, still save ours */
	msprof_cmd_run_line(&d, "start"); /* NOT_SET_DEVICE: discard */
	discards_after_nodev = fake_ss.discards;
	msprof_cmd_run_line(&d, "start"); /* FAIL: discard */
	msprof_cmd_run_line(&d, "start"); /* wrong reply type: fail, discard */
	fake_ss.start_rc = -ENOSPC;
	msprof_cmd_run_line(&d, "start"); /* capture cannot start: nothing sent */
	fake_ss.start_rc = 0;
	msprof_cmd_run_line(&d, "stop"); /* NOT_START, nothing to save */
	out = capture_end(&c);
	close(d.t[0].fd);
	fake_server_join(&f);

	CHECK_EQ(running_after_already, 1);
	CHECK_EQ(discards_after_nodev, 1);
	CHECK_EQ(fake_ss.starts, 5);
	CHECK_EQ(fake_ss.discards, 3);
	CHECK_EQ(fake_ss.stops, 1);
	CHECK_EQ(fake_ss.running, 0);
	CHECK_EQ(d.incomplete, 2); /* the early end, the capture that could not start */
	CHECK_EQ(f.n_got, 6);
	CHECK(fake_got(&f, 0, DYNPROF_START_REQ));
	CHECK(fake_got(&f, 1, DYNPROF_STOP_REQ));
	CHECK(fake_got(&f, 2, DYNPROF_START_REQ));
	CHECK(fake_got(&f, 3, DYNPROF_START_REQ));
	CHECK(fake_got(&f, 4, DYNPROF_START_REQ));
	CHECK(fake_got(&f, 5, DYNPROF_STOP_REQ));
	CHECK_STR(out,
		  "[WARNING] msprof: dynamic profiling for pid 42 already started\n"
		  "[WARNING] msprof: dynamic profiling for pid 42 has not started\n"
		  "[WARNING] msprof: pid 42 had stopped collecting before the stop: "
		  "its data of this window may end early\n"
		  "PROF data saved in /out/PROF_000001_20260101000000000_00000042ABCDEFGH: "
		  "12 api records, 34 device task events, 0 records lost\n"
		  "[WARNING] msprof: dynamic profiling device for pid 42 has not been set up: "
		  "start again after the app has called aclrtSetDevice\n"
		  "[ERROR] msprof: dynamic profiling for pid 42 start failed (fail)\n"
		  "[ERROR] msprof: dynamic profiling for pid 42 start failed (fail)\n"
		  "[ERROR] msprof: cannot start the capture for pid 42: /out: No space left on device\n"
		  "[WARNING] msprof: dynamic profiling for pid 42 has not started\n");
	free(out);
	return CHECK_DONE();
}
