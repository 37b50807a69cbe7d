// SPDX-License-Identifier: MIT
/*
 * Runtime-API capture, user side (npuprof/acl_trace.h): loads
 * bpf/acl_trace.bpf.c through its generated skeleton, creates one BPF ring
 * buffer per possible CPU and puts them in the program's array of maps,
 * places a uprobe and a uretprobe on every recorded ACL function of each
 * libascendcl.so file the traced processes map, and reads the rings with
 * libbpf's ring_buffer API.
 *
 * Probes exist only while capturing.  Attaching a process or file resolves
 * the library (and the functions' offsets in it) and keeps it open; the
 * uprobes themselves are placed by the start (enable 1) and removed by the
 * stop (enable 0), so a process that is attached but not captured runs
 * without a single trap.  On kernels with uprobe_multi links (6.6+) all
 * entries of a file are one link and all returns another, because removing
 * a uprobe waits for the kernel once per link (tens of ms each on 6.18);
 * older kernels (the 6.1 test VM) get one link per probe.
 *
 * Probes are placed per library *file* (device + inode) for every process,
 * so a second process mapping the same libascendcl.so costs one map update:
 * the tgid filter in the BPF program decides what is recorded.  The file is
 * reached through /proc/PID/map_files/<start>-<end>, a link to exactly the
 * file the process mapped, so a library replaced or deleted on disk since
 * the process loaded it is still probed where its code runs; the loader
 * keeps it open and places the probes through /proc/self/fd/N, so the
 * file stays reachable when that process is gone.
 *
 * Capture generations: every enable first waits out running probes, throws
 * away what an earlier capture left in the rings (counted stale), clears the
 * in-flight call states (of the hash path) and the counters, then bumps the
 * BPF side's epoch; see bpf/acl_trace.bpf.c for why that keeps calls of one
 * capture out of the next.  Every stop runs a BPF iterator that writes
 * the calls still in flight as cut records (acl_trace_write_cut()).
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <npuprof/acl_trace.h>
#include <npuprof/bpf_log.h>

#include "../bpf/acl_trace.h"
#include "acl_symbols.h"
#include "acl_trace.skel.h"
#include "uprobe_multi.h"

/*
 * One libascendcl.so file: what attach resolved (kept open, the functions
 * found and their offsets) and, while capturing, its probes.
 */
struct acl_lib {
	struct acl_lib *next;
	dev_t dev;
	ino_t ino;
	int fd;		       /* the file, placed probes go through /proc/self/fd */
	char name[PATH_MAX];   /* the file as the process sees it, for errors */
	struct acl_symbols sym; /* the functions found, and those missing */
	unsigned int nr_links;	     /* per-probe links (kernels before 6.6) */
	struct bpf_link *links[2 * ACL_NR_FUNCS];
	int multi_fds[2]; /* uprobe_multi links: entries, returns; -1 if none */
};

struct npuprof_acl_trace {
	struct acl_trace_bpf *skel;
	unsigned int nr_cpus;
	uint32_t ring_bytes;	/* of each ring, as made (rounded to pages) */
	int *ring_fds;		/* one BPF_MAP_TYPE_RINGBUF per possible CPU */
	struct ring_buffer *rb; /* libbpf reader over all of ring_fds */
	struct acl_lib *libs;
	bool multi;		    /* uprobe_multi links (programs acl_*_multi) */
	bool task_storage;	    /* in-flight calls in task storage, not the hash */
	bool cookies;		    /* API id as BPF cookie, else acl_*_api<ID> programs */
	bool forced;		    /* an NPUPROF_BPF_* variable chose a lesser path */
	unsigned int layers;	    /* enum npuprof_api_layer bits probed */
	unsigned int missing_layers; /* of the last attach: layers with no library */
	bool probed;		    /* capturing: every lib has its probes */
	bool follow;		    /* the fork/exit programs are loaded */
	bool exit_prog;		    /* the exit program is loaded (follow, or BTF) */
	struct bpf_program *cut;    /* acl_cut_task or acl_cut_hash; NULL: no BTF */
	struct bpf_link *fork_link; /* follow: sched_process_fork, then exit */
	struct bpf_link *exit_link;
	bool tasks;		    /* the task programs are loaded */
	bool tasks_attached;	    /* npuprof_acl_trace_attach_tasks() ran */
	struct bpf_link *task_links[NPU_TP_EVENTS]; /* NULL: not attached */
	uint64_t task_miss_base;    /* recursion misses at the last enable */
	uint64_t epoch;	     /* last value written to the BPF side's epoch */
	uint64_t stale;	     /* records discarded for the last enable */
	uint64_t stale_next; /* discarded since then, for the next enable */
	/*
	 * Serialises ring_buffer__consume(): the drain thread consumes while
	 * enable discards, and libbpf's reader is not safe for two consumers.
	 */
	pthread_mutex_t lock;
	/* The current npuprof_acl_trace_consume() call; fn NULL: discard. */
	npuprof_rec_fn fn;
	void *fn_ctx;
	long delivered;
	struct npuprof_error error; /* the last failure (npuprof_acl_trace_error()) */
	/* functions the library of the last attach lacks (npuprof_acl_trace_untraced()) */
	char untraced[NPUPROF_ERROR_FUNCS_MAX];
};

