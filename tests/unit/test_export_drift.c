// SPDX-License-Identifier: MIT
/*
 * Description: a device clock drifting at +200 ppm and at -200 ppm over a
 * 60 s capture (npusim's drift_ppm).  600 kernel launches, one every
 * 100 ms: call at t, SUBMIT at t + 100 us, START at t + 200 us, END at
 * t + 300 us; the device counts at 50 MHz * (1 +- 200e-6) (exact integers
 * on the 100 us grid), the driver's clock pairs in info.json once a
 * second (as the capture keeps them).  The fit recovers the drift
 * exactly: every task's ts is exactly t + 200 us, never before its
 * SUBMIT; the fitted frequency is 50,010,000 (49,990,000) Hz over all 62
 * pairs; the export says "largest correction applied: none".  A second
 * export of the same dir writes a byte-identical timeline.  Then the
 * START of task 8 carries the device count of its call's entry, 100 us
 * before its SUBMIT (its tracepoint time stays in order): that task alone
 * is moved, whole, to start at its SUBMIT, and the export says "largest
 * correction applied: 100.000 us (1 tasks moved to start at their
 * launch)".
 */
#include "bigprof.h"
#include "check.h"
#include "export.h"
#include "export_model.h"

#include <math.h>

#define N_TASKS 600
#define GAP_NS 100000000ull /* a launch every 100 ms: 60 s */

static int64_t ppm;

/* Device count at host FX_T0 + @t_ns: 50 MHz with @ppm, @t_ns on the 100 us grid. */
static uint64_t dev_at(uint64_t t_ns)
{
	return FX_D0 + t_ns / 100000 * (uint64_t)(5000 + ppm / 200);
}

static int info_with_samples(const char *prof)
{
	char path[1024];
	json_t *info, *samples = json_array();
	int err;

	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	info = json_load_file(path, 0, NULL);
	if (!info || !samples)
		return -EIO;
	for (uint64_t s = 0; s <= 61; s++)
		json_array_append_new(samples, json_pack("{s:I, s:I}", "hostMonotonicNs",
							 (json_int_t)(FX_T0 + s * 1000000000ull),
							 "deviceCount", (json_int_t)dev_at(s * 1000000000ull)));
	json_object_set_new(info, "clockSamples",
			    json_pack("[{s:i, s:o}]", "device", 0, "samples", samples));
	err = json_dump_file(info, path, JSON_INDENT(1)) ? -EIO : 0;
	json_decref(info);
	return err;
}

/* The launches; the START of task @late (or none: -1) with the count of t. */
static int build(const char *root, char *prof, size_t size, int late)
{
	struct slice_writer *api, *dev;
	struct io_engine *io;
	int err = big_begin(root, prof, size, 61 * 1000000000ull, &io, &api, &dev);

	err = err ? err : info_with_samples(prof);
	for (int i = 0; !err && i < N_TASKS; i++) {
		uint64_t t = (uint64_t)i * GAP_NS;
		struct npuprof_rec_api a = {
			.hdr = { NPUPROF_REC_API, sizeof(a), 1, FX_T0 + t },
			.exit_ts = FX_T0 + t + 150000, .pid = FX_PID, .tid = FX_TID,
			.api = NPUPROF_API_RT_LAUNCH_KERNEL, .device = -1, .name = "k",
		};
		struct npuprof_rec_task k = {
			.pid = FX_PID, .tid = FX_TID, .device = FX_DEV, .stream = FX_STREAM,
			.task_id = (uint32_t)i + 1, .task_type = NPUPROF_TT_KERNEL, .name = "k",
		};
		static const struct { uint16_t ev; uint64_t at; } evs[] = {
			{ NPUPROF_TASK_SUBMIT, 100000 }, { NPUPROF_TASK_START, 200000 },
			{ NPUPROF_TASK_END, 300000 },
		};

		err = slice_writer_append(api, &a.hdr);
		for (int e = 0; !err && e < 3; e++) {
			uint64_t at = t + evs[e].at;

			k.hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_TASK, sizeof(k), 0, FX_T0 + at };
			k.event = evs[e].ev;
			k.dev_ts = e ? dev_at(e == 1 && i == late ? t : at) : 0;
			err = slice_writer_append(dev, &k.hdr);
		}
	}
	return big_finish(io, api, dev, err);
}

