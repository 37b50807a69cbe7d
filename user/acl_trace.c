// SPDX-License-Identifier: MIT
/*
 * Runtime-API capture, user side (npuprof/acl_trace.h): the BPF object of
 * bpf/acl_trace.bpf.c.  Opening it picks the programs the kernel can run
 * (task storage or a hash map for calls in flight, uprobe_multi or a link
 * per probe, cookies or a program per function) and loads them through
 * the generated skeleton; it creates one BPF ring buffer per possible CPU,
 * puts them in the program's array of maps and reads them with libbpf's
 * ring_buffer API.  This file also owns the device-task tracepoint
 * programs, the halSqTaskSend() submit program (loaded when asked for),
 * the per-CPU written/lost counters, and the capture generations that
 * start and stop recording.  The uprobes on the
 * libraries are placed by uprobe_attach.c, the process filter is kept by
 * proc_filter.c; they share acl_trace_int.h.
 *
 * Capture generations: every enable first waits out running probes, throws
 * away what an earlier capture left in the rings (counted stale), clears the
 * in-flight call states (of the hash path) and the counters, then bumps the
 * BPF side's epoch; see bpf/acl_trace.bpf.c for why that keeps calls of one
 * capture out of the next.  Every stop runs a BPF iterator that writes
 * the calls still in flight as cut records (acl_trace_write_cut()).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <npuprof/acl_trace.h>
#include <npuprof/bpf_log.h>

#include "acl_trace_int.h"
#include "acl_trace.skel.h" /* after the types it uses */
#include "kernel_features.h"
#include "uprobe_multi.h"

/* Note the failure @err of @stage in @t->error; return @err. */
int acl_fail(struct npuprof_acl_trace *t, enum npuprof_stage stage, int err, pid_t pid,
	     const char *object)
{
	npuprof_error_set(&t->error, stage, err, pid, object);
	return err;
}

/*
 * The ring buffer reader's sample callback, @ctx the struct acl_ring of
 * the sample's ring (@data, @size bytes).  A whole record goes to the
 * current consumer (@t->fn), or is counted discarded when there is none.
 * The BPF side writes whole records and counts each one written, so a
 * shorter sample, or one whose header claims more than the sample holds,
 * is not one: it goes nowhere and its bytes are counted against its ring
 * (npuprof_acl_trace_skipped()); the drain counts the record lost to a
 * decode error, as the ring's written counter exceeds what was read out.
 * Return: 0, or the consumer's negative errno, which ends the consume.
 */
int acl_trace_on_sample(void *ctx, void *data, size_t size)
{
	struct acl_ring *ring = ctx;
	struct npuprof_acl_trace *t = ring->t;
	const struct npuprof_rec_hdr *rec = data;
	int err;

	if (size < sizeof(*rec) || rec->size > size) {
		__atomic_fetch_add(&ring->bad_bytes, size, __ATOMIC_RELAXED);
		return 0;
	}
	if (!t->fn) {
		t->delivered++;
		return 0;
	}
	err = t->fn(t->fn_ctx, rec);
	if (err < 0)
		return err;
	t->delivered++;
	return 0;
}

/*
 * Whether the BPF side can keep calls in flight in task-local storage (see
 * bpf/acl_trace.bpf.c): the map type, its helper allowed in uprobe (kprobe
 * type) programs (Linux 5.12), and the kernel's BTF, which
 * bpf_get_current_task_btf() needs.  NPUPROF_BPF_INFLIGHT=hash picks the
 * hash map regardless (the tests run both paths on one kernel).
 */
static bool acl_trace_task_storage_usable(bool *forced)
{
	const char *force = getenv("NPUPROF_BPF_INFLIGHT");

	if (force && strcmp(force, "hash") == 0) {
		*forced = true;
		return false;
	}
	return kernel_bpf_task_storage();
}

/*
 * Whether attachments can carry the API id as a BPF cookie
 * (bpf_get_attach_cookie(), Linux 5.15).  NPUPROF_BPF_API_ID=program picks
 * the one-program-per-function path regardless (to test it on any kernel).
 */
