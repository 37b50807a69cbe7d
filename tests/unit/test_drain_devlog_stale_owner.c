// SPDX-License-Identifier: MIT
/*
 * Description: a device-log record's pid is the reader's guess from the
 * driver's stream view, which it re-reads only on a miss; when a stream
 * id has passed to another process since, the guess names the old owner.
 * The drain's owner table, which submits (first-hand pids) keep current,
 * wins over that guess, and the guess does not overwrite the table.
 * Stream 1 was pid 101's, now 202's (a submit taught the table: seeded
 * here); 20 device-log records of stream 1 still say 101.  All 20 must
 * land in PROF_202 with pid 202, none in PROF_101, and the table must
 * still say 202 afterwards.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>
#include <npuprof/slice.h>
#include <npuprof/stream_owner.h>

struct tally {
	uint32_t want_pid;
	uint64_t task, wrong_pid;
};

static int count_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct tally *t = ctx;

	if (rec->type == NPUPROF_REC_TASK) {
		t->task++;
		t->wrong_pid += ((const struct npuprof_rec_task *)rec)->pid != t->want_pid;
	}
	return 0;
}

/* Task records of @prof's device 0 with pid @pid; -1 when it has none. */
static long dir_tasks(const char *prof, uint32_t pid)
{
	struct npuprof_read_report rep;
	struct tally t = { .want_pid = pid };
	char dir[700];

	snprintf(dir, sizeof(dir), "%s/device_0/data", prof);
	if (npuprof_slice_read_series(dir, "npuprof.task.0", count_rec, &t, &rep))
		return -1;
	CHECK_EQ(t.wrong_pid, 0);
	return (long)t.task;
}

int main(void)
{
	static struct memring_src f;
	char root[] = "/tmp/npuprof-stale-XXXXXX", p101[700], p202[700];
	struct npuprof_drain_route routes[2];
	struct npuprof_drain_source src = { .name = "devlog", .source = NPUPROF_SRC_DEVLOG,
					    .nr_cpus = 1, .obj = &f, .by_device = 1,
					    .consume = memring_src_consume };
	struct npuprof_drain_config cfg = { .routes = routes, .nr_routes = 2, .flush_ms = 20 };
	struct npuprof_drain_stats st, rst[2];
	struct npuprof_stream_owners *owners;
	struct npuprof_drain *d;

	if (!mkdtemp(root))
		return 1;
	snprintf(p101, sizeof(p101), "%s/PROF_101", root);
	snprintf(p202, sizeof(p202), "%s/PROF_202", root);
	CHECK_EQ(mkdir(p101, 0750), 0);
	CHECK_EQ(mkdir(p202, 0750), 0);
	routes[0] = (struct npuprof_drain_route){ 101, p101, -1 };
	routes[1] = (struct npuprof_drain_route){ 202, p202, -1 };
	owners = npuprof_stream_owners_new(root);
	CHECK(owners != NULL);
	CHECK_EQ(npuprof_stream_owners_set(owners, 0, 1, 202), 0);
	cfg.owners = owners;
	CHECK_EQ(memring_init(&f.ring, 1 << 20, 0), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	for (int i = 0; i < 20; i++) {
		struct npuprof_rec_task r = { .hdr = { NPUPROF_REC_TASK, sizeof(r), 0, (uint64_t)i },
					      .pid = 101, .stream = 1,
					      .event = i & 1 ? NPUPROF_TASK_END : NPUPROF_TASK_START };

		CHECK_EQ(memring_write(&f.ring, &r.hdr), 0);
	}
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	memset(rst, 0, sizeof(rst));
	CHECK_EQ(npuprof_drain_stop(d, &st, rst), 0);
	CHECK_EQ(st.records, 20);
	CHECK_EQ(rst[0].task_records, 0);
	CHECK_EQ(rst[1].task_records, 20);
	CHECK_EQ(dir_tasks(p202, 202), 20);
	CHECK(dir_tasks(p101, 101) <= 0);
	CHECK_EQ(npuprof_stream_owners_pid(owners, 0, 1), 202);
	npuprof_stream_owners_free(owners);
	memring_free(&f.ring);
	close(f.efd);
	if (!check_failures)
		tmpdir_remove(root);
	return CHECK_DONE();
}
