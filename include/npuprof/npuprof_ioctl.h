/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * User ABI of npuprof.ko: the /dev/npuprof misc device, its ioctls and the
 * memory layout of the per-CPU ring buffers it maps into the reader.
 *
 * Ring layout.  Every possible CPU c owns one region of
 * info.region_size bytes at mmap offset c * info.region_size; a page is
 * info.page_size bytes, the kernel's page size (4, 16 or 64 KiB: never
 * assume one), and include/npuprof/ring_geom.h does the arithmetic:
 *
 *   +0 page             struct npuprof_ring_consumer  (map read-write)
 *   +1 page             struct npuprof_ring_producer  (map read-only)
 *   +2 pages            data, info.data_size bytes    (map read-only)
 *
 * The reader maps the consumer page PROT_READ|PROT_WRITE with one mmap()
 * and the producer page plus data PROT_READ with a second one; any
 * writable mapping beyond the consumer page fails with EPERM, a length that
 * does not fit the region fails with EINVAL, a CPU without a ring with
 * ENXIO.
 *
 * Positions are free-running byte counts (never wrap in practice);
 * the byte at position p lives at data[p & (data_size - 1)].  data_size is a
 * power of two.  A record never wraps: when it would, the producer fills
 * the rest of the ring with one NPUPROF_REC_PAD record and starts at offset
 * 0.  The producer publishes producer_pos with release semantics after the
 * record is complete; the consumer reads it with acquire semantics, reads
 * records in [consumer_pos, producer_pos) and then stores consumer_pos with
 * release semantics.  A record that does not fit in the free space is not
 * written and counted in @lost (discard mode: the newest records are lost,
 * never a silent drop).  A consumer_pos ahead of producer_pos, or more than
 * data_size behind it, cannot come from a reader following these rules:
 * the ring then counts as full, for the producer (every record lost) and
 * for poll() (POLLIN) alike.
 *
 * Sessions.  Every open() of /dev/npuprof is one capture session with its
 * own rings, tgids, enable state, counters and poll() readiness; mmap(),
 * poll() and every ioctl act on the session of the file they are given
 * (descriptors dup()ed or inherited from that open() share it).
 * The rings are allocated at open: possible CPUs x (ring_pages + 2) pages
 * per session (1 MiB of data + 2 pages per CPU at the default ring_pages,
 * whatever the page size), open() fails with ENOMEM when they cannot be had.
 * At most max_sessions sessions (module parameter, default 64) exist at
 * once: one more open() fails with EUSERS (EMFILE and ENFILE would be the
 * caller's or the system's file limit).  A tgid belongs to at most one
 * session: ADD_TGID of a tgid another session owns fails with EBUSY and
 * changes nothing, and TGID_OWNER names the process that opened that
 * session.  Each event goes only to the session that owns its tgid, if
 * that session is enabled, so one session's full ring never costs another
 * session a record.
 *
 * Following (1.2).  ADD_TGID_FLAGS with NPUPROF_TGID_FOLLOW adds a tgid
 * whose new processes join the session too: when any thread of a followed
 * process forks a new process (not a thread: CLONE_THREAD children share
 * its tgid), the child's tgid joins the same session, followed as well,
 * before the child runs a single instruction (the kernel's
 * sched_process_fork tracepoint fires before the child is first woken), so
 * even its first task is recorded.  exec keeps the tgid, so fork+exec
 * children stay in, and so do grandchildren.  Children join while the
 * session is open, whether capture is enabled or not; children forked
 * before the ADD are not followed.  A child does not join, and counts as
 * missed in FOLLOW_STATS, when the session has NPUPROF_MAX_TGIDS tgids,
 * when there is no memory for its entry, or when another session has its
 * tgid already (that session keeps it).
 *
 * Exit (1.2).  A tgid leaves its session, whether added or followed, when
 * its process exits: when the last of its threads enters do_exit() (the
 * sched_process_exit tracepoint), before its parent can reap it, so a pid
 * number reused by a later, unrelated process is never recorded by the old
 * session (unless added again, or forked by a followed process).  Events
 * the driver reports for the tgid after that (tasks still running when the
 * process died) are not recorded; DEL_TGID of it fails with ENOENT and
 * TGID_OWNER reports 0.  A thread exiting while others live changes
 * nothing.  The slot it held is free for the next child.  A tgid added
 * while no process has it, or while its process is already exiting (an
 * ADD racing with the exit), stays until a process of that number exits.
 *
 * Control: a reader opens /dev/npuprof, adds the tgids to record, enables
 * capture, poll()s for POLLIN (data at or above the watermark, or any data
 * after DISABLE), disables capture (returns once no probe can still be
 * writing into this session) and drains what is left.  The last close of
 * the file (mappings hold it open too) disables capture, gives its tgids
 * up to other sessions and frees its rings.  Modules of ABI 1.0 had one
 * session (a second open() failed with EBUSY) and no TGID_OWNER; modules
 * of ABI 1.1 have neither ADD_TGID_FLAGS nor FOLLOW_STATS (ENOTTY) and
 * keep a tgid after its process exited, until DEL_TGID or close.
 *
 * Drivers (1.3).  npuprof.ko knows the task tracepoints of every driver
 * backend it was built with (include/npuprof/drv/), by name, and attaches
 * to those of whichever driver is loaded (one NPU driver per host; the
 * simulated ones, npusim and npustub, are never loaded together).
 * GET_TP_STATUS says which of the four events are covered; LIST_TP names
 * each tracepoint found, its backend and module.  Modules of ABI 1.2 and
 * older know npusim's tracepoints only and fail LIST_TP with ENOTTY.
 *
 * Queue and completion events (1.4): two more event bits, QUEUED and CQE,
 * for a driver whose tracepoints see a task handed to the hardware queue
 * and its completion entry, never its execution (the real Ascend driver's
 * trs_chan:sqe and trs_core:logic_cqe, include/npuprof/drv/trs_tp.h).
 * Their prototypes carry no pid: a record's pid is the tgid of "current"
 * when a session follows it, else 0, and such records go to every
 * capturing session (user space attributes them by stream owner).
 */
