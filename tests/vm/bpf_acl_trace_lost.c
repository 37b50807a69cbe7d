// SPDX-License-Identifier: MIT
/*
 * Description: a full ring buffer drops records and counts every one lost.
 *
 * Pinned to one CPU with one-page rings (4096 bytes asked, as made on the
 * running page size), 64 calls more than fit are made without consuming.
 * A 4 KiB ring holds 36 records of 104 bytes (112 with the ring buffer's
 * 8-byte header), so exactly 36 are written and 64 lost on that CPU of the
 * 100 calls, and a consume then delivers exactly the 36.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <sched.h>
#include <stdio.h>

#include <acl/acl.h>

#include "bpf_test.h"

#define RING_BYTES 4096
#define REC_IN_RING (sizeof(struct npuprof_rec_api) + 8)
#define OVER 64 /* calls beyond what fits */

static int pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int main(void)
{
	struct npuprof_acl_trace *t;
	struct api_log log = { 0 };
	uint64_t written, lost, w0 = 0, l0 = 0, fits;
	int i, calls;

	if (pin_to_cpu0() < 0)
		CHECK_SKIP("cannot pin to CPU 0");
	t = bpf_test_open(RING_BYTES);
	CHECK_EQ(npuprof_acl_trace_ring_bytes(t), RING_BYTES > sysconf(_SC_PAGESIZE)
							  ? RING_BYTES
							  : sysconf(_SC_PAGESIZE));
	fits = npuprof_acl_trace_ring_bytes(t) / REC_IN_RING;
	calls = (int)fits + OVER;
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	for (i = 0; i < calls; i++)
		aclrtResetDevice(i);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);

	CHECK_EQ(npuprof_acl_trace_stats(t, 0, &w0, &l0), 0);
	CHECK_EQ(w0, fits);
	CHECK_EQ(l0, OVER);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, fits);
	CHECK_EQ(lost, OVER);
	CHECK_EQ(bpf_test_drain(t, &log), fits);
	api_log_sort(&log);
	for (i = 0; i < (int)log.nr; i++) {
		CHECK_EQ(log.recs[i].device, i); /* the first ones are kept */
		CHECK_EQ(log.recs[i].hdr.cpu, 0);
	}

	npuprof_acl_trace_close(t);
	free(log.recs);
	return CHECK_DONE();
}
