// SPDX-License-Identifier: MIT
/*
 * The drain: moves records from the producers' ring buffers into PROF_XXX
 * slice files (routing in user/include/recorder/npuprof/drain.h).
 *
 * Design.  One thread, one I/O engine, no locks.  The engine
 * (io_engine.h) is io_uring, or where io_uring is refused the pwrite
 * fallback with the same completions (ppoll and a writer thread); below,
 * the io_uring names, which the fallback imitates:
 *  - Every source fd has a one-shot IORING_OP_POLL_ADD for POLLIN, re-armed
 *    after the source was read; one-shot polls are level checks when armed,
 *    so data that arrived while reading fires the new poll at once.  A
 *    source's fd must stop being readable once consume() emptied it (the
 *    kernel device does; an eventfd source reads its counter in consume()).
 *  - An IORING_OP_TIMEOUT read timer (flush_ms) reads every source, also
 *    those below their wakeup watermark, and flushes every series whose
 *    oldest unwritten record is frame_ms old: each flush ends a zstd frame,
 *    so the files on disk are never more than frame_ms plus a tick behind.
 *  - An eventfd, also polled, tells the thread to stop.
 *  - Slice writes are IORING_OP_WRITE on the same ring (slice_writer.c);
 *    their CQEs are recognised by bit 0 of user_data and handed back to the
 *    writer.  Poll CQEs carry a drain_src pointer, the timer and the stop
 *    request the small constants below.
 * The thread only reads rings: it never waits for a producer and a
 * producer never waits for it.  A ring that fills up is the producer's
 * loss, counted in its lost counter and written to the trace at stop as
 * one NPUPROF_REC_LOST record per CPU ring.
 *
 * Nothing leaves silently.  Every record produced in the window that is
 * not in the files is counted lost, by cause (npuprof/loss.h) and by CPU:
 * ring full from the rings' lost counters; write error for records a
 * series could not take (also counted as dropped) and for records whose
 * frame never reached the disk whole (the writer's cfg.lost) or whose
 * process of a followed job got no directory; decode error for records a
 * ring accepted (its written counter) that were not read out of it
 * (counted per source and CPU as they pass the router).  A ring whose
 * source skipped it after a corrupt
 * record header has its skipped bytes counted (source skipped() callback)
 * and named in a warning with the CPU, at most one a second per source,
 * the rest at stop.  A poll or timer that found no room (no free SQE) is not marked
 * armed: the loop then waits at most DRAIN_REARM_NS and arms it again.
 *
 * Stop: the caller disables the producers, then npuprof_drain_stop() wakes
 * the thread, which reads the sources until they are empty, appends the
 * loss records, ends every frame, waits for every write and writes the
 * .done files.  Series and their directories are created on first use, so
 * a capture without device tasks leaves no device_<id> directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/clock.h>
#include <npuprof/drain.h>
#include <npuprof/msg.h>
#include <npuprof/prof_fs.h>
#include <npuprof/prof_layout.h>
#include <npuprof/stream_owner.h>
#include <npuprof/writer_probe.h>

#include "io_engine.h"
#include "slice_age.h"
#include "slice_writer.h"

#define DRAIN_UD_TIMER 2ULL /* user_data of the read timer */
#define DRAIN_UD_STOP 4ULL  /* user_data of the stop eventfd's poll */
#define DRAIN_FINAL_ROUNDS 64 /* bound on the final reads of busy sources */
#define DRAIN_SKIP_WARN_NS 1000000000ULL /* at most one skip warning a second */
#define DRAIN_REARM_NS 1000000LL /* wait bound while a poll could not be armed */
#define DRAIN_FRAME_MS 1000ULL /* frame_ms unless configured */
/*
 * zstd level unless the config says otherwise.  On encoded blocks
 * (slice_block.h) level 1 costs 13% less CPU than level 3 for 1.5% more
 * bytes (task records, 1 MiB blocks, measured side by side): the drain's
 * CPU is the budget (P3), the bytes barely move (P5).
 */
#define DRAIN_ZSTD_LEVEL 1

struct drain_src {
	struct npuprof_drain_source s;
	bool armed;   /* a POLL_ADD is in flight */
	bool ready;   /* its POLL_ADD fired */
	bool dead;    /* poll failed: read only by the timer */
	bool reported; /* an error message was printed */
	uint64_t *skip_seen;   /* per CPU: skipped bytes counted in the totals */
	uint64_t *skip_warned; /* per CPU: skipped bytes a warning named */
	uint64_t skip_warn_ns; /* when the last skip warning was printed */
	uint64_t *read;	       /* per CPU: records read out of that ring */
};

struct drain_series {
	struct drain_series *next;
	struct npuprof_drain *d; /* for the writer's loss callback */
	int route;		/* index in npuprof_drain.routes, 0 without routes */
	long device;		/* -1 for the host series */
	struct slice_writer *w; /* NULL when its directory could not be made */
	int dir_fd;		/* its data directory, for ageing; -1 for none */
	bool reported;
	bool age_stuck; /* a slice could not be removed: the series is aged no more */
	char dir[PATH_MAX];
	char name[NPUPROF_PROF_SERIES_SIZE];
};

/* One PROF_XXX directory and what went into it. */
struct drain_route {
	uint32_t pid;
	int dir_fd; /* prof_dir, open (ours: closed at stop); -1 for none */
	char prof_dir[PATH_MAX];
	struct npuprof_drain_stats st;
	struct slice_age age;  /* its closed slices, for --storage-limit */
	uint64_t closed_bytes; /* bytes of its closed slices still on disk */
};