static bool acl_trace_cookies_usable(bool *forced)
{
	const char *force = getenv("NPUPROF_BPF_API_ID");

	if (force && strcmp(force, "program") == 0) {
		*forced = true;
		return false;
	}
	return kernel_bpf_attach_cookie();
}

/*
 * Pick the programs to load: task storage with uprobe_multi links (6.6+),
 * task storage with a link per probe, or the hash map with a link per
 * probe (no task storage; a kernel with uprobe_multi but no BTF too: the
 * hash programs are not built for uprobe_multi); all of these with the API
 * id as cookie, or without cookies (5.10) a pair of hash programs per
 * function.
 */
static void acl_trace_pick_programs(struct npuprof_acl_trace *t)
{
	struct acl_trace_bpf *skel = t->skel;
	struct bpf_program *prog;
	unsigned int api;
	int ret;

	t->cookies = acl_trace_cookies_usable(&t->forced);
	t->task_storage = t->cookies && acl_trace_task_storage_usable(&t->forced);
	t->multi = t->task_storage && uprobe_multi_supported();
	bpf_program__set_autoload(skel->progs.acl_enter, t->task_storage && !t->multi);
	bpf_program__set_autoload(skel->progs.acl_exit, t->task_storage && !t->multi);
	bpf_program__set_autoload(skel->progs.acl_enter_multi, t->multi);
	bpf_program__set_autoload(skel->progs.acl_exit_multi, t->multi);
	bpf_program__set_autoload(skel->progs.acl_enter_hash, t->cookies && !t->task_storage);
	bpf_program__set_autoload(skel->progs.acl_exit_hash, t->cookies && !t->task_storage);
	for (api = 1; api < NPUPROF_API_MAX; api++)
		for (ret = 0; ret < 2; ret++)
			if ((prog = acl_api_prog(skel, api, ret)))
				bpf_program__set_autoload(prog, !t->cookies &&
							  (acl_symbols_layer(api) & t->layers));
	/*
	 * The stop's iterator over calls in flight, of the path's own map
	 * (iterators are tracing programs: they need the kernel's BTF).
	 */
	t->cut = NULL;
	if (t->task_storage)
		t->cut = skel->progs.acl_cut_task;
	else if (kernel_btf_present())
		t->cut = skel->progs.acl_cut_hash;
	bpf_program__set_autoload(skel->progs.acl_cut_task, t->cut == skel->progs.acl_cut_task);
	bpf_program__set_autoload(skel->progs.acl_cut_hash, t->cut == skel->progs.acl_cut_hash);
	/* The map the other path would use: not created (5.10 has no such type). */
	bpf_map__set_autocreate(skel->maps.inflight, t->task_storage);
	bpf_map__set_autocreate(skel->maps.entries, !t->task_storage);
	if (t->multi) {
		bpf_program__set_expected_attach_type(skel->progs.acl_enter_multi,
						      NPUPROF_BPF_TRACE_UPROBE_MULTI);
		bpf_program__set_expected_attach_type(skel->progs.acl_exit_multi,
						      NPUPROF_BPF_TRACE_UPROBE_MULTI);
	}
}

/* The task programs, in enum npuprof_tp_bit order. */
static struct bpf_program *acl_task_prog(struct acl_trace_bpf *skel, unsigned int i)
{
	struct bpf_program *progs[NPU_TP_EVENTS] = {
		skel->progs.acl_task_submit, skel->progs.acl_task_start,
		skel->progs.acl_task_end, skel->progs.acl_task_sync,
		skel->progs.acl_task_queued, skel->progs.acl_task_cqe,
	};

	return progs[i];
}

/* The layout of event @i: its own, else the shared one; NULL for none. */
static const struct npu_tp_layout *acl_task_layout(const struct npuprof_acl_trace_opts *opts,
						   unsigned int i)
{
	return opts->task_layouts[i] ? opts->task_layouts[i] : opts->task_layout;
}

