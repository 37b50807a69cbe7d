// SPDX-License-Identifier: MIT
/*
 * Description: the project's reader follows a launcher's children as msprof
 * will (npuprof_kring_add_tgid_follow(), npuprof_kring_follow_missed()),
 * against the real npuprof.ko and npusim.ko.  Following tgid 0 or -5:
 * -EINVAL; following forker F: 0, twice; a second reader cannot follow F
 * (-EBUSY) and has missed 0.  With capture on, F's child submits 3
 * "child" kernels: npuprof_kring_consume() delivers exactly its 9 task
 * records and 1 sync, under its pid; missed 0.  Then 62 more tgids no
 * process has (63 with F, the child having exited) and 2 more children
 * of F: the first joins (npuprof_kring_tgid_owner(): our pid), the second
 * does not (0): missed 1.  Skips without npusim.
 */
#include "kmod_follow.h"

#include <npuprof/kring.h>

#define K_CHILD 3
#define FAKE_TGID 4100000

struct count {
	uint32_t pid;
	unsigned int mine;
	unsigned int other;
};

static int count_rec(void *ctx, const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct count *c = ctx;

	if (h->type == NPUPROF_REC_TASK && r->pid == c->pid && r->tid == c->pid &&
	    (r->event == NPUPROF_TASK_STREAM_SYNC || !strcmp(r->name, "child")))
		c->mine++;
	else
		c->other++;
	return 0;
}

static uint64_t missed(struct npuprof_kring *kr)
{
	uint64_t n = UINT64_MAX;

	CHECK_EQ(npuprof_kring_follow_missed(kr, &n), 0);
	return n;
}

static void check_capture(struct npuprof_kring *kr, struct kt_child *f)
{
	struct count c = { 0 };

	CHECK_EQ(npuprof_kring_enable(kr), 0);
	c.pid = kt_forker_do(f, KT_FORK, K_CHILD);
	CHECK_EQ(kt_forker_do(f, KT_GO, 0), 0);
	CHECK_EQ(kt_forker_do(f, KT_REAP, 0), 0);
	CHECK_EQ(npuprof_kring_disable(kr), 0);
	CHECK_EQ(npuprof_kring_consume(kr, count_rec, &c), 3 * K_CHILD + 1);
	CHECK_EQ(c.mine, 3 * K_CHILD + 1);
	CHECK_EQ(c.other, 0);
	CHECK_EQ(missed(kr), 0);
}

/* Fork a child of F; who records it: our pid, or 0 for nobody. */
static pid_t fork_owner(struct npuprof_kring *kr, struct kt_child *f)
{
	uint32_t pid = kt_forker_do(f, KT_FORK, 0);
	pid_t owner = -1;

	CHECK(pid != UINT32_MAX);
	CHECK_EQ(npuprof_kring_tgid_owner(kr, (pid_t)pid, &owner), 0);
	return owner;
}

static void check_missed(struct npuprof_kring *kr, struct kt_child *f)
{
	unsigned int i;

	for (i = 0; i < NPUPROF_MAX_TGIDS - 2; i++)
		CHECK_EQ(npuprof_kring_add_tgid(kr, FAKE_TGID + i), 0);
	CHECK_EQ(fork_owner(kr, f), getpid());
	CHECK_EQ(missed(kr), 0);
	CHECK_EQ(fork_owner(kr, f), 0);
	CHECK_EQ(missed(kr), 1);
}

int main(void)
{
	struct npuprof_kring *kr = NULL, *second = NULL;
	struct kt_child f;
	int warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_npusim(NULL);
	CHECK_EQ(kt_child_start(&f, kt_forker_main, NULL), 0);
	CHECK_EQ(npuprof_kring_open(NULL, &kr), 0);
	CHECK_EQ(npuprof_kring_open(NULL, &second), 0);
	if (!kr || !second) {
		kt_unload("npusim");
		kt_unload_all();
		return 1;
	}
	CHECK_EQ(npuprof_kring_add_tgid_follow(kr, 0), -EINVAL);
	CHECK_EQ(npuprof_kring_add_tgid_follow(kr, -5), -EINVAL);
	CHECK_EQ(npuprof_kring_add_tgid_follow(kr, f.pid), 0);
	CHECK_EQ(npuprof_kring_add_tgid_follow(kr, f.pid), 0);
	CHECK_EQ(npuprof_kring_add_tgid_follow(second, f.pid), -EBUSY);
	CHECK_EQ(missed(second), 0);
	npuprof_kring_close(second);

	check_capture(kr, &f);
	check_missed(kr, &f);

	CHECK_EQ(kt_child_wait(&f), 0);
	npuprof_kring_close(kr);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
