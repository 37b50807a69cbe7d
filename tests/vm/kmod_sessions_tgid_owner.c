// SPDX-License-Identifier: MIT
/*
 * Description: a tgid belongs to one session at a time.  A child process
 * opens session 1, adds tgid T and enables capture.  Session 2, opened by
 * the test: ADD_TGID T fails with EBUSY, DEL_TGID T with ENOENT, and
 * TGID_OWNER T returns the child's pid (an unowned tgid: 0; tgid 0 or a
 * nonzero reserved field: EINVAL).  The 400 events then fired for T all
 * reach session 1 (the child reads exactly 400) and none session 2.  Once
 * the child closed session 1, TGID_OWNER T returns 0, session 2 adds T,
 * is named its owner, and records exactly the next 40 events.
 */
#include "kmod_sessions.h"

#define T 3131
#define UNOWNED 3132
#define FIRED 100 /* iterations of 4 events */
#define LATER 10

static void count_t(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	(void)cpu;
	if (h->type == NPUPROF_REC_TASK &&
	    ((const struct npuprof_rec_task *)h)->pid == T)
		(*(uint32_t *)ctx)++;
}

/*
 * Child: session 1 owns T and captures; when told, report how many
 * records of T it read (UINT32_MAX on a setup error) and close it.
 */
static int first_session(void *arg, struct kt_child_io *io)
{
	static struct kt_dev d;
	uint32_t n = 0, word;

	(void)arg;
	if (kt_open(&d) || kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, T) ||
	    kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0)) {
		kt_send(io->out, UINT32_MAX);
		return 2;
	}
	kt_send(io->out, 0); /* ready */
	if (kt_recv(io->in, &word))
		return 3;
	if (kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0) || kt_consume(&d, count_t, &n) < 0)
		n = UINT32_MAX;
	kt_close(&d);
	kt_send(io->out, n);
	return 0;
}

/* While the child's session owns T: refused, named, untouched. */
static void check_refused(struct kt_dev *d, struct kt_child *c)
{
	uint32_t owner = 0, n = 0;
	uint64_t written, lost;

	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ADD_TGID, T), -EBUSY);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DEL_TGID, T), -ENOENT);
	CHECK_EQ(kt_tgid_owner(d, T, 0, &owner), 0);
	CHECK_EQ(owner, c->pid);
	CHECK_EQ(kt_tgid_owner(d, UNOWNED, 0, &owner), 0);
	CHECK_EQ(owner, 0);
	CHECK_EQ(kt_tgid_owner(d, 0, 0, &owner), -EINVAL);
	CHECK_EQ(kt_tgid_owner(d, T, 1, &owner), -EINVAL);

	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, FIRED, T, T, "proc", ""), 0);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_stats_sum(d, &written, &lost), 0);
	CHECK_EQ(written, 0);
	CHECK_EQ(lost, 0);
	CHECK_EQ(kt_send(c->to_child, 1), 0);
	CHECK_EQ(kt_recv(c->from_child, &n), 0);
	CHECK_EQ(n, 4 * FIRED);
}

/* The child's session is gone: T is free, and ours once added. */
static void check_taken_over(struct kt_dev *d)
{
	uint32_t owner = 1, n = 0;
	uint64_t written, lost;

	CHECK_EQ(kt_tgid_owner(d, T, 0, &owner), 0);
	CHECK_EQ(owner, 0);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ADD_TGID, T), 0);
	CHECK_EQ(kt_tgid_owner(d, T, 0, &owner), 0);
	CHECK_EQ(owner, getpid());
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, LATER, T, T, "proc", ""), 0);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_consume(d, count_t, &n), 4 * LATER);
	CHECK_EQ(n, 4 * LATER);
	CHECK_EQ(kt_stats_sum(d, &written, &lost), 0);
	CHECK_EQ(written, 4 * LATER);
	CHECK_EQ(lost, 0);
}

int main(void)
{
	static struct kt_dev d;
	struct kt_child c;
	uint32_t ready = UINT32_MAX;

	kt_require();
	kt_load_both(NULL);
	CHECK_EQ(kt_child_start(&c, first_session, NULL), 0);
	CHECK_EQ(kt_recv(c.from_child, &ready), 0);
	CHECK_EQ(ready, 0);
	CHECK_EQ(kt_open(&d), 0);

	check_refused(&d, &c);
	CHECK_EQ(kt_child_wait(&c), 0);
	check_taken_over(&d);

	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	return CHECK_DONE();
}
