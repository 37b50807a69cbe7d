// SPDX-License-Identifier: MIT
/*
 * Description: probes nesting on one CPU do not corrupt its ring.  The
 * stub fires N iterations of all four events from process context while
 * a pinned 20 us hrtimer fires N more from hardirq on the same CPU.  The
 * rings must hold exactly 8 N intact records, each (event, task id) once,
 * timestamps non-decreasing per CPU, nothing lost, and nesting must really
 * have happened: at least once an iteration's four records are split by
 * another's (a hardirq probe landing inside a process-context one).
 * Whether the timer gets in while the writer runs depends on the host (a
 * loaded host delivers the guest's timer late), so the round is repeated,
 * every one checked exactly, until one has nested, at most ROUNDS times.
 */
#include "kmod_common.h"

#define TGID 9090
#define N 1000
#define ROUNDS 10

struct seen {
	uint32_t base; /* the stub's task ids go on: this round's are base + 1.. */
	unsigned char hit[5][2 * N + 1];
	unsigned int records;
	unsigned int bad;
	unsigned int nested; /* records that cut into an unfinished iteration */
	uint32_t last_id[NPUPROF_MAX_CPUS];
	uint64_t last_ts[NPUPROF_MAX_CPUS];
};

/* Records of task @id seen so far (one per event kind). */
static unsigned int seen_of(const struct seen *s, uint32_t id)
{
	unsigned int e, n = 0;

	for (e = 1; e <= 4; e++)
		n += s->hit[e][id];
	return n;
}

static void on_record(void *ctx, unsigned int cpu,
		      const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct seen *s = ctx;
	uint32_t id = r->task_id - s->base;

	s->records++;
	if (h->type != NPUPROF_REC_TASK || h->size != sizeof(*r) ||
	    h->cpu != cpu || r->pid != TGID || r->event < 1 || r->event > 4 ||
	    id < 1 || id > 2 * N ||
	    r->dev_ts != 1000 + r->task_id || r->arg != 10ull * r->task_id ||
	    h->ts < s->last_ts[cpu] || s->hit[r->event][id]) {
		s->bad++;
		return;
	}
	if (s->last_id[cpu] && id != s->last_id[cpu] && seen_of(s, s->last_id[cpu]) < 4)
		s->nested++;
	s->hit[r->event][id] = 1;
	s->last_ts[cpu] = h->ts;
	s->last_id[cpu] = id;
}

/* Round @round: exactly 8 N intact records.  Return: records that nested. */
static unsigned int round_nested(struct kt_dev *d, unsigned int round)
{
	static struct seen s;
	uint64_t written, lost;

	memset(&s, 0, sizeof(s));
	s.base = round * 2 * N;
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, N, TGID, TGID, "mixed", ""), 0);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_stats_sum(d, &written, &lost), 0);
	CHECK_EQ(written, 8 * N);
	CHECK_EQ(lost, 0);
	CHECK_EQ(kt_consume(d, on_record, &s), 8 * N);
	CHECK_EQ(s.bad, 0);
	fprintf(stderr, "%u records cut into an unfinished iteration\n", s.nested);
	return s.nested;
}

int main(void)
{
	static struct kt_dev d;
	unsigned int round, nested = 0;

	kt_require();
	CHECK(kt_pin_cpu() >= 0);
	kt_load_both(NULL);
	CHECK_EQ(kt_open(&d), 0);
	CHECK(d.info.data_size / sizeof(struct npuprof_rec_task) > 8 * N);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, TGID), 0);
	for (round = 0; round < ROUNDS && !nested && !check_failures; round++)
		nested = round_nested(&d, round);
	CHECK(nested > 0);

	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	return CHECK_DONE();
}
