// SPDX-License-Identifier: MIT
/*
 * Description: the halSqTaskSend() uprobe writes one TASK SUBMIT record per
 * SQE, with the SQE header's fields, and counts what it cannot record.
 *
 * The test process loads a stand-in libascend_hal.so
 * (tests/unit/hal_lib_fixture.c, build/tests/fixtures/hal/) whose
 * halSqTaskSend() does nothing, attaches the submit probe to itself and
 * sends SQEs it wrote: one kernel, three SQEs in one call (AI vector,
 * copy, event record; task id 65535 then 0: ids wrap), a place holder (no
 * task type of npuprof's: 0x100 + its SQE type), one call of 20 SQEs (16
 * recorded, 4 skipped), one with an unreadable SQE address (2 skipped),
 * one with an unreadable info (1 skipped), one from a second thread, and
 * one after the stop (nothing).  Exact records: count, pid, tid, device,
 * stream, task id, type, block dim, time; exact lost and skipped counts.
 * Also: before the library is mapped the attach says -ENOENT, naming it;
 * a capture opened without submits refuses the attach with -EINVAL; a
 * capture that probed the file before the process mapped it records the
 * first send after (npuprof_acl_trace_attach_submits_file()).
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "bpf_test.h"
/* after bpf_test.h: its <linux/types.h> first (see the header's types) */
#include <npuprof/drv/ascend_hal_abi.h>

#define MANY 20 /* SQEs of the long call: ACL_SQ_SEND_MAX_SQES (16) recorded */

struct task_log {
	struct npuprof_rec_task *recs;
	size_t nr, cap;
	unsigned int bad;
};

static int task_log_add(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct task_log *log = ctx;

	return bpf_test_log_add((void **)&log->recs, &log->nr, &log->cap, &log->bad, rec,
				NPUPROF_REC_TASK, sizeof(*log->recs));
}

static ascend_hal_sq_task_send_fn sq_send;

/* One 64-byte SQE whose header says @type, @blk, @stream, @task. */
static void sqe_set(unsigned char *sqe, unsigned int type, uint16_t blk, uint16_t stream,
		    uint16_t task)
{
	struct ascend_sqe_header h = { .type_lock = (uint8_t)type, .block_dim = blk,
				       .rt_stream_id = stream, .task_id = task };

	memset(sqe, 0xa5, ASCEND_SQE_BYTES); /* the body is not read */
	memcpy(sqe, &h, sizeof(h));
}

/* halSqTaskSend(@dev) of the @n SQEs at @sqes. */
static void send(uint32_t dev, void *sqes, uint32_t n)
{
	struct ascend_hal_task_send_info info = { .sq_id = 3, .sqe_addr = (uintptr_t)sqes,
						  .sqe_num = n };

	CHECK_EQ(sq_send(dev, &info), 0);
}

static pid_t thread_tid;

static void *other_thread(void *arg)
{
	unsigned char sqe[ASCEND_SQE_BYTES];

	(void)arg;
	thread_tid = (pid_t)syscall(SYS_gettid);
	sqe_set(sqe, ASCEND_SQE_TYPE_AIC, 4, 9, 900);
	send(2, sqe, 1);
	return NULL;
}

static struct npuprof_acl_trace *open_submits(int submits)
{
	struct npuprof_acl_trace_opts o = { .ring_bytes = 1 << 20, .submits = submits };
	struct npuprof_acl_trace *t;
	int err;

	if (geteuid() != 0)
		CHECK_SKIP("needs root (BPF uprobes)");
	err = npuprof_acl_trace_open_opts(&o, &t);
	if (err == -EPERM || err == -EOPNOTSUPP || err == -ENOSYS)
		CHECK_SKIP("kernel refuses BPF programs here");
	CHECK_EQ(err, 0);
	if (err)
		exit(1);
	return t;
}

/* @path: the fixture, next to this program's build directory. */
static void fixture_path(char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	CHECK(n > 0);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(path, size, "%s/../fixtures/hal/libascend_hal.so", dirname(exe));
	if (access(path, R_OK))
		CHECK_SKIP("build/tests/fixtures/hal/libascend_hal.so not built (make tests)");
}

