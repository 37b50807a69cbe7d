/* SPDX-License-Identifier: MIT */
/*
 * A PROF_XXX directory with exactly known content, for the export tests.
 *
 * Slices are written here directly (complete zstd frames of records that
 * start with a stream header, plus "<slice>.done" = "filesize:<n>\n"), not
 * through the drain, so the export is tested against the format itself.
 *
 * The scenario (times relative to FX_T0 = 1000 s of CLOCK_MONOTONIC):
 *   thread 4250: aclrtMalloc           0.100 ms .. +3 us, 1024 bytes
 *   thread 4243: aclrtMemcpyAsync      1 ms .. +4 us   -> task 1 MEMCPY
 *                aclrtLaunchKernel     2 ms .. +2 us   -> task 2 add_custom
 *                aclrtLaunchKernel     3 ms .. +6 us   -> task 3 matmul_custom
 *                aclrtSynchronizeStream 5 ms .. 48.5 ms (STREAM_SYNC inside)
 *                aclrtLaunchKernel     49 ms .. +1 us  -> task 4 add_custom
 *   device 0, stream 3: task 1 runs 10..14 ms, task 2 16..26 ms, task 3
 *   28..48 ms, task 4 starts at 50 ms and the capture stops before its END.
 *
 * Device clock: count = FX_D0 + t_ns * 100003 / 2000000, i.e. 50 MHz with
 * +30 ppm drift and an offset of 1.23e11 counts; every event sits on a
 * 2 ms grid so its count is an exact integer.  With @jitter the START/END
 * tracepoint host times are off the true time by +-FX_JITTER_NS in a
 * pattern that sums to zero and is uncorrelated with time, so a correct
 * least-squares fit still recovers every task time exactly, while raw
 * tracepoint times would be 700 ns wrong.
 */
#ifndef NPUPROF_TEST_EXPORT_FIXTURE_H
#define NPUPROF_TEST_EXPORT_FIXTURE_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <npuprof/record.h>

#define FX_T0 1000000000000ull /* ns */
#define FX_D0 123000000000ull  /* device counts at FX_T0 */
#define FX_PID 4242u
#define FX_TID 4243u
#define FX_TID2 4250u
#define FX_DEV 0u
#define FX_STREAM 3u
#define FX_JITTER_NS 700
#define FX_PROF_NAME "PROF_000001_20260101120000123_00004242ABCDEFGH"
#define FX_MS 1000000ull

/* Device count of host time FX_T0 + @t_ns (t_ns on the 2 ms grid). */
static inline uint64_t fx_dev(uint64_t t_ns)
{
	return FX_D0 + t_ns * 100003ull / 2000000ull;
}

struct fx_buf {
	unsigned char data[16384];
	size_t len;
	size_t offs[256]; /* start of each record */
	size_t nrec;
};

static inline void fx_put(struct fx_buf *b, const void *rec, size_t size)
{
	b->offs[b->nrec++] = b->len;
	memcpy(b->data + b->len, rec, size);
	b->len += size;
}

static inline void fx_stream_hdr(struct fx_buf *b, uint16_t source, uint32_t slice, int32_t dev)
{
	struct npuprof_rec_stream_hdr h = {
		.hdr = { NPUPROF_REC_STREAM_HDR, sizeof(h), 0, 0 },
		.magic = NPUPROF_STREAM_MAGIC,
		.version = NPUPROF_RECORD_VERSION,
		.source = source,
		.slice = slice,
		.device = dev,
	};

	fx_put(b, &h, sizeof(h));
}

/*
 * A call of @api from @entry for @dur ns; one in @fx_cut_api is written as
 * the stop writes a call still in flight (NPUPROF_API_CUT_END, no return).
 */
static uint16_t fx_cut_api;

static inline void fx_api(struct fx_buf *b, uint16_t api, uint64_t entry, uint64_t dur,
			  uint32_t tid, uint64_t stream, uint64_t bytes, const char *name)
{
	struct npuprof_rec_api r = {
		.hdr = { NPUPROF_REC_API, sizeof(r), 1, FX_T0 + entry },
		.exit_ts = FX_T0 + entry + dur,
		.pid = FX_PID,
		.tid = tid,
		.api = api,
		.device = -1,
		.stream = stream,
		.bytes = bytes,
	};

	if (name)
		memcpy(r.name, name, strnlen(name, sizeof(r.name)));
	if (api == fx_cut_api) {
		r.flags = NPUPROF_API_CUT_END;
		r.exit_ts = 0;
	}
	fx_put(b, &r, sizeof(r));
}

