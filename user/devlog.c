// SPDX-License-Identifier: MIT
/*
 * The device-log reader (npuprof/devlog.h): channel 50 of every device of
 * a window, started, read by one thread into an in-process ring, decoded
 * into task records, and stopped again.
 *
 * The ring has one producer at a time (the reader thread; at stop, after
 * that thread is joined, the thread that stops) and one consumer (the
 * drain thread), so two free-running positions suffice: the producer
 * publishes a record by moving head with release order, the consumer
 * frees it by moving tail.  A full ring drops the record and counts it.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/clock.h>
#include <npuprof/drv/ascend_task_type.h>
#include <npuprof/devlog.h>
#include <npuprof/stream_owner.h>

#define DEVLOG_CHANNEL ASCEND_PROF_CHANNEL_STARS_SOC_LOG
#define DEVLOG_SAMPLE_MS 20	       /* the device's delivery period */
#define DEVLOG_POLL_S 1		       /* prof_channel_poll()'s timeout */
#define DEVLOG_READ_BYTES (64u * 1024) /* one prof_channel_read() at most */
#define DEVLOG_RING_RECORDS 65536u
#define DEVLOG_OWNER_RELOAD_NS 100000000ull /* stream file re-read at most every 100 ms */
#define DEVLOG_DRAIN_ROUNDS 1024 /* bound on reads of one channel at stop */

struct devlog_dev {
	struct npuprof_devlog_dev *pub; /* its entry of npuprof_devlog.pub */
	bool started;	    /* prof_drv_start() succeeded, prof_stop() not yet */
	bool have_cnt;	    /* @last_cnt holds a record's count */
	unsigned int last_cnt;
	bool owners_file;   /* the driver's stream file exists */
	uint64_t owners_ns; /* when it was last read */
	uint8_t carry[ASCEND_STARS_LOG_BYTES]; /* a record cut between two reads */
	unsigned int carried;
	/* read by the drain thread while the reader writes */
	uint64_t written;
	uint64_t lost;
};

struct npuprof_devlog {
	const struct npuprof_ascend_hal *hal;
	struct npuprof_stream_owners *owners;
	int expanded;
	int efd;
	unsigned int nr_devs;
	struct devlog_dev devs[NPUPROF_DEVLOG_MAX_DEVICES];
	struct npuprof_devlog_dev pub[NPUPROF_DEVLOG_MAX_DEVICES];
	int slot_of[NPUPROF_DEVLOG_MAX_DEVICES]; /* device id -> index in @devs, -1 */
	unsigned int nr_ring_ids;		   /* highest device id + 1 */
	pthread_t thread;
	bool thread_on;
	int stopping;  /* atomic: the reader thread must return */
	bool stopped;  /* atomic: npuprof_devlog_stop() began */
	bool stop_done; /* atomic: ... and returned */
	struct npuprof_devlog *next_live; /* the atexit list */
	struct npuprof_rec_task *ring;
	uint64_t mask;
	uint64_t win_lo, win_hi; /* atomic: npuprof_devlog_window() */
	uint64_t head; /* atomic: next record to write */
	uint64_t tail; /* atomic: next record to read */
	char proc_root[PATH_MAX];
	uint8_t buf[DEVLOG_READ_BYTES];
};

static const char *const outcome_keys[] = {
	[NPUPROF_DEVLOG_OWNED] = "deviceLog",	  [NPUPROF_DEVLOG_NO_LIBRARY] = "noLibrary",
	[NPUPROF_DEVLOG_NO_CHANNEL] = "noChannel", [NPUPROF_DEVLOG_TAKEN] = "taken",
	[NPUPROF_DEVLOG_CONTAINER] = "container",  [NPUPROF_DEVLOG_NO_CONTEXT] = "noContext",
	[NPUPROF_DEVLOG_FAILED] = "failed",
};

void npuprof_devlog_window(struct npuprof_devlog *l, uint64_t lo_ns, uint64_t hi_ns)
{
	__atomic_store_n(&l->win_hi, hi_ns, __ATOMIC_RELEASE);
	__atomic_store_n(&l->win_lo, lo_ns, __ATOMIC_RELEASE);
}

