/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The parts of Huawei's user-space driver library libascend_hal.so that
 * npuprof uses, as its binary interface: function prototypes (as pointer
 * types: npuprof loads the library with dlopen(3) and never links it),
 * the structures they take, the values of their constants, the 64-byte
 * STARS submission-queue entry header a task is sent with, and the 64-byte
 * begin/end record of the device scheduler's log (profiling channel 50,
 * STARS_SOC_LOG, Atlas A2 / 910B and A3).
 *
 * Sources of the facts (see ../shared/reference/ascend-driver.md, which
 * cites file and line): the driver's public headers (pkg_inc/
 * ascend_hal_base.h: prof_* API, channel_list_t, prof_start_para,
 * DEV_INFO_TYPE; pkg_inc/hal_pkg/trs_pkg.h: struct halTaskSendInfo),
 * CANN runtime (rt_stars_define.h: the SQE header; hal_ts.h: channel ids,
 * status codes), the msprof collector (StarsSocLogConfigT) and MSPTI
 * (channel_data.h: the log record; stars_common.h: how stream and task
 * ids are packed).  Written here in our own words; no Huawei header is
 * included or copied.
 *
 * Two implementations include this file: the simulated libascend_hal.so
 * (sim/hal/), which implements the interface, and npuprof's device-log
 * reader and submit uprobe, which use it.  All structures are the
 * little-endian LP64 layouts of the real library; their sizes are checked
 * below.
 */
#ifndef NPUPROF_DRV_ASCEND_HAL_ABI_H
#define NPUPROF_DRV_ASCEND_HAL_ABI_H

#if defined(__KERNEL__) || defined(_ASM_GENERIC_INT_LL64_H)
/* the kernel's, or a user file that has <linux/types.h> already */
#include <linux/types.h>
#else
#include <stdint.h>
typedef uint8_t __u8;
typedef uint16_t __u16;
typedef uint32_t __u32;
typedef int32_t __s32;
typedef uint64_t __u64;
typedef int64_t __s64;
#endif

/* File name the runtime and the collectors load (dlopen). */
#define ASCEND_HAL_LIB "libascend_hal.so"
/* Where the driver package installs it on an Atlas host. */
#define ASCEND_HAL_LIB_DEFAULT_DIR "/usr/local/Ascend/driver/lib64/driver"

/* ---- status codes (drvError_t and the profiling channel's) ---- */
#define ASCEND_DRV_OK 0
#define ASCEND_DRV_ERROR_NO_DEVICE 1
#define ASCEND_DRV_ERROR_INVALID_DEVICE 2
#define ASCEND_DRV_ERROR_INVALID_VALUE 3
#define ASCEND_DRV_ERROR_STATUS_FAIL 30 /* a channel this process already started */
#define ASCEND_DRV_ERROR_NOT_SUPPORT 0xfffe

/* prof_drv_start() / prof_channel_read() results (hal_ts.h) */
#define ASCEND_PROF_OK 0
#define ASCEND_PROF_ERROR (-1)
#define ASCEND_PROF_STARTED_ALREADY (-3)
#define ASCEND_PROF_STOPPED (-4)           /* prof_channel_read: the channel stopped */
#define ASCEND_PROF_CHANNEL_OCCUPIED (-10) /* another process collects this device */
#define ASCEND_PROF_VF_FULL (-11)
#define ASCEND_PROF_CONTAINER_NOT_PHY (-12) /* the host holds it; we are in a container */
#define ASCEND_PROF_PHY_NOT_CONTAINER (-13) /* a container holds it; we are on the host */
#define ASCEND_PROF_NO_CP_PROCESS 115       /* the caller has no device context */

/* ---- halGetDeviceInfo(): module and info types (DEV_INFO_TYPE) ---- */
#define ASCEND_MODULE_TYPE_SYSTEM 0
#define ASCEND_INFO_TYPE_SYS_COUNT 13     /* device system counter now */
#define ASCEND_INFO_TYPE_MONOTONIC_RAW 14 /* host CLOCK_MONOTONIC_RAW ns, same instant */
#define ASCEND_INFO_TYPE_DEV_OSC_FREQUE 25 /* device counter frequency, Hz */

/* int halGetDeviceInfo(uint32_t dev, int32_t module, int32_t info, int64_t *value) */
typedef int (*ascend_hal_get_device_info_fn)(__u32 dev, __s32 module_type,
					     __s32 info_type, __s64 *value);

/* ---- task submission: halSqTaskSend() ---- */

/**
 * struct ascend_hal_task_send_info - halTaskSendInfo (trs_pkg.h)
 * @type:     submit type (0: normal)
 * @ts_id:    task scheduler instance, 0 on one-TS chips
 * @sq_id:    submission queue of the stream
 * @timeout:  ms the call may wait for room in the SQ
 * @sqe_addr: @sqe_num entries of 64 bytes, in the caller's memory
 * @sqe_num:  entries to send
 * @pos:      out: SQ slot of the first entry
 */
