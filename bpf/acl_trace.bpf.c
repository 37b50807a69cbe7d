// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * Runtime-API capture, BPF side: one generic uprobe and one generic
 * uretprobe program attached to every recorded ACL function of
 * libascendcl.so and, with the runtime layer asked for, every recorded rt*
 * function of libruntime.so (level 5000, called from inside the ACL ones:
 * one slot per API keeps both calls apart, see below).  The loader (user/acl_trace.c) passes the enum
 * npuprof_api id of the function as the BPF cookie of each attachment (on
 * kernels without cookies, one program per function instead: see
 * ACL_API_PROGS).
 *
 * At entry the uprobe keeps the call's arguments as the call's state in
 * flight; at return the uretprobe adds the return value, the exit time and
 * the out-parameters the call filled in, and writes one struct
 * npuprof_rec_api into the ring buffer of the current CPU.
 *
 * Where a call in flight is kept: one slot per (thread, API).  Normally in
 * BPF task-local storage (`inflight`: one array of slots per thread,
 * indexed by API, 4080 bytes, created by the thread's first recorded call
 * and freed by the kernel with the thread): a lookup through the task, with no lock, no
 * hashing and no element to allocate or free per call, which a shared hash
 * map costs at both ends (an insert at entry, a lookup and a delete at
 * return).  Task storage from uprobe programs needs Linux 5.12 (the map
 * type is 5.11, for BPF LSM only) and the kernel's BTF
 * (bpf_get_current_task_btf()); without them the loader loads the *_hash
 * programs instead, which keep the slots in the hash map `entries` keyed
 * by (pid_tgid, api).  Both behave the same:
 *
 * One slot per thread *and* API means an ACL function that calls another
 * recorded ACL function on the same thread (aclrtMemcpy -> aclrtSynchronize-
 * Stream, say) gives two correct records: the inner call does not overwrite
 * the outer one's entry state.  A function that recurses into itself keeps
 * only the innermost entry; the outer call's record is then counted missed
 * (the simulated and the real runtime do not do that).
 * tests/vm/bpf_acl_trace_nested.c holds both paths to that.
 *
 * Filtering happens here, at entry, before anything is stored: a process
 * not in the tgid map, or any process while capture is off, costs one or two
 * map lookups and leaves no state.
 *
 * Following a job: a process in the tgid map with ACL_TGID_FOLLOW passes it
 * on to every process it forks, in the sched_process_fork tracepoint, which
 * runs before the child's first instruction; exec keeps the tgid, so a rank
 * that a launcher forks and execs is recorded from its first call.  Every
 * process leaves the map when its last thread exits (sched_process_exit
 * with signal->live at 0), so a later process reusing its pid is not
 * recorded.
 * A child the full map cannot take is counted in `follow_missed`.
 *
 * Capture generations: user space bumps the epoch in `capture` at every
 * enable, in the same store that turns it on (epochs start at 1; a slot
 * with epoch 0 is free).  The entry state carries the epoch it was taken
 * in, and the return probe records a call only if the capture is enabled
 * *now* and the entry's epoch is the current one.  So a call records whole
 * only when it entered and returned inside one enabled period, and can
 * never land in the next capture with a time before that capture began.
 * A call in flight at the stop (a long aclrtSynchronizeStream, say) is
 * written by the stop as a cut record (acl_cut_task, acl_cut_hash below);
 * one in flight at the start is not seen at all.  A call that leaves the
 * tgid filter (detach) between entry and return is still recorded.
 *
 * Nothing is dropped silently: a record the ring buffer had no room for is
 * counted `lost`; a call whose entry state could not be stored (no memory
 * for the thread's slots, the hash map full, a nested probe finding the
 * task storage or the hash bucket busy) or was overwritten by a call of the
 * same thread and API in the same capture is counted `missed`, both in the
 * `counters` slot of the CPU it happened on.  The hash map is a plain hash, not an LRU, so no entry is
 * ever evicted behind our back.  States older than the current capture
 * (a thread killed inside a call, a call in flight at stop, whose return
 * probe was gone by then) are not calls of this capture: the hash path's
 * loader deletes them at every enable, and a task slot with an older epoch
 * counts as free (a dead thread's slots go with it).
 *
 * Ring buffers: `rings` is an array of maps holding one BPF ring buffer per
 * possible CPU (created by the loader at the size the user asked for); a
 * record goes to the ring of the CPU the return probe runs on, and a failed
 * write is counted lost in that CPU's `counters` slot.  Ring buffers as
 * inner maps work on the Debian 6.1 test kernel (tests/vm/bpf_acl_trace.sh);
 * `nr_rings` and the modulo only guard against a CPU beyond the array.
 *
 * Kernel names of launches: acl_name_enter/acl_name_exit on
 * aclrtBinaryGetFunction() keep (tgid, function handle) -> kernel name in
 * `func_names` from attach to close, capture or not (the one probe pair
 * placed outside capture windows: see them below), and a launch's entry
 * copies its handle's name into its record; acl_names_exit drops a
 * process's names when it exits.
 *
 * Device tasks without npuprof.ko: six raw tracepoint programs
 * (acl_task_submit, _start, _end, _sync, _queued, _cqe; one per event a
 * driver may have) on the NPU driver's task
 * tracepoints write the same struct npuprof_rec_task records npuprof.ko
 * would (kmod/probes.c) into the same rings.  They live in this object,
 * not a second one, because everything they need is already here and must
 * be the very same map: the tgid filter (so following a job selects its
 * tasks too), the capture word and epoch (one enable and one stop for
 * calls and tasks), the rings (one drain source) and the counters.  The
 * loader loads them only for task capture through BPF and attaches them by
 * tracepoint name, never automatically.  Where each record field sits
 * among the tracepoint's arguments (or in a struct one points to) comes
 * from `task_layout`, one per event (read-only, set before load, so the
 * verifier sees constant argument positions).  A task's owner is the tgid
 * *argument*: start and end fire from the driver's timers, in whatever
 * process the interrupt hit; a driver without one gets task_owner().  One program per
 * event, because the kernel skips (and counts in the program's
 * recursion_misses) a raw tracepoint program that interrupts itself on a
 * CPU: an end fired from a timer that interrupts a submit then runs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include <npuprof/drv/ascend_hal_abi.h>
#include <npuprof/drv/ascend_task_type.h>
#include <npuprof/npu_driver.h>
#include <npuprof/record.h>
#include "acl_trace.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* vmlinux.h has no errno values; the uapi one, for bpf_map_update_elem(). */
#ifndef EEXIST
#define EEXIST 17
#endif

/* Number of ring buffers the loader put in `rings` (possible CPUs). */
const volatile __u32 nr_rings = 1;

/* Bytes of every ring in `rings` (the loader creates them all alike). */
const volatile __u64 ring_bytes = ACL_TRACE_RING_TEMPLATE_BYTES;

/*
 * Task records: where each field sits in the driver tracepoints'
 * arguments, per event (enum npuprof_tp_bit order).
 */
const volatile struct npu_tp_layout task_layout[NPU_TP_EVENTS];

/*
 * Capture state, one word written by the loader through the skeleton:
 * bit 0 is "enabled" (record, else drop), the rest is the capture epoch,
 * bumped at every enable.  One word read once per probe, so no CPU can see
 * "enabled" with an older epoch, whatever its memory ordering.
 */
volatile __u64 capture;

/* Forked children of followed processes the tgid map had no room for. */
volatile __u64 follow_missed;

/*
 * SQEs of halSqTaskSend() calls of selected processes that got no
 * record: past ACL_SQ_SEND_MAX_SQES in one call, or unreadable (a bad
 * sqe_addr, or a bad info pointer: then one).  Also counted missed.
 */
volatile __u64 sqe_skipped;

#define CAPTURE_ON(c) ((c) & 1)
#define CAPTURE_EPOCH(c) ((c) >> 1)

/* Inner map template: the loader inserts one real ring per CPU. */
struct acl_ring {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, ACL_TRACE_RING_TEMPLATE_BYTES);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1); /* set to nr_rings by the loader */
	__type(key, __u32);
	__array(values, struct acl_ring);
} rings SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct acl_trace_counters);
} counters SEC(".maps");