const char *npuprof_devlog_outcome_key(int outcome)
{
	if (outcome < 0 || outcome >= (int)(sizeof(outcome_keys) / sizeof(outcome_keys[0])))
		return "failed";
	return outcome_keys[outcome];
}

/* ---- the readers still holding channels, for the atexit handler ---- */

static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npuprof_devlog *live;
static bool live_handler;

static void live_exit(void)
{
	for (;;) {
		struct npuprof_devlog *l;

		pthread_mutex_lock(&live_lock);
		l = live;
		pthread_mutex_unlock(&live_lock);
		if (!l)
			return;
		/*
		 * Takes @l off the list; or, when another thread's stop of @l
		 * has begun, returns at once and we come round again until
		 * that stop has released the channel and taken @l off.
		 */
		if (npuprof_devlog_stop(l) == -EINPROGRESS) {
			struct timespec ms = { 0, 1000000L };

			nanosleep(&ms, NULL);
		}
	}
}

static void live_add(struct npuprof_devlog *l)
{
	pthread_mutex_lock(&live_lock);
	if (!live_handler)
		live_handler = !atexit(live_exit);
	l->next_live = live;
	live = l;
	pthread_mutex_unlock(&live_lock);
}

static void live_remove(struct npuprof_devlog *l)
{
	pthread_mutex_lock(&live_lock);
	for (struct npuprof_devlog **p = &live; *p; p = &(*p)->next_live) {
		if (*p == l) {
			*p = l->next_live;
			break;
		}
	}
	pthread_mutex_unlock(&live_lock);
}

/* ---- the ring ---- */

/* Put @rec into the ring, or count it dropped.  Return: true when put. */
static bool ring_put(struct npuprof_devlog *l, struct devlog_dev *dv,
		     const struct npuprof_rec_task *rec)
{
	uint64_t head = __atomic_load_n(&l->head, __ATOMIC_RELAXED);
	uint64_t tail = __atomic_load_n(&l->tail, __ATOMIC_ACQUIRE);

	if (head - tail > l->mask) {
		dv->pub->ring_drops++;
		__atomic_fetch_add(&dv->lost, 1, __ATOMIC_RELAXED);
		return false;
	}
	l->ring[head & l->mask] = *rec;
	__atomic_store_n(&l->head, head + 1, __ATOMIC_RELEASE);
	__atomic_fetch_add(&dv->written, 1, __ATOMIC_RELAXED);
	return true;
}

static void ring_wake(struct npuprof_devlog *l)
{
	uint64_t one = 1;

	(void)!write(l->efd, &one, sizeof(one));
}

static long devlog_consume(void *obj, npuprof_rec_fn fn, void *ctx)
{
	struct npuprof_devlog *l = obj;
	uint64_t v, tail = __atomic_load_n(&l->tail, __ATOMIC_RELAXED), head;
	long n = 0;
	int err;

	(void)!read(l->efd, &v, sizeof(v)); /* readable again at the next write */
	head = __atomic_load_n(&l->head, __ATOMIC_ACQUIRE);
	for (; tail != head; tail++, n++) {
		err = fn(ctx, &l->ring[tail & l->mask].hdr);
		if (err) {
			__atomic_store_n(&l->tail, tail + 1, __ATOMIC_RELEASE);
			return err;
		}
	}
	__atomic_store_n(&l->tail, tail, __ATOMIC_RELEASE);
	return n;
}

static int devlog_stats(void *obj, unsigned int cpu, uint64_t *written, uint64_t *lost)
{
	struct npuprof_devlog *l = obj;
	const struct devlog_dev *dv;

	if (cpu >= NPUPROF_DEVLOG_MAX_DEVICES || l->slot_of[cpu] < 0)
		return -ENXIO;
	dv = &l->devs[l->slot_of[cpu]];
	if (dv->pub->outcome != NPUPROF_DEVLOG_OWNED)
		return -ENXIO;
	*written = __atomic_load_n(&dv->written, __ATOMIC_RELAXED);
	*lost = __atomic_load_n(&dv->lost, __ATOMIC_RELAXED);
	return 0;
}