/* Task programs: loaded, with their layouts in the read-only data, or not at all. */
static void acl_trace_pick_tasks(struct npuprof_acl_trace *t,
				 const struct npuprof_acl_trace_opts *opts)
{
	const struct npu_tp_layout *l;
	unsigned int i;

	t->tasks = false;
	for (i = 0; i < NPU_TP_EVENTS; i++)
		t->tasks |= acl_task_layout(opts, i) != NULL;
	for (i = 0; i < NPU_TP_EVENTS; i++) {
		bpf_program__set_autoload(acl_task_prog(t->skel, i), t->tasks);
		l = acl_task_layout(opts, i);
		if (l)
			memcpy((void *)&t->skel->rodata->task_layout[i], l, sizeof(*l));
	}
}

/*
 * Load the programs with the outer ring map sized for @nr_cpus and rings of
 * @ring_bytes, on a kernel of @page_size pages.  The fork/exit programs (BTF-typed tracepoints) only when
 * @follow: plain capture works on a kernel without vmlinux BTF.
 */
static int acl_trace_load(struct npuprof_acl_trace *t, uint32_t ring_bytes, uint32_t page_size,
			  bool follow, const struct npuprof_acl_trace_opts *opts)
{
	int tmpl, err;
	bool btf;

	t->skel = acl_trace_bpf__open();
	if (!t->skel)
		return -errno;
	bpf_program__set_autoload(t->skel->progs.acl_fork, follow);
	/*
	 * The exit program also without following, where the kernel has BTF:
	 * a selected process leaves the filter when it exits, so a later
	 * process given its pid is never recorded (npuprof.ko does the same).
	 */
	btf = kernel_btf_present();
	t->exit_prog = follow || btf;
	bpf_program__set_autoload(t->skel->progs.acl_exit_process, t->exit_prog);
	bpf_program__set_autoload(t->skel->progs.acl_host_pid, btf);
	/* a process's handle names leave with it where the kernel can walk the map */
	t->names_exit_prog = btf && kernel_bpf_for_each_map_elem();
	bpf_program__set_autoload(t->skel->progs.acl_names_exit, t->names_exit_prog);
	t->follow = follow;
	acl_trace_pick_programs(t);
	acl_trace_pick_tasks(t, opts);
	bpf_program__set_autoload(t->skel->progs.acl_sq_send, t->submits);
	if (npuprof_bpf_debug())
		fprintf(stderr, "npuprof: calls in flight in %s, %s, %s\n",
			t->task_storage ? "task storage" : "a hash map",
			t->multi ? "uprobe_multi links" : "a link per probe",
			t->cookies ? "API id as cookie" : "a program per function");
	t->skel->rodata->nr_rings = t->nr_cpus;
	t->skel->rodata->ring_bytes = ring_bytes;
	err = bpf_map__set_max_entries(t->skel->maps.rings, t->nr_cpus);
	if (err)
		return err;
	/*
	 * The template the outer map is made from: a ring of one page, the
	 * smallest the running kernel takes (bpf/acl_trace.h).  A map of our
	 * own, as libbpf 1.1 cannot resize the declared one
	 * (bpf_map__set_max_entries() on an inner map dereferences NULL).
	 */
	tmpl = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "acl_ring_tmpl", 0, 0, page_size, NULL);
	if (tmpl < 0)
		return tmpl;
	err = bpf_map__set_inner_map_fd(t->skel->maps.rings, tmpl);
	if (!err)
		err = acl_trace_bpf__load(t->skel);
	close(tmpl); /* the outer map keeps no reference to its template */
	return err;
}

/*
 * Create the per-CPU ring buffers, insert them in the outer map (after load:
 * the kernel only accepts inner map fds into a created outer map) and put
 * them all under one libbpf ring_buffer reader.
 */