/* Load the fixture at @path. */
static void load_fixture(const char *path)
{
	void *lib;

	lib = dlopen(path, RTLD_NOW);
	if (!lib)
		CHECK_SKIP("build/tests/fixtures/hal/libascend_hal.so not built (make tests)");
	sq_send = (ascend_hal_sq_task_send_fn)dlsym(lib, ASCEND_HAL_SQ_TASK_SEND);
	CHECK(sq_send != NULL);
}

/* Record @r is the submit of (@dev, @stream, @task, @type, @blk) by @tid. */
static void check_rec(const struct npuprof_rec_task *r, uint32_t dev, uint32_t stream,
		      uint32_t task, unsigned int type, uint64_t blk, pid_t tid)
{
	CHECK_EQ(r->event, NPUPROF_TASK_SUBMIT);
	CHECK_EQ(r->pid, (uint32_t)getpid());
	CHECK_EQ(r->tid, (uint32_t)tid);
	CHECK_EQ(r->device, dev);
	CHECK_EQ(r->stream, stream);
	CHECK_EQ(r->task_id, task);
	CHECK_EQ(r->task_type, type);
	CHECK_EQ(r->arg, blk);
	CHECK_EQ(r->dev_ts, 0);
	CHECK_EQ(r->name[0], '\0');
}

/*
 * Probed by file before the process maps the library (a job about to
 * start), then mapped: its first send is recorded.  Leaves the fixture
 * loaded.
 */
