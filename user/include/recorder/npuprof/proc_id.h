/* SPDX-License-Identifier: MIT */
/*
 * Who a pid is, as the kernel tells it through procfs: the process's start
 * time, which no later process with the same pid shares, and its pid in
 * every pid namespace it lives in (a container's app sees a pid of its own).
 * The capture records both in each PROF dir's info.json and msprof checks
 * the start time again before every window, so a pid the kernel handed to
 * another process after the app exited is never captured in its place.
 */
#ifndef NPUPROF_PROC_ID_H
#define NPUPROF_PROC_ID_H

#include <stdint.h>
#include <sys/types.h>

/* Most pid namespaces a process is nested in that we keep (the kernel's limit is 32). */
#define NPUPROF_PROC_MAX_NS 32

/**
 * struct npuprof_proc_id - one process's identity
 * @start_ticks: field 22 of /proc/<pid>/stat, "starttime": when the process
 *               started, in clock ticks after boot (sysconf(_SC_CLK_TCK)
 *               per second); with the pid, it names one process for the
 *               whole uptime
 * @nspid:       the NSpid line of /proc/<pid>/status: its pid in each pid
 *               namespace from the one procfs was mounted in (first, the
 *               pid asked for) to its own (last, the pid the app sees);
 *               one entry outside any container, or on kernels before 4.1
 *               (no NSpid line: @nspid[0] is the pid asked for)
 * @nr_nspid:    entries in @nspid (1 to NPUPROF_PROC_MAX_NS)
 * @tgid:        the Tgid line of /proc/<pid>/status: the process the pid
 *               belongs to; another than the pid when the pid is one of
 *               its threads (procfs shows threads at /proc/<tid> too)
 */
struct npuprof_proc_id {
	uint64_t start_ticks;
	pid_t nspid[NPUPROF_PROC_MAX_NS];
	unsigned int nr_nspid;
	pid_t tgid;
};

/**
 * struct npuprof_proc_stat - the fields of /proc/<pid>/stat we use
 * @state:       field 3: R, S, D, Z (zombie), X (dead), T, t, I, ...
 * @ppid:        field 4: the parent, in the pid namespace of procfs
 *               (0 when the parent is outside it)
 * @start_ticks: field 22, as in struct npuprof_proc_id
 */
struct npuprof_proc_stat {
	char state;
	pid_t ppid;
	uint64_t start_ticks;
};

/**
 * npuprof_proc_stat_read() - parse @proc_dir/@pid/stat (proc(5)); comm may
 * hold any byte but NUL, so the fields are counted from its last ')'
 * @proc_dir: procfs root, NULL for "/proc"
 *
 * Return: 0 with *@st filled (zombies included); -ESRCH when there is no
 * such pid; -EBADMSG when the line cannot be parsed; another -errno from
 * reading it.  *@st is zeroed on any error.
 */
int npuprof_proc_stat_read(pid_t pid, const char *proc_dir, struct npuprof_proc_stat *st);

/**
 * npuprof_proc_id_read() - read @pid's identity from @proc_dir
 * @proc_dir: procfs root, NULL for "/proc" (tests pass a fake tree)
 *
 * Return: 0 with *@id filled; -ESRCH when the process does not exist (or
 * is a zombie: its pid is about to be free); -EBADMSG when its stat line
 * cannot be parsed; another -errno from reading the files.
 */
int npuprof_proc_id_read(pid_t pid, const char *proc_dir, struct npuprof_proc_id *id);

/**
 * npuprof_proc_id_same() - whether @pid is still the process @id was read
 * from: 1 yes; 0 it exited (and the pid is free or another process's);
 * -errno when procfs cannot say (the caller decides; msprof assumes yes).
 */
int npuprof_proc_id_same(pid_t pid, const char *proc_dir, const struct npuprof_proc_id *id);

/**
 * npuprof_proc_getenv() - the value of @name in the environment @pid was
 * exec'd with (/proc/@pid/environ: NAME=value strings, each ended by a
 * NUL, read one at a time, however long the environment), into @buf
 * (@size bytes, NUL-terminated); the first one when it is there twice.
 * Return: 0; -ENODATA when @name is not there; -ENAMETOOLONG when its
 * value does not fit @buf; -errno of opening it (-ENOENT: no such
 * process; -EACCES: not ours to read); -EIO when reading it failed.
 */
int npuprof_proc_getenv(pid_t pid, const char *name, char *buf, size_t size);

/**
 * npuprof_in_host_pid_ns() - whether this process runs in the initial pid
 * namespace (the host's), whose numbers npuprof.ko and the BPF programs
 * use: /proc/self/ns/pid is PROC_PID_INIT_INO (include/linux/proc_ns.h).
 * Return: 1 yes (also when procfs cannot say), 0 in a pid namespace of
 * its own (a container).
 */
int npuprof_in_host_pid_ns(void);

/**
 * npuprof_procfs_is_ours() - whether /proc numbers processes as this
 * process's pid namespace does (/proc/self names getpid()): not so in a
 * pid namespace that still sees the host's /proc (unshare --pid without
 * --mount-proc, a bind-mounted /proc).  Return: 1 yes, 0 no.
 */
int npuprof_procfs_is_ours(void);

#endif /* NPUPROF_PROC_ID_H */
