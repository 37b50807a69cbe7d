// SPDX-License-Identifier: MIT
/*
 * Description: npuprof.ko records the simulated NPU driver's tasks.  With
 * npusim.ko loaded, the run of kmod_capture.h (20 kernels, 5 copies, one
 * sync on /dev/davinci0) arrives in the rings exactly, field by field,
 * through npusim's tracepoints.  Skips without npusim.
 */
#include "kmod_capture.h"

int main(void)
{
	static struct kt_dev d;
	static struct seen s;
	const char *ko = kt_first_existing("NPUSIM_KO", "build/kmod/npusim.ko",
					   "sim/driver/npusim.ko");

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
	kc_run_tasks(&s);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
	kc_check_records(&d, &s);

	kt_close(&d);
	CHECK_EQ(kt_unload("npusim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	return CHECK_DONE();
}
