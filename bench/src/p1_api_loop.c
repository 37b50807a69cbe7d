// SPDX-License-Identifier: MIT
/*
 * P1 (make bench): cost per call of one ACL function of libascendcl.so in a
 * tight loop, under one probe setup at a time.
 *
 *   p1_api_loop CASE FUNC CALLS
 *
 * FUNC is the function called:
 *   free    aclrtFree(NULL): the cheapest recorded function; it needs no
 *           device and returns ACL_ERROR_INVALID_PARAM at once, so the
 *           loop measures the probes, not the runtime.
 *   launch  aclrtLaunchKernel() on a handle no binary gave: the launch's
 *           entry and return probes with their argument reads (handle,
 *           stream), again with no device (the runtime looks the handle up
 *           under its lock and returns ACL_ERROR_INVALID_PARAM).
 *   submit  halSqTaskSend() of a libascend_hal.so, one 64-byte SQE per
 *           call (an AI Core task of stream 3, its task id advancing):
 *           the driver library's submit, where npuprof's submit uprobe
 *           goes on the real Ascend driver (bpf/acl_trace.bpf.c,
 *           acl_sq_send; entry only).  The library is the stand-in of
 *           tests/unit/hal_lib_fixture.c (its halSqTaskSend returns 0),
 *           build/tests/fixtures/hal/libascend_hal.so beside this
 *           program's build directory, or the file NPUPROF_BENCH_HAL names;
 *           dlopen()ed at start.  The floor is an empty uprobe alone, and
 *           npuprof's capture is its submit probe on that file
 *           (npuprof_acl_trace_attach_submits_file(): the process also
 *           maps the simulator's libascend_hal.so, which libascendcl.so
 *           needs, and a lookup by name in its maps would find that one),
 *           this process selected; no ACL probe.
 * CASE is what is attached while the loop runs:
 *   none     nothing attached (NONE_FACTOR times CALLS calls)
 *   external whatever an outside tool attached (bpftrace)
 *   floor    an empty uprobe + uretprobe on FUNC (bench/bpf/p1_floor.bpf.c)
 *   npuprof  npuprof's runtime-API capture (npuprof/acl_trace.h) attached
 *            to this process and capturing, a second thread draining the
 *            rings as msprof's drain does (poll the fd, consume)
 *   idle     npuprof attached to this process, capture never started
 *   stopped  npuprof attached, one capture started and stopped before
 * It prints one line: "ns_per_call=N" and, for the npuprof cases, the
 * start and stop latency in µs and the records seen.
 *
 *   p1_api_loop mix FUNC CALLS ROUNDS
 *
 * runs none, floor and npuprof (capturing) in one process, ROUNDS times,
 * the floor and npuprof in alternating chunks (mix_round()), so a shared
 * machine's load falls on both alike: the floor's probes are attached for
 * its chunks only, npuprof's are placed by each start and removed by each
 * stop.  start_us and stop_us are the means over a round's chunks.  One line per round:
 * "none=N floor=N npuprof=N start_us=N stop_us=N records=N expected=N", then
 * "bpf_ns_npuprof=N bpf_ns_floor=N inflight=task|hash": the programs' run
 * time (see prog_ns()) and where npuprof kept calls in flight
 * (NPUPROF_BPF_INFLIGHT=hash in the environment picks the hash map).
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <acl/acl.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <npuprof/acl_trace.h>
#include <npuprof/bpf_log.h>
#include <npuprof/drv/ascend_hal_abi.h>

#include "exe_path.h"
#include "p1_floor.skel.h"

#define WARMUP_CALLS 2000
#define RING_BYTES (1u << 20) /* msprof's per-CPU ring (task_path.c) */
/* Calls of "none" per call of a probed case: ~1 ns calls need many. */
#define NONE_FACTOR 100

static const char *func = "free";
static int submit; /* func is "submit" */
static ascend_hal_sq_task_send_fn hal_send;
static unsigned char sqe[ASCEND_SQE_BYTES];
static struct ascend_hal_task_send_info send_info;
static char hal_path[PATH_MAX]; /* the library dlopen()ed, its real path */

/*
 * dlopen() the libascend_hal.so of the submit loop (see the head of this
 * file) and build its one SQE.  Return: 0 or -1 (said on stderr).
 */