struct npuprof_drain {
	struct drain_route *routes; /* one without config routes: pid unused */
	unsigned int nr_routes;
	unsigned int cap_routes;
	int (*new_route)(void *ctx, uint32_t pid, char *dir, size_t size, int *dir_fd);
	void *route_ctx;
	bool by_pid;		    /* route by the records' pid */
	unsigned int last_route;    /* route of the last record: a lookup cache */
	uint64_t slice_bytes;
	uint64_t storage_limit;
	int zstd_level;
	uint64_t frame_ns; /* a frame closes at a tick this long after its first record */
	uint64_t tick_ns;  /* the read timer's period */
	struct io_engine *io;
	struct drain_src *srcs;
	unsigned int nr_srcs;
	int stop_fd;
	struct npuprof_stream_owners *owners; /* config.owners, NULL: none */
	uint64_t owner_reload_ns[NPUPROF_DRAIN_MAX_DEVICES]; /* last re-read per device */
	struct npuprof_rec_task *unowned; /* pid-less records waiting for an owner */
	size_t nr_unowned, cap_unowned;
	pthread_t thread;
	bool stopping;
	bool stop_armed;  /* the stop eventfd's POLL_ADD is in flight */
	bool timer_armed; /* the read timer is in flight */
	bool timer_fired;
	struct drain_series *series; /* host first once it exists */
	struct npuprof_drain_stats st; /* totals, filled in as records pass */
	struct drain_src *cur_src;     /* the source being read */
	uint64_t read;		       /* records read out of every source */
	struct npuprof_loss *cpu_loss; /* config.cpu_loss, nr_cpu_loss entries */
	unsigned int nr_cpu_loss;
	struct npuprof_drain_ring *rings; /* config.rings, nr_rings entries */
	unsigned int nr_rings;
};

/* @n records of the ring of @cpu lost for @cause, in @route's directory. */
static void drain_lose(struct npuprof_drain *d, int route, uint32_t cpu,
		       enum npuprof_loss_cause cause, uint64_t n)
{
	d->st.loss.n[cause] += n;
	if (route >= 0)
		d->routes[route].st.loss.n[cause] += n;
	if (cpu < d->nr_cpu_loss)
		d->cpu_loss[cpu].n[cause] += n;
}

/*
 * cfg.lost of a series' writer: taken records that never reached the
 * disk.  They were counted as saved when taken; now they are lost.
 */
static void series_lost(void *ctx, uint32_t cpu, uint16_t type, uint64_t records)
{
	struct drain_series *s = ctx;
	struct npuprof_drain_stats *st = &s->d->routes[s->route].st;

	drain_lose(s->d, s->route, cpu, NPUPROF_LOSS_WRITE_ERROR, records);
	for (int i = 0; i < 2; i++, st = &s->d->st) {
		st->records -= records;
		st->api_records -= type == NPUPROF_REC_API ? records : 0;
		st->task_records -= type == NPUPROF_REC_TASK ? records : 0;
		if (type == NPUPROF_REC_TASK && s->device >= 0 &&
		    s->device < NPUPROF_DRAIN_MAX_DEVICES)
			st->device_records[s->device] -= records;
	}
}

/*
 * Remove slice @idx of @s and its .done file (both made by slice_writer.c).
 * The slice first: when it cannot go, it stays whole, .done and all.  (A
 * crash between the two leaves a .done without its slice, which readers
 * skip.)  Return: 0; -errno of removing the slice, said in a warning.
 */
static int series_unlink_slice(const struct drain_series *s, unsigned int idx)
{
	char name[NAME_MAX + 1], done[NAME_MAX + 8];
	int err;

	if (npuprof_slice_name(name, sizeof(name), s->name, idx) ||
	    npuprof_slice_done_name(done, sizeof(done), name))
		return -ENAMETOOLONG;
	if (unlinkat(s->dir_fd, name, 0)) {
		err = -errno;
		npuprof_warn("drain: cannot remove %s/%s under --storage-limit: %s; its series keeps this and every later slice, so the data may pass the limit (check the directory's permissions and mounts)",
			     s->dir, name, strerror(-err));
		return err;
	}
	unlinkat(s->dir_fd, done, 0);
	return 0;
}

/*
 * --storage-limit: while the route's slices, its open ones counted as
 * full, pass the limit, remove the oldest closed slices (slice_age.h).
 * A series being closed at stop is no longer in d->series: its last
 * slice is then counted as it is.  A slice that cannot be removed stays
 * counted, and its series is aged no more (said once, in the warning):
 * going on with its later slices would leave a gap in the series.
 */
static void route_age(struct npuprof_drain *d, int route)
{
	struct drain_route *r = &d->routes[route];
	uint64_t open = 0;
	struct slice_age_item it;

	for (const struct drain_series *s = d->series; s; s = s->next)
		if (s->route == route && s->w)
			open += d->slice_bytes;
	while (slice_age_next(&r->age, r->closed_bytes + open, &it)) {
		struct drain_series *s = (struct drain_series *)it.series;

		if (series_unlink_slice(s, it.idx)) {
			s->age_stuck = true;
			slice_age_kept(&r->age, &it);
			continue;
		}
		r->closed_bytes -= it.bytes;
	}
	r->st.aged_slices = r->age.slices;
	r->st.aged_bytes = r->age.bytes;
	r->st.aged_records = r->age.records;
}

/* cfg.closed of a series' writer: a slice is whole on disk. */
static void series_closed(void *ctx, unsigned int idx, uint64_t bytes, uint64_t records)
{
	struct drain_series *s = ctx;
	struct drain_route *r = &s->d->routes[s->route];
	struct slice_age_item it = { .series = s, .idx = idx, .bytes = bytes, .records = records };

	if (!r->age.limit)
		return;
	r->closed_bytes += bytes;
	if (s->age_stuck)
		return; /* it stays, counted */
	if (slice_age_closed(&r->age, &it))
		return; /* out of memory: this slice stays */
	route_age(s->d, s->route);
}

