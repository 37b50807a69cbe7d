// SPDX-License-Identifier: MIT
/*
 * Description: a PROF dir as the real Ascend driver gives it exports with
 * every task named after its API call, device-only tasks kept and
 * counted, and the host driver's QUEUED/CQE records changing nothing.
 *
 * Submits come from the halSqTaskSend uprobe (pid and thread, no name, no
 * device count), begin and end from the device log (pid 0, no name,
 * hdr.ts the device count already mapped to the host clock).  Calls on
 * thread FX_TID: aclrtBinaryGetFunction gives handles 0xf00 (add_custom)
 * and 0xf01 (matmul_custom); then aclrtMemcpyAsync -> task 1, a launch of
 * 0xf00 -> task 2, aclopExecuteV2 "MatMulV2" -> task 3, a launch of 0xf01
 * whose runtime rtKernelLaunch (no name, no handle npuprof knows) holds
 * the submit -> task 4.  Tasks 7 and 8 of stream 9 have no submit (graph
 * replay, or another process's stream).  Task 5 (stream 5, a launch on
 * thread FX_TID2 of handle 0xf05, whose aclrtBinaryGetFunction the dir
 * does not hold: the launch record carries the name, "softmax_custom", as
 * the BPF side writes it for a handle made before the window) has its
 * START mapped 20 us before its SUBMIT: still one task, linked, named from
 * its call, moved to start at its submit.  Interleaved: QUEUED records
 * (pid, and one from a worker with pid 0), a CQE with a device count, and
 * an event no reader knows.
 * Checked: task_time exactly, each task's name and op type (op_summary's
 * columns), the model's counts (tasks, drawn, linked, without submit,
 * queued, cqe, unknown) and the summary's lines for them, and the same
 * task_time with the QUEUED/CQE/unknown records left out.
 */
#include "check.h"
#include "export.h"
#include "export_model.h"
#include "test_export_fixture.h"

static const char task_time[] =
	"Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),"
	"task_stop(us)\n"
	"0,MEMCPY,MEMCPY,3,1,4000.000,1000010000.000,1000014000.000\n"
	"0,add_custom,AI_CORE,3,2,10000.000,1000016000.000,1000026000.000\n"
	"0,AI_CORE,AI_CORE,9,7,2000.000,1000020000.000,1000022000.000\n"
	"0,AI_CORE,AI_CORE,9,8,2000.000,1000024000.000,1000026000.000\n"
	"0,MatMulV2,AI_CORE,3,3,12000.000,1000028000.000,1000040000.000\n"
	"0,softmax_custom,AI_CORE,5,5,2000.000,1000030020.000,1000032020.000\n"
	"0,matmul_custom,AI_CORE,3,4,6000.000,1000042000.000,1000048000.000\n";

/* A call of @tid as the uprobes write it: @handle, @name (NULL: none), ret 0. */
static void call_on(struct fx_buf *b, uint32_t tid, uint16_t api, uint64_t entry, uint64_t dur,
		    uint64_t handle, const char *name)
{
	struct npuprof_rec_api r = {
		.hdr = { NPUPROF_REC_API, sizeof(r), 1, FX_T0 + entry },
		.exit_ts = FX_T0 + entry + dur,
		.pid = FX_PID,
		.tid = tid,
		.api = api,
		.device = -1,
		.stream = 0xabc,
		.handle = handle,
	};

	if (name)
		memcpy(r.name, name, strlen(name));
	fx_put(b, &r, sizeof(r));
}

#define call(b, ...) call_on(b, FX_TID, __VA_ARGS__)

/* A task record: @pid 0 for the device log's, which also has no thread. */
static void task_on(struct fx_buf *b, uint32_t tid, uint16_t event, uint64_t host_rel,
		    uint64_t dev_ts, uint32_t pid, uint32_t stream, uint32_t id, uint16_t type,
		    uint64_t arg)
{
	struct npuprof_rec_task r = {
		.hdr = { NPUPROF_REC_TASK, sizeof(r), 0, FX_T0 + host_rel },
		.dev_ts = dev_ts,
		.pid = pid,
		.tid = pid ? tid : 0,
		.device = FX_DEV,
		.stream = stream,
		.task_id = id,
		.event = event,
		.task_type = type,
		.arg = arg,
	};

	fx_put(b, &r, sizeof(r));
}

#define task(b, ...) task_on(b, FX_TID, __VA_ARGS__)