/* Selected processes: tgid -> ACL_TGID_* bits. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ACL_TRACE_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} tgids SEC(".maps");

struct entry_key {
	__u64 pid_tgid;
	__u32 api;
	__u32 pad;
};

/*
 * A call in flight: the record as far as entry knows it, the user address of
 * the out-parameter to read at return (0 if none) and the capture epoch the
 * call entered in.
 */
struct entry_state {
	struct npuprof_rec_api rec;
	__u64 out_ptr;
	__u64 epoch;
};

/* The *_hash programs' in-flight calls (see the top of this file). */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ACL_TRACE_MAX_INFLIGHT);
	__type(key, struct entry_key);
	__type(value, struct entry_state);
} entries SEC(".maps");

/* One thread's in-flight calls, one slot per API (slot 0 unused). */
struct thread_calls {
	struct entry_state call[NPUPROF_API_MAX];
};

/* The other programs' in-flight calls: task-local storage. */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct thread_calls);
} inflight SEC(".maps");

/*
 * Kernel names of function handles: what aclrtBinaryGetFunction(binHandle,
 * kernelName, &funcHandle) gave a selected process, keyed by (tgid,
 * funcHandle), so that a launch of the handle (aclrtLaunchKernel carries
 * no name) records the kernel's name (read_entry_args()).  Written by
 * acl_name_enter/acl_name_exit, capture on or off (why: above them).  An
 * LRU hash: processes making more handles than it holds lose the names of
 * those used least recently (their launches then record no name); a
 * failed insert is counted in `names_missed`.  A
 * process's entries go when it exits (acl_names_exit), all of them with
 * the object at close.
 */
struct func_key {
	__u32 tgid;
	__u32 pad;
	__u64 handle;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, ACL_TRACE_MAX_FUNC_NAMES);
	__type(key, struct func_key);
	__type(value, char[NPUPROF_NAME_LEN]);
} func_names SEC(".maps");

/* An aclrtBinaryGetFunction() call in flight: kernelName and funcHandle. */
struct name_call {
	__u64 name_ptr;
	__u64 out_ptr;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, ACL_TRACE_MAX_INFLIGHT);
	__type(key, __u64); /* pid_tgid */
	__type(value, struct name_call);
} name_calls SEC(".maps");

/*
 * Processes holding entries in func_names (tgid -> 1), for acl_names_exit:
 * the tgid map cannot tell, as acl_exit_process may have deleted the
 * exiting process from it first.
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, ACL_TRACE_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} named_tgids SEC(".maps");

/* Handles whose name could not be kept (name_calls or func_names refused). */
volatile __u64 names_missed;

/*
 * Arguments past what libbpf 1.1's bpf_tracing.h offers (it stops at
 * PT_REGS_PARM5), read at a uprobe on the function's first instruction:
 *   x86-64 SysV: the 6th integer argument is in r9; on the stack, [sp] is
 *                the return address, [sp+8] argument 7, [sp+16] argument 8,
 *                [sp+24] argument 9.
 *   AAPCS64:     arguments 1-8 are in x0-x7 (the 6th in x5) and the return
 *                address in x30, so [sp] is argument 9.
 */
#if defined(__TARGET_ARCH_x86)
#define ACL_PARM6(ctx) ((ctx)->r9)
#define ACL_STACK_ARG9_OFFSET 24
#elif defined(__TARGET_ARCH_arm64)
#define ACL_PARM6(ctx) (((const struct user_pt_regs *)(ctx))->regs[5])
#define ACL_STACK_ARG9_OFFSET 0
#else
#error "acl_trace.bpf.c: define ACL_PARM6 and ACL_STACK_ARG9_OFFSET for this __TARGET_ARCH"
#endif