#ifndef NPUPROF_IOCTL_H
#define NPUPROF_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * ABI version: a major and a minor in one __u32 (npuprof_info.abi_version),
 * major in bits 0-15 and minor in bits 16-31, so the plain 1 that modules
 * reported before there was a minor reads as 1.0.  A minor bump only adds
 * (ioctls, meanings of values that were errors before); a reader accepts
 * any module of its own major.  A major bump breaks existing readers.
 */
#define NPUPROF_ABI_MAJOR 1
/*
 * 1.1: a session per open(), TGID_OWNER; 1.2: following, tgids leave at
 * exit; 1.3: LIST_TP, tracepoints of several driver backends
 */
#define NPUPROF_ABI_MINOR 4
#define NPUPROF_ABI_VERSION_OF(major, minor) ((__u32)(major) | (__u32)(minor) << 16)
#define NPUPROF_ABI_MAJOR_OF(version) ((version) & 0xffffU)
#define NPUPROF_ABI_MINOR_OF(version) ((version) >> 16)
#define NPUPROF_ABI_VERSION NPUPROF_ABI_VERSION_OF(NPUPROF_ABI_MAJOR, NPUPROF_ABI_MINOR)
#define NPUPROF_DEV_NAME "npuprof"
#define NPUPROF_MAX_TGIDS 64 /* per session */
#define NPUPROF_MAX_CPUS 1024

/**
 * struct npuprof_ring_consumer - reader-owned page of a CPU's ring
 * @consumer_pos: bytes consumed so far; written only by the reader
 */
struct npuprof_ring_consumer {
	__u64 consumer_pos;
};

/**
 * struct npuprof_ring_producer - kernel-owned page of a CPU's ring
 * @producer_pos: bytes published so far; written only by the producer
 * @written:      records written since the last ENABLE
 * @lost:         records dropped since the last ENABLE (ring full)
 */
struct npuprof_ring_producer {
	__u64 producer_pos;
	__u64 written;
	__u64 lost;
};

/**
 * struct npuprof_info - geometry and versions (NPUPROF_IOC_GET_INFO)
 * @abi_version:    NPUPROF_ABI_VERSION of the module (major and minor)
 * @record_version: NPUPROF_RECORD_VERSION of the module
 * @nr_cpu_ids:     number of CPU ids; regions exist for possible CPUs only
 * @page_size:      bytes per page (consumer and producer pages)
 * @data_size:      bytes of record data per CPU, a power of two
 * @region_size:    bytes per CPU region (2 pages + data_size)
 * @watermark:      bytes of unread data that wake a poll()ing reader
 * @possible:       bitmap of CPUs that have a ring (bit c of word c / 64)
 */