/* The uprobe's SUBMIT at @host_rel ns: block dim 8 for kernels. */
static void submit(struct fx_buf *b, uint64_t host_rel, uint32_t id, uint16_t type)
{
	task(b, NPUPROF_TASK_SUBMIT, host_rel, 0, FX_PID, FX_STREAM, id, type,
	     type == NPUPROF_TT_KERNEL ? 8 : 0);
}

/* The device log's begin and end, @from_ms to @to_ms, mapped exactly. */
static void ran(struct fx_buf *b, uint32_t stream, uint32_t id, uint16_t type, uint64_t from_ms,
		uint64_t to_ms)
{
	task(b, NPUPROF_TASK_START, from_ms * FX_MS, fx_dev(from_ms * FX_MS), 0, stream, id, type, 0);
	task(b, NPUPROF_TASK_END, to_ms * FX_MS, fx_dev(to_ms * FX_MS), 0, stream, id, type, 0);
}

static int host_data(const char *prof)
{
	struct fx_buf *b = calloc(1, sizeof(*b));
	char dir[768];
	int err;

	if (!b)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	fx_stream_hdr(b, NPUPROF_SRC_BPF, 0, -1);
	call(b, NPUPROF_API_RT_BINARY_GET_FUNCTION, 500000, 1000, 0xf00, "add_custom");
	call(b, NPUPROF_API_RT_BINARY_GET_FUNCTION, 600000, 1000, 0xf01, "matmul_custom");
	call(b, NPUPROF_API_RT_MEMCPY_ASYNC, 1 * FX_MS, 4000, 0, NULL);
	call(b, NPUPROF_API_RT_LAUNCH_KERNEL, 2 * FX_MS, 2000, 0xf00, NULL);
	call(b, NPUPROF_API_OP_EXECUTE_V2, 3 * FX_MS, 6000, 0, "MatMulV2");
	call(b, NPUPROF_API_RT_LAUNCH_KERNEL, 4 * FX_MS, 3000, 0xf01, NULL);
	call(b, NPUPROF_API_RTS_KERNEL_LAUNCH, 4 * FX_MS + 500, 1000, 0x77, NULL);
	call(b, NPUPROF_API_RT_SYNC_STREAM, 5 * FX_MS, 43500000, 0, NULL);
	call_on(b, FX_TID2, NPUPROF_API_RT_LAUNCH_KERNEL, 30 * FX_MS, 30000, 0xf05,
		"softmax_custom");
	err = fx_write_slice(dir, "npuprof.api", 0, b, 4, 0, 1);
	free(b);
	return err;
}

/* @extra: the QUEUED, CQE and unknown-event records too. */
static int device_data(const char *prof, int extra)
{
	struct fx_buf *b = calloc(1, sizeof(*b));
	char dir[768];
	int err;

	if (!b)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s/device_0/data", prof);
	fx_stream_hdr(b, NPUPROF_SRC_KMOD, 0, 0);
	submit(b, 1 * FX_MS + 2000, 1, NPUPROF_TT_MEMCPY);
	submit(b, 2 * FX_MS + 1000, 2, NPUPROF_TT_KERNEL);
	if (extra) /* queued in the caller's context, and by a worker later */
		task(b, NPUPROF_TASK_QUEUED, 2 * FX_MS + 1500, 0, FX_PID, FX_STREAM, 2,
		     NPUPROF_TT_KERNEL, 0);
	submit(b, 3 * FX_MS + 1000, 3, NPUPROF_TT_KERNEL);
	if (extra)
		task(b, NPUPROF_TASK_QUEUED, 3 * FX_MS + 9000, 0, 0, FX_STREAM, 3,
		     NPUPROF_TT_KERNEL, 0);
	submit(b, 4 * FX_MS + 700, 4, NPUPROF_TT_KERNEL);
	ran(b, FX_STREAM, 1, NPUPROF_TT_MEMCPY, 10, 14);
	ran(b, FX_STREAM, 2, NPUPROF_TT_KERNEL, 16, 26);
	if (extra) {
		task(b, NPUPROF_TASK_CQE, 26 * FX_MS + 100000, fx_dev(26 * FX_MS), 0, FX_STREAM, 2,
		     NPUPROF_TT_KERNEL, 0);
		task(b, 99, 27 * FX_MS, 0, FX_PID, FX_STREAM, 2, NPUPROF_TT_KERNEL, 0);
	}
	ran(b, 9, 7, NPUPROF_TT_KERNEL, 20, 22);
	ran(b, 9, 8, NPUPROF_TT_KERNEL, 24, 26);
	ran(b, FX_STREAM, 3, NPUPROF_TT_KERNEL, 28, 40);
	ran(b, FX_STREAM, 4, NPUPROF_TT_KERNEL, 42, 48);
	/* task 5 of stream 5: its START mapped 20 us before its SUBMIT */
	ran(b, 5, 5, NPUPROF_TT_KERNEL, 30, 32);
	task_on(b, FX_TID2, NPUPROF_TASK_SUBMIT, 30 * FX_MS + 20000, 0, FX_PID, 5, 5,
		NPUPROF_TT_KERNEL, 8);
	err = fx_write_slice(dir, "npuprof.task.0", 0, b, 8, 0, 1);
	free(b);
	return err;
}

