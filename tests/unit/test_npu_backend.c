// SPDX-License-Identifier: MIT
/*
 * Description: driver recognition (user/npu_backend.c) from a fake /dev
 * and /sys tree, without opening a node:
 *   - nodes davinci0, davinci2, davinci10 (character devices 240:0, :2,
 *     :10) owned by module "npusim" give devices [0, 2, 10] and the npusim
 *     backend, which has a clock;
 *   - names that are not davinci<N> with N in 0..63 ("davinci", "davinci01",
 *     "davinci3x", "davinci64", "davinci-1") and a regular file davinci5
 *     are not devices;
 *   - owner "npustub" gives the npustub backend: other tracepoint names,
 *     the task type at argument 3 with 16 bits, no clock;
 *   - owner "ascendsim" (the simulator with the real Ascend driver's
 *     interfaces) gives the ascend backend: device log, no submit/start/
 *     end/sync tracepoint, "sqe" as QUEUED and "logic_cqe" as CQE, each
 *     with its own pointer-to-struct layout, two trace_enable switches;
 *   - an owner no backend knows ("drv_ascend") keeps its name, backend NULL;
 *   - no sysfs link: owner "", backend NULL; no node: no device, NULL;
 *   - nodes of several owners (issue 8 attack): davinci0 of npusim next to
 *     davinci1 and davinci9 of module "otherdrv" (241:1, 241:9, made last
 *     so a directory listing may give them first), davinci3 a character
 *     device sysfs names no driver for (1:3, as /dev/null) and davinci4 a
 *     symlink to davinci0: devices [0] only, owner and backend npusim;
 *     without the npusim node, "otherdrv" (no backend) owns davinci1 and
 *     davinci9: devices [1, 9], backend NULL;
 *   - a missing /dev directory: -ENOENT.
 * Character nodes need mknod (CAP_MKNOD): skipped without it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <npuprof/npu_backend.h>
#include <npuprof/npuprof_ioctl.h>

#include "check.h"

static char root[] = "/tmp/npu_backend.XXXXXX";
static char dev_dir[256], sys_dir[256];

static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	CHECK_EQ(system(cmd), 0);
}

static int node_of(const char *name, unsigned int major_nr, unsigned int minor_nr)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dev_dir, name);
	return mknod(path, S_IFCHR | 0600, makedev(major_nr, minor_nr));
}

static int node(const char *name, unsigned int minor_nr)
{
	return node_of(name, 240, minor_nr);
}

/* Character device 241:@minor_nr of module @owner: node and sysfs link. */
static int foreign_node(const char *name, unsigned int minor_nr, const char *owner)
{
	run("cd %s/sys/dev/char && mkdir -p 241:%u/device/driver && "
	    "ln -s ../../../../../module/%s 241:%u/device/driver/module",
	    root, minor_nr, owner, minor_nr);
	return node_of(name, 241, minor_nr);
}

/* Fresh dev/ and sys/ trees; nodes 240:0, :1, :2, :10 belong to module @owner. */
static void fresh(const char *owner)
{
	run("rm -rf %s/dev %s/sys && mkdir -p %s/dev %s/sys/dev/char", root, root, root, root);
	if (!owner)
		return;
	run("cd %s/sys/dev/char && for m in 0 1 2 10; do mkdir -p 240:$m/device/driver && "
	    "ln -s ../../../../../module/%s 240:$m/device/driver/module; done",
	    root, owner);
}

/* davinci0 of npusim among nodes of other owners, of none, and a symlink. */
static void check_mixed_owners(void)
{
	struct npu_host h;

	fresh("npusim");
	CHECK_EQ(node("davinci0", 0), 0);
	CHECK_EQ(node_of("davinci3", 1, 3), 0);
	run("ln -s davinci0 %s/davinci4", dev_dir);
	CHECK_EQ(foreign_node("davinci1", 1, "otherdrv"), 0);
	CHECK_EQ(foreign_node("davinci9", 9, "otherdrv"), 0);
	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), 0);
	CHECK_EQ(h.nr_devices, 1);
	CHECK_EQ(h.devices[0], 0);
	CHECK_STR(h.owner, "npusim");
	CHECK(h.backend == npu_backend_find("npusim"));

	run("rm %s/davinci0", dev_dir);
	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), 0);
	CHECK_EQ(h.nr_devices, 2);
	CHECK_EQ(h.devices[0], 1);
	CHECK_EQ(h.devices[1], 9);
	CHECK_STR(h.owner, "otherdrv");
	CHECK(h.backend == NULL);
}