static int hal_load(void)
{
	const char *env = getenv("NPUPROF_BENCH_HAL");
	struct ascend_sqe_header *h = (struct ascend_sqe_header *)sqe;
	char path[PATH_MAX];
	void *dl;

	if (env)
		snprintf(path, sizeof(path), "%s", env);
	else if (exe_relative(path, sizeof(path), "../tests/fixtures/hal/libascend_hal.so"))
		return -1;
	dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!dl || !realpath(path, hal_path)) {
		fprintf(stderr, "p1_api_loop: %s: %s\n", path, dl ? strerror(errno) : dlerror());
		return -1;
	}
	hal_send = (ascend_hal_sq_task_send_fn)dlsym(dl, ASCEND_HAL_SQ_TASK_SEND);
	if (!hal_send) {
		fprintf(stderr, "p1_api_loop: %s defines no %s\n", path, ASCEND_HAL_SQ_TASK_SEND);
		return -1;
	}
	h->type_lock = ASCEND_SQE_TYPE_AIC;
	h->block_dim = 1;
	h->rt_stream_id = 3;
	send_info.sqe_addr = (uintptr_t)sqe;
	send_info.sqe_num = 1;
	return 0;
}

static double call_loop(long calls);

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * The least disturbed of 5 runs of @calls / 5 calls: a loop of ~1 ns calls
 * lasts a few ms, and one preemption on a loaded machine would double it.
 */
static double call_loop_min(long calls)
{
	double best = call_loop(calls / 5), v;
	int i;

	for (i = 1; i < 5; i++) {
		v = call_loop(calls / 5);
		best = v < best ? v : best;
	}
	return best;
}

/*
 * @calls calls, NONE_FACTOR times as many when a call costs no trap (so
 * the loop lasts long enough to time).  Return: ns per call.
 */
static double call_loop_auto(long calls)
{
	return call_loop(100) > 500.0 ? call_loop(calls) : call_loop_min(calls * NONE_FACTOR);
}

/* @calls calls of the selected function.  Return: ns per call. */
static double call_loop(long calls)
{
	aclrtFuncHandle bogus = (aclrtFuncHandle)(uintptr_t)0x1000;
	int launch = strcmp(func, "launch") == 0;
	uint64_t t0 = now_ns();
	long i;

	for (i = 0; i < calls; i++) {
		if (submit) {
			((struct ascend_sqe_header *)sqe)->task_id = (uint16_t)i;
			hal_send(0, &send_info);
		} else if (launch)
			aclrtLaunchKernel(bogus, 1, NULL, 0, NULL);
		else
			aclrtFree(NULL);
	}
	return (double)(now_ns() - t0) / (double)calls;
}

static const char *func_symbol(void)
{
	if (submit)
		return ASCEND_HAL_SQ_TASK_SEND;
	return strcmp(func, "launch") == 0 ? "aclrtLaunchKernel" : "aclrtFree";
}

/* The library FUNC is in. */
static const char *func_lib(void)
{
	return submit ? NPUPROF_HAL_LIB_NAME : NPUPROF_ACL_LIB_NAME;
}

/* Path of the library of FUNC this process runs, from /proc/self/maps. */
static int lib_path(char *path, size_t len)
{
	char line[4096], *p;
	FILE *f;

	if (submit) { /* the one dlopen()ed, not the simulator's */
		snprintf(path, len, "%s", hal_path);
		return 0;
	}
	f = fopen("/proc/self/maps", "re");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		if (p && strstr(p, func_lib())) {
			p[strcspn(p, "\n")] = '\0';
			snprintf(path, len, "%s", p);
			fclose(f);
			return 0;
		}
	}
	fclose(f);
	return -ENOENT;
}

static int run_floor(long calls)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = func_symbol());
	struct bpf_link *enter = NULL, *ret = NULL;
	struct p1_floor_bpf *skel;
	char path[4096];
	int err;

	err = lib_path(path, sizeof(path));
	if (err)
		return err;
	skel = p1_floor_bpf__open_and_load();
	if (!skel)
		return -errno;
	enter = bpf_program__attach_uprobe_opts(skel->progs.floor_enter, -1, path, 0, &opts);
	opts.retprobe = true;
	/* the submit probe has no return half: neither has its floor */
	if (!submit)
		ret = bpf_program__attach_uprobe_opts(skel->progs.floor_exit, -1, path, 0, &opts);
	err = enter && (ret || submit) ? 0 : -errno;
	if (!err) {
		call_loop(WARMUP_CALLS);
		printf("ns_per_call=%.2f\n", call_loop(calls));
	}
	bpf_link__destroy(ret);
	bpf_link__destroy(enter);
	p1_floor_bpf__destroy(skel);
	return err;
}

