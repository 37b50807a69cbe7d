// SPDX-License-Identifier: MIT
/*
 * Description: a full ring buffer drops task records and counts every one
 * lost.  Pinned to one CPU with one-page rings (4096 bytes asked, as made
 * on the running page size), the stub fires 58 submits more than fit
 * without anyone consuming.  A 4 KiB ring holds 42 task records of 88
 * bytes (96 with the ring buffer's 8-byte header), so of the 100 fired
 * exactly 42 are written and 58 lost on that CPU, none on the others, and
 * a consume then delivers exactly the 42.
 */
#include "bpf_task.h"

#define TGID 5050
#define RING_BYTES 4096
#define OVER 58 /* submits beyond what fits */

int main(void)
{
	struct task_log log = { 0 };
	struct npuprof_acl_trace *t;
	int status[NPU_TP_EVENTS], cpu;
	uint64_t written, lost, w = 0, l = 0, fits;
	size_t k;

	cpu = kt_pin_cpu();
	if (cpu < 0)
		CHECK_SKIP("cannot pin to a CPU");
	t = bt_open(RING_BYTES, NULL, status);
	fits = npuprof_acl_trace_ring_bytes(t) / (sizeof(struct npuprof_rec_task) + 8);
	CHECK_EQ(status[0], 0);
	CHECK_EQ(npuprof_acl_trace_select_pid(t, TGID), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(kt_fire(KT_SUBMIT, (unsigned int)(fits + OVER), TGID, TGID, "proc", ""), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);

	CHECK_EQ(npuprof_acl_trace_stats(t, (unsigned int)cpu, &w, &l), 0);
	CHECK_EQ(w, fits);
	CHECK_EQ(l, OVER);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, fits);
	CHECK_EQ(lost, OVER);
	CHECK_EQ(bt_drain(t, &log), (long)fits);
	CHECK_EQ(log.bad, 0);
	for (k = 0; k < log.nr; k++) {
		CHECK(bt_record_ok(&log.recs[k], TGID, TGID, BT_NAME));
		CHECK_EQ(log.recs[k].hdr.cpu, (uint32_t)cpu);
	}

	free(log.recs);
	bt_close(t);
	return CHECK_DONE();
}
