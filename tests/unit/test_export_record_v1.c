// SPDX-License-Identifier: MIT
/*
 * Description: slices written by a record-version-1 npuprof still export
 * after the record format moves on.  The records here are laid out byte
 * by byte at the offsets of version 1 (include/npuprof/record.h when
 * NPUPROF_RECORD_VERSION was 1: a 32-byte stream header saying version 1,
 * 104-byte API, 88-byte task and 40-byte loss records), not through
 * today's structs, so the test keeps checking version 1 once they change.
 * A host series (aclrtMalloc 3 us, aclrtLaunchKernel 2 us of
 * "add_custom", one LOST record) and a device-0 series (that kernel's
 * submit, start at 16 ms and end at 26 ms) export to exactly the expected
 * api_statistic and task_time rows, with no warning of a newer version.
 */
#include "check.h"
#include "export.h"
#include "test_export_fixture.h"

/* Version-1 record sizes and the version itself: frozen, never the macros. */
#define V1 1
#define V1_STREAM_HDR 32
#define V1_API 104
#define V1_TASK 88
#define V1_LOST 40

static void put(unsigned char *rec, size_t off, const void *v, size_t n)
{
	memcpy(rec + off, v, n);
}

#define PUT(rec, off, type, val)                 \
	do {                                     \
		type v_ = (type)(val);           \
		put((rec), (off), &v_, sizeof(v_)); \
	} while (0)

/* The common head: type u16 @0, size u16 @2, cpu u32 @4, ts u64 @8. */
static void v1_head(unsigned char *rec, uint16_t type, uint16_t size, uint32_t cpu, uint64_t ts)
{
	memset(rec, 0, size);
	PUT(rec, 0, uint16_t, type);
	PUT(rec, 2, uint16_t, size);
	PUT(rec, 4, uint32_t, cpu);
	PUT(rec, 8, uint64_t, ts);
}

static void v1_stream_hdr(struct fx_buf *b, uint16_t source, int32_t device)
{
	unsigned char r[V1_STREAM_HDR];

	v1_head(r, 1, sizeof(r), 0, 0);
	PUT(r, 16, uint32_t, 0x5055504eu); /* "NPUP" */
	PUT(r, 20, uint16_t, V1);
	PUT(r, 22, uint16_t, source);
	PUT(r, 24, uint32_t, 0); /* slice index */
	PUT(r, 28, int32_t, device);
	fx_put(b, r, sizeof(r));
}

static void v1_api(struct fx_buf *b, uint16_t api, uint64_t entry, uint64_t dur, uint32_t tid,
		   uint64_t bytes, const char *name)
{
	unsigned char r[V1_API];

	v1_head(r, 2, sizeof(r), 1, FX_T0 + entry);
	PUT(r, 16, uint64_t, FX_T0 + entry + dur); /* exit_ts */
	PUT(r, 24, uint32_t, FX_PID);
	PUT(r, 28, uint32_t, tid);
	PUT(r, 32, uint16_t, api);
	PUT(r, 36, int32_t, 0);	      /* ret */
	PUT(r, 40, int32_t, -1);      /* device */
	PUT(r, 48, uint64_t, 0xabc);  /* stream */
	PUT(r, 56, uint64_t, bytes);
	if (name)
		memcpy(r + 72, name, strlen(name)); /* name[32] */
	fx_put(b, r, sizeof(r));
}

static void v1_task(struct fx_buf *b, uint16_t event, uint64_t host_rel, uint64_t dev_ts)
{
	unsigned char r[V1_TASK];

	v1_head(r, 3, sizeof(r), 0, FX_T0 + host_rel);
	PUT(r, 16, uint64_t, dev_ts);
	PUT(r, 24, uint32_t, FX_PID);
	PUT(r, 28, uint32_t, FX_TID);
	PUT(r, 32, uint32_t, 0);	/* device */
	PUT(r, 36, uint32_t, FX_STREAM);
	PUT(r, 40, uint32_t, 1);	/* task_id */
	PUT(r, 44, uint16_t, event);
	PUT(r, 46, uint16_t, 0);	/* task_type: kernel */
	memcpy(r + 56, "add_custom", 10); /* name[32] */
	fx_put(b, r, sizeof(r));
}

