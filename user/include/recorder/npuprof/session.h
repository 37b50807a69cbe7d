/* SPDX-License-Identifier: MIT */
/*
 * A capture session: everything between one msprof "start" and "stop" for
 * one or more processes.  Creating a session and adding its pids does the
 * slow, fallible work once (open npuprof.ko's rings, load the BPF
 * programs, attach the uprobes for each pid); start and stop are then
 * quick: create one PROF_XXX directory per process, enable capture and
 * start the drain; disable, drain the rest and write the control files.
 *
 * The processes of a session share its rings (npuprof.ko: possible CPUs x
 * ring_pages pages; BPF: possible CPUs x 1 MiB), whatever their number, and
 * the drain routes records by pid.  Ring counters (written, lost) are
 * therefore the session's, and every process's info.json says which pids
 * shared them.
 *
 * PROF_XXX layout follows CANN (shared/reference/msprof.md section 3):
 * PROF_<000001>_<local time to ms>_<pid %08d><8 letters A-R>/ with
 * host/data, device_<id>/data, start_info, end_info, info.json,
 * sample.json.  All functions return 0 or a negative errno and print
 * nothing; the caller words the messages from npuprof_session_error(): the
 * stage that failed, as a value (npuprof/error.h).
 */
#ifndef NPUPROF_SESSION_H
#define NPUPROF_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <npuprof/error.h>
#include <npuprof/loss.h>
#include <npuprof/npu_driver.h>
#include <npuprof/npuprof_ioctl.h>

/* CPUs a stop's result lists with their losses (info.json has them all). */
#define NPUPROF_RESULT_LOSS_CPUS 16

/* Processes one session can profile: what one npuprof.ko session holds. */
#define NPUPROF_SESSION_MAX_PIDS NPUPROF_MAX_TGIDS

/*
 * How device tasks are captured (npuprof_session_opts.task_capture):
 * through npuprof.ko's rings, or through BPF programs on the NPU driver's
 * tracepoints (the same records, when the module is absent or cannot be
 * loaded: Secure Boot, kernel lockdown, no headers to build it).
 */
enum npuprof_task_capture {
	NPUPROF_TASK_CAPTURE_AUTO = 0, /* npuprof.ko if /dev/npuprof opens, else BPF */
	NPUPROF_TASK_CAPTURE_KMOD = 1, /* npuprof.ko or nothing */
	NPUPROF_TASK_CAPTURE_BPF = 2,  /* BPF, even with npuprof.ko loaded */
};

/* The path a session captures device tasks through. */
enum npuprof_task_path {
	NPUPROF_TASK_PATH_NONE = 0, /* no task capture (--task-time=off) */
	NPUPROF_TASK_PATH_KMOD = 1,
	NPUPROF_TASK_PATH_BPF = 2,
};

/**
 * struct npuprof_session_opts - what to collect and where
 * @output:      --output directory, for paths in messages and results
 * @output_fd:   --output, open (npuprof_prof_output_open(); the session
 *               keeps a dup), or -1 (any fd <= 2, so a zeroed struct too;
 *               prof_fs never hands those out) to open @output, which
 *               must exist.
 *               Every PROF_XXX is made below it without following a
 *               symlink (npuprof/prof_fs.h).
 * @ascendcl:    1 to record AscendCL API calls (--ascendcl)
 * @runtime_api: 1 to record runtime API calls (--runtime-api)
 * @task_time:   1 to record device tasks (--task-time)
 * @params_json: the ProfileParams JSON sent to the app; saved as sample.json
 * @kdev:        npuprof.ko device path, NULL for /dev/npuprof
 * @follow:      1 when npuprof_session_follow_pid() will be used (loads
 *               the BPF programs that follow forks; needs kernel BTF)
 * @task_capture: enum npuprof_task_capture; AUTO lets the environment
 *               decide: NPUPROF_TASK_CAPTURE=kmod|bpf|auto (unset: auto)
 * @storage_limit: bytes of slices each PROF_XXX may hold (--storage-limit),
 *               0 for no limit: the oldest slices are removed beyond it
 *               (npuprof_drain_config.storage_limit); info.json
 *               "storageLimit" says what went
 * @writer:      enum npuprof_writer (npuprof/drain.h) for every window's
 *               drain; AUTO (0) lets NPUPROF_WRITER decide, else io_uring
 *               with the pwrite fallback; info.json "drain" "writer" says
 *               which ran
 * @submits:     device task submits from the halSqTaskSend() uprobe in
 *               each process's libascend_hal.so (npuprof/acl_trace.h,
 *               npuprof_acl_trace_attach_submits()): 0 when the host's
 *               driver backend says so (struct npu_backend.device_log: its
 *               tracepoints see no submit) and --task-time is on; 1
 *               always with --task-time; -1 never
 * @api_off:     why API calls asked for are not captured (msprof's
 *               preflight: "bpf() is refused (...)"), with @ascendcl and
 *               @runtime_api 0; info.json "apiNotCaptured" keeps it.  NULL
 *               or "": not written.  Must live as long as the session.
 */