/*
 * The series' data directory (npuprof/prof_layout.h), created as needed below
 * the route's directory fd, never through a symlink (npuprof/prof_fs.h).
 * Return: the data directory's fd, or -errno.
 */
static int series_make_dirs(struct npuprof_drain *d, struct drain_series *s)
{
	const struct drain_route *r = &d->routes[s->route];
	char rel[NPUPROF_PROF_SERIES_SIZE];
	int err = npuprof_series_dir(rel, sizeof(rel), s->device);

	if (err)
		return err;
	if (snprintf(s->dir, sizeof(s->dir), "%s/%s", r->prof_dir, rel) >= (int)sizeof(s->dir))
		return -ENAMETOOLONG;
	return npuprof_prof_mkdirs(r->dir_fd, rel);
}

static struct drain_series *series_create(struct npuprof_drain *d, int route, long device)
{
	struct drain_series *s = calloc(1, sizeof(*s));
	struct slice_writer_cfg cfg = {
		.slice_bytes = d->slice_bytes,
		.zstd_level = d->zstd_level,
		.source = device < 0 ? NPUPROF_SRC_BPF : NPUPROF_SRC_KMOD,
		.device = (int)device,
		.lost = series_lost,
		.closed = series_closed,
	};
	int err, fd;

	if (!s)
		return NULL;
	cfg.lost_ctx = s;
	s->d = d;
	s->route = route;
	s->device = device;
	cfg.dir = s->dir;
	cfg.series = s->name;
	fd = npuprof_series_name(s->name, sizeof(s->name), device);
	fd = fd < 0 ? fd : series_make_dirs(d, s);
	if (fd >= 0 && device >= 0 && device < NPUPROF_DRAIN_MAX_DEVICES) {
		d->routes[route].st.devices |= 1ULL << device;
		d->st.devices |= 1ULL << device;
	}
	err = fd < 0 ? fd : slice_writer_open_at(d->io, &cfg, fd, &s->w);
	s->dir_fd = err ? -1 : fd;
	if (err && fd >= 0)
		close(fd);
	if (err) {
		npuprof_err("drain: cannot create %s for %s: %s; its records are dropped", s->dir,
			    s->name, strerror(-err));
		s->reported = true;
		if (!d->st.write_error)
			d->st.write_error = err;
		if (!d->routes[route].st.write_error)
			d->routes[route].st.write_error = err;
	}
	s->next = d->series;
	d->series = s;
	return s;
}

static struct drain_series *series_find(struct npuprof_drain *d, int route, long device)
{
	for (struct drain_series *s = d->series; s; s = s->next)
		if (s->device == device && s->route == route)
			return s;
	return series_create(d, route, device);
}

/*
 * A new pid of a followed job: ask the session for its directory.  A pid
 * it refused is remembered as a route without a directory (prof_dir ""),
 * so it is asked once and its records count as foreign.
 */
static int add_route(struct npuprof_drain *d, uint32_t pid)
{
	struct drain_route *r;
	int fd = -1;

	if (!d->new_route || d->nr_routes == d->cap_routes)
		return -1;
	r = &d->routes[d->nr_routes];
	memset(r, 0, sizeof(*r));
	r->pid = pid;
	r->dir_fd = -1;
	r->age.limit = d->storage_limit;
	if (d->new_route(d->route_ctx, pid, r->prof_dir, sizeof(r->prof_dir), &fd) ||
	    (r->dir_fd = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1)) < 0)
		r->prof_dir[0] = '\0';
	d->last_route = d->nr_routes++;
	return r->prof_dir[0] ? (int)d->last_route : -1;
}

/* The route of a record: by its pid when routing, else the one; -1 for none. */
static int route_of(struct npuprof_drain *d, const struct npuprof_rec_hdr *rec)
{
	uint32_t pid;

	if (!d->by_pid)
		return 0;
	if (rec->type == NPUPROF_REC_API && rec->size >= sizeof(struct npuprof_rec_api))
		pid = ((const struct npuprof_rec_api *)rec)->pid;
	else if (rec->type == NPUPROF_REC_TASK && rec->size >= sizeof(struct npuprof_rec_task))
		pid = ((const struct npuprof_rec_task *)rec)->pid;
	else
		return -1;
	if (!pid && rec->type == NPUPROF_REC_TASK) {
		/* a device's task of no known process: with the first that has a directory */
		for (unsigned int i = 0; i < d->nr_routes; i++)
			if (d->routes[i].prof_dir[0])
				return (int)i;
		return -1;
	}
	if (d->nr_routes && d->routes[d->last_route].pid == pid)
		return (int)d->last_route;
	for (unsigned int i = 0; i < d->nr_routes; i++) {
		if (d->routes[i].pid == pid) {
			d->last_route = i;
			return (int)i;
		}
	}
	return add_route(d, pid);
}

/* Return: 0 when the record went into the series' open frame, else -errno. */
static int series_append(struct drain_series *s, const struct npuprof_rec_hdr *rec)
{
	int err;

	if (!s)
		return -ENOMEM;
	if (!s->w)
		return -ENODEV; /* its directory or writer could not be made */
	err = slice_writer_append(s->w, rec);
	if (err && !s->reported) {
		npuprof_err("drain: writing %s/%s failed: %s; later records of it are dropped",
			    s->dir, s->name, strerror(-err));
		s->reported = true;
	}
	return err;
}

/*
 * The owner of (@device, @stream) from config.owners, re-reading the
 * driver's stream view on a miss, at most every
 * NPUPROF_DRAIN_OWNER_RELOAD_MS per device.  0 when still unknown.
 */
