// SPDX-License-Identifier: MIT
/*
 * Description: a capture session on the realistic driver (ascendsim.ko,
 * sq_mode mixed: streams 0/1/2 are kio/uio_t/uio_d; tests/vm/ascend_run.h)
 * recognises backend "ascend", switches the driver's trace_enable files on
 * for the window ("1\n" while it runs) and restores them at stop ("0\n"),
 * and its PROF_XXX/device_0 holds exactly the run's queue and completion
 * records and, from the device log, every task's begin and end (the tasks
 * go to the driver directly, so no submit), every one with our pid: the kio QUEUED records carry it from
 * the tracepoint, the uio_t ones (fired by a kernel worker, pid 0) and the
 * completions get it through the stream owners (/proc/trs_core/.../stream)
 * in the drain; uio_d gives none; nothing unattributed, nothing lost.
 * Once through npuprof.ko (NPUPROF_TASK_CAPTURE=kmod) and once through BPF.
 * Then a collector killed in its window: the switches are left at 1 and
 * its state file (a dead pid, the values it saved: 0) is there; the next
 * session restores 0 at its stop, not the 1 it found, and removes the file.
 */
#include <npuprof/npu_backend.h>
#include <npuprof/session.h>
#include <npuprof/slice.h>
#include <sys/wait.h>
#include "ascend_run.h"

struct tally {
	const struct ar_run *r;
	struct ar_seen seen;
	unsigned int wrong_pid;
	unsigned int begin_end; /* the device log's START/END, via the HAL */
};

/* Records with our pid; the kio ones also carry our tid. */
static int on_rec(void *ctx, const struct npuprof_rec_hdr *h)
{
	struct tally *t = ctx;
	struct npuprof_rec_task rec;

	if (h->type != NPUPROF_REC_TASK || h->size != sizeof(rec))
		return 0;
	memcpy(&rec, h, sizeof(rec));
	if (rec.pid != (uint32_t)getpid()) {
		t->wrong_pid++;
		return 0;
	}
	/* the device log (libascend_hal.so's channel 50): every task's begin and end */
	if (rec.event == NPUPROF_TASK_START || rec.event == NPUPROF_TASK_END) {
		t->begin_end++;
		return 0;
	}
	/* ar_note() expects the driver's view: pid 0 where it gave none */
	if (rec.stream != 0) {
		rec.pid = 0;
		rec.tid = 0;
	}
	if (rec.event == NPUPROF_TASK_CQE) {
		rec.pid = 0;
		rec.tid = 0;
	}
	ar_note(t->r, &t->seen, &rec, (uint32_t)getpid(), (uint32_t)gettid());
	return 0;
}

static void one_session(int mode, const char *out, struct ar_run *r)
{
	struct npuprof_session_opts o = { .output = out, .output_fd = -1, .task_time = 1,
					  .task_capture = mode };
	const struct npuprof_task_capture_info *tc;
	struct npuprof_session_result res;
	struct npuprof_session *s;
	struct tally t = { .r = r };
	char buf[16], dir[PATH_MAX + 32];
	const char *prof;
	int err;

	err = npuprof_session_create(&o, &s);
	if (err == -EPERM && mode == NPUPROF_TASK_CAPTURE_BPF)
		CHECK_SKIP("kernel refuses BPF programs here");
	CHECK_EQ(err, 0);
	if (err)
		exit(CHECK_DONE());
	CHECK(npuprof_session_host(s)->backend != NULL);
	CHECK_STR(npuprof_session_host(s)->backend->name, "ascend");
	tc = npuprof_session_task_capture(s);
	CHECK_EQ(tc->path, mode == NPUPROF_TASK_CAPTURE_KMOD ? NPUPROF_TASK_PATH_KMOD
							      : NPUPROF_TASK_PATH_BPF);
	CHECK_EQ(tc->tp_status[NPUPROF_TP_TASK_QUEUED], 0);
	CHECK_EQ(tc->tp_status[NPUPROF_TP_TASK_CQE], 0);
	CHECK_EQ(npuprof_session_add_pid(s, getpid()), 0);
	CHECK_EQ(npuprof_session_start(s), 0);
	ar_read(AR_CHAN_ENABLE, buf, sizeof(buf));
	CHECK_STR(buf, "1\n");
	ar_read(AR_CORE_ENABLE, buf, sizeof(buf));
	CHECK_STR(buf, "1\n");
	prof = npuprof_session_prof_dir(s, getpid());
	CHECK(prof != NULL);
	snprintf(dir, sizeof(dir), "%s/device_0/data", prof ? prof : "");
	ar_submit(r);
	CHECK_EQ(npuprof_session_stop(s, &res, 1), 0);
	ar_read(AR_CHAN_ENABLE, buf, sizeof(buf));
	CHECK_STR(buf, "0\n");
	ar_read(AR_CORE_ENABLE, buf, sizeof(buf));
	CHECK_STR(buf, "0\n");
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.task.0", on_rec, &t, NULL), 0);
	CHECK_EQ(t.wrong_pid, 0);
	ar_check_seen(&t.seen);
	CHECK_EQ(t.begin_end, 2 * AR_STREAMS * AR_TASKS);
	CHECK_EQ(res.task_records, 2 * AR_TASKS + AR_STREAMS * AR_EVENTS + t.begin_end);
	npuprof_session_close(s);
}

/* What an msprof killed (SIGKILL) in its window leaves behind. */
static void killed_collector(void)
{
	pid_t dead = fork();
	FILE *f;

	if (!dead)
		_exit(0);
	CHECK_EQ(waitpid(dead, NULL, 0), dead);
	ar_switch('1');
	f = fopen("/tmp/npuprof-trace-enable", "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "pid %d\n/proc/%s 0\n/proc/%s 0\n", (int)dead,
		"trs_chan/dev0-ts0/trace_enable", "trs_core/ts_inst/dev0-ts0/trace_enable");
	fclose(f);
}

int main(void)
{
	static struct ar_run r;
	char out[] = "/tmp/npuprof-ascend-XXXXXX";

	kt_require();
	kt_unload_all();
	ar_load();
	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	CHECK(mkdtemp(out) != NULL);
	setenv("NPUPROF_TRACE_SWITCH_STATE", "/tmp/npuprof-trace-enable", 1);
	ar_open(&r);
	one_session(NPUPROF_TASK_CAPTURE_KMOD, out, &r);
	one_session(NPUPROF_TASK_CAPTURE_BPF, out, &r);
	CHECK(access("/tmp/npuprof-trace-enable", F_OK) != 0);
	killed_collector();
	one_session(NPUPROF_TASK_CAPTURE_KMOD, out, &r);
	CHECK(access("/tmp/npuprof-trace-enable", F_OK) != 0);
	ar_close(&r);
	CHECK_EQ(kt_unload("ascendsim"), 0);
	CHECK_EQ(kt_unload("npuprof"), 0);
	return CHECK_DONE();
}
