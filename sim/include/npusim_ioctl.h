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

/**
 * struct npusim_clock_raw_req - NPUSIM_IOC_CLOCK_RAW: NPUSIM_IOC_CLOCK plus
 * host CLOCK_MONOTONIC_RAW, all read at one instant (halGetDeviceInfo's
 * MONOTONIC_RAW / SYS_COUNT pair)
 * @host_ns: host CLOCK_MONOTONIC ns
 * @dev_ts:  device clock count
 * @freq_hz: nominal device clock frequency
 * @raw_ns:  host CLOCK_MONOTONIC_RAW ns
 */
struct npusim_clock_raw_req {
	__u64 host_ns;
	__u64 dev_ts;
	__u64 freq_hz;
	__u64 raw_ns;
};

/*
 * A simulated STARS SQE as NPUSIM_IOC_SQ_SEND takes it: bytes 0-7 are the
 * real header (struct ascend_sqe_header of
 * include/npuprof/drv/ascend_hal_abi.h: type, wr_cqe, block_dim,
 * rt_stream_id, task_id); bytes 8-63 are the simulator's own payload, in
 * place of the real SQE's type-specific fields.
 * @header:      the 8-byte STARS header, as bytes
 * @duration_ns: AIC/AIV kernels: run time on the device, ns
 * @bytes:       SDMA: bytes copied
 * @name:        AIC/AIV kernels: kernel name, NUL-terminated
 * @prof_pid:    PLACE_HOLDER with @prof_op set: the process (pid as the
 *               sender sees it) whose profiling is switched
 * @prof_op:     PLACE_HOLDER: NPUSIM_SQE_PROF_* (0: a plain place holder)
 */
struct npusim_sqe {
	__u8 header[8];
	__u64 duration_ns;
	__u64 bytes;
	char name[NPUSIM_NAME_LEN];
	__u32 prof_pid;
	__u32 prof_op;
};
#define NPUSIM_SQE_PROF_ENABLE 1  /* the runtime's profiling-enable task */
#define NPUSIM_SQE_PROF_DISABLE 2 /* ... and its disable */

/* Most SQEs one NPUSIM_IOC_SQ_SEND takes. */
#define NPUSIM_SQ_SEND_MAX 1024

/**
 * struct npusim_sq_send_req - NPUSIM_IOC_SQ_SEND: queue SQEs on one stream
 * @stream:   in: the stream (its SQ: sq id = stream id in the simulator);
 *            every SQE's rt_stream_id must name it
 * @sqe_num:  in: SQEs at @sqe_addr, 1..NPUSIM_SQ_SEND_MAX
 * @sqe_addr: in: user address of @sqe_num struct npusim_sqe
 *
 * All SQEs are checked before any is queued.  Kernels, copies and event
 * records run as NPUSIM_IOC_SUBMIT's tasks do (same tracepoints), with the
 * SQE's task id.  A place holder runs no task: with @prof_op set, it turns
 * the device log's content on or off for @prof_pid (devlog_scope=enabled).
 * A task whose id (per stream, wrapping at task_id_bits, 0 skipped) still
 * names an unfinished task of the stream waits for it to end.
 */
struct npusim_sq_send_req {
	__u32 stream;
	__u32 sqe_num;
	__u64 sqe_addr;
};

/**
 * struct npusim_prof_start_req - NPUSIM_IOC_PROF_START: start a profiling
 * channel of the device, owned by this open file until PROF_STOP or close
 * @channel:        in: channel id (only 50, STARS_SOC_LOG)
 * @channel_type:   in: prof_start_para.channel_type (0 or 1)
 * @user_data_size: in: bytes of @user_data used, <= 128
 * @status:         out: the libascend_hal.so status: 0; -10 another file
 *                  owns the channel; -12 the host owns it and the caller is
 *                  in a pid namespace; -13 the reverse; 115 the calling
 *                  process has no other file of this device open (no device
 *                  context; prof_needs_context=0 lifts it); 3 bad
 *                  parameters; -3 this file started it already
 * @user_data:      in: StarsSocLogConfigT (acsq_task must be 1)
 */
struct npusim_prof_start_req {
	__u32 channel;
	__u32 channel_type;
	__u32 user_data_size;
	__s32 status;
	__u8 user_data[128];
};

/**
 * struct npusim_prof_read_req - NPUSIM_IOC_PROF_READ: take whole 64-byte
 * records (struct ascend_stars_log) from the device's log ring
 * @channel: in: 50
 * @size:    in: bytes at @buf
 * @buf:     in: user address
 * @bytes:   out: bytes copied, a multiple of 64
 * @pad:     0
 *
 * Return (ioctl): 0; -EPERM when this file does not own the channel.
 */
struct npusim_prof_read_req {
	__u32 channel;
	__u32 size;
	__u64 buf;
	__u32 bytes;
	__u32 pad;
};

#define NPUSIM_IOC_MAGIC 0xB8
#define NPUSIM_IOC_STREAM_CREATE _IOWR(NPUSIM_IOC_MAGIC, 1, struct npusim_stream_req)
#define NPUSIM_IOC_STREAM_DESTROY _IOW(NPUSIM_IOC_MAGIC, 2, __u32)
#define NPUSIM_IOC_SUBMIT _IOWR(NPUSIM_IOC_MAGIC, 3, struct npusim_task_req)
/* Blocks until every task queued on the stream has ended; -EINTR on a signal. */
#define NPUSIM_IOC_STREAM_SYNC _IOW(NPUSIM_IOC_MAGIC, 4, __u32)
#define NPUSIM_IOC_CLOCK _IOR(NPUSIM_IOC_MAGIC, 5, struct npusim_clock_req)
#define NPUSIM_IOC_SQ_SEND _IOW(NPUSIM_IOC_MAGIC, 6, struct npusim_sq_send_req)
#define NPUSIM_IOC_CLOCK_RAW _IOR(NPUSIM_IOC_MAGIC, 7, struct npusim_clock_raw_req)
#define NPUSIM_IOC_PROF_START _IOWR(NPUSIM_IOC_MAGIC, 8, struct npusim_prof_start_req)
/* Stops the owned channel (__u32 channel); takes prof_stop_ms. -EPERM: not the owner. */
#define NPUSIM_IOC_PROF_STOP _IOW(NPUSIM_IOC_MAGIC, 9, __u32)
#define NPUSIM_IOC_PROF_READ _IOWR(NPUSIM_IOC_MAGIC, 10, struct npusim_prof_read_req)

#endif /* NPUSIM_IOCTL_H */
