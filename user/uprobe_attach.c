// SPDX-License-Identifier: MIT
/*
 * Uprobes of the runtime-API capture (npuprof/acl_trace.h): finding the
 * ACL and runtime libraries (libascendcl.so, libruntime.so) a process
 * maps or a path names, resolving their recorded functions, and placing
 * and removing a uprobe and a uretprobe on each of those functions.
 *
 * The same for the device task submits of the real Ascend driver: one
 * entry uprobe on halSqTaskSend() in the libascend_hal.so a process maps
 * (npuprof_acl_trace_attach_submits(); the program is acl_sq_send), kept
 * with the API libraries as one more file with one probe.
 *
 * Probes exist only while capturing, but one.  Attaching a process or
 * file resolves the library (and the functions' offsets in it) and keeps
 * it open; the uprobes themselves are placed by the start (enable 1) and
 * removed by the stop (enable 0), so a process that is attached but not
 * captured runs without a trap in any function it calls per step.  The
 * exception is aclrtBinaryGetFunction(): its entry and return probes
 * (acl_lib_probe_names()) are placed at attach and stay until close, so
 * that the kernel names a process looks up at its set-up, outside any
 * capture window, name its launches later (bpf/acl_trace.bpf.c,
 * func_names).  On kernels with uprobe_multi links (6.6+) all
 * entries of a file are one link and all returns another, because removing
 * a uprobe waits for the kernel once per link (tens of ms each on 6.18);
 * older kernels (the 6.1 test VM) get one link per probe.  With BPF
 * cookies (5.15+) every link carries the API id to one generic program;
 * without them each function has a program pair of its own.
 *
 * Probes are placed per library *file* (device + inode) for every process,
 * so a second process mapping the same libascendcl.so costs one map update:
 * the tgid filter in the BPF program (proc_filter.c) decides what is
 * recorded.  The file is reached through /proc/PID/map_files (proc_maps.c),
 * a link to exactly the file the process mapped, so a library replaced or
 * deleted on disk since the process loaded it is still probed where its
 * code runs; the loader keeps it open and places the probes through
 * /proc/self/fd/N, so the file stays reachable when that process is gone.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "acl_trace_int.h"
#include <npuprof/drv/ascend_hal_abi.h> /* after <linux/types.h> (its types) */
#include "acl_trace.skel.h" /* after the types it uses */
#include "elf_func.h"
#include "proc_maps.h"
#include "uprobe_multi.h"

/* The program of @api's entry (@ret 0) or return (1), kernels without cookies. */
struct bpf_program *acl_api_prog(const struct acl_trace_bpf *skel, unsigned int api, int ret)
{
	char name[32];