struct ascend_hal_task_send_info {
	__u32 type;
	__u32 ts_id;
	__u32 sq_id;
	__s32 timeout;
	__u64 sqe_addr;
	__u32 sqe_num;
	__u32 pos;
};

/* int halSqTaskSend(uint32_t dev, struct halTaskSendInfo *info) */
typedef int (*ascend_hal_sq_task_send_fn)(__u32 dev, struct ascend_hal_task_send_info *info);

#define ASCEND_SQE_BYTES 64
#define ASCEND_HAL_SQ_TASK_SEND "halSqTaskSend" /* the uprobe's symbol */

/*
 * The first 8 bytes of every STARS SQE (rtStarsSqeHeader_t), as bytes:
 *  byte 0: type (bits 0-5), l1_lock (6), l1_unlock (7)
 *  byte 1: ie (0-1), pre_p (2-3), post_p (4-5), wr_cqe (6): the task
 *          writes a completion entry (only sync/event/DVPP tasks on STARS)
 *  u16 block_dim, u16 rt_stream_id, u16 task_id (runtime-allocated, wraps)
 * Bytes 8-63 depend on the type.
 */
struct ascend_sqe_header {
	__u8 type_lock;
	__u8 flags;
	__u16 block_dim;
	__u16 rt_stream_id;
	__u16 task_id;
};
#define ASCEND_SQE_TYPE(h) ((h)->type_lock & 0x3f)
#define ASCEND_SQE_WR_CQE(h) (((h)->flags >> 6) & 1)
#define ASCEND_SQE_WR_CQE_BIT 0x40

/* STARS SQE types (rt_stars_define.h) the simulated runtime sends. */
#define ASCEND_SQE_TYPE_AIC 0          /* AI Core kernel */
#define ASCEND_SQE_TYPE_AIV 1          /* AI Vector kernel */
#define ASCEND_SQE_TYPE_PLACE_HOLDER 3 /* place holder (profiling enable, ...) */
#define ASCEND_SQE_TYPE_EVENT_RECORD 4
#define ASCEND_SQE_TYPE_EVENT_WAIT 5
#define ASCEND_SQE_TYPE_SDMA 11 /* memory copy */

/* ---- profiling channels ---- */
#define ASCEND_PROF_CHANNEL_NAME_LEN 32
#define ASCEND_PROF_CHANNEL_NUM_MAX 160
#define ASCEND_PROF_CHANNEL_STARS_SOC_LOG 50 /* task begin/end, 910B and A3 */
#define ASCEND_PROF_TS_TYPE 0
#define ASCEND_PROF_PERIPHERAL_TYPE 1
#define ASCEND_PROF_USER_DATA_MAX 128 /* bytes of prof_start_para.user_data */

struct ascend_prof_channel_info {
	char channel_name[ASCEND_PROF_CHANNEL_NAME_LEN];
	__u32 channel_type;
	__u32 channel_id;
};

/* channel_list_t */
struct ascend_prof_channel_list {
	__u32 chip_type;
	__u32 channel_num;
	struct ascend_prof_channel_info channel[ASCEND_PROF_CHANNEL_NUM_MAX];
};

/* struct prof_start_para (the enum channel_type is an int) */
struct ascend_prof_start_para {
	__u32 channel_type;
	__u32 sample_period; /* ms between the device's deliveries */
	__u32 real_time;     /* 1: deliver as it comes */
	__u32 pad;           /* the compiler's, before the pointer */
	__u64 user_data;     /* void *, channel-specific configuration */
	__u32 user_data_size;
	__u32 pad2;
};

/* struct prof_poll_info: a channel with data to read */
struct ascend_prof_poll_info {
	__u32 device_id;
	__u32 channel_id;
};

/*
 * StarsSocLogConfigT, the user data of channel 50 (11 x u32, 44 bytes):
 * which of the scheduler's logs to turn on.  acsq_task = 1 gives the task
 * begin/end records; tag = 1 ("enable delay") makes the channel wait for
 * the profiling-enable task the runtime sends when the app itself starts
 * profiling; 0 starts at once.
 */
struct ascend_stars_soc_log_config {
	__u32 acsq_task;
	__u32 acc_pmu;
	__u32 cdqm_reg;
	__u32 dvpp_vpc_block;
	__u32 dvpp_jpegd_block;
	__u32 dvpp_jpede_block;
	__u32 ffts_context_task;
	__u32 ffts_block;
	__u32 sdma_dmu;
	__u32 tag;
	__u32 block_shink_flag;
};

typedef int (*ascend_prof_drv_get_channels_fn)(__u32 dev, struct ascend_prof_channel_list *list);
typedef int (*ascend_prof_drv_start_fn)(__u32 dev, __u32 channel,
					struct ascend_prof_start_para *para);