static uint32_t drain_stream_owner(struct npuprof_drain *d, uint32_t device, uint32_t stream)
{
	uint32_t pid = npuprof_stream_owners_pid(d->owners, (int)device, stream);
	uint64_t now;

	if (pid || device >= NPUPROF_DRAIN_MAX_DEVICES)
		return pid;
	now = npuprof_mono_ns();
	if (d->owner_reload_ns[device] &&
	    now - d->owner_reload_ns[device] < NPUPROF_DRAIN_OWNER_RELOAD_MS * 1000000ULL)
		return 0;
	d->owner_reload_ns[device] = now;
	if (npuprof_stream_owners_load(d->owners, (int)device) < 0)
		return 0;
	return npuprof_stream_owners_pid(d->owners, (int)device, stream);
}

/* Most pid-less records held back at once while their owner is unknown. */
#define DRAIN_MAX_UNOWNED 65536

/*
 * Hold back a pid-less record whose stream owner is unknown yet: a record
 * with a pid read later (another CPU's ring, the other source, the stream
 * view re-read) may still name it.  Return: false when there is no room.
 */
static bool drain_hold_unowned(struct npuprof_drain *d, const struct npuprof_rec_task *t)
{
	struct npuprof_rec_task *p;
	size_t cap;

	if (d->nr_unowned == d->cap_unowned) {
		if (d->cap_unowned >= DRAIN_MAX_UNOWNED)
			return false;
		cap = d->cap_unowned ? 2 * d->cap_unowned : 256;
		p = realloc(d->unowned, cap * sizeof(*p));
		if (!p)
			return false;
		d->unowned = p;
		d->cap_unowned = cap;
	}
	d->unowned[d->nr_unowned++] = *t;
	return true;
}

/*
 * Attribution, before routing (config.owners): a task record without a
 * pid gets its stream owner's, in the copy @buf; a task record with a pid
 * of its own (the submitting thread's) teaches the table.  The device
 * log's pid is not its own but the reader's guess from the driver's
 * stream view, which it re-reads only on a miss: a stream id another
 * process took since keeps the old owner there.  So the table (which the
 * submits keep current) overrides that guess, and the guess teaches
 * nothing.  Return: the record to route (@rec or @buf), or NULL for a
 * pid-less record whose owner is not known yet, held back
 * (drain_retry_unowned()) or, without room, counted unattributed.
 */
static const struct npuprof_rec_hdr *drain_attribute(struct npuprof_drain *d,
						     const struct npuprof_rec_hdr *rec,
						     struct npuprof_rec_task *buf)
{
	const struct npuprof_rec_task *t = (const struct npuprof_rec_task *)rec;
	bool guessed = d->cur_src && d->cur_src->s.source == NPUPROF_SRC_DEVLOG;
	uint32_t pid;

	if (!d->owners || rec->type != NPUPROF_REC_TASK || rec->size != sizeof(*t))
		return rec;
	if (t->pid && guessed) {
		pid = npuprof_stream_owners_pid(d->owners, (int)t->device, t->stream);
		if (!pid || pid == t->pid)
			return rec;
		*buf = *t;
		buf->pid = pid;
		return &buf->hdr;
	}
	if (t->pid) {
		npuprof_stream_owners_set(d->owners, (int)t->device, t->stream, t->pid);
		return rec;
	}
	pid = drain_stream_owner(d, t->device, t->stream);
	if (!pid) {
		if (drain_hold_unowned(d, t))
			return NULL;
		/* no room to wait for its owner: kept as a device-only task */
		d->st.unattributed++;
		return rec;
	}
	*buf = *t;
	buf->pid = pid;
	d->st.attributed++;
	return &buf->hdr;
}

static void drain_route_rec(struct npuprof_drain *d, const struct npuprof_rec_hdr *rec);

/*
 * The held-back records whose owner is known now (the stream view re-read
 * once per device and pass) go to their routes; with @final (the drain
 * stops) the rest are counted unattributed and dropped.
 */
static void drain_retry_unowned(struct npuprof_drain *d, bool final)
{
	size_t i, kept = 0;
	uint32_t pid;

	if (!d->nr_unowned)
		return;
	memset(d->owner_reload_ns, 0, sizeof(d->owner_reload_ns)); /* re-read once */
	for (i = 0; i < d->nr_unowned; i++) {
		struct npuprof_rec_task *t = &d->unowned[i];

		pid = drain_stream_owner(d, t->device, t->stream);
		if (pid) {
			t->pid = pid;
			d->st.attributed++;
			drain_route_rec(d, &t->hdr);
		} else if (final) {
			/* kept as a device-only task (route_of()), and counted */
			d->st.unattributed++;
			drain_route_rec(d, &t->hdr);
		} else {
			d->unowned[kept++] = *t;
		}
	}
	d->nr_unowned = kept;
}

/*
 * Record callback of every source.  Never fails: a series that cannot be
 * written drops its records (counted in st.dropped, never in st.records),
 * and stopping the ring read would only turn that into producer losses on
 * every series.
 */
static int drain_route(void *ctx, const struct npuprof_rec_hdr *rec)
{
	struct npuprof_drain *d = ctx;
	struct npuprof_rec_task owned;

	d->read++;
	if (d->cur_src && rec->cpu < d->cur_src->s.nr_cpus)
		d->cur_src->read[rec->cpu]++;
	rec = drain_attribute(d, rec, &owned);
	if (rec)
		drain_route_rec(d, rec);
	return 0;
}

