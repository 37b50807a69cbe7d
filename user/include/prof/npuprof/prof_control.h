/* SPDX-License-Identifier: MIT */
/*
 * The one owner of what a PROF_XXX directory's control files contain:
 * host/start_info, host/end_info, host/info.json, host/sample.json and
 * each device's start_info.<id>, end_info.<id>, info.json.<id> (their
 * names: npuprof/prof_layout.h).  The writer and the reader of every key
 * sit side by side in prof_control.c, as perf's util/header.c keeps the
 * two sides of each header feature together, with one set of checks.
 *
 * The capture (session_prof.c) decides what to record and hands it over
 * in the plain structs below; the key names, the shapes of the documents
 * and how they are written (pretty JSON, two-space indent, keys sorted,
 * no trailing newline) live here only.  The export, msprof --query and
 * other readers get plain structs back and never look up a key.
 *
 * Readers return 0 or a negative errno: -ENOENT the file is missing,
 * -EBADMSG it is not JSON (cut short, damaged), -ELOOP/-EINVAL something
 * other than a regular file is at its name (npuprof_prof_open_regular()),
 * -ENOMEM.  A key absent or of the wrong type reads as unknown (a copy may
 * come from an older writer, or have been edited), never as an error.
 */
#ifndef NPUPROF_PROF_CONTROL_H
#define NPUPROF_PROF_CONTROL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <npuprof/loss.h>

/**
 * npuprof_ctrl_place() - where a host control file may be in a PROF dir,
 * given as its path below host/ (@host_rel: NPUPROF_PROF_START_INFO,
 * _END_INFO, _INFO_JSON, _SAMPLE_JSON)
 * @i: 0: @host_rel itself, where npuprof writes it; 1: its name at the
 *     PROF dir's top, where CANN keeps it
 * Return: the path relative to the PROF dir, or NULL past the last place.
 */
const char *npuprof_ctrl_place(const char *host_rel, unsigned int i);

/* ---- host/start_info, host/end_info, device start_info.<id>, end_info.<id> ---- */

/**
 * struct npuprof_ctrl_edge - the clocks of one capture edge (start or
 * stop), read together, as the capture writes them
 * @outer_ns:    CLOCK_MONOTONIC, the outer bound: at start read before the
 *               first producer was enabled ("clockMonotonicEnabled"), at
 *               stop after the last was disabled ("clockMonotonicDisabled")
 * @mono_ns:     CLOCK_MONOTONIC, the clock of every record ("clockMonotonic"):
 *               every event from it on (start) or up to it (stop) is captured
 * @mono_raw_ns: CLOCK_MONOTONIC_RAW ("clockMonotonicRaw", as CANN records it)
 * @real:        the wall clock ("collectionDate*" in local time,
 *               "collectionTime*" as a decimal string of us)
 */
struct npuprof_ctrl_edge {
	uint64_t outer_ns;
	uint64_t mono_ns;
	uint64_t mono_raw_ns;
	struct timespec real;
};

/**
 * npuprof_ctrl_edge_json() - the start_info (@begin 1) or end_info (@begin
 * 0) document of @e.  Return: a new object, or NULL without memory.
 */
json_t *npuprof_ctrl_edge_json(const struct npuprof_ctrl_edge *e, int begin);

/**
 * struct npuprof_ctrl_edge_info - a start_info or end_info as read
 * @has_mono, @mono_ns:   "clockMonotonic" (ns), when an integer
 * @has_outer, @outer_ns: "clockMonotonicEnabled" (start_info) or
 *                        "clockMonotonicDisabled" (end_info), when an integer
 * @has_time, @time_us:   "collectionTimeBegin" / "collectionTimeEnd": wall
 *                        clock us, when a decimal string of a number >= 0
 *                        that fits in 64 bits, nothing after it
 */
struct npuprof_ctrl_edge_info {
	bool has_mono, has_outer, has_time;
	int64_t mono_ns;
	int64_t outer_ns;
	int64_t time_us;
};

/**
 * npuprof_ctrl_edge_read() - read the start_info (@begin 1) or end_info
 * (@begin 0) at @path into @out (zeroed first).  Return: 0 or -errno (see
 * above).
 */
