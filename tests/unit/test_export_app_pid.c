// SPDX-License-Identifier: MIT
/*
 * Description: without info.json and without API calls, the process the
 * export names is the pid of the first task in the join's order (device,
 * stream, task id), whatever order the slices hold the records in.  The
 * device series holds, in this order, task 9 of pid 5000 and task 1 of
 * pid 4242 (both SUBMIT, START, END on stream 3): the app pid is 4242, as
 * the exporter gave it before tasks were streamed (it then took the pid of
 * the first record read, 5000: it changed with the order of the files).
 */
#include "check.h"
#include "export_model.h"
#include "test_export_fixture.h"

static void task(struct fx_buf *b, uint16_t event, uint32_t pid, uint32_t id, uint64_t t_ms)
{
	struct npuprof_rec_task r = {
		.hdr = { NPUPROF_REC_TASK, sizeof(r), 0, FX_T0 + t_ms * FX_MS },
		.dev_ts = fx_dev(t_ms * FX_MS),
		.pid = pid,
		.tid = pid + 1,
		.device = FX_DEV,
		.stream = FX_STREAM,
		.task_id = id,
		.event = event,
		.task_type = NPUPROF_TT_KERNEL,
	};

	fx_put(b, &r, sizeof(r));
}

static int build(const char *prof)
{
	struct fx_buf *b = calloc(1, sizeof(*b));
	char path[600];
	int err;

	if (!b)
		return -ENOMEM;
	err = fx_mkdirs(prof);
	if (!err)
		err = fx_control_files(prof);
	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	if (!err && unlink(path))
		err = -errno;
	fx_stream_hdr(b, NPUPROF_SRC_KMOD, 0, 0);
	task(b, NPUPROF_TASK_SUBMIT, 5000, 9, 2);
	task(b, NPUPROF_TASK_SUBMIT, 4242, 1, 4);
	task(b, NPUPROF_TASK_START, 5000, 9, 6);
	task(b, NPUPROF_TASK_END, 5000, 9, 8);
	task(b, NPUPROF_TASK_START, 4242, 1, 10);
	task(b, NPUPROF_TASK_END, 4242, 1, 12);
	snprintf(path, sizeof(path), "%s/device_0/data", prof);
	if (!err)
		err = fx_write_slice(path, "npuprof.task.0", 0, b, 16, 0, 1);
	free(b);
	return err;
}

int main(void)
{
	char root[256], prof[512];
	struct export_model m;

	if (fx_tmpdir(root, sizeof(root))) {
		fprintf(stderr, "cannot make a directory in /tmp\n");
		return 1;
	}
	snprintf(prof, sizeof(prof), "%s/" FX_PROF_NAME, root);
	if (build(prof)) {
		fprintf(stderr, "cannot build the PROF dir in /tmp\n");
		return 1;
	}
	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(m.n_calls, 0);
	CHECK_EQ(m.n_tasks, 2);
	CHECK_EQ(m.app_pid, 4242);
	export_model_free(&m);
	fx_rmtree(root);
	return CHECK_DONE();
}