	snprintf(name, sizeof(name), "acl_%s_api%u", ret ? "exit" : "enter", api);
	return bpf_object__find_program_by_name(skel->obj, name);
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

/* Remove @lib's probes (the name probes too), close its file and free it. */
void acl_lib_free(struct acl_lib *lib)
{
	acl_lib_unprobe(lib);
	bpf_link__destroy(lib->name_links[0]);
	bpf_link__destroy(lib->name_links[1]);
	if (lib->fd >= 0)
		close(lib->fd);
	free(lib);
}

int npuprof_acl_trace_pid_maps_acl(pid_t pid)
{
	struct proc_map m;

	return proc_maps_find(pid, NPUPROF_ACL_LIB_NAME, &m) == 0;
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

/* libascend_hal.so: one entry probe on halSqTaskSend() (no cookie, no return). */
static int acl_lib_probe_hal(struct npuprof_acl_trace *t, struct acl_lib *lib, const char *path)
{
	LIBBPF_OPTS(bpf_uprobe_opts, opts);
	struct bpf_link *link;

	link = bpf_program__attach_uprobe_opts(t->skel->progs.acl_sq_send, -1, path,
					       lib->sym.offs[0], &opts);
	if (!link)
		return -errno;
	lib->links[lib->nr_links++] = link;
	return 0;
}

/*
 * Place the entry and return probes of every function of @lib (of a
 * libascend_hal.so: its one submit probe).
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
	if (lib->hal)
		err = acl_lib_probe_hal(t, lib, path);
	else
		err = t->multi ? acl_lib_probe_multi(t, lib, path)
			       : acl_lib_probe_each(t, lib, path);
	if (err) {
		acl_lib_unprobe(lib);
		acl_fail(t, NPUPROF_STAGE_ATTACH, err, 0, lib->name);
	}
	return err;
}

/*
 * The probes that name function handles (bpf/acl_trace.bpf.c,
 * acl_name_enter and acl_name_exit) on @lib's aclrtBinaryGetFunction(),
 * if it has one: placed now and kept until @lib is freed, whether a
 * capture runs or not (the one exception to "probes only while
 * capturing": see the BPF side).
 * Return: 0; -errno from the kernel (NPUPROF_STAGE_ATTACH, the file
 * named), with neither placed.
 */
static int acl_lib_probe_names(struct npuprof_acl_trace *t, struct acl_lib *lib)
{
	struct bpf_program *progs[2] = { t->skel->progs.acl_name_enter,
					 t->skel->progs.acl_name_exit };
	char path[64];
	unsigned int i, ret;

	for (i = 0; i < lib->sym.nr_funcs; i++)
		if (lib->sym.apis[i] == NPUPROF_API_RT_BINARY_GET_FUNCTION)
			break;
	if (i == lib->sym.nr_funcs)
		return 0;
	acl_lib_path(lib, path, sizeof(path));
	for (ret = 0; ret < 2; ret++) {
		LIBBPF_OPTS(bpf_uprobe_opts, opts, .retprobe = ret);

		lib->name_links[ret] = bpf_program__attach_uprobe_opts(progs[ret], -1, path,
								       lib->sym.offs[i], &opts);
		if (!lib->name_links[ret]) {
			int err = -errno;

			bpf_link__destroy(lib->name_links[0]);
			lib->name_links[0] = NULL;
			return acl_fail(t, NPUPROF_STAGE_ATTACH, err, 0, lib->name);
		}
	}
	return 0;
}

/*
 * halSqTaskSend's offset in the open libascend_hal.so of @lib, as its one
 * function.  Return: 0; -ENOEXEC (NPUPROF_STAGE_SYMBOLS, the function
 * named) when the file defines none or has no ELF symbols; -ENOMEM.
 */
static int acl_hal_resolve(struct npuprof_acl_trace *t, struct acl_lib *lib)
{
	const char *name = ASCEND_HAL_SQ_TASK_SEND;
	uint64_t off = 0;
	int err;

	memset(&lib->sym, 0, sizeof(lib->sym));
	err = elf_func_offsets(lib->fd, &name, 1, &off);
	if (!err && !off)
		err = -ENOEXEC;
	if (err) {
		npuprof_error_set(&t->error, NPUPROF_STAGE_SYMBOLS, err, 0, NULL);
		snprintf(t->error.functions, sizeof(t->error.functions), "%s", name);
		return err;
	}
	lib->sym.offs[0] = off;
	lib->sym.nr_funcs = 1;
	return 0;
}

/*
 * Open the library at @path (@name: the file as the process @pid sees it,
 * for messages; @st: what stat() said of @path), resolve its functions in
 * its ELF symbols (@hal: halSqTaskSend of a libascend_hal.so, else the
 * recorded API functions), place its aclrtBinaryGetFunction() name probes
 * (acl_lib_probe_names()) and, if a capture runs, its other probes.
 * Return: the new acl_lib, or NULL with *err set and @t->error filled:
 * NPUPROF_STAGE_LIBRARY with -ENOENT when the file at @path is no longer
 * the one stat() saw (remapped meanwhile) or -errno of open();
 * NPUPROF_STAGE_SYMBOLS with -ENOEXEC when a required function is missing;
 * NPUPROF_STAGE_ATTACH with -errno from the kernel.
 */
static struct acl_lib *acl_lib_attach(struct npuprof_acl_trace *t, const char *path,
				      const char *name, pid_t pid, const struct stat *st,
				      bool hal, int *err)
{
	struct acl_lib *lib;
	struct stat fst;

	lib = calloc(1, sizeof(*lib));
	if (!lib) {
		*err = acl_fail(t, NPUPROF_STAGE_NONE, -ENOMEM, pid, name);
		return NULL;
	}
	lib->multi_fds[0] = lib->multi_fds[1] = -1;
	lib->hal = hal;
	lib->dev = st->st_dev;
	lib->ino = st->st_ino;
	snprintf(lib->name, sizeof(lib->name), "%s", name);
	lib->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (lib->fd < 0) {
		*err = acl_fail(t, NPUPROF_STAGE_LIBRARY, -errno, pid, name);
	} else if (fstat(lib->fd, &fst) || fst.st_ino != st->st_ino) {
		*err = acl_fail(t, NPUPROF_STAGE_LIBRARY, -ENOENT, pid, name);
	} else {
		*err = hal ? acl_hal_resolve(t, lib)
			   : acl_symbols_resolve(lib->fd, t->layers, &lib->sym, &t->error);
		if (*err) {
			t->error.pid = pid;
			snprintf(t->error.object, sizeof(t->error.object), "%s", name);
		}
	}
	if (!*err && !hal && (*err = acl_lib_probe_names(t, lib)))
		t->error.pid = pid;
	if (!*err && t->probed && (*err = acl_lib_probe(t, lib)))
		t->error.pid = pid;
	if (!*err)
		return lib;
	acl_lib_free(lib);
	return NULL;
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
	struct proc_map m;
	struct stat st;
	int err;

	*added = *unmapped = false;
	err = proc_maps_find(pid, acl_layer_lib(layer), &m);
	if (err) {
		*unmapped = err == -ENOENT;
		/* libascendcl.so goes unnamed, as before the runtime layer */
		return acl_fail(t, acl_pid_stage(err), err, pid,
				layer == NPUPROF_LAYER_ACL ? NULL : acl_layer_lib(layer));
	}
	err = proc_map_file(pid, &m, path, sizeof(path), &st);
	if (err)
		return acl_fail(t, acl_pid_stage(err), err, pid, m.path);
	*lib = acl_lib_lookup(t, &st);
	if (*lib)
		return 0;
	*lib = acl_lib_attach(t, path, m.path, pid, &st, false, &err);
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

/*
 * The libascend_hal.so at @path (@name as @pid sees it, 0: no process;
 * @st its stat()) attached for its submit probe, unless it is already.
 * Return: 0 or -errno with @t->error filled.
 */
static int acl_hal_add(struct npuprof_acl_trace *t, const char *path, const char *name,
		       pid_t pid, const struct stat *st)
{
	struct acl_lib *lib;
	int err;

	if (acl_lib_lookup(t, st))
		return 0;
	lib = acl_lib_attach(t, path, name, pid, st, true, &err);
	if (!lib)
		return err;
	lib->next = t->libs;
	t->libs = lib;
	return 0;
}

int npuprof_acl_trace_attach_submits(struct npuprof_acl_trace *t, pid_t pid)
{
	char path[PATH_MAX + 32];
	struct proc_map m;
	struct stat st;
	int err;

	npuprof_error_clear(&t->error);
	if (!t->submits || pid <= 0)
		return acl_fail(t, NPUPROF_STAGE_PROCESS, -EINVAL, pid, NULL);
	err = proc_maps_find(pid, NPUPROF_HAL_LIB_NAME, &m);
	if (err)
		return acl_fail(t, acl_pid_stage(err), err, pid, NPUPROF_HAL_LIB_NAME);
	err = proc_map_file(pid, &m, path, sizeof(path), &st);
	if (err)
		return acl_fail(t, acl_pid_stage(err), err, pid, m.path);
	return acl_hal_add(t, path, m.path, pid, &st);
}

int npuprof_acl_trace_attach_submits_file(struct npuprof_acl_trace *t, const char *path)
{
	struct stat st;

	npuprof_error_clear(&t->error);
	if (!t->submits)
		return acl_fail(t, NPUPROF_STAGE_LIBRARY, -EINVAL, 0, path);
	if (stat(path, &st))
		return acl_fail(t, NPUPROF_STAGE_LIBRARY, -errno, 0, path);
	return acl_hal_add(t, path, path, 0, &st);
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
		lib = acl_lib_attach(t, path, path, 0, &st, false, &err);
		if (!lib)
			return err;
		lib->next = t->libs;
		t->libs = lib;
	}
	t->missing_layers = t->layers & ~lib->sym.layers;
	acl_note_untraced(t, &lib, 1);
	return 0;
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

/* Remove every library's probes. */
void acl_trace_unprobe(struct npuprof_acl_trace *t)
{
	struct acl_lib *lib;

	t->probed = false;
	for (lib = t->libs; lib; lib = lib->next)
		acl_lib_unprobe(lib);
}

/* Place every library's probes.  Return: 0 or -errno, with none placed. */
int acl_trace_probe(struct npuprof_acl_trace *t)
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
