/* SPDX-License-Identifier: MIT */
/*
 * The run shared by the tests of ascendsim.ko, the simulator with the real
 * Ascend driver's interfaces (kmod_ascendsim_capture through npuprof.ko,
 * bpf_task_ascend through BPF): load it with sq_mode=mixed, so streams 0,
 * 1 and 2 of /dev/davinci0 are kio, uio_t and uio_d SQs; check its procfs
 * files (off at load, mode 0444, the 2-byte write rule, the stream and
 * hw_sq views); submit AR_KERNELS kernels and AR_EVENTS event records on
 * each stream, sync, and wait for the uio_t worker; then check the task
 * records: exactly one QUEUED per task of the kio and uio_t streams (kio's
 * with our pid and tid, uio_t's with pid 0, from the kernel worker), none
 * for uio_d, one CQE per event record of every stream with a device
 * counter, SQE types as the driver gives them, nothing else.
 */
#ifndef NPUPROF_TEST_ASCEND_RUN_H
#define NPUPROF_TEST_ASCEND_RUN_H

#include <sys/stat.h>
#include <npusim_ioctl.h>
#include <npuprof/drv/trs_tp.h>
#include "kmod_common.h"

/* SQE types the driver reports (ASCEND_SQE_TYPE_*, drv/ascend_hal_abi.h). */
#define AR_SQE_AIC 0
#define AR_SQE_EVENT_RECORD 4

#define AR_STREAMS 3 /* kio, uio_t, uio_d under sq_mode=mixed */
#define AR_KERNELS 12
#define AR_EVENTS 4
#define AR_TASKS (AR_KERNELS + AR_EVENTS)
#define AR_CHAN_ENABLE "/proc/trs_chan/dev0-ts0/trace_enable"
#define AR_CORE_ENABLE "/proc/trs_core/ts_inst/dev0-ts0/trace_enable"
#define AR_STREAM_FILE "/proc/trs_core/ts_inst/dev0-ts0/stream"
#define AR_HW_SQ_FILE "/proc/trs_core/ts_inst/dev0-ts0/hw_sq"

static inline const char *ar_ko(void)
{
	return kt_first_existing("ASCENDSIM_KO", "build/kmod/ascendsim.ko",
				 "sim/driver/ascendsim.ko");
}

/* Load ascendsim.ko alone among the simulated drivers; skip when not built. */
static inline void ar_load(void)
{
	if (access(ar_ko(), R_OK) != 0)
		CHECK_SKIP("ascendsim.ko not built");
	kt_unload("npusim");
	kt_unload("npustub");
	kt_unload("ascendsim");
	CHECK_EQ(kt_load(ar_ko(), "sq_mode=mixed"), 0);
}

/* Write @len bytes of @s to @path: 0 or -errno. */
static inline int ar_write(const char *path, const char *s, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	n = n < 0 ? -errno : n;
	close(fd);
	return n < 0 ? (int)n : 0;
}

/* The whole of a small file, NUL-terminated, in @buf. */
static inline void ar_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	buf[n > 0 ? n : 0] = '\0';
	if (fd >= 0)
		close(fd);
}

/* The switches: 0444, off at load, exactly "1\n" or "0\n". */
static inline void ar_check_switches(void)
{
	const char *files[] = { AR_CHAN_ENABLE, AR_CORE_ENABLE };
	char buf[16];
	struct stat st;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		CHECK_EQ(stat(files[i], &st), 0);
		CHECK_EQ(st.st_mode & 0777, 0444);
		ar_read(files[i], buf, sizeof(buf));
		CHECK_STR(buf, "0\n");
		CHECK_EQ(ar_write(files[i], "1", 1), -EINVAL);
		CHECK_EQ(ar_write(files[i], "1\n\n", 3), -EINVAL);
		CHECK_EQ(ar_write(files[i], "2\n", 2), -EINVAL);
		CHECK_EQ(ar_write(files[i], "11", 2), -EINVAL);
		ar_read(files[i], buf, sizeof(buf));
		CHECK_STR(buf, "0\n");
		CHECK_EQ(ar_write(files[i], "1\n", 2), 0);
		ar_read(files[i], buf, sizeof(buf));
		CHECK_STR(buf, "1\n");
		CHECK_EQ(ar_write(files[i], "0\n", 2), 0);
	}
}

/* Both switches to @on ('0' or '1'). */
static inline void ar_switch(char on)
{
	char s[2] = { on, '\n' };

	CHECK_EQ(ar_write(AR_CHAN_ENABLE, s, 2), 0);
	CHECK_EQ(ar_write(AR_CORE_ENABLE, s, 2), 0);
}

/* Task ids handed out on stream i, kernels first; types by index. */
struct ar_run {
	int dev;
	uint32_t stream[AR_STREAMS];
	uint32_t id[AR_STREAMS][AR_TASKS];
};

