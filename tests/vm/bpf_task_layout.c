// SPDX-License-Identifier: MIT
/*
 * Description: the task programs read fields where the layout says, at
 * the width it gives, and a tracepoint the kernel lacks is reported by
 * name, not fatal.  The npusim layout is changed so the task id is an
 * 8-bit argument and the stream is absent; the start tracepoint is asked
 * for under a name no driver has.  Attach then says 3 attached and
 * -ENOENT for exactly that one; N = 300 iterations of all four events
 * give exactly 3 N records (no start), each task id masked to its low 8
 * bits, stream 0, every other field as fired.
 */
#include "bpf_task.h"

#define TGID 6060
#define N 300

int main(void)
{
	const char *names[NPU_TP_EVENTS] = {
		NPUSIM_TP_TASK_SUBMIT, "npuprof_no_such_tracepoint", NPUSIM_TP_TASK_END,
		NPUSIM_TP_STREAM_SYNC,
	};
	struct npu_tp_layout layout = NPUSIM_TP_LAYOUT;
	struct npuprof_acl_trace_opts opts = { .ring_bytes = 1u << 20, .task_layout = &layout };
	struct task_log log = { 0 };
	struct npuprof_acl_trace *t;
	int status[NPU_TP_EVENTS], err;
	unsigned int per_event[5] = { 0 };
	uint64_t written, lost;
	uint32_t base;
	size_t k;

	bt_load_stub();
	layout.bits[NPU_TP_TASK_ID] = 8;
	layout.pos[NPU_TP_STREAM] = NPU_TP_ABSENT;
	err = npuprof_acl_trace_open_opts(&opts, &t);
	if (err == -EPERM)
		CHECK_SKIP("kernel refuses BPF programs here");
	CHECK_EQ(err, 0);
	CHECK_EQ(npuprof_acl_trace_attach_tasks(t, names, status), 3);
	CHECK_EQ(status[0], 0);
	CHECK_EQ(status[1], -ENOENT);
	CHECK_EQ(status[2], 0);
	CHECK_EQ(status[3], 0);
	CHECK_EQ(npuprof_acl_trace_attach_tasks(t, names, status), -EALREADY);
	CHECK_EQ(npuprof_acl_trace_select_pid(t, TGID), 0);

	base = bt_stub_seq();
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(kt_fire(KT_ALL, N, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	CHECK_EQ(bt_drain(t, &log), 3 * N);
	CHECK_EQ(log.bad, 0);
	for (k = 0; k < log.nr; k++) {
		struct npuprof_rec_task r = log.recs[k];
		uint32_t id = (uint32_t)((r.dev_ts - 1000)); /* the full id, from dev_ts */

		CHECK(id > base && id <= base + N);
		CHECK_EQ(r.task_id, id & 0xff);
		CHECK_EQ(r.stream, 0);
		CHECK(r.event != NPUPROF_TASK_START);
		per_event[r.event]++;
		/* the rest as fired: check with the full id and stream put back */
		r.task_id = id;
		r.stream = 7;
		CHECK(bt_record_ok(&r, TGID, TGID, BT_NAME));
	}
	CHECK_EQ(per_event[NPUPROF_TASK_SUBMIT], N);
	CHECK_EQ(per_event[NPUPROF_TASK_END], N);
	CHECK_EQ(per_event[NPUPROF_TASK_STREAM_SYNC], N);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 3 * N);
	CHECK_EQ(lost, 0);

	free(log.recs);
	bt_close(t);
	return CHECK_DONE();
}
