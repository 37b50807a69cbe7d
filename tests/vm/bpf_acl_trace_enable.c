// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_acl_trace_enable(0) stops recording at once and
 * enable(1) starts it again with the counters reset.
 *
 * 10 calls enabled, 10 disabled, then 5 enabled again: the first consume
 * gets exactly 10 records and written counts 10; re-enabling zeroes the
 * counters and finds nothing stale; the second consume gets exactly the 5
 * later calls.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <stdio.h>

#include <acl/acl.h>

#include "bpf_test.h"

/* @n aclrtSetDevice calls whose device ids start at @first. */
static void set_devices(int first, int n)
{
	int i;

	for (i = 0; i < n; i++)
		aclrtSetDevice(first + i);
}

static void check_devices(const struct api_log *log, size_t from, int first,
			  size_t n)
{
	size_t i;

	for (i = 0; i < n && from + i < log->nr; i++) {
		CHECK_EQ(log->recs[from + i].api, NPUPROF_API_RT_SET_DEVICE);
		CHECK_EQ(log->recs[from + i].device, first + (int)i);
	}
}

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	struct api_log log = { 0 };
	uint64_t written, lost;

	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	set_devices(100, 10);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	set_devices(200, 10);
	CHECK_EQ(bpf_test_drain(t, &log), 10);
	api_log_sort(&log);
	check_devices(&log, 0, 100, 10);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 10);
	CHECK_EQ(lost, 0);

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(npuprof_acl_trace_stale(t), 0); /* all 10 were consumed */
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 0);
	set_devices(300, 5);
	CHECK_EQ(bpf_test_drain(t, &log), 5);
	CHECK_EQ(log.nr, 15);
	api_log_sort(&log);
	check_devices(&log, 10, 300, 5);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 5);
	CHECK_EQ(lost, 0);

	npuprof_acl_trace_close(t);
	free(log.recs);
	return CHECK_DONE();
}