/* Note the failure @err of @stage in @t->error; return @err. */
static int acl_fail(struct npuprof_acl_trace *t, enum npuprof_stage stage, int err, pid_t pid,
		    const char *object)
{
	npuprof_error_set(&t->error, stage, err, pid, object);
	return err;
}

static int acl_trace_on_sample(void *ctx, void *data, size_t size)
{
	struct npuprof_acl_trace *t = ctx;
	const struct npuprof_rec_hdr *rec = data;
	int err;

	/* The BPF side writes whole records; anything shorter is not one. */
	if (size < sizeof(*rec) || rec->size > size)
		return 0;
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
 * Whether the kernel has BTF (/sys/kernel/btf/vmlinux): what tracing
 * programs need, the iterators and tp_btf ones, and task storage.
 */
static bool acl_kernel_btf(void)
{
	return access("/sys/kernel/btf/vmlinux", R_OK) == 0;
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
	return acl_kernel_btf() &&
	       libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) == 1 &&
	       libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE,
				       BPF_FUNC_task_storage_get, NULL) == 1 &&
	       libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE,
				       BPF_FUNC_get_current_task_btf, NULL) == 1;
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
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, BPF_FUNC_get_attach_cookie,
				       NULL) == 1;
}

/* The program of @api's entry (@ret 0) or return (1), kernels without cookies. */
static struct bpf_program *acl_api_prog(const struct acl_trace_bpf *skel, unsigned int api,
					int ret)
{
	char name[32];

	snprintf(name, sizeof(name), "acl_%s_api%u", ret ? "exit" : "enter", api);
	return bpf_object__find_program_by_name(skel->obj, name);
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
	else if (acl_kernel_btf())
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
	};

	return progs[i];
}

/* Task programs: loaded, with @layout in their read-only data, or not at all. */
static void acl_trace_pick_tasks(struct npuprof_acl_trace *t,
				 const struct npu_tp_layout *layout)
{
	unsigned int i;

	t->tasks = layout != NULL;
	for (i = 0; i < NPU_TP_EVENTS; i++)
		bpf_program__set_autoload(acl_task_prog(t->skel, i), t->tasks);
	if (layout)
		memcpy((void *)&t->skel->rodata->task_layout, layout, sizeof(*layout));
}

/*
 * Load the programs with the outer ring map sized for @nr_cpus and rings of
 * @ring_bytes, on a kernel of @page_size pages.  The fork/exit programs (BTF-typed tracepoints) only when
 * @follow: plain capture works on a kernel without vmlinux BTF.
 */
static int acl_trace_load(struct npuprof_acl_trace *t, uint32_t ring_bytes, uint32_t page_size,
			  bool follow, const struct npu_tp_layout *layout)
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
	btf = acl_kernel_btf();
	t->exit_prog = follow || btf;
	bpf_program__set_autoload(t->skel->progs.acl_exit_process, t->exit_prog);
	bpf_program__set_autoload(t->skel->progs.acl_host_pid, btf);
	t->follow = follow;
	acl_trace_pick_programs(t);
	acl_trace_pick_tasks(t, layout);
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
	if (!t->ring_fds)
		return -ENOMEM;
	for (cpu = 0; cpu < t->nr_cpus; cpu++)
		t->ring_fds[cpu] = -1;
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
			t->rb = ring_buffer__new(t->ring_fds[0],
						 acl_trace_on_sample, t, NULL);
		else
			err = ring_buffer__add(t->rb, t->ring_fds[cpu],
					       acl_trace_on_sample, t);
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
	const struct npu_tp_layout *layout = opts->task_layout;
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE), ring_bytes;
	struct npuprof_acl_trace *t;
	int nr_cpus, err;

	*out = NULL;
	err = npuprof_acl_trace_ring_size(opts->ring_bytes, page, &ring_bytes);
	if (err)
		return err;
	if (layout && layout->nr_args > NPU_TP_MAX_ARGS)
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
	pthread_mutex_init(&t->lock, NULL);
	err = acl_trace_load(t, ring_bytes, page, opts->follow, layout);
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

