// SPDX-License-Identifier: MIT
/*
 * Description: the control files' writer and reader (user/prof_control.c)
 * agree, and the writer's bytes are the capture's.  Written from fixed
 * facts, host/start_info, host/end_info, host/info.json, a device's
 * info.json.<id> and sample.json (as JSON, and as text when the
 * parameters are not JSON) equal byte for byte the files session.c wrote
 * before the writer moved to prof_control.c (the golden texts below, from
 * the same facts); read back, start_info, end_info and info.json give the
 * exact values written; a file cut short reads -EBADMSG, a missing one
 * -ENOENT, a symlink at its name -ELOOP; a collectionTime that is not a
 * decimal count of us >= 0 and out-of-range ranks and pids read as unknown.
 * Read from a PROF dir, each host control file is taken from host/ first,
 * else from the top, where CANN keeps it: exactly the values of the one
 * found, -ENOENT when neither place has it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <npuprof/prof_control.h>
#include <npuprof/prof_layout.h>
#include <npuprof/record.h>

#include "check.h"
#include "tmpdir.h"

static const char want_start_info[] =
	"{\n"
	"  \"clockMonotonic\": 1100,\n"
	"  \"clockMonotonicEnabled\": 1000,\n"
	"  \"clockMonotonicRaw\": 900,\n"
	"  \"collectionDateBegin\": \"2023-11-14 22:13:20\",\n"
	"  \"collectionTimeBegin\": \"1700000000123456\"\n"
	"}";

static const char want_end_info[] =
	"{\n"
	"  \"clockMonotonic\": 4900,\n"
	"  \"clockMonotonicDisabled\": 5000,\n"
	"  \"clockMonotonicRaw\": 4000,\n"
	"  \"collectionDateEnd\": \"2023-11-14 22:13:25\",\n"
	"  \"collectionTimeEnd\": \"1700000005000000\"\n"
	"}";

static const char want_info[] =
	"{\n"
	"  \"apiLevels\": [\n"
	"    \"AscendCL\",\n"
	"    \"Runtime\"\n"
	"  ],\n"
	"  \"apiNotCaptured\": \"perf_event_open() is refused (blocked by a seccomp filter)\",\n"
	"  \"clockSamples\": [\n"
	"    {\n"
	"      \"device\": 2,\n"
	"      \"samples\": [\n"
	"        {\n"
	"          \"deviceCount\": 5,\n"
	"          \"hostMonotonicNs\": 100\n"
	"        },\n"
	"        {\n"
	"          \"deviceCount\": 9,\n"
	"          \"hostMonotonicNs\": 200\n"
	"        }\n"
	"      ]\n"
	"    },\n"
	"    {\n"
	"      \"device\": 5,\n"
	"      \"samples\": [\n"
	"        {\n"
	"          \"deviceCount\": 7,\n"
	"          \"hostMonotonicNs\": 300\n"
	"        }\n"
	"      ]\n"
	"    }\n"
	"  ],\n"
	"  \"devices\": [\n"
	"    2,\n"
	"    7\n"
	"  ],\n"
	"  \"drain\": {\n"
	"    \"api_records\": 25,\n"
	"    \"dropped\": 2,\n"
	"    \"file_bytes\": 1000,\n"
	"    \"foreignRecords\": 11,\n"
	"    \"raw_bytes\": 4000,\n"
	"    \"records\": 40,\n"
	"    \"sharedWith\": [\n"
	"      77,\n"
	"      4321\n"
	"    ],\n"
	"    \"skippedBytes\": 8,\n"
	"    \"staleBpfRecords\": 17,\n"
	"    \"staleKmodBytes\": 99,\n"
	"    \"task_records\": 15,\n"
	"    \"unroutedRecords\": 12,\n"
	"    \"write_error\": -28\n"
	"  },\n"
	"  \"driver\": {\n"
	"    \"backend\": \"npusim\",\n"
	"    \"clock\": \"records\",\n"
	"    \"module\": \"npusim\",\n"
	"    \"taskCapture\": {\n"
	"      \"path\": \"bpf\",\n"
	"      \"reason\": \"npuprof.ko not loaded (no /dev/npuprof)\"\n"
	"    }\n"
	"  },\n"
	"  \"followMissed\": 5,\n"
	"  \"hostname\": \"vm\",\n"
	"  \"lost\": {\n"
	"    \"byCpu\": [\n"
	"      {\n"
	"        \"cpu\": 1,\n"
	"        \"decode_error\": 0,\n"
	"        \"ring_full\": 3,\n"
	"        \"total\": 3,\n"
	"        \"write_error\": 0\n"
	"      }\n"
	"    ],\n"
	"    \"decode_error\": 0,\n"
	"    \"ring_full\": 3,\n"
	"    \"total\": 7,\n"
	"    \"write_error\": 4\n"
	"  },\n"
	"  \"nsPid\": [\n"
	"    1077,\n"
	"    1077,\n"
	"    77\n"
	"  ],\n"
	"  \"pid\": 77,\n"
	"  \"pidStartTicks\": 4242,\n"
	"  \"pid_name\": \"tr\xc3\xa4" "in\\\\x01\",\n"
	"  \"platform_version\": \"npusim\",\n"
	"  \"rank\": 3,\n"
	"  \"record_version\": 1,\n"
	"  \"ringBytes\": {\n"
	"    \"bpf\": 1048576,\n"
	"    \"npuprof.ko\": 262144\n"
	"  },\n"
	"  \"rings\": {\n"
	"    \"bpf\": [\n"
	"      {\n"
	"        \"cpu\": 1,\n"
	"        \"lost\": 0,\n"
	"        \"written\": 20\n"
	"      }\n"
	"    ],\n"
	"    \"npuprof.ko\": [\n"
	"      {\n"
	"        \"cpu\": 0,\n"
	"        \"lost\": 1,\n"
	"        \"written\": 10\n"
	"      },\n"
	"      {\n"
	"        \"cpu\": 1,\n"
	"        \"lost\": 2,\n"
	"        \"written\": 30\n"
	"      }\n"
	"    ]\n"
	"  },\n"
	"  \"storageLimit\": {\n"
	"    \"agedBytes\": 512,\n"
	"    \"agedRecords\": 6,\n"
	"    \"agedSlices\": 1,\n"
	"    \"limitBytes\": 1073741824\n"
	"  },\n"
	"  \"untracedFunctions\": [\n"
	"    \"aclrtFoo\",\n"
	"    \"aclBar\"\n"
	"  ],\n"
	"  \"uprobes\": {\n"
	"    \"apiId\": \"cookie\",\n"
	"    \"forced\": true,\n"
	"    \"inFlight\": \"hash\",\n"
	"    \"links\": \"uprobe_multi\"\n"
	"  }\n"
	"}";

static const char want_device_info[] =
	"{\n"
	"  \"DeviceInfo\": [\n"
	"    {\n"
	"      \"id\": 2\n"
	"    }\n"
	"  ],\n"
	"  \"clockSamples\": [\n"
	"    {\n"
	"      \"device\": 2,\n"
	"      \"samples\": [\n"
	"        {\n"
	"          \"deviceCount\": 5,\n"
	"          \"hostMonotonicNs\": 100\n"
	"        },\n"
	"        {\n"
	"          \"deviceCount\": 9,\n"
	"          \"hostMonotonicNs\": 200\n"
	"        }\n"
	"      ]\n"
	"    }\n"
	"  ],\n"
	"  \"devices\": \"2\",\n"
	"  \"driver\": {\n"
	"    \"backend\": \"npusim\",\n"
	"    \"clock\": \"records\",\n"
	"    \"module\": \"npusim\",\n"
	"    \"taskCapture\": {\n"
	"      \"path\": \"bpf\",\n"
	"      \"reason\": \"npuprof.ko not loaded (no /dev/npuprof)\"\n"
	"    }\n"
	"  },\n"
	"  \"hostname\": \"vm\",\n"
	"  \"nsPid\": [\n"
	"    1077,\n"
	"    1077,\n"
	"    77\n"
	"  ],\n"
	"  \"pid\": 77,\n"
	"  \"pidStartTicks\": 4242,\n"
	"  \"pid_name\": \"tr\xc3\xa4" "in\\\\x01\",\n"
	"  \"platform_version\": \"npusim\",\n"
	"  \"rank_id\": 3\n"
	"}";

static const char want_sample[] =
	"{\n"
	"  \"task_time\": \"on\",\n"
	"  \"x\": [\n"
	"    1,\n"
	"    2\n"
	"  ]\n"
	"}";

static const char want_sample_text[] =
	"{\n"
	"  \"params\": \"not json\"\n"
	"}";

static const char comm[64] = "tr\xc3\xa4in\x01";
static const char host[256] = "vm";

static const struct npuprof_ctrl_edge start = { .outer_ns = 1000, .mono_ns = 1100,
						.mono_raw_ns = 900,
						.real = { 1700000000, 123456789 } };
static const struct npuprof_ctrl_edge stop = { .outer_ns = 5000, .mono_ns = 4900,
					       .mono_raw_ns = 4000, .real = { 1700000005, 999 } };

static struct npuprof_ctrl_clocks clocks[64];
static const struct npuprof_ctrl_ring rings[] = {
	{ NPUPROF_SRC_KMOD, 0, 10, 1 },
	{ NPUPROF_SRC_BPF, 1, 20, 0 },
	{ NPUPROF_SRC_KMOD, 1, 30, 2 },
};
static const pid_t shared[] = { 77, 4321 };

static void facts(struct npuprof_ctrl_identity *id, struct npuprof_ctrl_info *info,
		  struct npuprof_loss *loss, struct npuprof_loss *cpu)
{
	*id = (struct npuprof_ctrl_identity){ .pid = 77, .name = comm, .name_len = sizeof(comm),
					      .host = host, .host_len = sizeof(host),
					      .platform = "npusim", .start_ticks = 4242,
					      .ns_pid = { 1077, 1077, 77 }, .nr_ns_pid = 3,
					      .rank = 3 };
	clocks[2] = (struct npuprof_ctrl_clocks){ 2, { 100, 200 }, { 5, 9 } };
	clocks[5] = (struct npuprof_ctrl_clocks){ 1, { 300 }, { 7 } };
	memset(loss, 0, sizeof(*loss));
	loss->n[NPUPROF_LOSS_RING_FULL] = 3;
	loss->n[NPUPROF_LOSS_WRITE_ERROR] = 4;
	memset(cpu, 0, 2 * sizeof(*cpu));
	cpu[1].cpu = 1;
	cpu[1].n[NPUPROF_LOSS_RING_FULL] = 3;
	*info = (struct npuprof_ctrl_info){
		.clocks = clocks, .nr_clocks = 64, .devices = (1ull << 2) | (1ull << 7),
		.has_kmod = true, .has_bpf = true, .rings = rings, .nr_rings = 3,
		.kmod_ring_bytes = 262144, .bpf_ring_bytes = 1048576,
		.drain = { .records = 40, .api_records = 25, .task_records = 15,
			   .raw_bytes = 4000, .file_bytes = 1000, .dropped = 2,
			   .skipped_bytes = 8, .foreign = 11, .unrouted = 12,
			   .stale_kmod_bytes = 99, .stale_bpf_records = 17, .write_error = -28,
			   .shared = shared, .nr_shared = 2 },
		.loss = loss, .cpu_loss = cpu, .nr_cpu_loss = 2,
		.driver = { .backend = "npusim", .module = "npusim", .driver_clock = false,
			    .tasks = NPUPROF_CTRL_TASKS_BPF,
			    .reason = "npuprof.ko not loaded (no /dev/npuprof)" },
		.storage_limit = 1ull << 30, .aged_slices = 1, .aged_bytes = 512,
		.aged_records = 6, .has_uprobes = true, .uprobe_multi = true, .cookies = true,
		.forced = true, .level_acl = true, .level_runtime = true, .has_follow = true,
		.follow_missed = 5, .untraced = "aclrtFoo aclBar",
		.api_off = "perf_event_open() is refused (blocked by a seccomp filter)",
	};
}

/* The file <@dir>/<@rel> is exactly @want. */
static void check_file(const char *dir, const char *rel, const char *want)
{
	char path[512], got[8192];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "rb");
	CHECK(f != NULL);
	if (!f)
		return;
	n = fread(got, 1, sizeof(got) - 1, f);
	fclose(f);
	got[n] = '\0';
	CHECK_EQ(n, strlen(want));
	CHECK_STR(got, want);
}

