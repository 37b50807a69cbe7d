/* SPDX-License-Identifier: MIT */
/*
 * The drain: one thread with an event loop that waits for ring readiness
 * (a poll on each source's fd, plus a read timer), copies records out in
 * batches, compresses them with zstd in streaming mode and writes
 * PROF_XXX slices: on io_uring (IORING_OP_POLL_ADD, IORING_OP_WRITE), or
 * where io_uring is refused on ppoll(2) and a pwrite(2) writer thread
 * (enum npuprof_writer; npuprof/writer_probe.h), the same bytes either way.  Every flush closes a
 * complete zstd frame, so a crash loses at most the unflushed tail.  The
 * drain never blocks a producer: a full ring is the producer's loss to
 * count, not a reason to wait.
 *
 * Where records go inside the PROF_XXX directory (names: npuprof/prof_layout.h):
 *   NPUPROF_REC_API   -> host/data/npuprof.api.slice_<n>
 *   NPUPROF_REC_TASK  -> device_<id>/data/npuprof.task.<id>.slice_<n>
 *   NPUPROF_REC_LOST  -> host/data/npuprof.api.slice_<n> (one per ring, at stop)
 * Each slice starts with a NPUPROF_REC_STREAM_HDR record and gets a
 * <slice>.done file holding "filesize:<bytes>" when it is closed.
 *
 * One capture session may serve several processes through one set of
 * rings (CANN's rule stays: one process, one PROF_XXX directory).  The
 * drain then routes by the records' pid field: each route names a pid and
 * its PROF_XXX directory, and the LOST records, which count a ring shared
 * by all of them, go into every route's host series.  A task record with
 * pid 0 (a device's task no process is known for: the device log's
 * records of a stream whose owner is unknown, a kernel worker's queue
 * events) goes with the first route that has a directory, where the
 * export keeps it as a device-only row.  When the producers
 * follow the processes a job forks, a record of a new pid asks the
 * session for a directory (config.new_route), on the drain thread.
 */
#ifndef NPUPROF_DRAIN_H
#define NPUPROF_DRAIN_H

#include <stdint.h>
#include <npuprof/loss.h>
#include <npuprof/record_io.h>

/**
 * struct npuprof_drain_source - one producer family (npuprof.ko or BPF)
 * @name:    for messages ("npuprof.ko", "bpf")
 * @source:  enum npuprof_source
 * @fd:      readable (POLLIN) when records are waiting
 * @nr_cpus: CPU ids to ask @stats about
 * @obj:     passed to @consume and @stats
 * @consume: hand all waiting records to fn; records or -errno (-EBADMSG:
 *           a ring had a corrupt header and was skipped, see @skipped)
 * @stats:   per-CPU written/lost counters (records) since the producers
 *           were enabled for this window (both producers zero them at
 *           enable); written less the records read out is counted lost
 *           to a decode error; 0, -ENXIO for a CPU without a ring
 * @skipped: optional, NULL for a source that never skips: bytes @consume
 *           skipped so far on that CPU's ring after a corrupt record header
 *           (a running total); 0, -ENXIO for a CPU without a ring
 * @by_device: 1 when ring i is device i's, not CPU i's (the device-log
 *           reader, npuprof/devlog.h; records' hdr.cpu is then the
 *           device): its losses count in the totals and routes, in no
 *           CPU's entry of config.cpu_loss
 */
struct npuprof_drain_source {
	const char *name;
	int source;
	int fd;
	unsigned int nr_cpus;
	void *obj;
	long (*consume)(void *obj, npuprof_rec_fn fn, void *ctx);
	int (*stats)(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost);
	int (*skipped)(void *obj, unsigned int cpu, uint64_t *bytes);
	unsigned int by_device;
};

/**
 * struct npuprof_drain_ring - one CPU ring of a source as the drain saw it
 * @name:    its source's name (npuprof_drain_source.name, the caller's string)
 * @source:  enum npuprof_source
 * @cpu:     the CPU id
 * @written: the producer's written counter at stop (records, since enable)
 * @lost:    the producer's lost counter at stop (records the full ring refused)
 * @read:    records the drain read out of that ring
 *
 * The counters are the same the drain writes as that ring's
 * NPUPROF_REC_LOST record; a ring without counters (stats() failed) has
 * no entry.
 */
struct npuprof_drain_ring {
	const char *name;
	int source;
	unsigned int cpu;
	uint64_t written;
	uint64_t lost;
	uint64_t read;
};

/**
 * struct npuprof_drain_route - where one process's records go
 * @pid:      the tgid in the records' pid field
 * @prof_dir: its existing PROF_XXX directory (its path, for messages)
 * @dir_fd:   that directory, open (the drain keeps a dup), so nothing is
 *            reached through a path an owner of --output could swap
 *            (npuprof/prof_fs.h); an fd <= 2 (0 in a zeroed struct, -1):
 *            none, open @prof_dir by its path
 */
