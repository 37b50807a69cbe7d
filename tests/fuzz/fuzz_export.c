// SPDX-License-Identifier: MIT
/*
 * Fuzz target: msprof --export=on (tools/export/export*.c) of a PROF_XXX
 * directory built from fuzzed slices, in a tmpfs directory made afresh
 * for each input and removed after it.
 *
 * Input: a flags byte, then the host API series and the device task
 * series, each a slice shape (fuzz_util.h) and a u16-length section of
 * decoded records; then, when the flags say so, a u16-length section that
 * replaces host/info.json and one that replaces host/start_info.  The
 * other control files are the export fixture's (test_export_fixture.h).
 * Flags: bit 0 fuzzed info.json, bit 1 fuzzed start_info, bit 2 no
 * end_info (a capture cut short), bit 3 print the summary, bits 4-5 the
 * device id.
 *
 * Properties beyond the sanitizers: the export succeeds, or says there is
 * no data (-ENODATA); a success leaves every output file readable by its
 * reader: each .json loads with jansson, each .csv has every row as wide
 * as its header (RFC 4180 quoting).
 */
#include <dirent.h>
#include <jansson.h>

#include "export.h"
#include "fuzz_util.h"
#include "test_export_fixture.h"

#define F_INFO 0x01
#define F_START_INFO 0x02
#define F_NO_END_INFO 0x04
#define F_SUMMARY 0x08

static char root[PATH_MAX];

/* Fields of the CSV record at *@p (advanced past it), -1 when a quote
 * never closes. */
static long csv_record(const char **p)
{
	const char *s = *p;
	long fields = 1;
	int quoted = 0;

	for (; *s; s++) {
		if (quoted) {
			if (*s == '"' && s[1] == '"')
				s++;
			else if (*s == '"')
				quoted = 0;
		} else if (*s == '"') {
			quoted = 1;
		} else if (*s == ',') {
			fields++;
		} else if (*s == '\n') {
			s++;
			break;
		}
	}
	*p = s;
	return quoted ? -1 : fields;
}

static void check_csv(const char *path)
{
	char *text = fx_slurp(path);
	const char *p = text;
	long width;

	FUZZ_ASSERT(text != NULL);
	width = csv_record(&p);
	FUZZ_ASSERT(width > 0);
	while (*p)
		FUZZ_ASSERT(csv_record(&p) == width);
	free(text);
}

static void check_json(const char *path)
{
	json_error_t err;
	json_t *doc = json_load_file(path, 0, &err);

	FUZZ_ASSERT(doc != NULL);
	json_decref(doc);
}

/* Every file of the export, by its kind. */
static void check_outputs(const char *prof)
{
	char dir[PATH_MAX + 64], path[2 * PATH_MAX];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/mindstudio_profiler_output", prof);
	d = opendir(dir);
	FUZZ_ASSERT(d != NULL);
	while ((de = readdir(d))) {
		const char *ext = strrchr(de->d_name, '.');

		if (de->d_name[0] == '.' || !ext)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		FUZZ_ASSERT(!strcmp(ext, ".json") || !strcmp(ext, ".csv"));
		if (!strcmp(ext, ".json"))
			check_json(path);
		else
			check_csv(path);
		n++;
	}
	closedir(d);
	FUZZ_ASSERT(n > 0);
}

static void write_series(struct fuzz_in *in, const char *dir, const char *series)
{
	struct fuzz_slice_shape shape = fuzz_slice_shape(in);
	char path[PATH_MAX + 64];
	const uint8_t *data;
	size_t len = fuzz_section(in, &data);

	snprintf(path, sizeof(path), "%s/%s.slice_0", dir, series);
	FUZZ_ASSERT(fuzz_write_slice(path, data, len, &shape) == 0);
}

/* Replace @prof/@name with the next section of the input. */
static void write_control(struct fuzz_in *in, const char *prof, const char *name)
{
	char path[PATH_MAX + 64];
	const uint8_t *data;
	size_t len = fuzz_section(in, &data);

	snprintf(path, sizeof(path), "%s/%s", prof, name);
	FUZZ_ASSERT(fuzz_write_file(path, data, len) == 0);
}

/* The PROF dir of this input; returns its path in @prof. */
static void build_prof(struct fuzz_in *in, uint8_t flags, char *prof, size_t size)
{
	unsigned int dev = (flags >> 4) & 3;
	char dir[PATH_MAX + 64], series[32];

	snprintf(prof, size, "%s/" FX_PROF_NAME, root);
	FUZZ_ASSERT(fx_mkdirs(prof) == 0 && fx_control_files(prof) == 0);
	snprintf(dir, sizeof(dir), "%s/device_%u", prof, dev);
	FUZZ_ASSERT(mkdir(dir, 0755) == 0 || errno == EEXIST);
	snprintf(dir, sizeof(dir), "%s/device_%u/data", prof, dev);
	FUZZ_ASSERT(mkdir(dir, 0755) == 0 || errno == EEXIST);

	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	write_series(in, dir, "npuprof.api");
	snprintf(dir, sizeof(dir), "%s/device_%u/data", prof, dev);
	snprintf(series, sizeof(series), "npuprof.task.%u", dev);
	write_series(in, dir, series);
	if (flags & F_INFO)
		write_control(in, prof, "host/info.json");
	if (flags & F_START_INFO)
		write_control(in, prof, "host/start_info");
	if (flags & F_NO_END_INFO) {
		snprintf(dir, sizeof(dir), "%s/host/end_info", prof);
		unlink(dir);
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_mkdtemp(root, sizeof(root), "export");
	fuzz_quiet_stdout();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct msprof_export_opts opts = { 0 };
	uint8_t flags = fuzz_u8(&in);
	char prof[PATH_MAX];
	int rc;

	build_prof(&in, flags, prof, sizeof(prof));
	opts.output = prof;
	opts.print_summary = !!(flags & F_SUMMARY);
	rc = msprof_export(&opts);
	FUZZ_ASSERT(rc == 0 || rc == -ENODATA);
	if (rc == 0)
		check_outputs(prof);
	tmpdir_remove(prof);
	return 0;
}