static void check_written(const char *dir, int fd)
{
	struct npuprof_ctrl_identity id;
	struct npuprof_ctrl_info info;
	struct npuprof_loss loss, cpu[2];

	facts(&id, &info, &loss, cpu);
	CHECK_EQ(mkdirat(fd, "host", 0755), 0);
	CHECK_EQ(mkdirat(fd, "device_2", 0755), 0);
	CHECK_EQ(npuprof_ctrl_write(fd, NPUPROF_PROF_START_INFO, npuprof_ctrl_edge_json(&start, 1)), 0);
	CHECK_EQ(npuprof_ctrl_write(fd, NPUPROF_PROF_END_INFO, npuprof_ctrl_edge_json(&stop, 0)), 0);
	CHECK_EQ(npuprof_ctrl_write(fd, NPUPROF_PROF_INFO_JSON, npuprof_ctrl_info_json(&id, &info)), 0);
	CHECK_EQ(npuprof_ctrl_write(fd, "device_2/info.json.2",
				    npuprof_ctrl_device_info_json(&id, 2, &clocks[2], &info.driver)),
		 0);
	CHECK_EQ(npuprof_ctrl_write(fd, NPUPROF_PROF_SAMPLE_JSON,
				    npuprof_ctrl_sample_json("{\"task_time\": \"on\", \"x\": [1, 2]}")),
		 0);
	CHECK_EQ(npuprof_ctrl_write(fd, "device_2/sample.json", npuprof_ctrl_sample_json("not json")),
		 0);
	/* a name taken is never written over */
	CHECK_EQ(npuprof_ctrl_write(fd, NPUPROF_PROF_END_INFO, npuprof_ctrl_edge_json(&stop, 0)),
		 -EEXIST);
	CHECK_EQ(npuprof_ctrl_write(fd, "host/x", NULL), -ENOMEM);
	check_file(dir, NPUPROF_PROF_START_INFO, want_start_info);
	check_file(dir, NPUPROF_PROF_END_INFO, want_end_info);
	check_file(dir, NPUPROF_PROF_INFO_JSON, want_info);
	check_file(dir, "device_2/info.json.2", want_device_info);
	check_file(dir, NPUPROF_PROF_SAMPLE_JSON, want_sample);
	check_file(dir, "device_2/sample.json", want_sample_text);
	CHECK_EQ(faccessat(fd, "host/.end_info.tmp", F_OK, AT_SYMLINK_NOFOLLOW), -1);
}

