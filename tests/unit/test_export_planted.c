// SPDX-License-Identifier: MIT
/*
 * Description: whoever can write in a PROF dir can not make the export
 * (root, as msprof usually runs) write through a planted symlink or hang
 * on a planted FIFO.  With umask 0:
 *  1. a symlink at mindstudio_profiler_output: the export fails with
 *     -ENOTDIR, says "<dir> is a symlink or not a directory: refusing to
 *     write through it", and nothing appears in the symlink's target;
 *  2. a clean export makes mindstudio_profiler_output 0750 and its five
 *     files 0640;
 *  3. a FIFO at host/info.json, symlinks to a victim file at the
 *     op_summary CSV names of the next two seconds and at the timeline's
 *     .tmp names of the next 60: the export works (stamped past the
 *     planted CSV names), names each name it refused, reports
 *     host/info.json as not a regular file among its reasons, and the
 *     victim keeps its bytes.
 */
#include <jansson.h>
#include <time.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

#define OUT_DIR "mindstudio_profiler_output"
#define VICTIM_TEXT "the victim's own bytes\n"

static void stamp_of(time_t t, char *stamp, size_t size)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, size, "%Y%m%d%H%M%S", &tm);
}

/* msprof_export(@prof) with stderr into <@root>/stderr.txt, returned. */
static char *export_stderr(const char *root, const char *prof, int *rc)
{
	struct msprof_export_opts opts = { .output = prof };
	char path[600];
	int saved;

	snprintf(path, sizeof(path), "%s/stderr.txt", root);
	saved = fx_stderr_to(path);
	*rc = msprof_export(&opts);
	fx_stderr_back(saved);
	return fx_slurp(path);
}

static int mode_of(const char *path)
{
	struct stat st;

	return lstat(path, &st) ? -1 : (int)(st.st_mode & 07777);
}

static void check_contains(const char *text, const char *want)
{
	if (!text || !strstr(text, want)) {
		fprintf(stderr, "stderr lacks: %s\n", want);
		check_failures++;
	}
}

static void planted_out_dir(const char *root, const char *prof)
{
	char link[600], target[600], want[1400], *text;
	int rc;

	snprintf(target, sizeof(target), "%s/victim_dir", root);
	snprintf(link, sizeof(link), "%s/" OUT_DIR, prof);
	CHECK_EQ(mkdir(target, 0700), 0);
	CHECK_EQ(symlink(target, link), 0);
	text = export_stderr(root, prof, &rc);
	CHECK_EQ(rc, -ENOTDIR);
	snprintf(want, sizeof(want),
		 "%s is a symlink or not a directory: refusing to write through it", link);
	check_contains(text, want);
	free(text);
	CHECK_EQ(rmdir(target), 0); /* fails unless still empty */
	CHECK_EQ(unlink(link), 0);
}

static void clean_modes(const char *root, const char *prof)
{
	static const char *const kinds[][2] = { { "msprof_", ".json" },
						{ "api_statistic_", ".csv" },
						{ "op_summary_", ".csv" },
						{ "op_statistic_", ".csv" },
						{ "task_time_", ".csv" } };
	char path[1200];
	int rc;

	free(export_stderr(root, prof, &rc));
	CHECK_EQ(rc, 0);
	snprintf(path, sizeof(path), "%s/" OUT_DIR, prof);
	CHECK_EQ(mode_of(path), 0750);
	for (size_t i = 0; i < 5; i++) {
		CHECK_EQ(fx_find_output(prof, kinds[i][0], kinds[i][1], path, sizeof(path)), 1);
		CHECK_EQ(mode_of(path), 0640);
	}
}

/* Plant the FIFO and the symlinks of case 3; @t: the first second planted. */
static void plant(const char *prof, const char *victim, time_t t)
{
	char path[1200], stamp[32];

	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	CHECK_EQ(unlink(path), 0);
	CHECK_EQ(mkfifo(path, 0666), 0);
	for (int k = 0; k < 2; k++) {
		stamp_of(t + k, stamp, sizeof(stamp));
		snprintf(path, sizeof(path), "%s/" OUT_DIR "/op_summary_%s.csv", prof, stamp);
		CHECK_EQ(symlink(victim, path), 0);
	}
	for (int k = 0; k < 60; k++) {
		stamp_of(t + k, stamp, sizeof(stamp));
		snprintf(path, sizeof(path), "%s/" OUT_DIR "/msprof_%s.json.tmp", prof, stamp);
		CHECK_EQ(symlink(victim, path), 0);
	}
}

static void planted_files(const char *root, const char *prof)
{
	char victim[600], path[1200], stamp[32], want[1600], *text, *kept;
	time_t t = time(NULL) + 1; /* the clean export may hold this second */
	int rc;

	snprintf(victim, sizeof(victim), "%s/victim", root);
	CHECK_EQ(fx_write_file(victim, VICTIM_TEXT, strlen(VICTIM_TEXT)), 0);
	plant(prof, victim, t);
	text = export_stderr(root, prof, &rc);
	CHECK_EQ(rc, 0);
	kept = fx_slurp(victim);
	CHECK_STR(kept ?: "", VICTIM_TEXT);
	free(kept);
	check_contains(text, "host/info.json is a FIFO, device or directory, not a regular file: not read (no info.json: the records lost and the device clock samples are unknown)");
	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	CHECK_EQ(mode_of(path), 0640);
	stamp_of(t + 2, stamp, sizeof(stamp));
	if (strstr(path, stamp)) { /* else a slow machine let those seconds pass */
		stamp_of(t + 1, stamp, sizeof(stamp));
		snprintf(want, sizeof(want),
			 "%s/" OUT_DIR "/op_summary_%s.csv is a symlink: left alone, not written through",
			 prof, stamp);
		check_contains(text, want);
		stamp_of(t + 2, stamp, sizeof(stamp));
		snprintf(want, sizeof(want),
			 "%s/" OUT_DIR "/msprof_%s.json.tmp: a symlink or a stale file was there: removed, not written through",
			 prof, stamp);
		check_contains(text, want);
	}
	free(text);
}

int main(void)
{
	char root[256], prof[512];

	umask(0);
	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	planted_out_dir(root, prof);
	clean_modes(root, prof);
	planted_files(root, prof);
	if (!check_failures)
		fx_rmtree(root);
	else
		fprintf(stderr, "kept %s\n", root);
	return CHECK_DONE();
}
