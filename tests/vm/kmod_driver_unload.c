// SPDX-License-Identifier: MIT
/*
 * Description: the tracepoint driver can be unloaded while capture is on.
 * npuprof.ko lets go of its tracepoints (GET_TP_STATUS drops to 0), the
 * records written before stay readable, and npuprof.ko then unloads too,
 * all without a kernel warning (the tracepoint core WARNs when a probe is
 * left on a going module).
 */
#include "kmod_common.h"

#define TGID 4321

static void count(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	(void)cpu;
	if (h->type == NPUPROF_REC_TASK &&
	    ((const struct npuprof_rec_task *)h)->pid == TGID)
		(*(unsigned int *)ctx)++;
}

int main(void)
{
	static struct kt_dev d;
	unsigned int n = 0;
	int warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_both(NULL);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_tp_status(&d), KT_ALL_TP);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, TGID), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(KT_ALL, 10, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(kt_fire(KT_ALL, 10, TGID, TGID, "irq", ""), 0);

	/* Capture still on. */
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	CHECK_EQ(kt_tp_status(&d), 0);
	CHECK_EQ(kt_consume(&d, count, &n), 80);
	CHECK_EQ(n, 80);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);

	/* npuprof.ko is held while its device is open or mapped. */
	CHECK_EQ(kt_unload("npuprof"), -EWOULDBLOCK);
	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
