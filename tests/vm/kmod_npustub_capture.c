// SPDX-License-Identifier: MIT
/*
 * Description: npuprof.ko records a driver that is not npusim.  With
 * npustub.ko loaded (the simulator behind backend npustub's tracepoints:
 * other names, other argument order, u16 task type, signed pids, NULL
 * names), the run of kmod_capture.h (20 kernels, 5 copies, one sync on
 * /dev/davinci0) arrives in the rings exactly, field by field.  Also:
 * /dev/davinci0 belongs to module npustub in sysfs; npustub has no clock
 * ioctl (ENOTTY); LIST_TP names backend "npustub", its four tracepoints
 * by bit, module "npustub", registered only between ENABLE and DISABLE;
 * LIST_TP with a nonzero reserved word fails with EINVAL and changes
 * nothing; once npustub unloads, LIST_TP is empty.  npustub.ko does not
 * load while npusim.ko is loaded (EEXIST: both make /dev/davinci0).  Skips
 * without npustub.ko.
 */
#include <npuprof/drv/npustub_tp.h>
#include "driver_link.h"
#include "kmod_capture.h"
#include "tp_list_check.h"

static const char *const stub_tp[NPUPROF_TP_COUNT] = {
	[NPUPROF_TP_TASK_SUBMIT] = "npustub_sq_submit",
	[NPUPROF_TP_TASK_START] = "npustub_task_exec_begin",
	[NPUPROF_TP_TASK_END] = "npustub_task_exec_end",
	[NPUPROF_TP_STREAM_SYNC] = "npustub_sq_sync_done",
};

/* LIST_TP: exactly npustub's four, registered as given. */
static void check_list(struct kt_dev *d, uint32_t registered)
{
	static struct npuprof_tp_list list;

	memset(&list, 0, sizeof(list));
	CHECK_EQ(ioctl(d->fd, NPUPROF_IOC_LIST_TP, &list), 0);
	check_tp_list(&list, "npustub", stub_tp, "npustub", registered);
}

static void check_list_empty(struct kt_dev *d)
{
	static struct npuprof_tp_list list;

	memset(&list, 0, sizeof(list));
	CHECK_EQ(ioctl(d->fd, NPUPROF_IOC_LIST_TP, &list), 0);
	CHECK_EQ(list.count, 0);
	CHECK_EQ(list.tp[0].name[0], 0);
}

/* Reserved words of the request must be 0: room for later minors. */
static void check_list_reserved(struct kt_dev *d)
{
	static struct npuprof_tp_list list;
	unsigned int i;

	for (i = 0; i < 7; i++) {
		memset(&list, 0, sizeof(list));
		list.count = 77;
		list.reserved[i] = 1;
		CHECK_EQ(ioctl(d->fd, NPUPROF_IOC_LIST_TP, &list), -1);
		CHECK_EQ(errno, EINVAL);
		CHECK_EQ(list.count, 77);
	}
}

/* The two simulated drivers exclude each other: /dev/davinci0 is taken. */
static void check_not_with_npusim(const char *stub_ko)
{
	const char *sim_ko = kt_first_existing("NPUSIM_KO", "build/kmod/npusim.ko",
					       "sim/driver/npusim.ko");

	if (access(sim_ko, R_OK) != 0)
		return;
	CHECK_EQ(kt_load(sim_ko, NULL), 0);
	CHECK_EQ(kt_load(stub_ko, NULL), -EEXIST);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK(access("/dev/davinci0", F_OK) != 0);
}

/* The stub driver: recognised by its module, and without a clock. */
static void check_driver(void)
{
	struct npusim_clock_req clk;
	char mod[64];
	int dev;

	CHECK_EQ(drv_link_name("/dev/davinci0", "device/driver/module", mod,
			       sizeof(mod)), 0);
	CHECK_STR(mod, NPUSTUB_DRV_MODULE);
	dev = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	CHECK(dev >= 0);
	CHECK_EQ(ioctl(dev, NPUSIM_IOC_CLOCK, &clk), -1);
	CHECK_EQ(errno, ENOTTY);
	close(dev);
}

int main(void)
{
	static struct kt_dev d;
	static struct seen s;
	const char *ko = kt_first_existing("NPUSTUB_KO",
					   "build/kmod/npustub.ko",
					   "sim/driver/npustub.ko");

	kt_require();
	if (access(ko, R_OK) != 0)
		CHECK_SKIP("npustub.ko not built");
	kt_unload_all();
	kt_unload("npusim"); /* never loaded together: both make davinci0 */
	kt_unload("npustub");
	check_not_with_npusim(ko);
	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	CHECK_EQ(kt_load(ko, NULL), 0);
	check_driver();
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_tp_status(&d), KT_ALL_TP);
	check_list(&d, 0);
	check_list_reserved(&d);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, getpid()), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	check_list(&d, 1);
	kc_run_tasks(&s);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
	check_list(&d, 0);
	kc_check_records(&d, &s);

	/* The driver going takes its tracepoints out of the list. */
	CHECK_EQ(kt_unload("npustub"), 0);
	CHECK_EQ(kt_tp_status(&d), 0);
	check_list_empty(&d);
	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	return CHECK_DONE();
}