static int acl_trace_create_rings(struct npuprof_acl_trace *t,
				  uint32_t ring_bytes)
{
	int outer = bpf_map__fd(t->skel->maps.rings);
	unsigned int cpu;
	int err;

	t->ring_fds = calloc(t->nr_cpus, sizeof(*t->ring_fds));
	t->rings = calloc(t->nr_cpus, sizeof(*t->rings));
	if (!t->ring_fds || !t->rings)
		return -ENOMEM;
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		t->ring_fds[cpu] = -1;
		t->rings[cpu] = (struct acl_ring){ .t = t, .cpu = cpu };
	}
	for (cpu = 0; cpu < t->nr_cpus; cpu++) {
		t->ring_fds[cpu] = bpf_map_create(BPF_MAP_TYPE_RINGBUF,
						  "acl_ring", 0, 0, ring_bytes,
						  NULL);
		if (t->ring_fds[cpu] < 0)
			return t->ring_fds[cpu];
		err = bpf_map_update_elem(outer, &cpu, &t->ring_fds[cpu], 0);
		if (err)
			return err;
		if (cpu == 0)
			t->rb = ring_buffer__new(t->ring_fds[0], acl_trace_on_sample, &t->rings[0],
						 NULL);
		else
			err = ring_buffer__add(t->rb, t->ring_fds[cpu], acl_trace_on_sample,
					       &t->rings[cpu]);
		if (!t->rb)
			return -errno;
		if (err)
			return err;
	}
	return 0;
}

int npuprof_acl_trace_ring_size(uint64_t want, uint64_t page_size, uint32_t *bytes)
{
	uint64_t b = page_size;

	if (!want || !page_size || (page_size & (page_size - 1)))
		return -EINVAL;
	if (want > NPUPROF_BPF_RING_MAX_BYTES || page_size > NPUPROF_BPF_RING_MAX_BYTES)
		return -E2BIG;
	while (b < want)
		b <<= 1;
	*bytes = (uint32_t)b;
	return 0;
}

int npuprof_acl_trace_open_opts(const struct npuprof_acl_trace_opts *opts,
				struct npuprof_acl_trace **out)
{
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), ring_bytes;
	struct npuprof_acl_trace *t;
	int nr_cpus, err;

	*out = NULL;
	err = npuprof_acl_trace_ring_size(opts->ring_bytes, page, &ring_bytes);
	if (err)
		return err;
	for (unsigned int i = 0; i < NPU_TP_EVENTS; i++)
		if (acl_task_layout(opts, i) && acl_task_layout(opts, i)->nr_args > NPU_TP_MAX_ARGS)
			return -EINVAL;
	nr_cpus = libbpf_num_possible_cpus();
	if (nr_cpus < 0)
		return nr_cpus;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->nr_cpus = nr_cpus;
	t->ring_bytes = ring_bytes;
	t->layers = opts->layers ? opts->layers : NPUPROF_LAYER_ACL;
	t->submits = opts->submits;
	pthread_mutex_init(&t->lock, NULL);
	err = acl_trace_load(t, ring_bytes, page, opts->follow, opts);
	if (err)
		goto out_close;
	err = acl_trace_create_rings(t, ring_bytes);
	if (err)
		goto out_close;
	*out = t;
	return 0;

out_close:
	npuprof_acl_trace_close(t);
	return err;
}

uint32_t npuprof_acl_trace_ring_bytes(const struct npuprof_acl_trace *t)
{
	return t->ring_bytes;
}

int npuprof_acl_trace_open(uint32_t ring_bytes, struct npuprof_acl_trace **out)
{
	struct npuprof_acl_trace_opts opts = { .ring_bytes = ring_bytes };

	return npuprof_acl_trace_open_opts(&opts, out);
}

int npuprof_acl_trace_open_follow(uint32_t ring_bytes, struct npuprof_acl_trace **out)
{
	struct npuprof_acl_trace_opts opts = { .ring_bytes = ring_bytes, .follow = 1 };

	return npuprof_acl_trace_open_opts(&opts, out);
}

int npuprof_acl_trace_attach_tasks(struct npuprof_acl_trace *t,
				   const char *const names[NPU_TP_EVENTS],
				   int status[NPU_TP_EVENTS])
{
	unsigned int i;
	int n = 0;

	if (!t->tasks)
		return -EINVAL;
	if (t->tasks_attached)
		return -EALREADY;
	t->tasks_attached = true;
	for (i = 0; i < NPU_TP_EVENTS; i++) {
		status[i] = -EOPNOTSUPP;
		if (!names[i])
			continue;
		t->task_links[i] = bpf_program__attach_raw_tracepoint(acl_task_prog(t->skel, i),
								      names[i]);
		status[i] = t->task_links[i] ? 0 : -errno;
		n += !status[i];
	}
	return n;
}

