// SPDX-License-Identifier: MIT
/*
 * Description: npuprof.ko records the simulated NPU driver's tasks.  With
 * npusim.ko loaded, 20 kernels and 5 copies are submitted on one stream
 * of /dev/davinci0 and the stream is synchronised: the rings hold, for
 * our tgid, exactly one SUBMIT, START and END per task with the task's
 * id, type, arg and name, host times submit <= start <= end, device times
 * start <= end, and one STREAM_SYNC; nothing lost.  Skips without npusim.
 */
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

static struct task_seen *find_task(struct seen *s, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < TASKS; i++)
		if (s->task[i].id == id)
			return &s->task[i];
	return NULL;
}

static void on_record(void *ctx, unsigned int cpu,
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

static int submit_all(int dev, uint32_t stream, struct seen *s)
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

static void check_tasks(const struct seen *s)
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

int main(void)
{
	static struct kt_dev d;
	static struct seen s;
	struct npusim_stream_req sreq = { 0, 0 };
	const char *ko = kt_first_existing("NPUSIM_KO", "build/kmod/npusim.ko",
					   "sim/driver/npusim.ko");
	uint64_t written, lost;
	int dev;

	kt_require();
	if (access(ko, R_OK) != 0)
		CHECK_SKIP("npusim.ko not built");
	kt_unload_all();
	kt_unload("npusim");
	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	CHECK_EQ(kt_load(ko, NULL), 0);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_tp_status(&d), KT_ALL_TP);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, getpid()), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);

	dev = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	CHECK(dev >= 0);
	CHECK_EQ(ioctl(dev, NPUSIM_IOC_STREAM_CREATE, &sreq), 0);
	CHECK_EQ(submit_all(dev, sreq.stream, &s), 0);
	close(dev);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);

	CHECK_EQ(kt_consume(&d, on_record, &s), 3 * TASKS + 1);
	CHECK_EQ(s.bad, 0);
	CHECK_EQ(s.syncs, 1);
	check_tasks(&s);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 3 * TASKS + 1);
	CHECK_EQ(lost, 0);

	kt_close(&d);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	return CHECK_DONE();
}
