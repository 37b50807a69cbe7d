// SPDX-License-Identifier: MIT
/*
 * Description: a PROF dir whose path is not UTF-8 ("<tmp>/\xff\x01d/
 * PROF_\xff\x01p", a kill -9 capture with a cut device slice) exports
 * with every reason kept: the timeline's "npuprof_capture" metadata lists
 * the model's 4 reasons, the same strings; stderr and the summary on
 * stdout never carry the raw bytes 0xff or 0x01, and name the directory
 * as "\xff\x01d/PROF_\xff\x01p" (the name rule of npuprof/name_text.h).
 */
#include <jansson.h>

#include "check.h"
#include "export.h"
#include "export_model.h"
#include "test_export_fixture.h"

#define HOSTILE_DIR "\xff\x01" "d"
#define HOSTILE_PROF "PROF_\xff\x01p"
#define ESCAPED "\\xff\\x01d/PROF_\\xff\\x01p"
#define N_REASONS 4

static int build(const char *root, char *prof, size_t size)
{
	char parent[300];
	int err;

	snprintf(parent, sizeof(parent), "%s/" HOSTILE_DIR, root);
	snprintf(prof, size, "%s/" HOSTILE_PROF, parent);
	if (mkdir(parent, 0755))
		return -errno;
	err = fx_mkdirs(prof);
	if (!err)
		err = fx_control_files(prof);
	if (!err)
		err = fx_host_data_as(prof, 0);
	if (!err)
		err = fx_device_data(prof, 0, 1);
	return err;
}

/* Export @prof with its summary; stdout and stderr into files in @root. */
static int export_captured(const char *root, const char *prof, char **out, char **err)
{
	struct msprof_export_opts opts = { .output = prof, .print_summary = 1 };
	char opath[300], epath[300];
	int saved_out, saved_err, rc;

	snprintf(opath, sizeof(opath), "%s/stdout.txt", root);
	snprintf(epath, sizeof(epath), "%s/stderr.txt", root);
	saved_out = fx_fd_to(1, opath);
	saved_err = fx_fd_to(2, epath);
	rc = msprof_export(&opts);
	fx_fd_back(2, saved_err);
	fx_fd_back(1, saved_out);
	*out = fx_slurp(opath);
	*err = fx_slurp(epath);
	return rc;
}

static void check_text(const char *what, const char *text)
{
	CHECK(text != NULL);
	if (!text)
		return;
	CHECK(strchr(text, '\xff') == NULL);
	CHECK(strchr(text, '\x01') == NULL);
	if (!strstr(text, ESCAPED)) {
		fprintf(stderr, "%s lacks %s\n", what, ESCAPED);
		check_failures++;
	}
}

static void check_timeline(const char *prof, const struct export_model *m)
{
	json_t *evs, *why;
	char path[2048];
	size_t i;

	CHECK_EQ(fx_find_output(prof, "msprof_", ".json", path, sizeof(path)), 1);
	evs = json_load_file(path, 0, NULL);
	CHECK(evs != NULL);
	why = json_object_get(fx_capture_args(evs), "incomplete");
	CHECK_EQ(json_array_size(why), N_REASONS);
	for (i = 0; i < json_array_size(why) && i < m->n_reasons; i++)
		CHECK_STR(json_string_value(json_array_get(why, i)) ?: "", m->reasons[i]);
	json_decref(evs);
}

int main(void)
{
	char root[256], prof[512], *out = NULL, *err = NULL;
	struct export_model m;

	if (fx_tmpdir(root, sizeof(root)) || build(root, prof, sizeof(prof))) {
		fprintf(stderr, "cannot build the fixture in /tmp\n");
		return 1;
	}
	CHECK_EQ(export_model_load(prof, &m), 0);
	CHECK_EQ(m.n_reasons, N_REASONS);
	CHECK_EQ(export_captured(root, prof, &out, &err), 0);
	check_text("stderr", err);
	check_text("stdout", out);
	check_timeline(prof, &m);
	export_model_free(&m);
	free(out);
	free(err);
	if (!check_failures)
		fx_rmtree(root);
	else
		fprintf(stderr, "kept %s\n", root);
	return CHECK_DONE();
}
