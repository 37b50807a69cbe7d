// SPDX-License-Identifier: MIT
/*
 * Description: a full ring buffer drops task records and counts every one
 * lost.  Pinned to one CPU with one-page (4096-byte) rings, the stub fires
 * 100 submits without anyone consuming.  A ring holds 42 task records of
 * 88 bytes (96 with the ring buffer's 8-byte header), so exactly 42 are
 * written and 58 lost on that CPU, none on the others, and a consume then
 * delivers exactly the 42.
 */
#include "bpf_task.h"

#define TGID 5050
#define RING_BYTES 4096
#define FIRED 100
#define FITS (RING_BYTES / (sizeof(struct npuprof_rec_task) + 8))

int main(void)
{
	struct task_log log = { 0 };
	struct npuprof_acl_trace *t;
	int status[NPU_TP_EVENTS], cpu;
	uint64_t written, lost, w = 0, l = 0;
	size_t k;

	cpu = kt_pin_cpu();
	if (cpu < 0)
		CHECK_SKIP("cannot pin to a CPU");
	t = bt_open(RING_BYTES, NULL, status);
	CHECK_EQ(status[0], 0);
	CHECK_EQ(npuprof_acl_trace_select_pid(t, TGID), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(kt_fire(KT_SUBMIT, FIRED, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);

	CHECK_EQ(npuprof_acl_trace_stats(t, (unsigned int)cpu, &w, &l), 0);
	CHECK_EQ(w, FITS);
	CHECK_EQ(l, FIRED - FITS);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, FITS);
	CHECK_EQ(lost, FIRED - FITS);
	CHECK_EQ(bt_drain(t, &log), (long)FITS);
	CHECK_EQ(log.bad, 0);
	for (k = 0; k < log.nr; k++) {
		CHECK(bt_record_ok(&log.recs[k], TGID, TGID, BT_NAME));
		CHECK_EQ(log.recs[k].hdr.cpu, (uint32_t)cpu);
	}

	free(log.recs);
	bt_close(t);
	return CHECK_DONE();
}