/* Name and op type of task @id, as op_summary lists them. */
static void check_names(const struct export_model *m, uint32_t stream, uint32_t id,
			const char *name, const char *op_type)
{
	char b1[XM_TEXT_LEN], b2[XM_TEXT_LEN];
	const struct xm_task *t;
	struct xm_tasks it;
	int found = 0;

	CHECK_EQ(xm_tasks_begin(m, &it), 0);
	while (xm_tasks_next(&it, &t) == 1) {
		if (t->stream != stream || t->task_id != id)
			continue;
		found++;
		CHECK_STR(xm_task_name(m, t, b1, sizeof(b1)), name);
		CHECK_STR(xm_op_type(m, t, b2, sizeof(b2)), op_type);
	}
	CHECK_EQ(found, 1);
}

static void check_model(const char *prof, int extra)
{
	struct export_model m;

	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(m.n_tasks, 7);
	CHECK_EQ(m.n_drawn, 7);
	CHECK_EQ(m.n_linked, 5);
	CHECK_EQ(m.n_unsubmitted, 2);
	CHECK_EQ(m.n_queued, extra ? 2 : 0);
	CHECK_EQ(m.n_cqe, extra ? 1 : 0);
	CHECK_EQ(m.unknown_events, extra ? 1 : 0);
	CHECK_EQ(m.bad_records, 0);
	check_names(&m, FX_STREAM, 1, "MEMCPY", "MEMCPY");
	check_names(&m, FX_STREAM, 2, "add_custom", "add_custom");
	check_names(&m, FX_STREAM, 3, "MatMulV2", "MatMulV2");
	check_names(&m, FX_STREAM, 4, "matmul_custom", "matmul_custom");
	check_names(&m, 5, 5, "softmax_custom", "softmax_custom");
	check_names(&m, 9, 7, "AI_CORE", "AI_CORE");
	check_names(&m, 9, 8, "AI_CORE", "AI_CORE");
	export_model_free(&m);
}

/* The summary msprof_export() printed (in @root/summary) holds @line: 1 or 0. */
static int summary_has(const char *root, const char *line)
{
	char path[300], *text;
	int has;

	snprintf(path, sizeof(path), "%s/summary", root);
	text = fx_slurp(path);
	has = text && strstr(text, line) != NULL;
	free(text);
	return has;
}

int main(void)
{
	struct msprof_export_opts opts = { .print_summary = 1 };
	char root[256], prof[512], path[300], *tasks;
	int saved;

	for (int extra = 1; extra >= 0; extra--) {
		if (fx_tmpdir(root, sizeof(root)) ||
		    snprintf(prof, sizeof(prof), "%s/" FX_PROF_NAME, root) < 0 || fx_mkdirs(prof) ||
		    fx_control_files(prof) || host_data(prof) || device_data(prof, extra)) {
			fprintf(stderr, "cannot build the PROF dir in /tmp\n");
			return 1;
		}
		check_model(prof, extra);
		opts.output = prof;
		snprintf(path, sizeof(path), "%s/summary", root);
		saved = fx_fd_to(1, path);
		CHECK_EQ(msprof_export(&opts), 0);
		fx_fd_back(1, saved);
		CHECK(summary_has(root, "  Device tasks without a submit: 2 ("));
		CHECK_EQ(summary_has(root, "  Host driver task events: 2 queued to the hardware, "
					   "1 completion entries (counted, not drawn)\n"),
			 extra);
		CHECK_EQ(summary_has(root, "  Task records of an event this msprof does not know: "
					   "1, skipped\n"),
			 extra);
		tasks = fx_read_output(prof, "task_time_", ".csv");
		CHECK_STR(tasks, task_time);
		free(tasks);
		fx_rmtree(root);
	}
	return CHECK_DONE();
}