/* aclopExecuteV2's 9th argument, the stream, is on the user stack. */
static __always_inline __u64 read_stack_arg9(struct pt_regs *ctx)
{
	__u64 v = 0;

	bpf_probe_read_user(&v, sizeof(v), (void *)(PT_REGS_SP(ctx) + ACL_STACK_ARG9_OFFSET));
	return v;
}

/* @r's name: the kernel name of its handle, launched by its process. */
static __always_inline void launch_name(struct npuprof_rec_api *r)
{
	struct func_key key = { .tgid = r->pid, .handle = r->handle };
	const char *name = bpf_map_lookup_elem(&func_names, &key);

	if (name)
		__builtin_memcpy(r->name, name, NPUPROF_NAME_LEN);
}

/*
 * Fill the per-API arguments known at entry.  What lands where (the
 * runtime's rt* functions, level 5000, alongside the ACL function they
 * serve):
 *   device  aclrtSetDevice, aclrtResetDevice, rtSetDevice, rtDeviceReset:
 *           deviceId
 *   stream  aclrtMemcpyAsync, aclrtLaunchKernel, aclopExecuteV2,
 *           aclrtRecordEvent, aclrtSynchronizeStream, aclrtDestroyStream,
 *           rtMemcpyAsync, rtKernelLaunch, rtEventRecord,
 *           rtStreamSynchronize, rtStreamDestroy: the handle;
 *           aclrtCreateStream, rtStreamCreate: *stream at return
 *   bytes   aclrtMalloc, rtMalloc: size; aclrtMemcpy(Async),
 *           rtMemcpy(Async): count
 *   kind    aclrtMemcpy(Async), rtMemcpy(Async): kind
 *   handle  aclrtLaunchKernel: funcHandle; rtKernelLaunch: stubFunc;
 *           aclrtRecordEvent, aclrtDestroyEvent, rtEventRecord,
 *           rtEventDestroy: event; aclrtFree, rtFree: devPtr; at return:
 *           aclrtMalloc, rtMalloc *devPtr, aclrtBinaryGetFunction
 *           *funcHandle, aclrtCreateEvent, rtEventCreate *event,
 *           aclrtBinaryLoadFromFile *binHandle
 *   name    aclopExecuteV2: opType; aclrtBinaryGetFunction: kernelName;
 *           aclrtLaunchKernel: the kernel name of funcHandle, if
 *           func_names holds it (launch_name()), else empty.
 *           rtKernelLaunch leaves it empty: its stubFunc is the address a
 *           kernel was registered under, not a handle
 *           aclrtBinaryGetFunction() returned (the export names its task
 *           from the ACL launch around it)
 */
static __always_inline void read_entry_args(struct pt_regs *ctx, __u32 api,
					    struct entry_state *e)
{
	struct npuprof_rec_api *r = &e->rec;

	switch (api) {
	case NPUPROF_API_RT_SET_DEVICE:
	case NPUPROF_API_RT_RESET_DEVICE:
	case NPUPROF_API_RTS_SET_DEVICE:
	case NPUPROF_API_RTS_DEVICE_RESET:
		r->device = (__s32)PT_REGS_PARM1(ctx);
		break;
	case NPUPROF_API_RT_CREATE_STREAM:
	case NPUPROF_API_RTS_STREAM_CREATE:
		e->out_ptr = PT_REGS_PARM1(ctx);
		break;
	case NPUPROF_API_RT_DESTROY_STREAM:
	case NPUPROF_API_RT_SYNC_STREAM:
	case NPUPROF_API_RTS_STREAM_DESTROY:
	case NPUPROF_API_RTS_STREAM_SYNC:
		r->stream = PT_REGS_PARM1(ctx);
		break;
	case NPUPROF_API_RT_MALLOC:
	case NPUPROF_API_RTS_DEV_MALLOC:
		e->out_ptr = PT_REGS_PARM1(ctx);
		r->bytes = PT_REGS_PARM2(ctx);
		break;
	case NPUPROF_API_RT_FREE:
	case NPUPROF_API_RT_DESTROY_EVENT:
	case NPUPROF_API_RTS_DEV_FREE:
	case NPUPROF_API_RTS_EVENT_DESTROY:
		r->handle = PT_REGS_PARM1(ctx);
		break;
	case NPUPROF_API_RT_CREATE_EVENT:
	case NPUPROF_API_RTS_EVENT_CREATE:
		e->out_ptr = PT_REGS_PARM1(ctx);
		break;
	case NPUPROF_API_RT_BINARY_LOAD_FROM_FILE:
		e->out_ptr = PT_REGS_PARM3(ctx);
		break;
	case NPUPROF_API_RT_MEMCPY_ASYNC:
	case NPUPROF_API_RTS_MEMCPY_ASYNC:
		r->stream = ACL_PARM6(ctx);
		/* fall through: same first five arguments as the sync copies */
	case NPUPROF_API_RT_MEMCPY:
	case NPUPROF_API_RTS_MEMCPY:
		r->bytes = PT_REGS_PARM4(ctx);
		r->kind = (__u32)PT_REGS_PARM5(ctx);
		break;
	case NPUPROF_API_RT_LAUNCH_KERNEL:
		r->handle = PT_REGS_PARM1(ctx);
		r->stream = PT_REGS_PARM5(ctx);
		launch_name(r);
		break;
	case NPUPROF_API_RTS_KERNEL_LAUNCH:
		r->handle = PT_REGS_PARM1(ctx);
		r->stream = ACL_PARM6(ctx);
		break;
	case NPUPROF_API_RT_BINARY_GET_FUNCTION:
		bpf_probe_read_user_str(r->name, sizeof(r->name),
					(void *)PT_REGS_PARM2(ctx));
		e->out_ptr = PT_REGS_PARM3(ctx);
		break;
	case NPUPROF_API_OP_EXECUTE_V2:
		bpf_probe_read_user_str(r->name, sizeof(r->name),
					(void *)PT_REGS_PARM1(ctx));
		r->stream = read_stack_arg9(ctx);
		break;
	case NPUPROF_API_RT_RECORD_EVENT:
	case NPUPROF_API_RTS_EVENT_RECORD:
		r->handle = PT_REGS_PARM1(ctx);
		r->stream = PT_REGS_PARM2(ctx);
		break;
	}
}

