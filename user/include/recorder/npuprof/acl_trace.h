/* SPDX-License-Identifier: MIT */
/*
 * Runtime-API capture: loads bpf/acl_trace.bpf.c (CO-RE, through its
 * generated skeleton), attaches uprobes and uretprobes on the ACL functions
 * of the exact libascendcl.so a process has mapped, filters by tgid in the
 * kernel and reads the per-CPU BPF ring buffers.
 *
 * A call is recorded whole if it entered and returned inside one enabled
 * period (between npuprof_acl_trace_enable(t, 1) and the next enable(t, 0)
 * or enable(t, 1)).  A call still in flight when the capture is stopped (a
 * long aclrtSynchronizeStream, say) is written by the stop, flagged
 * NPUPROF_API_CUT_END (npuprof/record.h: entry time and arguments, no
 * return), on kernels with BTF; a call in flight when the capture starts
 * gives no record, so no capture holds a call from before it began.
 *
 * The uprobes exist only while recording: attaching resolves the library
 * and its functions (so its errors show at attach), the start places the
 * probes and the stop removes them, so an attached process that is not
 * being captured runs at full speed.
 *
 * npuprof_acl_trace_consume() may run in another thread than the rest.
 * All functions return 0 or a negative errno; none sets errno, none
 * prints.  Attaching and enabling also keep their last failure as values
 * (npuprof_acl_trace_error()): which stage, on which file, which functions.
 */
#ifndef NPUPROF_ACL_TRACE_H
#define NPUPROF_ACL_TRACE_H

#include <stdint.h>
#include <sys/types.h>
#include <npuprof/error.h>
#include <npuprof/npu_driver.h>
#include <npuprof/record_io.h>

struct npuprof_acl_trace;

/*
 * The API layers a capture can probe (npuprof_acl_trace_opts.layers), one
 * bit each: CANN's AscendCL level (20000, the acl* functions of
 * libascendcl.so; msprof --ascendcl) and its Runtime level (5000, the rt*
 * functions of libruntime.so, which libascendcl.so calls; msprof
 * --runtime-api).  npuprof_api_level() gives each API's level.
 */
enum npuprof_api_layer {
	NPUPROF_LAYER_ACL = 1,
	NPUPROF_LAYER_RUNTIME = 2,
};

/* File names (up to the first '.so') of each layer's library. */
#define NPUPROF_ACL_LIB_NAME "libascendcl.so"
#define NPUPROF_RUNTIME_LIB_NAME "libruntime.so"

/**
 * struct npuprof_acl_trace_opts - what npuprof_acl_trace_open_opts() loads
 * @ring_bytes:  bytes asked for each per-CPU ring buffer, rounded up by
 *               npuprof_acl_trace_ring_size() with the running page size;
 *               npuprof_acl_trace_ring_bytes() says the size made
 * @follow:      1 to load the fork/exit programs that follow forked
 *               processes (npuprof_acl_trace_follow_pid(); needs kernel BTF)
 * @layers:      enum npuprof_api_layer bits whose functions are probed;
 *               0 means NPUPROF_LAYER_ACL alone (the callers before the
 *               runtime layer existed)
 * @task_layout: NULL, or the argument layout of the NPU driver's task
 *               tracepoints (include/npuprof/npu_driver.h): loads the
 *               raw tracepoint programs that capture device tasks without
 *               npuprof.ko (npuprof_acl_trace_attach_tasks()).  Copied into
 *               the programs' read-only data before load.
 * @submits:     1 to load the program that records device task submits
 *               from a uprobe on halSqTaskSend() in the libascend_hal.so
 *               of each process (npuprof_acl_trace_attach_submits()): for
 *               drivers whose tracepoints see no submit, the real Ascend
 *               driver (struct npu_backend.device_log).  0: nothing of it
 *               is loaded.
 * @task_layouts: per event (enum npuprof_tp_bit order), a layout for a
 *               tracepoint whose prototype differs from @task_layout's;
 *               NULL entries take @task_layout.  Task programs load when
 *               any layout is given.
 */