int npuprof_ctrl_edge_read(const char *path, int begin, struct npuprof_ctrl_edge_info *out);

/**
 * npuprof_ctrl_edge_read_prof() - npuprof_ctrl_edge_read() of the PROF
 * dir @prof_dir's start_info or end_info: host/<name>, where npuprof
 * writes it, else <name> at the top, where CANN keeps it.  Return: 0, or
 * the -errno of the last place tried (@out then all unknown).
 */
int npuprof_ctrl_edge_read_prof(const char *prof_dir, int begin,
				struct npuprof_ctrl_edge_info *out);

/* ---- host/info.json and a device's info.json.<id> ---- */

/* Host/device clock pairs a device may have: three at start, three at stop. */
#define NPUPROF_CTRL_CLOCK_PAIRS 6

/**
 * struct npuprof_ctrl_clocks - the host/device clock pairs of one device
 * ("clockSamples": [{"device", "samples": [{"hostMonotonicNs",
 * "deviceCount"}]}]); a device with @n 0 is left out
 * @n:    pairs in @host and @dev
 * @host: CLOCK_MONOTONIC ns
 * @dev:  the device's counter, read together with @host
 */
struct npuprof_ctrl_clocks {
	unsigned int n;
	uint64_t host[NPUPROF_CTRL_CLOCK_PAIRS];
	uint64_t dev[NPUPROF_CTRL_CLOCK_PAIRS];
};

/* Pids of one process in each pid namespace: the host's, then up to 32 levels. */
#define NPUPROF_CTRL_NSPID_MAX 33

/**
 * struct npuprof_ctrl_identity - what both info.json documents begin with
 * @pid:           "pid": the process as it sees itself
 * @name, @name_len:   "pid_name": its comm, the bytes up to the first NUL
 *                 of a field of @name_len bytes, written as text
 *                 (npuprof_name_json())
 * @host, @host_len:   "hostname", the same way
 * @platform:      "platform_version": the NPU driver's backend, "unknown"
 * @start_ticks:   "pidStartTicks": when it started; 0 when procfs could not
 *                 say, and then neither it nor "nsPid" is written
 * @ns_pid, @nr_ns_pid: "nsPid": its pid in each pid namespace, the host's first
 * @rank:          its job rank ("rank" in host/info.json, "rank_id" in a
 *                 device's); -1: none, the key is not written
 */
struct npuprof_ctrl_identity {
	pid_t pid;
	const char *name;
	size_t name_len;
	const char *host;
	size_t host_len;
	const char *platform;
	uint64_t start_ticks;
	pid_t ns_pid[NPUPROF_CTRL_NSPID_MAX];
	unsigned int nr_ns_pid;
	int rank;
};

/* "driver" "taskCapture" "path": how device tasks were captured. */
enum npuprof_ctrl_task_path {
	NPUPROF_CTRL_TASKS_NONE, /* null: not captured */
	NPUPROF_CTRL_TASKS_KMOD, /* "npuprof.ko" */
	NPUPROF_CTRL_TASKS_BPF,	 /* "bpf" */
};

/* Bytes of the words of "beginEnd", NUL included. */
#define NPUPROF_CTRL_TIMING_TEXT 192

/**
 * struct npuprof_ctrl_timing - where one device's task timing came from:
 * "taskTiming", a list of these in host/info.json (with "device"), the
 * device's own entry in its info.json.<id>
 * @device:    the device id
 * @submit:    "submit": where submits came from ("halSqTaskSend uprobe",
 *             "driver tracepoints")
 * @begin_end: "beginEnd": where task begin and end came from: "device log
 *             (channel 50)", "driver tracepoints", or "none: <why>" (the
 *             capture then has host-side timing only: submits, API calls)
 * @outcome:   "beginEndOutcome": the same as a word to decide by:
 *             "deviceLog", "tracepoints", or why not ("noLibrary",
 *             "noChannel", "taken", "container", "noContext", "failed",
 *             "notRead": a device the window's processes do not hold)
 * @has_log:   "deviceLog" written, the reader's counts (records): @begins,
 *             @ends, @skipped (other log records), @gaps ("countGaps":
 *             missing by the log's running count, at least), @ring_drops,
 *             @unattributed (no owner of the stream: pid 0), @outside
 *             ("outsideWindow": begins and ends the log held from before
 *             the window opened or after it closed, left out by design)
 */