/* The drain thread: what msprof's drain does with the rings, minus the file. */
struct drain {
	struct npuprof_acl_trace *t;
	volatile int stop;
	long records;
};

static int count_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	(void)rec;
	((struct drain *)ctx)->records++;
	return 0;
}

static void *drain_main(void *arg)
{
	struct drain *d = arg;
	struct pollfd pfd = { .fd = npuprof_acl_trace_fd(d->t), .events = POLLIN };

	while (!d->stop) {
		poll(&pfd, 1, 10);
		npuprof_acl_trace_consume(d->t, count_rec, d);
	}
	return NULL;
}

static double us_since(uint64_t t0)
{
	return (double)(now_ns() - t0) / 1000.0;
}

/* Enable then disable, timed.  Return: 0 or -errno. */
static int start_stop(struct npuprof_acl_trace *t, double *start_us, double *stop_us)
{
	uint64_t t0 = now_ns();
	int err = npuprof_acl_trace_enable(t, 1);

	*start_us = us_since(t0);
	if (err)
		return err;
	t0 = now_ns();
	err = npuprof_acl_trace_enable(t, 0);
	*stop_us = us_since(t0);
	return err;
}

static int run_capture(struct npuprof_acl_trace *t, long calls)
{
	struct drain d = { .t = t };
	double ns, start_us, stop_us;
	uint64_t t0, w = 0, l = 0, cw, cl;
	unsigned int cpu;
	pthread_t th;
	int err;

	if (pthread_create(&th, NULL, drain_main, &d))
		return -EAGAIN;
	t0 = now_ns();
	err = npuprof_acl_trace_enable(t, 1);
	start_us = us_since(t0);
	if (!err) {
		call_loop(WARMUP_CALLS);
		ns = call_loop(calls);
		t0 = now_ns();
		err = npuprof_acl_trace_enable(t, 0);
		stop_us = us_since(t0);
	}
	d.stop = 1;
	pthread_join(th, NULL);
	if (err)
		return err;
	npuprof_acl_trace_consume(t, count_rec, &d);
	for (cpu = 0; cpu < npuprof_acl_trace_nr_cpus(t); cpu++)
		if (!npuprof_acl_trace_stats(t, cpu, &cw, &cl))
			w += cw, l += cl;
	printf("ns_per_call=%.2f start_us=%.0f stop_us=%.0f records=%ld expected=%ld lost=%llu\n",
	       ns, start_us, stop_us, d.records, calls + WARMUP_CALLS, (unsigned long long)l);
	return 0;
}

/* npuprof's capture for FUNC: the ACL programs, and the submit program for submit. */
static int capture_open(struct npuprof_acl_trace **t)
{
	struct npuprof_acl_trace_opts o = { .ring_bytes = RING_BYTES, .submits = 1 };

	return submit ? npuprof_acl_trace_open_opts(&o, t) : npuprof_acl_trace_open(RING_BYTES, t);
}

/* Attach npuprof to this process: its submit probe (selected), or the ACL probes. */
static int capture_attach(struct npuprof_acl_trace *t)
{
	int err;

	if (!submit)
		return npuprof_acl_trace_attach_pid(t, getpid());
	err = npuprof_acl_trace_attach_submits_file(t, hal_path);
	return err ? err : npuprof_acl_trace_select_pid(t, getpid());
}

static int run_npuprof(const char *mode, long calls)
{
	struct npuprof_acl_trace *t;
	double start_us = 0, stop_us = 0;
	uint64_t t0 = now_ns();
	int err = capture_open(&t);

	if (err)
		return err;
	fprintf(stderr, "open_us=%.0f\n", us_since(t0));
	t0 = now_ns();
	err = capture_attach(t);
	fprintf(stderr, "attach_us=%.0f\n", us_since(t0));
	if (!err && strcmp(mode, "npuprof") == 0)
		err = run_capture(t, calls);
	else if (!err) {
		if (strcmp(mode, "stopped") == 0)
			err = start_stop(t, &start_us, &stop_us);
		call_loop(WARMUP_CALLS);
		if (!err)
			printf("ns_per_call=%.2f start_us=%.0f stop_us=%.0f\n", call_loop_auto(calls),
			       start_us, stop_us);
	}
	t0 = now_ns();
	npuprof_acl_trace_close(t);
	fprintf(stderr, "close_us=%.0f\n", us_since(t0));
	return err;
}