void npuprof_devlog_source(struct npuprof_devlog *l, struct npuprof_drain_source *src)
{
	*src = (struct npuprof_drain_source){
		.name = "devlog",
		.source = NPUPROF_SRC_DEVLOG,
		.fd = l->efd,
		.nr_cpus = l->nr_ring_ids,
		.obj = l,
		.consume = devlog_consume,
		.stats = devlog_stats,
		.by_device = 1,
	};
}

/* ---- decoding ---- */


/*
 * The owner of @stream on @dv's device: the table as last read, read
 * again on a miss at most every DEVLOG_OWNER_RELOAD_NS (a stream made
 * since); a stream gone keeps the owner the table said.
 */
static uint32_t stream_pid(struct npuprof_devlog *l, struct devlog_dev *dv, uint32_t stream)
{
	uint32_t pid = npuprof_stream_owners_pid(l->owners, dv->pub->device, stream);
	uint64_t now;

	if (pid || !dv->owners_file)
		return pid;
	now = npuprof_mono_ns();
	if (now - dv->owners_ns < DEVLOG_OWNER_RELOAD_NS)
		return 0;
	dv->owners_ns = now;
	if (npuprof_stream_owners_load(l->owners, dv->pub->device) == -ENOENT)
		dv->owners_file = false;
	return npuprof_stream_owners_pid(l->owners, dv->pub->device, stream);
}

/* One 64-byte record of @dv's log into the ring (or counted). */
static void decode_one(struct npuprof_devlog *l, struct devlog_dev *dv, const uint8_t *p)
{
	struct npuprof_rec_task rec = { .hdr = { .type = NPUPROF_REC_TASK, .size = sizeof(rec) } };
	struct ascend_stars_log r;
	unsigned int cnt, func, sqe, missing;

	memcpy(&r, p, sizeof(r));
	cnt = ASCEND_STARS_CNT(&r);
	missing = dv->have_cnt ? (cnt - dv->last_cnt - 1) & 0xf : 0;
	if (missing) {
		dv->pub->gaps += missing;
		__atomic_fetch_add(&dv->lost, missing, __ATOMIC_RELAXED);
	}
	dv->have_cnt = true;
	dv->last_cnt = cnt;
	func = ASCEND_STARS_FUNC(&r);
	sqe = ASCEND_STARS_TASK_TYPE(&r);
	if (func != ASCEND_STARS_FUNC_BEGIN && func != ASCEND_STARS_FUNC_END) {
		dv->pub->skipped++;
		return;
	}
	ascend_stars_log_ids(r.stream, r.task, sqe, l->expanded, &rec.stream, &rec.task_id);
	rec.hdr.cpu = (uint32_t)dv->pub->device;
	rec.hdr.ts = npuprof_ascend_hal_to_host(&dv->pub->start_clock, r.timestamp);
	if (rec.hdr.ts < __atomic_load_n(&l->win_lo, __ATOMIC_ACQUIRE) ||
	    rec.hdr.ts > __atomic_load_n(&l->win_hi, __ATOMIC_ACQUIRE)) {
		dv->pub->outside++;
		return;
	}
	rec.dev_ts = r.timestamp;
	rec.device = (uint32_t)dv->pub->device;
	rec.event = func == ASCEND_STARS_FUNC_BEGIN ? NPUPROF_TASK_START : NPUPROF_TASK_END;
	rec.task_type = npuprof_sqe_task_type(sqe);
	rec.pid = stream_pid(l, dv, rec.stream);
	if (!ring_put(l, dv, &rec))
		return;
	dv->pub->unattributed += !rec.pid;
	dv->pub->begins += func == ASCEND_STARS_FUNC_BEGIN;
	dv->pub->ends += func == ASCEND_STARS_FUNC_END;
}