#define NPUPROF_DRAIN_MAX_ROUTES 64

struct npuprof_drain_route {
	uint32_t pid;
	const char *prof_dir;
	int dir_fd;
};

/**
 * enum npuprof_writer - the I/O engine that writes the slices
 * @NPUPROF_WRITER_AUTO:     io_uring, or pwrite when io_uring cannot be
 *                           set up; the environment may choose instead:
 *                           NPUPROF_WRITER=io_uring|pwrite|auto
 * @NPUPROF_WRITER_IO_URING: io_uring only: a refusal fails the start
 * @NPUPROF_WRITER_PWRITE:   the fallback: ppoll(2), and pwrite(2) from a
 *                           writer thread; the same files byte for byte
 */
enum npuprof_writer {
	NPUPROF_WRITER_AUTO,
	NPUPROF_WRITER_IO_URING,
	NPUPROF_WRITER_PWRITE,
};

/* The I/O engine's queue depth a drain asks for: this plus one per source. */
#define NPUPROF_DRAIN_ENGINE_ENTRIES 64

/**
 * struct npuprof_drain_config - where and how to write
 * @prof_dir:    existing PROF_XXX directory for every record, when there
 *               are no @routes
 * @routes:      per-process directories (copied); a record of a pid no
 *               route names is dropped and counted in stats.foreign
 * @nr_routes:   entries of @routes, 0 for none
 * @new_route:   optional, with routes: called on the drain thread for the
 *               first record of a pid no route names; it makes that pid's
 *               PROF_XXX directory, writes its path into @dir (@size
 *               bytes) and its open fd into *@dir_fd (the drain keeps a
 *               dup).  Return 0 to route the pid there from now on, or
 *               -errno to count its records as foreign.  At most
 *               NPUPROF_DRAIN_MAX_ROUTES routes in all.
 * @route_ctx:   passed to @new_route
 * @slice_bytes: start a new slice once one holds this many compressed
 *               bytes (0: 16 MiB)
 * @zstd_level:  zstd level, negative ones included (0: 1, see drain.c)
 * @flush_ms:    read timer: drain every source at least this often, in ms
 *               (0: 200, LTTng's default read timer)
 * @frame_ms:    close a series' frame at the first tick at least this long
 *               after its first record, in ms (0: 1000; at least flush_ms):
 *               what a crash can lose, and how long a slowly written
 *               frame grows (a full block closes at once)
 * @cpu_loss:    optional, caller-owned, @nr_cpu_loss entries: records lost
 *               per CPU (entry i is CPU i, over every source and route),
 *               zeroed at start, complete when npuprof_drain_stop() returns
 * @nr_cpu_loss: entries of @cpu_loss; losses of higher CPUs count only in
 *               the totals
 * @rings:       optional, caller-owned, @nr_rings entries: every CPU ring
 *               with counters, source by source in @srcs order, CPUs
 *               ascending; filled when npuprof_drain_stop() returns, which
 *               sets stats.nr_rings (the sum of the sources' nr_cpus
 *               always suffices; rings past @nr_rings are not listed)
 * @nr_rings:    entries of @rings
 * @storage_limit: bytes each route's directory may hold in slices (msprof's
 *               --storage-limit), 0 for no limit: once the closed slices,
 *               with every series' open slice counted as full
 *               (@slice_bytes), would pass it, the oldest closed slices
 *               are removed with their .done files, never a series' last
 *               closed one (user/slice_age.h); stats.aged_* count them.
 *               A slice that cannot be removed stays, with every later
 *               slice of its series (one warning names it and why): a
 *               series on disk never has a gap
 * @writer:      enum npuprof_writer (0: AUTO)
 * @owners:      optional, caller-owned, used on the drain thread only
 *               until npuprof_drain_stop() returns: task records that
 *               carry no pid (a driver event a kernel worker fired, the
 *               device log's) get the pid of their (device, stream) owner
 *               before routing; a miss re-reads the driver's stream view
 *               at most every NPUPROF_DRAIN_OWNER_RELOAD_MS per device, and
 *               task records with a pid teach the table their stream's
 *               owner.  A record whose owner is still unknown is held
 *               back (at most 65536) and tried again at every read tick
 *               and at stop, when those still without one are counted in
 *               stats.unattributed and kept with pid 0 in the first
 *               routed directory (device-only tasks), never silently.
 */