/* Sum of the task programs' recursion misses since load, or -errno. */
static int64_t acl_trace_task_misses(struct npuprof_acl_trace *t)
{
	uint64_t sum = 0;
	unsigned int i;

	if (!t->tasks)
		return 0;
	for (i = 0; i < NPU_TP_EVENTS; i++) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_program__fd(acl_task_prog(t->skel, i)), &info, &len))
			return -errno;
		sum += info.recursion_misses;
	}
	return (int64_t)sum;
}

int64_t npuprof_acl_trace_task_missed(struct npuprof_acl_trace *t)
{
	int64_t now = acl_trace_task_misses(t);

	return now < 0 ? now : now - (int64_t)t->task_miss_base;
}

void npuprof_acl_trace_close(struct npuprof_acl_trace *t)
{
	struct acl_lib *lib, *next;
	unsigned int cpu, ev;

	if (!t)
		return;
	for (lib = t->libs; lib; lib = next) {
		next = lib->next;
		acl_lib_free(lib);
	}
	bpf_link__destroy(t->fork_link);
	bpf_link__destroy(t->exit_link);
	bpf_link__destroy(t->names_exit_link);
	for (ev = 0; ev < NPU_TP_EVENTS; ev++)
		bpf_link__destroy(t->task_links[ev]);
	ring_buffer__free(t->rb);
	for (cpu = 0; t->ring_fds && cpu < t->nr_cpus; cpu++)
		if (t->ring_fds[cpu] >= 0)
			close(t->ring_fds[cpu]);
	free(t->ring_fds);
	free(t->rings);
	acl_trace_bpf__destroy(t->skel);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

const struct npuprof_error *npuprof_acl_trace_error(const struct npuprof_acl_trace *t)
{
	return &t->error;
}

/*
 * Zero the written/lost/missed counters of every CPU, and take the task
 * programs' recursion misses so far as the new base.
 */
static int acl_trace_reset_counters(struct npuprof_acl_trace *t)
{
	size_t sz = t->nr_cpus * sizeof(struct acl_trace_counters);
	struct acl_trace_counters *zero;
	int64_t misses = acl_trace_task_misses(t);
	__u32 key = 0;
	int err;

	if (misses < 0)
		return (int)misses;
	t->task_miss_base = (uint64_t)misses;
	__atomic_store_n(&t->skel->bss->sqe_skipped, 0, __ATOMIC_RELAXED);

	zero = calloc(t->nr_cpus, sizeof(*zero));
	if (!zero)
		return -ENOMEM;
	err = bpf_map__update_elem(t->skel->maps.counters, &key, sizeof(key),
				   zero, sz, BPF_ANY);
	free(zero);
	return err;
}

/*
 * Wait until no probe that may have seen the old capture word still runs.
 * The probes run under RCU, and the kernel waits for an RCU grace period
 * after every update of an array of maps (so that user space knows the old
 * inner map is out of use): storing CPU 0's ring again in `rings` is that
 * wait, with no change.  This leans on kernel internals, not a promised
 * interface: 6.1's bpf_map_update_value() waits after every update of a
 * map-in-map, and since 6.8 after every successful one, which this is.  A
 * kernel that stopped waiting would let a call returning in that very
 * instant write its record after the drain's last read.
 */
static int acl_trace_quiesce(struct npuprof_acl_trace *t)
{
	__u32 cpu = 0;

	/* Arrays of maps take BPF_ANY only. */
	return bpf_map_update_elem(bpf_map__fd(t->skel->maps.rings), &cpu,
				   &t->ring_fds[0], BPF_ANY);
}

/*
 * Delete every in-flight call state of the hash path.  Called with the
 * capture disabled and quiesced, so all of them are of an older epoch and
 * would record nothing; this frees the states of threads that died inside
 * a call.  Task storage needs nothing: the BPF side takes a slot of an
 * older epoch for free, and a dead thread's slots go with it.
 */
static int acl_trace_clear_entries(struct npuprof_acl_trace *t)
{
	int fd = bpf_map__fd(t->skel->maps.entries);
	char key[64]; /* struct entry_key of the BPF side, 16 bytes */
	unsigned int i;
	int err;

	if (t->task_storage)
		return 0;
	if (bpf_map__key_size(t->skel->maps.entries) > sizeof(key))
		return -EINVAL;
	for (i = 0; i <= ACL_TRACE_MAX_INFLIGHT; i++) {
		err = bpf_map_get_next_key(fd, NULL, key);
		if (err)
			return err == -ENOENT ? 0 : err;
		err = bpf_map_delete_elem(fd, key);
		if (err && err != -ENOENT)
			return err;
	}
	return -EBUSY; /* something keeps adding states: not disabled */
}

/* Consume and throw away all records in the rings; count them stale. */
static int acl_trace_discard(struct npuprof_acl_trace *t)
{
	int err;

	pthread_mutex_lock(&t->lock);
	t->fn = NULL;
	t->delivered = 0;
	err = ring_buffer__consume(t->rb);
	t->stale_next += t->delivered;
	pthread_mutex_unlock(&t->lock);
	return err < 0 ? err : 0;
}

/* The BPF side's capture word: bit 0 on/off, the epoch above it. */
static void acl_trace_set_capture(struct npuprof_acl_trace *t, int on)
{
	/* .bss is mmap()ed: the next probe hit sees the new value. */
	__atomic_store_n(&t->skel->bss->capture, (t->epoch << 1) | (on ? 1 : 0),
			 __ATOMIC_RELEASE);
}

/*
 * Run the stop's iterator (bpf/acl_trace.bpf.c, acl_cut_*): every call of
 * the capture that just stopped and is still in flight goes into the rings
 * as a record flagged NPUPROF_API_CUT_END.  The iterator writes nothing
 * into its own output: reading it to the end is running it.  Return: 0 or
 * -errno (nothing to do without an iterator).
 */
static int acl_trace_write_cut(struct npuprof_acl_trace *t)
{
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info info;
	struct bpf_link *link;
	char buf[64];
	ssize_t n;
	int fd, err = 0;

	if (!t->cut)
		return 0;
	if (t->cut == t->skel->progs.acl_cut_hash) {
		memset(&info, 0, sizeof(info));
		info.map.map_fd = bpf_map__fd(t->skel->maps.entries);
		opts.link_info = &info;
		opts.link_info_len = sizeof(info);
	}
	link = bpf_program__attach_iter(t->cut, &opts);
	if (!link)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		err = fd;
	} else {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			;
		if (n < 0)
			err = -errno;
		close(fd);
	}
	bpf_link__destroy(link);
	return err;
}

