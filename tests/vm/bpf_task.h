/* SPDX-License-Identifier: MIT */
/*
 * Shared parts of the device-task-through-BPF tests (tests/vm/bpf_task_*.c,
 * run by tests/vm/bpf_task.sh as root in the test VM, npuprof.ko never
 * loaded): load the stub driver (tests/kmod/tp_stub, which fires the
 * npusim-named tracepoints with known fields), open the BPF capture with
 * the npusim tracepoint layout, attach the task programs, collect records.
 */
#ifndef NPUPROF_TEST_BPF_TASK_H
#define NPUPROF_TEST_BPF_TASK_H

#include <npuprof/acl_trace.h>
#include <npuprof/drv/npusim_tp.h>

#include "bpf_test.h"
#include "kmod_common.h"

/* The stub's task names, as it fires them (npuprof keeps 31 bytes). */
#define BT_NAME "stub_kernel"
#define BT_LONG_NAME "stub_kernel_with_a_name_longer_than_31_bytes"

/* Every task record a test consumed, copied, in the order they came. */
struct task_log {
	struct npuprof_rec_task *recs;
	size_t nr, cap;
	unsigned int bad; /* records that were not task records of the right size */
};

static inline int task_log_add(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct task_log *log = ctx;

	return bpf_test_log_add((void **)&log->recs, &log->nr, &log->cap, &log->bad, rec,
				NPUPROF_REC_TASK, sizeof(*log->recs));
}

/* Consume until the rings are empty; return the number of records. */
static inline long bt_drain(struct npuprof_acl_trace *t, struct task_log *log)
{
	return bpf_test_consume_all(t, task_log_add, log);
}

/* Load the stub driver alone: npuprof.ko is not loaded (the point). */
static inline void bt_load_stub(void)
{
	int err;

	if (geteuid() != 0)
		CHECK_SKIP("needs root (BPF)");
	if (access(kt_stub_ko(), R_OK) != 0)
		CHECK_SKIP("npuprof_tp_stub.ko not built (tests/kmod/tp_stub)");
	kt_unload_all();
	err = kt_load(kt_stub_ko(), NULL);
	if (err) {
		fprintf(stderr, "loading the stub driver: %s\n", strerror(-err));
		exit(1);
	}
	CHECK(access(KT_DEV, F_OK) != 0);
}

/*
 * Load the stub driver alone (npuprof.ko is not loaded: the point), open
 * the capture with rings of @ring_bytes and the npusim layout, attach the
 * task programs to @names (NULL: the npusim names); @status gets their
 * attach results.  Skips when the kernel refuses BPF.
 */
static inline struct npuprof_acl_trace *bt_open(uint32_t ring_bytes, const char *const *names,
						int status[NPU_TP_EVENTS])
{
	static const char *const npusim[NPU_TP_EVENTS] = {
		NPUSIM_TP_TASK_SUBMIT, NPUSIM_TP_TASK_START, NPUSIM_TP_TASK_END,
		NPUSIM_TP_STREAM_SYNC,
	};
	const struct npu_tp_layout layout = NPUSIM_TP_LAYOUT;
	struct npuprof_acl_trace_opts opts = { .ring_bytes = ring_bytes, .task_layout = &layout };
	struct npuprof_acl_trace *t;
	int err;

	bt_load_stub();
	err = npuprof_acl_trace_open_opts(&opts, &t);
	if (err == -EPERM || err == -EOPNOTSUPP || err == -ENOSYS)
		CHECK_SKIP("kernel refuses BPF programs here");
	if (err) {
		fprintf(stderr, "npuprof_acl_trace_open_opts: %s\n", strerror(-err));
		exit(1);
	}
	err = npuprof_acl_trace_attach_tasks(t, names ? names : npusim, status);
	if (err < 0) {
		fprintf(stderr, "npuprof_acl_trace_attach_tasks: %s\n", strerror(-err));
		exit(1);
	}
	return t;
}

/* Close the capture and unload the stub. */
static inline void bt_close(struct npuprof_acl_trace *t)
{
	npuprof_acl_trace_close(t);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
}

/* The stub's last task id ("seq"), or exit. */
static inline uint32_t bt_stub_seq(void)
{
	unsigned int seq = 0;
	FILE *f = fopen("/sys/kernel/debug/npuprof_tp_stub/seq", "r");

	CHECK(f != NULL);
	CHECK_EQ(fscanf(f, "%u", &seq), 1);
	fclose(f);
	return seq;
}

/*
 * Whether @r is exactly what the stub fired for task @r->task_id of event
 * @r->event for @tgid/@tid (tests/kmod/tp_stub/npuprof_tp_stub.c): device
 * 3, stream 7, type 0 (3 for a stream sync), dev_ts 1000 + id, arg 10 id,
 * name @name ("" for a sync), NUL-padded.
 */
static inline bool bt_record_ok(const struct npuprof_rec_task *r, uint32_t tgid, uint32_t tid,
				const char *name)
{
	char want[NPUPROF_NAME_LEN] = { 0 };
	bool sync = r->event == NPUPROF_TASK_STREAM_SYNC;

	if (!sync)
		memcpy(want, name, strnlen(name, sizeof(want) - 1));
	return r->hdr.type == NPUPROF_REC_TASK && r->hdr.size == sizeof(*r) && r->pid == tgid &&
	       r->tid == tid && r->device == 3 && r->stream == 7 && r->event >= 1 &&
	       r->event <= 4 && r->task_type == (sync ? 3 : 0) &&
	       r->dev_ts == 1000 + (uint64_t)r->task_id && r->arg == 10ull * r->task_id &&
	       memcmp(r->name, want, sizeof(want)) == 0;
}

#endif /* NPUPROF_TEST_BPF_TASK_H */