struct npuprof_drain_config {
	const char *prof_dir;
	const struct npuprof_drain_route *routes;
	unsigned int nr_routes;
	int (*new_route)(void *ctx, uint32_t pid, char *dir, size_t size, int *dir_fd);
	void *route_ctx;
	uint64_t slice_bytes;
	int zstd_level;
	unsigned int flush_ms;
	unsigned int frame_ms;
	struct npuprof_loss *cpu_loss;
	unsigned int nr_cpu_loss;
	struct npuprof_drain_ring *rings;
	unsigned int nr_rings;
	uint64_t storage_limit;
	int writer;
	struct npuprof_stream_owners *owners;
};

/* Least time between two re-reads of one device's stream owners, ms. */
#define NPUPROF_DRAIN_OWNER_RELOAD_MS 10

/* Device ids the stats tell apart, 0..63 (as the driver backends'). */
#define NPUPROF_DRAIN_MAX_DEVICES 64

/**
 * struct npuprof_drain_stats - totals at stop
 *
 * Every record a ring handed out is in exactly one of @records (on
 * disk), @dropped (never taken by a series) and the write errors of
 * @loss that are not @dropped (taken, but their frame never reached the
 * disk whole).  Records the producers never wrote are in @lost; bytes of a
 * ring skipped as unreadable (corrupt header) are in @skipped_bytes.
 * @loss counts every record produced in the window that is not in the
 * files, by cause (npuprof/loss.h); in route stats its write errors are
 * the route's own, ring full and decode errors the shared rings'.
 */
struct npuprof_drain_stats {
	uint64_t records;     /* records read and written to a slice series
				 (less those of frames that never reached
				 the disk whole: those are in loss) */
	uint64_t api_records; /* of which NPUPROF_REC_API */
	uint64_t task_records;/* of which NPUPROF_REC_TASK */
	uint64_t raw_bytes;   /* bytes of those records, before compression */
	uint64_t file_bytes;  /* bytes written to slices */
	uint64_t lost;        /* sum of every ring's lost counter */
	int write_error;      /* first -errno of a write, 0 if none */
	uint64_t dropped;     /* records read but not appended: their series
				 could not be created or written */
	uint64_t skipped_bytes; /* ring bytes skipped after corrupt headers */
	uint64_t foreign;     /* of @dropped: records of a pid no route names */
	uint64_t unrouted;    /* of @foreign, when following a job: records of
				 its processes that got no directory; also in
				 @loss as write errors */
	struct npuprof_loss loss; /* records lost, by cause */
	uint32_t pid;	      /* route stats only: the route's pid */
	uint64_t devices;     /* bit d: device_<d>/data was made for device
				 d's series (d < NPUPROF_DRAIN_MAX_DEVICES;
				 higher ids are only in task_records) */
	uint64_t device_records[NPUPROF_DRAIN_MAX_DEVICES]; /* of task_records:
				 per device id, as records */
	unsigned int nr_rings; /* totals only: entries of config.rings filled */
	uint64_t aged_slices;  /* slices removed under config.storage_limit */
	uint64_t aged_bytes;   /* their bytes (still in @file_bytes) */
	uint64_t aged_records; /* their records (still in @records) */
	int writer;	       /* enum npuprof_writer that ran: IO_URING or PWRITE */
	uint64_t attributed;   /* totals only: pid-less task records given
				  their stream owner's pid (config.owners) */
	uint64_t unattributed; /* totals only: pid-less task records whose
				  stream owner stayed unknown, kept with pid 0
				  in the first routed directory (device-only
				  tasks for the export) */
};

struct npuprof_drain;
struct npuprof_stream_owners;

/**
 * npuprof_drain_start() - start the drain thread on @n sources
 * Return: 0; -ENOMEM; -errno from setting up the writer (io_uring with
 * NPUPROF_WRITER_IO_URING; AUTO falls back to pwrite) or file creation.
 * Nothing is left running on failure.
 */
int npuprof_drain_start(const struct npuprof_drain_config *cfg,
			const struct npuprof_drain_source *srcs, unsigned int n,
			struct npuprof_drain **out);

/**
 * npuprof_drain_stop() - final drain, then close every slice
 * @d:        the drain; freed on return
 * @st:       totals, may be NULL
 * @route_st: with routes, one entry per route (same order; routes that
 *            new_route added follow the configured ones in the order they
 *            were made): what went into that route's directory (records,
 *            bytes, dropped, write_error; lost is the shared rings'
 *            total); NPUPROF_DRAIN_MAX_ROUTES entries when new_route is
 *            set, else nr_routes; may be NULL
 *
 * Call after the producers were disabled: it consumes what is left, writes
 * one NPUPROF_REC_LOST record per ring, ends the zstd frames, waits for
 * every write and writes the .done files.
 *
 * Return: 0, or the first write error (-ENOSPC for a full disk); data
 * written before the error stays readable.
 */
int npuprof_drain_stop(struct npuprof_drain *d, struct npuprof_drain_stats *st,
		       struct npuprof_drain_stats *route_st);

#endif /* NPUPROF_DRAIN_H */
