// SPDX-License-Identifier: MIT
/*
 * Description: what msprof says at start about the device task path when
 * no driver is named (tools/msprof/dynamic.c msprof_say_task_path()).
 * With npuprof.ko older than ABI 1.3 (LIST_TP: ENOTTY) on a host whose
 * device nodes belong to a driver npuprof has a backend for, the module
 * still attaches that driver's tracepoints: msprof says the module is
 * older and warns nothing (it used to warn that the driver had no backend
 * and that no device task was captured, both false).  Device nodes of a
 * module with no backend, and no device at all, are still warned about,
 * with the exact words.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/msg.h>

#include "check.h"
#include "dynamic.h"
#include "stderr_text.h"

/* stderr of one msprof_say_task_path() call, into @buf. */
static void say(const struct npuprof_task_capture_info *tc, const struct npu_host *h, char *buf,
		size_t size)
{
	stderr_text_begin();
	msprof_say_task_path(tc, h);
	stderr_text_end(buf, size);
}

int main(void)
{
	struct npuprof_task_capture_info tc = {
		.path = NPUPROF_TASK_PATH_KMOD,
		.reason = "npuprof.ko loaded",
		.list_err = -ENOTTY,
	};
	struct npu_host h = { .nr_devices = 1, .devices = { 0 } };
	char out[1024];

	npuprof_msg_set_prog("msprof");

	/* old module, known driver: no warning at all */
	h.backend = npu_backend_find("npusim");
	CHECK(h.backend != NULL);
	snprintf(h.owner, sizeof(h.owner), "npusim");
	say(&tc, &h, out, sizeof(out));
	CHECK_STR(out, "");

	/* old module, device nodes of a module npuprof does not know */
	h.backend = NULL;
	snprintf(h.owner, sizeof(h.owner), "drv_davinci");
	say(&tc, &h, out, sizeof(out));
	CHECK_STR(out, "[WARNING] msprof: the NPU device nodes belong to drv_davinci, a driver "
		       "npuprof has no backend for: its tracepoints are unknown, so no device "
		       "task is captured\n");

	/* BPF path, no device node: nothing can be captured */
	tc.path = NPUPROF_TASK_PATH_BPF;
	tc.list_err = 0;
	snprintf(tc.reason, sizeof(tc.reason), "NPUPROF_TASK_CAPTURE=bpf");
	h.nr_devices = 0;
	h.owner[0] = '\0';
	say(&tc, &h, out, sizeof(out));
	CHECK_STR(out, "[WARNING] msprof: no NPU device (/dev/davinci<N>) found: no device task "
		       "is captured\n");
	return CHECK_DONE();
}
