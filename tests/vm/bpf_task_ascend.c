// SPDX-License-Identifier: MIT
/*
 * Description: the BPF task programs record the real Ascend driver's
 * task tracepoints as ascendsim.ko fires them (tests/vm/ascend_run.h),
 * reading the fields through the pointer-to-struct arguments (backend
 * ascend's layouts: device from *inst, stream, task id and SQE type from
 * *sq_trace / *cq_trace, the completion's device counter), without
 * npuprof.ko.  Only QUEUED (trs_chan:sqe) and CQE (trs_core:logic_cqe)
 * attach.  With the switches off nothing is recorded; on, exactly one
 * QUEUED per kio and uio_t task (kio's with our pid and tid, uio_t's with
 * pid 0: the forwarding worker is not a selected process), none for
 * uio_d, one CQE per event record with a device counter, nothing lost.
 */
#include <npuprof/acl_trace.h>
#include "ascend_run.h"
#include "bpf_task.h"

static long window(struct npuprof_acl_trace *t, struct ar_run *r, struct task_log *log)
{
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	ar_submit(r);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	log->nr = 0;
	return bt_drain(t, log);
}

int main(void)
{
	static const char *const names[NPU_TP_EVENTS] = {
		[NPUPROF_TP_TASK_QUEUED] = ASCEND_TP_SQE,
		[NPUPROF_TP_TASK_CQE] = ASCEND_TP_LOGIC_CQE,
	};
	static const struct npu_tp_layout sqe = ASCEND_TP_LAYOUT_SQE, cqe = ASCEND_TP_LAYOUT_LOGIC_CQE;
	struct npuprof_acl_trace_opts opts = { .ring_bytes = 1u << 20 };
	static struct ar_run r;
	static struct ar_seen seen;
	struct task_log log = { 0 };
	struct npuprof_acl_trace *t;
	int status[NPU_TP_EVENTS], err, i;
	uint64_t written, lost;
	size_t k;

	if (geteuid() != 0)
		CHECK_SKIP("needs root (BPF)");
	kt_unload_all();
	ar_load();
	opts.task_layouts[NPUPROF_TP_TASK_QUEUED] = &sqe;
	opts.task_layouts[NPUPROF_TP_TASK_CQE] = &cqe;
	err = npuprof_acl_trace_open_opts(&opts, &t);
	if (err == -EPERM || err == -EOPNOTSUPP || err == -ENOSYS)
		CHECK_SKIP("kernel refuses BPF programs here");
	CHECK_EQ(err, 0);
	CHECK_EQ(npuprof_acl_trace_attach_tasks(t, names, status), 2);
	for (i = 0; i < NPU_TP_EVENTS; i++)
		CHECK_EQ(status[i], names[i] ? 0 : -EOPNOTSUPP);
	CHECK_EQ(npuprof_acl_trace_select_pid(t, getpid()), 0);
	ar_open(&r);

	CHECK_EQ(window(t, &r, &log), 0); /* switches off */

	ar_switch('1');
	CHECK_EQ(window(t, &r, &log), 2 * AR_TASKS + AR_STREAMS * AR_EVENTS);
	ar_switch('0');
	CHECK_EQ(log.bad, 0);
	for (k = 0; k < log.nr; k++)
		ar_note(&r, &seen, &log.recs[k], (uint32_t)getpid(), (uint32_t)gettid());
	ar_check_seen(&seen);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 2 * AR_TASKS + AR_STREAMS * AR_EVENTS);
	CHECK_EQ(lost, 0);
	ar_check_hw_sq();
	ar_close(&r);

	npuprof_acl_trace_close(t);
	free(log.recs);
	CHECK_EQ(kt_unload("ascendsim"), 0);
	return CHECK_DONE();
}
