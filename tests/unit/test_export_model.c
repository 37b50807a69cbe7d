// SPDX-License-Identifier: MIT
/*
 * Description: loading and joining a PROF dir (export_model.c,
 * export_join.c): task records become tasks, tasks link to the API call
 * that submitted them, the device clock is fitted from the START/END
 * records (exact with orthogonal tracepoint jitter), a task without END is
 * kept but not drawn, LOST records are summed per ring (latest reading
 * wins) and take precedence over info.json.
 */
#include <math.h>

#include "check.h"
#include "export_model.h"
#include "model_tasks.h"
#include "test_export_fixture.h"

/* The task with id @id (a copy, until the next call), or NULL. */
static const struct xm_task *find_task(const struct export_model *m, uint32_t id)
{
	static struct xm_task found;

	return model_task_by_id(m, id, &found) ? &found : NULL;
}

static void check_task(const struct export_model *m, uint32_t id, uint64_t start_ms,
		       uint64_t end_ms, uint64_t call_entry)
{
	const struct xm_task *t = find_task(m, id);

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK_EQ(t->drawn, 1);
	CHECK_EQ(t->have, XM_HAVE_SUBMIT | XM_HAVE_START | XM_HAVE_END);
	CHECK_EQ(t->start_ns, (int64_t)(FX_T0 + start_ms * FX_MS));
	CHECK_EQ(t->end_ns, (int64_t)(FX_T0 + end_ms * FX_MS));
	CHECK_EQ(t->linked, 1);
	CHECK_EQ(t->call_entry_ns, FX_T0 + call_entry);
	CHECK(t->linked && t->drawn); /* a HostToDevice flow */
}

int main(void)
{
	char root[256], prof[512];
	struct export_model m;
	const struct xm_task *t4;
	const struct xm_call *c;
	struct xm_calls it;
	size_t synced = 0;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 1, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(m.app_pid, FX_PID);
	CHECK_STR(m.pid_name, "ai_task");
	CHECK_EQ(m.n_calls, 6);
	CHECK_EQ(m.n_tasks, 4);
	CHECK_EQ(m.n_drawn, 3);
	CHECK_EQ(m.n_linked, 3);
	CHECK_EQ(m.n_syncs, 1);
	CHECK_EQ(m.lost, 7); /* 2 (bpf cpu 0) + 5 (kmod cpu 1, latest); not info.json's 100 */
	CHECK_EQ(m.truncated_bytes, 0);
	CHECK_EQ(m.n_devs, 1);
	if (m.n_devs == 1) {
		CHECK_EQ(m.devs[0].clock, XM_CLOCK_RECORDS);
		CHECK_EQ(m.devs[0].fit.n_pairs, 7);
		CHECK(fabs(clock_fit_freq_hz(&m.devs[0].fit) - 50001500.0) < 0.001);
	}
	check_task(&m, 1, 10, 14, 1 * FX_MS);
	check_task(&m, 2, 16, 26, 2 * FX_MS);
	check_task(&m, 3, 28, 48, 3 * FX_MS);
	t4 = find_task(&m, 4);
	CHECK(t4 != NULL);
	if (t4) {
		CHECK_EQ(t4->drawn, 0);
		CHECK_EQ(t4->have, XM_HAVE_SUBMIT | XM_HAVE_START);
		CHECK_EQ(t4->drawn, 0); /* no flow */
		CHECK(t4->linked && t4->call_entry_ns == FX_T0 + 49 * FX_MS);
	}
	CHECK_EQ(xm_calls_begin(&m, &it), 0);
	while (xm_calls_next(&it, &c) == 1) {
		if (!c->has_sync)
			continue;
		synced++;
		CHECK_EQ(c->api, NPUPROF_API_RT_SYNC_STREAM);
		CHECK_EQ(c->sync_wait_ns, 43400000);
	}
	CHECK_EQ(it.n, m.n_calls);
	CHECK_EQ(synced, 1);
	export_model_free(&m);
	fx_rmtree(root);
	return CHECK_DONE();
}