/* A record read (and counted as read) into its route's series. */
static void drain_route_rec(struct npuprof_drain *d, const struct npuprof_rec_hdr *rec)
{
	bool task = rec->type == NPUPROF_REC_TASK && rec->size >= sizeof(struct npuprof_rec_task);
	/* Anything but a device task goes with the host data. */
	long device = task ? (long)((const struct npuprof_rec_task *)rec)->device : -1;
	struct npuprof_drain_stats *rst;
	int route = route_of(d, rec);
	/* the CPU a loss of this record counts on: none for a device's ring */
	uint32_t cpu = d->cur_src && d->cur_src->s.by_device ? UINT32_MAX : rec->cpu;

	if (route < 0 || !d->routes[route].prof_dir[0]) {
		d->st.dropped++;
		d->st.foreign++;
		/* a process of a followed job that got no directory: its
		 * records were ours to save, so they are lost */
		if (d->new_route) {
			d->st.unrouted++;
			drain_lose(d, -1, cpu, NPUPROF_LOSS_WRITE_ERROR, 1);
		}
		return;
	}
	rst = &d->routes[route].st;
	if (series_append(series_find(d, route, device), rec)) {
		d->st.dropped++;
		rst->dropped++;
		drain_lose(d, route, cpu, NPUPROF_LOSS_WRITE_ERROR, 1);
		return;
	}
	for (int i = 0; i < 2; i++, rst = &d->st) {
		rst->records++;
		rst->raw_bytes += rec->size;
		rst->api_records += rec->type == NPUPROF_REC_API;
		rst->task_records += task;
		if (task && device < NPUPROF_DRAIN_MAX_DEVICES)
			rst->device_records[device]++;
	}
}

/* Return: true when the poll was queued; false when there was no room. */
static bool drain_arm_poll(struct npuprof_drain *d, int fd, uint64_t ud)
{
	return !io_engine_poll(d->io, fd, ud);
}

static void drain_arm_timer(struct npuprof_drain *d)
{
	if (!d->timer_armed) /* else drain_wait() retries soon */
		d->timer_armed = !io_engine_timeout(d->io, d->tick_ns, DRAIN_UD_TIMER);
}

static void drain_arm_stop(struct npuprof_drain *d)
{
	if (!d->stop_armed)
		d->stop_armed = drain_arm_poll(d, d->stop_fd, DRAIN_UD_STOP);
}

/* Armed only once a POLL_ADD was really queued; else drain_wait() retries. */
static void drain_arm_src(struct npuprof_drain *d, struct drain_src *src)
{
	if (src->armed || src->dead || src->s.fd < 0)
		return;
	src->armed = drain_arm_poll(d, src->s.fd, (uint64_t)(uintptr_t)src);
}

/* True while a poll or the timer still waits for room in the engine. */
static bool drain_needs_arming(const struct npuprof_drain *d)
{
	if (!d->timer_armed || !d->stop_armed)
		return true;
	for (unsigned int i = 0; i < d->nr_srcs; i++) {
		const struct drain_src *src = &d->srcs[i];

		if (!src->armed && !src->dead && src->s.fd >= 0)
			return true;
	}
	return false;
}

static void drain_arm_all(struct npuprof_drain *d)
{
	for (unsigned int i = 0; i < d->nr_srcs; i++)
		drain_arm_src(d, &d->srcs[i]);
	drain_arm_timer(d);
	drain_arm_stop(d);
}

/*
 * Submit and wait for a completion.  While something could not be armed
 * (no room was left), wait at most DRAIN_REARM_NS so the loop retries
 * soon instead of sleeping on a poll that was never queued.
 */
static int drain_wait(struct npuprof_drain *d)
{
	int err = io_engine_wait(d->io, drain_needs_arming(d) ? DRAIN_REARM_NS : -1);

	return err == -ETIME ? 0 : err;
}

/*
 * Fold new skipped bytes of @src's rings into the totals and warn about
 * them, naming the CPU and the bytes.  Warnings are at most one a second
 * per source; bytes not named yet are named by the next one, and @force
 * (at stop) names all.
 */
static void drain_check_skipped(struct npuprof_drain *d, struct drain_src *src, bool force)
{
	uint64_t now = npuprof_mono_ns();
	bool may_warn = force || now - src->skip_warn_ns >= DRAIN_SKIP_WARN_NS;

	for (unsigned int cpu = 0; src->s.skipped && cpu < src->s.nr_cpus; cpu++) {
		uint64_t bytes, *seen = &src->skip_seen[cpu], *warned = &src->skip_warned[cpu];

		if (!src->s.skipped(src->s.obj, cpu, &bytes) && bytes > *seen) {
			d->st.skipped_bytes += bytes - *seen;
			*seen = bytes;
		}
		if (!may_warn || *seen == *warned)
			continue;
		npuprof_warn("drain: the %s ring buffer of CPU %u held a corrupt record; skipped "
			     "%llu bytes of its records (%llu in all); the trace misses them",
			     src->s.name, cpu, (unsigned long long)(*seen - *warned),
			     (unsigned long long)*seen);
		*warned = *seen;
		src->skip_warn_ns = now;
	}
}

static long drain_read_src(struct npuprof_drain *d, struct drain_src *src)
{
	long n;

	d->cur_src = src;
	n = src->s.consume(src->s.obj, drain_route, d);
	d->cur_src = NULL;

	if (n == -EBADMSG && src->s.skipped) {
		drain_check_skipped(d, src, false);
		return n;
	}
	if (n < 0 && !src->reported) {
		npuprof_err("drain: reading the %s ring buffers failed: %s; the trace may miss "
			    "records of it",
			    src->s.name, strerror((int)-n));
		src->reported = true;
	}
	return n;
}

