// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_kring_list_tp() (user/kring.c) against the real
 * npuprof.ko: with the test stub driver (tests/kmod/tp_stub, npusim's
 * tracepoint names) loaded, it returns exactly 4 entries, one per event
 * bit, backend "npusim", the npusim tracepoint names, module
 * "npuprof_tp_stub", not registered while no session captures and
 * registered after npuprof_kring_enable(); with no driver loaded, 0
 * entries.  Every string it returns is NUL-terminated in its array.
 */
#include "kmod_common.h"

#include <npuprof/kring.h>
#include "tp_list_check.h"

static const char *const sim_tp[NPUPROF_TP_COUNT] = {
	[NPUPROF_TP_TASK_SUBMIT] = "npusim_task_submit",
	[NPUPROF_TP_TASK_START] = "npusim_task_start",
	[NPUPROF_TP_TASK_END] = "npusim_task_end",
	[NPUPROF_TP_STREAM_SYNC] = "npusim_stream_sync",
};

static void check_list(struct npuprof_kring *kr, uint32_t registered)
{
	static struct npuprof_tp_list list;
	unsigned int i;

	CHECK_EQ(npuprof_kring_list_tp(kr, &list), 0);
	check_tp_list(&list, "npusim", sim_tp, "npuprof_tp_stub", registered);
	for (i = 0; i < list.count && i < NPUPROF_TP_LIST_MAX; i++)
		CHECK(memchr(list.tp[i].module, 0, sizeof(list.tp[i].module)) != NULL);
}

int main(void)
{
	static struct npuprof_tp_list list;
	struct npuprof_kring *kr = NULL;

	kt_require();
	kt_load_both(NULL);
	CHECK_EQ(npuprof_kring_open(NULL, &kr), 0);
	if (!kr)
		return CHECK_DONE();
	check_list(kr, 0);
	CHECK_EQ(npuprof_kring_add_tgid(kr, getpid()), 0);
	CHECK_EQ(npuprof_kring_enable(kr), 0);
	check_list(kr, 1);
	CHECK_EQ(npuprof_kring_disable(kr), 0);
	check_list(kr, 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	memset(&list, 0xff, sizeof(list));
	CHECK_EQ(npuprof_kring_list_tp(kr, &list), 0);
	CHECK_EQ(list.count, 0);
	npuprof_kring_close(kr);
	CHECK_EQ(kt_unload("npuprof"), 0);
	return CHECK_DONE();
}
