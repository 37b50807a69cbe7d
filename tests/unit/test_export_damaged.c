// SPDX-License-Identifier: MIT
/*
 * Description: the other ways a PROF dir is damaged each map to exactly
 * one reason, and the export still exports what is whole.  On the
 * fixture: the frame magic of host slice_1 is zeroed (a corrupt zstd
 * frame at byte 0: its 3 calls and the LOST records are not exported, the
 * 3 calls of slice_0 are), the device slice's .done says 1 byte, sample.json
 * is cut short, and info.json says a write failed with ENOSPC (no clock
 * samples, no loss).  Reasons, in order: sample.json damaged, the corrupt
 * frame, the .done size, the failed write (device 0's clock fitted to the
 * task records is a placement, not a reason).
 */
#include <sys/stat.h>

#include "check.h"
#include "export.h"
#include "export_model.h"
#include "test_export_fixture.h"

#define N_REASONS 4

static int damage(const char *prof)
{
	static const char info[] = "{\"pid\": 4242, \"drain\": {\"write_error\": -28}, \"lost\": "
				   "{\"total\": 0, \"ring_full\": 0, \"write_error\": 0, "
				   "\"decode_error\": 0, \"byCpu\": []}}\n";
	char path[1024];
	int fd, err;

	snprintf(path, sizeof(path), "%s/host/data/npuprof.api.slice_1", prof);
	fd = open(path, O_WRONLY);
	if (fd < 0 || pwrite(fd, "\0\0\0\0", 4, 0) != 4)
		return -EIO;
	close(fd);
	snprintf(path, sizeof(path), "%s/device_0/data/npuprof.task.0.slice_0.done", prof);
	err = fx_write_file(path, "filesize:1\n", 11);
	snprintf(path, sizeof(path), "%s/host/sample.json", prof);
	if (!err)
		err = fx_write_file(path, "{\"a\":", 5);
	snprintf(path, sizeof(path), "%s/host/info.json", prof);
	if (!err)
		err = fx_write_file(path, info, sizeof(info) - 1);
	return err;
}

int main(void)
{
	char root[256], prof[512], path[1024], want[N_REASONS][256];
	struct msprof_export_opts opts = { 0 };
	struct export_model m;
	struct stat st;

	if (fx_tmpdir(root, sizeof(root)) || fx_build(root, prof, sizeof(prof), 0, 0) ||
	    damage(prof)) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/device_0/data/npuprof.task.0.slice_0", prof);
	CHECK_EQ(stat(path, &st), 0);
	snprintf(want[0], 256, "sample.json is damaged (not valid JSON): it was cut short");
	snprintf(want[1], 256, "slice host/data/npuprof.api.slice_1: corrupt zstd frame at byte 0: no record from there on is exported");
	snprintf(want[2], 256, "slice device_0/data/npuprof.task.0.slice_0: its .done says 1 bytes, the file has %lld: a cut copy",
		 (long long)st.st_size);
	snprintf(want[3], 256, "a write failed during the capture: No space left on device");

	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(m.n_calls, 3);
	CHECK_EQ(m.n_tasks, 4);
	CHECK_EQ(m.n_drawn, 3);
	CHECK_EQ(m.lost, 0);
	CHECK_EQ(m.n_reasons, N_REASONS);
	for (size_t i = 0; i < N_REASONS && i < m.n_reasons; i++)
		CHECK_STR(m.reasons[i], want[i]);
	export_model_free(&m);

	opts.output = prof;
	CHECK_EQ(msprof_export(&opts), 0);
	CHECK_EQ(opts.incomplete, 1);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