/* @n bytes of @dv's log; a record cut at the end waits for the next read. */
static void decode(struct npuprof_devlog *l, struct devlog_dev *dv, const uint8_t *p, size_t n)
{
	dv->pub->bytes += n;
	if (dv->carried) {
		size_t take = ASCEND_STARS_LOG_BYTES - dv->carried;

		take = take < n ? take : n;
		memcpy(dv->carry + dv->carried, p, take);
		dv->carried += (unsigned int)take;
		p += take;
		n -= take;
		if (dv->carried < ASCEND_STARS_LOG_BYTES)
			return;
		decode_one(l, dv, dv->carry);
		dv->carried = 0;
	}
	for (; n >= ASCEND_STARS_LOG_BYTES; n -= ASCEND_STARS_LOG_BYTES, p += ASCEND_STARS_LOG_BYTES)
		decode_one(l, dv, p);
	memcpy(dv->carry, p, n);
	dv->carried = (unsigned int)n;
}

/*
 * Read what @dv's channel holds now.  Return: bytes read, or the read's
 * code when it failed at once (ASCEND_PROF_STOPPED: the channel stopped).
 */
static long read_channel(struct npuprof_devlog *l, struct devlog_dev *dv)
{
	long total = 0;
	int rc = 0;

	for (int i = 0; i < DEVLOG_DRAIN_ROUNDS; i++) {
		rc = l->hal->read((__u32)dv->pub->device, DEVLOG_CHANNEL, (char *)l->buf,
				  sizeof(l->buf));
		if (rc <= 0)
			break;
		decode(l, dv, l->buf, (size_t)rc);
		total += rc;
	}
	if (total)
		ring_wake(l);
	return total ? total : rc;
}

static struct devlog_dev *dev_of(struct npuprof_devlog *l, uint32_t device)
{
	if (device >= NPUPROF_DEVLOG_MAX_DEVICES || l->slot_of[device] < 0)
		return NULL;
	return &l->devs[l->slot_of[device]];
}

/* The reader thread: poll the channels, read those with data. */
static void *reader(void *arg)
{
	struct npuprof_devlog *l = arg;
	struct ascend_prof_poll_info info[NPUPROF_DEVLOG_MAX_DEVICES];
	struct timespec pause = { 0, DEVLOG_SAMPLE_MS * 1000000L };

	while (!__atomic_load_n(&l->stopping, __ATOMIC_ACQUIRE)) {
		int n = l->hal->poll(info, NPUPROF_DEVLOG_MAX_DEVICES, DEVLOG_POLL_S);
		long got = 0;

		for (int i = 0; i < n && i < NPUPROF_DEVLOG_MAX_DEVICES; i++) {
			struct devlog_dev *dv = dev_of(l, info[i].device_id);

			if (dv && dv->started && info[i].channel_id == DEVLOG_CHANNEL)
				got += read_channel(l, dv) > 0;
		}
		/*
		 * An error, or readiness that gave us nothing (another channel
		 * of this process, or one already emptied): wait a period
		 * rather than spin on a poll that answers at once.
		 */
		if (n < 0 || (n > 0 && !got))
			nanosleep(&pause, NULL);
	}
	return NULL;
}

/* ---- starting ---- */

/*
 * Whether @device lists channel 50.  Return: 1, 0, or -1 when the list
 * could not be had (the HAL's code in *@code, -ENOMEM without memory).
 */
static int offers_log(const struct npuprof_ascend_hal *hal, int device, int *code)
{
	struct ascend_prof_channel_list *list = calloc(1, sizeof(*list));
	int found = 0;

	*code = list ? hal->get_channels((__u32)device, list) : -ENOMEM;
	for (unsigned int i = 0;
	     !*code && i < list->channel_num && i < ASCEND_PROF_CHANNEL_NUM_MAX; i++)
		found |= list->channel[i].channel_id == DEVLOG_CHANNEL;
	free(list);
	return *code ? -1 : found;
}

static int start_channel(const struct npuprof_ascend_hal *hal, int device)
{
	struct ascend_stars_soc_log_config cfg = { .acsq_task = 1, .ffts_context_task = 1 };
	struct ascend_prof_start_para para = {
		.channel_type = ASCEND_PROF_TS_TYPE,
		.sample_period = DEVLOG_SAMPLE_MS,
		.real_time = 1,
		.user_data = (uint64_t)(uintptr_t)&cfg,
		.user_data_size = sizeof(cfg),
	};

	return hal->start((__u32)device, DEVLOG_CHANNEL, &para);
}

