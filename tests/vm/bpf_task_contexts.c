// SPDX-License-Identifier: MIT
/*
 * Description: task events fired from hardirq context, and from process
 * context interrupted by hardirqs on the same CPU, are recorded intact
 * and every one is accounted for.
 *   irq:   the stub fires N iterations of all four events from one hrtimer
 *          callback: exactly 4 N intact records, nothing lost or missed;
 *          the owner is the tgid argument, not the interrupted process.
 *   mixed: N iterations from the writer plus N from a 20 us hrtimer pinned
 *          to its CPU.  The kernel does not run a raw tracepoint program
 *          inside itself on one CPU: a timer hit of the same tracepoint
 *          landing inside the writer's program has no record, and is
 *          counted in the program's recursion misses.  So: records written
 *          + missed = 8 N exactly, the rings hand out exactly the written
 *          ones, each (event, task id) at most once and intact, and the
 *          loss counters say lost = missed.
 */
#include "bpf_task.h"

#define TGID 8080
#define N 1000

/* Every record of this round intact and unique; returns how many. */
static size_t check_records(const struct task_log *log, uint32_t base, unsigned int ids)
{
	static unsigned char seen[5][2 * N + 1];
	size_t k;

	memset(seen, 0, sizeof(seen));
	for (k = 0; k < log->nr; k++) {
		const struct npuprof_rec_task *r = &log->recs[k];
		uint32_t id = r->task_id - base;

		CHECK(bt_record_ok(r, TGID, TGID + 1, BT_NAME));
		CHECK(id >= 1 && id <= ids);
		CHECK(!seen[r->event][id]);
		seen[r->event][id] = 1;
	}
	return log->nr;
}

/* One round of @ctx with @ids task ids: written + missed == 4 ids. */
static void round_ctx(struct npuprof_acl_trace *t, const char *ctx, unsigned int ids,
		      int64_t *missed)
{
	struct task_log log = { 0 };
	uint64_t written, lost;
	uint32_t base = bt_stub_seq();

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	CHECK_EQ(kt_fire(KT_ALL, N, TGID, TGID + 1, ctx, ""), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	*missed = npuprof_acl_trace_task_missed(t);
	CHECK(*missed >= 0);
	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written + (uint64_t)*missed, 4ull * ids);
	CHECK_EQ(lost, (uint64_t)*missed);
	CHECK_EQ(bt_drain(t, &log), (long)written);
	CHECK_EQ(log.bad, 0);
	CHECK_EQ(check_records(&log, base, ids), written);
	fprintf(stderr, "%s: %llu written, %lld missed (nested in themselves)\n", ctx,
		(unsigned long long)written, (long long)*missed);
	free(log.recs);
}

int main(void)
{
	struct npuprof_acl_trace *t;
	int status[NPU_TP_EVENTS];
	int64_t missed;

	t = bt_open(1u << 20, NULL, status);
	CHECK_EQ(npuprof_acl_trace_select_pid(t, TGID), 0);
	round_ctx(t, "irq", N, &missed);
	CHECK_EQ(missed, 0);
	round_ctx(t, "mixed", 2 * N, &missed);
	bt_close(t);
	return CHECK_DONE();
}