struct npuprof_ctrl_timing {
	int device;
	const char *submit;
	const char *begin_end;
	const char *outcome;
	bool has_log;
	uint64_t begins, ends, skipped, gaps, ring_drops, unattributed, outside;
};

/**
 * struct npuprof_ctrl_driver - info.json "driver"
 * @backend:      the backend that recognised the NPU driver, NULL: none (null)
 * @module:       the module sysfs names as the device nodes' owner, "" if none
 * @driver_clock: "clock" "driver": the driver gave clock pairs; else
 *                "records": the export fits the clocks over the task records
 * @tasks:        "taskCapture" "path"
 * @reason:       "taskCapture" "reason": why that path, as msprof said
 * @timing, @nr_timing: "taskTiming" of the devices (a top-level key, next
 *                to "driver"); none: not written
 */
struct npuprof_ctrl_driver {
	const char *backend;
	const char *module;
	bool driver_clock;
	enum npuprof_ctrl_task_path tasks;
	const char *reason;
	const struct npuprof_ctrl_timing *timing;
	unsigned int nr_timing;
};

/**
 * struct npuprof_ctrl_ring - one CPU ring's counters at stop ("rings":
 * {"npuprof.ko" | "bpf": [{"cpu", "written", "lost"}]}), or one device's
 * of the device-log reader ("devlog": [{"device", ...}], @cpu the device)
 * @source: NPUPROF_SRC_KMOD, NPUPROF_SRC_BPF or NPUPROF_SRC_DEVLOG
 *          (npuprof/record.h)
 * @cpu, @written, @lost: as the producer counted (records)
 */
struct npuprof_ctrl_ring {
	int source;
	unsigned int cpu;
	uint64_t written;
	uint64_t lost;
};

/**
 * struct npuprof_ctrl_drain - info.json "drain": what the drain saved in
 * this directory, and every way a record did not make it that is not a
 * ring's "lost"
 * @records, @api_records, @task_records: records written here
 * @raw_bytes, @file_bytes: bytes before and after compression
 * @dropped:       records a series could not take
 * @skipped_bytes: "skippedBytes": a corrupt ring header's (shared rings)
 * @foreign:       "foreignRecords": of pids no directory takes (shared)
 * @unrouted:      "unroutedRecords": of those, records of the followed
 *                 job's processes that got no directory: lost (shared)
 * @stale_kmod_bytes, @stale_bpf_records: "staleKmodBytes",
 *                 "staleBpfRecords": an earlier window's leftovers,
 *                 dropped at start (shared)
 * @write_error:   the drain's first write error here, -errno, 0 none
 * @shared, @nr_shared: "sharedWith": the pids sharing the session's rings
 * @writer:        "writer": the I/O engine that wrote the slices,
 *                 "io_uring" or "pwrite" (the fallback); NULL: not written
 */
struct npuprof_ctrl_drain {
	uint64_t records, api_records, task_records;
	uint64_t raw_bytes, file_bytes, dropped;
	uint64_t skipped_bytes, foreign, unrouted;
	uint64_t stale_kmod_bytes, stale_bpf_records;
	int write_error;
	const pid_t *shared;
	unsigned int nr_shared;
	const char *writer;
};