static void check_read(const char *dir)
{
	struct npuprof_ctrl_edge_info e;
	struct npuprof_ctrl_info_parsed r;
	char path[512];

	snprintf(path, sizeof(path), "%s/" NPUPROF_PROF_START_INFO, dir);
	CHECK_EQ(npuprof_ctrl_edge_read(path, 1, &e), 0);
	CHECK(e.has_mono && e.has_outer && e.has_time);
	CHECK_EQ(e.mono_ns, 1100);
	CHECK_EQ(e.outer_ns, 1000);
	CHECK_EQ(e.time_us, 1700000000123456LL);
	snprintf(path, sizeof(path), "%s/" NPUPROF_PROF_END_INFO, dir);
	CHECK_EQ(npuprof_ctrl_edge_read(path, 0, &e), 0);
	CHECK(e.has_mono && e.has_outer && e.has_time);
	CHECK_EQ(e.mono_ns, 4900);
	CHECK_EQ(e.outer_ns, 5000);
	CHECK_EQ(e.time_us, 1700000005000000LL);
	/* end_info has no start keys */
	CHECK_EQ(npuprof_ctrl_edge_read(path, 1, &e), 0);
	CHECK(!e.has_outer && !e.has_time && e.has_mono);

	snprintf(path, sizeof(path), "%s/" NPUPROF_PROF_INFO_JSON, dir);
	CHECK_EQ(npuprof_ctrl_info_read(path, &r), 0);
	CHECK_EQ(r.pid, 1077); /* nsPid's first: the host's */
	CHECK_STR(r.pid_name, "tr\xc3\xa4in\\x01"); /* the text written */
	CHECK_STR(r.hostname, "vm");
	CHECK_EQ(r.rank, 3);
	CHECK_EQ(r.records, 40);
	CHECK_EQ(r.write_error, -28);
	CHECK_EQ(r.ring_lost, 3);
	CHECK_EQ(r.aged_slices, 1);
	CHECK_EQ(r.aged_bytes, 512);
	CHECK_EQ(r.aged_records, 6);
	CHECK_EQ(r.driver_clock, 0);
	CHECK_EQ(r.has_loss, 1);
	CHECK_EQ(r.loss.n[NPUPROF_LOSS_RING_FULL], 3);
	CHECK_EQ(r.loss.n[NPUPROF_LOSS_WRITE_ERROR], 4);
	CHECK_EQ(r.nr_cpu_loss, 1);
	if (r.nr_cpu_loss == 1) {
		CHECK_EQ(r.cpu_loss[0].cpu, 1);
		CHECK_EQ(r.cpu_loss[0].n[NPUPROF_LOSS_RING_FULL], 3);
	}
	CHECK_EQ(r.nr_samples, 3);
	if (r.nr_samples == 3) {
		CHECK_EQ(r.samples[0].device, 2);
		CHECK_EQ(r.samples[0].host_ns, 100);
		CHECK_EQ(r.samples[0].dev, 5);
		CHECK_EQ(r.samples[1].device, 2);
		CHECK_EQ(r.samples[1].host_ns, 200);
		CHECK_EQ(r.samples[1].dev, 9);
		CHECK_EQ(r.samples[2].device, 5);
		CHECK_EQ(r.samples[2].host_ns, 300);
		CHECK_EQ(r.samples[2].dev, 7);
	}
	npuprof_ctrl_info_free(&r);
	CHECK(r.samples == NULL && r.cpu_loss == NULL);
}