int main(void)
{
	const char *bad[] = { "davinci", "davinci01", "davinci3x", "davinci64", "davinci-1" };
	struct npu_host h;
	unsigned int i;
	char path[512];

	if (!mkdtemp(root))
		return 1;
	snprintf(dev_dir, sizeof(dev_dir), "%s/dev", root);
	snprintf(sys_dir, sizeof(sys_dir), "%s/sys", root);
	fresh("npusim");
	if (node("davinci0", 0)) {
		CHECK_SKIP("mknod refused (no CAP_MKNOD)");
		run("rm -rf %s", root);
		return CHECK_DONE();
	}
	CHECK_EQ(node("davinci10", 10), 0);
	CHECK_EQ(node("davinci2", 2), 0);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(node(bad[i], 60 + i), 0);
	snprintf(path, sizeof(path), "%s/davinci5", dev_dir);
	close(open(path, O_CREAT | O_WRONLY, 0600));

	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), 0);
	CHECK_EQ(h.nr_devices, 3);
	CHECK_EQ(h.devices[0], 0);
	CHECK_EQ(h.devices[1], 2);
	CHECK_EQ(h.devices[2], 10);
	CHECK_STR(h.owner, "npusim");
	CHECK(h.backend != NULL);
	if (h.backend) {
		CHECK_STR(h.backend->name, "npusim");
		CHECK(h.backend->clock != NULL);
		CHECK_STR(h.backend->tp_names[0], "npusim_task_submit");
		CHECK_EQ(h.backend->layout.pos[NPU_TP_TGID], 0);
		CHECK_EQ(h.backend->layout.pos[NPU_TP_NAME], 8);
	}

	fresh("npustub");
	CHECK_EQ(node("davinci1", 1), 0);
	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), 0);
	CHECK_EQ(h.nr_devices, 1);
	CHECK_EQ(h.devices[0], 1);
	CHECK(h.backend == npu_backend_find("npustub"));
	if (h.backend) {
		CHECK(h.backend->clock == NULL);
		CHECK_STR(h.backend->tp_names[1], "npustub_task_exec_begin");
		CHECK_EQ(h.backend->layout.pos[NPU_TP_TASK_TYPE], 3);
		CHECK_EQ(h.backend->layout.bits[NPU_TP_TASK_TYPE], 16);
		CHECK_EQ(h.backend->layout.pos[NPU_TP_TGID], 4);
	}

	fresh("ascendsim");
	CHECK_EQ(node("davinci0", 0), 0);
	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), 0);
	CHECK(h.backend == npu_backend_find("ascend"));
	if (h.backend) {
		CHECK_EQ(h.backend->device_log, 1);
		CHECK(h.backend->clock == NULL);
		CHECK(h.backend->tp_names[NPUPROF_TP_TASK_SUBMIT] == NULL);
		CHECK(h.backend->tp_names[NPUPROF_TP_TASK_END] == NULL);
		CHECK_STR(h.backend->tp_names[NPUPROF_TP_TASK_QUEUED], "sqe");
		CHECK_STR(h.backend->tp_names[NPUPROF_TP_TASK_CQE], "logic_cqe");
		CHECK(h.backend->event_layout[NPUPROF_TP_TASK_QUEUED] != NULL);
		CHECK(h.backend->event_layout[NPUPROF_TP_TASK_CQE] != NULL);
		if (h.backend->event_layout[NPUPROF_TP_TASK_CQE]) {
			const struct npu_tp_layout *l = h.backend->event_layout[NPUPROF_TP_TASK_CQE];

			CHECK_EQ(l->pos[NPU_TP_TGID], NPU_TP_ABSENT);
			CHECK_EQ(l->pos[NPU_TP_DEVICE], 1);
			CHECK_EQ(l->deref[NPU_TP_DEVICE], 1);
			CHECK_EQ(l->off[NPU_TP_DEVICE], 0);
			CHECK_EQ(l->pos[NPU_TP_DEV_TS], 2);
			CHECK_EQ(l->off[NPU_TP_DEV_TS], 48);
			CHECK_EQ(l->bits[NPU_TP_DEV_TS], 64);
			CHECK_EQ(l->off[NPU_TP_STREAM], 16);
			CHECK_EQ(l->off[NPU_TP_TASK_ID], 12);
		}
		if (h.backend->event_layout[NPUPROF_TP_TASK_QUEUED]) {
			const struct npu_tp_layout *l = h.backend->event_layout[NPUPROF_TP_TASK_QUEUED];

			CHECK_EQ(l->off[NPU_TP_ARG], 28);
			CHECK_EQ(l->off[NPU_TP_TASK_ID], 32);
			CHECK_EQ(l->off[NPU_TP_STREAM], 36);
			CHECK_EQ(l->pos[NPU_TP_DEV_TS], NPU_TP_ABSENT);
		}
		CHECK_STR(h.backend->trace_enable[0], "trs_chan/dev%u-ts0/trace_enable");
		CHECK_STR(h.backend->trace_enable[1], "trs_core/ts_inst/dev%u-ts0/trace_enable");
		CHECK(h.backend->trace_enable[2] == NULL);
	}
	/* npusim's tracepoints give no queue or completion events */
	CHECK(npu_backend_find("npusim")->tp_names[NPUPROF_TP_TASK_QUEUED] == NULL);

	fresh("drv_ascend");
	CHECK_EQ(node("davinci0", 0), 0);
	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), 0);
	CHECK_EQ(h.nr_devices, 1);
	CHECK_STR(h.owner, "drv_ascend");
	CHECK(h.backend == NULL);

	fresh(NULL);
	CHECK_EQ(node("davinci0", 0), 0);
	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), 0);
	CHECK_EQ(h.nr_devices, 1);
	CHECK_STR(h.owner, "");
	CHECK(h.backend == NULL);

	check_mixed_owners();

	fresh("npusim");
	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), 0);
	CHECK_EQ(h.nr_devices, 0);
	CHECK(h.backend == NULL);

	run("rm -rf %s/dev", root);
	CHECK_EQ(npu_host_detect(&h, dev_dir, sys_dir), -ENOENT);

	CHECK(npu_backend_find("npusim") != NULL);
	CHECK(npu_backend_find("nosuch") == NULL);
	run("rm -rf %s", root);
	return CHECK_DONE();
}