/*
 * Removing one uprobe link waits for an RCU grace period or two in the
 * kernel (~100 ms each under TCG on 6.1, tens of ms on 6.18); closed from
 * several threads at once, the waits share grace periods (38 links on
 * the 6.1 VM: 4.3-5 s one after the other, 1.8-2.1 s from 8 threads).
 * Eight threads with small stacks: a thread per link (40) made msprof's
 * resident memory grow by ~100 kB a window in the soak test (cached
 * thread stacks), for no faster stop.
 */
#define ACL_UNPROBE_THREADS 8
#define ACL_UNPROBE_STACK (64 * 1024) /* bytes; the closes need little */

struct acl_unprobe_job {
	struct acl_lib *lib;
	unsigned int first; /* this thread's links: first, first + step, ... */
	unsigned int step;
};

/* Close every step-th of @job->lib's links (per-probe and multi). */
static void *acl_unprobe_some(void *arg)
{
	struct acl_unprobe_job *job = arg;
	struct acl_lib *lib = job->lib;
	unsigned int i;

	for (i = job->first; i < lib->nr_links + 2; i += job->step) {
		if (i < lib->nr_links)
			bpf_link__destroy(lib->links[i]);
		else if (lib->multi_fds[i - lib->nr_links] >= 0)
			close(lib->multi_fds[i - lib->nr_links]);
	}
	return NULL;
}

/* Remove the probes of @lib (none placed: nothing to do). */
static void acl_lib_unprobe(struct acl_lib *lib)
{
	struct acl_unprobe_job jobs[ACL_UNPROBE_THREADS];
	pthread_t threads[ACL_UNPROBE_THREADS];
	unsigned int i, n = lib->nr_links + 2;
	bool started[ACL_UNPROBE_THREADS] = { false };
	pthread_attr_t attr;
	bool has_attr;

	if (!lib->nr_links && lib->multi_fds[0] < 0 && lib->multi_fds[1] < 0)
		return; /* not capturing: nothing placed */
	if (n > ACL_UNPROBE_THREADS)
		n = ACL_UNPROBE_THREADS;
	for (i = 0; i < n; i++)
		jobs[i] = (struct acl_unprobe_job){ lib, i, n };
	has_attr = !pthread_attr_init(&attr);
	if (has_attr)
		pthread_attr_setstacksize(&attr, ACL_UNPROBE_STACK);
	/* Thread 0's share here; a thread that cannot start: here too. */
	for (i = 1; i < n; i++)
		started[i] = !pthread_create(&threads[i], has_attr ? &attr : NULL,
					     acl_unprobe_some, &jobs[i]);
	if (has_attr)
		pthread_attr_destroy(&attr);
	acl_unprobe_some(&jobs[0]);
	for (i = 1; i < n; i++) {
		if (started[i])
			pthread_join(threads[i], NULL);
		else
			acl_unprobe_some(&jobs[i]);
	}
	lib->nr_links = 0;
	lib->multi_fds[0] = lib->multi_fds[1] = -1;
}

static void acl_lib_free(struct acl_lib *lib)
{
	acl_lib_unprobe(lib);
	if (lib->fd >= 0)
		close(lib->fd);
	free(lib);
}

void npuprof_acl_trace_close(struct npuprof_acl_trace *t)
{
	struct acl_lib *lib, *next;
	unsigned int cpu;

	if (!t)
		return;
	for (lib = t->libs; lib; lib = next) {
		next = lib->next;
		acl_lib_free(lib);
	}
	bpf_link__destroy(t->fork_link);
	bpf_link__destroy(t->exit_link);
	for (cpu = 0; cpu < NPU_TP_EVENTS; cpu++)
		bpf_link__destroy(t->task_links[cpu]);
	ring_buffer__free(t->rb);
	for (cpu = 0; t->ring_fds && cpu < t->nr_cpus; cpu++)
		if (t->ring_fds[cpu] >= 0)
			close(t->ring_fds[cpu]);
	free(t->ring_fds);
	acl_trace_bpf__destroy(t->skel);
	pthread_mutex_destroy(&t->lock);
	free(t);
}