/* Export @prof, stdout into @log; Return: the slurped timeline, or NULL. */
static char *export_once(const char *prof, const char *log, char *path, size_t size)
{
	struct msprof_export_opts opts = { .output = prof };
	int out = fx_fd_to(1, log);

	CHECK_EQ(msprof_export(&opts), 0);
	fx_fd_back(1, out);
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, size), 1);
	return fx_slurp(path);
}

/* Every task at t + 200 us (but @late: at its SUBMIT), none before its SUBMIT. */
static void check_tasks(const char *timeline, int late)
{
	json_t *evs = json_loads(timeline, 0, NULL), *e;
	size_t i, n = 0;

	json_array_foreach(evs, i, e) {
		json_t *args = json_object_get(e, "args");
		json_t *id = json_object_get(args, "Task Id");
		const char *ts = json_string_value(json_object_get(e, "ts"));
		const char *sub = json_string_value(json_object_get(args, "Submit Time(us)"));
		char want[64];
		uint64_t t;

		if (!json_is_integer(id) || !ts || !sub)
			continue;
		t = FX_T0 + (uint64_t)(json_integer_value(id) - 1) * GAP_NS;
		t += json_integer_value(id) - 1 == late ? 100000 : 200000;
		snprintf(want, sizeof(want), "%llu.000", (unsigned long long)t / 1000);
		CHECK_STR(ts, want);
		CHECK(strtod(ts, NULL) >= strtod(sub, NULL));
		n++;
	}
	CHECK_EQ(n, N_TASKS);
	json_decref(evs);
}

/* The fit's frequency: 50 MHz * (1 + ppm / 1e6), to a thousandth of a Hz. */
static void check_fit(const char *prof)
{
	struct export_model m;
	double want = 50e6 + 50.0 * (double)ppm;

	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(m.n_devs, 1);
	if (m.n_devs == 1) {
		CHECK(fabs(clock_fit_freq_hz(&m.devs[0].fit) - want) < 1e-3);
		CHECK_EQ(m.devs[0].fit.n_used, 62);
		CHECK_EQ(m.devs[0].corrected, 0);
	}
	export_model_free(&m);
}

static void run(int64_t drift)
{
	char root[256], prof[512], log[600], path[2048], want[200];
	char *first, *second, *text;

	ppm = drift;
	if (fx_tmpdir(root, sizeof(root)) || build(root, prof, sizeof(prof), -1)) {
		CHECK(!"cannot build the PROF dir in /tmp");
		return;
	}
	snprintf(log, sizeof(log), "%s/export.log", root);
	first = export_once(prof, log, path, sizeof(path));
	CHECK(first != NULL);
	if (first)
		check_tasks(first, -1);
	text = fx_slurp(log);
	snprintf(want, sizeof(want), "device 0: largest correction applied: none (every task starts after its launch)\n");
	CHECK(text && strstr(text, want));
	free(text);
	check_fit(prof);
	/* a re-export from the same raw pairs: the same bytes */
	second = export_once(prof, log, path, sizeof(path));
	CHECK(first && second && !strcmp(first, second));
	free(first);
	free(second);
	fx_rmtree(root);

	/* one START 100 us early on the device clock: that task alone moves */
	if (fx_tmpdir(root, sizeof(root)) || build(root, prof, sizeof(prof), 7)) {
		CHECK(!"cannot build the PROF dir in /tmp");
		return;
	}
	snprintf(log, sizeof(log), "%s/export.log", root);
	first = export_once(prof, log, path, sizeof(path));
	if (first)
		check_tasks(first, 7);
	free(first);
	text = fx_slurp(log);
	CHECK(text && strstr(text, "device 0: largest correction applied: 100.000 us (1 tasks moved to start at their launch)\n"));
	if (check_failures && text)
		fputs(text, stderr);
	free(text);
	if (!check_failures)
		fx_rmtree(root);
}

int main(void)
{
	run(200);
	run(-200);
	return CHECK_DONE();
}