/*
 * Stop recording: no probe writes once this returns (the capture word is
 * off and running probes are waited out), the calls still in flight are
 * written as cut records, then the probes go.
 */
static int acl_trace_stop(struct npuprof_acl_trace *t)
{
	int err;

	acl_trace_set_capture(t, 0);
	err = acl_trace_quiesce(t);
	if (!err && t->probed)
		err = acl_trace_write_cut(t);
	acl_trace_unprobe(t);
	return err;
}

/*
 * Start a new capture generation: place the probes (recording still off),
 * wait out running ones, drop what an earlier capture left behind
 * (records, call states, counters), then turn recording on with a new
 * epoch in one store.
 */
static int acl_trace_start(struct npuprof_acl_trace *t)
{
	int err;

	acl_trace_set_capture(t, 0);
	err = acl_trace_probe(t);
	if (!err)
		err = acl_trace_quiesce(t);
	if (!err)
		err = acl_trace_discard(t);
	if (!err)
		err = acl_trace_clear_entries(t);
	if (!err)
		err = acl_trace_reset_counters(t);
	if (err) {
		acl_trace_unprobe(t);
		return err;
	}
	pthread_mutex_lock(&t->lock);
	t->stale = t->stale_next;
	t->stale_next = 0;
	pthread_mutex_unlock(&t->lock);
	t->epoch++;
	acl_trace_set_capture(t, 1);
	return 0;
}

