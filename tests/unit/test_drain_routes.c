// SPDX-License-Identifier: MIT
/*
 * Description: one drain for several processes routes each record by its
 * pid into that process's own PROF_XXX directory.  One CPU ring carries,
 * interleaved, records of pid 101 (API calls and device-0 tasks), pid 202
 * (API calls and device-1 tasks) and pid 303, which no route names: 101's
 * directory gets exactly its 250 API records and 250 tasks and none of
 * 202's, 202's exactly its 200 + 200, 303's 100 records are dropped and
 * counted as foreign, and each directory's host series ends with the LOST
 * record of the shared ring (written 1100, lost 7, as its counters say).
 * The per-route stats say the same numbers.
 *
 * Following a job (config.new_route, no configured route): the first
 * record of pid 101 and of 202 asks for a directory once each (two calls
 * in all, whatever the number of records), 303 is refused once and its
 * records count as foreign, and the route stats carry each pid.  303 is
 * a process of the followed job that got no directory, so its 40 records
 * are also lost, as write errors, in the totals and on its CPU (0), and
 * counted as unrouted; configured routes (the first case) lose nothing
 * for a pid nobody asked for.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "check.h"
#include "drain_writer.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>
#include <npuprof/slice.h>


static int fake_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	(void)obj;
	if (cpu)
		return -ENXIO;
	*written = 1100;
	*lost = 7;
	return 0;
}

static void put_api(struct memring_src *f, uint32_t pid, uint64_t ts)
{
	struct npuprof_rec_api r = { .hdr = { NPUPROF_REC_API, sizeof(r), 0, ts }, .pid = pid };

	CHECK_EQ(memring_write(&f->ring, &r.hdr), 0);
}

static void put_task(struct memring_src *f, uint32_t pid, uint32_t device, uint64_t ts)
{
	struct npuprof_rec_task r = { .hdr = { NPUPROF_REC_TASK, sizeof(r), 0, ts },
				      .pid = pid, .device = device };

	CHECK_EQ(memring_write(&f->ring, &r.hdr), 0);
}

struct tally {
	uint32_t want_pid;
	uint64_t api, task, lost_recs, wrong_pid, lost_written, lost_lost;
};

static int count_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct tally *t = ctx;

	if (rec->type == NPUPROF_REC_API) {
		t->api++;
		t->wrong_pid += ((const struct npuprof_rec_api *)rec)->pid != t->want_pid;
	} else if (rec->type == NPUPROF_REC_TASK) {
		t->task++;
		t->wrong_pid += ((const struct npuprof_rec_task *)rec)->pid != t->want_pid;
	} else if (rec->type == NPUPROF_REC_LOST) {
		t->lost_recs++;
		t->lost_written = ((const struct npuprof_rec_lost *)rec)->written;
		t->lost_lost = ((const struct npuprof_rec_lost *)rec)->lost;
	}
	return 0;
}

static void read_dir(const char *prof, uint32_t pid, int device, struct tally *t)
{
	struct npuprof_read_report rep;
	char dir[600], series[32];

	memset(t, 0, sizeof(*t));
	t->want_pid = pid;
	snprintf(dir, sizeof(dir), "%s/host/data", prof);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.api", count_rec, t, &rep), 0);
	snprintf(dir, sizeof(dir), "%s/device_%d/data", prof, device);
	snprintf(series, sizeof(series), "npuprof.task.%d", device);
	CHECK_EQ(npuprof_slice_read_series(dir, series, count_rec, t, &rep), 0);
	/* the other process's device has no folder here */
	snprintf(dir, sizeof(dir), "%s/device_%d", prof, 1 - device);
	CHECK(access(dir, F_OK) != 0);
}

struct asked {
	char root[600];
	uint32_t pids[8];
	int n;
};

/* new_route: a directory for 101 and 202, none for 303. */
static int make_route(void *ctx, uint32_t pid, char *dir, size_t size, int *dir_fd)
{
	struct asked *a = ctx;

	a->pids[a->n++] = pid;
	if (pid == 303)
		return -EPERM;
	snprintf(dir, size, "%s/PROF_%u", a->root, pid);
	if (mkdir(dir, 0750))
		return -errno;
	*dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* the drain dups it */
	return *dir_fd < 0 ? -errno : 0;
}

