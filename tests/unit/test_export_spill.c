// SPDX-License-Identifier: MIT
/*
 * Description: a PROF dir with more task records than the loader holds in
 * memory (XM_SORT_MEM: its sort spills runs to a temporary file) loads to
 * exactly the tasks the records describe: 150,000 tasks on 4 streams whose
 * SUBMIT, START and END records come out of order, every 1000th with a
 * second START at device count 7 (ignored: the earlier wins; a START
 * begins another task only past the task's START on the device clock:
 * xm_task_fold_next()) and every
 * 997th without its END (cut by the window, not drawn); tasks come out in
 * (stream, task id) order and the PROF dir holds no temporary file after.
 */
#include "check.h"
#include "test_export_fixture.h"
#include "tmpdir.h"
#include "export_model.h"
#include "model_tasks.h"

#define NT 150000u
#define STREAMS 4u

static size_t n_recs;

static void put_task(struct npuprof_rec_task *v, uint16_t event, uint32_t id, uint64_t host,
		     uint64_t dev)
{
	struct npuprof_rec_task *r = &v[n_recs++];

	memset(r, 0, sizeof(*r));
	r->hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_TASK, sizeof(*r), id % 2, FX_T0 + host };
	r->dev_ts = dev;
	r->pid = FX_PID;
	r->tid = FX_TID;
	r->stream = id % STREAMS;
	r->task_id = id;
	r->event = event;
	r->task_type = NPUPROF_TT_KERNEL;
	memcpy(r->name, "k", 1);
}

/*
 * Task i runs [1000 i + 100, 1000 i + 600] ns after FX_T0 (device count =
 * ns).  Records go out in windows of 8 tasks, ENDs of a window first.
 */
static int write_tasks(const char *prof)
{
	size_t cap = 3 * NT + NT / 1000 + 2, raw_len, z_len;
	struct npuprof_rec_task *v = calloc(cap, sizeof(*v));
	struct npuprof_rec_stream_hdr *h;
	char dir[1024];
	void *z;
	int err;

	if (!v)
		return -ENOMEM;
	h = (void *)&v[0];
	*h = (struct npuprof_rec_stream_hdr){ { NPUPROF_REC_STREAM_HDR, sizeof(*h), 0, 0 },
					      NPUPROF_STREAM_MAGIC, NPUPROF_RECORD_VERSION,
					      NPUPROF_SRC_KMOD, 0, 0 };
	n_recs = 1; /* the stream header is smaller than a task record: one slot */
	for (uint32_t w = 1; w <= NT; w += 8) {
		for (uint32_t i = w; i < w + 8 && i <= NT; i++)
			if (i % 997)
				put_task(v, NPUPROF_TASK_END, i, 1000ull * i + 900, 1000ull * i + 600);
		for (uint32_t i = w; i < w + 8 && i <= NT; i++) {
			put_task(v, NPUPROF_TASK_SUBMIT, i, 1000ull * i, 0);
			put_task(v, NPUPROF_TASK_START, i, 1000ull * i + 400, 1000ull * i + 100);
			if (i % 1000 == 0)
				put_task(v, NPUPROF_TASK_START, i, 1000ull * i + 450, 7);
		}
	}
	raw_len = sizeof(*h) + (n_recs - 1) * sizeof(*v);
	memmove((char *)v + sizeof(*h), &v[1], (n_recs - 1) * sizeof(*v));
	z = malloc(ZSTD_compressBound(raw_len));
	z_len = z ? ZSTD_compress(z, ZSTD_compressBound(raw_len), v, raw_len, 1) : 0;
	snprintf(dir, sizeof(dir), "%s/device_0/data/npuprof.task.0.slice_0", prof);
	err = !z || ZSTD_isError(z_len) ? -EIO : fx_write_file(dir, z, z_len);
	free(z);
	free(v);
	return err;
}

static void check_tasks(const struct export_model *m)
{
	struct xm_task *tasks = model_tasks(m);
	size_t i, bad = 0, cut = 0;

	CHECK_EQ(m->n_tasks, NT);
	CHECK(tasks != NULL);
	if (!tasks)
		return;
	for (i = 0; i < m->n_tasks; i++) {
		const struct xm_task *t = &tasks[i];
		uint32_t id = t->task_id;

		if (i && xm_task_cmp(&tasks[i - 1], t) >= 0)
			bad++;
		if (t->start_dev != 1000ull * id + 100 || t->submit_ns != FX_T0 + 1000ull * id)
			bad++;
		if (id % 997 ? !t->drawn || t->end_dev != 1000ull * id + 600 : t->drawn)
			bad++;
		cut += !t->drawn;
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(cut, NT / 997);
	CHECK_EQ(m->n_drawn, NT - NT / 997);
	CHECK_EQ(tasks[0].stream, 0);
	CHECK_EQ(tasks[0].task_id, 4);
	free(tasks);
}

int main(void)
{
	char tmp[] = "/tmp/npuprof-spill-XXXXXX", prof[512], path[1024];
	struct export_model m;
	DIR *d;
	struct dirent *de;
	size_t entries = 0;

	if (!mkdtemp(tmp))
		CHECK_SKIP("no temp dir");
	snprintf(prof, sizeof(prof), "%s/%s", tmp, FX_PROF_NAME);
	CHECK_EQ(fx_mkdirs(prof), 0);
	CHECK_EQ(fx_control_files(prof), 0);
	CHECK_EQ(write_tasks(prof), 0);
	snprintf(path, sizeof(path), "%s/device_0/data/npuprof.task.0.slice_0.done", prof);
	CHECK_EQ(fx_write_file(path, "", 0), 0); /* closed: its size is not checked here */
	CHECK((n_recs - 1) * sizeof(struct xm_task) > (size_t)XM_SORT_MEM); /* >= 2 runs */

	CHECK_EQ(export_model_load(prof, &m), 0);
	check_tasks(&m);
	export_model_free(&m);

	d = opendir(prof);
	while (d && (de = readdir(d)))
		entries += de->d_name[0] != '.';
	if (d)
		closedir(d);
	CHECK_EQ(entries, 2); /* host, device_0: nothing the sort left */
	if (!check_failures)
		tmpdir_remove(tmp);
	return CHECK_DONE();
}