int npuprof_acl_trace_discard(struct npuprof_acl_trace *t)
{
	int err;

	npuprof_error_clear(&t->error);
	err = acl_trace_stop(t);
	if (!err)
		err = acl_trace_discard(t);
	return err ? acl_fail(t, NPUPROF_STAGE_CAPTURE, err, 0, "clearing the uprobe rings") : 0;
}

int npuprof_acl_trace_enable(struct npuprof_acl_trace *t, int on)
{
	int err;

	npuprof_error_clear(&t->error);
	err = on ? acl_trace_start(t) : acl_trace_stop(t);
	/* a refused probe has said so (NPUPROF_STAGE_ATTACH) */
	if (err && t->error.stage == NPUPROF_STAGE_NONE)
		acl_fail(t, NPUPROF_STAGE_CAPTURE, err, 0,
			 on ? "enabling the uprobes" : "disabling the uprobes");
	return err;
}

uint64_t npuprof_acl_trace_stale(struct npuprof_acl_trace *t)
{
	uint64_t n;

	pthread_mutex_lock(&t->lock);
	n = t->stale;
	pthread_mutex_unlock(&t->lock);
	return n;
}

int npuprof_acl_trace_fd(const struct npuprof_acl_trace *t)
{
	return ring_buffer__epoll_fd(t->rb);
}

long npuprof_acl_trace_consume(struct npuprof_acl_trace *t, npuprof_rec_fn fn,
			       void *ctx)
{
	long n;
	int err;

	pthread_mutex_lock(&t->lock);
	t->fn = fn;
	t->fn_ctx = ctx;
	t->delivered = 0;
	err = ring_buffer__consume(t->rb);
	n = err < 0 ? err : t->delivered;
	pthread_mutex_unlock(&t->lock);
	return n;
}

int npuprof_acl_trace_skipped(const struct npuprof_acl_trace *t, unsigned int cpu,
			      uint64_t *bytes)
{
	if (cpu >= t->nr_cpus || !t->rings)
		return -ENXIO;
	*bytes = __atomic_load_n(&t->rings[cpu].bad_bytes, __ATOMIC_RELAXED);
	return 0;
}

uint64_t npuprof_acl_trace_sqe_skipped(const struct npuprof_acl_trace *t)
{
	return __atomic_load_n(&t->skel->bss->sqe_skipped, __ATOMIC_RELAXED);
}

int npuprof_acl_trace_task_storage(const struct npuprof_acl_trace *t)
{
	return t->task_storage;
}

void npuprof_acl_trace_probe_path(const struct npuprof_acl_trace *t,
				  struct npuprof_acl_probe_path *p)
{
	p->multi = t->multi;
	p->task_storage = t->task_storage;
	p->cookies = t->cookies;
	p->forced = t->forced;
}

unsigned int npuprof_acl_trace_nr_cpus(const struct npuprof_acl_trace *t)
{
	return t->nr_cpus;
}

int npuprof_acl_trace_stats(struct npuprof_acl_trace *t, unsigned int cpu,
			    uint64_t *written, uint64_t *lost)
{
	size_t sz = t->nr_cpus * sizeof(struct acl_trace_counters);
	struct acl_trace_counters *vals;
	__u32 key = 0;
	int err;

	if (cpu >= t->nr_cpus)
		return -EINVAL;
	vals = calloc(t->nr_cpus, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	err = bpf_map__lookup_elem(t->skel->maps.counters, &key, sizeof(key),
				   vals, sz, 0);
	if (!err) {
		*written = vals[cpu].written;
		/* A call with no record is lost, whatever the cause. */
		*lost = vals[cpu].lost + vals[cpu].missed;
	}
	free(vals);
	if (!err && cpu == 0) {
		int64_t missed = npuprof_acl_trace_task_missed(t);

		if (missed < 0)
			return (int)missed;
		*lost += (uint64_t)missed;
	}
	return err;
}