/*
 * Whether @pid's parent is this process (read from @root/PID/stat, whose
 * fourth field follows the ")" that ends the command's name).
 */
static bool our_child(const char *root, long pid)
{
	char path[PATH_MAX + 64], line[512];
	const char *p = NULL;
	long ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%ld/stat", root, pid);
	f = fopen(path, "re");
	if (f && fgets(line, sizeof(line), f))
		p = strrchr(line, ')');
	if (f)
		fclose(f);
	return p && sscanf(p, ") %*c %ld", &ppid) == 1 && ppid == (long)getpid();
}

/*
 * Who else collects: a process named msprof, else one with libmspti.so
 * mapped (MSPTI in an app), other than this one.  A child of ours named
 * msprof is the job being launched before its exec, never a collector.
 * "" when none is found.
 */
static void find_holder(const struct npuprof_devlog *l, char *out, size_t size)
{
	char path[PATH_MAX + 64], line[512], comm[64];
	struct dirent *e;
	DIR *d = opendir(l->proc_root);
	pid_t self = getpid();

	out[0] = 0;
	for (int pass = 0; d && pass < 2 && !out[0]; pass++) {
		rewinddir(d);
		while (!out[0] && (e = readdir(d))) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);
			FILE *f;

			if (*end || pid <= 0 || pid == self)
				continue;
			snprintf(path, sizeof(path), "%s/%ld/comm", l->proc_root, pid);
			f = fopen(path, "re");
			if (!f)
				continue;
			comm[0] = 0;
			if (fgets(comm, sizeof(comm), f))
				comm[strcspn(comm, "\n")] = 0;
			fclose(f);
			if (pass == 0 && !strcmp(comm, "msprof") && !our_child(l->proc_root, pid)) {
				snprintf(out, size, "pid %ld, msprof", pid);
				break;
			}
			if (pass == 0)
				continue;
			snprintf(path, sizeof(path), "%s/%ld/maps", l->proc_root, pid);
			f = fopen(path, "re");
			while (f && fgets(line, sizeof(line), f)) {
				if (strstr(line, "libmspti.so")) {
					snprintf(out, size, "pid %ld, %s, with libmspti.so", pid, comm);
					break;
				}
			}
			if (f)
				fclose(f);
		}
	}
	if (d)
		closedir(d);
}

/* @dv's outcome for the refusal @rc of prof_drv_start(). */
static void refused(struct npuprof_devlog *l, struct devlog_dev *dv, int rc)
{
	struct npuprof_devlog_dev *p = dv->pub;
	char holder[128];

	p->code = rc;
	switch (rc) {
	case ASCEND_DRV_ERROR_STATUS_FAIL:
		/* the HAL's "channel has been started": by this very process */
		p->outcome = NPUPROF_DEVLOG_TAKEN;
		snprintf(p->text, sizeof(p->text),
			 "none: this process already collects device %d's log (its own profiler, or another npuprof reader in it)",
			 p->device);
		break;
	case ASCEND_PROF_CHANNEL_OCCUPIED:
	case ASCEND_PROF_STARTED_ALREADY:
	case ASCEND_PROF_VF_FULL:
		p->outcome = NPUPROF_DEVLOG_TAKEN;
		find_holder(l, holder, sizeof(holder));
		if (holder[0])
			snprintf(p->text, sizeof(p->text),
				 "none: another process collects device %d's log (%s)", p->device,
				 holder);
		else
			snprintf(p->text, sizeof(p->text),
				 "none: another process collects device %d's log (no msprof or MSPTI process found: the app's own profiler?)",
				 p->device);
		break;
	case ASCEND_PROF_CONTAINER_NOT_PHY:
		p->outcome = NPUPROF_DEVLOG_CONTAINER;
		snprintf(p->text, sizeof(p->text),
			 "none: device %d's log is held outside this container (the host collects it)",
			 p->device);
		break;
	case ASCEND_PROF_PHY_NOT_CONTAINER:
		p->outcome = NPUPROF_DEVLOG_CONTAINER;
		snprintf(p->text, sizeof(p->text),
			 "none: device %d's log is held by a container (the host cannot collect it)",
			 p->device);
		break;
	case ASCEND_PROF_NO_CP_PROCESS:
		p->outcome = NPUPROF_DEVLOG_NO_CONTEXT;
		snprintf(p->text, sizeof(p->text), "none: no device context on device %d",
			 p->device);
		break;
	default:
		p->outcome = NPUPROF_DEVLOG_FAILED;
		snprintf(p->text, sizeof(p->text),
			 "none: device %d refused its log (prof_drv_start: %d)", p->device, rc);
	}
}