/* One mapping of a layer's library as /proc/PID/maps lists it. */
struct acl_map {
	unsigned long start, end;
	unsigned int dev_major, dev_minor;
	unsigned long ino;
	int exec;		 /* mapped executable: where the code runs */
	int deleted;		 /* the maps line ended in " (deleted)" */
	char file[PATH_MAX]; /* path as the process sees it, suffix stripped */
};

#define ACL_DELETED_SUFFIX " (deleted)"

/*
 * Parse one /proc/PID/maps line into @m if it maps a file whose name
 * starts with @lib (NPUPROF_ACL_LIB_NAME, ...: "libascendcl.so.1" too).
 * Return: 1 if it does, 0 if not.
 */
static int acl_parse_maps_line(char *line, const char *lib, struct acl_map *m)
{
	size_t sfx = strlen(ACL_DELETED_SUFFIX), n;
	char perms[8], *file, *base;

	if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu", &m->start, &m->end, perms,
		   &m->dev_major, &m->dev_minor, &m->ino) != 6)
		return 0;
	file = strchr(line, '/');
	if (!file)
		return 0;
	file[strcspn(file, "\n")] = '\0';
	n = strlen(file);
	m->deleted = n > sfx && strcmp(file + n - sfx, ACL_DELETED_SUFFIX) == 0;
	if (m->deleted)
		file[n - sfx] = '\0';
	base = strrchr(file, '/') + 1;
	if (strncmp(base, lib, strlen(lib)) != 0)
		return 0;
	m->exec = strchr(perms, 'x') != NULL;
	snprintf(m->file, sizeof(m->file), "%s", file);
	return 1;
}

/*
 * Find the mapping of library @lib of @pid, the executable one if there is
 * one (a process that mapped two such files runs the code of that one).
 * Return: 0; -ESRCH when the process is gone; -ENOENT when none is mapped.
 */