static inline void fx_task(struct fx_buf *b, uint16_t event, uint64_t host_rel, uint64_t dev_ts,
			   uint32_t task_id, uint16_t type, uint64_t arg, const char *name)
{
	struct npuprof_rec_task r = {
		.hdr = { NPUPROF_REC_TASK, sizeof(r), 0, FX_T0 + host_rel },
		.dev_ts = dev_ts,
		.pid = FX_PID,
		.tid = FX_TID,
		.device = FX_DEV,
		.stream = FX_STREAM,
		.task_id = task_id,
		.event = event,
		.task_type = type,
		.arg = arg,
	};

	if (name)
		memcpy(r.name, name, strnlen(name, sizeof(r.name)));
	fx_put(b, &r, sizeof(r));
}

static inline void fx_lost(struct fx_buf *b, uint32_t source, uint32_t cpu, uint64_t written,
			   uint64_t lost)
{
	struct npuprof_rec_lost r = {
		.hdr = { NPUPROF_REC_LOST, sizeof(r), cpu, FX_T0 + 60 * FX_MS },
		.source = source,
		.cpu = cpu,
		.written = written,
		.lost = lost,
	};

	fx_put(b, &r, sizeof(r));
}

static inline int fx_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	if (len && fwrite(data, 1, len, f) != len) {
		fclose(f);
		return -EIO;
	}
	return fclose(f) ? -errno : 0;
}

/*
 * Write <dir>/<series>.slice_<idx>: records of @b, one zstd frame per
 * @per_frame records; @cut drops that many bytes from the end of the file
 * (a crash mid-write), @done writes the .done file.
 */
static inline int fx_write_slice(const char *dir, const char *series, unsigned int idx,
				 const struct fx_buf *b, size_t per_frame, size_t cut, int done)
{
	static unsigned char out[65536];
	char path[1024], text[64];
	size_t r, len = 0;
	int err;

	for (r = 0; r < b->nrec; r += per_frame) {
		size_t end_rec = r + per_frame < b->nrec ? r + per_frame : b->nrec;
		size_t from = b->offs[r], to = end_rec < b->nrec ? b->offs[end_rec] : b->len;
		size_t n = ZSTD_compress(out + len, sizeof(out) - len, b->data + from, to - from, 3);

		if (ZSTD_isError(n))
			return -EIO;
		len += n;
	}
	len -= cut;
	snprintf(path, sizeof(path), "%s/%s.slice_%u", dir, series, idx);
	err = fx_write_file(path, out, len);
	if (err || !done)
		return err;
	snprintf(text, sizeof(text), "filesize:%zu\n", len);
	snprintf(path, sizeof(path), "%s/%s.slice_%u.done", dir, series, idx);
	return fx_write_file(path, text, strlen(text));
}

static inline int fx_mkdirs(const char *prof)
{
	static const char *const sub[] = { "", "/host", "/host/data", "/device_0",
					   "/device_0/data" };
	char path[1024];
	size_t i;

	for (i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", prof, sub[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
	}
	return 0;
}

static inline int fx_control_files(const char *prof)
{
	static const struct {
		const char *name, *text;
	} files[] = {
		/* wall clock == monotonic clock here, so expected times stay
		 * small; test_export_wallclock moves it */
		{ "host/start_info", "{\"collectionDateBegin\": \"2026-01-01 12:00:00\", "
				     "\"collectionTimeBegin\": \"999990000\", "
				     "\"clockMonotonicRaw\": 999000000000, "
				     "\"clockMonotonic\": 999990000000}\n" },
		{ "host/end_info", "{\"collectionDateEnd\": \"2026-01-01 12:00:01\", "
				   "\"collectionTimeEnd\": \"1767268801000000\", "
				   "\"clockMonotonicRaw\": 1000051000000, "
				   "\"clockMonotonic\": 1000051000000}\n" },
		{ "host/info.json", "{\"pid\": 4242, \"pid_name\": \"ai_task\", \"hostname\": "
				    "\"fixture\", \"devices\": [0], \"record_version\": 1, "
				    "\"rings\": {\"bpf\": [{\"cpu\": 0, \"written\": 9, "
				    "\"lost\": 100}]}}\n" },
		{ "host/sample.json", "{}\n" },
	};
	char path[1024];
	size_t i;
	int err;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", prof, files[i].name);
		err = fx_write_file(path, files[i].text, strlen(files[i].text));
		if (err)
			return err;
	}
	return 0;
}

