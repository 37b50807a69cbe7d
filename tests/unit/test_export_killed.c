// SPDX-License-Identifier: MIT
/*
 * Description: a PROF dir as kill -9 of msprof leaves it (host/start_info
 * only; host slice_1 without .done; the device slice without .done and cut
 * 40 bytes into its last zstd frame; no LOST records) exports every
 * complete frame and says exactly why the data is incomplete: the model
 * has 6 calls, 3 tasks, 2 drawn; the reasons are, in order, no end_info,
 * no info.json, no sample.json, the two slices without .done, the device
 * slice cut at the byte where its first frame ends (device 0's clock,
 * fitted to the task records for want of clock samples, is no reason);
 * the timeline's "npuprof_capture" metadata lists the same six; the
 * msprof binary prints each as a warning, says how device 0's times were
 * placed, and exits 3.
 */
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <sys/wait.h>

#include "check.h"
#include "export.h"
#include "export_model.h"
#include "test_export_fixture.h"

#define N_REASONS 6

static int build(const char *root, char *prof, size_t size)
{
	int err;

	snprintf(prof, size, "%s/" FX_PROF_NAME, root);
	err = fx_mkdirs(prof);
	if (!err)
		err = fx_killed_control_files(prof);
	if (!err)
		err = fx_host_data_as(prof, 0);
	if (!err)
		err = fx_device_data(prof, 0, 1);
	return err;
}

/* The reasons expected for @prof, into @want (N_REASONS of 256 bytes). */
static void expected(const char *prof, char want[][256])
{
	char path[1024], *data;
	size_t size, first;
	FILE *f;

	snprintf(path, sizeof(path), "%s/device_0/data/npuprof.task.0.slice_0", prof);
	data = fx_slurp(path); /* binary, but fx_slurp reads it whole */
	f = fopen(path, "r");
	fseek(f, 0, SEEK_END);
	size = (size_t)ftell(f);
	fclose(f);
	first = ZSTD_findFrameCompressedSize(data, size);
	free(data);
	snprintf(want[0], 256, "collector stopped abruptly (or could not write it): no end_info");
	snprintf(want[1], 256, "no info.json: the records lost and the device clock samples are unknown");
	snprintf(want[2], 256, "no sample.json: the capture parameters are unknown");
	snprintf(want[3], 256, "slice host/data/npuprof.api.slice_1 has no .done file: it was never closed");
	snprintf(want[4], 256, "slice device_0/data/npuprof.task.0.slice_0 has no .done file: it was never closed");
	snprintf(want[5], 256, "last slice device_0/data/npuprof.task.0.slice_0 cut at byte %zu: the %zu bytes after its last whole zstd frame are not exported",
		 first, size - first);
}

static void check_model(const char *prof, char want[][256])
{
	struct export_model m;

	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(m.n_calls, 6);
	CHECK_EQ(m.n_tasks, 3);
	CHECK_EQ(m.n_drawn, 2);
	CHECK_EQ(m.lost, 0);
	CHECK_EQ(m.n_reasons, N_REASONS);
	for (size_t i = 0; i < N_REASONS && i < m.n_reasons; i++)
		CHECK_STR(m.reasons[i], want[i]);
	export_model_free(&m);
}

static void check_timeline(const char *prof, char want[][256])
{
	char path[2048];
	json_t *evs, *args, *why;
	size_t i;

	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	CHECK(evs != NULL);
	args = fx_capture_args(evs);
	CHECK(json_is_false(json_object_get(args, "complete")));
	why = json_object_get(args, "incomplete");
	CHECK_EQ(json_array_size(why), N_REASONS);
	for (i = 0; i < (size_t)N_REASONS && i < json_array_size(why); i++)
		CHECK_STR(json_string_value(json_array_get(why, i)), want[i]);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(args, "lost"), "total")), 0);
	json_decref(evs);
}

/*
 * The msprof binary on @prof: exit 3, a warning per reason on stderr, and
 * device 0's clock placement on stdout.
 */
static void check_binary(const char *prof, char want[][256])
{
	char self[PATH_MAX], msprof[PATH_MAX + 16], arg[1100], errpath[1100], outpath[1100];
	char line[2048], *text;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int status = -1;
	pid_t pid;

	if (n <= 0)
		return;
	self[n] = '\0';
	snprintf(msprof, sizeof(msprof), "%s/../bin/msprof", dirname(self));
	snprintf(arg, sizeof(arg), "--output=%s", prof);
	snprintf(errpath, sizeof(errpath), "%s.stderr", prof);
	snprintf(outpath, sizeof(outpath), "%s.stdout", prof);
	pid = fork();
	if (pid == 0) {
		int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 2);
		freopen(outpath, "w", stdout);
		execl(msprof, "msprof", "--export=on", arg, (char *)NULL);
		_exit(126);
	}
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status));
	CHECK_EQ(WEXITSTATUS(status), 3);
	text = fx_slurp(errpath);
	CHECK(text != NULL);
	for (int i = 0; text && i < N_REASONS; i++) {
		snprintf(line, sizeof(line), "[WARNING] msprof: %s is incomplete: %s\n", FX_PROF_NAME,
			 want[i]);
		if (!strstr(text, line)) {
			fprintf(stderr, "stderr lacks: %s", line);
			check_failures++;
		}
	}
	free(text);
	unlink(errpath);
	text = fx_slurp(outpath);
	snprintf(line, sizeof(line),
		 "[INFO] msprof: %s: device 0: device times placed by a fit over 4 task record times (no clock samples in info.json)\n",
		 FX_PROF_NAME);
	CHECK(text && strstr(text, line));
	free(text);
	unlink(outpath);
}

int main(void)
{
	char root[256], prof[512], want[N_REASONS][256];
	struct msprof_export_opts opts = { 0 };

	if (fx_tmpdir(root, sizeof(root)) || build(root, prof, sizeof(prof))) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	expected(prof, want);
	check_model(prof, want);
	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(opts.incomplete, 1);
	check_timeline(prof, want);
	check_binary(prof, want);
	if (!check_failures)
		fx_rmtree(root);
	else
		fprintf(stderr, "kept %s\n", root);
	return CHECK_DONE();
}
