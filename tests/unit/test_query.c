// SPDX-License-Identifier: MIT
/*
 * Description: msprof --query=on lists every PROF_XXX under --output in
 * CANN's columns, one row for host/ and one per device_<id>/, what npuprof
 * knows filled in and the rest empty, byte for byte (TZ=UTC):
 *  - A: host/start_info (collectionTimeBegin 1767268800123456 us),
 *    host/info.json rank 3, device_0/start_info.0 (1767268800223456),
 *    device_2/ without its start_info (a capture cut short): its
 *    Collection Time stays empty and the row counts as incomplete;
 *  - B: host/start_info only, info.json without a rank: no devices.
 * Tab-separated for scripts (the header, then rows), aligned for a
 * terminal; --output naming one PROF dir gives bare "host"/"device_0";
 * a folder without PROF dirs is -ENOENT.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

#include "check.h"
#include "query.h"
#include "tmpdir.h"

#define A "PROF_000001_20260101120000123_00004242ABCDEFGH"
#define B "PROF_000001_20260101120001000_00004243ABCDEFGH"
#define HEAD "Job Info\tDevice ID\tDir Name\tCollection Time\tModel ID\tIteration Number\tTop Time Iteration\tRank ID\n"

static char root[] = "/tmp/test_query.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (!text) {
		CHECK_EQ(mkdir(path, 0755), 0);
		return;
	}
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* What msprof_query() prints for @output in @form; its status in *@rc. */
static char *query(const char *output, enum msprof_query_form form, int *rc, unsigned int *inc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = msprof_query(output, f, form, inc);
	fclose(f);
	return buf;
}

int main(void)
{
	char path[512], *out;
	unsigned int inc;
	int rc;

	setenv("TZ", "UTC", 1);
	tzset();
	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	put(A "/host/start_info", "{\"collectionTimeBegin\": \"1767268800123456\"}\n");
	put(A "/host/info.json", "{\"pid\": 4242, \"rank\": 3}\n");
	put(A "/device_0/start_info.0", "{\"collectionTimeBegin\": \"1767268800223456\"}\n");
	put(A "/device_2/data", NULL);
	put(B "/host/start_info", "{\"collectionTimeBegin\": \"1767268801000000\"}\n");
	put(B "/host/info.json", "{\"pid\": 4243}\n");
	put("not_a_prof/host/start_info", "{}\n");

	out = query(root, MSPROF_QUERY_TSV, &rc, &inc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(inc, 1);
	CHECK_STR(out, HEAD
		  "\t\t" A "/host\t2026-01-01 12:00:00.123456\t\t\t\t3\n"
		  "\t0\t" A "/device_0\t2026-01-01 12:00:00.223456\t\t\t\t3\n"
		  "\t2\t" A "/device_2\t\t\t\t\t3\n"
		  "\t\t" B "/host\t2026-01-01 12:00:01.000000\t\t\t\t\n");
	free(out);

	snprintf(path, sizeof(path), "%s/" B, root);
	out = query(path, MSPROF_QUERY_TABLE, &rc, &inc);
	CHECK_EQ(rc, 0);
	CHECK_EQ(inc, 0);
	CHECK_STR(out, "Job Info  Device ID  Dir Name  Collection Time             Model ID  "
		       "Iteration Number  Top Time Iteration  Rank ID\n"
		       "                     host      2026-01-01 12:00:01.000000\n");
	free(out);

	snprintf(path, sizeof(path), "%s/not_a_prof", root);
	out = query(path, MSPROF_QUERY_TSV, &rc, &inc);
	CHECK_EQ(rc, 0); /* it holds host/: a renamed PROF dir, as the export takes it */
	CHECK_EQ(inc, 1); /* its start_info is {} */
	CHECK_STR(out, HEAD "\t\thost\t\t\t\t\t\n");
	free(out);
	snprintf(path, sizeof(path), "%s/not_a_prof/host", root);
	free(query(path, MSPROF_QUERY_TSV, &rc, &inc));
	CHECK_EQ(rc, -ENOENT);
	tmpdir_remove(root);
	return CHECK_DONE();
}
