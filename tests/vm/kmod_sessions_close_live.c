// SPDX-License-Identifier: MIT
/*
 * Description: closing a session while it captures is safe, and other
 * sessions capture on undisturbed.  Child A submits npusim kernels
 * without pause; 30 times over, a new session takes A's tgid, enables
 * capture, waits until it has written records, and is closed while
 * enabled: half the time unmapped first, half the time with the fd
 * closed first, when the mappings keep the session (A stays owned by us)
 * until the last munmap().  After each close A's tgid is free again
 * (TGID_OWNER 0).  Meanwhile session K records child B's 10 x 20 kernels:
 * exactly 200 SUBMIT, START and END and 10 STREAM_SYNC, lost 0, and the
 * kernel logs no warning.  Skips without npusim.
 */
#include "kmod_sessions.h"

#define CHURNS 30
#define B_BATCHES 10
#define B_KERNELS 20 /* per batch */

/* Child A: kernels in batches until the parent says stop. */
static int busy_rank(void *arg, struct kt_child_io *io)
{
	struct kt_npu npu;
	uint32_t go;

	(void)arg;
	if (kt_npu_open(&npu) || kt_recv(io->in, &go))
		return 2;
	while (!kt_told(io->in))
		if (kt_npu_kernels(&npu, 20, "churn", 20000))
			return 3;
	kt_npu_close(&npu);
	return 0;
}

/* Child B: exactly B_BATCHES x B_KERNELS kernels, one sync per batch. */
static int kept_rank(void *arg, struct kt_child_io *io)
{
	struct kt_npu npu;
	unsigned int i;
	uint32_t go;

	(void)arg;
	if (kt_npu_open(&npu) || kt_recv(io->in, &go))
		return 2;
	for (i = 0; i < B_BATCHES; i++) {
		if (kt_npu_kernels(&npu, B_KERNELS, "kept", 20000))
			return 3;
		usleep(30000); /* spread over the parent's closes */
	}
	kt_npu_close(&npu);
	return 0;
}

/* Up to 5 s for the first records of a session's capture. */
static bool wait_written(struct kt_dev *d)
{
	uint64_t written, lost;
	int i;

	for (i = 0; i < 5000; i++) {
		if (kt_stats_sum(d, &written, &lost) == 0 && written > 0)
			return true;
		usleep(1000);
	}
	return false;
}

static uint32_t owner_of(struct kt_dev *d, uint32_t tgid)
{
	uint32_t owner = UINT32_MAX;

	CHECK_EQ(kt_tgid_owner(d, tgid, 0, &owner), 0);
	return owner;
}

/* One session on A's tgid, closed while it captures. */
static void churn(struct kt_dev *keeper, uint32_t tgid, bool fd_first)
{
	static struct kt_dev d;

	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, tgid), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK(wait_written(&d));
	if (fd_first) {
		close(d.fd);
		d.fd = -1;
		/* The mappings hold the session: capture goes on. */
		CHECK_EQ(owner_of(keeper, tgid), getpid());
	}
	kt_close(&d);
	CHECK_EQ(owner_of(keeper, tgid), 0);
}

int main(void)
{
	static struct kt_dev keeper;
	struct kt_tally t = { .name = "kept" };
	struct kt_child a, b;
	uint64_t written, lost;
	int i, warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_npusim(NULL);
	CHECK_EQ(kt_child_start(&a, busy_rank, NULL), 0);
	CHECK_EQ(kt_child_start(&b, kept_rank, NULL), 0);
	t.pid = (uint32_t)b.pid;
	CHECK_EQ(kt_open(&keeper), 0);
	CHECK_EQ(kt_ioctl(&keeper, NPUPROF_IOC_ADD_TGID, t.pid), 0);
	CHECK_EQ(kt_ioctl(&keeper, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_send(a.to_child, 1), 0);
	CHECK_EQ(kt_send(b.to_child, 1), 0);

	for (i = 0; i < CHURNS; i++)
		churn(&keeper, (uint32_t)a.pid, i % 2);

	CHECK_EQ(kt_send(a.to_child, 1), 0); /* stop */
	CHECK_EQ(kt_child_wait(&a), 0);
	CHECK_EQ(kt_child_wait(&b), 0);
	CHECK_EQ(kt_ioctl(&keeper, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_consume(&keeper, kt_tally_rec, &t), 3 * B_BATCHES * B_KERNELS + B_BATCHES);
	CHECK_EQ(t.bad, 0);
	CHECK_EQ(t.per_event[NPUPROF_TASK_SUBMIT], B_BATCHES * B_KERNELS);
	CHECK_EQ(t.per_event[NPUPROF_TASK_START], B_BATCHES * B_KERNELS);
	CHECK_EQ(t.per_event[NPUPROF_TASK_END], B_BATCHES * B_KERNELS);
	CHECK_EQ(t.per_event[NPUPROF_TASK_STREAM_SYNC], B_BATCHES);
	CHECK_EQ(kt_stats_sum(&keeper, &written, &lost), 0);
	CHECK_EQ(written, 3 * B_BATCHES * B_KERNELS + B_BATCHES);
	CHECK_EQ(lost, 0);

	kt_close(&keeper);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