struct npuprof_info {
	__u32 abi_version;
	__u32 record_version;
	__u32 nr_cpu_ids;
	__u32 page_size;
	__u64 data_size;
	__u64 region_size;
	__u64 watermark;
	__u64 possible[NPUPROF_MAX_CPUS / 64];
};

/**
 * struct npuprof_cpu_stats - counters of one CPU's ring (NPUPROF_IOC_GET_STATS)
 * @cpu:     in: CPU id
 * @pad:     0
 * @written: out: records written since the last ENABLE
 * @lost:    out: records lost (ring full) since the last ENABLE
 */
struct npuprof_cpu_stats {
	__u32 cpu;
	__u32 pad;
	__u64 written;
	__u64 lost;
};

/*
 * The four task events of a driver, bits of npuprof_tp_status.attached;
 * each backend names its tracepoint for each (npusim: "npusim_task_submit",
 * "npusim_task_start", "npusim_task_end", "npusim_stream_sync").  Same
 * order as the events of include/npuprof/npu_driver.h.
 */
enum npuprof_tp_bit {
	NPUPROF_TP_TASK_SUBMIT = 0, /* a task was queued */
	NPUPROF_TP_TASK_START = 1,  /* the device began running it */
	NPUPROF_TP_TASK_END = 2,    /* the device finished it */
	NPUPROF_TP_STREAM_SYNC = 3, /* a stream synchronisation returned */
	NPUPROF_TP_TASK_QUEUED = 4, /* written to the hardware queue (1.4) */
	NPUPROF_TP_TASK_CQE = 5,    /* its completion entry arrived (1.4) */
	NPUPROF_TP_COUNT
};

/**
 * struct npuprof_tp_status - which driver tracepoints npuprof found
 * @attached: bitmap of enum npuprof_tp_bit: tracepoints of loaded drivers
 *            npuprof watches; its probe is registered on them only while
 *            some session captures (ENABLE to DISABLE)
 * @pad:      0
 */
struct npuprof_tp_status {
	__u32 attached;
	__u32 pad;
};

/* Sizes of the strings of struct npuprof_tp_entry, NUL included. */
#define NPUPROF_TP_BACKEND_LEN 32
#define NPUPROF_TP_NAME_LEN 64
#define NPUPROF_TP_MODULE_LEN 64 /* the kernel's MODULE_NAME_LEN is 56 */
/* Entries of struct npuprof_tp_list; npuprof.ko watches at most this many. */
#define NPUPROF_TP_LIST_MAX 16

/**
 * struct npuprof_tp_entry - one driver tracepoint npuprof found (LIST_TP)
 * @backend:    driver backend whose table names it ("npusim"), NUL-padded
 * @name:       tracepoint name ("npusim_task_submit"), NUL-padded
 * @module:     module that defines it ("npusim"), or "kernel" for a
 *              driver built into the kernel, NUL-padded
 * @bit:        its event, enum npuprof_tp_bit
 * @registered: 1 while npuprof's probe is registered on it (some session
 *              captures), else 0
 * @reserved:   0
 */
struct npuprof_tp_entry {
	char backend[NPUPROF_TP_BACKEND_LEN];
	char name[NPUPROF_TP_NAME_LEN];
	char module[NPUPROF_TP_MODULE_LEN];
	__u32 bit;
	__u32 registered;
	__u32 reserved[2];
};

/**
 * struct npuprof_tp_list - the driver tracepoints found (NPUPROF_IOC_LIST_TP)
 * @count:    out: tracepoints found, entries filled in @tp (at most
 *            NPUPROF_TP_LIST_MAX: the module watches no more)
 * @reserved: in: 0 (EINVAL otherwise), room for later minors
 * @tp:       out: one entry per tracepoint, in the order found; entries
 *            from @count on are zeroed
 *
 * One snapshot: a driver loading or unloading while the ioctl runs is
 * either wholly in it or not.  Modules older than 1.3: ENOTTY.
 */
struct npuprof_tp_list {
	__u32 count;
	__u32 reserved[7];
	struct npuprof_tp_entry tp[NPUPROF_TP_LIST_MAX];
};