/*
 * Host data: 6 calls over two slices; with @stopped, as a stop leaves it:
 * LOST records at the end (lost 2 + 5 = 7) and slice_1 closed (.done);
 * without, as kill -9 leaves it: neither.
 */
static inline int fx_host_data_as(const char *prof, int stopped)
{
	struct fx_buf *b = calloc(1, sizeof(*b));
	char dir[1024];
	int err;

	if (!b)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	fx_stream_hdr(b, NPUPROF_SRC_BPF, 0, -1);
	fx_api(b, NPUPROF_API_RT_MALLOC, 100000, 3000, FX_TID2, 0, 1024, NULL);
	fx_api(b, NPUPROF_API_RT_MEMCPY_ASYNC, 1 * FX_MS, 4000, FX_TID, 0xabc, 4096, NULL);
	fx_api(b, NPUPROF_API_RT_LAUNCH_KERNEL, 2 * FX_MS, 2000, FX_TID, 0xabc, 0, "add_custom");
	err = fx_write_slice(dir, "npuprof.api", 0, b, 2, 0, 1);
	memset(b, 0, sizeof(*b));
	fx_stream_hdr(b, NPUPROF_SRC_BPF, 1, -1);
	fx_api(b, NPUPROF_API_RT_LAUNCH_KERNEL, 3 * FX_MS, 6000, FX_TID, 0xabc, 0,
	       "matmul_custom");
	fx_api(b, NPUPROF_API_RT_SYNC_STREAM, 5 * FX_MS, 43500000, FX_TID, 0xabc, 0, NULL);
	fx_api(b, NPUPROF_API_RT_LAUNCH_KERNEL, 49 * FX_MS, 1000, FX_TID, 0xabc, 0, "add_custom");
	if (stopped) {
		fx_lost(b, NPUPROF_SRC_BPF, 0, 10, 2);
		fx_lost(b, NPUPROF_SRC_KMOD, 1, 20, 3);
		fx_lost(b, NPUPROF_SRC_KMOD, 1, 25, 5); /* later reading of the same ring */
	}
	if (!err)
		err = fx_write_slice(dir, "npuprof.api", 1, b, 3, 0, stopped);
	free(b);
	return err;
}

static inline int fx_host_data(const char *prof)
{
	return fx_host_data_as(prof, 1);
}

/* Tracepoint latency of the START/END record at @t_ms (see the banner). */
static inline int64_t fx_jitter(uint64_t t_ms)
{
	switch (t_ms) {
	case 14: case 28:
		return FX_JITTER_NS;
	case 16: case 26:
		return -FX_JITTER_NS;
	default:
		return 0;
	}
}

static inline void fx_dev_event(struct fx_buf *b, uint16_t ev, uint64_t t_ms, uint32_t id,
				uint16_t type, uint64_t arg, const char *name, int jitter)
{
	uint64_t t = t_ms * FX_MS;

	fx_task(b, ev, t + (jitter ? fx_jitter(t_ms) : 0), fx_dev(t), id, type, arg, name);
}

/*
 * Device data: tasks 1-3 complete, task 4 START only.  The records of
 * task 3 and 4 go in the last frame; @cut_last_frame cuts that frame in
 * the middle (its records are then lost).
 */