/* One completion: a slice write, the timer, the stop request or a source poll. */
static void drain_handle_cqe(struct npuprof_drain *d, const struct io_engine_cqe *cqe)
{
	uint64_t ud = cqe->user_data;
	struct drain_src *src;

	if (slice_writer_handle_cqe(cqe))
		return;
	if (ud == DRAIN_UD_TIMER) {
		d->timer_armed = false;
		d->timer_fired = true;
		return;
	}
	if (ud == DRAIN_UD_STOP) {
		d->stop_armed = false;
		d->stopping = true;
		return;
	}
	src = (struct drain_src *)(uintptr_t)ud;
	src->armed = false;
	src->ready = true;
	if (cqe->res < 0 && !src->dead) {
		npuprof_warn("drain: cannot poll the %s ring buffers: %s; reading them every "
			     "read timer tick instead",
			     src->s.name, strerror(-cqe->res));
		src->dead = true;
	}
}

static void drain_reap(struct npuprof_drain *d)
{
	struct io_engine_cqe cqe;

	while (io_engine_peek(d->io, &cqe))
		drain_handle_cqe(d, &cqe);
}

/* Close the frames whose oldest record is frame_ns old (see drain_init()). */
static void drain_flush_aged(struct npuprof_drain *d)
{
	uint64_t now = npuprof_mono_ns();

	for (struct drain_series *s = d->series; s; s = s->next) {
		if (s->w) /* an error stays in the writer */
			slice_writer_flush_aged(s->w, now, d->frame_ns);
	}
}

/*
 * Read the sources that are ready (all of them on a timer tick), then arm
 * every poll and the timer that are not in flight, including those an
 * earlier pass found no room for.
 */
static void drain_service(struct npuprof_drain *d)
{
	bool tick = d->timer_fired;

	for (unsigned int i = 0; i < d->nr_srcs; i++) {
		struct drain_src *src = &d->srcs[i];

		if (!src->ready && !tick)
			continue;
		src->ready = false;
		drain_read_src(d, src);
	}
	if (tick) {
		d->timer_fired = false;
		drain_retry_unowned(d, false);
		drain_flush_aged(d);
	}
	drain_arm_all(d);
}

/*
 * The losses one ring's counters tell (@written, @lost since the enable):
 * ring full, and records it accepted that were not read out of it.  They
 * belong to the session's rings, so every route counts them.
 */
static void drain_count_ring(struct npuprof_drain *d, const struct drain_src *src,
			     unsigned int cpu, uint64_t written, uint64_t lost)
{
	uint64_t unread = written > src->read[cpu] ? written - src->read[cpu] : 0;
	uint32_t on = src->s.by_device ? UINT32_MAX : cpu; /* no CPU's loss */

	drain_lose(d, -1, on, NPUPROF_LOSS_RING_FULL, lost);
	drain_lose(d, -1, on, NPUPROF_LOSS_DECODE_ERROR, unread);
	for (unsigned int r = 0; r < d->nr_routes; r++) {
		d->routes[r].st.loss.n[NPUPROF_LOSS_RING_FULL] += lost;
		d->routes[r].st.loss.n[NPUPROF_LOSS_DECODE_ERROR] += unread;
	}
}

/* The counters of one ring into config.rings, while there is room. */
static void drain_note_ring(struct npuprof_drain *d, const struct drain_src *src,
			    unsigned int cpu, uint64_t written, uint64_t lost)
{
	if (d->st.nr_rings >= d->nr_rings)
		return;
	d->rings[d->st.nr_rings++] = (struct npuprof_drain_ring){
		.name = src->s.name,
		.source = src->s.source,
		.cpu = cpu,
		.written = written,
		.lost = lost,
		.read = src->read[cpu],
	};
}

/* One NPUPROF_REC_LOST per CPU ring of every source, into the host series. */
static void drain_write_lost(struct npuprof_drain *d)
{
	for (unsigned int i = 0; i < d->nr_srcs; i++) {
		struct drain_src *src = &d->srcs[i];

		for (unsigned int cpu = 0; src->s.stats && cpu < src->s.nr_cpus; cpu++) {
			struct npuprof_rec_lost rec = {
				.hdr = { .type = NPUPROF_REC_LOST, .size = sizeof(rec), .cpu = cpu },
				.source = (uint32_t)src->s.source,
				.cpu = cpu,
			};
			uint64_t written = 0, lost = 0;
			int err = src->s.stats(src->s.obj, cpu, &written, &lost);

			if (err == -ENXIO)
				continue; /* no ring on that CPU */
			if (err) {
				npuprof_warn("drain: no counters of the %s ring buffer of CPU %u: %s",
					     src->s.name, cpu, strerror(-err));
				continue;
			}
			rec.hdr.ts = npuprof_mono_ns();
			rec.written = written;
			rec.lost = lost;
			drain_note_ring(d, src, cpu, written, lost);
			d->st.lost += rec.lost;
			drain_count_ring(d, src, cpu, written, lost);
			for (unsigned int r = 0; r < d->nr_routes; r++) {
				if (!d->routes[r].prof_dir[0])
					continue; /* a pid refused a directory */
				d->routes[r].st.lost += rec.lost;
				series_append(series_find(d, (int)r, -1), &rec.hdr);
			}
		}
	}
}

/*
 * Read until every source is empty (or still busy after many rounds).
 * Records are counted as they pass the router: a source that skipped a
 * ring returns -EBADMSG, not a count, yet its other rings were read.
 */