struct npuprof_session_opts {
	const char *output;
	int output_fd;
	int ascendcl;
	int runtime_api;
	int task_time;
	const char *params_json;
	const char *kdev;
	int follow;
	int task_capture;
	uint64_t storage_limit;
	int writer;
	const char *api_off;
	int submits;
};

/* Room for the words of npuprof_task_capture_info.reason. */
#define NPUPROF_TASK_REASON_LEN 192

/**
 * struct npuprof_task_capture_info - how a session captures device tasks
 * @path:      enum npuprof_task_path
 * @reason:    why that path, for a person: "npuprof.ko loaded",
 *             "npuprof.ko not loaded (no /dev/npuprof; kernel lockdown:
 *             integrity; Secure Boot)", "NPUPROF_TASK_CAPTURE=bpf"; "" for
 *             NONE
 * @driver:    name of the driver backend whose tracepoints are used
 *             (npuprof_session_host()'s, or on the npuprof.ko path the one
 *             the module found tracepoints of); NULL when no known driver
 *             is there (BPF: no task is captured, the tracepoints are
 *             unknown; npuprof.ko: the module attaches whatever it knows)
 * @tp_names:  its tracepoints, in enum npuprof_tp_bit order
 * @tp_status: per tracepoint, 0 attached (BPF) or found by the module
 *             (npuprof.ko), else -errno (-ENOENT: the kernel has no
 *             tracepoint of that name); its events are then not captured
 * @list_err:  npuprof.ko path: -errno of listing the module's tracepoints
 *             (-ENOTTY: a module older than ABI 1.3), 0 when listed
 */
struct npuprof_task_capture_info {
	int path;
	char reason[NPUPROF_TASK_REASON_LEN];
	const char *driver;
	const char *tp_names[NPU_TP_EVENTS];
	int tp_status[NPU_TP_EVENTS];
	int list_err;
};

/**
 * struct npuprof_session_result - what one start/stop produced for one process
 * @pid:          the process
 * @rank:         its RANK (from its environment), -1 when unknown
 * @discarded:    1 when no directory was kept (not in the window, or the
 *                app refused the start: npuprof_session_discard_pid())
 * @prof_dir:     path of the PROF_XXX directory
 * @api_records:  runtime API records saved
 * @task_records: device task records saved
 * @loss:         records produced in the window that are not in its files,
 *                by cause (npuprof/loss.h): write errors of this process's
 *                files; ring full and decode errors of the session's rings
 *                (all CPUs, both sources, shared by its processes)
 * @cpu_loss:     the first NPUPROF_RESULT_LOSS_CPUS CPUs (by id) whose
 *                rings lost records, with their losses (the session's rings)
 * @nr_cpu_loss:  entries of @cpu_loss
 * @write_error:  first -errno of a write (-ENOSPC: disk full), 0 if none
 * @unwritten:    control files that could not be written, space-separated
 *                ("host/end_info host/info.json"), "" when all were
 * @unwritten_error: the first -errno of those, 0 when all were written
 * @skipped_bytes: ring bytes skipped after a corrupt record header
 * @start_unix_ns: window start on the wall clock (start_info), ns
 * @end_unix_ns:  window end on the wall clock (end_info), ns
 * @follow_missed: processes of the followed job that the session could
 *                not take (full), since it was created; 0 when not following
 * @unrouted:     records of processes of the followed job that got no
 *                PROF_XXX directory (it could not be made, or the session
 *                was full), lost in this window; the session's count, the
 *                same in every result of the window (never sum them)
 */