/* Fill what the call wrote through its out-parameter. */
static __always_inline void read_exit_args(struct entry_state *e)
{
	__u64 v = 0;

	if (!e->out_ptr)
		return;
	bpf_probe_read_user(&v, sizeof(v), (void *)e->out_ptr);
	if (e->rec.api == NPUPROF_API_RT_CREATE_STREAM ||
	    e->rec.api == NPUPROF_API_RTS_STREAM_CREATE)
		e->rec.stream = v;
	else
		e->rec.handle = v;
}

/* This CPU's index in `rings` and `counters` (guarded against overflow). */
static __always_inline __u32 ring_index(void)
{
	__u32 cpu = bpf_get_smp_processor_id();

	return cpu < nr_rings ? cpu : cpu % nr_rings;
}

static __always_inline struct acl_trace_counters *this_cpu_counters(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

/*
 * Wake the reader only once @ring is a quarter full.  A wakeup per record
 * (the ring buffer's default whenever the reader has caught up, which it
 * has between two slow API calls) costs the traced thread an irq_work and
 * a wakeup every call; the drain reads every ring on its read timer
 * anyway (npuprof/drain.h, flush_ms), and stop reads them to the end.
 * The size comes from the loader, not a second query, one helper call less.
 */
static __always_inline __u64 wakeup_flag(void *ring)
{
	return bpf_ringbuf_query(ring, BPF_RB_AVAIL_DATA) >= ring_bytes / 4 ?
		       BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP;
}

/*
 * Write @rec (@size bytes, a whole record) to this CPU's ring buffer and
 * count it written or lost.
 */
static __always_inline void emit(struct npuprof_rec_hdr *rec, __u64 size)
{
	struct acl_trace_counters *cnt = this_cpu_counters();
	__u32 idx = ring_index();
	void *ring;

	rec->cpu = idx;
	ring = bpf_map_lookup_elem(&rings, &idx);
	/*
	 * One atomic add each: the uprobe programs run in process context and
	 * the task programs from the driver's timers, so a task program can
	 * interrupt a uprobe program between the load and the store of a
	 * plain ++ on this CPU's counters, and one count would be lost.
	 */
	if (ring && bpf_ringbuf_output(ring, rec, size, wakeup_flag(ring)) == 0) {
		if (cnt)
			__sync_fetch_and_add(&cnt->written, 1);
	} else if (cnt) {
		__sync_fetch_and_add(&cnt->lost, 1);
	}
}

/* Count @n calls whose record will never be written. */
static __always_inline void count_missed(__u64 n)
{
	struct acl_trace_counters *cnt = this_cpu_counters();

	if (cnt)
		__sync_fetch_and_add(&cnt->missed, n); /* atomic: see emit() */
}

/*
 * Fill @e with a call of @api entering now: every field of the record
 * (a reused slot keeps nothing of its last call), then the time, last, so
 * it excludes the probe's own work.
 */
static __always_inline void fill_entry(struct pt_regs *ctx, __u64 pid_tgid,
				       __u32 api, __u64 epoch,
				       struct entry_state *e)
{
	struct npuprof_rec_api *r = &e->rec;

	r->hdr.type = NPUPROF_REC_API;
	r->hdr.size = sizeof(*r);
	r->hdr.cpu = 0;
	r->exit_ts = 0;
	r->pid = pid_tgid >> 32;
	r->tid = (__u32)pid_tgid;
	r->api = api;
	r->flags = 0;
	r->ret = 0;
	r->device = -1;
	r->kind = 0;
	r->stream = 0;
	r->bytes = 0;
	r->handle = 0;
	__builtin_memset(r->name, 0, sizeof(r->name));
	e->out_ptr = 0;
	e->epoch = epoch;
	read_entry_args(ctx, api, e);
	r->hdr.ts = bpf_ktime_get_ns();
}

/* Complete @e with the return (at @now) and write its record. */
static __always_inline void finish_call(struct pt_regs *ctx, __u64 now,
					struct entry_state *e)
{
	e->rec.exit_ts = now;
	e->rec.ret = (__s32)PT_REGS_RC(ctx);
	read_exit_args(e);
	emit(&e->rec.hdr, sizeof(e->rec));
}

/*
 * Hash path, entry.  A state already there for the same thread and API
 * belongs to a call that will not return through it (recursion, or a
 * thread that died inside the call and whose id was reused): that call is
 * counted missed, and so is this one if the map refuses it.
 *
 * The error is compared as an int: before Linux 6.4 (commit "bpf: return
 * long from bpf_map_ops funcs") the verifier calls the map's int-returning
 * update directly, so -EEXIST reaches the program as 0xffffffef, not
 * sign-extended; as a long it never matched there and a recursing call
 * kept the outer call's state (tests/vm/bpf_acl_trace_nested.c on 6.1).
 */
static __always_inline void enter_hash(struct pt_regs *ctx, __u64 pid_tgid,
				       __u32 api, __u64 epoch)
{
	struct entry_key key = { .pid_tgid = pid_tgid, .api = api };
	struct entry_state e;
	int err;

	fill_entry(ctx, pid_tgid, api, epoch, &e);
	err = (int)bpf_map_update_elem(&entries, &key, &e, BPF_NOEXIST);
	if (err == -EEXIST) {
		count_missed(1);
		err = bpf_map_update_elem(&entries, &key, &e, BPF_ANY);
	}
	if (err)
		count_missed(1);
}

/*
 * Hash path, return: record the call if it belongs to capture @cap, which
 * is on.  A call of @cap returning after @cap stopped keeps its state for
 * the stop's acl_cut_hash() (the loader deletes it at the next enable).
 */
static __always_inline void return_hash(struct pt_regs *ctx, __u64 now,
					__u32 api, __u64 cap)
{
	struct entry_key key = { .pid_tgid = bpf_get_current_pid_tgid(),
				 .api = api };
	struct entry_state *e = bpf_map_lookup_elem(&entries, &key);

	if (!e)
		return;
	if (e->epoch == CAPTURE_EPOCH(cap)) {
		if (!CAPTURE_ON(cap))
			return; /* in flight at the stop: acl_cut_hash() writes it */
		finish_call(ctx, now, e);
	}
	bpf_map_delete_elem(&entries, &key);
}

/*
 * @tc's slot for @api, or NULL.  The bound is checked on the very register
 * that indexes: the verifier rejects a copy clang made before a check.
 */
static __always_inline struct entry_state *task_slot(struct thread_calls *tc,
						     __u64 api)
{
	barrier_var(api);
	if (!tc || api >= NPUPROF_API_MAX)
		return NULL;
	return &tc->call[api];
}

/*
 * Task path, entry: the thread's slot for @api, its slots created by its
 * first call.  A slot busy in this capture is a call that will not return
 * through it (recursion): counted missed, as on the hash path.  A slot of
 * an older capture is free (see the top of this file).
 */
static __always_inline void enter_task(struct pt_regs *ctx, __u64 pid_tgid,
				       __u32 api, __u64 epoch)
{
	struct thread_calls *tc;
	struct entry_state *e;

	tc = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0,
				  BPF_LOCAL_STORAGE_GET_F_CREATE);
	e = task_slot(tc, api);
	if (!e) {
		count_missed(1);
		return;
	}
	if (e->epoch == epoch)
		count_missed(1);
	fill_entry(ctx, pid_tgid, api, epoch, e);
}