/* Write @text to <@dir>/<@name>. */
static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void check_damaged(const char *dir)
{
	struct npuprof_ctrl_edge_info e;
	struct npuprof_ctrl_info_parsed r;
	char path[512];

	put(dir, "cut", "{\n  \"clockMonotonic\": 1100,\n  \"collectionTi");
	snprintf(path, sizeof(path), "%s/cut", dir);
	CHECK_EQ(npuprof_ctrl_edge_read(path, 1, &e), -EBADMSG);
	CHECK(!e.has_mono && !e.has_time);
	CHECK_EQ(npuprof_ctrl_info_read(path, &r), -EBADMSG);
	CHECK_EQ(r.rank, -1);
	CHECK(r.samples == NULL && r.cpu_loss == NULL);
	snprintf(path, sizeof(path), "%s/none", dir);
	CHECK_EQ(npuprof_ctrl_edge_read(path, 0, &e), -ENOENT);
	CHECK_EQ(npuprof_ctrl_info_read(path, &r), -ENOENT);
	snprintf(path, sizeof(path), "%s/link", dir);
	CHECK_EQ(symlink("cut", path), 0);
	CHECK_EQ(npuprof_ctrl_edge_read(path, 1, &e), -ELOOP);

	/* values out of their range read as unknown */
	put(dir, "odd",
	    "{\"collectionTimeBegin\": \"-5\", \"clockMonotonic\": \"1\", "
	    "\"rank\": 2147483647, \"pid\": 9, \"nsPid\": [0, 9], "
	    "\"drain\": {\"records\": -1, \"write_error\": -4096}, \"lost\": [], "
	    "\"rings\": {\"bpf\": [{\"lost\": -3}, {\"lost\": 2}]}}");
	snprintf(path, sizeof(path), "%s/odd", dir);
	CHECK_EQ(npuprof_ctrl_edge_read(path, 1, &e), 0);
	CHECK(!e.has_time && !e.has_mono && !e.has_outer);
	CHECK_EQ(npuprof_ctrl_info_read(path, &r), 0);
	CHECK_EQ(r.rank, -1);
	CHECK_EQ(r.pid, 9);
	CHECK_EQ(r.records, 0);
	CHECK_EQ(r.write_error, 0);
	CHECK_EQ(r.ring_lost, 2);
	CHECK_EQ(r.has_loss, 0);
	npuprof_ctrl_info_free(&r);
	/* rings' losses near 2^64 saturate, never wrap (found by attack) */
	put(dir, "huge",
	    "{\"rings\": {\"bpf\": [{\"lost\": 9223372036854775807}, "
	    "{\"lost\": 9223372036854775807}], \"npuprof.ko\": [{\"lost\": 2}]}}");
	snprintf(path, sizeof(path), "%s/huge", dir);
	CHECK_EQ(npuprof_ctrl_info_read(path, &r), 0);
	CHECK_EQ(r.ring_lost, UINT64_MAX);
	npuprof_ctrl_info_free(&r);
	put(dir, "text", "{\"collectionTimeBegin\": \"12x\"}");
	snprintf(path, sizeof(path), "%s/text", dir);
	CHECK_EQ(npuprof_ctrl_edge_read(path, 1, &e), 0);
	CHECK(!e.has_time);
}

