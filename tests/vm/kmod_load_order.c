// SPDX-License-Identifier: MIT
/*
 * Description: npuprof.ko attaches to the driver tracepoints whatever the
 * load order.  npuprof first, driver later: GET_TP_STATUS goes from 0 to
 * all four and events are recorded; driver first, npuprof later: all
 * four at once and events are recorded.  npuprof unloading before the
 * driver leaves no probe behind (no warning when the driver goes after).
 */
#include "kmod_common.h"

#define TGID 1717

static void count(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	(void)cpu;
	if (h->type == NPUPROF_REC_TASK &&
	    ((const struct npuprof_rec_task *)h)->pid == TGID)
		(*(unsigned int *)ctx)++;
}

/* With the device open: capture 4 events of TGID, expect them read back. */
static void expect_recording(struct kt_dev *d)
{
	unsigned int n = 0;

	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ADD_TGID, TGID), 0);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, 1, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_consume(d, count, &n), 4);
	CHECK_EQ(n, 4);
}

static void npuprof_first(void)
{
	static struct kt_dev d;

	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_tp_status(&d), 0);
	CHECK_EQ(kt_load(kt_stub_ko(), NULL), 0);
	CHECK_EQ(kt_tp_status(&d), KT_ALL_TP);
	expect_recording(&d);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	CHECK_EQ(kt_tp_status(&d), 0);
	/* And once more: a driver reloaded is picked up again. */
	CHECK_EQ(kt_load(kt_stub_ko(), NULL), 0);
	CHECK_EQ(kt_tp_status(&d), KT_ALL_TP);
	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
}

static void driver_first(void)
{
	static struct kt_dev d;

	CHECK_EQ(kt_load(kt_stub_ko(), NULL), 0);
	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_tp_status(&d), KT_ALL_TP);
	expect_recording(&d);
	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
}

int main(void)
{
	int warnings;

	kt_require();
	kt_unload_all();
	warnings = kt_kernel_warnings();
	npuprof_first();
	driver_first();
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
