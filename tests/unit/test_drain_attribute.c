// SPDX-License-Identifier: MIT
/*
 * Description: the drain gives task records without a pid (the real
 * Ascend driver's trs_chan:sqe fired by a kernel worker, its completions)
 * the pid of their stream's owner before routing (config.owners).  A
 * fake /proc/trs_core/ts_inst/dev0-ts0/stream names stream 1 of pid 101
 * and stream 2 of pid 202; the table starts empty, so the first miss reads
 * it.  Stream 7's owner is learnt from a record that carries pid 202.
 * Stream 8's 5 pid-less records come before the one record that says
 * its owner is 202 (as a kernel worker's event may be read before the
 * submit record of another ring): they are held back and routed at stop.
 * Records of stream 9, which nobody owns, are counted in unattributed and
 * kept as device-only tasks (pid 0) in the first routed directory, 101's
 * (not foreign, not dropped: issue 25 keeps device tasks nobody
 * submitted).  Each directory gets exactly its records: 101 gets 30 with
 * its pid (stream 1) and stream 9's 10 with pid 0, 202 gets 30 + 10 + 10
 * + 5 + 1 with its pid (stream 2, the record with a pid, stream 7 after
 * it, stream 8's held-back ones and the record that named their owner).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "stars_log.h"
#include "memring.h"
#include "tmpdir.h"
#include <npuprof/drain.h>
#include <npuprof/slice.h>
#include <npuprof/stream_owner.h>

static void put_task(struct memring_src *f, uint32_t pid, uint32_t stream, uint64_t ts)
{
	struct npuprof_rec_task r = { .hdr = { NPUPROF_REC_TASK, sizeof(r), 0, ts },
				      .pid = pid, .stream = stream,
				      .event = NPUPROF_TASK_QUEUED };

	CHECK_EQ(memring_write(&f->ring, &r.hdr), 0);
}

struct tally {
	uint32_t want_pid;
	uint64_t task, wrong_pid, no_pid;
};

static int count_rec(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct tally *t = ctx;

	if (rec->type == NPUPROF_REC_TASK) {
		t->task++;
		uint32_t pid = ((const struct npuprof_rec_task *)rec)->pid;

		t->no_pid += !pid;
		t->wrong_pid += pid && pid != t->want_pid;
	}
	return 0;
}

static void check_dir(const char *prof, uint32_t pid, uint64_t want, uint64_t want_no_pid)
{
	struct npuprof_read_report rep;
	struct tally t = { .want_pid = pid };
	char dir[700];

	snprintf(dir, sizeof(dir), "%s/device_0/data", prof);
	CHECK_EQ(npuprof_slice_read_series(dir, "npuprof.task.0", count_rec, &t, &rep), 0);
	CHECK_EQ(t.task, want);
	CHECK_EQ(t.wrong_pid, 0);
	CHECK_EQ(t.no_pid, want_no_pid);
}

int main(void)
{
	static struct memring_src f;
	char root[] = "/tmp/npuprof-attr-XXXXXX", p101[700], p202[700];
	struct npuprof_drain_route routes[2];
	struct npuprof_drain_source src = { .name = "fake", .source = NPUPROF_SRC_KMOD,
					    .nr_cpus = 1, .obj = &f, .consume = memring_src_consume };
	struct npuprof_drain_config cfg = { .routes = routes, .nr_routes = 2, .flush_ms = 20 };
	struct npuprof_drain_stats st, rst[2];
	struct npuprof_stream_owners *owners;
	struct npuprof_drain *d;
	uint64_t ts = 0;
	int i;

	if (!mkdtemp(root))
		return 1;
	/* the two streams of dev0 */
	CHECK_EQ(stars_stream_file(root, 0, "id 1 pid 101 sqid 1 cqid 1\nid 2 pid 202 sqid 2 cqid 2\n"), 0);
	snprintf(p101, sizeof(p101), "%s/PROF_101", root);
	snprintf(p202, sizeof(p202), "%s/PROF_202", root);
	CHECK_EQ(mkdir(p101, 0750), 0);
	CHECK_EQ(mkdir(p202, 0750), 0);
	routes[0] = (struct npuprof_drain_route){ 101, p101, -1 };
	routes[1] = (struct npuprof_drain_route){ 202, p202, -1 };
	owners = npuprof_stream_owners_new(root);
	CHECK(owners != NULL);
	cfg.owners = owners;
	CHECK_EQ(memring_init(&f.ring, 1 << 20, 0), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	src.fd = f.efd;
	for (i = 0; i < 30; i++) {
		put_task(&f, 0, 1, ts++);
		put_task(&f, 0, 2, ts++);
	}
	for (i = 0; i < 10; i++)
		put_task(&f, 202, 7, ts++);
	for (i = 0; i < 10; i++) {
		put_task(&f, 0, 7, ts++);
		put_task(&f, 0, 9, ts++);
	}
	for (i = 0; i < 5; i++)
		put_task(&f, 0, 8, ts++);
	put_task(&f, 202, 8, ts++);
	CHECK_EQ(npuprof_drain_start(&cfg, &src, 1, &d), 0);
	memset(rst, 0, sizeof(rst));
	CHECK_EQ(npuprof_drain_stop(d, &st, rst), 0);
	CHECK_EQ(st.records, 96);
	CHECK_EQ(st.attributed, 75);
	CHECK_EQ(st.unattributed, 10);
	CHECK_EQ(st.dropped, 0);
	CHECK_EQ(st.foreign, 0);
	CHECK_EQ(rst[0].task_records, 40);
	CHECK_EQ(rst[1].task_records, 56);
	check_dir(p101, 101, 40, 10);
	check_dir(p202, 202, 56, 0);
	npuprof_stream_owners_free(owners);
	memring_free(&f.ring);
	close(f.efd);
	if (!check_failures)
		tmpdir_remove(root);
	return CHECK_DONE();
}
