// SPDX-License-Identifier: MIT
/*
 * Description: paths and reasons that are not UTF-8 cost no output.  A
 * --result line for a PROF dir under /out/<ff><01>/ says
 * "/out/\xff\x01/PROF_..." (the text of name_text.h), a failed line's
 * reason "pid 7: <fe>" says "pid 7: \xfe", and the profiling parameters
 * for an --output of /data/<ff> and an app ./run<c3> carry "result_dir":
 * "/data/\xff" and "app": "./run\xc3".  Before, each json_pack failed:
 * the result line was lost and a capture with such an --output failed
 * with "Cannot allocate memory".
 */
#include <fcntl.h>
#include <jansson.h>
#include <unistd.h>

#include "check.h"
#include "jsonl.h"
#include "dynamic.h"
#include "result.h"

static const char *sval(json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static void result_lines(void)
{
	char path[] = "/tmp/npuprof-result-XXXXXX", buf[4096], *cur = buf;
	struct npuprof_session_result r = {
		.pid = 7, .rank = -1,
		.prof_dir = "/out/\xff\x01/PROF_000001_20261130120000000_00000007ABCDEFGH",
	};
	int fd = mkstemp(path);
	json_t *a, *b;
	ssize_t n;
	FILE *f;

	if (fd < 0)
		CHECK_SKIP("no temp file");
	close(fd);
	f = msprof_result_open(path);
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_EQ(msprof_result_saved(f, &r), 0);
	CHECK_EQ(msprof_result_failed(f, 7, "pid 7: \xfe"), 0);
	fclose(f);
	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	unlink(path);
	buf[n > 0 ? n : 0] = '\0';
	a = jsonl_next(&cur);
	b = jsonl_next(&cur);
	CHECK(a && b);
	CHECK_STR(cur, "");
	CHECK_STR(sval(a, "prof_dir"), "/out/\\xff\\x01/PROF_000001_20261130120000000_00000007ABCDEFGH");
	CHECK_STR(sval(b, "error"), "pid 7: \\xfe");
	json_decref(a);
	json_decref(b);
}

static void params(void)
{
	static struct msprof_options o;
	char *argv[] = { "./run\xc3", NULL };
	json_t *p;
	char *text;

	snprintf(o.output_abs, sizeof(o.output_abs), "/data/\xff");
	o.app_argv = argv;
	o.app_argc = 1;
	text = msprof_params_json(&o, 99);
	CHECK(text != NULL);
	p = text ? json_loads(text, 0, NULL) : NULL;
	CHECK(p != NULL);
	CHECK_STR(sval(p, "result_dir"), "/data/\\xff");
	CHECK_STR(sval(p, "app"), "./run\\xc3");
	json_decref(p);
	free(text);
}

int main(void)
{
	result_lines();
	params();
	return CHECK_DONE();
}