struct npuprof_session_result {
	pid_t pid;
	int rank;
	int discarded;
	char prof_dir[4096];
	uint64_t api_records;
	uint64_t task_records;
	struct npuprof_loss loss;
	struct npuprof_loss cpu_loss[NPUPROF_RESULT_LOSS_CPUS];
	unsigned int nr_cpu_loss;
	int write_error;
	char unwritten[96];
	int unwritten_error;
	uint64_t skipped_bytes;
	int64_t start_unix_ns;
	int64_t end_unix_ns;
	uint64_t follow_missed;
	uint64_t unrouted;
};

struct npuprof_session;
struct npuprof_acl_probe_path;

/*
 * Every function below that can fail also notes the failure in
 * npuprof_session_error(), whose stage says where: the stages each can
 * give are in brackets.  A request that does not fit the session's state
 * (a window runs, the pid is in already, the session is full) is
 * NPUPROF_STAGE_SESSION.
 */

/**
 * npuprof_session_create() - open the producers, with no process yet
 *
 * Device tasks (@task_time): through npuprof.ko when /dev/npuprof opens;
 * when it is missing or has no module behind it (-ENOENT, -ENODEV,
 * -ENXIO) and task_capture is AUTO, through BPF programs on the driver's
 * tracepoints instead (npuprof_session_task_capture() says which and why).
 * A tracepoint the kernel lacks does not fail the session.
 * Return: 0; -ENOENT when /dev/npuprof is missing and task_capture is
 * KMOD, -EPERM/-EACCES without root, -EUSERS when npuprof.ko has
 * max_sessions sessions open already [MODULE]; -EINVAL for a bad
 * NPUPROF_TASK_CAPTURE [SESSION]; -errno of loading the BPF programs
 * (with the module missing too: neither path works) [BPF_LOAD]; -errno
 * of opening --output [OUTPUT].  On failure nothing stays open;
 * npuprof_session_error(NULL) has the stage.
 */
int npuprof_session_create(const struct npuprof_session_opts *opts,
			   struct npuprof_session **out);

/**
 * npuprof_session_task_capture() - how @s captures device tasks (valid
 * while @s is open)
 */
const struct npuprof_task_capture_info *
npuprof_session_task_capture(const struct npuprof_session *s);

/**
 * npuprof_session_add_pid() - profile process @pid too (between windows)
 *
 * @pid as the caller's pid namespace numbers it: from a namespace other
 * than the host's (a container, with its own /proc) the host's pid, which
 * the kernel side uses, is found with a BPF task iterator; without one
 * (no kernel BTF, no BPF object) that is -EOPNOTSUPP [PROCESS].
 * Return: 0; -ESRCH when @pid is gone [PROCESS]; -EBUSY when another
 * session profiles it [MODULE]; -EBUSY while a window runs, -EEXIST when
 * already in, -E2BIG beyond NPUPROF_SESSION_MAX_PIDS [SESSION]; from the
 * BPF side (npuprof_acl_trace_attach_pid()): -ENOENT when @pid has no
 * libascendcl.so mapped, -ESTALE [LIBRARY]; -ENOEXEC when the library
 * lacks a function every runtime has [SYMBOLS, named]; -errno of the
 * kernel [ATTACH].  Functions only newer runtimes have are skipped, not
 * failed: npuprof_session_untraced().  On failure nothing of @pid stays
 * attached.
 */
int npuprof_session_add_pid(struct npuprof_session *s, pid_t pid);

/**
 * npuprof_session_remove_pid() - stop profiling @pid (it exited, or its
 * server left).  During a window its data so far is kept and saved by the
 * stop, which then drops it.  Return: 0, -ENOENT when not in the session.
 */
int npuprof_session_remove_pid(struct npuprof_session *s, pid_t pid);

/**
 * npuprof_session_discard_pid() - keep no directory of @pid for the
 * running window (its app refused the start); it stays in the session for
 * the next one.  Return: 0; -EINVAL when no window runs for it.
 */
int npuprof_session_discard_pid(struct npuprof_session *s, pid_t pid);