/* Return: channels with data written to @out (at most @num), 0 on timeout, < 0 error. */
typedef int (*ascend_prof_channel_poll_fn)(struct ascend_prof_poll_info *out, int num,
					   int timeout_s);
/* Return: bytes copied (whole records), 0 none, ASCEND_PROF_STOPPED, or < 0. */
typedef int (*ascend_prof_channel_read_fn)(__u32 dev, __u32 channel, char *buf, __u32 size);
typedef int (*ascend_prof_stop_fn)(__u32 dev, __u32 channel);
/* Asks the device for what it holds; *len: bytes now readable. */
typedef int (*ascend_hal_prof_data_flush_fn)(__u32 dev, __u32 channel, __u32 *len);

/* ---- channel 50 record (64 bytes, packed) ---- */
#define ASCEND_STARS_LOG_BYTES 64
#define ASCEND_STARS_FUNC_BEGIN 0 /* funcType: the task began */
#define ASCEND_STARS_FUNC_END 1   /* the task ended */

/**
 * struct ascend_stars_log - one begin or end of a task
 * @word0:     funcType (bits 0-5), cnt (6-9: a 4-bit running count of
 *             the log's records), taskType (10-15: the SQE type)
 * @resv0:     0
 * @stream:    stream id as packed by the scheduler: see
 *             ascend_stars_log_ids() for its flag bits
 * @task:      task id as packed by the scheduler
 * @timestamp: device system counter at the event
 * @resv1:     0
 * @acc:       accId (bits 0-5), acsqId (6-15)
 * @resv2:     0
 */
struct ascend_stars_log {
	__u16 word0;
	__u16 resv0;
	__u16 stream;
	__u16 task;
	__u64 timestamp;
	__u16 resv1;
	__u16 acc;
	__u32 resv2[11];
};
#define ASCEND_STARS_FUNC(r) ((r)->word0 & 0x3f)
#define ASCEND_STARS_CNT(r) (((r)->word0 >> 6) & 0xf)
#define ASCEND_STARS_TASK_TYPE(r) (((r)->word0 >> 10) & 0x3f)

/*
 * ascend_stars_log_ids() - the stream and task id a record names.
 * The scheduler lends bits between its two 16-bit fields (CANN since late
 * 2023; the layout MSPTI and msprof's parsers undo):
 *  not expanded (streams below 2048):
 *   stream bit 12 set: stream = stream mod 2048, task = task's low 13 bits
 *                      | stream's high 3 bits;
 *   else bit 13 set:   the two fields' low 12 bits are swapped (stream =
 *                      task's low 12 bits mod 2048, task = stream's low 12
 *                      bits | task's high 4 bits);
 *   else:              stream mod 2048, task as is;
 *  expanded (the runtime's 32k-stream mode; how an outside reader learns it
 *  is not known, ascend-driver.md 4.3 question 7):
 *   place-holder and event-record tasks: stream's low 15 bits, task as is;
 *   stream bit 15 set: stream = task's low 15 bits, task = task's bit 15 |
 *                      stream's low 15 bits;
 *   else:              stream's low 15 bits, task as is.
 */
static inline void ascend_stars_log_ids(__u16 stream, __u16 task, unsigned int sqe_type,
					int expanded, __u32 *stream_id, __u32 *task_id)
{
	if (expanded) {
		if (sqe_type == ASCEND_SQE_TYPE_PLACE_HOLDER ||
		    sqe_type == ASCEND_SQE_TYPE_EVENT_RECORD || !(stream & 0x8000)) {
			*stream_id = stream & 0x7fff;
			*task_id = task;
		} else {
			*stream_id = task & 0x7fff;
			*task_id = (task & 0x8000) | (stream & 0x7fff);
		}
		return;
	}
	if (stream & 0x1000) {
		*stream_id = stream % 2048;
		*task_id = (task & 0x1fff) | (stream & 0xe000);
	} else if (stream & 0x2000) {
		*stream_id = (task & 0x0fff) % 2048;
		*task_id = (stream & 0x0fff) | (task & 0xf000);
	} else {
		*stream_id = stream % 2048;
		*task_id = task;
	}
}

#ifndef __KERNEL__
_Static_assert(sizeof(struct ascend_hal_task_send_info) == 32, "halTaskSendInfo");
_Static_assert(sizeof(struct ascend_sqe_header) == 8, "SQE header");
_Static_assert(sizeof(struct ascend_prof_channel_list) == 8 + 160 * 40, "channel_list_t");
_Static_assert(sizeof(struct ascend_prof_start_para) == 32, "prof_start_para");
_Static_assert(sizeof(struct ascend_stars_soc_log_config) == 44, "StarsSocLogConfigT");
_Static_assert(sizeof(struct ascend_stars_log) == 64, "STARS log record");
#endif

#endif /* NPUPROF_DRV_ASCEND_HAL_ABI_H */
