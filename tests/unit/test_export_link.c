// SPDX-License-Identifier: MIT
/*
 * Description: the export links each task's SUBMIT and each STREAM_SYNC to
 * the innermost API call of its thread holding its time exactly as a
 * search over all calls in (pid, tid, entry, outer first) order does (the
 * last call entered by that time whose exit is not before it), also when
 * the calls are more than the loader holds in memory (they spill to a
 * temporary file) and when calls of a thread overlap without nesting,
 * share entry times or last no time.  Checked against that search here,
 * over 500,000 pseudo-random calls on 3 processes x 4 threads: every
 * task's call (entry, thread, name) and every call's summed sync wait.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"
#include "export_model.h"

#define N_CALLS 500000u
#define N_TASKS 200000u
#define N_SYNCS 50000u
#define N_THREADS 12u
#define SPAN 20000000ull /* ns over which calls of a thread enter */

static uint64_t rng = 88172645463325252ull;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A call in the reference: the call and the order it was added in. */
struct ref_call {
	struct xm_call c;
	size_t seq;
};

static int cmp_ref(const void *pa, const void *pb)
{
	const struct ref_call *a = pa, *b = pb;
	int c = xm_call_cmp(&a->c, &b->c);

	return c ? c : XM_CMP(a->seq, b->seq); /* the sorter is stable */
}

static struct xm_call random_call(void)
{
	struct xm_call c = { 0 };
	uint32_t th = (uint32_t)(next_rand() % N_THREADS);
	uint64_t len = next_rand() % 4 ? next_rand() % 2000 : next_rand() % 200000;

	c.pid = 100 + th / 4;
	c.tid = 1000 + th % 4;
	c.entry_ns = 1000 + (next_rand() % (SPAN / 100)) * 100; /* equal entries happen */
	c.exit_ns = c.entry_ns + (next_rand() % 16 ? len : 0);
	c.name = (uint32_t)(next_rand() % 50);
	c.api = 1;
	return c;
}

/* The innermost call of (pid, tid) holding @ts in sorted @v, or -1. */
static long ref_find(const struct ref_call *v, size_t n, uint32_t pid, uint32_t tid, uint64_t ts)
{
	size_t lo = 0, hi = n;
	long i;

	while (lo < hi) { /* first call after (pid, tid, ts) */
		size_t mid = lo + (hi - lo) / 2;
		const struct xm_call *c = &v[mid].c;
		int le = c->pid != pid ? c->pid < pid : c->tid != tid ? c->tid < tid : c->entry_ns <= ts;

		if (le)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = (long)lo - 1; i >= 0 && v[i].c.pid == pid && v[i].c.tid == tid; i--)
		if (v[i].c.exit_ns >= ts)
			return i;
	return -1;
}

static void probe_at(uint32_t *pid, uint32_t *tid, uint64_t *ts)
{
	uint32_t th = (uint32_t)(next_rand() % (N_THREADS + 1)); /* one thread without calls */

	*pid = 100 + th / 4;
	*tid = 1000 + th % 4;
	*ts = next_rand() % (SPAN + 300000);
}

/* @who: each task's (pid, tid) before the join gave their room to its call's */
static void check_tasks(const struct export_model *m, const struct ref_call *v,
			const uint32_t (*who)[2])
{
	size_t linked = 0, bad = 0;
	const struct xm_task *t;
	struct xm_tasks it;

	CHECK_EQ(m->n_tasks, N_TASKS);
	CHECK_EQ(xm_tasks_begin(m, &it), 0);
	while (xm_tasks_next(&it, &t) == 1) {
		long c = ref_find(v, N_CALLS, who[t->task_id][0], who[t->task_id][1], t->submit_ns);

		if (c < 0) {
			bad += t->linked;
			continue;
		}
		linked++;
		bad += !t->linked || t->call_entry_ns != v[c].c.entry_ns ||
		       t->call_tid != v[c].c.tid || t->call_name != v[c].c.name;
	}
	CHECK_EQ(it.n, N_TASKS);
	CHECK_EQ(bad, 0);
	CHECK(linked > N_TASKS / 4 && linked < N_TASKS); /* both cases are tested */
}

static void check_syncs(const struct export_model *m, struct ref_call *v,
			const struct xm_sync *syncs)
{
	const struct xm_call *c;
	struct xm_calls it;
	size_t i, bad = 0, with_sync = 0;

	CHECK_EQ(m->n_syncs, N_SYNCS);
	for (i = 0; i < N_SYNCS; i++) {
		const struct xm_sync *s = &syncs[i];
		long k = ref_find(v, N_CALLS, s->pid, s->tid, s->ts_ns);

		if (k >= 0) {
			v[k].c.has_sync = 1;
			v[k].c.sync_wait_ns += s->wait_ns;
		}
	}
	CHECK_EQ(xm_calls_begin(m, &it), 0);
	for (i = 0; xm_calls_next(&it, &c) == 1; i++) {
		with_sync += c->has_sync;
		bad += c->entry_ns != v[i].c.entry_ns || c->exit_ns != v[i].c.exit_ns ||
		       c->has_sync != v[i].c.has_sync || c->sync_wait_ns != v[i].c.sync_wait_ns;
	}
	CHECK_EQ(i, N_CALLS);
	CHECK_EQ(bad, 0);
	CHECK(with_sync > 0);
}

int main(void)
{
	char tmp[] = "/tmp/npuprof-link-XXXXXX";
	struct ref_call *v = calloc(N_CALLS, sizeof(*v));
	uint32_t(*who)[2] = calloc(N_TASKS, sizeof(*who));
	struct xm_sync *syncs = calloc(N_SYNCS, sizeof(*syncs));
	struct export_model m;
	size_t i;
	int fd;

	if (!v || !who || !syncs || !mkdtemp(tmp))
		CHECK_SKIP("no memory or temp dir");
	fd = open(tmp, O_RDONLY | O_DIRECTORY);
	CHECK(fd >= 0);
	export_model_init(&m, fd); /* the sorters spill there */
	m.dir = strdup(tmp);
	CHECK(m.dir != NULL);
	CHECK(N_CALLS * sizeof(struct xm_call) > (size_t)XM_SORT_MEM); /* calls spill */
	for (i = 0; i < N_CALLS; i++) {
		v[i] = (struct ref_call){ random_call(), i };
		CHECK_EQ(export_model_add_call(&m, &v[i].c), 0);
	}
	for (i = 0; i < N_TASKS; i++) {
		struct xm_task t = { .task_id = (uint32_t)i, .have = XM_HAVE_SUBMIT };

		probe_at(&t.pid, &t.tid, &t.submit_ns);
		who[i][0] = t.pid;
		who[i][1] = t.tid;
		CHECK_EQ(export_model_add_task(&m, &t), 0);
	}
	for (i = 0; i < N_SYNCS; i++) {
		probe_at(&syncs[i].pid, &syncs[i].tid, &syncs[i].ts_ns);
		syncs[i].wait_ns = next_rand() % 1000000;
		CHECK_EQ(export_model_add_sync(&m, &syncs[i]), 0);
	}
	CHECK_EQ(export_model_join(&m), 0);
	qsort(v, N_CALLS, sizeof(*v), cmp_ref);
	check_tasks(&m, v, who);
	check_syncs(&m, v, syncs);
	export_model_free(&m); /* closes fd */
	tmpdir_remove(tmp);
	free(v);
	free(who);
	free(syncs);
	return CHECK_DONE();
}