static inline int fx_device_data(const char *prof, int jitter, int cut_last_frame)
{
	struct fx_buf *b = calloc(1, sizeof(*b));
	char dir[1024];
	int err;

	if (!b)
		return -ENOMEM;
	snprintf(dir, sizeof(dir), "%s/device_0/data", prof);
	fx_stream_hdr(b, NPUPROF_SRC_KMOD, 0, 0);
	fx_task(b, NPUPROF_TASK_SUBMIT, 1 * FX_MS + 2000, 0, 1, NPUPROF_TT_MEMCPY, 4096, NULL);
	fx_task(b, NPUPROF_TASK_SUBMIT, 2 * FX_MS + 1000, 0, 2, NPUPROF_TT_KERNEL, 0, "add_custom");
	fx_task(b, NPUPROF_TASK_SUBMIT, 3 * FX_MS + 1000, 0, 3, NPUPROF_TT_KERNEL, 0,
		"matmul_custom");
	fx_dev_event(b, NPUPROF_TASK_START, 10, 1, NPUPROF_TT_MEMCPY, 4096, NULL, jitter);
	fx_dev_event(b, NPUPROF_TASK_END, 14, 1, NPUPROF_TT_MEMCPY, 4096, NULL, jitter);
	fx_dev_event(b, NPUPROF_TASK_START, 16, 2, NPUPROF_TT_KERNEL, 0, "add_custom", jitter);
	fx_dev_event(b, NPUPROF_TASK_END, 26, 2, NPUPROF_TT_KERNEL, 0, "add_custom", jitter);
	/* last frame: 6 records */
	fx_dev_event(b, NPUPROF_TASK_START, 28, 3, NPUPROF_TT_KERNEL, 0, "matmul_custom", jitter);
	fx_dev_event(b, NPUPROF_TASK_END, 48, 3, NPUPROF_TT_KERNEL, 0, "matmul_custom", jitter);
	{
		struct npuprof_rec_task sync = {
			.hdr = { NPUPROF_REC_TASK, sizeof(sync), 0, FX_T0 + 48 * FX_MS + 400000 },
			.pid = FX_PID, .tid = FX_TID, .device = FX_DEV, .stream = FX_STREAM,
			.event = NPUPROF_TASK_STREAM_SYNC, .task_type = NPUPROF_TT_SYNC,
			.arg = 43400000,
		};

		fx_put(b, &sync, sizeof(sync));
	}
	fx_task(b, NPUPROF_TASK_SUBMIT, 49 * FX_MS + 500, 0, 4, NPUPROF_TT_KERNEL, 0, "add_custom");
	fx_dev_event(b, NPUPROF_TASK_START, 50, 4, NPUPROF_TT_KERNEL, 0, "add_custom", jitter);
	/* frames: hdr + 3 submits + 4 records = 8 records, then the last 6 */
	err = fx_write_slice(dir, "npuprof.task.0", 0, b, 8, cut_last_frame ? 40 : 0,
			     !cut_last_frame);
	free(b);
	return err;
}

/*
 * Build <root>/FX_PROF_NAME.  Return 0 or a negative errno; @prof gets the
 * path.
 */
static inline int fx_build(const char *root, char *prof, size_t size, int jitter, int cut)
{
	int err;

	snprintf(prof, size, "%s/" FX_PROF_NAME, root);
	err = fx_mkdirs(prof);
	if (!err)
		err = fx_control_files(prof);
	if (!err)
		err = fx_host_data(prof);
	if (!err)
		err = fx_device_data(prof, jitter, cut);
	return err;
}

/* A fresh temporary directory in *@root (PATH_MAX). Return 0 or -errno. */
static inline int fx_tmpdir(char *root, size_t size)
{
	snprintf(root, size, "/tmp/npuprof_export_XXXXXX");
	return mkdtemp(root) ? 0 : -errno;
}

static inline int fx_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path);
}

