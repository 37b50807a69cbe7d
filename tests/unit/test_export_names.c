// SPDX-License-Identifier: MIT
/*
 * Description: kernel names that are bytes, not text, come out of every
 * writer as their exact text (name_text.h).  A PROF dir whose kernels are
 * the six names of issue 6 (Mat"Mul, back\slash, x,y, <01>ctl,
 * bad<ff><fe>utf, n<c3><a4>me), a name with a tab, a newline and a C1
 * CSI, and a name that fills its 32-byte field with no NUL and ends in a
 * cut 3-byte character, is exported (timeline, CSVs, console summary) and
 * dumped by npuprof-dump; tests/e2e/check_names.py then parses it all with
 * Python's json and csv and finds exactly those names; task_time's bytes
 * are checked here too (quoting as RFC 4180 says).  Before the rule,
 * the export failed with "Cannot allocate memory" and wrote no JSON.
 * Skips (77) without python3.
 */
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>

#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

#define CHECKER "tests/e2e/check_names.py"

/* Names as the records carry them: up to NPUPROF_NAME_LEN bytes. */
static const char *const names[] = {
	"Mat\"Mul",
	"back\\slash",
	"x,y",
	"\x01" "ctl",
	"bad\xff\xfeutf",
	"n\xc3\xa4me",
	"tab\tnl\ncsi\xc2\x9b",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xe4\xb8", /* 32 bytes: no NUL */
};
#define N_NAMES (sizeof(names) / sizeof(names[0]))

/* The text of the last two, which check_names.py does not know. */
#define EXTRA_TEXT "--name 'tab\\x09nl\\x0acsi\\xc2\\x9b' --name 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\xe4\\xb8'"

/* task_time as it must be, byte for byte: RFC 4180 quotes where needed. */
static const char task_time[] =
	"Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),task_start(us),"
	"task_stop(us)\n"
	"0,\"Mat\"\"Mul\",AI_CORE,3,1,2000.000,1000004000.000,1000006000.000\n"
	"0,back\\slash,AI_CORE,3,2,2000.000,1000008000.000,1000010000.000\n"
	"0,\"x,y\",AI_CORE,3,3,2000.000,1000012000.000,1000014000.000\n"
	"0,\\x01ctl,AI_CORE,3,4,2000.000,1000016000.000,1000018000.000\n"
	"0,bad\\xff\\xfeutf,AI_CORE,3,5,2000.000,1000020000.000,1000022000.000\n"
	"0,n\xc3\xa4me,AI_CORE,3,6,2000.000,1000024000.000,1000026000.000\n"
	"0,tab\\x09nl\\x0acsi\\xc2\\x9b,AI_CORE,3,7,2000.000,1000028000.000,1000030000.000\n"
	"0,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\xe4\\xb8,AI_CORE,3,8,2000.000,1000032000.000,"
	"1000034000.000\n";

/* Kernel i: launched at 4i+2 ms, runs from 4i+4 to 4i+6 ms, task id i+1. */
static int names_data(const char *prof)
{
	struct fx_buf *b = calloc(1, sizeof(*b));
	char dir[1024];
	size_t i;
	int err;

	if (!b)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	fx_stream_hdr(b, NPUPROF_SRC_BPF, 0, -1);
	for (i = 0; i < N_NAMES; i++)
		fx_api(b, NPUPROF_API_RT_LAUNCH_KERNEL, (4 * i + 2) * FX_MS, 2000, FX_TID, 0xabc, 0,
		       names[i]);
	fx_lost(b, NPUPROF_SRC_BPF, 0, N_NAMES, 0);
	err = fx_write_slice(dir, "npuprof.api", 0, b, 4, 0, 1);
	memset(b, 0, sizeof(*b));
	snprintf(dir, sizeof(dir), "%s/device_0/data", prof);
	fx_stream_hdr(b, NPUPROF_SRC_KMOD, 0, 0);
	for (i = 0; i < N_NAMES; i++) {
		fx_task(b, NPUPROF_TASK_SUBMIT, (4 * i + 2) * FX_MS + 1000, 0, i + 1,
			NPUPROF_TT_KERNEL, 0, names[i]);
		fx_dev_event(b, NPUPROF_TASK_START, 4 * i + 4, i + 1, NPUPROF_TT_KERNEL, 0,
			     names[i], 0);
		fx_dev_event(b, NPUPROF_TASK_END, 4 * i + 6, i + 1, NPUPROF_TT_KERNEL, 0,
			     names[i], 0);
	}
	fx_lost(b, NPUPROF_SRC_KMOD, 0, 3 * N_NAMES, 0);
	if (!err)
		err = fx_write_slice(dir, "npuprof.task.0", 0, b, 8, 0, 1);
	free(b);
	return err;
}

/* msprof_export() with its console output in @path. */
static int export_to(const char *root, const char *path)
{
	struct msprof_export_opts opts = { .output = root, .print_summary = 1 };
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), saved, err;

	if (fd < 0)
		return -errno;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	err = msprof_export(&opts);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return err;
}

static void check_task_time(const char *prof)
{
	char path[2048], *got;

	CHECK_EQ(fx_find_output(prof, "task_time_", ".csv", path, sizeof(path)), 1);
	got = fx_slurp(path);
	CHECK_STR(got, task_time);
	free(got);
}

/* npuprof-dump, next to the tests in the build tree: build/bin/. */
static void dump_path(char *buf, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = '\0';
	snprintf(buf, size, "%s/../bin/npuprof-dump", dirname(self));
}

int main(void)
{
	char root[256], prof[512], console[600], dump[1024], cmd[4096];

	if (system("python3 -c '' 2>/dev/null"))
		CHECK_SKIP("python3 not available");
	if (access(CHECKER, R_OK))
		CHECK_SKIP(CHECKER " not found: run from the repository root (tests/run.sh does)");
	dump_path(dump, sizeof(dump));
	if (access(dump, X_OK))
		CHECK_SKIP("npuprof-dump not built (make tools)");
	if (fx_tmpdir(root, sizeof(root))) {
		fprintf(stderr, "cannot make a directory in /tmp\n");
		return 1;
	}
	snprintf(prof, sizeof(prof), "%s/" FX_PROF_NAME, root);
	if (fx_mkdirs(prof) || fx_control_files(prof) || names_data(prof)) {
		fprintf(stderr, "cannot build the fixture in %s\n", root);
		return 1;
	}
	snprintf(console, sizeof(console), "%s/console.txt", root);
	CHECK_EQ(export_to(root, console), 0);
	check_task_time(prof);
	snprintf(cmd, sizeof(cmd), "mkdir '%s/records' && '%s' '%s' >'%s/records/" FX_PROF_NAME ".jsonl'",
		 root, dump, prof, root);
	CHECK_EQ(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "python3 " CHECKER " '%s' --comm ai_task --console '%s' " EXTRA_TEXT,
		 root, console);
	CHECK_EQ(system(cmd), 0);
	if (!check_failures)
		fx_rmtree(root);
	return CHECK_DONE();
}