static int acl_find_lib(pid_t pid, const char *lib, struct acl_map *m)
{
	char maps[64], line[PATH_MAX + 128];
	struct acl_map cand;
	int found = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	f = fopen(maps, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!(found && m->exec) && fgets(line, sizeof(line), f)) {
		if (!acl_parse_maps_line(line, lib, &cand))
			continue;
		if (!found || cand.exec)
			*m = cand;
		found = 1;
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

int npuprof_acl_trace_pid_maps_acl(pid_t pid)
{
	struct acl_map m;

	return acl_find_lib(pid, NPUPROF_ACL_LIB_NAME, &m) == 0;
}

static int acl_pid_alive(pid_t pid)
{
	char dir[32];

	snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
	return access(dir, F_OK) == 0;
}

/*
 * Fallback when map_files is closed to us (it needs CAP_SYS_ADMIN or
 * CAP_CHECKPOINT_RESTORE): the path the maps line names, through
 * /proc/@pid/root so a process in another mount namespace is found too.
 * Only good if it is still the file that was mapped: same device and inode.
 * Return: 0 with @path and @st; -ESRCH; -ESTALE when the file at that path
 * is not (or no longer) the mapped one.
 */
static int acl_open_by_name(pid_t pid, const struct acl_map *m, char *path,
			    size_t len, struct stat *st)
{
	if ((size_t)snprintf(path, len, "/proc/%d/root%s", (int)pid, m->file) >=
	    len)
		return -ENAMETOOLONG;
	if (!m->deleted && stat(path, st) == 0 && st->st_ino == m->ino &&
	    major(st->st_dev) == m->dev_major &&
	    minor(st->st_dev) == m->dev_minor)
		return 0;
	return acl_pid_alive(pid) ? -ESTALE : -ESRCH;
}

/*
 * Write into @path a name that opens exactly the file of mapping @m, and
 * stat it into @st: /proc/@pid/map_files/<start>-<end>, a link the kernel
 * resolves to the mapped file itself, even if it was replaced or deleted
 * on disk or lives in another mount namespace.  The inode is checked
 * against the maps line in case the range was remapped meanwhile (the
 * device is not: on btrfs stat reports a subvolume's device, not the one
 * maps prints).
 * Return: 0; -ESRCH when the process is gone; -ENOENT when the library was
 * unmapped meanwhile; -ESTALE (see acl_open_by_name()).
 */
static int acl_open_lib(pid_t pid, const struct acl_map *m, char *path,
			size_t len, struct stat *st)
{
	snprintf(path, len, "/proc/%d/map_files/%lx-%lx", (int)pid, m->start,
		 m->end);
	if (stat(path, st) == 0) {
		if (st->st_ino == m->ino)
			return 0;
		return -ENOENT;
	}
	if (errno == ENOENT)
		return acl_pid_alive(pid) ? -ENOENT : -ESRCH;
	return acl_open_by_name(pid, m, path, len, st);
}

static struct acl_lib *acl_lib_lookup(struct npuprof_acl_trace *t,
				      const struct stat *st)
{
	struct acl_lib *lib;

	for (lib = t->libs; lib; lib = lib->next)
		if (lib->dev == st->st_dev && lib->ino == st->st_ino)
			return lib;
	return NULL;
}

/* The name the probes are placed through: the kept fd of @lib. */
static void acl_lib_path(const struct acl_lib *lib, char *path, size_t len)
{
	snprintf(path, len, "/proc/self/fd/%d", lib->fd);
}

/*
 * The program for the entry (@ret 0) or return (1) probe of @api: the
 * generic one of the path picked (the id goes as cookie) or, without
 * cookies, @api's own.
 */
static struct bpf_program *acl_probe_prog(const struct npuprof_acl_trace *t, unsigned int api,
					  int ret)
{
	const struct acl_trace_bpf *skel = t->skel;

	if (!t->cookies)
		return acl_api_prog(skel, api, ret);
	if (t->task_storage)
		return ret ? skel->progs.acl_exit : skel->progs.acl_enter;
	return ret ? skel->progs.acl_exit_hash : skel->progs.acl_enter_hash;
}

/* One link per probe (kernels before 6.6). Return: 0 or -errno. */
static int acl_lib_probe_each(struct npuprof_acl_trace *t, struct acl_lib *lib,
			      const char *path)
{
	struct bpf_program *prog;
	struct bpf_link *link;
	unsigned int i, ret;

	for (i = 0; i < lib->sym.nr_funcs; i++) {
		for (ret = 0; ret < 2; ret++) {
			/* a cookie on a kernel without them fails the attach */
			LIBBPF_OPTS(bpf_uprobe_opts, opts,
				    .bpf_cookie = t->cookies ? lib->sym.apis[i] : 0,
				    .retprobe = ret);

			prog = acl_probe_prog(t, lib->sym.apis[i], ret);
			if (!prog)
				return -ENOENT;
			link = bpf_program__attach_uprobe_opts(prog, -1, path,
							       lib->sym.offs[i], &opts);
			if (!link)
				return -errno;
			lib->links[lib->nr_links++] = link;
		}
	}
	return 0;
}

/* One uprobe_multi link for all entries, one for all returns. */
static int acl_lib_probe_multi(struct npuprof_acl_trace *t, struct acl_lib *lib,
			       const char *path)
{
	struct bpf_program *progs[2] = { t->skel->progs.acl_enter_multi,
					 t->skel->progs.acl_exit_multi };
	unsigned int ret;
	int fd;

	for (ret = 0; ret < 2; ret++) {
		fd = uprobe_multi_attach(bpf_program__fd(progs[ret]), path, lib->sym.offs,
					 lib->sym.apis, lib->sym.nr_funcs, ret);
		if (fd < 0)
			return fd;
		lib->multi_fds[ret] = fd;
	}
	return 0;
}

/*
 * Place the entry and return probes of every function of @lib.
 * Return: 0; -errno from the kernel (NPUPROF_STAGE_ATTACH in @t->error),
 * with nothing placed.
 */
static int acl_lib_probe(struct npuprof_acl_trace *t, struct acl_lib *lib)
{
	char path[64];
	int err;

	if (lib->nr_links || lib->multi_fds[0] >= 0)
		return 0;
	acl_lib_path(lib, path, sizeof(path));
	err = t->multi ? acl_lib_probe_multi(t, lib, path)
		       : acl_lib_probe_each(t, lib, path);
	if (err) {
		acl_lib_unprobe(lib);
		acl_fail(t, NPUPROF_STAGE_ATTACH, err, 0, lib->name);
	}
	return err;
}

/*
 * Open the library at @path (@name: the file as the process @pid sees it,
 * for messages; @st: what stat() said of @path), resolve its functions in
 * its ELF symbols and, if a capture runs, place its probes.
 * Return: the new acl_lib, or NULL with *err set and @t->error filled:
 * NPUPROF_STAGE_LIBRARY with -ENOENT when the file at @path is no longer
 * the one stat() saw (remapped meanwhile) or -errno of open();
 * NPUPROF_STAGE_SYMBOLS with -ENOEXEC when a required function is missing;
 * NPUPROF_STAGE_ATTACH with -errno from the kernel.
 */
static struct acl_lib *acl_lib_attach(struct npuprof_acl_trace *t, const char *path,
				      const char *name, pid_t pid, const struct stat *st,
				      int *err)
{
	struct acl_lib *lib;
	struct stat fst;

	lib = calloc(1, sizeof(*lib));
	if (!lib) {
		*err = acl_fail(t, NPUPROF_STAGE_NONE, -ENOMEM, pid, name);
		return NULL;
	}
	lib->multi_fds[0] = lib->multi_fds[1] = -1;
	lib->dev = st->st_dev;
	lib->ino = st->st_ino;
	snprintf(lib->name, sizeof(lib->name), "%s", name);
	lib->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (lib->fd < 0) {
		*err = acl_fail(t, NPUPROF_STAGE_LIBRARY, -errno, pid, name);
	} else if (fstat(lib->fd, &fst) || fst.st_ino != st->st_ino) {
		*err = acl_fail(t, NPUPROF_STAGE_LIBRARY, -ENOENT, pid, name);
	} else {
		*err = acl_symbols_resolve(lib->fd, t->layers, &lib->sym, &t->error);
		if (*err) {
			t->error.pid = pid;
			snprintf(t->error.object, sizeof(t->error.object), "%s", name);
		}
	}
	if (!*err && t->probed && (*err = acl_lib_probe(t, lib)))
		t->error.pid = pid;
	if (!*err)
		return lib;
	acl_lib_free(lib);
	return NULL;
}

/* Set @bits in @pid's filter entry, keeping those it has (a followed child). */
static int acl_trace_add_tgid(struct npuprof_acl_trace *t, pid_t pid, __u8 bits)
{
	__u32 tgid = pid;
	__u8 old = 0;

	if (bpf_map__lookup_elem(t->skel->maps.tgids, &tgid, sizeof(tgid), &old, sizeof(old), 0))
		old = 0;
	old |= bits;
	return bpf_map__update_elem(t->skel->maps.tgids, &tgid, sizeof(tgid),
				    &old, sizeof(old), BPF_ANY);
}

/* Attach the exit program once (loaded: t->exit_prog).  Return: 0 or -errno. */
static int acl_trace_attach_exit(struct npuprof_acl_trace *t)
{
	if (t->exit_link)
		return 0;
	t->exit_link = bpf_program__attach(t->skel->progs.acl_exit_process);
	if (!t->exit_link)
		return -errno;
	return 0;
}

int npuprof_acl_trace_follow_pid(struct npuprof_acl_trace *t, pid_t pid)
{
	int err;

	if (pid <= 0)
		return -EINVAL;
	if (!t->follow)
		return -EOPNOTSUPP;
	if (!t->fork_link) { /* following needs both tracepoints */
		bool had_exit = t->exit_link != NULL;

		err = acl_trace_attach_exit(t);
		if (err)
			return err;
		t->fork_link = bpf_program__attach(t->skel->progs.acl_fork);
		if (!t->fork_link) {
			err = -errno;
			if (!had_exit) { /* one a selected process already needs stays */
				bpf_link__destroy(t->exit_link);
				t->exit_link = NULL;
			}
			return err;
		}
	}
	return acl_trace_add_tgid(t, pid, ACL_TGID_SELECTED | ACL_TGID_FOLLOW);
}

int npuprof_acl_trace_select_pid(struct npuprof_acl_trace *t, pid_t pid)
{
	if (pid <= 0)
		return -EINVAL;
	/*
	 * Without it the filter keeps an exited pid until msprof notices (at
	 * its next look, or the next start): a later process given the pid
	 * could be recorded meanwhile.  Best effort, as capture works
	 * without it; msprof checks each process's identity at every start.
	 */
	if (t->exit_prog)
		(void)acl_trace_attach_exit(t);
	return acl_trace_add_tgid(t, pid, ACL_TGID_SELECTED);
}

int npuprof_acl_trace_selected(const struct npuprof_acl_trace *t, pid_t pid)
{
	__u32 tgid = pid;
	__u8 bits;

	return !bpf_map__lookup_elem(t->skel->maps.tgids, &tgid, sizeof(tgid), &bits, sizeof(bits), 0);
}

uint64_t npuprof_acl_trace_follow_missed(const struct npuprof_acl_trace *t)
{
	return __atomic_load_n(&t->skel->bss->follow_missed, __ATOMIC_RELAXED);
}

/* @pid's stage of a failure before its library is open: gone or not. */
static enum npuprof_stage acl_pid_stage(int err)
{
	return err == -ESRCH || err == -EINVAL ? NPUPROF_STAGE_PROCESS : NPUPROF_STAGE_LIBRARY;
}

/* The library file of @layer (one bit). */
static const char *acl_layer_lib(unsigned int layer)
{
	return layer == NPUPROF_LAYER_RUNTIME ? NPUPROF_RUNTIME_LIB_NAME : NPUPROF_ACL_LIB_NAME;
}

/*
 * The library of @layer that @pid maps, attached: found in its maps,
 * opened, resolved (a file attached before is reused).  *@added is set
 * when the library is new (not yet on @t->libs).
 * Return: 0; -errno with @t->error filled (-ENOENT with
 * NPUPROF_STAGE_LIBRARY and *@unmapped 1: @pid maps no such library).
 */
static int acl_pid_lib(struct npuprof_acl_trace *t, pid_t pid, unsigned int layer,
		       struct acl_lib **lib, bool *added, bool *unmapped)
{
	char path[PATH_MAX + 32];
	struct acl_map m;
	struct stat st;
	int err;

	*added = *unmapped = false;
	err = acl_find_lib(pid, acl_layer_lib(layer), &m);
	if (err) {
		*unmapped = err == -ENOENT;
		/* libascendcl.so goes unnamed, as before the runtime layer */
		return acl_fail(t, acl_pid_stage(err), err, pid,
				layer == NPUPROF_LAYER_ACL ? NULL : acl_layer_lib(layer));
	}
	err = acl_open_lib(pid, &m, path, sizeof(path), &st);
	if (err)
		return acl_fail(t, acl_pid_stage(err), err, pid, m.file);
	*lib = acl_lib_lookup(t, &st);
	if (*lib)
		return 0;
	*lib = acl_lib_attach(t, path, m.file, pid, &st, &err);
	*added = *lib != NULL;
	return *lib ? 0 : err;
}

/* @t->untraced: the functions every library in @libs lacks, listed. */
static void acl_note_untraced(struct npuprof_acl_trace *t, struct acl_lib *const *libs,
			      unsigned int n)
{
	unsigned int i;
	size_t len;

	t->untraced[0] = '\0';
	for (i = 0; i < n; i++) {
		len = strlen(t->untraced);
		if (libs[i]->sym.missing[0])
			snprintf(t->untraced + len, sizeof(t->untraced) - len, "%s%s",
				 len ? " " : "", libs[i]->sym.missing);
	}
}

int npuprof_acl_trace_attach_pid(struct npuprof_acl_trace *t, pid_t pid)
{
	return npuprof_acl_trace_attach_pid_as(t, pid, pid);
}

int npuprof_acl_trace_host_pid(struct npuprof_acl_trace *t, pid_t pid, pid_t *host)
{
	struct bpf_program *prog = t->skel->progs.acl_host_pid;
	struct bpf_link *link;
	__u32 pair[64][2];
	ssize_t n;
	int fd, err = -ESRCH;

	*host = 0;
	if (!bpf_program__autoload(prog))
		return -EOPNOTSUPP;
	link = bpf_program__attach_iter(prog, NULL);
	if (!link)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		err = fd;
		goto out;
	}
	/* the iterator writes whole pairs; read to the end, as reading runs it */
	while ((n = read(fd, pair, sizeof(pair))) > 0) {
		for (size_t i = 0; i < (size_t)n / sizeof(pair[0]); i++) {
			if (pair[i][0] == (__u32)pid && !*host) {
				*host = (pid_t)pair[i][1];
				err = 0;
			}
		}
	}
	if (n < 0)
		err = -errno;
	close(fd);
out:
	bpf_link__destroy(link);
	return err;
}

int npuprof_acl_trace_attach_pid_as(struct npuprof_acl_trace *t, pid_t pid, pid_t tgid)
{
	static const unsigned int order[] = { NPUPROF_LAYER_ACL, NPUPROF_LAYER_RUNTIME };
	struct acl_lib *libs[2], *added[2];
	unsigned int i, nr_libs = 0, nr_added = 0, covered = 0;
	struct npuprof_error first = { 0 }; /* the first layer whose library is not mapped */
	int err = 0, first_err = 0;
	bool is_new, unmapped;

	npuprof_error_clear(&t->error);
	if (pid <= 0)
		return acl_fail(t, NPUPROF_STAGE_PROCESS, -EINVAL, pid, NULL);
	for (i = 0; i < 2; i++) {
		if (!(t->layers & order[i]) || (covered & order[i]))
			continue;
		err = acl_pid_lib(t, pid, order[i], &libs[nr_libs], &is_new, &unmapped);
		if (err && unmapped) {
			if (!first_err) {
				first_err = err;
				first = t->error;
			}
			continue; /* said below, if no other layer is there */
		}
		if (err)
			goto out_free;
		covered |= libs[nr_libs]->sym.layers;
		if (is_new)
			added[nr_added++] = libs[nr_libs];
		nr_libs++;
	}
	if (!covered) {
		t->error = first; /* only unmapped layers get here */
		return first_err;
	}
	npuprof_error_clear(&t->error);
	err = npuprof_acl_trace_select_pid(t, tgid);
	if (err) {
		acl_fail(t, NPUPROF_STAGE_ATTACH, err, pid, "the BPF process filter");
		goto out_free;
	}
	for (i = 0; i < nr_added; i++) {
		added[i]->next = t->libs;
		t->libs = added[i];
	}
	t->missing_layers = t->layers & ~covered;
	acl_note_untraced(t, libs, nr_libs);
	return 0;

out_free:
	for (i = 0; i < nr_added; i++)
		acl_lib_free(added[i]);
	return err;
}

int npuprof_acl_trace_attach_file(struct npuprof_acl_trace *t, const char *path)
{
	struct acl_lib *lib;
	struct stat st;
	int err;

	npuprof_error_clear(&t->error);
	if (stat(path, &st))
		return acl_fail(t, NPUPROF_STAGE_LIBRARY, -errno, 0, path);
	lib = acl_lib_lookup(t, &st);
	if (!lib) {
		lib = acl_lib_attach(t, path, path, 0, &st, &err);
		if (!lib)
			return err;
		lib->next = t->libs;
		t->libs = lib;
	}
	t->missing_layers = t->layers & ~lib->sym.layers;
	acl_note_untraced(t, &lib, 1);
	return 0;
}

const struct npuprof_error *npuprof_acl_trace_error(const struct npuprof_acl_trace *t)
{
	return &t->error;
}

const char *npuprof_acl_trace_untraced(const struct npuprof_acl_trace *t)
{
	return t->untraced;
}

unsigned int npuprof_acl_trace_missing_layers(const struct npuprof_acl_trace *t)
{
	return t->missing_layers;
}

unsigned int npuprof_acl_trace_layers(const struct npuprof_acl_trace *t)
{
	const struct acl_lib *lib;
	unsigned int layers = 0;

	for (lib = t->libs; lib; lib = lib->next)
		layers |= lib->sym.layers;
	return layers;
}

int npuprof_acl_trace_detach_pid(struct npuprof_acl_trace *t, pid_t pid)
{
	__u32 tgid = pid;

	return bpf_map__delete_elem(t->skel->maps.tgids, &tgid, sizeof(tgid),
				    0);
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

/* Remove every library's probes. */
static void acl_trace_unprobe(struct npuprof_acl_trace *t)
{
	struct acl_lib *lib;

	t->probed = false;
	for (lib = t->libs; lib; lib = lib->next)
		acl_lib_unprobe(lib);
}

/* Place every library's probes.  Return: 0 or -errno, with none placed. */
static int acl_trace_probe(struct npuprof_acl_trace *t)
{
	struct acl_lib *lib;
	int err;

	for (lib = t->libs; lib; lib = lib->next) {
		err = acl_lib_probe(t, lib);
		if (err) {
			acl_trace_unprobe(t);
			return err;
		}
	}
	t->probed = true;
	return 0;
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
