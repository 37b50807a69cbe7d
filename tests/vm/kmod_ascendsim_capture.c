// SPDX-License-Identifier: MIT
/*
 * Description: npuprof.ko records the real Ascend driver's task
 * tracepoints as ascendsim.ko fires them (tests/vm/ascend_run.h: sq_mode
 * mixed, streams 0/1/2 are kio/uio_t/uio_d).  /dev/davinci0 belongs to
 * module ascendsim; its procfs switches are 0444, off at load and take
 * exactly "1\n"/"0\n"; the stream and hw_sq views list the streams we
 * opened with our pid and their modes.  LIST_TP names backend "ascend":
 * trs_chan:sqe as QUEUED and trs_core:logic_cqe as CQE, module
 * ascendsim, and nothing else (no npusim_task_* tracepoint).  With the
 * switches off a run gives no record at all; with them on, exactly one
 * QUEUED per kio and uio_t task (kio's with our pid and tid, uio_t's with
 * pid 0 from the forwarding worker), none for uio_d, one CQE per event
 * record with a device counter, nothing lost.  Skips without ascendsim.ko.
 */
#include "ascend_run.h"
#include "driver_link.h"
#include "tp_list_check.h"

static const char *const ascend_tp[NPUPROF_TP_COUNT] = {
	[NPUPROF_TP_TASK_QUEUED] = "sqe",
	[NPUPROF_TP_TASK_CQE] = "logic_cqe",
};

static void check_list(struct kt_dev *d, uint32_t registered)
{
	static struct npuprof_tp_list list;

	memset(&list, 0, sizeof(list));
	CHECK_EQ(ioctl(d->fd, NPUPROF_IOC_LIST_TP, &list), 0);
	check_tp_list(&list, "ascend", ascend_tp, "ascendsim", registered);
}

static void on_record(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	void **c = ctx;

	(void)cpu;
	ar_note(c[0], c[1], (const struct npuprof_rec_task *)h, (uint32_t)getpid(),
		(uint32_t)gettid());
}

static void on_any(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	(void)cpu;
	(void)h;
	(*(unsigned int *)ctx)++;
}

/* One window: ENABLE, the run, DISABLE. */
static void window(struct kt_dev *d, struct ar_run *r)
{
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ENABLE, 0), 0);
	ar_submit(r);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DISABLE, 0), 0);
}

int main(void)
{
	static struct kt_dev d;
	static struct ar_run r;
	static struct ar_seen seen;
	void *ctx[2] = { &r, &seen };
	uint64_t written, lost;
	unsigned int off = 0;
	char mod[64];

	kt_require();
	kt_unload_all();
	ar_load();
	CHECK_EQ(drv_link_name("/dev/davinci0", "device/driver/module", mod, sizeof(mod)), 0);
	CHECK_STR(mod, ASCEND_DRV_MODULE);
	ar_check_switches();
	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_tp_status(&d), (1u << NPUPROF_TP_TASK_QUEUED) | (1u << NPUPROF_TP_TASK_CQE));
	check_list(&d, 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, getpid()), 0);
	ar_open(&r);

	/* Switches off (the default): the driver fires nothing. */
	window(&d, &r);
	CHECK_EQ(kt_consume(&d, on_any, &off), 0);
	CHECK_EQ(off, 0);

	ar_switch('1');
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	check_list(&d, 1);
	ar_submit(&r);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
	ar_switch('0');
	CHECK_EQ(kt_consume(&d, on_record, ctx), 2 * AR_TASKS + AR_STREAMS * AR_EVENTS);
	ar_check_seen(&seen);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 2 * AR_TASKS + AR_STREAMS * AR_EVENTS);
	CHECK_EQ(lost, 0);
	ar_check_hw_sq();
	ar_close(&r);

	kt_close(&d);
	CHECK_EQ(kt_unload("ascendsim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	return CHECK_DONE();
}
