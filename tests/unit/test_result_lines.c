// SPDX-License-Identifier: MIT
/*
 * Description: --result lines are one JSON object per line, appended: a
 * saved PROF dir gives pid, prof_dir, the window in Unix ns, record
 * counts, losses by cause and complete = true only when nothing was lost,
 * dropped or skipped and no write failed; a process without a directory
 * gives prof_dir null, complete false and the reason.  A second open
 * appends after the lines already there.
 */
#include <jansson.h>
#include <fcntl.h>
#include <unistd.h>

#include "check.h"
#include "jsonl.h"
#include "result.h"

static long long ival(json_t *o, const char *k)
{
	return json_integer_value(json_object_get(o, k));
}

int main(void)
{
	char path[] = "/tmp/npuprof-result-XXXXXX";
	struct npuprof_session_result ok = {
		.pid = 4242, .rank = 3, .prof_dir = "/out/PROF_000001_20261130120000000_00004242ABCDEFGH",
		.api_records = 700, .task_records = 1932, .start_unix_ns = 1796042795885890123,
		.end_unix_ns = 1796042799885890456,
	};
	struct npuprof_session_result lossy = ok;
	char buf[4096], *cur = buf;
	json_t *a, *b, *c, *lost;
	FILE *f;
	int fd = mkstemp(path);
	ssize_t n;

	if (fd < 0)
		CHECK_SKIP("no temp file");
	close(fd);
	lossy.pid = 4243;
	lossy.rank = -1;
	lossy.loss.n[NPUPROF_LOSS_RING_FULL] = 5;
	lossy.loss.n[NPUPROF_LOSS_WRITE_ERROR] = 2;
	lossy.loss.n[NPUPROF_LOSS_DECODE_ERROR] = 1;
	lossy.cpu_loss[0] = (struct npuprof_loss){ .n = { 5, 2, 1 }, .cpu = 7 };
	lossy.nr_cpu_loss = 1;
	f = msprof_result_open(path);
	CHECK(f != NULL);
	if (!f)
		return CHECK_DONE();
	CHECK_EQ(msprof_result_saved(f, &ok), 0);
	fclose(f);
	f = msprof_result_open(path); /* appends */
	CHECK_EQ(msprof_result_saved(f, &lossy), 0);
	CHECK_EQ(msprof_result_failed(f, 4244, "the process has exited"), 0);
	fclose(f);

	fd = open(path, O_RDONLY);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	unlink(path);
	CHECK(n > 0);
	buf[n > 0 ? n : 0] = '\0';
	a = jsonl_next(&cur);
	b = jsonl_next(&cur);
	c = jsonl_next(&cur);
	CHECK(a && b && c);
	CHECK_STR(cur, "");
	if (!a || !b || !c)
		return CHECK_DONE();
	CHECK_EQ(ival(a, "pid"), 4242);
	CHECK_EQ(ival(a, "rank"), 3);
	CHECK_STR(json_string_value(json_object_get(a, "prof_dir")), ok.prof_dir);
	CHECK_EQ(ival(a, "start_ns"), 1796042795885890123ll);
	CHECK_EQ(ival(a, "end_ns"), 1796042799885890456ll);
	CHECK_EQ(ival(a, "api_records"), 700);
	CHECK_EQ(ival(a, "task_records"), 1932);
	CHECK(json_is_true(json_object_get(a, "complete")));
	CHECK(json_is_null(json_object_get(a, "error")));
	CHECK(json_string_value(json_object_get(a, "host")) != NULL);
	lost = json_object_get(a, "lost");
	CHECK_EQ(ival(lost, "total"), 0);
	CHECK_EQ(ival(lost, "ring_full"), 0);
	CHECK_EQ(ival(lost, "write_error"), 0);
	CHECK_EQ(ival(lost, "decode_error"), 0);
	CHECK_EQ(json_object_size(lost), 5);
	CHECK_EQ(json_array_size(json_object_get(lost, "byCpu")), 0);
	CHECK_EQ(ival(a, "corrupt_bytes"), 0);

	CHECK_EQ(ival(b, "pid"), 4243);
	CHECK(json_is_null(json_object_get(b, "rank")));
	CHECK(json_is_false(json_object_get(b, "complete")));
	CHECK_EQ(ival(json_object_get(b, "lost"), "ring_full"), 5);
	CHECK_EQ(ival(json_object_get(b, "lost"), "write_error"), 2);
	CHECK_EQ(ival(json_object_get(b, "lost"), "decode_error"), 1);
	CHECK_EQ(ival(json_object_get(b, "lost"), "total"), 8);
	lost = json_array_get(json_object_get(json_object_get(b, "lost"), "byCpu"), 0);
	CHECK_EQ(json_array_size(json_object_get(json_object_get(b, "lost"), "byCpu")), 1);
	CHECK_EQ(ival(lost, "cpu"), 7);
	CHECK_EQ(ival(lost, "total"), 8);
	CHECK_EQ(ival(lost, "ring_full"), 5);
	CHECK_EQ(ival(lost, "write_error"), 2);
	CHECK_EQ(ival(lost, "decode_error"), 1);

	CHECK_EQ(ival(c, "pid"), 4244);
	CHECK(json_is_null(json_object_get(c, "prof_dir")));
	CHECK(json_is_false(json_object_get(c, "complete")));
	CHECK_STR(json_string_value(json_object_get(c, "error")), "the process has exited");
	/* the same keys as a saved line */
	CHECK(json_is_null(json_object_get(c, "rank")));
	CHECK(json_is_null(json_object_get(c, "start_ns")));
	CHECK(json_is_null(json_object_get(c, "end_ns")));
	CHECK_EQ(ival(c, "api_records"), 0);
	CHECK_EQ(ival(json_object_get(c, "lost"), "ring_full"), 0);
	CHECK_EQ(json_object_size(c), json_object_size(a));
	json_decref(a);
	json_decref(b);
	json_decref(c);
	return CHECK_DONE();
}