/**
 * struct npuprof_ctrl_info - the facts host/info.json holds beyond the
 * identity, as the capture assembled them
 * @clocks, @nr_clocks: "clockSamples", indexed by device id
 * @devices:       "devices": bit d set: device d got data
 * @has_kmod, @has_bpf: which sources' "rings" and "ringBytes" are written
 * @has_devlog:    "rings" "devlog" written: the device-log reader's rings,
 *                 one per device ({"device", "written", "lost"})
 * @rings, @nr_rings:   "rings" counters of both sources
 * @kmod_ring_bytes, @bpf_ring_bytes: "ringBytes": data bytes of each
 *                 CPU's ring, as made
 * @drain:         "drain"
 * @loss, @cpu_loss, @nr_cpu_loss: "lost" (npuprof/loss_json.h)
 * @driver:        "driver"
 * @storage_limit: "storageLimit" "limitBytes", 0: no "storageLimit"
 * @aged_slices, @aged_bytes, @aged_records: what ageing removed
 * @has_uprobes:   "uprobes" written, with @uprobe_multi ("links"
 *                 "uprobe_multi" or "perFunction"), @task_storage
 *                 ("inFlight" "taskStorage" or "hash"), @cookies ("apiId"
 *                 "cookie" or "program") and @forced ("forced")
 * @level_acl, @level_runtime: "apiLevels": "AscendCL", "Runtime" captured
 * @has_follow:    "followMissed" written: @follow_missed processes of the
 *                 followed job a full filter could not take
 * @untraced:      "untracedFunctions": names separated by one space; ""
 *                 or NULL: not written
 * @api_off:       "apiNotCaptured": why the API calls asked for were not
 *                 captured; "" or NULL: not written
 */
struct npuprof_ctrl_info {
	const struct npuprof_ctrl_clocks *clocks;
	unsigned int nr_clocks;
	uint64_t devices;
	bool has_kmod, has_bpf, has_devlog;
	const struct npuprof_ctrl_ring *rings;
	unsigned int nr_rings;
	uint64_t kmod_ring_bytes, bpf_ring_bytes;
	struct npuprof_ctrl_drain drain;
	const struct npuprof_loss *loss;
	const struct npuprof_loss *cpu_loss;
	unsigned int nr_cpu_loss;
	struct npuprof_ctrl_driver driver;
	uint64_t storage_limit;
	uint64_t aged_slices, aged_bytes, aged_records;
	bool has_uprobes, uprobe_multi, task_storage, cookies, forced;
	bool level_acl, level_runtime;
	bool has_follow;
	uint64_t follow_missed;
	const char *untraced;
	const char *api_off;
};

/**
 * npuprof_ctrl_info_json() - host/info.json of the process @id, with
 * @info.  Return: a new object, or NULL without memory.
 */
json_t *npuprof_ctrl_info_json(const struct npuprof_ctrl_identity *id,
			       const struct npuprof_ctrl_info *info);

/**
 * npuprof_ctrl_device_info_json() - info.json.<@device> of the process
 * @id: CANN's "devices" and "DeviceInfo", the device's own clock pairs
 * (@clocks, NULL or @clocks->n 0: none) and "driver" (@driver).
 * Return: a new object, or NULL without memory.
 */
json_t *npuprof_ctrl_device_info_json(const struct npuprof_ctrl_identity *id, int device,
				      const struct npuprof_ctrl_clocks *clocks,
				      const struct npuprof_ctrl_driver *driver);

/* Bytes a name read back from info.json takes as text, NUL included. */
#define NPUPROF_CTRL_NAME_SIZE 64

/**
 * struct npuprof_ctrl_sample - one clock pair read back from "clockSamples"
 * @device:  the device id
 * @host_ns: "hostMonotonicNs"
 * @dev:     "deviceCount"
 */
struct npuprof_ctrl_sample {
	uint32_t device;
	uint64_t host_ns;
	uint64_t dev;
};

/**
 * struct npuprof_ctrl_timing_read - one "taskTiming" entry as read
 * @device:    "device"
 * @outcome:   "beginEndOutcome" ("" if unknown)
 * @begin_end: "beginEnd" as text ("" if unknown)
 * @submit:    "submit" as text ("" if unknown)
 * @gaps:      "deviceLog" "countGaps": records the log's 4-bit count says
 *             are missing (0 if absent)
 */
struct npuprof_ctrl_timing_read {
	uint32_t device;
	char outcome[32];
	char begin_end[NPUPROF_CTRL_TIMING_TEXT];
	char submit[NPUPROF_CTRL_NAME_SIZE];
	uint64_t gaps;
};

