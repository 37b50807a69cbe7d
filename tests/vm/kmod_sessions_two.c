// SPDX-License-Identifier: MIT
/*
 * Description: two capture sessions at once, each recording only its own
 * process.  Two child processes, released together, submit kernels on
 * streams of /dev/davinci0 at the same time (A: 20 "rank_a" kernels, B:
 * 30 "rank_b" kernels, then each syncs its stream).  Session 1 owns A's
 * tgid, session 2 owns B's.  Session 1 then holds exactly A's 20 SUBMIT,
 * START and END records and 1 STREAM_SYNC, session 2 exactly B's 30 + 30 +
 * 30 + 1, every record with its child's pid and kernel name; written is
 * 61 and 91, lost 0 in both.  Skips without npusim.
 */
#include "kmod_sessions.h"

#define KERNELS_A 20
#define KERNELS_B 30

struct rank {
	const char *name;
	unsigned int kernels;
};

/* Child: wait for the word, then run the kernels on our own stream. */
static int run_rank(void *arg, struct kt_child_io *io)
{
	const struct rank *r = arg;
	struct kt_npu npu;
	uint32_t go;

	if (kt_npu_open(&npu))
		return 2;
	if (kt_recv(io->in, &go))
		return 3;
	if (kt_npu_kernels(&npu, r->kernels, r->name, 20000))
		return 4;
	kt_npu_close(&npu);
	return 0;
}

/* Exactly @kernels kernels of the tally's pid and one sync, nothing lost. */
static void check_session(struct kt_dev *d, struct kt_tally *t,
			  unsigned int kernels)
{
	uint64_t written, lost;

	CHECK_EQ(kt_consume(d, kt_tally_rec, t), 3 * kernels + 1);
	CHECK_EQ(t->records, 3 * kernels + 1);
	CHECK_EQ(t->bad, 0);
	CHECK_EQ(t->per_event[NPUPROF_TASK_SUBMIT], kernels);
	CHECK_EQ(t->per_event[NPUPROF_TASK_START], kernels);
	CHECK_EQ(t->per_event[NPUPROF_TASK_END], kernels);
	CHECK_EQ(t->per_event[NPUPROF_TASK_STREAM_SYNC], 1);
	CHECK_EQ(kt_stats_sum(d, &written, &lost), 0);
	CHECK_EQ(written, 3 * kernels + 1);
	CHECK_EQ(lost, 0);
}

int main(void)
{
	static struct kt_dev s1, s2;
	struct rank ra = { "rank_a", KERNELS_A }, rb = { "rank_b", KERNELS_B };
	struct kt_tally ta = { .name = "rank_a" }, tb = { .name = "rank_b" };
	struct kt_child a, b;
	int warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_npusim(NULL);
	CHECK_EQ(kt_child_start(&a, run_rank, &ra), 0);
	CHECK_EQ(kt_child_start(&b, run_rank, &rb), 0);
	ta.pid = (uint32_t)a.pid;
	tb.pid = (uint32_t)b.pid;

	CHECK_EQ(kt_open(&s1), 0);
	CHECK_EQ(kt_open(&s2), 0);
	CHECK_EQ(kt_ioctl(&s1, NPUPROF_IOC_ADD_TGID, ta.pid), 0);
	CHECK_EQ(kt_ioctl(&s2, NPUPROF_IOC_ADD_TGID, tb.pid), 0);
	CHECK_EQ(kt_ioctl(&s1, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_ioctl(&s2, NPUPROF_IOC_ENABLE, 0), 0);

	CHECK_EQ(kt_send(a.to_child, 1), 0);
	CHECK_EQ(kt_send(b.to_child, 1), 0);
	CHECK_EQ(kt_child_wait(&a), 0);
	CHECK_EQ(kt_child_wait(&b), 0);
	CHECK_EQ(kt_ioctl(&s1, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_ioctl(&s2, NPUPROF_IOC_DISABLE, 0), 0);

	check_session(&s1, &ta, KERNELS_A);
	check_session(&s2, &tb, KERNELS_B);

	kt_close(&s1);
	kt_close(&s2);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
