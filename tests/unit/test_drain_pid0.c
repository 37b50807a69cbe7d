// SPDX-License-Identifier: MIT
/*
 * Description: a device task record that names no process (pid 0: the
 * device log's record of a stream whose owner is unknown, a kernel
 * worker's queue event) is kept, not dropped as foreign: with routes
 * for pids 101 and 202, where 101's directory could not be given (the
 * followed job's refused route has none), 30 pid-0 task records of
 * device 0 go into the first route that has a directory, 202's, with its
 * own 20 tasks; none is foreign or lost.  Before any route has a
 * directory there is nowhere to keep them: a session that routes no
 * process at all counts them foreign, as before.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "check.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>
#include <npuprof/slice.h>

static void put_task(struct memring_src *f, uint32_t pid, uint64_t ts)
{
	struct npuprof_rec_task r = { .hdr = { NPUPROF_REC_TASK, sizeof(r), 0, ts }, .pid = pid };

	CHECK_EQ(memring_write(&f->ring, &r.hdr), 0);
}

struct tally {
	uint64_t pid0, own;
};

static int count(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct tally *t = ctx;

	if (rec->type == NPUPROF_REC_TASK) {
		t->pid0 += !((const struct npuprof_rec_task *)rec)->pid;
		t->own += ((const struct npuprof_rec_task *)rec)->pid == 202;
	}
	return 0;
}

/* new_route: 101 gets no directory, 202 gets <root>/PROF_202. */
static int make_route(void *ctx, uint32_t pid, char *dir, size_t size, int *dir_fd)
{
	const char *root = ctx;

	if (pid != 202)
		return -EPERM;
	snprintf(dir, size, "%s/PROF_%u", root, pid);
	if (mkdir(dir, 0750))
		return -errno;
	*dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return *dir_fd < 0 ? -errno : 0;
}

static void run(const char *root, int with_routes)
{
	static struct memring_src f;
	struct npuprof_drain_source src = { .name = "fake", .source = NPUPROF_SRC_DEVLOG,
					    .nr_cpus = 1, .obj = &f, .consume = memring_src_consume };
	struct npuprof_drain_config cfg = { .flush_ms = 20, .new_route = make_route,
					    .route_ctx = (void *)root };
	struct npuprof_drain_stats st, rst[NPUPROF_DRAIN_MAX_ROUTES];
	struct npuprof_read_report rep;
	struct npuprof_drain *d;
	struct tally t = { 0 };
	char dir[700];
	uint64_t ts = 1;

	CHECK_EQ(memring_init(&f.ring, 1 << 20, 0), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	if (with_routes) {
		put_task(&f, 101, ts++); /* refused: no directory */
		put_task(&f, 202, ts++);
	}
	for (int i = 0; i < 30; i++)
		put_task(&f, 0, ts++);
	for (int i = 0; with_routes && i < 19; i++)
		put_task(&f, 202, ts++);
	memset(rst, 0, sizeof(rst));
	CHECK_EQ(npuprof_drain_stop(d, &st, rst), 0);
	if (with_routes) {
		CHECK_EQ(st.task_records, 50);
		CHECK_EQ(st.foreign, 1); /* 101's one */
		CHECK_EQ(rst[1].pid, 202);
		CHECK_EQ(rst[1].task_records, 50);
		snprintf(dir, sizeof(dir), "%s/PROF_202/device_0/data", root);
		CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.task.0", count, &t, &rep), 0);
		CHECK_EQ(t.pid0, 30);
		CHECK_EQ(t.own, 20);
	} else {
		CHECK_EQ(st.task_records, 0);
		CHECK_EQ(st.foreign, 30);
	}
	memring_free(&f.ring);
	close(f.efd);
}

int main(void)
{
	char root[] = "/tmp/npuprof-pid0-XXXXXX";

	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	run(root, 1);
	run(root, 0);
	if (!check_failures)
		tmpdir_remove(root);
	return CHECK_DONE();
}