static void check_file_attach(const char *path)
{
	struct npuprof_acl_trace *f = open_submits(1);
	unsigned char sqe[ASCEND_SQE_BYTES];
	struct task_log log = { 0 };

	CHECK_EQ(npuprof_acl_trace_attach_submits_file(f, "/nonexistent/libascend_hal.so"),
		 -ENOENT);
	CHECK_EQ(npuprof_acl_trace_error(f)->stage, NPUPROF_STAGE_LIBRARY);
	CHECK_EQ(npuprof_acl_trace_attach_submits_file(f, path), 0);
	CHECK_EQ(npuprof_acl_trace_select_pid(f, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_enable(f, 1), 0);
	load_fixture(path);
	sqe_set(sqe, ASCEND_SQE_TYPE_AIC, 3, 4, 7);
	send(5, sqe, 1);
	CHECK_EQ(npuprof_acl_trace_enable(f, 0), 0);
	CHECK_EQ(bpf_test_consume_all(f, task_log_add, &log), 1);
	if (log.nr == 1)
		check_rec(&log.recs[0], 5, 4, 7, NPUPROF_TT_KERNEL, 3,
			  (pid_t)syscall(SYS_gettid));
	npuprof_acl_trace_close(f);
	free(log.recs);
}

static int cmp_rec(const void *pa, const void *pb)
{
	const struct npuprof_rec_task *a = pa, *b = pb;

	if (a->hdr.ts != b->hdr.ts)
		return a->hdr.ts < b->hdr.ts ? -1 : 1;
	return a->task_id < b->task_id ? -1 : a->task_id > b->task_id;
}

int main(void)
{
	unsigned char one[ASCEND_SQE_BYTES], three[3 * ASCEND_SQE_BYTES],
		many[MANY * ASCEND_SQE_BYTES];
	struct npuprof_acl_trace *t, *plain;
	struct task_log log = { 0 };
	char path[PATH_MAX + 64];
	uint64_t written, lost, before, after;
	pid_t me = (pid_t)syscall(SYS_gettid);
	pthread_t th;
	void *hole;
	size_t i;

	plain = open_submits(0);
	CHECK_EQ(npuprof_acl_trace_attach_submits(plain, getpid()), -EINVAL);
	npuprof_acl_trace_close(plain);

	fixture_path(path, sizeof(path));
	t = open_submits(1);
	CHECK_EQ(npuprof_acl_trace_attach_submits(t, getpid()), -ENOENT);
	CHECK_EQ(npuprof_acl_trace_error(t)->stage, NPUPROF_STAGE_LIBRARY);
	CHECK_STR(npuprof_acl_trace_error(t)->object, NPUPROF_HAL_LIB_NAME);
	check_file_attach(path); /* maps the library */
	CHECK_EQ(npuprof_acl_trace_attach_submits(t, getpid()), 0);
	CHECK_EQ(npuprof_acl_trace_attach_submits(t, getpid()), 0); /* the same file: reused */
	CHECK_EQ(npuprof_acl_trace_select_pid(t, getpid()), 0);

	/* an unreadable page for the bad SQE address */
	hole = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(hole != MAP_FAILED);
	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	before = test_now_ns();
	sqe_set(one, ASCEND_SQE_TYPE_AIC, 8, 5, 100);
	send(1, one, 1);
	sqe_set(three, ASCEND_SQE_TYPE_AIV, 2, 7, 65535);
	sqe_set(three + ASCEND_SQE_BYTES, ASCEND_SQE_TYPE_SDMA, 0, 7, 0);
	sqe_set(three + 2 * ASCEND_SQE_BYTES, ASCEND_SQE_TYPE_EVENT_RECORD | 0x40, 1, 7, 1);
	send(0, three, 3);
	sqe_set(one, ASCEND_SQE_TYPE_PLACE_HOLDER, 0, 6, 50);
	send(3, one, 1);
	for (i = 0; i < MANY; i++)
		sqe_set(many + i * ASCEND_SQE_BYTES, ASCEND_SQE_TYPE_AIC, 1, 11, (uint16_t)(200 + i));
	send(0, many, MANY);
	send(0, hole, 2);
	CHECK_EQ(sq_send(0, hole), 0); /* the info itself unreadable: 1 skipped */
	CHECK_EQ(pthread_create(&th, NULL, other_thread, NULL), 0);
	CHECK_EQ(pthread_join(th, NULL), 0);
	after = test_now_ns();
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	sqe_set(one, ASCEND_SQE_TYPE_AIC, 8, 5, 101);
	send(1, one, 1); /* capture off: no record */

	bpf_test_totals(t, &written, &lost);
	CHECK_EQ(written, 1 + 3 + 1 + 16 + 1);
	CHECK_EQ(lost, (MANY - 16) + 2 + 1);
	CHECK_EQ(npuprof_acl_trace_sqe_skipped(t), (MANY - 16) + 2 + 1);
	CHECK_EQ(bpf_test_consume_all(t, task_log_add, &log), 22);
	CHECK_EQ(log.bad, 0);
	CHECK_EQ(log.nr, 22);
	if (log.nr != 22)
		return CHECK_DONE();
	qsort(log.recs, log.nr, sizeof(*log.recs), cmp_rec);
	for (i = 0; i < log.nr; i++) {
		CHECK(log.recs[i].hdr.ts >= before && log.recs[i].hdr.ts <= after);
		CHECK_EQ(log.recs[i].hdr.size, sizeof(struct npuprof_rec_task));
	}
	check_rec(&log.recs[0], 1, 5, 100, NPUPROF_TT_KERNEL, 8, me);
	/* one call, one time: ordered by task id there (0, 1, 65535) */
	CHECK_EQ(log.recs[1].hdr.ts, log.recs[3].hdr.ts);
	check_rec(&log.recs[1], 0, 7, 0, NPUPROF_TT_MEMCPY, 0, me);
	check_rec(&log.recs[2], 0, 7, 1, NPUPROF_TT_EVENT_RECORD, 1, me);
	check_rec(&log.recs[3], 0, 7, 65535, NPUPROF_TT_KERNEL, 2, me);
	check_rec(&log.recs[4], 3, 6, 50, 0x100 + ASCEND_SQE_TYPE_PLACE_HOLDER, 0, me);
	for (i = 0; i < 16; i++)
		check_rec(&log.recs[5 + i], 0, 11, 200 + i, NPUPROF_TT_KERNEL, 1, me);
	check_rec(&log.recs[21], 2, 9, 900, NPUPROF_TT_KERNEL, 4, thread_tid);

	npuprof_acl_trace_close(t);
	free(log.recs);
	return CHECK_DONE();
}
