// SPDX-License-Identifier: MIT
/*
 * Description: npuprof.ko records exactly the tracepoint hits of the
 * selected tgid.  The stub driver fires K iterations of all four events
 * for a selected tgid (from process context and from an hrtimer, i.e.
 * hardirq), one submit with an over-long kernel name, and K iterations
 * for an unselected tgid; the rings must then hold exactly those records
 * of the selected tgid with every field as fired, and nothing lost.
 */
#include "kmod_common.h"

#define K_PROC 100
#define K_IRQ 25
#define SEL_TGID 4242
#define SEL_TID 4243
#define OTHER_TGID 5555

struct tally {
	unsigned int per_event[5];
	unsigned int records;
	unsigned int bad;
	unsigned int long_names;
	uint64_t last_ts[NPUPROF_MAX_CPUS];
};

/* Check one task record against what the stub fired. */
static void check_task(struct tally *t, unsigned int cpu,
		       const struct npuprof_rec_task *r)
{
	bool sync = r->event == NPUPROF_TASK_STREAM_SYNC;
	const char *want = sync ? "" : "stub_kernel";
	bool ok = r->hdr.size == sizeof(*r) && r->hdr.cpu == cpu &&
		  r->pid == SEL_TGID && r->tid == SEL_TID && r->device == 3 &&
		  r->stream == 7 && r->task_type == (sync ? 3 : 0) &&
		  r->dev_ts == 1000 + r->task_id && r->arg == 10ull * r->task_id &&
		  r->event >= NPUPROF_TASK_SUBMIT && r->event <= NPUPROF_TASK_STREAM_SYNC &&
		  r->hdr.ts >= t->last_ts[cpu];

	/* The long name is cut to 31 bytes and NUL-padded. */
	if (ok && r->task_id == K_PROC + K_IRQ + 1) {
		ok = r->event == NPUPROF_TASK_SUBMIT &&
		     memcmp(r->name, "stub_kernel_with_a_name_longer_", 31) == 0 &&
		     r->name[31] == '\0';
		t->long_names++;
	} else if (ok) {
		size_t n = strlen(want);

		ok = r->task_id >= 1 && r->task_id <= K_PROC + K_IRQ &&
		     memcmp(r->name, want, n) == 0;
		for (; ok && n < NPUPROF_NAME_LEN; n++)
			ok = r->name[n] == '\0';
	}
	if (!ok) {
		fprintf(stderr, "bad record: cpu %u event %u pid %u task %u name %.32s\n",
			cpu, r->event, r->pid, r->task_id, r->name);
		t->bad++;
		return;
	}
	t->last_ts[cpu] = r->hdr.ts;
	t->per_event[r->event]++;
}

static void on_record(void *ctx, unsigned int cpu,
		      const struct npuprof_rec_hdr *h)
{
	struct tally *t = ctx;

	t->records++;
	if (h->type != NPUPROF_REC_TASK) {
		t->bad++;
		return;
	}
	check_task(t, cpu, (const struct npuprof_rec_task *)h);
}

int main(void)
{
	static struct kt_dev d;
	static struct tally t;
	uint64_t written, lost;
	unsigned int ev;

	kt_require();
	kt_load_both(NULL);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(sizeof(struct npuprof_rec_task), 88);
	CHECK_EQ(kt_tp_status(&d), KT_ALL_TP);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, SEL_TGID), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);

	CHECK_EQ(kt_fire(KT_ALL, K_PROC, SEL_TGID, SEL_TID, "proc", ""), 0);
	CHECK_EQ(kt_fire(KT_ALL, K_IRQ, SEL_TGID, SEL_TID, "irq", ""), 0);
	CHECK_EQ(kt_fire(KT_SUBMIT, 1, SEL_TGID, SEL_TID, "proc", "long"), 0);
	CHECK_EQ(kt_fire(KT_ALL, K_PROC, OTHER_TGID, OTHER_TGID, "proc", ""), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);

	CHECK_EQ(kt_consume(&d, on_record, &t), 4 * (K_PROC + K_IRQ) + 1);
	CHECK_EQ(t.records, 4 * (K_PROC + K_IRQ) + 1);
	CHECK_EQ(t.bad, 0);
	CHECK_EQ(t.long_names, 1);
	/* The long-name submit is the one extra record. */
	CHECK_EQ(t.per_event[NPUPROF_TASK_SUBMIT], K_PROC + K_IRQ + 1);
	for (ev = NPUPROF_TASK_START; ev <= NPUPROF_TASK_STREAM_SYNC; ev++)
		CHECK_EQ(t.per_event[ev], K_PROC + K_IRQ);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 4 * (K_PROC + K_IRQ) + 1);
	CHECK_EQ(lost, 0);

	/* A second ENABLE resets the counters. */
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DEL_TGID, SEL_TGID), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DEL_TGID, SEL_TGID), -ENOENT);
	CHECK_EQ(kt_fire(KT_ALL, 3, SEL_TGID, SEL_TID, "proc", ""), 0);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 0);

	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	return CHECK_DONE();
}
