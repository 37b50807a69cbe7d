/* SPDX-License-Identifier: MIT */
/*
 * The capture session's insides, shared by its three files: session.c
 * (the lifecycle: create, members, start, stop, close), task_path.c
 * (choosing and opening the device-task path and the producers) and
 * session_prof.c (the PROF_XXX directories and their control files).
 * Not installed: the public API is npuprof/session.h.
 */
#ifndef NPUPROF_SESSION_INT_H
#define NPUPROF_SESSION_INT_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <npuprof/acl_trace.h>
#include <npuprof/devlog.h>
#include <npuprof/drain.h>
#include <npuprof/error.h>
#include <npuprof/kring.h>
#include <npuprof/npu_backend.h>
#include <npuprof/proc_id.h>
#include <npuprof/prof_control.h>
#include <npuprof/session.h>
#include <npuprof/stream_owner.h>
#include <npuprof/trace_switch.h>

/* Devices whose clock pairs the session keeps: ids 0 to 63. */
#define SESSION_MAX_DEVICES 64
#define SESSION_CLOCK_SAMPLES 3 /* pairs read at start and again at stop */

_Static_assert(2 * SESSION_CLOCK_SAMPLES <= NPUPROF_CTRL_CLOCK_PAIRS,
	       "info.json holds every clock pair read at start and stop");

/* One process of the session. */
struct session_member {
	pid_t pid;
	char comm[64];	/* read when added: the app may be gone by stop */
	int rank;	/* RANK from its environment (launchers set it), -1 if none */
	bool in_window; /* has a PROF_XXX directory in the running window */
	bool discard;	/* remove that directory at stop (the app refused) */
	bool leaving;	/* detached during the window: dropped at stop */
	bool followed;	/* joined by following a launcher, for this window only */
	uint64_t dev_started; /* bit d: device_<d>/start_info.<d> is written */
	struct npuprof_proc_id id; /* read when added; start_ticks 0 if unreadable */
	pid_t kpid;	/* the kernel's (host's) pid: @pid unless we run in a pid namespace */
	char prof_dir[PATH_MAX];
	char prof_name[128]; /* PROF_XXX: prof_dir's last component */
	int dir_fd;	/* prof_dir, open while in the window; -1 otherwise */
};

struct npuprof_session {
	struct npuprof_session_opts opts;
	char *output;
	int out_fd; /* --output, open: every PROF_XXX is made below it (prof_fs.h) */
	char *params_json;
	struct session_member members[NPUPROF_SESSION_MAX_PIDS];
	unsigned int nr_members;
	pthread_mutex_t lock; /* members, while the drain may add one */
	bool follow;	      /* a launcher is followed: members come from records */
	uint64_t stale_bytes; /* npuprof.ko bytes an earlier window left, dropped */
	struct npuprof_kring *kring;
	struct npuprof_acl_trace *acl;
	bool api; /* runtime-API capture (uprobes) asked for */
	bool submits; /* the halSqTaskSend() uprobe (npuprof_session_submits()) */
	pid_t submits_missing; /* first process whose libascend_hal.so was not probed */
	int submits_why;       /* its -errno */
	struct npuprof_task_capture_info tasks;
	struct npuprof_drain *drain;
	struct npuprof_loss *cpu_loss; /* the drain's per-CPU losses */
	unsigned int nr_cpu_loss;
	struct npuprof_drain_ring *rings; /* the drain's ring counters at stop */
	unsigned int nr_rings;
	int running;
	struct npuprof_error error;	       /* the last failure, as values */
	char error_text[PATH_MAX * 2];	       /* the same in words, for logs */
	char untraced[NPUPROF_ERROR_FUNCS_MAX]; /* ACL functions the library lacks */
	unsigned int layers;	     /* enum npuprof_api_layer bits probed */
	unsigned int missing_layers; /* of those, layers a process attached maps no library of */
	struct npuprof_ctrl_edge begin, end; /* the window's edges */
	struct timespec begin_real;
	struct npuprof_ctrl_clocks clocks[SESSION_MAX_DEVICES];
	struct npu_host host; /* the NPU driver and devices, found at create */
	/* the window's device-log reader (a backend with device_log), kept
	 * after the stop for its outcomes until the next start or the close */
	struct npuprof_devlog *devlog;
	/* info.json "taskTiming" of the window's devices, filled at stop */
	struct npuprof_ctrl_timing timing[SESSION_MAX_DEVICES];
	unsigned int nr_timing;
	/* the driver's tracepoint switches, on during a window (trace_switch.h) */
	struct npuprof_trace_switch trsw;
	bool trsw_said; /* its outcome was said (once per session) */
	/* stream -> owner pid, for task records without a pid (device_log drivers) */
	struct npuprof_stream_owners *owners;
};

/* session.c: note a failure of @stage on @what (may be NULL) for @pid (0: none). */
void session_set_error(struct npuprof_session *s, enum npuprof_stage stage, int err, pid_t pid,
		       const char *what);

/* session.c: note the runtime-API capture's own account of its failure @err. */
void session_set_acl_error(struct npuprof_session *s, int err, pid_t pid);

/*
 * task_path.c: the NPU driver and devices of the host, into @s->host
 * (sysfs, else the driver whose tracepoints the kernel has).
 */
void session_find_host(struct npuprof_session *s);

/*
 * task_path.c: pick the device-task path and open the producers the
 * options ask for (npuprof.ko's rings, the BPF object).  Return: 0 or
 * -errno, noted as the session's error.
 */
int session_open_producers(struct npuprof_session *s);

/*
 * session_prof.c: make @m's PROF_XXX/host/data below --output and hold it
 * open.  @report: note a failure as the session's error (not from the
 * drain thread).  Return: 0 or -errno.
 */
int session_make_prof_dir(struct npuprof_session *s, struct session_member *m, bool report);

/*
 * session_prof.c: at start, @m's host/start_info and the start_info.<d>
 * of the devices it holds open.  Return: 0 or -errno (host/start_info's).
 */
int session_start_member(struct npuprof_session *s, struct session_member *m);

/*
 * session_prof.c: at stop, @m's end_info, info.json, sample.json and its
 * devices' control files; @res (may be NULL) filled with its result.
 * Return: 0 or the first -errno.
 */
int session_finish_member(struct npuprof_session *s, struct session_member *m,
			  const struct npuprof_drain_stats *rst,
			  const struct npuprof_drain_stats *st, struct npuprof_session_result *res);

/* session_prof.c: the window is over for @m: its PROF_XXX is closed. */
void session_close_prof_dir(struct session_member *m);

/* session_prof.c: remove @m's PROF_XXX (a discarded window) and close it. */
void session_remove_prof_dir(struct npuprof_session *s, struct session_member *m);

/* session_prof.c: session_remove_prof_dir() of every member. */
void session_remove_prof_dirs(struct npuprof_session *s);

#endif /* NPUPROF_SESSION_INT_H */
