// SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT
/*
 * P2's BPF baseline (bench/p2_driver_event.sh): the BPF way to do what
 * npuprof.ko's probe does.  A raw tracepoint program on npusim_task_end
 * (the cheapest BPF attachment to a tracepoint: no perf buffer, arguments
 * as they were passed) keeps only events of one tgid and writes each as a
 * struct npuprof_rec_task (88 bytes, the same record npuprof.ko writes)
 * into one BPF ring buffer shared by all CPUs, the usual BPF design; a
 * record that finds no room is counted in `lost`.  bench/src/p2_event.c
 * loads it and consumes the ring with ring_buffer__poll().
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <npuprof/record.h>

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Process whose events are recorded (set before load). */
const volatile __u32 target_tgid;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 20); /* resized by the loader */
} ring SEC(".maps");

/* Records that found the ring full, per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

static __always_inline void count_lost(void)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&lost, &zero);

	if (n)
		*n += 1;
}

/* args: tgid, tid, device, stream, task_id, task_type, dev_ts, arg, name */
SEC("raw_tracepoint/npusim_task_end")
int p2_task_end(struct bpf_raw_tracepoint_args *ctx)
{
	struct npuprof_rec_task *r;

	if ((__u32)ctx->args[0] != target_tgid)
		return 0;
	r = bpf_ringbuf_reserve(&ring, sizeof(*r), 0);
	if (!r) {
		count_lost();
		return 0;
	}
	r->hdr.type = NPUPROF_REC_TASK;
	r->hdr.size = sizeof(*r);
	r->hdr.cpu = bpf_get_smp_processor_id();
	r->hdr.ts = bpf_ktime_get_ns();
	r->pid = ctx->args[0];
	r->tid = ctx->args[1];
	r->device = ctx->args[2];
	r->stream = ctx->args[3];
	r->task_id = ctx->args[4];
	r->event = NPUPROF_TASK_END;
	r->task_type = ctx->args[5];
	r->dev_ts = ctx->args[6];
	r->arg = ctx->args[7];
	if (bpf_probe_read_kernel_str(r->name, sizeof(r->name),
				      (const void *)ctx->args[8]) < 0)
		r->name[0] = '\0';
	bpf_ringbuf_submit(r, 0);
	return 0;
}
