// SPDX-License-Identifier: MIT
/*
 * Description: a full session takes no more children and counts them as
 * missed; an exited child's slot takes the next one.  The session adds
 * 60 tgids no process has (4000000 + i) and follows forker F: 61.  F
 * forks 5 children: the first 3 join (64 = NPUPROF_MAX_TGIDS), the last 2
 * do not (TGID_OWNER 0): FOLLOW_STATS 3 joined, 2 missed, 64 tgids.  With
 * capture on, each child submits 1 "child" kernel: the session holds
 * exactly the 3 joined children's 4 records each (12), none of the
 * others'; written 12, lost 0.  The children have exited: 61 tgids; F's
 * next child joins (4 joined, 2 missed, 62).  F exits: 60.  Skips
 * without npusim.
 */
#include "kmod_follow.h"

#define FAKES 60
#define FAKE_TGID 4000000u
#define KIDS 5
#define JOINING (NPUPROF_MAX_TGIDS - FAKES - 1)

static void check_stats(struct kt_dev *d, uint64_t joined, uint64_t missed,
			uint32_t nr_tgids)
{
	struct npuprof_follow_stats st;

	CHECK_EQ(kt_follow_stats(d, &st), 0);
	CHECK_EQ(st.joined, joined);
	CHECK_EQ(st.missed, missed);
	CHECK_EQ(st.nr_tgids, nr_tgids);
}

/* F forks KIDS children; the first JOINING are ours, the rest nobody's. */
static void fork_kids(struct kt_dev *d, struct kt_child *f, struct kt_srcs *t)
{
	uint32_t pid;
	unsigned int i;

	for (i = 0; i < KIDS; i++) {
		pid = kt_forker_do(f, KT_FORK, 1);
		CHECK(pid != UINT32_MAX);
		CHECK_EQ(kt_owner(d, pid), i < JOINING ? (uint32_t)getpid() : 0);
		kt_srcs_add(t, pid, pid, "child", i < JOINING ? 1 : 0);
	}
	check_stats(d, JOINING, KIDS - JOINING, NPUPROF_MAX_TGIDS);
}

int main(void)
{
	static struct kt_dev d;
	static struct kt_srcs t;
	uint64_t written, lost;
	struct kt_child f;
	uint32_t pid;
	unsigned int i;
	int warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_npusim(NULL);
	CHECK_EQ(kt_open(&d), 0);
	for (i = 0; i < FAKES; i++)
		CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, FAKE_TGID + i), 0);
	CHECK_EQ(kt_child_start(&f, kt_forker_main, NULL), 0);
	CHECK_EQ(kt_follow(&d, f.pid), 0);
	check_stats(&d, 0, 0, FAKES + 1);

	fork_kids(&d, &f, &t);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_forker_do(&f, KT_GO, 0), 0);
	CHECK_EQ(kt_forker_do(&f, KT_REAP, 0), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_consume(&d, kt_srcs_rec, &t), 4 * JOINING);
	kt_srcs_check(&t);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 4 * JOINING);
	CHECK_EQ(lost, 0);
	check_stats(&d, JOINING, KIDS - JOINING, FAKES + 1);

	pid = kt_forker_do(&f, KT_FORK, 0);
	CHECK_EQ(kt_owner(&d, pid), (uint32_t)getpid());
	check_stats(&d, JOINING + 1, KIDS - JOINING, FAKES + 2);
	CHECK_EQ(kt_child_wait(&f), 0);
	check_stats(&d, JOINING + 1, KIDS - JOINING, FAKES);

	kt_close(&d);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