/* halDeviceOpen(@dv's device), once.  Return: the HAL's code (-1 without it). */
static int open_device(struct npuprof_devlog *l, struct devlog_dev *dv)
{
	struct ascend_hal_dev_open_in in = { { 0 } };
	struct ascend_hal_dev_open_out out = { { 0 } };
	int rc;

	if (!l->hal->dev_open)
		return -1;
	rc = l->hal->dev_open((__u32)dv->pub->device, &in, &out);
	dv->pub->opened = !rc;
	return rc;
}

static void close_device(struct npuprof_devlog *l, struct devlog_dev *dv)
{
	struct ascend_hal_dev_close_in in = { 0 };

	if (dv->pub->opened && l->hal->dev_close)
		l->hal->dev_close((__u32)dv->pub->device, &in);
	dv->pub->opened = false;
}

/* Start @dv's log: its outcome, and dv->started when it is ours. */
static void start_device(struct npuprof_devlog *l, struct devlog_dev *dv)
{
	struct npuprof_devlog_dev *p = dv->pub;
	int code, rc = offers_log(l->hal, p->device, &code);

	if (rc < 0) {
		p->outcome = NPUPROF_DEVLOG_FAILED;
		p->code = code;
		snprintf(p->text, sizeof(p->text),
			 "none: device %d does not list its channels (prof_drv_get_channels: %d)",
			 p->device, code);
		return;
	}
	if (!rc) {
		p->outcome = NPUPROF_DEVLOG_NO_CHANNEL;
		snprintf(p->text, sizeof(p->text),
			 "none: device %d offers no task log (no channel 50)", p->device);
		return;
	}
	rc = start_channel(l->hal, p->device);
	if (rc == ASCEND_PROF_NO_CP_PROCESS && !open_device(l, dv))
		rc = start_channel(l->hal, p->device);
	if (rc) {
		if (p->opened)
			close_device(l, dv);
		refused(l, dv, rc);
		return;
	}
	dv->started = true;
	p->outcome = NPUPROF_DEVLOG_OWNED;
	snprintf(p->text, sizeof(p->text), "device log (channel %d)", DEVLOG_CHANNEL);
	dv->owners_file = npuprof_stream_owners_load(l->owners, p->device) != -ENOENT;
	dv->owners_ns = npuprof_mono_ns();
}

#define DEVLOG_FREQ_PROBE_MS 20 /* between the two pairs that measure a frequency */

/*
 * The counter frequency of a device whose driver does not say it (an
 * older driver without DEV_OSC_FREQUE), measured from a second pair
 * DEVLOG_FREQ_PROBE_MS after @c: good to about 1e-4, enough to place
 * records in the window (the export fits the start and stop pairs).
 * Return: Hz, 0 when the second pair could not be had.
 */
static uint64_t measure_freq(struct npuprof_devlog *l, struct devlog_dev *dv,
			     const struct npuprof_ascend_clock *c)
{
	struct timespec pause = { 0, DEVLOG_FREQ_PROBE_MS * 1000000L };
	struct npuprof_ascend_clock c2;

	nanosleep(&pause, NULL);
	if (npuprof_ascend_hal_clock_pair(l->hal, dv->pub->device, &c2, NULL) ||
	    c2.host_ns <= c->host_ns || c2.dev <= c->dev)
		return 0;
	return (uint64_t)((unsigned __int128)(c2.dev - c->dev) * 1000000000u /
			  (c2.host_ns - c->host_ns));
}