static void test_follow(void)
{
	static struct memring_src f;
	static struct asked a;
	char root[] = "/tmp/npuprof-follow-XXXXXX", host[720];
	struct npuprof_drain_source src = { .name = "fake", .source = NPUPROF_SRC_KMOD,
					    .nr_cpus = 1, .obj = &f, .consume = memring_src_consume,
					    .stats = fake_stats };
	struct npuprof_loss cpu_loss[1] = { 0 };
	struct npuprof_drain_config cfg = { .new_route = make_route, .route_ctx = &a,
					    .flush_ms = 20, .cpu_loss = cpu_loss, .nr_cpu_loss = 1 };
	struct npuprof_drain_stats st, rst[NPUPROF_DRAIN_MAX_ROUTES];
	struct npuprof_read_report rep;
	struct npuprof_drain *d;
	struct tally t;
	uint64_t one = 1, ts = 0;

	if (!mkdtemp(root))
		return;
	snprintf(a.root, sizeof(a.root), "%s", root);
	CHECK_EQ(memring_init(&f.ring, 1 << 20, 0), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	for (int i = 0; i < 40; i++) {
		put_api(&f, 101, ts++);
		put_task(&f, 202, 1, ts++);
		put_api(&f, 303, ts++);
		if (i % 8 == 7)
			(void)!write(f.efd, &one, sizeof(one));
	}
	memset(rst, 0, sizeof(rst));
	CHECK_EQ(npuprof_drain_stop(d, &st, rst), 0);
	CHECK_EQ(st.writer, test_drain_writer());
	CHECK_EQ(a.n, 3);
	CHECK_EQ(a.pids[0], 101);
	CHECK_EQ(a.pids[1], 202);
	CHECK_EQ(a.pids[2], 303);
	CHECK_EQ(st.records, 80);
	CHECK_EQ(st.foreign, 40);
	CHECK_EQ(st.unrouted, 40);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_WRITE_ERROR], 40);
	CHECK_EQ(cpu_loss[0].n[NPUPROF_LOSS_WRITE_ERROR], 40);
	CHECK_EQ(rst[0].loss.n[NPUPROF_LOSS_WRITE_ERROR], 0);
	CHECK_EQ(rst[0].pid, 101);
	CHECK_EQ(rst[0].api_records, 40);
	CHECK_EQ(rst[1].pid, 202);
	CHECK_EQ(rst[1].task_records, 40);
	CHECK_EQ(rst[2].pid, 303);
	CHECK_EQ(rst[2].records, 0);
	memset(&t, 0, sizeof(t));
	t.want_pid = 101;
	snprintf(host, sizeof(host), "%s/PROF_101/host/data", root);
	CHECK_EQ(npuprof_slice_read_series(host, "npuprof.api", count_rec, &t, &rep), 0);
	CHECK_EQ(t.api, 40);
	CHECK_EQ(t.wrong_pid, 0);
	CHECK_EQ(t.lost_recs, 1);
	if (!check_failures)
		tmpdir_remove(root);
	memring_free(&f.ring);
	close(f.efd);
}

int main(void)
{
	static struct memring_src f;
	char root[] = "/tmp/npuprof-routes-XXXXXX", a[600], b[600];
	struct npuprof_drain_route routes[2] = { { 101, a, -1 }, { 202, b, -1 } };
	struct npuprof_drain_source src = { .name = "fake", .source = NPUPROF_SRC_KMOD,
					    .nr_cpus = 1, .obj = &f, .consume = memring_src_consume,
					    .stats = fake_stats };
	struct npuprof_drain_config cfg = { .routes = routes, .nr_routes = 2, .flush_ms = 20 };
	struct npuprof_drain_stats st, rst[2];
	struct npuprof_drain *d;
	struct tally t;
	uint64_t one = 1, ts = 0;

	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	snprintf(a, sizeof(a), "%s/PROF_a", root);
	snprintf(b, sizeof(b), "%s/PROF_b", root);
	CHECK_EQ(mkdir(a, 0750), 0);
	CHECK_EQ(mkdir(b, 0750), 0);
	CHECK_EQ(memring_init(&f.ring, 1 << 20, 0), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	for (int i = 0; i < 100; i++) {
		put_api(&f, 101, ts++);
		put_task(&f, 101, 0, ts++);
		put_api(&f, 202, ts++);
		put_task(&f, 202, 1, ts++);
		put_api(&f, 101, ts++);
		put_task(&f, 101, 0, ts++);
		if (i % 2) {
			put_api(&f, 202, ts++);
			put_task(&f, 202, 1, ts++);
			put_api(&f, 303, ts++);
		} else {
			put_api(&f, 101, ts++);
			put_task(&f, 101, 0, ts++);
			put_api(&f, 202, ts++);
			put_task(&f, 202, 1, ts++);
		}
		if (i % 10 == 9)
			(void)!write(f.efd, &one, sizeof(one));
	}
	/* pid 303's tasks too */
	for (int i = 0; i < 100; i += 2)
		put_task(&f, 303, 0, ts++);
	CHECK_EQ(npuprof_drain_stop(d, &st, rst), 0);
	CHECK_EQ(st.writer, test_drain_writer());

	CHECK_EQ(st.records, 900);
	CHECK_EQ(st.dropped, 100);
	CHECK_EQ(st.foreign, 100);
	CHECK_EQ(st.unrouted, 0);
	CHECK_EQ(st.loss.n[NPUPROF_LOSS_WRITE_ERROR], 0);
	CHECK_EQ(st.lost, 7);
	CHECK_EQ(rst[0].api_records, 250);
	CHECK_EQ(rst[0].task_records, 250);
	CHECK_EQ(rst[0].records, 500);
	CHECK_EQ(rst[0].dropped, 0);
	CHECK_EQ(rst[0].lost, 7);
	CHECK_EQ(rst[1].api_records, 200);
	CHECK_EQ(rst[1].task_records, 200);
	CHECK_EQ(rst[1].records, 400);
	CHECK(rst[0].file_bytes > 0 && rst[1].file_bytes > 0);
	CHECK_EQ(rst[0].file_bytes + rst[1].file_bytes, st.file_bytes);

	read_dir(a, 101, 0, &t);
	CHECK_EQ(t.api, 250);
	CHECK_EQ(t.task, 250);
	CHECK_EQ(t.wrong_pid, 0);
	CHECK_EQ(t.lost_recs, 1);
	CHECK_EQ(t.lost_written, 1100);
	CHECK_EQ(t.lost_lost, 7);
	read_dir(b, 202, 1, &t);
	CHECK_EQ(t.api, 200);
	CHECK_EQ(t.task, 200);
	CHECK_EQ(t.wrong_pid, 0);
	CHECK_EQ(t.lost_recs, 1);

	if (!check_failures)
		tmpdir_remove(root);
	else
		fprintf(stderr, "output kept in %s\n", root);
	memring_free(&f.ring);
	close(f.efd);
	test_follow();
	return CHECK_DONE();
}
