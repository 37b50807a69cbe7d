/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * npuprof record format, version NPUPROF_RECORD_VERSION.
 *
 * The one definition of every record that crosses a boundary: written by
 * npuprof.ko (kmod/) and the BPF programs (bpf/) into per-CPU ring buffers,
 * copied by the drain (user/) into PROF_XXX slices, read back by the export
 * (tools/).  Kernel, BPF and user space all include this file; nothing else
 * may redefine these layouts.
 *
 * Rules that keep old traces readable and new readers safe:
 *  - every record starts with struct npuprof_rec_hdr;
 *  - hdr.size is the whole record in bytes, a multiple of NPUPROF_REC_ALIGN,
 *    so a reader skips a type it does not know;
 *  - fields are fixed width, little-endian as written by the host, naturally
 *    aligned, no implicit padding (every struct is a multiple of 8 bytes);
 *  - a new field goes at the end of a record and bumps
 *    NPUPROF_RECORD_VERSION; readers accept hdr.size larger than they know.
 *
 * Times: hdr.ts and every *_ts field named "host" are CLOCK_MONOTONIC in ns
 * (ktime_get_ns() in the kernel, bpf_ktime_get_ns() in BPF,
 * clock_gettime(CLOCK_MONOTONIC) in user space: one clock for all).
 * Device timestamps (dev_ts) are raw device clock counts; the export maps
 * them onto the host clock (see tools/export/clock_sync.c).
 */
#ifndef NPUPROF_RECORD_H
#define NPUPROF_RECORD_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

#define NPUPROF_RECORD_VERSION 1
#define NPUPROF_REC_ALIGN 8
#define NPUPROF_NAME_LEN 32	/* op type / kernel name, NUL-padded */
#define NPUPROF_STREAM_MAGIC 0x5055504eU /* "NPUP" little-endian */

/* Round a record size up to the record alignment. */
#define NPUPROF_REC_ROUND(n) \
	(((n) + NPUPROF_REC_ALIGN - 1) & ~(__u32)(NPUPROF_REC_ALIGN - 1))

enum npuprof_rec_type {
	NPUPROF_REC_PAD = 0,	    /* filler to the end of a ring; skip */
	NPUPROF_REC_STREAM_HDR = 1, /* first record of every slice */
	NPUPROF_REC_API = 2,	    /* runtime API call (bpf/ uprobes) */
	NPUPROF_REC_TASK = 3,	    /* device task event (npuprof.ko) */
	NPUPROF_REC_LOST = 4,	    /* per-CPU written/lost counts (drain) */
};

/* Where a record stream comes from (stream header and loss records). */
enum npuprof_source {
	NPUPROF_SRC_KMOD = 1, /* npuprof.ko per-CPU rings: device tasks */
	NPUPROF_SRC_BPF = 2,  /* BPF per-CPU ring buffers: runtime API */
	NPUPROF_SRC_DEVLOG = 3, /* the device scheduler's log, read through
				 * libascend_hal.so's profiling channel
				 * (user/devlog.c): task begin and end */
};

/**
 * struct npuprof_rec_hdr - common head of every record (16 bytes)
 * @type: enum npuprof_rec_type
 * @size: whole record in bytes, header included, multiple of 8
 * @cpu:  CPU whose ring buffer carried the record
 * @ts:   host CLOCK_MONOTONIC ns of the event (entry time for API calls)
 */
struct npuprof_rec_hdr {
	__u16 type;
	__u16 size;
	__u32 cpu;
	__u64 ts;
};

/**
 * struct npuprof_rec_stream_hdr - first record of every slice file
 * @magic:   NPUPROF_STREAM_MAGIC
 * @version: NPUPROF_RECORD_VERSION of the writer
 * @source:  enum npuprof_source of the records that follow
 * @slice:   slice index within its file series (0, 1, ...)
 * @device:  device id for device data, -1 for host data
 */
struct npuprof_rec_stream_hdr {
	struct npuprof_rec_hdr hdr;
	__u32 magic;
	__u16 version;
	__u16 source;
	__u32 slice;
	__s32 device;
};

/*
 * CANN's API levels (the "level" of a CANN event, msprof's api_statistic
 * "Level", the database's ENUM_API_TYPE; msprof.md sections 4-5).
 */
#define NPUPROF_LEVEL_ACL 20000	   /* "AscendCL": libascendcl.so's acl* functions */
#define NPUPROF_LEVEL_RUNTIME 5000 /* "Runtime": libruntime.so's rt* functions */