/**
 * npuprof_session_follow_pid() - follow launcher @pid: every process it
 * forks from now on (ranks, fork+exec'd or not) is captured from before its
 * first instruction, and gets a PROF_XXX directory in each window in which
 * it has a record (made at that first record).  @pid itself is captured
 * too.  Call before the launcher starts anything; place the uprobes with
 * npuprof_session_add_pid() of a rank once one maps libascendcl.so.
 * Return: 0; -EBUSY while a window runs [SESSION]; -errno of npuprof.ko
 * [MODULE] (-ENOTTY: an npuprof.ko without following) or of attaching the
 * BPF fork/exit tracepoints [ATTACH]; -EOPNOTSUPP outside the host's pid
 * namespace, where the forks' numbers are not the kernel's [PROCESS].
 */
int npuprof_session_follow_pid(struct npuprof_session *s, pid_t pid);

/**
 * npuprof_session_probe_file() - place the uprobes on the libascendcl.so
 * at @path before the job maps it, so a followed job's calls are captured
 * from its first one.  Return: 0; -errno [LIBRARY, SYMBOLS, ATTACH].
 */
int npuprof_session_probe_file(struct npuprof_session *s, const char *path);

/**
 * npuprof_session_probe_pid() - place the uprobes on the libascendcl.so
 * that @pid maps (and select @pid), without making it a member: for a
 * followed job, whose members come from their records.  With
 * npuprof_session_submits() also the halSqTaskSend() probe on its
 * libascend_hal.so (one it does not map is noted, not an error:
 * npuprof_session_submits_missing()).  Works while a
 * window runs.  Return: 0 (also without runtime-API capture); -ENOENT
 * when @pid maps no libascendcl.so; -errno as npuprof_session_add_pid().
 */
int npuprof_session_probe_pid(struct npuprof_session *s, pid_t pid);

/**
 * npuprof_session_probe_submits_file() - with npuprof_session_submits():
 * put the halSqTaskSend() probe on the libascend_hal.so at @path before
 * the job maps it (npuprof_acl_trace_attach_submits_file()).  Return: 0
 * (also without submits); -errno [LIBRARY, SYMBOLS, ATTACH].
 */
int npuprof_session_probe_submits_file(struct npuprof_session *s, const char *path);

/**
 * npuprof_session_pid_owner() - after add_pid() said -EBUSY: the pid of
 * the process (an msprof) whose session profiles @pid, in *@owner (0 when
 * none).  Return: 0 or -errno.
 */
int npuprof_session_pid_owner(struct npuprof_session *s, pid_t pid, pid_t *owner);

/**
 * npuprof_session_window_dirs() - PROF_XXX directories the running window
 * keeps (processes in it, not discarded); 0 when no window runs.
 */
unsigned int npuprof_session_window_dirs(const struct npuprof_session *s);

/**
 * npuprof_session_prof_dir() - the PROF_XXX directory of @pid in the
 * running window, NULL when it has none (no window, or discarded).
 */
const char *npuprof_session_prof_dir(const struct npuprof_session *s, pid_t pid);

/**
 * npuprof_session_start() - a new window: a PROF_XXX dir and start_info
 * per process, enable capture.  Return: 0; -EALREADY; -ENOENT with no
 * process [SESSION]; -errno of a directory (nothing is left of the window then;
 * -ENOTDIR/-EEXIST: a symlink or file was planted where a PROF file goes)
 * [OUTPUT]; -errno of the kernel placing the uprobes [ATTACH, on the
 * library that refused]; -errno of enabling a producer or the drain
 * [MODULE, CAPTURE].
 */
int npuprof_session_start(struct npuprof_session *s);

struct npu_host;

/**
 * npuprof_session_host() - the NPU driver and devices the session found
 * at create (npuprof/npu_backend.h): the backend that recognised the
 * driver (NULL when none), the module owning the device nodes, the device
 * ids.  When sysfs names no module for existing device nodes (a misc
 * device has no bound parent), the backend is the known driver whose
 * tracepoints the kernel has (their names carry its prefix), owner "".
 * Valid while @s lives.
 */
const struct npu_host *npuprof_session_host(const struct npuprof_session *s);

/**
 * npuprof_session_probe_path() - how @s's runtime-API probes work on this
 * kernel (struct npuprof_acl_probe_path, npuprof/acl_trace.h)
 * Return: 0 with @p filled; -ENOENT when @s places no runtime-API probe.
 */