/* Open /dev/davinci0 and make the three streams; check the two views. */
static inline void ar_open(struct ar_run *r)
{
	struct npusim_stream_req sreq;
	char buf[1024], want[1024];
	const char *mode[AR_STREAMS] = { "kio", "uio_t", "uio_d" };
	size_t n = 0;
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->dev = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	CHECK(r->dev >= 0);
	for (i = 0; i < AR_STREAMS; i++) {
		memset(&sreq, 0, sizeof(sreq));
		CHECK_EQ(ioctl(r->dev, NPUSIM_IOC_STREAM_CREATE, &sreq), 0);
		r->stream[i] = sreq.stream;
		CHECK_EQ(sreq.stream, i); /* the mode follows the id */
	}
	ar_read(AR_STREAM_FILE, buf, sizeof(buf));
	for (i = 0; i < AR_STREAMS; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "id %u pid %d sqid %u cqid %u\n",
				      i, (int)getpid(), i, i);
	CHECK_STR(buf, want);
	ar_read(AR_HW_SQ_FILE, buf, sizeof(buf));
	for (i = 0, n = 0; i < AR_STREAMS; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n,
				      "sqid %u mode %s stream_id %u head 0 tail 0 lost 0 cp_proc exist\n",
				      i, mode[i], i);
	CHECK_STR(buf, want);
}

/* Submit the tasks of every stream, sync, and let the uio_t worker finish. */
static inline void ar_submit(struct ar_run *r)
{
	struct npusim_task_req req;
	unsigned int s, i;

	for (s = 0; s < AR_STREAMS; s++) {
		for (i = 0; i < AR_TASKS; i++) {
			memset(&req, 0, sizeof(req));
			req.stream = r->stream[s];
			if (i < AR_KERNELS) {
				req.type = NPUSIM_TASK_KERNEL;
				req.duration_ns = 5000;
				strcpy(req.name, "trs_k");
			} else {
				req.type = NPUSIM_TASK_EVENT_RECORD;
			}
			CHECK_EQ(ioctl(r->dev, NPUSIM_IOC_SUBMIT, &req), 0);
			r->id[s][i] = req.task_id;
		}
		CHECK_EQ(ioctl(r->dev, NPUSIM_IOC_STREAM_SYNC, &r->stream[s]), 0);
	}
	usleep(300 * 1000); /* the uio_t worker forwards within 1-4 ms; qemu is slow */
}

static inline void ar_close(struct ar_run *r)
{
	close(r->dev);
}

/* What the records held, per stream and task. */
struct ar_seen {
	unsigned int queued[AR_STREAMS][AR_TASKS];
	unsigned int cqe[AR_STREAMS][AR_TASKS];
	unsigned int bad;
	unsigned int total;
};

static inline int ar_index(const struct ar_run *r, uint32_t stream, uint32_t id)
{
	unsigned int i;

	for (i = 0; stream < AR_STREAMS && i < AR_TASKS; i++)
		if (r->id[stream][i] == id)
			return (int)i;
	return -1;
}

/*
 * One task record: QUEUED with the SQE type in arg and no device time;
 * kio's from us (@tgid, @tid), uio_t's with pid 0; CQE of an event record
 * with a device counter and pid 0 (a kernel worker).
 */
static inline void ar_note(const struct ar_run *r, struct ar_seen *s,
			   const struct npuprof_rec_task *t, uint32_t tgid, uint32_t tid)
{
	int i = ar_index(r, t->stream, t->task_id);
	bool kernel = i >= 0 && i < AR_KERNELS;
	uint64_t sqe = kernel ? AR_SQE_AIC : AR_SQE_EVENT_RECORD;

	s->total++;
	if (i < 0 || t->hdr.type != NPUPROF_REC_TASK || t->device != 0 || t->name[0] ||
	    t->task_type != 0 || t->arg != sqe) {
		s->bad++;
		return;
	}
	if (t->event == NPUPROF_TASK_QUEUED && t->dev_ts == 0 &&
	    (t->stream == 0 ? t->pid == tgid && t->tid == tid : t->pid == 0 && t->tid == 0))
		s->queued[t->stream][i]++;
	else if (t->event == NPUPROF_TASK_CQE && !kernel && t->dev_ts != 0 && t->pid == 0)
		s->cqe[t->stream][i]++;
	else
		s->bad++;
}

/* With the switches on: exactly the records the header says. */
static inline void ar_check_seen(const struct ar_seen *s)
{
	unsigned int st, i;

	CHECK_EQ(s->bad, 0);
	for (st = 0; st < AR_STREAMS; st++) {
		for (i = 0; i < AR_TASKS; i++) {
			CHECK_EQ(s->queued[st][i], st == 2 ? 0u : 1u);
			CHECK_EQ(s->cqe[st][i], i < AR_KERNELS ? 0u : 1u);
		}
	}
	CHECK_EQ(s->total, 2 * AR_TASKS + AR_STREAMS * AR_EVENTS);
}

/* After the run: hw_sq counts every submit, and forwards those of kio and uio_t. */
static inline void ar_check_hw_sq(void)
{
	char buf[1024], want[1024];
	const char *mode[AR_STREAMS] = { "kio", "uio_t", "uio_d" };
	unsigned int runs = 2; /* ar_submit() ran twice: switches off, then on */
	size_t n = 0;
	unsigned int i;

	for (i = 0; i < AR_STREAMS; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n,
				      "sqid %u mode %s stream_id %u head %u tail %u lost 0 cp_proc exist\n",
				      i, mode[i], i, i == 2 ? 0 : runs * AR_TASKS, runs * AR_TASKS);
	ar_read(AR_HW_SQ_FILE, buf, sizeof(buf));
	CHECK_STR(buf, want);
}

#endif /* NPUPROF_TEST_ASCEND_RUN_H */
