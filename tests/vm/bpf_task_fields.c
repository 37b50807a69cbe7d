// SPDX-License-Identifier: MIT
/*
 * Description: device tasks through BPF, without npuprof.ko, give exactly
 * the records npuprof.ko would.  The stub driver fires N iterations of all
 * four npusim tracepoints from process context for a selected tgid: the
 * rings then hold exactly 4 N task records, every field as fired (the
 * owner is the tgid argument, the time CLOCK_MONOTONIC inside the fire),
 * each (event, task id) once, nothing lost.  A 44-byte kernel name is kept
 * as its first 31 bytes, NUL-terminated; events of a tgid not selected, and
 * events while capture is off, give no record at all.
 */
#include "bpf_task.h"

#define TGID 7070
#define TID 7071
#define N 50

/* Fire @n of @kinds for @tgid, with capture on; return the records. */
static long capture(struct npuprof_acl_trace *t, struct task_log *log, unsigned int kinds,
		    unsigned int n, uint32_t tgid, const char *flag)
{
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(kt_fire(kinds, n, tgid, TID, "proc", flag), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	log->nr = 0;
	return bt_drain(t, log);
}

int main(void)
{
	static unsigned char seen[5][N + 1];
	struct task_log log = { 0 };
	struct npuprof_acl_trace *t;
	int status[NPU_TP_EVENTS], i;
	uint64_t before, after, written, lost;
	uint32_t base;
	size_t k;

	t = bt_open(1u << 20, NULL, status);
	for (i = 0; i < NPU_TP_EVENTS; i++) /* npusim has no QUEUED/CQE tracepoint */
		CHECK_EQ(status[i], i <= NPUPROF_TP_STREAM_SYNC ? 0 : -EOPNOTSUPP);
	CHECK_EQ(npuprof_acl_trace_select_pid(t, TGID), 0);

	/* all four events, process context */
	base = bt_stub_seq();
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	before = test_now_ns();
	CHECK_EQ(kt_fire(KT_ALL, N, TGID, TID, "proc", ""), 0);
	after = test_now_ns();
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	CHECK_EQ(bt_drain(t, &log), 4 * N);
	CHECK_EQ(log.bad, 0);
	for (k = 0; k < log.nr; k++) {
		const struct npuprof_rec_task *r = &log.recs[k];
		uint32_t id = r->task_id - base;

		CHECK(bt_record_ok(r, TGID, TID, BT_NAME));
		CHECK(id >= 1 && id <= N);
		CHECK(!seen[r->event][id]);
		seen[r->event][id] = 1;
		CHECK(r->hdr.ts >= before && r->hdr.ts <= after);
	}
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 4 * N);
	CHECK_EQ(lost, 0);
	CHECK_EQ(npuprof_acl_trace_task_missed(t), 0);

	/* a long name: its first 31 bytes and a NUL */
	CHECK_EQ(capture(t, &log, KT_SUBMIT, 3, TGID, "long"), 3);
	for (k = 0; k < log.nr; k++) {
		CHECK(bt_record_ok(&log.recs[k], TGID, TID, BT_LONG_NAME));
		CHECK_EQ(strlen(log.recs[k].name), NPUPROF_NAME_LEN - 1);
	}

	/* a tgid not selected: nothing, not even counted */
	CHECK_EQ(capture(t, &log, KT_ALL, N, TGID + 1, ""), 0);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 0);
	CHECK_EQ(lost, 0);

	/* capture off: nothing */
	CHECK_EQ(kt_fire(KT_ALL, N, TGID, TID, "proc", ""), 0);
	log.nr = 0;
	CHECK_EQ(bt_drain(t, &log), 0);

	/* dropped from the filter: nothing */
	CHECK_EQ(npuprof_acl_trace_detach_pid(t, TGID), 0);
	CHECK_EQ(capture(t, &log, KT_ALL, N, TGID, ""), 0);

	free(log.recs);
	bt_close(t);
	return CHECK_DONE();
}