/* Task path, return: as return_hash(); the slot is freed by epoch 0. */
static __always_inline void return_task(struct pt_regs *ctx, __u64 now,
					__u32 api, __u64 cap)
{
	struct thread_calls *tc;
	struct entry_state *e;

	tc = bpf_task_storage_get(&inflight, bpf_get_current_task_btf(), 0, 0);
	e = task_slot(tc, api);
	if (!e || !e->epoch)
		return;
	if (e->epoch == CAPTURE_EPOCH(cap)) {
		if (!CAPTURE_ON(cap))
			return; /* in flight at the stop: acl_cut_task() writes it */
		finish_call(ctx, now, e);
	}
	e->epoch = 0;
}

/*
 * A call of @api entering.  @task: keep it in task storage (constant: each
 * program one path).
 */
static __always_inline int on_enter(struct pt_regs *ctx, __u32 api, const bool task)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;
	__u64 cap = capture;

	if (!CAPTURE_ON(cap) || api == 0 || api >= NPUPROF_API_MAX)
		return 0;
	if (!bpf_map_lookup_elem(&tgids, &tgid))
		return 0;
	if (task)
		enter_task(ctx, id, api, CAPTURE_EPOCH(cap));
	else
		enter_hash(ctx, id, api, CAPTURE_EPOCH(cap));
	return 0;
}

static __always_inline int on_return(struct pt_regs *ctx, __u32 api, const bool task)
{
	__u64 now = bpf_ktime_get_ns();
	__u64 cap = capture;

	if (task)
		return_task(ctx, now, api, cap);
	else
		return_hash(ctx, now, api, cap);
	return 0;
}

/* The API id the loader gave this attachment as its BPF cookie. */
#define ACL_COOKIE_API(ctx) ((__u32)bpf_get_attach_cookie(ctx))

/*
 * The same two programs three times: in-flight calls in task storage,
 * attached one link per probe (the kernels before 6.6) or loaded with the
 * uprobe_multi attach type and attached with one link per library file for
 * all functions (6.6+); or in the hash map, one link per probe (kernels
 * without task storage for uprobes or without BTF).  The loader loads one
 * pair.
 */
SEC("uprobe")
int acl_enter(struct pt_regs *ctx)
{
	return on_enter(ctx, ACL_COOKIE_API(ctx), true);
}

SEC("uretprobe")
int acl_exit(struct pt_regs *ctx)
{
	return on_return(ctx, ACL_COOKIE_API(ctx), true);
}

SEC("uprobe")
int acl_enter_multi(struct pt_regs *ctx)
{
	return on_enter(ctx, ACL_COOKIE_API(ctx), true);
}

SEC("uretprobe")
int acl_exit_multi(struct pt_regs *ctx)
{
	return on_return(ctx, ACL_COOKIE_API(ctx), true);
}

SEC("uprobe")
int acl_enter_hash(struct pt_regs *ctx)
{
	return on_enter(ctx, ACL_COOKIE_API(ctx), false);
}

SEC("uretprobe")
int acl_exit_hash(struct pt_regs *ctx)
{
	return on_return(ctx, ACL_COOKIE_API(ctx), false);
}

/*
 * Kernels without BPF cookies (bpf_get_attach_cookie(), Linux 5.15; the
 * 5.10 line): one entry and one return program per recorded function,
 * named acl_enter_api<ID> and acl_exit_api<ID>, with the API id a constant
 * (the verifier then drops every other case of read_entry_args()).  They
 * keep calls in flight in the hash map: task storage for uprobes (5.12)
 * comes before cookies only on 5.12-5.14, not worth 66 more programs.
 * The loader loads them only where cookies are missing.
 */