struct npuprof_acl_trace_opts {
	uint32_t ring_bytes;
	int follow;
	unsigned int layers;
	const struct npu_tp_layout *task_layout;
	int submits;
	const struct npu_tp_layout *task_layouts[NPU_TP_EVENTS];
};

/*
 * File name of the driver library whose halSqTaskSend() the submit uprobe
 * goes on (ASCEND_HAL_LIB), as NPUPROF_ACL_LIB_NAME for the ACL layer.
 */
#define NPUPROF_HAL_LIB_NAME "libascend_hal.so"

/* Largest BPF ring buffer: the largest power of two its u32 size holds. */
#define NPUPROF_BPF_RING_MAX_BYTES (1U << 31)

/**
 * npuprof_acl_trace_ring_size() - bytes of the BPF ring buffer made for a
 * request of @want bytes
 * @want:      bytes asked for, > 0
 * @page_size: the running kernel's page size, bytes, a power of two
 * @bytes:     out: @want rounded up to a power of two of at least one
 *             page, so a whole number of pages as the kernel requires
 *             (4096 asked on a 64 KiB-page kernel makes 65536)
 *
 * Pure: the loader calls it with sysconf(_SC_PAGESIZE), tests with any.
 *
 * Return: 0; -EINVAL for @want 0 or a page size that is not a power of
 * two; -E2BIG when the result would pass NPUPROF_BPF_RING_MAX_BYTES.
 */
int npuprof_acl_trace_ring_size(uint64_t want, uint64_t page_size, uint32_t *bytes);

/**
 * npuprof_acl_trace_open() - load the BPF programs and create one ring
 * buffer per possible CPU of @ring_bytes, rounded up to a power of two
 * and a whole number of pages (npuprof_acl_trace_ring_size())
 * Return: 0; -EPERM without CAP_BPF/CAP_PERFMON; -EINVAL or -E2BIG for a
 * @ring_bytes npuprof_acl_trace_ring_size() refuses; -errno from libbpf.
 */
int npuprof_acl_trace_open(uint32_t ring_bytes, struct npuprof_acl_trace **out);

/**
 * npuprof_acl_trace_ring_bytes() - bytes of each per-CPU ring buffer as
 * made: the size asked for, rounded up for the running page size
 */
