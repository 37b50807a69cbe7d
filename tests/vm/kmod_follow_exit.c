// SPDX-License-Identifier: MIT
/*
 * Description: followed processes leave the session when they exit, not
 * before and not later; threads never count.  The session follows forker
 * F, which forks children A and B: TGID_OWNER of F, A and B is us, 3
 * tgids.  F starts a thread that exits: F stays (owner us, 3 tgids, 2
 * joined).  A and B exit and are not reaped yet (zombies): their owner is
 * already 0, 1 tgid, DEL_TGID A fails with ENOENT.  F exits: owner 0, 0
 * tgids, still 2 joined, 0 missed.  A second session follows forker G and
 * is closed: G's next child joins nothing (TGID_OWNER 0), and G is free
 * for the first session, which can follow it again.  No npusim needed.
 */
#include "kmod_follow.h"

static void check_stats(struct kt_dev *d, uint64_t joined, uint32_t nr_tgids)
{
	struct npuprof_follow_stats st;

	CHECK_EQ(kt_follow_stats(d, &st), 0);
	CHECK_EQ(st.joined, joined);
	CHECK_EQ(st.missed, 0);
	CHECK_EQ(st.nr_tgids, nr_tgids);
}

static void check_children_leave(struct kt_dev *d, struct kt_child *f)
{
	uint32_t me = (uint32_t)getpid(), a, b, tid;

	a = kt_forker_do(f, KT_FORK, 0);
	b = kt_forker_do(f, KT_FORK, 0);
	CHECK_EQ(kt_owner(d, f->pid), me);
	CHECK_EQ(kt_owner(d, a), me);
	CHECK_EQ(kt_owner(d, b), me);
	check_stats(d, 2, 3);

	tid = kt_forker_do(f, KT_THREAD, 0);
	CHECK(tid != UINT32_MAX && tid != (uint32_t)f->pid);
	CHECK_EQ(kt_owner(d, f->pid), me);
	check_stats(d, 2, 3);

	CHECK_EQ(kt_forker_do(f, KT_GO, 0), 0);
	CHECK(kt_wait_zombie(a));
	CHECK(kt_wait_zombie(b));
	CHECK_EQ(kt_owner(d, a), 0);
	CHECK_EQ(kt_owner(d, b), 0);
	check_stats(d, 2, 1);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DEL_TGID, a), -ENOENT);
	CHECK_EQ(kt_forker_do(f, KT_REAP, 0), 0);
}

/* A closed session follows nothing; its process is free for others. */
static void check_closed_session(struct kt_dev *d)
{
	static struct kt_dev d2;
	struct kt_child g;
	uint32_t c;

	/* G first: a forker started later would hold d2's fd open. */
	CHECK_EQ(kt_child_start(&g, kt_forker_main, NULL), 0);
	CHECK_EQ(kt_open(&d2), 0);
	CHECK_EQ(kt_follow(&d2, g.pid), 0);
	kt_close(&d2);
	c = kt_forker_do(&g, KT_FORK, 0);
	CHECK(c != UINT32_MAX);
	CHECK_EQ(kt_owner(d, c), 0);
	CHECK_EQ(kt_owner(d, g.pid), 0);
	CHECK_EQ(kt_follow(d, g.pid), 0);
	CHECK_EQ(kt_owner(d, g.pid), (uint32_t)getpid());
	CHECK_EQ(kt_child_wait(&g), 0);
	CHECK_EQ(kt_owner(d, g.pid), 0);
}

int main(void)
{
	static struct kt_dev d;
	struct kt_child f;
	int warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_both(NULL);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_child_start(&f, kt_forker_main, NULL), 0);
	CHECK_EQ(kt_follow(&d, f.pid), 0);

	check_children_leave(&d, &f);
	CHECK_EQ(kt_child_wait(&f), 0);
	CHECK_EQ(kt_owner(&d, f.pid), 0);
	check_stats(&d, 2, 0);
	check_closed_session(&d);

	kt_finish_both(&d, warnings);
	return CHECK_DONE();
}
