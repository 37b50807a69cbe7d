/* SPDX-License-Identifier: MIT */
/*
 * The task run shared by the VM tests that capture a simulated driver's
 * tasks through npuprof.ko (kmod_npusim_capture, kmod_npustub_capture):
 * 20 kernels and 5 copies on one stream of /dev/davinci0, then one stream
 * sync, through the simulator's ioctls (both drivers share that ABI); and
 * the check that the rings hold, for our tgid, exactly one SUBMIT, START
 * and END per task with its id, type, arg and name, host times submit <=
 * start <= end, device times start <= end, and one STREAM_SYNC, nothing
 * lost.
 */
#ifndef NPUPROF_KMOD_CAPTURE_H
#define NPUPROF_KMOD_CAPTURE_H

#include <npusim_ioctl.h>
#include "kmod_common.h"

#define KERNELS 20
#define COPIES 5
#define TASKS (KERNELS + COPIES)

struct task_seen {
	uint32_t id;
	uint64_t ts[4], dev_ts[4];
	unsigned int hits[4];
	unsigned int bad;
};

struct seen {
	struct task_seen task[TASKS];
	unsigned int syncs;
	unsigned int bad;
};

static inline struct task_seen *find_task(struct seen *s, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < TASKS; i++)
		if (s->task[i].id == id)
			return &s->task[i];
	return NULL;
}

static inline void on_record(void *ctx, unsigned int cpu,
		      const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct seen *s = ctx;
	struct task_seen *t;
	unsigned int i;

	(void)cpu;
	if (h->type != NPUPROF_REC_TASK || r->pid != (uint32_t)getpid() ||
	    r->tid != (uint32_t)gettid() || r->device != 0) {
		s->bad++;
		return;
	}
	if (r->event == NPUPROF_TASK_STREAM_SYNC) {
		s->syncs++;
		return;
	}
	t = find_task(s, r->task_id);
	if (!t || r->event < NPUPROF_TASK_SUBMIT || r->event > NPUPROF_TASK_END) {
		s->bad++;
		return;
	}
	i = r->event;
	t->hits[i]++;
	t->ts[i] = h->ts;
	t->dev_ts[i] = r->dev_ts;
	i = (unsigned int)(t - s->task);
	if (i < KERNELS ? r->task_type != NPUPROF_TT_KERNEL || r->arg != 10000 ||
				  strcmp(r->name, "matmul_k") :
			  r->task_type != NPUPROF_TT_MEMCPY || r->arg != 4096)
		t->bad++;
}

static inline int submit_all(int dev, uint32_t stream, struct seen *s)
{
	struct npusim_task_req req;
	unsigned int i;

	for (i = 0; i < TASKS; i++) {
		memset(&req, 0, sizeof(req));
		req.stream = stream;
		if (i < KERNELS) {
			req.type = NPUSIM_TASK_KERNEL;
			req.duration_ns = 10000;
			strcpy(req.name, "matmul_k");
		} else {
			req.type = NPUSIM_TASK_MEMCPY;
			req.bytes = 4096;
		}
		if (ioctl(dev, NPUSIM_IOC_SUBMIT, &req) != 0)
			return -errno;
		s->task[i].id = req.task_id;
	}
	return ioctl(dev, NPUSIM_IOC_STREAM_SYNC, &stream) ? -errno : 0;
}

static inline void check_tasks(const struct seen *s)
{
	const struct task_seen *t;
	unsigned int i;

	for (i = 0; i < TASKS; i++) {
		t = &s->task[i];
		CHECK_EQ(t->hits[NPUPROF_TASK_SUBMIT], 1);
		CHECK_EQ(t->hits[NPUPROF_TASK_START], 1);
		CHECK_EQ(t->hits[NPUPROF_TASK_END], 1);
		CHECK_EQ(t->bad, 0);
		CHECK(t->ts[NPUPROF_TASK_SUBMIT] <= t->ts[NPUPROF_TASK_START]);
		CHECK(t->ts[NPUPROF_TASK_START] <= t->ts[NPUPROF_TASK_END]);
		CHECK(t->dev_ts[NPUPROF_TASK_START] <= t->dev_ts[NPUPROF_TASK_END]);
	}
}

/* Run the tasks on /dev/davinci0 (capture must be enabled). */
static inline void kc_run_tasks(struct seen *s)
{
	struct npusim_stream_req sreq = { 0, 0 };
	int dev = open("/dev/davinci0", O_RDWR | O_CLOEXEC);

	CHECK(dev >= 0);
	if (dev < 0)
		return;
	CHECK_EQ(ioctl(dev, NPUSIM_IOC_STREAM_CREATE, &sreq), 0);
	CHECK_EQ(submit_all(dev, sreq.stream, s), 0);
	close(dev);
}

/* After DISABLE: the rings hold exactly the run's records. */
static inline void kc_check_records(struct kt_dev *d, struct seen *s)
{
	uint64_t written, lost;

	CHECK_EQ(kt_consume(d, on_record, s), 3 * TASKS + 1);
	CHECK_EQ(s->bad, 0);
	CHECK_EQ(s->syncs, 1);
	check_tasks(s);
	CHECK_EQ(kt_stats_sum(d, &written, &lost), 0);
	CHECK_EQ(written, 3 * TASKS + 1);
	CHECK_EQ(lost, 0);
}

#endif /* NPUPROF_KMOD_CAPTURE_H */
