// SPDX-License-Identifier: MIT
/*
 * Description: ADD_TGID_FLAGS checks its request and only ever turns
 * following on.  Tgid 0, an unknown flag (bit 1, bit 31) or a nonzero
 * reserved word: EINVAL, and nothing is added (0 tgids).  Forker F added
 * with plain ADD_TGID: its child a does not join (TGID_OWNER 0).  FOLLOW
 * on F, which the session has already: 0, and child b joins (owner: us).
 * Plain ADD_TGID of F, then ADD_TGID_FLAGS of F with flags 0: both 0, and
 * F still followed: children c and d join.  A second session cannot
 * follow F or b (EBUSY).  DEL_TGID F then plain ADD_TGID F: child e does
 * not join, while b, c and d, which joined, stay: FOLLOW_STATS 3 joined,
 * 0 missed, 4 tgids (F, b, c, d); the second session's 0, 0, 0.  No
 * npusim needed.
 */
#include "kmod_follow.h"

static void check_refused(struct kt_dev *d, uint32_t f)
{
	struct npuprof_follow_stats st;

	CHECK_EQ(kt_add_tgid_flags(d, 0, NPUPROF_TGID_FOLLOW, 0), -EINVAL);
	CHECK_EQ(kt_add_tgid_flags(d, f, 2, 0), -EINVAL);
	CHECK_EQ(kt_add_tgid_flags(d, f, NPUPROF_TGID_FOLLOW | 1u << 31, 0), -EINVAL);
	CHECK_EQ(kt_add_tgid_flags(d, f, NPUPROF_TGID_FOLLOW, 1), -EINVAL);
	CHECK_EQ(kt_follow_stats(d, &st), 0);
	CHECK_EQ(st.nr_tgids, 0);
	CHECK_EQ(kt_owner(d, f), 0);
}

/* Fork a child of F; its TGID_OWNER must be @owner.  Return its pid. */
static uint32_t fork_owned_by(struct kt_dev *d, struct kt_child *f,
			      uint32_t owner)
{
	uint32_t pid = kt_forker_do(f, KT_FORK, 0);

	CHECK(pid != UINT32_MAX);
	CHECK_EQ(kt_owner(d, pid), owner);
	return pid;
}

int main(void)
{
	static struct kt_dev d, d2;
	struct npuprof_follow_stats st;
	uint32_t me = (uint32_t)getpid(), b;
	struct kt_child f;
	int warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_both(NULL);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_open(&d2), 0);
	CHECK_EQ(kt_child_start(&f, kt_forker_main, NULL), 0);
	check_refused(&d, f.pid);

	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, f.pid), 0);
	fork_owned_by(&d, &f, 0);
	CHECK_EQ(kt_follow(&d, f.pid), 0);
	b = fork_owned_by(&d, &f, me);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, f.pid), 0);
	fork_owned_by(&d, &f, me);
	CHECK_EQ(kt_add_tgid_flags(&d, f.pid, 0, 0), 0);
	fork_owned_by(&d, &f, me);
	CHECK_EQ(kt_follow(&d2, f.pid), -EBUSY);
	CHECK_EQ(kt_follow(&d2, b), -EBUSY);

	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DEL_TGID, f.pid), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, f.pid), 0);
	fork_owned_by(&d, &f, 0);
	CHECK_EQ(kt_owner(&d, b), me);
	CHECK_EQ(kt_follow_stats(&d, &st), 0);
	CHECK_EQ(st.joined, 3);
	CHECK_EQ(st.missed, 0);
	CHECK_EQ(st.nr_tgids, 4);
	CHECK_EQ(kt_follow_stats(&d2, &st), 0);
	CHECK_EQ(st.joined, 0);
	CHECK_EQ(st.missed, 0);
	CHECK_EQ(st.nr_tgids, 0);

	CHECK_EQ(kt_forker_do(&f, KT_GO, 0), 0);
	CHECK_EQ(kt_forker_do(&f, KT_REAP, 0), 0);
	CHECK_EQ(kt_child_wait(&f), 0);
	kt_close(&d2);
	kt_finish_both(&d, warnings);
	return CHECK_DONE();
}
