// SPDX-License-Identifier: MIT
/*
 * Description: the children of a process added without FOLLOW are not
 * recorded.  The session adds forker process F with plain ADD_TGID and
 * enables capture; F forks children A and B (TGID_OWNER of A: 0), lets
 * them go, and each submits 4 "child" kernels; F submits 5 "forker"
 * kernels itself.  The session holds exactly F's 15 task records and its
 * sync (16, none of A's or B's); written 16, lost 0; FOLLOW_STATS 0
 * joined, 0 missed, 1 tgid (F).  Once F has exited, 0 tgids and
 * TGID_OWNER of F is 0: an added process leaves at exit too.  Skips
 * without npusim.
 */
#include "kmod_follow.h"

#define K_CHILD 4
#define K_FORKER 5

static void check_counts(struct kt_dev *d, struct kt_srcs *t)
{
	struct npuprof_follow_stats st;
	uint64_t written, lost;

	CHECK_EQ(kt_consume(d, kt_srcs_rec, t), 3 * K_FORKER + 1);
	kt_srcs_check(t);
	CHECK_EQ(kt_stats_sum(d, &written, &lost), 0);
	CHECK_EQ(written, 3 * K_FORKER + 1);
	CHECK_EQ(lost, 0);
	CHECK_EQ(kt_follow_stats(d, &st), 0);
	CHECK_EQ(st.joined, 0);
	CHECK_EQ(st.missed, 0);
	CHECK_EQ(st.nr_tgids, 1);
}

int main(void)
{
	static struct kt_dev d;
	static struct kt_srcs t;
	struct npuprof_follow_stats st;
	uint32_t a, b;
	struct kt_child f;
	int warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_npusim(NULL);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_child_start(&f, kt_forker_main, NULL), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, f.pid), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);

	a = kt_forker_do(&f, KT_FORK, K_CHILD);
	b = kt_forker_do(&f, KT_FORK, K_CHILD);
	CHECK(a != UINT32_MAX && b != UINT32_MAX);
	CHECK_EQ(kt_owner(&d, a), 0);
	CHECK_EQ(kt_owner(&d, b), 0);
	CHECK_EQ(kt_forker_do(&f, KT_KERNELS, K_FORKER), 0);
	CHECK_EQ(kt_forker_do(&f, KT_GO, 0), 0);
	CHECK_EQ(kt_forker_do(&f, KT_REAP, 0), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);

	kt_srcs_add(&t, f.pid, f.pid, "forker", K_FORKER);
	kt_srcs_add(&t, a, a, "child", 0);
	kt_srcs_add(&t, b, b, "child", 0);
	check_counts(&d, &t);

	CHECK_EQ(kt_child_wait(&f), 0);
	CHECK_EQ(kt_follow_stats(&d, &st), 0);
	CHECK_EQ(st.nr_tgids, 0);
	CHECK_EQ(kt_owner(&d, f.pid), 0);

	kt_close(&d);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