/*
 * The clock pair records are timed with.  A device that gives a pair but
 * no frequency has it measured.  One that gives no pair still has its log
 * read; its records' times are then its counter read as ns from the pair
 * (the export maps dev_ts anyway).
 */
static void start_clock(struct npuprof_devlog *l, struct devlog_dev *dv)
{
	struct npuprof_ascend_clock *c = &dv->pub->start_clock;

	if (npuprof_ascend_hal_clock_pair(l->hal, dv->pub->device, c, NULL)) {
		c->host_ns = npuprof_mono_ns();
		c->dev = 0;
		c->freq_hz = 0;
	} else if (!c->freq_hz) {
		c->freq_hz = measure_freq(l, dv, c);
	}
	if (!c->freq_hz) {
		c->freq_hz = 1000000000ull;
		c->dev = 0;
		c->host_ns = 0;
	}
}

static int devlog_new(const struct npuprof_devlog_opts *o, struct npuprof_devlog **out)
{
	unsigned int want = o->ring_records ? o->ring_records : DEVLOG_RING_RECORDS;
	struct npuprof_devlog *l;
	uint64_t room = 1;

	if (o->nr_devices > NPUPROF_DEVLOG_MAX_DEVICES || (o->nr_devices && !o->devices))
		return -EINVAL;
	while (room < want)
		room <<= 1;
	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->efd = -1;
	/* closed until npuprof_devlog_window() opens it, or open for good */
	l->win_lo = o->windowed ? UINT64_MAX : 0;
	l->win_hi = UINT64_MAX;
	l->ring = calloc(room, sizeof(*l->ring));
	l->owners = npuprof_stream_owners_new(o->proc_root);
	if (!l->ring || !l->owners) {
		npuprof_devlog_free(l);
		return -ENOMEM;
	}
	l->mask = room - 1;
	l->expanded = o->expanded;
	snprintf(l->proc_root, sizeof(l->proc_root), "%s", o->proc_root ? o->proc_root : "/proc");
	for (unsigned int i = 0; i < NPUPROF_DEVLOG_MAX_DEVICES; i++)
		l->slot_of[i] = -1;
	for (unsigned int i = 0; i < o->nr_devices; i++) {
		int d = o->devices[i];

		if (d < 0 || d >= NPUPROF_DEVLOG_MAX_DEVICES || l->slot_of[d] >= 0) {
			npuprof_devlog_free(l);
			return -EINVAL;
		}
		l->slot_of[d] = (int)i;
		l->devs[i].pub = &l->pub[i];
		l->pub[i].device = d;
		if ((unsigned int)d + 1 > l->nr_ring_ids)
			l->nr_ring_ids = (unsigned int)d + 1;
	}
	l->nr_devs = o->nr_devices;
	*out = l;
	return 0;
}

/* Every device's outcome: the library is missing or unusable (@why). */
static void no_library(struct npuprof_devlog *l, int err, const char *why)
{
	for (unsigned int i = 0; i < l->nr_devs; i++) {
		struct npuprof_devlog_dev *p = l->devs[i].pub;

		p->outcome = NPUPROF_DEVLOG_NO_LIBRARY;
		p->code = err;
		snprintf(p->text, sizeof(p->text), "none: %s", why);
	}
}

int npuprof_devlog_start(const struct npuprof_devlog_opts *o, struct npuprof_devlog **out)
{
	struct npuprof_devlog *l;
	char why[160];
	unsigned int owned = 0;
	int err = devlog_new(o, &l);

	if (err)
		return err;
	l->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (l->efd < 0) {
		err = -errno;
		npuprof_devlog_free(l);
		return err;
	}
	err = npuprof_ascend_hal_get(&l->hal, why, sizeof(why));
	if (err) {
		no_library(l, err, why);
		l->stopped = l->stop_done = true;
		*out = l;
		return 0;
	}
	live_add(l);
	for (unsigned int i = 0; i < l->nr_devs; i++) {
		start_device(l, &l->devs[i]);
		if (l->devs[i].started)
			start_clock(l, &l->devs[i]);
		owned += l->devs[i].started;
	}
	if (owned) {
		err = -pthread_create(&l->thread, NULL, reader, l);
		l->thread_on = !err;
	}
	if (err) {
		npuprof_devlog_free(l);
		return err;
	}
	*out = l;
	return 0;
}