#define ACL_API_PROGS(id, sym, level, name, func)          \
	SEC("uprobe")                                        \
	int acl_enter_api##id(struct pt_regs *ctx)           \
	{                                                    \
		return on_enter(ctx, NPUPROF_API_##sym, false); \
	}                                                    \
	SEC("uretprobe")                                     \
	int acl_exit_api##id(struct pt_regs *ctx)            \
	{                                                    \
		return on_return(ctx, NPUPROF_API_##sym, false); \
	}
NPUPROF_API_LIST(ACL_API_PROGS)

/*
 * Calls cut by the stop.  A call of the capture that just stopped is
 * still in flight when its state is there with that capture's epoch: it
 * had not returned when the capture word went off, since a return after
 * that leaves the state in place (return_hash(), return_task()).  The
 * loader runs one of these iterators at the stop, after the capture word
 * is off and running probes are waited out, and before the drain's last
 * read: each such call becomes one record flagged NPUPROF_API_CUT_END,
 * with its entry time and arguments, no return (exit_ts, ret 0), in the
 * ring of the CPU the iterator runs on, counted like any record.  Both
 * need the kernel's BTF (iterators are tracing programs): acl_cut_task
 * walks every thread's task storage (task path), acl_cut_hash the hash
 * map's states (hash path).  Calls in flight at the *start* cannot be
 * recorded: a uretprobe only fires for calls that entered after it was
 * placed, and the probes are placed at the start.
 */

/* The epoch of the capture that stopped last, 0 while one runs. */
static __always_inline __u64 stopped_epoch(void)
{
	__u64 cap = capture;

	return CAPTURE_ON(cap) ? 0 : CAPTURE_EPOCH(cap);
}

/* Write the entry state @rec of a call in flight at the stop. */
static __always_inline void emit_cut(const struct npuprof_rec_api *rec)
{
	struct npuprof_rec_api r;

	__builtin_memcpy(&r, rec, sizeof(r));
	r.flags = NPUPROF_API_CUT_END;
	r.exit_ts = 0;
	r.ret = 0;
	emit(&r.hdr, sizeof(r));
}

SEC("iter/task")
int acl_cut_task(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	__u64 epoch = stopped_epoch();
	struct thread_calls *tc;
	__u32 api;

	if (!task || !epoch)
		return 0;
	tc = bpf_task_storage_get(&inflight, task, 0, 0);
	for (api = 1; tc && api < NPUPROF_API_MAX; api++) {
		struct entry_state *e = task_slot(tc, api);

		if (e && e->epoch == epoch)
			emit_cut(&e->rec);
	}
	return 0;
}

SEC("iter/bpf_map_elem")
int acl_cut_hash(struct bpf_iter__bpf_map_elem *ctx)
{
	const struct entry_state *e = ctx->value;
	__u64 epoch = stopped_epoch();

	if (e && epoch && e->epoch == epoch)
		emit_cut(&e->rec);
	return 0;
}

/*
 * Host pids for msprof in a pid namespace of its own (a container).  The
 * task iterator walks the processes of the reading task's pid namespace;
 * for each one (thread group leader) it writes two u32: its pid in that
 * namespace (struct pid's numbers[] at the reader's level) and its tgid,
 * the host's, which the process filter and every record use.  Needs BTF,
 * as all iterators.
 */
SEC("iter/task")
int acl_host_pid(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task, *me = (struct task_struct *)bpf_get_current_task();
	unsigned int mine = BPF_CORE_READ(me, thread_pid, level), level;
	struct pid *tp;
	__u32 out[2];
	int nr = 0;

	if (!task || BPF_CORE_READ(task, pid) != BPF_CORE_READ(task, tgid) || mine > 31)
		return 0;
	tp = BPF_CORE_READ(task, thread_pid);
	level = BPF_CORE_READ(tp, level);
	if (!tp || mine > level)
		return 0;
	bpf_core_read(&nr, sizeof(nr), &tp->numbers[mine].nr);
	out[0] = (__u32)nr;
	out[1] = (__u32)BPF_CORE_READ(task, tgid);
	bpf_seq_write(ctx->meta->seq, out, sizeof(out));
	return 0;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(acl_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 ptgid = BPF_CORE_READ(parent, tgid), ctgid = BPF_CORE_READ(child, tgid);
	__u8 *bits, flags;

	if (ptgid == ctgid)
		return 0; /* a new thread */
	bits = bpf_map_lookup_elem(&tgids, &ptgid);
	if (!bits || !(*bits & ACL_TGID_FOLLOW))
		return 0;
	flags = *bits | ACL_TGID_FORKED;
	bits = bpf_map_lookup_elem(&tgids, &ctgid); /* a pid added by hand first */
	if (bits)
		*bits |= flags;
	else if (bpf_map_update_elem(&tgids, &ctgid, &flags, BPF_NOEXIST))
		__sync_fetch_and_add(&follow_missed, 1);
	return 0;
}

/*
 * Whether @task, exiting, is the last thread of its process (not the
 * leader: it may exit first); its tgid in *@tgid.
 */
static __always_inline bool process_ends(struct task_struct *task, __u32 *tgid)
{
	*tgid = BPF_CORE_READ(task, tgid);
	return BPF_CORE_READ(task, signal, live.counter) == 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(acl_exit_process, struct task_struct *task)
{
	__u32 tgid;

	if (!process_ends(task, &tgid))
		return 0;
	bpf_map_delete_elem(&tgids, &tgid);
	return 0;
}

/*
 * Function handle names (func_names, above).  The one probe pair placed
 * while not capturing, and so the one that traps in a process attached
 * but not captured: aclrtBinaryGetFunction() runs once per kernel at a
 * process's set-up, not per step, so the traps cost nothing measurable,
 * while the hot functions (launches, copies, syncs) keep their probes
 * only inside capture windows.  The filter is the tgid map only: not the
 * capture word.  The entry keeps the two pointers; the return, on success,
 * reads the name and the handle and files them.  The name is read at the
 * return, not the entry: the call has read the string by then, so its page
 * is in (a read at entry fails on a page not yet faulted in, such as a
 * literal in a freshly forked child, whose file pages fork does not copy).
 */
SEC("uprobe")
int acl_name_enter(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tgid = id >> 32;
	struct name_call c;

	if (!bpf_map_lookup_elem(&tgids, &tgid))
		return 0;
	c.name_ptr = PT_REGS_PARM2(ctx);
	c.out_ptr = PT_REGS_PARM3(ctx);
	if (bpf_map_update_elem(&name_calls, &id, &c, BPF_ANY))
		__sync_fetch_and_add(&names_missed, 1);
	return 0;
}

SEC("uretprobe")
int acl_name_exit(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct name_call *c = bpf_map_lookup_elem(&name_calls, &id);
	struct func_key key = { .tgid = id >> 32 };
	char name[NPUPROF_NAME_LEN] = {};
	__u8 one = 1;

	if (!c)
		return 0;
	if ((__s32)PT_REGS_RC(ctx) == 0 && c->out_ptr &&
	    bpf_probe_read_user_str(name, sizeof(name), (void *)c->name_ptr) > 1 &&
	    !bpf_probe_read_user(&key.handle, sizeof(key.handle), (void *)c->out_ptr) &&
	    key.handle) {
		if (bpf_map_update_elem(&func_names, &key, name, BPF_ANY))
			__sync_fetch_and_add(&names_missed, 1);
		else
			bpf_map_update_elem(&named_tgids, &key.tgid, &one, BPF_ANY);
	}
	bpf_map_delete_elem(&name_calls, &id);
	return 0;
}

/* bpf_for_each_map_elem() callback: delete the entry if it is process *@tgid's. */
static long drop_func_name(struct bpf_map *map, struct func_key *key, char *name, __u32 *tgid)
{
	if (key->tgid == *tgid)
		bpf_map_delete_elem(map, key);
	return 0;
}

/*
 * A selected process's handle names leave with it, so a later process
 * given its pid finds none of them.  A separate program from
 * acl_exit_process: bpf_for_each_map_elem() needs Linux 5.13, and the
 * loader loads this one only where the kernel has it (else the names stay
 * until the LRU drops them or the session closes).  It walks the whole
 * map, once per exit of a selected process: rare.
 */
SEC("tp_btf/sched_process_exit")
int BPF_PROG(acl_names_exit, struct task_struct *task)
{
	__u32 tgid;

	if (!process_ends(task, &tgid) || !bpf_map_lookup_elem(&named_tgids, &tgid))
		return 0;
	bpf_for_each_map_elem(&func_names, drop_func_name, &tgid, 0);
	bpf_map_delete_elem(&named_tgids, &tgid);
	return 0;
}

/*
 * Argument @pos of a raw tracepoint.  @pos comes from task_layout, a
 * constant to the verifier, so only one case survives and the program
 * reads no argument beyond the ones it uses (the kernel refuses to attach
 * a program reading past the tracepoint's arguments).  barrier_var()
 * keeps each load in its case: the verifier refuses a load through a ctx
 * pointer clang computed in one place and used in another.
 */
static __always_inline __u64 raw_arg(const __u64 *args, __u8 pos)
{
	__u64 v;

	switch (pos) {
	case 0: v = args[0]; barrier_var(v); break;
	case 1: v = args[1]; barrier_var(v); break;
	case 2: v = args[2]; barrier_var(v); break;
	case 3: v = args[3]; barrier_var(v); break;
	case 4: v = args[4]; barrier_var(v); break;
	case 5: v = args[5]; barrier_var(v); break;
	case 6: v = args[6]; barrier_var(v); break;
	case 7: v = args[7]; barrier_var(v); break;
	case 8: v = args[8]; barrier_var(v); break;
	case 9: v = args[9]; barrier_var(v); break;
	case 10: v = args[10]; barrier_var(v); break;
	case 11: v = args[11]; barrier_var(v); break;
	default: return 0;
	}
	return v;
}

/*
 * The @bits wide member at byte @off of the kernel struct at @base
 * (little endian: the low bytes of the zeroed word); 0 when unreadable.
 */
static __always_inline __u64 struct_member(__u64 base, __u16 off, __u8 bits)
{
	const void *p = (const void *)(base + off);
	__u64 v = 0;

	if (!base)
		return 0;
	switch (bits) {
	case 8: bpf_probe_read_kernel(&v, 1, p); break;
	case 16: bpf_probe_read_kernel(&v, 2, p); break;
	case 32: bpf_probe_read_kernel(&v, 4, p); break;
	default: bpf_probe_read_kernel(&v, 8, p); break;
	}
	return v;
}

/*
 * Field @f of a task record from the raw tracepoint arguments at @args,
 * as layout @ev says: the argument itself, or a member of the struct it
 * points to (npu_driver.h), masked to its width.
 */
static __always_inline __u64 task_arg(const __u64 *args, unsigned int ev, unsigned int f)
{
	__u8 pos = task_layout[ev].pos[f], bits = task_layout[ev].bits[f];
	__u64 v;

	if (pos >= task_layout[ev].nr_args)
		return 0;
	v = raw_arg(args, pos);
	if (task_layout[ev].deref[f])
		v = struct_member(v, task_layout[ev].off[f], bits);
	/* the ABI leaves the bits above a narrower argument undefined */
	return bits && bits < 64 ? v & ((1ULL << bits) - 1) : v;
}

/* Field @f of the task record of event @ev, from the arguments at @args. */
#define TASK_FIELD(args, ev, f) task_arg(args, ev, f)

/*
 * The record's owner: the tgid argument, when the prototype has one and
 * the capture selects it (else nothing is recorded).  A prototype without
 * one (the real Ascend driver's): "current" when selected, with its
 * thread; else pid 0, recorded all the same, since the event may come
 * from a kernel worker forwarding a selected process's task; user space
 * attributes it by stream owner (and drops other processes' as foreign).
 * Return: 0 to record, -1 to skip.
 */
static __always_inline int task_owner(const __u64 *args, unsigned int ev, __u32 *tgid,
				      __u32 *tid)
{
	__u64 id;

	if (task_layout[ev].pos[NPU_TP_TGID] == NPU_TP_ABSENT) {
		id = bpf_get_current_pid_tgid();
		*tgid = (__u32)(id >> 32);
		*tid = (__u32)id;
		if (!bpf_map_lookup_elem(&tgids, tgid))
			*tgid = *tid = 0;
		return 0;
	}
	*tgid = (__u32)TASK_FIELD(args, ev, NPU_TP_TGID);
	if (!bpf_map_lookup_elem(&tgids, tgid))
		return -1;
	*tid = (__u32)TASK_FIELD(args, ev, NPU_TP_TID);
	return 0;
}

/*
 * One driver task event @event (layout @ev): a struct npuprof_rec_task
 * filled as kmod/probes.c fills it (hdr.ts CLOCK_MONOTONIC ns, the name
 * NUL-padded, at most 31 bytes), for a selected tgid while capture is on.
 */
static __always_inline int on_task(const __u64 *args, __u16 event, const unsigned int ev)
{
	struct npuprof_rec_task rec;
	__u32 tgid, tid;
	const char *name;

	if (!CAPTURE_ON(capture))
		return 0;
	if (task_owner(args, ev, &tgid, &tid))
		return 0;
	__builtin_memset(&rec, 0, sizeof(rec));
	rec.hdr.type = NPUPROF_REC_TASK;
	rec.hdr.size = sizeof(rec);
	rec.dev_ts = TASK_FIELD(args, ev, NPU_TP_DEV_TS);
	rec.pid = tgid;
	rec.tid = tid;
	rec.device = (__u32)TASK_FIELD(args, ev, NPU_TP_DEVICE);
	rec.stream = (__u32)TASK_FIELD(args, ev, NPU_TP_STREAM);
	rec.task_id = (__u32)TASK_FIELD(args, ev, NPU_TP_TASK_ID);
	rec.event = event;
	rec.task_type = (__u16)TASK_FIELD(args, ev, NPU_TP_TASK_TYPE);
	rec.arg = TASK_FIELD(args, ev, NPU_TP_ARG);
	name = (const char *)TASK_FIELD(args, ev, NPU_TP_NAME);
	/* a NULL or unreadable name leaves the zeroed "" */
	if (name)
		bpf_probe_read_kernel_str(rec.name, sizeof(rec.name), name);
	rec.hdr.ts = bpf_ktime_get_ns();
	emit(&rec.hdr, sizeof(rec));
	return 0;
}

SEC("raw_tp")
int acl_task_submit(struct bpf_raw_tracepoint_args *ctx)
{
	return on_task(ctx->args, NPUPROF_TASK_SUBMIT, 0);
}

SEC("raw_tp")
int acl_task_start(struct bpf_raw_tracepoint_args *ctx)
{
	return on_task(ctx->args, NPUPROF_TASK_START, 1);
}

SEC("raw_tp")
int acl_task_end(struct bpf_raw_tracepoint_args *ctx)
{
	return on_task(ctx->args, NPUPROF_TASK_END, 2);
}

SEC("raw_tp")
int acl_task_sync(struct bpf_raw_tracepoint_args *ctx)
{
	return on_task(ctx->args, NPUPROF_TASK_STREAM_SYNC, 3);
}

SEC("raw_tp")
int acl_task_queued(struct bpf_raw_tracepoint_args *ctx)
{
	return on_task(ctx->args, NPUPROF_TASK_QUEUED, 4);
}

SEC("raw_tp")
int acl_task_cqe(struct bpf_raw_tracepoint_args *ctx)
{
	return on_task(ctx->args, NPUPROF_TASK_CQE, 5);
}

/*
 * Device task submits on the real Ascend driver (npu_backend.device_log),
 * whose tracepoints never see the submitting thread reliably: a uprobe on
 * halSqTaskSend(uint32_t dev, struct halTaskSendInfo *info) in the
 * libascend_hal.so each target maps (include/npuprof/drv/ascend_hal_abi.h).
 * The runtime sends every task through it, on the submitting thread, in
 * every submit mode of the driver.  One struct npuprof_rec_task per SQE
 * (the first ACL_SQ_SEND_MAX_SQES of the call) with event
 * NPUPROF_TASK_SUBMIT, from the SQE's 8-byte header: stream =
 * rt_stream_id, task_id, task_type from the SQE type (npuprof_sqe_task_type()),
 * arg = block_dim; hdr.ts the call's entry (every SQE of a call the same),
 * dev_ts 0, name empty (the export names the task from its API call).
 * The filter as for calls: capture on, tgid selected.  The record is
 * written at entry, before the driver took the SQEs: a send that fails
 * and is retried gives a second SUBMIT of the same task (the export's
 * fold starts a new life cycle at each SUBMIT; the first then has no
 * START and is only counted).  The loader loads this program only when
 * asked (npuprof_acl_trace_opts.submits).
 */

/* Count @n SQEs with no record (see sqe_skipped). */
static __always_inline void skip_sqes(__u64 n)
{
	__sync_fetch_and_add(&sqe_skipped, n);
	count_missed(n);
}

SEC("uprobe")
int acl_sq_send(struct pt_regs *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), now;
	struct ascend_hal_task_send_info info;
	struct ascend_sqe_header h;
	struct npuprof_rec_task rec;
	__u32 tgid = id >> 32, dev, n, i;

	if (!CAPTURE_ON(capture) || !bpf_map_lookup_elem(&tgids, &tgid))
		return 0;
	now = bpf_ktime_get_ns();
	dev = (__u32)PT_REGS_PARM1(ctx);
	if (bpf_probe_read_user(&info, sizeof(info), (void *)PT_REGS_PARM2(ctx))) {
		skip_sqes(1);
		return 0;
	}
	n = info.sqe_num;
	for (i = 0; i < ACL_SQ_SEND_MAX_SQES && i < n; i++) {
		if (bpf_probe_read_user(&h, sizeof(h),
					(void *)(info.sqe_addr + (__u64)i * ASCEND_SQE_BYTES))) {
			skip_sqes(n - i); /* the rest of one bad buffer: unreadable too */
			return 0;
		}
		__builtin_memset(&rec, 0, sizeof(rec));
		rec.hdr.type = NPUPROF_REC_TASK;
		rec.hdr.size = sizeof(rec);
		rec.hdr.ts = now;
		rec.pid = tgid;
		rec.tid = (__u32)id;
		rec.device = dev;
		rec.stream = h.rt_stream_id;
		rec.task_id = h.task_id;
		rec.event = NPUPROF_TASK_SUBMIT;
		rec.task_type = npuprof_sqe_task_type(ASCEND_SQE_TYPE(&h));
		rec.arg = h.block_dim;
		emit(&rec.hdr, sizeof(rec));
	}
	if (n > ACL_SQ_SEND_MAX_SQES)
		skip_sqes(n - ACL_SQ_SEND_MAX_SQES);
	return 0;
}