int npuprof_session_probe_path(const struct npuprof_session *s,
			       struct npuprof_acl_probe_path *p);

/** npuprof_session_running() - 1 between start and stop. */
int npuprof_session_running(const struct npuprof_session *s);

/**
 * npuprof_session_stop() - disable capture, drain, write end_info,
 * info.json and sample.json of every process in the window
 * @res:  one result per process, in the order they joined (those the
 *        drain added last); NPUPROF_SESSION_MAX_PIDS entries hold them all;
 *        may be NULL
 * @nres: entries of @res
 * Return: 0 or the first -errno (the data of every process is still saved)
 * [OUTPUT, MODULE, CAPTURE; SESSION when no window runs].
 */
int npuprof_session_stop(struct npuprof_session *s, struct npuprof_session_result *res,
			 unsigned int nres);

/**
 * npuprof_session_discard() - undo a start the app refused: disable
 * capture, stop the drain and remove the new PROF_XXX directory.
 */
int npuprof_session_discard(struct npuprof_session *s);

/** npuprof_session_close() - stop if running, detach, free. NULL is a no-op. */
void npuprof_session_close(struct npuprof_session *s);

/**
 * npuprof_session_error() - the last failure of @s as values (stage,
 * -errno, pid, the object it concerns; npuprof/error.h); with @s NULL, of
 * the last npuprof_session_create() of this thread.  Owned by @s (or the
 * thread), overwritten by the next failure.  A tool words its messages
 * from this.
 */
const struct npuprof_error *npuprof_session_error(const struct npuprof_session *s);

/**
 * npuprof_session_last_error() - the same failure in plain words for a
 * log, "<object>: <strerror>" (e.g. "/dev/npuprof: No such file or
 * directory"); never to decide anything by.
 */
const char *npuprof_session_last_error(const struct npuprof_session *s);

/**
 * npuprof_session_untraced() - the recorded ACL functions that the
 * libascendcl.so attached so far lacks (an older runtime), separated by one
 * space, "" when none: their calls are not captured, and every info.json
 * lists them as "untracedFunctions".
 */
const char *npuprof_session_untraced(const struct npuprof_session *s);

/**
 * npuprof_session_api_layers() - the enum npuprof_api_layer bits whose
 * calls the session captures: those --ascendcl/--runtime-api asked for
 * whose library is probed (npuprof_acl_trace_layers()); info.json's
 * "apiLevels" names them ("AscendCL", "Runtime").
 */
unsigned int npuprof_session_api_layers(const struct npuprof_session *s);

/**
 * npuprof_session_missing_layers() - layers asked for whose calls are
 * not (all) captured: no library of the layer is probed, or a process
 * attached so far does not map one (--runtime-api=on with an app that
 * loads no libruntime.so).  0 when none.
 */
unsigned int npuprof_session_missing_layers(const struct npuprof_session *s);

struct npuprof_devlog_dev;

/**
 * npuprof_session_device_log() - what became of each device's log in the
 * last window (npuprof/devlog.h: an outcome and its words per device,
 * the reader's counts once the window stopped), for a host whose driver
 * gives task begin/end only through the device log (npu_backend
 * device_log).  Valid until the next start or the close.
 * @n: out: entries
 * Return: the devices, or NULL with *@n 0 when no reader ran.
 */
const struct npuprof_devlog_dev *npuprof_session_device_log(const struct npuprof_session *s,
							    unsigned int *n);

/**
 * npuprof_session_submits() - whether the session records device task
 * submits from the halSqTaskSend() uprobe (npuprof_session_opts.submits):
 * 1 yes, 0 no
 */
int npuprof_session_submits(const struct npuprof_session *s);

/**
 * npuprof_session_submits_missing() - with npuprof_session_submits(): the
 * first process attached (add_pid(), probe_pid()) whose libascend_hal.so
 * could not be probed, so its device tasks have no SUBMIT record (no
 * host pid, thread or API call for them); 0 when none
 * @why: out (may be NULL): its -errno (-ENOENT: it maps no
 *       libascend_hal.so; -ENOEXEC: the file has no halSqTaskSend)
 */
pid_t npuprof_session_submits_missing(const struct npuprof_session *s, int *why);

#endif /* NPUPROF_SESSION_H */