/*
 * APIs recorded by the uprobes: X(id, sym, level, name, func).  The ids
 * are part of the format: never renumber, only append.
 *   level  NPUPROF_LEVEL_ACL or NPUPROF_LEVEL_RUNTIME
 *   name   what msprof shows: the public ACL name at level 20000
 *          (CANN acl/acl_rt.h, acl/acl_op.h); at level 5000 the name
 *          CANN's runtime registers for its API profiling (hicann/runtime
 *          src/runtime/.../profiling_agent.cc: "KernelLaunch", ...)
 *   func   the exported function the uprobe goes on (ELF symbol); at level
 *          5000 the runtime's C API (CANN runtime/rt*.h: rtKernelLaunch)
 */
#define NPUPROF_API_LIST(X)                                                       \
	X(1, ACL_INIT, 20000, "aclInit", "aclInit")                                \
	X(2, ACL_FINALIZE, 20000, "aclFinalize", "aclFinalize")                    \
	X(3, RT_SET_DEVICE, 20000, "aclrtSetDevice", "aclrtSetDevice")             \
	X(4, RT_RESET_DEVICE, 20000, "aclrtResetDevice", "aclrtResetDevice")       \
	X(5, RT_CREATE_STREAM, 20000, "aclrtCreateStream", "aclrtCreateStream")    \
	X(6, RT_DESTROY_STREAM, 20000, "aclrtDestroyStream", "aclrtDestroyStream") \
	X(7, RT_MALLOC, 20000, "aclrtMalloc", "aclrtMalloc")                       \
	X(8, RT_FREE, 20000, "aclrtFree", "aclrtFree")                             \
	X(9, RT_MEMCPY, 20000, "aclrtMemcpy", "aclrtMemcpy")                       \
	X(10, RT_MEMCPY_ASYNC, 20000, "aclrtMemcpyAsync", "aclrtMemcpyAsync")      \
	X(11, RT_LAUNCH_KERNEL, 20000, "aclrtLaunchKernel", "aclrtLaunchKernel")   \
	X(12, RT_BINARY_GET_FUNCTION, 20000, "aclrtBinaryGetFunction",            \
	  "aclrtBinaryGetFunction")                                                \
	X(13, OP_EXECUTE_V2, 20000, "aclopExecuteV2", "aclopExecuteV2")            \
	X(14, RT_SYNC_STREAM, 20000, "aclrtSynchronizeStream",                     \
	  "aclrtSynchronizeStream")                                                \
	X(15, RT_SYNC_DEVICE, 20000, "aclrtSynchronizeDevice",                     \
	  "aclrtSynchronizeDevice")                                                \
	X(16, RT_RECORD_EVENT, 20000, "aclrtRecordEvent", "aclrtRecordEvent")      \
	X(17, RT_CREATE_EVENT, 20000, "aclrtCreateEvent", "aclrtCreateEvent")      \
	X(18, RT_DESTROY_EVENT, 20000, "aclrtDestroyEvent", "aclrtDestroyEvent")   \
	X(19, RT_BINARY_LOAD_FROM_FILE, 20000, "aclrtBinaryLoadFromFile",         \
	  "aclrtBinaryLoadFromFile")                                               \
	X(20, RTS_SET_DEVICE, 5000, "SetDevice", "rtSetDevice")                    \
	X(21, RTS_DEVICE_RESET, 5000, "DeviceReset", "rtDeviceReset")              \
	X(22, RTS_STREAM_CREATE, 5000, "StreamCreate", "rtStreamCreate")           \
	X(23, RTS_STREAM_DESTROY, 5000, "StreamDestroy", "rtStreamDestroy")        \
	X(24, RTS_STREAM_SYNC, 5000, "StreamSynchronize", "rtStreamSynchronize")   \
	X(25, RTS_DEVICE_SYNC, 5000, "DeviceSynchronize", "rtDeviceSynchronize")   \
	X(26, RTS_DEV_MALLOC, 5000, "DevMalloc", "rtMalloc")                       \
	X(27, RTS_DEV_FREE, 5000, "DevFree", "rtFree")                             \
	X(28, RTS_MEMCPY, 5000, "MemCopySync", "rtMemcpy")                         \
	X(29, RTS_MEMCPY_ASYNC, 5000, "MemcpyAsync", "rtMemcpyAsync")              \
	X(30, RTS_KERNEL_LAUNCH, 5000, "KernelLaunch", "rtKernelLaunch")           \
	X(31, RTS_EVENT_CREATE, 5000, "EventCreate", "rtEventCreate")              \
	X(32, RTS_EVENT_DESTROY, 5000, "EventDestroy", "rtEventDestroy")           \
	X(33, RTS_EVENT_RECORD, 5000, "EventRecord", "rtEventRecord")

enum npuprof_api {
#define NPUPROF_API_ENUM(id, sym, level, name, func) NPUPROF_API_##sym = id,
	NPUPROF_API_LIST(NPUPROF_API_ENUM)
#undef NPUPROF_API_ENUM
	NPUPROF_API_MAX
};