/* host/ before the top; the top when host/ lacks the file (CANN's layout). */
static void check_places(const char *dir)
{
	struct npuprof_ctrl_edge_info e;
	struct npuprof_ctrl_info_parsed r;
	char prof[512];

	CHECK_STR(npuprof_ctrl_place(NPUPROF_PROF_INFO_JSON, 0), "host/info.json");
	CHECK_STR(npuprof_ctrl_place(NPUPROF_PROF_INFO_JSON, 1), "info.json");
	CHECK_STR(npuprof_ctrl_place(NPUPROF_PROF_SAMPLE_JSON, 1), "sample.json");
	CHECK(npuprof_ctrl_place(NPUPROF_PROF_END_INFO, 2) == NULL);
	snprintf(prof, sizeof(prof), "%s/places", dir);
	CHECK_EQ(mkdir(prof, 0755), 0);
	CHECK_EQ(npuprof_ctrl_edge_read_prof(prof, 1, &e), -ENOENT);
	CHECK(!e.has_mono && !e.has_time && !e.has_outer);
	CHECK_EQ(npuprof_ctrl_info_read_prof(prof, &r), -ENOENT);
	put(dir, "places/start_info", "{\"clockMonotonic\": 7}");
	put(dir, "places/info.json", "{\"pid\": 8}");
	CHECK_EQ(npuprof_ctrl_edge_read_prof(prof, 1, &e), 0);
	CHECK(e.has_mono);
	CHECK_EQ(e.mono_ns, 7);
	CHECK_EQ(npuprof_ctrl_info_read_prof(prof, &r), 0);
	CHECK_EQ(r.pid, 8);
	npuprof_ctrl_info_free(&r);
	CHECK_EQ(mkdir(strcat(prof, "/host"), 0755), 0);
	put(dir, "places/" NPUPROF_PROF_START_INFO, "{\"clockMonotonic\": 9}");
	put(dir, "places/" NPUPROF_PROF_INFO_JSON, "{\"pid\": 10}");
	prof[strlen(prof) - strlen("/host")] = '\0';
	CHECK_EQ(npuprof_ctrl_edge_read_prof(prof, 1, &e), 0);
	CHECK_EQ(e.mono_ns, 9);
	CHECK_EQ(npuprof_ctrl_info_read_prof(prof, &r), 0);
	CHECK_EQ(r.pid, 10);
	npuprof_ctrl_info_free(&r);
	/* end_info only at the top */
	put(dir, "places/end_info", "{\"clockMonotonicDisabled\": 11}");
	CHECK_EQ(npuprof_ctrl_edge_read_prof(prof, 0, &e), 0);
	CHECK(e.has_outer && !e.has_mono);
	CHECK_EQ(e.outer_ns, 11);
}

int main(void)
{
	char dir[] = "/tmp/test_prof_control.XXXXXX";
	int fd;

	setenv("TZ", "UTC", 1); /* collectionDate* are local time */
	if (!mkdtemp(dir))
		CHECK_SKIP("cannot create a temp dir");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	CHECK(fd >= 0);
	check_written(dir, fd);
	check_read(dir);
	check_damaged(dir);
	check_places(dir);
	close(fd);
	tmpdir_remove(dir);
	return CHECK_DONE();
}