/* The floor's two probes on FUNC, or NULLs.  Return: 0 or -errno. */
static int floor_attach(struct p1_floor_bpf *skel, struct bpf_link **links)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts, .func_name = func_symbol());
	char path[4096];
	int err = lib_path(path, sizeof(path));

	if (err)
		return err;
	/* every process, as npuprof and bpftrace place theirs */
	links[0] = bpf_program__attach_uprobe_opts(skel->progs.floor_enter, -1, path, 0, &opts);
	opts.retprobe = true;
	if (!submit)
		links[1] = bpf_program__attach_uprobe_opts(skel->progs.floor_exit, -1, path, 0, &opts);
	return links[0] && (links[1] || submit) ? 0 : -errno;
}

/* The floor's probes for one chunk of @calls calls.  Return: ns per call or -errno. */
static double floor_chunk(struct p1_floor_bpf *skel, long calls)
{
	struct bpf_link *links[2] = { NULL, NULL };
	int err = floor_attach(skel, links);
	double ns = err ? err : call_loop(calls);

	bpf_link__destroy(links[1]);
	bpf_link__destroy(links[0]);
	return ns;
}

/* npuprof capturing for one chunk of @calls calls, start/stop timed into @lat. */
static double npuprof_chunk(struct npuprof_acl_trace *t, long calls, double lat[2])
{
	uint64_t t0 = now_ns();
	int err = npuprof_acl_trace_enable(t, 1);
	double ns;

	lat[0] = us_since(t0);
	if (err)
		return err;
	ns = call_loop(calls);
	t0 = now_ns();
	err = npuprof_acl_trace_enable(t, 0);
	lat[1] = us_since(t0);
	return err ? err : ns;
}

/*
 * One round of mix: none, then MIX_CHUNKS chunks each of the floor and of
 * npuprof in the order F N N F F N ..., so a load that drifts during the
 * round falls on both alike.
 */
#define MIX_CHUNKS 8

static int mix_round(struct npuprof_acl_trace *t, struct p1_floor_bpf *skel, long calls)
{
	double none, sum[2] = { 0, 0 }, lat[2] = { 0, 0 }, lat_sum[2] = { 0, 0 }, v = 0;
	long chunk = calls / MIX_CHUNKS > 0 ? calls / MIX_CHUNKS : 1;
	struct drain d = { .t = t };
	pthread_t th;
	int i, k;

	none = call_loop_min(calls * NONE_FACTOR);
	if (pthread_create(&th, NULL, drain_main, &d))
		return -EAGAIN;
	for (i = 0; i < 2 * MIX_CHUNKS; i++) {
		k = (i % 4 == 0 || i % 4 == 3) ? 0 : 1; /* 0 floor, 1 npuprof */
		v = k ? npuprof_chunk(t, chunk, lat) : floor_chunk(skel, chunk);
		if (v < 0)
			break;
		sum[k] += v;
		if (k)
			lat_sum[0] += lat[0], lat_sum[1] += lat[1];
	}
	d.stop = 1;
	pthread_join(th, NULL);
	if (v < 0)
		return (int)v;
	npuprof_acl_trace_consume(t, count_rec, &d);
	printf("none=%.2f floor=%.2f npuprof=%.2f start_us=%.0f stop_us=%.0f records=%ld expected=%ld\n",
	       none, sum[0] / MIX_CHUNKS, sum[1] / MIX_CHUNKS, lat_sum[0] / MIX_CHUNKS,
	       lat_sum[1] / MIX_CHUNKS, d.records, chunk * MIX_CHUNKS);
	fflush(stdout);
	return 0;
}

/*
 * Kernel-measured run time of this process's BPF programs (bpf_stats):
 * ns per run of the entry plus the return program, npuprof's (@ours 1:
 * acl_*) or the floor's (floor_*).  Where the trap itself varies with the
 * load of a shared machine, this is the cost npuprof adds, without noise.
 */