/**
 * struct npuprof_tgid_owner - who records a tgid (NPUPROF_IOC_TGID_OWNER)
 * @tgid:      in: the process asked about, not 0 (EINVAL)
 * @owner_pid: out: tgid of the process that opened the session owning
 *             @tgid, this session's or another's, as the caller's pid
 *             namespace sees it; 0 when no session owns @tgid (or the
 *             opener is not visible in that namespace)
 * @reserved:  in: 0 (EINVAL otherwise), room for later minors
 */
struct npuprof_tgid_owner {
	__u32 tgid;
	__u32 owner_pid;
	__u32 reserved[6];
};

/* Flags of struct npuprof_tgid_add. */
#define NPUPROF_TGID_FOLLOW (1U << 0) /* its new processes join too (1.2) */
#define NPUPROF_TGID_FLAGS_ALL NPUPROF_TGID_FOLLOW

/**
 * struct npuprof_tgid_add - add a tgid with options (NPUPROF_IOC_ADD_TGID_FLAGS)
 * @tgid:     in: the process, not 0 (EINVAL)
 * @flags:    in: NPUPROF_TGID_* bits; any other bit fails with EINVAL.
 *            0 is plain ADD_TGID.  Flags are only ever added: FOLLOW on a
 *            tgid the session has already turns following on; only
 *            DEL_TGID turns it off (children that joined stay).
 * @reserved: in: 0 (EINVAL otherwise), room for later minors
 *
 * Errors as ADD_TGID: EBUSY when another session has @tgid (nothing
 * changes), ENOSPC when this session has NPUPROF_MAX_TGIDS tgids, ENOMEM.
 */
struct npuprof_tgid_add {
	__u32 tgid;
	__u32 flags;
	__u32 reserved[6];
};

/**
 * struct npuprof_follow_stats - what following did (NPUPROF_IOC_FOLLOW_STATS)
 * @joined:   children of followed processes that joined this session since
 *            it was opened (ENABLE does not reset it)
 * @missed:   children of followed processes that did not, since open: the
 *            session had NPUPROF_MAX_TGIDS tgids, no memory, or another
 *            session had the child's tgid.  Their tasks are not recorded
 *            here, nor are those of processes they fork (not counted).
 * @nr_tgids: tgids the session has now, added and followed, exited ones
 *            gone
 * @reserved: 0, room for later minors
 */
struct npuprof_follow_stats {
	__u64 joined;
	__u64 missed;
	__u32 nr_tgids;
	__u32 reserved[5];
};

#define NPUPROF_IOC_MAGIC 0xB7
#define NPUPROF_IOC_GET_INFO _IOR(NPUPROF_IOC_MAGIC, 1, struct npuprof_info)
/* ADD_TGID also fails with EBUSY when another session owns the tgid. */
#define NPUPROF_IOC_ADD_TGID _IOW(NPUPROF_IOC_MAGIC, 2, __u32) /* ENOSPC when full */
#define NPUPROF_IOC_DEL_TGID _IOW(NPUPROF_IOC_MAGIC, 3, __u32) /* ENOENT if absent */
#define NPUPROF_IOC_ENABLE _IO(NPUPROF_IOC_MAGIC, 4)  /* resets counters */
#define NPUPROF_IOC_DISABLE _IO(NPUPROF_IOC_MAGIC, 5) /* waits for probes */
#define NPUPROF_IOC_GET_STATS _IOWR(NPUPROF_IOC_MAGIC, 6, struct npuprof_cpu_stats)
#define NPUPROF_IOC_GET_TP_STATUS _IOR(NPUPROF_IOC_MAGIC, 7, struct npuprof_tp_status)
#define NPUPROF_IOC_TGID_OWNER _IOWR(NPUPROF_IOC_MAGIC, 8, struct npuprof_tgid_owner) /* 1.1 */
#define NPUPROF_IOC_ADD_TGID_FLAGS _IOW(NPUPROF_IOC_MAGIC, 9, struct npuprof_tgid_add) /* 1.2 */
#define NPUPROF_IOC_FOLLOW_STATS _IOR(NPUPROF_IOC_MAGIC, 10, struct npuprof_follow_stats) /* 1.2 */
#define NPUPROF_IOC_LIST_TP _IOWR(NPUPROF_IOC_MAGIC, 11, struct npuprof_tp_list) /* 1.3 */

#endif /* NPUPROF_IOCTL_H */