static void drain_read_rest(struct npuprof_drain *d)
{
	int round;

	for (round = 0; round < DRAIN_FINAL_ROUNDS; round++) {
		uint64_t before = d->read;

		for (unsigned int i = 0; i < d->nr_srcs; i++)
			drain_read_src(d, &d->srcs[i]);
		if (d->read == before)
			break;
	}
	if (round == DRAIN_FINAL_ROUNDS)
		npuprof_warn("drain: sources still producing at stop; disable them before "
			     "stopping");
	for (unsigned int i = 0; i < d->nr_srcs; i++)
		drain_check_skipped(d, &d->srcs[i], true);
}

/*
 * Close every series: end frames, wait for the writes, write .done files.
 * Ageing may still remove slices of series closed before (their last
 * slices stay), so all are freed at the end.
 */
static void drain_close_series(struct npuprof_drain *d)
{
	struct drain_series *closed = NULL;

	while (d->series) {
		struct drain_series *s = d->series;
		struct slice_writer_stats ws;

		d->series = s->next;
		s->next = closed;
		closed = s;
		if (s->w) {
			int err = slice_writer_close(s->w, &ws);

			if (err && !d->st.write_error)
				d->st.write_error = err;
			if (err && !d->routes[s->route].st.write_error)
				d->routes[s->route].st.write_error = err;
			if (err && !s->reported)
				npuprof_err("drain: writing %s/%s failed: %s", s->dir, s->name,
					    strerror(-err));
			d->st.file_bytes += ws.file_bytes;
			d->routes[s->route].st.file_bytes += ws.file_bytes;
		}
	}
	while (closed) {
		struct drain_series *s = closed;

		closed = s->next;
		if (s->dir_fd >= 0)
			close(s->dir_fd);
		free(s);
	}
	for (unsigned int i = 0; i < d->nr_routes; i++) {
		d->st.aged_slices += d->routes[i].st.aged_slices;
		d->st.aged_bytes += d->routes[i].st.aged_bytes;
		d->st.aged_records += d->routes[i].st.aged_records;
	}
}

static void *drain_thread(void *arg)
{
	struct npuprof_drain *d = arg;
	sigset_t all;

	/* Signals are the application's, handled by its own threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	drain_arm_all(d);
	while (!d->stopping) {
		int err = drain_wait(d);

		if (err < 0 && err != -EINTR && err != -EBUSY) {
			npuprof_err("drain: waiting for the %s writer's completions failed: %s; stopping the drain",
				    npuprof_writer_name(d->st.writer), strerror(-err));
			break;
		}
		drain_reap(d);
		drain_service(d);
	}
	drain_read_rest(d);
	drain_retry_unowned(d, true);
	drain_write_lost(d);
	drain_close_series(d);
	return NULL;
}

/*
 * The routes of @cfg, or one route for cfg->prof_dir; each dir must exist.
 * Each route holds its directory open: a dup of the caller's fd, else
 * opened by its path.
 */
static int drain_init_routes(struct npuprof_drain *d, const struct npuprof_drain_config *cfg)
{
	unsigned int n = cfg->nr_routes ? cfg->nr_routes : 1;

	if (n > NPUPROF_DRAIN_MAX_ROUTES)
		return -E2BIG;
	d->cap_routes = cfg->new_route ? NPUPROF_DRAIN_MAX_ROUTES : n;
	d->routes = calloc(d->cap_routes, sizeof(*d->routes));
	if (!d->routes)
		return -ENOMEM;
	d->nr_routes = n;
	d->by_pid = cfg->nr_routes > 0 || cfg->new_route;
	d->new_route = cfg->new_route;
	d->route_ctx = cfg->route_ctx;
	if (cfg->new_route && !cfg->nr_routes)
		d->nr_routes = n = 0;
	for (unsigned int i = 0; i < d->cap_routes; i++) {
		d->routes[i].dir_fd = -1;
		d->routes[i].age.limit = cfg->storage_limit;
	}
	for (unsigned int i = 0; i < n; i++) {
		const char *dir = cfg->nr_routes ? cfg->routes[i].prof_dir : cfg->prof_dir;
		int fd = cfg->nr_routes && cfg->routes[i].dir_fd > STDERR_FILENO ? cfg->routes[i].dir_fd : -1;

		if (!dir)
			return -EINVAL;
		if (snprintf(d->routes[i].prof_dir, sizeof(d->routes[i].prof_dir), "%s", dir) >=
		    (int)sizeof(d->routes[i].prof_dir))
			return -ENAMETOOLONG;
		fd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1)
			     : open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		d->routes[i].dir_fd = fd;
		d->routes[i].pid = cfg->nr_routes ? cfg->routes[i].pid : 0;
	}
	return 0;
}

static void drain_free_routes(struct npuprof_drain *d)
{
	for (unsigned int i = 0; d->routes && i < d->cap_routes; i++) {
		if (d->routes[i].dir_fd >= 0)
			close(d->routes[i].dir_fd);
		slice_age_free(&d->routes[i].age);
	}
	free(d->routes);
	free(d->unowned);
}