/**
 * struct npuprof_ctrl_info_parsed - host/info.json as read
 * @pid:          the process as its records number it: "nsPid"'s first
 *                (the host's) when in 1..INT32_MAX, else "pid"; 0: unknown
 * @pid_name:     "pid_name" as text (npuprof/name_text.h), "" if unknown
 * @hostname:     "hostname" as text, "" if unknown
 * @rank:         "rank" when in 0..INT32_MAX-1, else -1
 * @records:      "drain" "records" when > 0, else 0 (unknown)
 * @write_error:  "drain" "write_error" when in -4095..-1, else 0
 * @ring_lost:    the sum of "lost" > 0 over every source's "rings"
 * @aged_slices, @aged_bytes, @aged_records: "storageLimit"'s, each 0 unless > 0
 * @driver_clock: "driver" "clock" is "driver"
 * @has_loss:     "lost" is an object (a writer that counts losses by cause):
 *                @loss holds it, @cpu_loss its "byCpu" entries that parse
 *                (@nr_cpu_loss of them, malloc'd)
 * @samples, @nr_samples: "clockSamples" pairs with integer fields, in file
 *                order (malloc'd)
 * @timing, @nr_timing: "taskTiming" entries with an integer "device", in
 *                file order (malloc'd): where each device's task begin/end
 *                came from, or why none
 *
 * npuprof_ctrl_info_free() frees what it holds.
 */
struct npuprof_ctrl_info_parsed {
	uint32_t pid;
	char pid_name[NPUPROF_CTRL_NAME_SIZE];
	char hostname[NPUPROF_CTRL_NAME_SIZE];
	int rank;
	uint64_t records;
	int write_error;
	uint64_t ring_lost;
	uint64_t aged_slices, aged_bytes, aged_records;
	bool driver_clock;
	bool has_loss;
	struct npuprof_loss loss;
	struct npuprof_loss *cpu_loss;
	size_t nr_cpu_loss;
	struct npuprof_ctrl_sample *samples;
	size_t nr_samples;
	struct npuprof_ctrl_timing_read *timing;
	size_t nr_timing;
};

/**
 * npuprof_ctrl_info_read() - read the info.json at @path into @out.
 * Return: 0 or -errno (see above); on an error @out holds nothing to free.
 */
int npuprof_ctrl_info_read(const char *path, struct npuprof_ctrl_info_parsed *out);

/**
 * npuprof_ctrl_info_read_prof() - npuprof_ctrl_info_read() of the PROF dir
 * @prof_dir's info.json: host/info.json, else info.json at the top (as
 * npuprof_ctrl_edge_read_prof() looks); -ENOMEM ends the search.
 * Return: 0, or the -errno of the last place tried.
 */
int npuprof_ctrl_info_read_prof(const char *prof_dir, struct npuprof_ctrl_info_parsed *out);

/** npuprof_ctrl_info_free() - free what npuprof_ctrl_info_read() put in @info. */
void npuprof_ctrl_info_free(struct npuprof_ctrl_info_parsed *info);

/* ---- sample.json ---- */

/**
 * npuprof_ctrl_sample_json() - sample.json: the capture's parameters
 * @params_json, as msprof handed them; when that is not JSON, kept as
 * text under "params".  Return: a new document, or NULL without memory.
 */
json_t *npuprof_ctrl_sample_json(const char *params_json);

/* ---- every control file ---- */

/**
 * npuprof_ctrl_write() - write @doc (stolen; NULL: -ENOMEM) to the new
 * file @rel below the PROF_XXX directory @dir_fd, under its temporary
 * name first (npuprof_ctrl_tmp_name()) and renamed into place, so it is
 * never seen half-written; a half-written temporary file is removed.  A
 * name already taken (a planted symlink) fails with -EEXIST and is left
 * alone.  Return: 0 or -errno.
 */
int npuprof_ctrl_write(int dir_fd, const char *rel, json_t *doc);

/**
 * npuprof_ctrl_load() - parse the control file @path, if it is a regular
 * file (never following a planted symlink, never blocking on a FIFO).
 * Return: the document, or NULL with *@err -ENOENT, -EBADMSG (not JSON)
 * or the -errno of opening it.
 */
json_t *npuprof_ctrl_load(const char *path, int *err);

#endif /* NPUPROF_PROF_CONTROL_H */