uint32_t npuprof_acl_trace_ring_bytes(const struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_open_follow() - npuprof_acl_trace_open() that can also
 * follow forked processes (npuprof_acl_trace_follow_pid()); it loads two
 * BTF-typed tracepoint programs, so it needs the kernel's BTF.
 */
int npuprof_acl_trace_open_follow(uint32_t ring_bytes, struct npuprof_acl_trace **out);

/**
 * npuprof_acl_trace_open_opts() - npuprof_acl_trace_open() with the
 * choices of @opts.  Return: as npuprof_acl_trace_open(); -EINVAL for a
 * a task layout with more than NPU_TP_MAX_ARGS arguments.
 */
int npuprof_acl_trace_open_opts(const struct npuprof_acl_trace_opts *opts,
				struct npuprof_acl_trace **out);

/**
 * npuprof_acl_trace_attach_tasks() - capture device task events through
 * BPF: attach the task programs to the driver tracepoints named @names (in
 * enum npuprof_tp_bit order: submit, start, end, stream sync; a NULL name
 * is skipped), as raw tracepoints, by name
 * @status: out: per tracepoint, 0 when attached, else -errno: -ENOENT when
 *          the kernel has no tracepoint of that name (its driver is not
 *          loaded, or has other names), -EINVAL when it has fewer arguments
 *          than the layout reads, -EOPNOTSUPP for a NULL name
 *
 * A tracepoint that cannot be attached is not an error: its events are
 * not captured, and @status says why, by position.  Records of selected
 * tgids (the tgid *argument*, the task's owner) go into the rings while
 * capture is enabled, as the calls' do, and count in
 * npuprof_acl_trace_stats().  Attached until npuprof_acl_trace_close().
 * Return: number of tracepoints attached (0..NPU_TP_EVENTS); -EINVAL when
 * @t was opened without a task layout; -EALREADY when called before.
 */
int npuprof_acl_trace_attach_tasks(struct npuprof_acl_trace *t,
				   const char *const names[NPU_TP_EVENTS],
				   int status[NPU_TP_EVENTS]);

/**
 * npuprof_acl_trace_attach_submits() - record @pid's device task submits:
 * a uprobe on halSqTaskSend() in the libascend_hal.so @pid maps, placed
 * by every start as the ACL probes are (a file attached before, for
 * another process, is reused)
 *
 * Each SQE the process sends while it is selected (the tgid filter:
 * attach_pid(), select_pid(), follow_pid()) and capture is enabled
 * becomes one NPUPROF_TASK_SUBMIT task record in the rings (what goes
 * where: bpf/acl_trace.bpf.c, acl_sq_send); SQEs that get none (more than
 * ACL_SQ_SEND_MAX_SQES in one call, unreadable) count as lost in
 * npuprof_acl_trace_stats() and in npuprof_acl_trace_sqe_skipped().  The
 * library is found and reached as npuprof_acl_trace_attach_pid() finds
 * libascendcl.so.  Does not select @pid.
 *
 * Return: 0; -EINVAL when @t was opened without opts.submits or @pid <= 0
 * (NPUPROF_STAGE_PROCESS); -ESRCH (NPUPROF_STAGE_PROCESS); -ENOENT when
 * @pid maps no libascend_hal.so, or -errno of opening it
 * (NPUPROF_STAGE_LIBRARY); -ENOEXEC when it defines no halSqTaskSend
 * (NPUPROF_STAGE_SYMBOLS); -errno from the kernel placing the probe while
 * recording (NPUPROF_STAGE_ATTACH).  All noted in npuprof_acl_trace_error().
 */
int npuprof_acl_trace_attach_submits(struct npuprof_acl_trace *t, pid_t pid);

/**
 * npuprof_acl_trace_attach_submits_file() - npuprof_acl_trace_attach_submits()
 * for the libascend_hal.so at @path, before any process maps it (a job
 * about to start), selecting no process.  Return: 0 (also when that file
 * is attached already); -EINVAL without opts.submits; -errno of stat() or
 * open() (NPUPROF_STAGE_LIBRARY); -ENOEXEC when it defines no
 * halSqTaskSend (NPUPROF_STAGE_SYMBOLS); -errno from the kernel
 * (NPUPROF_STAGE_ATTACH).
 */
int npuprof_acl_trace_attach_submits_file(struct npuprof_acl_trace *t, const char *path);

/**
 * npuprof_acl_trace_sqe_skipped() - SQEs of selected processes' halSqTaskSend()
 * calls that got no record since the last enable(t, 1): past
 * ACL_SQ_SEND_MAX_SQES (bpf/acl_trace.h) in one call, or unreadable (a bad
 * SQE address; a bad info pointer counts 1).  Also in the lost counts of
 * npuprof_acl_trace_stats().  0 without opts.submits.
 */
uint64_t npuprof_acl_trace_sqe_skipped(const struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_select_pid() - record @pid's device tasks (and calls,
 * on libraries some attach placed probes on) without resolving its
 * libascendcl.so: the task-only capture of a process.
 * Return: 0; -EINVAL; -errno from the bpf() system call (-E2BIG: the
 * filter holds ACL_TRACE_MAX_PIDS processes already).
 */
int npuprof_acl_trace_select_pid(struct npuprof_acl_trace *t, pid_t pid);

/** npuprof_acl_trace_close() - detach everything, free. NULL is a no-op. */
void npuprof_acl_trace_close(struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_attach_pid() - trace process @pid
 *
 * For each layer the capture probes (npuprof_acl_trace_opts.layers), the
 * library of that layer (libascendcl.so, libruntime.so) is attached as
 * follows.  A layer whose library @pid does not map is not an error while
 * another layer's is attached: npuprof_acl_trace_missing_layers() says
 * which; when none is, the attach fails with -ENOENT as below (@object
 * then names the library looked for when that is not libascendcl.so).
 *
 * Finds the libascendcl.so mapping /proc/@pid/maps lists, reaches exactly
 * the mapped file through /proc/@pid/map_files (so a process in a
 * container, or one whose library was replaced or deleted on disk since it
 * was loaded, is probed where its code runs), keeps that file open and
 * the offsets of its functions, read from its ELF symbols before any probe
 * is placed, for the probes every start places on it (later pids mapping
 * the same device and inode reuse them; while recording they are placed at
 * once), and adds @pid to the tgid filter.  Without access to map_files (it needs
 * CAP_SYS_ADMIN) the file is opened by name through /proc/@pid/root, and
 * only if it still has the device and inode the maps line gives.
 *
 * A recorded function that only some runtimes have is skipped when the
 * library lacks it: npuprof_acl_trace_untraced() names those.
 *
 * Return: 0; and on failure, with npuprof_acl_trace_error() saying so:
 * -EINVAL, -ESRCH when the process is gone (NPUPROF_STAGE_PROCESS);
 * -ENOENT when it has no libascendcl.so mapped, -ESTALE when map_files is
 * closed and the file at the mapped path is no longer the mapped one,
 * -errno of opening it (NPUPROF_STAGE_LIBRARY); -ENOEXEC when the library
 * has no ELF symbols or lacks a function every ACL runtime has (aclInit,
 * aclFinalize, aclrtSetDevice, aclrtResetDevice; NPUPROF_STAGE_SYMBOLS,
 * named in its functions); -errno from the kernel placing a probe while
 * recording, or adding @pid to the filter (NPUPROF_STAGE_ATTACH).  On
 * failure nothing stays attached for @pid.
 */
int npuprof_acl_trace_attach_pid(struct npuprof_acl_trace *t, pid_t pid);

/**
 * npuprof_acl_trace_pid_maps_acl() - whether process @pid maps a
 * libascendcl.so (libascendcl.so.1 too), as npuprof_acl_trace_attach_pid()
 * looks for it in /proc/@pid/maps.  Return: 1 yes, 0 no (or gone).
 */
int npuprof_acl_trace_pid_maps_acl(pid_t pid);

/**
 * npuprof_acl_trace_attach_pid_as() - npuprof_acl_trace_attach_pid() for a
 * process procfs names @pid and the kernel @tgid: msprof in a pid
 * namespace of its own reads /proc/@pid (its namespace's) while the
 * filter, and every record, hold the host's @tgid
 * (npuprof_acl_trace_host_pid()).  Return: as attach_pid.
 */
int npuprof_acl_trace_attach_pid_as(struct npuprof_acl_trace *t, pid_t pid, pid_t tgid);

/**
 * npuprof_acl_trace_host_pid() - the host's pid of the process the
 * caller's pid namespace numbers @pid
 * @host: out: its tgid in the initial pid namespace (what the filter and
 *        the records use)
 *
 * Walks the caller's namespace with a BPF task iterator.  Return: 0;
 * -ESRCH when no process there has that pid; -EOPNOTSUPP without the
 * kernel's BTF (no iterator); -errno from creating or reading it.
 */
int npuprof_acl_trace_host_pid(struct npuprof_acl_trace *t, pid_t pid, pid_t *host);

/**
 * npuprof_acl_trace_follow_pid() - trace @pid and every process it forks
 * from now on (children, grandchildren, fork+exec'd ranks), each from its
 * first instruction; a forked process leaves the filter when it exits.
 * @pid need not map libascendcl.so (a launcher does not): the uprobes are
 * placed by npuprof_acl_trace_attach_pid() of a process that maps it, and a
 * rank's library is the same file as its siblings'.
 * Return: 0; -EINVAL; -EOPNOTSUPP when @t was not opened with
 * npuprof_acl_trace_open_follow(); -errno from attaching the tracepoints.
 */
int npuprof_acl_trace_follow_pid(struct npuprof_acl_trace *t, pid_t pid);

/** npuprof_acl_trace_selected() - 1 while @pid is in the filter, else 0. */
int npuprof_acl_trace_selected(const struct npuprof_acl_trace *t, pid_t pid);

/**
 * npuprof_acl_trace_follow_missed() - forked processes of followed ones
 * that the filter (ACL_TRACE_MAX_PIDS) had no room for, since open.
 */
uint64_t npuprof_acl_trace_follow_missed(const struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_attach_file() - probe the library at @path (from the
 * next start, or at once while recording) before any process maps it (a
 * job about to start), selecting no process.  The functions of every
 * layer the capture probes that the file holds are probed, whatever its
 * name.  Return: 0 (also when that file is attached already); -errno of
 * stat() or open() (NPUPROF_STAGE_LIBRARY); -ENOEXEC when it holds no
 * runtime of those layers (NPUPROF_STAGE_SYMBOLS); -errno from the kernel
 * (NPUPROF_STAGE_ATTACH).
 */
int npuprof_acl_trace_attach_file(struct npuprof_acl_trace *t, const char *path);

/**
 * npuprof_acl_trace_error() - the last failure of attach_pid(),
 * attach_file(), enable() or discard() on @t (each clears it first):
 * stage, -errno, pid, the library file as the process sees it.  Owned by
 * @t, valid until its next such call.  Failures of open() are all
 * NPUPROF_STAGE_BPF_LOAD and have no @t to keep them.
 */
const struct npuprof_error *npuprof_acl_trace_error(const struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_untraced() - after a successful attach_pid() or
 * attach_file(): the recorded functions its library lacks (a runtime older
 * than the one npuprof knows), separated by one space, whose calls are not
 * captured; "" when it has them all.  Owned by @t.
 */
const char *npuprof_acl_trace_untraced(const struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_missing_layers() - after a successful attach_pid():
 * the enum npuprof_api_layer bits asked for whose library that process
 * does not map (its calls of that layer are not captured); 0 when every
 * layer's library was found.  After attach_file(): the layers asked for
 * that the file does not hold.
 */
unsigned int npuprof_acl_trace_missing_layers(const struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_layers() - the enum npuprof_api_layer bits of the
 * libraries attached so far (by attach_pid() or attach_file()): the layers
 * whose calls the probes can record.
 */
unsigned int npuprof_acl_trace_layers(const struct npuprof_acl_trace *t);

/** npuprof_acl_trace_detach_pid() - drop @pid from the filter. */
int npuprof_acl_trace_detach_pid(struct npuprof_acl_trace *t, pid_t pid);

/**
 * npuprof_acl_trace_enable() - start (@on 1) or stop (@on 0) recording
 *
 * Stop returns once no probe can write a record any more, so a consume
 * after it gets the whole capture, including one NPUPROF_API_CUT_END
 * record per call still in flight (written and counted like the others),
 * and removes the uprobes.  Start places
 * the uprobes on every attached library, then begins a new capture: it
 * consumes and discards what is still in the rings (see
 * npuprof_acl_trace_stale()), forgets the calls in flight, resets the
 * counters, and only then turns recording on.
 * Return: 0; -errno from placing a uprobe (NPUPROF_STAGE_ATTACH in
 * npuprof_acl_trace_error(), on the library that refused; none is placed
 * then) or from the bpf() system call (NPUPROF_STAGE_CAPTURE).
 */
int npuprof_acl_trace_enable(struct npuprof_acl_trace *t, int on);

/**
 * npuprof_acl_trace_discard() - stop recording, wait for running probes,
 * remove them, and throw away what the rings still hold (an earlier capture's records
 * nobody drained).  Call it before another reader starts consuming, so
 * those records cannot reach a new capture; npuprof_acl_trace_enable(t, 1)
 * does the same, but a reader already running could beat it to them.
 * Return: 0; -errno from the bpf() system call.
 */
int npuprof_acl_trace_discard(struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_stale() - records discarded as an earlier capture's
 * between the previous start and the last npuprof_acl_trace_enable(t, 1),
 * by npuprof_acl_trace_discard() and the enable itself (0 when the earlier
 * capture was consumed to the end)
 */
uint64_t npuprof_acl_trace_stale(struct npuprof_acl_trace *t);

/** npuprof_acl_trace_fd() - an fd that polls readable when any ring has data. */
int npuprof_acl_trace_fd(const struct npuprof_acl_trace *t);

/** npuprof_acl_trace_consume() - hand all available records to @fn.
 * Return: records delivered or a negative errno. */
long npuprof_acl_trace_consume(struct npuprof_acl_trace *t, npuprof_rec_fn fn, void *ctx);

/**
 * npuprof_acl_trace_task_storage() - 1 when calls in flight are kept in BPF
 * task-local storage, 0 when in the BPF hash map: kernels before 5.15 (no
 * cookies, see struct npuprof_acl_probe_path) or without BTF, or
 * NPUPROF_BPF_INFLIGHT=hash in the environment at open.
 * The same records either way; the hash costs more per call.
 */
int npuprof_acl_trace_task_storage(const struct npuprof_acl_trace *t);

/**
 * struct npuprof_acl_probe_path - how the runtime-API probes work: the best
 * way the running kernel offers, picked at open
 * @multi:        1: one uprobe_multi link per library file for all entries
 *                and one for all returns (Linux 6.6+); 0: one link per
 *                function and direction
 * @task_storage: as npuprof_acl_trace_task_storage()
 * @cookies:      1: every attachment carries its function's API id as a
 *                BPF cookie (Linux 5.15+); 0: one program per function,
 *                the id a constant in it
 * @forced:       1 when NPUPROF_BPF_INFLIGHT=hash or NPUPROF_BPF_API_ID=
 *                program made a lesser choice than the kernel allows
 */
struct npuprof_acl_probe_path {
	int multi;
	int task_storage;
	int cookies;
	int forced;
};

/** npuprof_acl_trace_probe_path() - fill @p with the path @t took. */
void npuprof_acl_trace_probe_path(const struct npuprof_acl_trace *t,
				  struct npuprof_acl_probe_path *p);

/** npuprof_acl_trace_nr_cpus() - number of per-CPU rings. */
unsigned int npuprof_acl_trace_nr_cpus(const struct npuprof_acl_trace *t);

/**
 * npuprof_acl_trace_stats() - counts on @cpu since the last enable(t, 1)
 * @written: records committed to @cpu's ring buffer (calls and tasks)
 * @lost:    calls and tasks that have no record: failed ring buffer
 *           reserves plus calls whose in-flight state could not be kept
 *           (no memory for it, the in-flight map full, or overwritten by
 *           the same thread and function), and submitted SQEs the
 *           halSqTaskSend() probe could not record
 *           (npuprof_acl_trace_sqe_skipped()); on CPU 0 also the task events
 *           the kernel did not run a task program for
 *           (npuprof_acl_trace_task_missed(): the kernel does not say on
 *           which CPU)
 * Return: 0; -EINVAL for a @cpu beyond npuprof_acl_trace_nr_cpus(); -errno.
 */
int npuprof_acl_trace_stats(struct npuprof_acl_trace *t, unsigned int cpu,
			    uint64_t *written, uint64_t *lost);

/**
 * npuprof_acl_trace_skipped() - bytes of one CPU's ring buffer that were
 * not a record
 * @bytes: out: bytes of the samples npuprof_acl_trace_consume() (and the
 *         discards) found too short to be a record, or shorter than their
 *         header said, on @cpu's ring since npuprof_acl_trace_open*()
 *         (enable does not reset it); the drain source's skipped() shape.
 *         How many records they were is the ring's written counter
 *         (npuprof_acl_trace_stats()) less the records read from it.
 *
 * Return: 0; -ENXIO when @cpu has no ring.
 */
int npuprof_acl_trace_skipped(const struct npuprof_acl_trace *t, unsigned int cpu,
			      uint64_t *bytes);

/**
 * npuprof_acl_trace_task_missed() - task events since the last
 * enable(t, 1) that had no record because the kernel skipped the task
 * program: a raw tracepoint program interrupted on its CPU by a hit of
 * the same tracepoint (an interrupt handler firing it) is not run again
 * inside itself; the kernel counts that per program (recursion_misses),
 * not per CPU.  0 without task capture.
 * Return: the count, or a negative errno from reading the programs' info.
 */
int64_t npuprof_acl_trace_task_missed(struct npuprof_acl_trace *t);

#endif /* NPUPROF_ACL_TRACE_H */
