// SPDX-License-Identifier: MIT
/*
 * Description: op_statistic over many distinct op types is linear, not
 * quadratic.  Before the fix each kernel task searched every row made so
 * far (and the array grew by one row per new op), and each row summed its
 * device's total over every row again: 2 devices x 20,000 ops took
 * seconds.  Here op k (op_00000 ... op_19999) runs once on device 0 for
 * (k + 1) us and once on device 1 for 2 (k + 1) us: the export gives
 * exactly 40,000 rows, device 0's first, each device's largest first
 * (op_19999: 20,000.000 us on device 0, 40,000.000 us on device 1), the
 * ratios of each device summing to 100% of its own total (ratio of op k =
 * 200 (k + 1) / (N (N + 1)) %), and both passes finish in well under a
 * second here (the bound is 3 s, for a loaded machine).
 */
#include <fcntl.h>
#include <time.h>

#include "check.h"
#include "export_model.h"
#include "export_summary.h"

#define N_OPS CHECK_ROUNDS(20000u) /* a tenth under a sanitizer, as check.h says */
#define DEV0 5000000000ull

/* Host ns of device count @c: an exact line, 20 ns per count. */
static int64_t host_of(uint64_t c)
{
	return 1000000000000ll + 20 * (int64_t)(c - DEV0);
}

static void add_task(struct export_model *m, uint32_t dev, uint32_t k, uint32_t name)
{
	uint64_t s = DEV0 + 1000000ull * k, e = s + 50ull * (dev + 1) * (k + 1);
	struct xm_task r = { .device = dev, .task_id = k, .type = NPUPROF_TT_KERNEL,
			     .have = XM_HAVE_START, .start_dev = s, .name = name };

	r.start_tp_ns = (uint64_t)host_of(s);
	CHECK_EQ(export_model_add_task(m, &r), 0);
	r.have = XM_HAVE_END;
	r.end_dev = e;
	r.end_tp_ns = (uint64_t)host_of(e);
	CHECK_EQ(export_model_add_task(m, &r), 0);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The CSV row of op @k on @dev, as it must read. */
static void want_row(char *buf, size_t size, uint32_t dev, uint32_t k)
{
	double us = (double)(dev + 1) * (k + 1);
	double ratio = 200.0 * (k + 1) / ((double)N_OPS * (N_OPS + 1));

	snprintf(buf, size, "%u,,op_%05u,AI_CORE,1,%.3f,%.3f,%.3f,%.3f,%.3f\n", dev, k, us, us, us,
		 us, ratio);
}

int main(void)
{
	char raw[NPUPROF_NAME_LEN], want[256], *csv = NULL, *line;
	double sum[2] = { 0, 0 }, t0;
	struct export_model m;
	struct xm_op_stat *s;
	size_t n, len = 0, rows = 0;
	uint32_t id;
	FILE *f;

	export_model_init(&m, AT_FDCWD);
	for (uint32_t k = 0; k < N_OPS; k++) {
		memset(raw, 0, sizeof(raw));
		snprintf(raw, sizeof(raw), "op_%05u", k);
		CHECK_EQ(xm_names_add(&m.names, raw, &id), 0);
		add_task(&m, 0, k, id);
		add_task(&m, 1, k, id);
	}
	CHECK_EQ(export_model_join(&m), 0);
	CHECK_EQ(m.n_drawn, 2 * N_OPS);

	t0 = now_s();
	CHECK_EQ(export_op_stats(&m, &s, &n), 0);
	CHECK_EQ(n, 2 * N_OPS);
	for (size_t i = 0; i < n; i++)
		sum[s[i].device] += (double)s[i].st.total_ns;
	CHECK_EQ((int64_t)sum[0], 1000ll * N_OPS * (N_OPS + 1) / 2);
	CHECK_EQ((int64_t)sum[1], 2000ll * N_OPS * (N_OPS + 1) / 2);
	free(s);

	f = open_memstream(&csv, &len);
	CHECK_EQ(export_write_op_statistic(&m, f), 0);
	fclose(f);
	fprintf(stderr, "op_statistic of %u ops: %.3f s\n", 2 * N_OPS, now_s() - t0);
	CHECK(now_s() - t0 < 3.0);
	line = csv ? strchr(csv, '\n') : NULL; /* past the header */
	for (uint32_t dev = 0; line && dev < 2; dev++) {
		for (uint32_t k = N_OPS; k-- > 0 && line;) {
			char *end = strchr(line + 1, '\n');

			want_row(want, sizeof(want), dev, k);
			if (!end || strncmp(line + 1, want, (size_t)(end - line))) {
				fprintf(stderr, "row %zu: %.*s, want %s", rows,
					end ? (int)(end - line) : 40, line + 1, want);
				check_failures++;
				break;
			}
			rows++;
			line = end[1] ? end : NULL;
		}
	}
	CHECK_EQ(rows, 2 * N_OPS);
	free(csv);
	export_model_free(&m);
	return CHECK_DONE();
}