/**
 * struct npuprof_rec_api - one API call, either level (104 bytes)
 * @hdr:     hdr.ts = host ns at function entry
 * @exit_ts: host ns at function return; 0 with NPUPROF_API_CUT_END
 * @pid:     tgid of the caller
 * @tid:     thread id of the caller
 * @api:     enum npuprof_api
 * @flags:   NPUPROF_API_* bits below; any other bit is reserved, 0
 * @ret:     aclError or rtError_t returned (0 = success); 0 with
 *           NPUPROF_API_CUT_END
 * @device:  device id argument, -1 when the API has none
 * @kind:    aclrtMemcpyKind for copies, 0 otherwise
 * @stream:  aclrtStream handle value, 0 when the API has none
 * @bytes:   byte count (copies, malloc), 0 otherwise
 * @handle:  function handle (launch, get-function), event, or device ptr
 * @name:    op type (aclopExecuteV2) or kernel name, NUL-padded
 */
/*
 * npuprof_rec_api.flags: CUT_END, the call was still in flight when the
 * capture stopped (its return is after the window): written at the stop
 * from the call's entry state, with everything known at entry and no
 * return (exit_ts 0, ret 0, out-parameters 0).  The export ends it when
 * the capture was off and marks it (bpf/acl_trace.bpf.c, acl_cut_*).
 */
#define NPUPROF_API_CUT_END 0x1

struct npuprof_rec_api {
	struct npuprof_rec_hdr hdr;
	__u64 exit_ts;
	__u32 pid;
	__u32 tid;
	__u16 api;
	__u16 flags;
	__s32 ret;
	__s32 device;
	__u32 kind;
	__u64 stream;
	__u64 bytes;
	__u64 handle;
	char name[NPUPROF_NAME_LEN];
};

/* Device task life cycle, one record per driver tracepoint hit. */
enum npuprof_task_event {
	NPUPROF_TASK_SUBMIT = 1,      /* host queued the task (in the API call) */
	NPUPROF_TASK_START = 2,	      /* device began executing it */
	NPUPROF_TASK_END = 3,	      /* device finished it */
	NPUPROF_TASK_STREAM_SYNC = 4, /* a stream synchronize returned */
	/*
	 * Seen by the host driver, not part of a task's life cycle as the
	 * export folds it (a reader that does not know them skips them):
	 * QUEUED: the host kernel wrote the task into the hardware queue
	 * (trs_chan:sqe; in the submitter's context, or later from a kernel
	 * worker with pid 0 until attributed); CQE: the task's completion
	 * entry arrived (trs_core:logic_cqe; dev_ts is the entry's device
	 * counter, 0 when the hardware stamped none).
	 */
	NPUPROF_TASK_QUEUED = 5,
	NPUPROF_TASK_CQE = 6,
};

/* Task types, as the driver reports them (msprof "Task Type" column). */
enum npuprof_task_type {
	NPUPROF_TT_KERNEL = 0,	     /* AI_CORE kernel */
	NPUPROF_TT_MEMCPY = 1,	     /* MEMCPY */
	NPUPROF_TT_EVENT_RECORD = 2, /* EVENT_RECORD */
	NPUPROF_TT_SYNC = 3,	     /* stream synchronize (host side) */
};

/**
 * struct npuprof_rec_task - one device task event (88 bytes)
 * @hdr:       hdr.ts = host ns when the driver tracepoint fired
 * @dev_ts:    device clock count at the event
 * @pid:       tgid that submitted the task (not the interrupted task)
 * @tid:       thread that submitted the task
 * @device:    device id (the N of /dev/davinciN)
 * @stream:    device stream id
 * @task_id:   per-device task id, increasing from 1
 * @event:     enum npuprof_task_event
 * @task_type: enum npuprof_task_type
 * @arg:       kernel: requested duration ns; memcpy: bytes;
 *             stream sync: ns the caller waited
 * @name:      kernel name for kernels, NUL-padded; empty otherwise
 */
struct npuprof_rec_task {
	struct npuprof_rec_hdr hdr;
	__u64 dev_ts;
	__u32 pid;
	__u32 tid;
	__u32 device;
	__u32 stream;
	__u32 task_id;
	__u16 event;
	__u16 task_type;
	__u64 arg;
	char name[NPUPROF_NAME_LEN];
};

/**
 * struct npuprof_rec_lost - per-CPU producer counters at a point in time
 * @source:  enum npuprof_source
 * @cpu:     CPU of the ring (also in hdr.cpu)
 * @written: records written since capture start
 * @lost:    records dropped because the ring was full since capture start
 *
 * The drain writes one per ring at stop, so a trace carries its own losses.
 */
struct npuprof_rec_lost {
	struct npuprof_rec_hdr hdr;
	__u32 source;
	__u32 cpu;
	__u64 written;
	__u64 lost;
};

#endif /* NPUPROF_RECORD_H */