static __u32 first_prog_id; /* programs loaded before ours: not ours */
static __u32 last_prog_id;  /* nor those loaded after (another run's) */

/* The highest program id now. */
static __u32 newest_prog_id(__u32 from)
{
	while (!bpf_prog_get_next_id(from, &from))
		;
	return from;
}

static double prog_ns(int ours)
{
	struct bpf_prog_info info;
	__u32 id = first_prog_id, len;
	double ns = 0;
	int fd;

	while (!bpf_prog_get_next_id(id, &id) && id <= last_prog_id) {
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) && info.run_cnt &&
		    (ours ? (submit ? !strcmp(info.name, "acl_sq_send")
				    : !strncmp(info.name, "acl_e", 5) && strncmp(info.name, "acl_exit_proc", 13))
			  : !strncmp(info.name, "floor_", 6)))
		{
			ns += (double)info.run_time_ns / (double)info.run_cnt;
			fprintf(stderr, "bpf %s: %.1f ns/run over %llu runs\n", info.name,
				(double)info.run_time_ns / (double)info.run_cnt,
				(unsigned long long)info.run_cnt);
		}
		close(fd);
	}
	return ns;
}

static int run_mix(long calls, long rounds)
{
	struct npuprof_acl_trace *t;
	struct p1_floor_bpf *skel;
	long r;
	int err;

	int stats = bpf_enable_stats(BPF_STATS_RUN_TIME); /* until closed */

	first_prog_id = newest_prog_id(0);
	skel = p1_floor_bpf__open_and_load();
	if (!skel)
		return -errno;
	err = capture_open(&t);
	if (!err) {
		last_prog_id = newest_prog_id(first_prog_id);
		err = capture_attach(t);
		call_loop(WARMUP_CALLS);
		for (r = 0; !err && r < rounds; r++)
			err = mix_round(t, skel, calls);
		if (!err && stats >= 0)
			printf("bpf_ns_npuprof=%.1f bpf_ns_floor=%.1f inflight=%s\n", prog_ns(1),
			       prog_ns(0), npuprof_acl_trace_task_storage(t) ? "task" : "hash");
		npuprof_acl_trace_close(t);
	}
	p1_floor_bpf__destroy(skel);
	if (stats >= 0)
		close(stats);
	return err;
}

int main(int argc, char **argv)
{
	const char *mode;
	long calls;
	int err;

	libbpf_set_print(npuprof_bpf_print_fn()); /* the program's, not the library's */
	if (argc >= 3 && strcmp(argv[2], "submit") == 0) {
		submit = 1;
		if (hal_load())
			return 1;
	}
	if (argc == 5 && strcmp(argv[1], "mix") == 0) {
		func = argv[2];
		err = run_mix(strtol(argv[3], NULL, 10), strtol(argv[4], NULL, 10));
		if (err)
			fprintf(stderr, "p1_api_loop: mix %s: %s\n", func, strerror(-err));
		return err ? 1 : 0;
	}
	if (argc != 4) {
		fprintf(stderr, "usage: p1_api_loop none|external|floor|npuprof|idle|stopped free|launch|submit CALLS\n"
				"       p1_api_loop mix free|launch|submit CALLS ROUNDS\n");
		return 2;
	}
	mode = argv[1];
	func = argv[2];
	calls = strtol(argv[3], NULL, 10);
	if (calls <= 0 || (strcmp(func, "free") && strcmp(func, "launch") && !submit)) {
		fprintf(stderr, "p1_api_loop: bad FUNC '%s' or CALLS '%s'\n", func, argv[3]);
		return 2;
	}
	if (strcmp(mode, "none") == 0 || strcmp(mode, "external") == 0) {
		call_loop(WARMUP_CALLS);
		printf("ns_per_call=%.2f\n", strcmp(mode, "none") ? call_loop(calls)
								  : call_loop_min(calls * NONE_FACTOR));
		return 0;
	}
	if (strcmp(mode, "floor") == 0)
		err = run_floor(calls);
	else
		err = run_npuprof(mode, calls);
	if (err) {
		fprintf(stderr, "p1_api_loop: %s %s: %s\n", mode, func, strerror(-err));
		return 1;
	}
	return 0;
}
