/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * User ABI of the simulated NPU driver npusim.ko (/dev/davinci<N>), the
 * stand-in for the Ascend driver.  Used only by the simulated runtime
 * (sim/runtime, libascendcl.so); npuprof itself never includes this file.
 *
 * A stream is a FIFO of tasks that the driver runs in order, one at a time,
 * on kernel timers.  Stream ids are per device, from 0; task ids are per
 * device, from 1.  Streams belong to the file descriptor that created them
 * and are destroyed (pending tasks cancelled) when it is closed.
 */
#ifndef NPUSIM_IOCTL_H
#define NPUSIM_IOCTL_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define NPUSIM_NAME_LEN 32

/**
 * struct npusim_stream_req - NPUSIM_IOC_STREAM_CREATE
 * @stream: out: the new stream id
 * @flags:  in: 0
 */
struct npusim_stream_req {
	__u32 stream;
	__u32 flags;
};

/* Task types: the same values as enum npuprof_task_type. */
#define NPUSIM_TASK_KERNEL 0
#define NPUSIM_TASK_MEMCPY 1
#define NPUSIM_TASK_EVENT_RECORD 2

/**
 * struct npusim_task_req - NPUSIM_IOC_SUBMIT: queue one task on a stream
 * @stream:      in: stream id
 * @type:        in: NPUSIM_TASK_*
 * @duration_ns: in: kernel run time in ns (kernels; ignored otherwise)
 * @bytes:       in: bytes copied (memcpy: time = latency + bytes / bandwidth)
 * @name:        in: kernel name, NUL-terminated (kernels)
 * @task_id:     out: the task id
 * @pad:         0
 */
struct npusim_task_req {
	__u32 stream;
	__u32 type;
	__u64 duration_ns;
	__u64 bytes;
	char name[NPUSIM_NAME_LEN];
	__u32 task_id;
	__u32 pad;
};

/**
 * struct npusim_clock_req - NPUSIM_IOC_CLOCK: one host/device clock pair
 * @host_ns: host CLOCK_MONOTONIC ns
 * @dev_ts:  device clock count at the same instant
 * @freq_hz: nominal device clock frequency (counts per second)
 */
struct npusim_clock_req {
	__u64 host_ns;
	__u64 dev_ts;
	__u64 freq_hz;
};

#define NPUSIM_IOC_MAGIC 0xB8
#define NPUSIM_IOC_STREAM_CREATE _IOWR(NPUSIM_IOC_MAGIC, 1, struct npusim_stream_req)
#define NPUSIM_IOC_STREAM_DESTROY _IOW(NPUSIM_IOC_MAGIC, 2, __u32)
#define NPUSIM_IOC_SUBMIT _IOWR(NPUSIM_IOC_MAGIC, 3, struct npusim_task_req)
/* Blocks until every task queued on the stream has ended; -EINTR on a signal. */
#define NPUSIM_IOC_STREAM_SYNC _IOW(NPUSIM_IOC_MAGIC, 4, __u32)
#define NPUSIM_IOC_CLOCK _IOR(NPUSIM_IOC_MAGIC, 5, struct npusim_clock_req)

#endif /* NPUSIM_IOCTL_H */
