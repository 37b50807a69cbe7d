// SPDX-License-Identifier: MIT
/*
 * Description: the drain reports what it saw, so its caller keeps no
 * tally of its own.  Two sources: "kmod" with rings on CPUs 0 and 2 (CPU
 * 1 has none), "bpf" with rings on CPUs 0 and 1.  Pid 101 gets 30 API
 * records, 20 tasks of device 0, 10 of device 5 and 4 of device 70;
 * pid 202 gets 6 tasks of device 1.  config.rings then lists exactly four
 * rings, source by source and CPU by CPU, each with the counters its
 * stats() gave and the records read out of it (70 on kmod CPU 0, 0
 * elsewhere); route 101's stats name devices 0 and 5 (device 70 is past
 * NPUPROF_DRAIN_MAX_DEVICES: only in task_records, yet its directory is
 * made) with 20 and 10 records, route 202's device 1 with 6, and the
 * totals devices 0, 1 and 5.  With room for two rings only, two are
 * listed.
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

/* kmod: CPUs 0 and 2 have rings; bpf: CPUs 0 and 1. */
static int kmod_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	(void)obj;
	if (cpu == 1)
		return -ENXIO;
	*written = cpu == 0 ? 70 : 0;
	*lost = cpu == 0 ? 3 : 9;
	return 0;
}

static int bpf_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	(void)obj;
	*written = 100 + cpu;
	*lost = 200 + cpu;
	return 0;
}

static long empty_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	(void)obj;
	(void)fn;
	(void)ctx;
	return 0;
}

static void put(struct memring_src *f, uint16_t type, uint32_t pid, uint32_t device)
{
	struct npuprof_rec_task t = { .hdr = { type, sizeof(t), 0, 1 }, .pid = pid,
				      .device = device };
	struct npuprof_rec_api a = { .hdr = { type, sizeof(a), 0, 1 }, .pid = pid };

	CHECK_EQ(memring_write(&f->ring, type == NPUPROF_REC_TASK ? &t.hdr : &a.hdr), 0);
}

static void check_ring(const struct npuprof_drain_ring *r, const char *name, int source,
		       unsigned int cpu, uint64_t written, uint64_t lost, uint64_t read)
{
	CHECK_STR(r->name, name);
	CHECK_EQ(r->source, source);
	CHECK_EQ(r->cpu, cpu);
	CHECK_EQ(r->written, written);
	CHECK_EQ(r->lost, lost);
	CHECK_EQ(r->read, read);
}

/* One capture; @room: entries of config.rings.  Return: stats.nr_rings. */
static unsigned int run(const char *root, unsigned int room, struct npuprof_drain_ring *rings,
			struct npuprof_drain_stats *st, struct npuprof_drain_stats *rst)
{
	static struct memring_src f;
	char a[600], b[600];
	struct npuprof_drain_route routes[2] = { { 101, a, -1 }, { 202, b, -1 } };
	struct npuprof_drain_source srcs[2] = {
		{ .name = "kmod", .source = NPUPROF_SRC_KMOD, .nr_cpus = 3, .obj = &f,
		  .consume = memring_src_consume, .stats = kmod_stats },
		{ .name = "bpf", .source = NPUPROF_SRC_BPF, .fd = -1, .nr_cpus = 2,
		  .consume = empty_consume, .stats = bpf_stats },
	};
	struct npuprof_drain_config cfg = { .routes = routes, .nr_routes = 2, .flush_ms = 20,
					    .rings = rings, .nr_rings = room };
	struct npuprof_drain *d;

	snprintf(a, sizeof(a), "%s/PROF_a%u", root, room);
	snprintf(b, sizeof(b), "%s/PROF_b%u", root, room);
	CHECK_EQ(mkdir(a, 0750), 0);
	CHECK_EQ(mkdir(b, 0750), 0);
	CHECK_EQ(memring_init(&f.ring, 1 << 20, 0), 0);
	f.efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	srcs[0].fd = f.efd;
	CHECK_EQ(npuprof_drain_start(&cfg, srcs, 2, &d), 0);
	for (int i = 0; i < 30; i++)
		put(&f, NPUPROF_REC_API, 101, 0);
	for (int i = 0; i < 20; i++)
		put(&f, NPUPROF_REC_TASK, 101, 0);
	for (int i = 0; i < 10; i++)
		put(&f, NPUPROF_REC_TASK, 101, 5);
	for (int i = 0; i < 4; i++)
		put(&f, NPUPROF_REC_TASK, 101, 70);
	for (int i = 0; i < 6; i++)
		put(&f, NPUPROF_REC_TASK, 202, 1);
	memset(rst, 0, 2 * sizeof(*rst));
	CHECK_EQ(npuprof_drain_stop(d, st, rst), 0);
	CHECK_EQ(st->writer, test_drain_writer());
	snprintf(a, sizeof(a), "%s/PROF_a%u/device_70/data", root, room);
	CHECK_EQ(access(a, F_OK), 0);
	memring_free(&f.ring);
	close(f.efd);
	return st->nr_rings;
}

int main(void)
{
	char root[] = "/tmp/npuprof-report-XXXXXX";
	struct npuprof_drain_ring rings[8];
	struct npuprof_drain_stats st, rst[2];

	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	memset(rings, 0, sizeof(rings));
	CHECK_EQ(run(root, 8, rings, &st, rst), 4);
	check_ring(&rings[0], "kmod", NPUPROF_SRC_KMOD, 0, 70, 3, 70);
	check_ring(&rings[1], "kmod", NPUPROF_SRC_KMOD, 2, 0, 9, 0);
	check_ring(&rings[2], "bpf", NPUPROF_SRC_BPF, 0, 100, 200, 0);
	check_ring(&rings[3], "bpf", NPUPROF_SRC_BPF, 1, 101, 201, 0);
	CHECK(rings[4].name == NULL);

	CHECK_EQ(rst[0].devices, (1ULL << 0) | (1ULL << 5));
	CHECK_EQ(rst[0].device_records[0], 20);
	CHECK_EQ(rst[0].device_records[5], 10);
	CHECK_EQ(rst[0].task_records, 34);
	CHECK_EQ(rst[0].api_records, 30);
	CHECK_EQ(rst[1].devices, 1ULL << 1);
	CHECK_EQ(rst[1].device_records[1], 6);
	CHECK_EQ(rst[1].device_records[0], 0);
	CHECK_EQ(st.devices, (1ULL << 0) | (1ULL << 1) | (1ULL << 5));
	CHECK_EQ(st.device_records[0], 20);
	CHECK_EQ(st.device_records[1], 6);
	CHECK_EQ(st.device_records[5], 10);

	memset(rings, 0, sizeof(rings));
	CHECK_EQ(run(root, 2, rings, &st, rst), 2);
	check_ring(&rings[1], "kmod", NPUPROF_SRC_KMOD, 2, 0, 9, 0);
	CHECK(rings[2].name == NULL);

	if (!check_failures)
		tmpdir_remove(root);
	else
		fprintf(stderr, "output kept in %s\n", root);
	return CHECK_DONE();
}