static int drain_init(struct npuprof_drain *d, const struct npuprof_drain_config *cfg,
		      const struct npuprof_drain_source *srcs, unsigned int n)
{
	unsigned int ms = cfg->flush_ms ? cfg->flush_ms : 200;
	int err = drain_init_routes(d, cfg);

	if (err)
		return err;
	d->owners = cfg->owners;
	d->slice_bytes = cfg->slice_bytes ? cfg->slice_bytes : 16ULL << 20;
	d->storage_limit = cfg->storage_limit;
	d->zstd_level = cfg->zstd_level ? cfg->zstd_level : DRAIN_ZSTD_LEVEL;
	/*
	 * Frames grow for up to frame_ms while records come slowly: on the
	 * demo workload (bench P5) a frame closed every 200 ms held ~1400
	 * task records and a 1 s frame takes about 6% fewer bytes per record.
	 * A fast source still fills a block and closes it at once.
	 */
	d->frame_ns = (cfg->frame_ms ? cfg->frame_ms : DRAIN_FRAME_MS) * 1000000ULL;
	if (d->frame_ns < ms * 1000000ULL)
		d->frame_ns = ms * 1000000ULL;
	d->tick_ns = ms * 1000000ULL;
	d->cpu_loss = cfg->cpu_loss;
	d->nr_cpu_loss = cfg->cpu_loss ? cfg->nr_cpu_loss : 0;
	d->rings = cfg->rings;
	d->nr_rings = cfg->rings ? cfg->nr_rings : 0;
	for (unsigned int cpu = 0; cpu < d->nr_cpu_loss; cpu++)
		d->cpu_loss[cpu] = (struct npuprof_loss){ .cpu = cpu };
	d->srcs = calloc(n ? n : 1, sizeof(*d->srcs));
	if (!d->srcs)
		return -ENOMEM;
	for (unsigned int i = 0; i < n; i++) {
		struct drain_src *src = &d->srcs[i];

		d->nr_srcs = i + 1; /* what drain_free_srcs() must free */
		src->s = srcs[i];
		src->read = calloc(src->s.nr_cpus ? src->s.nr_cpus : 1, sizeof(uint64_t));
		if (!src->read)
			return -ENOMEM;
		if (!src->s.skipped)
			continue;
		src->skip_seen = calloc(src->s.nr_cpus ? src->s.nr_cpus : 1, sizeof(uint64_t));
		src->skip_warned = calloc(src->s.nr_cpus ? src->s.nr_cpus : 1, sizeof(uint64_t));
		if (!src->skip_seen || !src->skip_warned)
			return -ENOMEM;
		/* a source's count runs since it was opened: earlier drains
		 * (earlier start/stop windows) already reported what it holds */
		for (unsigned int cpu = 0; cpu < src->s.nr_cpus; cpu++) {
			uint64_t bytes;

			if (!src->s.skipped(src->s.obj, cpu, &bytes))
				src->skip_seen[cpu] = src->skip_warned[cpu] = bytes;
		}
	}
	return 0;
}

static void drain_free_srcs(struct npuprof_drain *d)
{
	for (unsigned int i = 0; i < d->nr_srcs; i++) {
		free(d->srcs[i].skip_seen);
		free(d->srcs[i].skip_warned);
		free(d->srcs[i].read);
	}
	free(d->srcs);
}

/*
 * io_uring was refused at a start in AUTO although it could be set up
 * before (msprof's preflight said nothing): said for each window it
 * happens, as a warning, since it was not expected.
 */
static void drain_say_fallback(int err)
{
	struct npuprof_writer_probe p = { .writer = NPUPROF_WRITER_PWRITE, .error = err };
	char words[512];

	npuprof_writer_classify(&p, err);
	npuprof_warn("drain: %s", npuprof_writer_words(&p, words, sizeof(words)));
}

/*
 * The I/O engine for @writer (enum npuprof_writer): io_uring, pwrite, or
 * for AUTO io_uring unless it cannot be set up, then pwrite, with the
 * cause kept in the stats (stats.writer, stats.uring_error) and said once.
 */
static int drain_open_engine(struct npuprof_drain *d, int writer, unsigned int entries)
{
	int env = npuprof_writer_env(), err;

	if (writer == NPUPROF_WRITER_AUTO && env > 0)
		writer = env;
	if (writer != NPUPROF_WRITER_PWRITE) {
		err = io_engine_open(IO_ENGINE_URING, entries, &d->io);
		if (!err || writer == NPUPROF_WRITER_IO_URING) {
			d->st.writer = NPUPROF_WRITER_IO_URING;
			return err;
		}
		drain_say_fallback(err);
	}
	d->st.writer = NPUPROF_WRITER_PWRITE;
	return io_engine_open(IO_ENGINE_PWRITE, entries, &d->io);
}

int npuprof_drain_start(const struct npuprof_drain_config *cfg,
			const struct npuprof_drain_source *srcs, unsigned int n,
			struct npuprof_drain **out)
{
	struct npuprof_drain *d;
	int err;

	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	err = drain_init(d, cfg, srcs, n);
	if (err)
		goto out_free;
	err = drain_open_engine(d, cfg->writer, NPUPROF_DRAIN_ENGINE_ENTRIES + n);
	if (err)
		goto out_free;
	d->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (d->stop_fd < 0) {
		err = -errno;
		goto out_close_engine;
	}
	err = -pthread_create(&d->thread, NULL, drain_thread, d);
	if (err)
		goto out_close_stop;
	*out = d;
	return 0;

out_close_stop:
	close(d->stop_fd);
out_close_engine:
	io_engine_close(d->io);
out_free:
	if (d->srcs)
		drain_free_srcs(d);
	drain_free_routes(d);
	free(d);
	return err;
}

int npuprof_drain_stop(struct npuprof_drain *d, struct npuprof_drain_stats *st,
		       struct npuprof_drain_stats *route_st)
{
	uint64_t one = 1;
	int err;

	if (write(d->stop_fd, &one, sizeof(one)) != sizeof(one))
		d->stopping = true; /* cannot happen on an eventfd below its limit */
	pthread_join(d->thread, NULL);
	err = d->st.write_error;
	if (st)
		*st = d->st;
	for (unsigned int i = 0; route_st && d->by_pid && i < d->nr_routes; i++) {
		route_st[i] = d->routes[i].st;
		route_st[i].pid = d->routes[i].pid;
	}
	io_engine_close(d->io);
	close(d->stop_fd);
	drain_free_srcs(d);
	drain_free_routes(d);
	free(d);
	return err;
}
