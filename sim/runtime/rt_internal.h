/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces between the files of the simulated runtime
 * (libruntime.so: rt_*.c).  Nothing here is exported: the library is built
 * with -fvisibility=hidden and only the RTS_API functions of
 * <runtime/rt.h> are public.
 *
 * Rule of the library: a public rt function never calls another public
 * rt function (uprobes count every entry of one); shared work lives in the
 * rt_* helpers below.
 */
#ifndef SIM_RUNTIME_RT_INTERNAL_H
#define SIM_RUNTIME_RT_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include <acl/acl_base.h> /* the error codes (see <runtime/rt.h>) */
#include <npusim_ioctl.h>
#include <runtime/rt.h>

#define RT_MAX_DEVICES 64
/* Stream ids the driver hands out on one device: 0..RT_MAX_STREAMS-1. */
#define RT_MAX_STREAMS 1024

struct rt_device;

/*
 * struct rt_stream - what an rtStream_t (and aclrtStream) points to.  The
 * first two fields are a stable layout a uprobe may read from the handle:
 * the driver stream id and the device id.
 */
struct rt_stream {
	uint32_t id;
	int32_t device;
	struct rt_stream *next; /* in rt_device.streams */
};

/*
 * struct rt_handle - head of every per-device handle the runtime hands out
 * (events): its list link and the device it belongs to.  It is the first
 * member, so a handle and its head share an address.
 */
struct rt_handle {
	struct rt_handle *next;
	int32_t device;
};

/* struct rt_event - what an rtEvent_t (and aclrtEvent) points to. */
struct rt_event {
	struct rt_handle h;
	uint32_t records; /* EVENT_RECORD tasks queued so far */
};

/*
 * One open /dev/davinci<id>, shared by all threads of the process.  The
 * fd is lent to libascend_hal.so (halsimSetDeviceFd) for halSqTaskSend.
 * Task ids are the runtime's, as CANN's: per stream, from 1, wrapping at
 * @task_id_max back to 1; @send_lock keeps their order the order the
 * SQEs reach the driver.
 */
struct rt_device {
	int32_t id;
	int fd;
	unsigned int refs; /* rtSetDevice calls not yet reset */
	uint32_t default_stream;
	struct rt_stream *streams; /* created by rtStreamCreate */
	pthread_mutex_t send_lock;
	uint32_t task_id_max;			/* 2^task_id_bits - 1, at most 65535 */
	uint16_t next_task_id[RT_MAX_STREAMS]; /* 0: the stream sent none yet */
};

/*
 * Where a task goes, resolved under the lock and used after it is dropped
 * (the fd stays open while any caller holds the read side: see rt_lock).
 */
struct rt_target {
	int fd;
	int32_t device;
	uint32_t stream;
	struct rt_device *dev; /* valid while rt_lock is held */
};

/*
 * rt_lock guards the device table and every handle registry.  Readers
 * (submit, lookups) hold the read side across their short ioctl so a
 * concurrent rtDeviceReset cannot close the fd under them; writers
 * (open/close, create/destroy) take the write side and are preferred, so
 * busy submitters cannot starve them.  A synchronize may block for long:
 * it works on a dup() of the fd (see rt_resolve_stream_dup()) and holds no
 * lock while it waits.
 */
extern pthread_rwlock_t rt_lock;
extern struct rt_device *rt_devices[RT_MAX_DEVICES];
extern struct rt_handle *rt_events;   /* struct rt_event */

/** rt_current_device() - the caller's current device id, or -1. */
int rt_current_device(void);

/** rt_set_current_device() - set the caller's current device (-1: none). */
void rt_set_current_device(int id);

/**
 * rt_current_locked() - the calling thread's open device, with rt_lock
 * held (either side).  Return: the device, or NULL when the thread has no
 * current device or it was reset.
 */
struct rt_device *rt_current_locked(void);

/**
 * rt_handle_add() - give @h to the calling thread's current device and
 * put it on @list; takes rt_lock.  Return: ACL_SUCCESS, or
 * ACL_ERROR_RT_CONTEXT_NULL when the thread has no device (@h not added).
 */
aclError rt_handle_add(struct rt_handle **list, struct rt_handle *h);

/**
 * rt_handle_remove() - take @h off @list; takes rt_lock.
 * Return: @h, or NULL when it is not on the list (a bad handle).
 */
struct rt_handle *rt_handle_remove(struct rt_handle **list, const void *h);

/** rt_handle_find_locked() - @h if it is on @list, else NULL; rt_lock held. */
struct rt_handle *rt_handle_find_locked(struct rt_handle *list, const void *h);

/**
 * rt_resolve_stream_locked() - the target of @stream (NULL: the default
 * stream of the current device), with rt_lock held
 * Return: ACL_SUCCESS; ACL_ERROR_RT_CONTEXT_NULL; ACL_ERROR_INVALID_PARAM
 * for an unknown stream; ACL_ERROR_RT_STREAM_CONTEXT for another device's.
 */
aclError rt_resolve_stream_locked(aclrtStream stream, struct rt_target *out);

/**
 * rt_resolve_stream_dup() - rt_resolve_stream_locked() taking the lock
 * itself, with @out->fd a dup() of the device fd that the caller closes.
 * Return: as rt_resolve_stream_locked(), or ACL_ERROR_RT_DRV_INTERNAL_ERROR
 * when dup() fails.
 */
aclError rt_resolve_stream_dup(aclrtStream stream, struct rt_target *out);

/**
 * rt_submit() - queue one task on @t through halSqTaskSend, rt_lock held
 * @type:        NPUSIM_TASK_*: sent as an AIC, SDMA or EVENT_RECORD SQE
 *               (the event record with wr_cqe set)
 * @duration_ns: kernels; @bytes: copies; @name: kernel name or NULL
 * @block_dim:   kernels: the launch's block count (SQE header)
 * Return: ACL_SUCCESS or the ACL code of the driver's error.
 */
aclError rt_submit(const struct rt_target *t, uint32_t type, uint64_t duration_ns,
		   uint64_t bytes, const char *name, uint32_t block_dim);

/**
 * rt_sync_stream() - NPUSIM_IOC_STREAM_SYNC on @fd/@stream, restarted
 * when a signal interrupts it.  Return: ACL_SUCCESS or an ACL code.
 */
aclError rt_sync_stream(int fd, uint32_t stream);

/** rt_errno_to_acl() - the ACL code for a driver's -errno. */
aclError rt_errno_to_acl(int err);

/**
 * rt_release_all_devices() - close every device and free its streams and
 * events (rtsimReleaseAll(), for aclFinalize).
 */
void rt_release_all_devices(void);

/**
 * rt_log() - one line to stderr, "[INFO] libruntime: ...", only when
 * NPUSIM_VERBOSE=1.  (npuprof_msg() prints INFO to stdout, which belongs
 * to the application.)
 */
void rt_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* SIM_RUNTIME_RT_INTERNAL_H */
