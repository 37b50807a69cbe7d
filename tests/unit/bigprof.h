/* SPDX-License-Identifier: MIT */
/*
 * A big PROF_XXX directory with exactly known content, written through
 * libnpuprof's own slice writer (user/slice_writer.h) as a capture writes
 * it: the fixture's control files (test_export_fixture.h: start_info,
 * end_info, info.json, sample.json) and @n kernel launches of one thread,
 * each an aclrtLaunchKernel call with its task (SUBMIT inside the call,
 * START and END on device 0, stream 3).
 *
 * Task i (from 0): the call enters at FX_T0 + i * 10 us and lasts 2 us,
 * the SUBMIT is 1 us after the entry, the task runs from +5 us to +8 us
 * (device counts from fx_dev(): the fixture's 50 MHz clock with +30
 * ppm), named kernel_<i % 7>.  Every task is drawn and linked to its
 * call, so the export has n calls, n tasks and n flows; op_summary and
 * task_time have n rows.  The window (start_info, end_info) is widened
 * to hold them.
 */
#ifndef NPUPROF_TEST_BIGPROF_H
#define NPUPROF_TEST_BIGPROF_H

#include "test_export_fixture.h"
#include "io_engine_test.h"

#define BIG_STEP_NS 10000ull

static inline int big_series(struct io_engine *io, const char *dir, const char *series,
			     int source, int device, struct slice_writer **w)
{
	struct slice_writer_cfg cfg = { .dir = dir, .series = series, .slice_bytes = 16ull << 20,
					.zstd_level = 1, .source = source, .device = device };

	return slice_writer_open(io, &cfg, w);
}

/* Task @i's records, appended to @api and @dev. */
static inline int big_task(struct slice_writer *api, struct slice_writer *dev, uint64_t i)
{
	char name[16];
	uint64_t t = i * BIG_STEP_NS;
	struct npuprof_rec_api a = {
		.hdr = { NPUPROF_REC_API, sizeof(a), 1, FX_T0 + t },
		.exit_ts = FX_T0 + t + 2000, .pid = FX_PID, .tid = FX_TID,
		.api = NPUPROF_API_RT_LAUNCH_KERNEL, .device = -1, .stream = 0xabc,
	};
	struct npuprof_rec_task k = {
		.pid = FX_PID, .tid = FX_TID, .device = FX_DEV, .stream = FX_STREAM,
		.task_id = (uint32_t)i + 1, .task_type = NPUPROF_TT_KERNEL,
	};
	static const struct { uint16_t ev; uint64_t at; } evs[] = {
		{ NPUPROF_TASK_SUBMIT, 1000 }, { NPUPROF_TASK_START, 5000 }, { NPUPROF_TASK_END, 8000 },
	};
	int err;

	snprintf(name, sizeof(name), "kernel_%u", (unsigned int)(i % 7));
	memcpy(a.name, name, strlen(name));
	memcpy(k.name, name, strlen(name));
	err = slice_writer_append(api, &a.hdr);
	for (size_t e = 0; !err && e < 3; e++) {
		k.hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_TASK, sizeof(k), 0, FX_T0 + t + evs[e].at };
		k.event = evs[e].ev;
		k.dev_ts = evs[e].ev == NPUPROF_TASK_SUBMIT ? 0 : fx_dev(t + evs[e].at);
		err = slice_writer_append(dev, &k.hdr);
	}
	return err;
}

/* end_info a second after @n steps of BIG_STEP_NS. */
static inline int big_end_info(const char *prof, uint64_t n)
{
	char path[1024], text[256];
	uint64_t end = FX_T0 + n * BIG_STEP_NS + 1000000000ull;

	snprintf(path, sizeof(path), "%s/host/end_info", prof);
	snprintf(text, sizeof(text),
		 "{\"collectionDateEnd\": \"2026-01-01 12:00:01\", \"collectionTimeEnd\": "
		 "\"1767268801000000\", \"clockMonotonicRaw\": %llu, \"clockMonotonic\": %llu}\n",
		 (unsigned long long)end, (unsigned long long)end);
	return fx_write_file(path, text, strlen(text));
}

/*
 * Start <root>/FX_PROF_NAME: its directories and control files, end_info
 * @end_ns after FX_T0, @io and the writers of the host and device 0
 * series.  Return 0 or a negative errno; @prof gets the path.
 */
static inline int big_begin(const char *root, char *prof, size_t size, uint64_t end_ns,
			    struct io_engine **io, struct slice_writer **api,
			    struct slice_writer **dev)
{
	char hdir[1100], ddir[1100];
	int err;

	*api = *dev = NULL;
	*io = NULL; /* big_finish(): nothing to tear down yet */
	snprintf(prof, size, "%s/" FX_PROF_NAME, root);
	err = fx_mkdirs(prof);
	err = err ? err : fx_control_files(prof);
	err = err ? err : big_end_info(prof, end_ns / BIG_STEP_NS);
	if (err)
		return err;
	if (test_io_engine_open(64, io)) {
		*io = NULL;
		return -EIO;
	}
	snprintf(hdir, sizeof(hdir), "%s/host/data", prof);
	snprintf(ddir, sizeof(ddir), "%s/device_0/data", prof);
	err = big_series(*io, hdir, "npuprof.api", NPUPROF_SRC_BPF, -1, api);
	return err ? err : big_series(*io, ddir, "npuprof.task.0", NPUPROF_SRC_KMOD, 0, dev);
}

/* Close what big_begin() opened.  Return: @err, else -EIO if a close failed. */
static inline int big_finish(struct io_engine *io, struct slice_writer *api,
			     struct slice_writer *dev, int err)
{
	if (api && slice_writer_close(api, NULL) && !err)
		err = -EIO;
	if (dev && slice_writer_close(dev, NULL) && !err)
		err = -EIO;
	io_engine_close(io);
	return err;
}

/*
 * Build <root>/FX_PROF_NAME with @n tasks.  Return 0 or a negative errno;
 * @prof gets the path.
 */
static inline int big_build(const char *root, char *prof, size_t size, uint64_t n)
{
	struct slice_writer *api, *dev;
	struct io_engine *io;
	int err = big_begin(root, prof, size, n * BIG_STEP_NS, &io, &api, &dev);

	for (uint64_t i = 0; !err && i < n; i++) {
		err = big_task(api, dev, i);
		if (i % 4096 == 4095)
			test_io_reap_ready(io);
	}
	return big_finish(io, api, dev, err);
}

#endif /* NPUPROF_TEST_BIGPROF_H */
