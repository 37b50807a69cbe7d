// SPDX-License-Identifier: MIT
/*
 * Description: linking probes to calls holds only the calls still open,
 * not every call of a thread.  Thread (7, 1) makes 600,000 back-to-back
 * calls [1000 + 100 i, +50] ns with a single STREAM_SYNC (wait 777 ns) in
 * the last one; thread (7, 2) has one call [0, 1e9] holding one task's
 * SUBMIT at 500 ns.  The sweep walks all calls of thread 1 before it
 * reaches thread 2's SUBMIT: the join must not keep them (600,000 x 32
 * bytes), so its peak RSS grows by less than 8 MiB (the sorters hold
 * 1 MiB each here), and the task still links to thread 2's call (entry 0,
 * tid 2) and the wait lands on call 599,999 alone.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"
#include "export_model.h"
#include "tmpdir.h"

#define N_CALLS 600000u

static long max_rss_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? -1 : ru.ru_maxrss;
}

static void add_calls(struct export_model *m)
{
	struct xm_call c = { .pid = 7, .tid = 1, .api = 1, .device = -1 };

	for (uint32_t i = 0; i < N_CALLS; i++) {
		c.entry_ns = 1000 + 100ull * i;
		c.exit_ns = c.entry_ns + 50;
		CHECK_EQ(export_model_add_call(m, &c), 0);
	}
	c = (struct xm_call){ .pid = 7, .tid = 2, .api = 1, .device = -1, .exit_ns = 1000000000 };
	CHECK_EQ(export_model_add_call(m, &c), 0);
}

static void add_probes(struct export_model *m)
{
	struct xm_task t = { .pid = 7, .tid = 2, .task_id = 1, .have = XM_HAVE_SUBMIT,
			     .submit_ns = 500 };
	struct xm_sync s = { .ts_ns = 1000 + 100ull * (N_CALLS - 1) + 25, .wait_ns = 777,
			     .pid = 7, .tid = 1 };

	CHECK_EQ(export_model_add_task(m, &t), 0);
	CHECK_EQ(export_model_add_sync(m, &s), 0);
}

static void check_links(const struct export_model *m)
{
	const struct xm_task *t;
	const struct xm_call *c;
	struct xm_tasks ti;
	struct xm_calls ci;
	size_t with_sync = 0, at = 0;

	CHECK_EQ(xm_tasks_begin(m, &ti), 0);
	CHECK_EQ(xm_tasks_next(&ti, &t), 1);
	CHECK_EQ(t->linked, 1);
	CHECK_EQ(t->call_entry_ns, 0);
	CHECK_EQ(t->call_tid, 2);
	CHECK_EQ(xm_calls_begin(m, &ci), 0);
	while (xm_calls_next(&ci, &c) == 1) {
		if (!c->has_sync)
			continue;
		with_sync++;
		at = ci.n - 1;
		CHECK_EQ(c->sync_wait_ns, 777);
	}
	CHECK_EQ(ci.n, N_CALLS + 1);
	CHECK_EQ(with_sync, 1);
	CHECK_EQ(at, N_CALLS - 1);
}

int main(void)
{
	char tmp[] = "/tmp/npuprof-sweep-XXXXXX";
	struct export_model m;
	long before, after;
	int fd;

	if (!mkdtemp(tmp))
		CHECK_SKIP("no temp dir");
	fd = open(tmp, O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	xm_sort_mem = 1u << 20;
	export_model_init(&m, fd); /* the sorters spill there */
	add_calls(&m);
	add_probes(&m);
	before = max_rss_kb();
	CHECK_EQ(export_model_join(&m), 0);
	after = max_rss_kb();
	fprintf(stderr, "peak RSS %ld KiB before the join, %ld KiB after\n", before, after);
	CHECK(before > 0 && after - before < 8192);
	check_links(&m);
	export_model_free(&m); /* closes fd */
	tmpdir_remove(tmp);
	return CHECK_DONE();
}