/* ---- stopping ---- */

static void *stop_one(void *arg)
{
	struct devlog_dev *dv = arg;
	const struct npuprof_ascend_hal *hal;

	if (!npuprof_ascend_hal_get(&hal, NULL, 0))
		dv->pub->stop_code = hal->stop((__u32)dv->pub->device, DEVLOG_CHANNEL);
	return NULL;
}

/* Ask @dv's device for what it holds, and read until the channel is empty. */
static void flush_device(struct npuprof_devlog *l, struct devlog_dev *dv)
{
	__u32 len = 0;

	if (l->hal->flush)
		l->hal->flush((__u32)dv->pub->device, DEVLOG_CHANNEL, &len);
	read_channel(l, dv);
}

/* prof_stop() of every started channel, the devices in parallel. */
static int stop_channels(struct npuprof_devlog *l)
{
	pthread_t th[NPUPROF_DEVLOG_MAX_DEVICES];
	bool on[NPUPROF_DEVLOG_MAX_DEVICES] = { false };
	int err = 0;

	for (unsigned int i = 0; i < l->nr_devs; i++)
		if (l->devs[i].started)
			on[i] = !pthread_create(&th[i], NULL, stop_one, &l->devs[i]);
	for (unsigned int i = 0; i < l->nr_devs; i++) {
		struct devlog_dev *dv = &l->devs[i];

		if (!dv->started)
			continue;
		if (on[i])
			pthread_join(th[i], NULL);
		else
			stop_one(dv); /* no thread to spare: one after another */
		dv->started = false;
		if (dv->pub->stop_code)
			err = -EIO;
		read_channel(l, dv); /* what came in while it stopped, if readable */
	}
	return err;
}

int npuprof_devlog_stop(struct npuprof_devlog *l)
{
	int err;

	/* once: the atexit handler may race a stop in another thread */
	if (__atomic_exchange_n(&l->stopped, true, __ATOMIC_ACQ_REL))
		return __atomic_load_n(&l->stop_done, __ATOMIC_ACQUIRE) ? 0 : -EINPROGRESS;
	__atomic_store_n(&l->stopping, 1, __ATOMIC_RELEASE);
	if (l->thread_on)
		pthread_join(l->thread, NULL);
	l->thread_on = false;
	for (unsigned int i = 0; i < l->nr_devs; i++)
		if (l->devs[i].started)
			flush_device(l, &l->devs[i]);
	err = stop_channels(l);
	for (unsigned int i = 0; i < l->nr_devs; i++) {
		struct devlog_dev *dv = &l->devs[i];

		if (dv->pub->outcome == NPUPROF_DEVLOG_OWNED &&
		    npuprof_ascend_hal_clock_pair(l->hal, dv->pub->device, &dv->pub->stop_clock,
						  NULL))
			memset(&dv->pub->stop_clock, 0, sizeof(dv->pub->stop_clock));
		close_device(l, dv);
	}
	live_remove(l);
	__atomic_store_n(&l->stop_done, true, __ATOMIC_RELEASE);
	return err;
}

const struct npuprof_devlog_dev *npuprof_devlog_devices(const struct npuprof_devlog *l,
							unsigned int *n)
{
	*n = l->nr_devs;
	return l->pub;
}

void npuprof_devlog_free(struct npuprof_devlog *l)
{
	if (!l)
		return;
	if (l->hal)
		npuprof_devlog_stop(l);
	if (l->efd >= 0)
		close(l->efd);
	npuprof_stream_owners_free(l->owners);
	free(l->ring);
	free(l);
}