static void v1_lost(struct fx_buf *b)
{
	unsigned char r[V1_LOST];

	v1_head(r, 4, sizeof(r), 0, FX_T0 + 60 * FX_MS);
	PUT(r, 16, uint32_t, 2); /* source: BPF */
	PUT(r, 20, uint32_t, 0); /* cpu */
	PUT(r, 24, uint64_t, 2); /* written */
	PUT(r, 32, uint64_t, 0); /* lost */
	fx_put(b, r, sizeof(r));
}

static int write_v1(const char *prof)
{
	static struct fx_buf b;
	char dir[1024];
	int err;

	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	memset(&b, 0, sizeof(b));
	v1_stream_hdr(&b, 2, -1);
	v1_api(&b, 7, 100000, 3000, FX_TID2, 1024, NULL); /* aclrtMalloc */
	v1_api(&b, 11, 2 * FX_MS, 2000, FX_TID, 0, "add_custom"); /* aclrtLaunchKernel */
	v1_lost(&b);
	err = fx_write_slice(dir, "npuprof.api", 0, &b, 2, 0, 1);
	if (err)
		return err;
	snprintf(dir, sizeof(dir), "%s/device_0/data", prof);
	memset(&b, 0, sizeof(b));
	v1_stream_hdr(&b, 1, 0);
	v1_task(&b, 1, 2 * FX_MS + 1000, 0);			 /* submit */
	v1_task(&b, 2, 16 * FX_MS, fx_dev(16 * FX_MS));	 /* start */
	v1_task(&b, 3, 26 * FX_MS, fx_dev(26 * FX_MS));	 /* end */
	return fx_write_slice(dir, "npuprof.task.0", 0, &b, 2, 0, 1);
}

static void check_csv(const char *prof, const char *prefix, const char *want)
{
	char path[2048], *got;

	CHECK_EQ(fx_find_output(prof, prefix, ".csv", path, sizeof(path)), 1);
	got = fx_slurp(path);
	CHECK_STR(got, want);
	free(got);
}

int main(void)
{
	char root[256], prof[512], log[600], *err_text;
	struct msprof_export_opts opts = { 0 };
	int saved;

	if (fx_tmpdir(root, sizeof(root)))
		CHECK_SKIP("no temp dir");
	snprintf(prof, sizeof(prof), "%s/" FX_PROF_NAME, root);
	if (fx_mkdirs(prof) || fx_control_files(prof) || write_v1(prof)) {
		fprintf(stderr, "cannot build the version-1 PROF dir in %s\n", root);
		return 1;
	}
	opts.output = prof;
	snprintf(log, sizeof(log), "%s/stderr", root);
	saved = fx_stderr_to(log);
	CHECK_EQ(msprof_export(&opts), 0);
	fx_stderr_back(saved);
	err_text = fx_slurp(log);
	CHECK(err_text && !strstr(err_text, "newer npuprof"));
	free(err_text);
	check_csv(prof, "api_statistic_",
		  "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us),Variance\n"
		  "host,AscendCL,aclrtMalloc,3.000,1,3.000,3.000,3.000,0.000\n"
		  "host,AscendCL,aclrtLaunchKernel,2.000,1,2.000,2.000,2.000,0.000\n");
	check_csv(prof, "task_time_",
		  "Device_id,kernel_name,kernel_type,stream_id,task_id,task_time(us),"
		  "task_start(us),task_stop(us)\n"
		  "0,add_custom,AI_CORE,3,1,10000.000,1000016000.000,1000026000.000\n");
	if (!check_failures)
		fx_rmtree(root);
	else
		fprintf(stderr, "output kept in %s\n", root);
	return CHECK_DONE();
}