static inline void fx_rmtree(const char *root)
{
	nftw(root, fx_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Files <prof>/mindstudio_profiler_output/<prefix><14 digits><ext>: returns
 * how many exist; @path gets the last one.
 */
static inline int fx_find_output(const char *prof, const char *prefix, const char *ext,
				 char *path, size_t size)
{
	size_t lp = strlen(prefix), le = strlen(ext), i;
	char out[1024];
	struct dirent *de;
	DIR *d;
	int n = 0;

	if (snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", prof) >= (int)sizeof(out))
		return 0;
	d = opendir(out);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		const char *nm = de->d_name;

		if (strlen(nm) != lp + 14 + le || strncmp(nm, prefix, lp) ||
		    strcmp(nm + lp + 14, ext))
			continue;
		for (i = lp; i < lp + 14 && nm[i] >= '0' && nm[i] <= '9'; i++)
			;
		if (i < lp + 14)
			continue;
		if (snprintf(path, size, "%s/%s", out, nm) < (int)size)
			n++;
	}
	closedir(d);
	return n;
}

/*
 * Databases <prof>/msprof_<14 digits>.db: returns how many exist, @path
 * gets the last one; *@tmps: entries of <prof> ending in ".tmp".
 */
static inline int fx_find_db(const char *prof, char *path, size_t size, int *tmps)
{
	struct dirent *de;
	DIR *d = opendir(prof);
	int n = 0;

	*tmps = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name), i;

		*tmps += len > 4 && !strcmp(de->d_name + len - 4, ".tmp");
		if (len != 7 + 14 + 3 || strncmp(de->d_name, "msprof_", 7) ||
		    strcmp(de->d_name + 21, ".db"))
			continue;
		for (i = 7; i < 21 && de->d_name[i] >= '0' && de->d_name[i] <= '9'; i++)
			;
		if (i == 21 && snprintf(path, size, "%s/%s", prof, de->d_name) < (int)size)
			n++;
	}
	closedir(d);
	return n;
}

/* Number of entries in <prof>/mindstudio_profiler_output. */
static inline int fx_count_outputs(const char *prof)
{
	char out[1024];
	struct dirent *de;
	DIR *d;
	int n = 0;

	if (snprintf(out, sizeof(out), "%s/mindstudio_profiler_output", prof) >= (int)sizeof(out))
		return -1;
	d = opendir(out);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

/* Whole file into a malloc'ed NUL-terminated string, or NULL. */
static inline char *fx_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = '\0';
	fclose(f);
	return s;
}

/*
 * The text of the one output <prefix><stamp><ext> of @prof (malloc'ed), or
 * NULL when there is not exactly one.
 */
static inline char *fx_read_output(const char *prof, const char *prefix, const char *ext)
{
	char path[2048];

	if (fx_find_output(prof, prefix, ext, path, sizeof(path)) != 1)
		return NULL;
	return fx_slurp(path);
}

/*
 * Send @fd (1: stdout, 2: stderr) to the new file @path; returns the old
 * one for fx_fd_back().
 */
static inline int fx_fd_to(int fd, const char *path)
{
	int saved, to;

	fflush(fd == 1 ? stdout : stderr);
	saved = dup(fd);
	to = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(to, fd);
	close(to);
	return saved;
}

/* Put @fd back (@saved from fx_fd_to()). */
static inline void fx_fd_back(int fd, int saved)
{
	fflush(fd == 1 ? stdout : stderr);
	dup2(saved, fd);
	close(saved);
}

#define fx_stderr_to(path) fx_fd_to(2, path)
#define fx_stderr_back(saved) fx_fd_back(2, saved)

/*
 * The control files as kill -9 of msprof leaves them: host/start_info
 * only (end_info, info.json and sample.json never written).
 */
static inline int fx_killed_control_files(const char *prof)
{
	static const char *const gone[] = { "host/end_info", "host/info.json", "host/sample.json" };
	char path[1024];
	int err = fx_control_files(prof);

	for (size_t i = 0; !err && i < sizeof(gone) / sizeof(gone[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", prof, gone[i]);
		err = unlink(path) ? -errno : 0;
	}
	return err;
}

/* "args" of the "npuprof_capture" event in timeline @evs, or NULL. */
static inline json_t *fx_capture_args(json_t *evs)
{
	json_t *ev, *args = NULL;
	size_t i;

	json_array_foreach(evs, i, ev)
		if (!strcmp(json_string_value(json_object_get(ev, "name")) ?: "", "npuprof_capture"))
			args = json_object_get(ev, "args");
	return args;
}

#endif /* NPUPROF_TEST_EXPORT_FIXTURE_H */
