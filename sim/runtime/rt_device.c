// SPDX-License-Identifier: MIT
/*
 * Devices of the simulated runtime (libruntime.so): opening /dev/davinci<N>
 * (once per process, reference counted by rtSetDevice/rtDeviceReset), the
 * per-thread current device, and the two driver calls every task path
 * shares (submit, stream synchronize).
 *
 * Every task goes to the device as a 64-byte STARS SQE through
 * libascend_hal.so's halSqTaskSend(), as CANN's runtime sends it: the
 * 8-byte header (include/npuprof/drv/ascend_hal_abi.h: SQE type, wr_cqe,
 * block dim, stream id, the runtime's task id) and the simulator's payload
 * (struct npusim_sqe: run time, bytes, kernel name).  The HAL sends on the
 * runtime's own device fd, lent with halsimSetDeviceFd() when the device
 * opens and taken back before it closes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <npusim_hal.h> /* also ascend_hal_abi.h */

#include "rt_internal.h"
#include "sim_log.h"

pthread_rwlock_t rt_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;
struct rt_device *rt_devices[RT_MAX_DEVICES];
struct rt_handle *rt_events;

/* The current device is per thread, as the runtime's current context is. */
static __thread int rt_cur_device = -1;

int rt_current_device(void)
{
	return rt_cur_device;
}

void rt_set_current_device(int id)
{
	rt_cur_device = id;
}

struct rt_device *rt_current_locked(void)
{
	int id = rt_cur_device;

	if (id < 0 || id >= RT_MAX_DEVICES)
		return NULL;
	return rt_devices[id];
}

aclError rt_handle_add(struct rt_handle **list, struct rt_handle *h)
{
	struct rt_device *dev;

	pthread_rwlock_wrlock(&rt_lock);
	dev = rt_current_locked();
	if (dev) {
		h->device = dev->id;
		h->next = *list;
		*list = h;
	}
	pthread_rwlock_unlock(&rt_lock);
	return dev ? ACL_SUCCESS : ACL_ERROR_RT_CONTEXT_NULL;
}

struct rt_handle *rt_handle_remove(struct rt_handle **list, const void *h)
{
	struct rt_handle **p, *found = NULL;

	pthread_rwlock_wrlock(&rt_lock);
	for (p = list; *p; p = &(*p)->next) {
		if (*p == h) {
			found = *p;
			*p = found->next;
			break;
		}
	}
	pthread_rwlock_unlock(&rt_lock);
	return found;
}

struct rt_handle *rt_handle_find_locked(struct rt_handle *list, const void *h)
{
	while (list && list != h)
		list = list->next;
	return list;
}

/* Free every handle of @list that belongs to device @id; rt_lock held. */
static void handles_free_device_locked(struct rt_handle **list, int32_t id)
{
	while (*list) {
		struct rt_handle *h = *list;

		if (h->device == id) {
			*list = h->next;
			free(h);
		} else {
			list = &h->next;
		}
	}
}

void rt_log(const char *fmt, ...)
{
	va_list ap;

	if (!sim_verbose())
		return;
	va_start(ap, fmt);
	sim_vlog("[INFO] ", "libruntime", fmt, ap);
	va_end(ap);
}

aclError rt_errno_to_acl(int err)
{
	switch (err) {
	case -EINVAL:
		return ACL_ERROR_RT_PARAM_INVALID;
	case -ENOMEM:
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	case -ENOSPC:
	case -EBUSY:
	case -EAGAIN:
		return ACL_ERROR_RT_STREAM_TASK_FULL;
	case -EMFILE:
	case -ENFILE:
		return ACL_ERROR_RT_NO_STREAM_RESOURCE;
	case -EACCES:
	case -EPERM:
		return ACL_ERROR_RT_NO_PERMISSION;
	case -ENOENT:
	case -ENXIO:
	case -ENODEV:
		return ACL_ERROR_RT_INVALID_DEVICEID;
	default:
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
}

aclError rt_resolve_stream_locked(aclrtStream stream, struct rt_target *out)
{
	struct rt_device *dev = rt_current_locked();
	struct rt_stream *s = NULL;
	int i;

	if (!dev)
		return ACL_ERROR_RT_CONTEXT_NULL;
	out->fd = dev->fd;
	out->device = dev->id;
	out->dev = dev;
	if (!stream) {
		out->stream = dev->default_stream;
		return ACL_SUCCESS;
	}
	for (i = 0; i < RT_MAX_DEVICES && !s; i++) {
		if (!rt_devices[i])
			continue;
		for (s = rt_devices[i]->streams; s && s != stream; s = s->next)
			;
	}
	if (!s)
		return ACL_ERROR_INVALID_PARAM;
	if (s->device != dev->id)
		return ACL_ERROR_RT_STREAM_CONTEXT;
	out->stream = s->id;
	return ACL_SUCCESS;
}

aclError rt_resolve_stream_dup(aclrtStream stream, struct rt_target *out)
{
	aclError ret;

	pthread_rwlock_rdlock(&rt_lock);
	ret = rt_resolve_stream_locked(stream, out);
	if (ret == ACL_SUCCESS) {
		/* The dup keeps the driver's file, hence its streams, alive. */
		out->fd = fcntl(out->fd, F_DUPFD_CLOEXEC, 0);
		if (out->fd < 0)
			ret = ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
	pthread_rwlock_unlock(&rt_lock);
	return ret;
}

/* The next task id of @stream on @dev (send_lock held): 1.., wrapping to 1. */
static uint16_t next_task_id(struct rt_device *dev, uint32_t stream)
{
	uint16_t *next = &dev->next_task_id[stream];
	uint16_t id = *next ? *next : 1;

	*next = id >= dev->task_id_max ? 1 : id + 1;
	return id;
}

/*
 * Send one SQE (its header's stream and task id filled in here) on
 * @t's stream.  Return: ACL_SUCCESS or the ACL code of the driver's errno
 * (the simulated HAL leaves it set when the driver refused).
 */
static aclError send_sqe(const struct rt_target *t, struct npusim_sqe *q)
{
	struct ascend_sqe_header *h = (struct ascend_sqe_header *)q->header;
	struct ascend_hal_task_send_info info;
	struct rt_device *dev = t->dev;
	int ret;

	if (t->stream >= RT_MAX_STREAMS)
		return ACL_ERROR_RT_PARAM_INVALID;
	memset(&info, 0, sizeof(info));
	info.sq_id = t->stream;
	info.sqe_addr = (uintptr_t)q;
	info.sqe_num = 1;
	h->rt_stream_id = (uint16_t)t->stream;
	pthread_mutex_lock(&dev->send_lock);
	h->task_id = next_task_id(dev, t->stream);
	errno = 0;
	ret = halSqTaskSend((uint32_t)t->device, &info);
	pthread_mutex_unlock(&dev->send_lock);
	if (ret == ASCEND_DRV_OK)
		return ACL_SUCCESS;
	return errno ? rt_errno_to_acl(-errno) : ACL_ERROR_RT_DRV_INTERNAL_ERROR;
}

aclError rt_submit(const struct rt_target *t, uint32_t type, uint64_t duration_ns,
		   uint64_t bytes, const char *name, uint32_t block_dim)
{
	struct npusim_sqe q;
	struct ascend_sqe_header *h = (struct ascend_sqe_header *)q.header;

	memset(&q, 0, sizeof(q));
	switch (type) {
	case NPUSIM_TASK_KERNEL:
		h->type_lock = ASCEND_SQE_TYPE_AIC;
		h->block_dim = block_dim > UINT16_MAX ? UINT16_MAX : (uint16_t)block_dim;
		q.duration_ns = duration_ns;
		if (name)
			strncpy(q.name, name, sizeof(q.name) - 1);
		break;
	case NPUSIM_TASK_MEMCPY:
		h->type_lock = ASCEND_SQE_TYPE_SDMA;
		q.bytes = bytes;
		break;
	default:
		h->type_lock = ASCEND_SQE_TYPE_EVENT_RECORD;
		h->flags = ASCEND_SQE_WR_CQE_BIT;
	}
	return send_sqe(t, &q);
}

/*
 * Whether this process's profiling is on: a dynamic-profiling window is
 * open (rtsimProfilingSwitch), or msprof launched it in app mode
 * (PROFILER_SAMPLECONFIG set: profiling for the whole run).  rt_lock.
 */
static int rt_profiling = -1;

static int profiling_on_locked(void)
{
	if (rt_profiling < 0) {
		const char *cfg = getenv("PROFILER_SAMPLECONFIG");

		rt_profiling = cfg && *cfg;
	}
	return rt_profiling;
}

/*
 * Send @dev the place-holder task CANN's runtime sends when the app's
 * profiling starts (@on) or stops, on its default stream; rt_lock held.
 */
static void send_profiling_switch(struct rt_device *dev, int on)
{
	struct rt_target t = {
		.fd = dev->fd, .device = dev->id, .stream = dev->default_stream, .dev = dev,
	};
	struct npusim_sqe q;
	aclError ret;

	memset(&q, 0, sizeof(q));
	q.header[0] = ASCEND_SQE_TYPE_PLACE_HOLDER;
	q.prof_op = on ? NPUSIM_SQE_PROF_ENABLE : NPUSIM_SQE_PROF_DISABLE;
	q.prof_pid = (uint32_t)getpid();
	ret = send_sqe(&t, &q);
	if (ret != ACL_SUCCESS)
		rt_log("device %d: profiling %s task refused (%d)", dev->id, on ? "enable" : "disable",
		       ret);
}

/* Profiling on or off on every open device; devices opened later follow. */
RTS_API void rtsimProfilingSwitch(int on)
{
	int i;

	pthread_rwlock_wrlock(&rt_lock);
	profiling_on_locked();
	rt_profiling = !!on;
	for (i = 0; i < RT_MAX_DEVICES; i++)
		if (rt_devices[i])
			send_profiling_switch(rt_devices[i], on);
	pthread_rwlock_unlock(&rt_lock);
}

/*
 * The largest task id of the driver behind @fd: 2^task_id_bits - 1 from
 * /sys/module/<its module>/parameters/task_id_bits (the SQE's 16-bit
 * field caps it), 65535 when unreadable.
 */
static uint32_t driver_task_id_max(int fd)
{
	char link[256], path[320];
	unsigned int bits = 16;
	const char *mod;
	struct stat st;
	ssize_t n;
	FILE *f;

	if (fstat(fd, &st) == 0) {
		snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device/driver/module",
			 major(st.st_rdev), minor(st.st_rdev));
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			mod = strrchr(link, '/');
			snprintf(path, sizeof(path), "/sys/module/%s/parameters/task_id_bits",
				 mod ? mod + 1 : link);
			f = fopen(path, "re");
			if (f) {
				if (fscanf(f, "%u", &bits) != 1 || bits < 1)
					bits = 16;
				fclose(f);
			}
		}
	}
	return bits >= 16 ? 65535 : (1u << bits) - 1;
}

aclError rt_sync_stream(int fd, uint32_t stream)
{
	__u32 id = stream;

	while (ioctl(fd, NPUSIM_IOC_STREAM_SYNC, &id) < 0) {
		/* A signal only interrupts the wait; the tasks still run. */
		if (errno == EINTR)
			continue;
		/* the driver's "no such stream" (destroyed meanwhile) is a bad
		 * stream handle, not a bad device as for an open */
		return errno == ENOENT ? ACL_ERROR_RT_PARAM_INVALID : rt_errno_to_acl(-errno);
	}
	return ACL_SUCCESS;
}

/* ACL code for a failed open of /dev/davinci<id>: no such id vs no driver. */
static aclError open_error(int err)
{
	if (err == -ENOENT || err == -ENXIO || err == -ENODEV)
		return access("/dev/davinci0", F_OK) == 0 ? ACL_ERROR_RT_INVALID_DEVICEID
							    : ACL_ERROR_RT_NO_DEVICE;
	return rt_errno_to_acl(err);
}

/* Open device @id with its default stream; rt_lock held for writing. */
static aclError device_open_locked(int32_t id, struct rt_device **out)
{
	struct npusim_stream_req sreq = { 0 };
	struct rt_device *dev;
	char path[32];
	aclError ret;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return ACL_ERROR_BAD_ALLOC;
	snprintf(path, sizeof(path), "/dev/davinci%d", id);
	dev->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		ret = open_error(-errno);
		goto out_free_dev;
	}
	if (ioctl(dev->fd, NPUSIM_IOC_STREAM_CREATE, &sreq) < 0) {
		ret = rt_errno_to_acl(-errno);
		goto out_close_fd;
	}
	dev->id = id;
	dev->default_stream = sreq.stream;
	dev->task_id_max = driver_task_id_max(dev->fd);
	pthread_mutex_init(&dev->send_lock, NULL);
	halsimSetDeviceFd((uint32_t)id, dev->fd);
	if (profiling_on_locked())
		send_profiling_switch(dev, 1);
	*out = dev;
	return ACL_SUCCESS;

out_close_fd:
	close(dev->fd);
out_free_dev:
	free(dev);
	return ret;
}

/*
 * Close @dev and free the handles that belonged to it; rt_lock held for
 * writing.  Closing the fd makes the driver destroy its streams and cancel
 * what is still queued.
 */
static void device_close_locked(struct rt_device *dev)
{
	while (dev->streams) {
		struct rt_stream *s = dev->streams;

		dev->streams = s->next;
		free(s);
	}
	handles_free_device_locked(&rt_events, dev->id);
	/* No send runs: they hold rt_lock's read side, this its write side. */
	halsimSetDeviceFd((uint32_t)dev->id, -1);
	pthread_mutex_destroy(&dev->send_lock);
	close(dev->fd);
	rt_devices[dev->id] = NULL;
	free(dev);
}

void rt_release_all_devices(void)
{
	int i;

	pthread_rwlock_wrlock(&rt_lock);
	for (i = 0; i < RT_MAX_DEVICES; i++)
		if (rt_devices[i])
			device_close_locked(rt_devices[i]);
	pthread_rwlock_unlock(&rt_lock);
}

RTS_API void rtsimReleaseAll(void)
{
	rt_release_all_devices();
}

RTS_API rtError_t rtSetDevice(int32_t deviceId)
{
	struct rt_device *dev;
	aclError ret = ACL_SUCCESS;

	if (deviceId < 0 || deviceId >= RT_MAX_DEVICES)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	pthread_rwlock_wrlock(&rt_lock);
	dev = rt_devices[deviceId];
	if (!dev) {
		ret = device_open_locked(deviceId, &dev);
		if (ret == ACL_SUCCESS) {
			rt_devices[deviceId] = dev;
			rt_log("device %d opened by pid %d", deviceId, (int)getpid());
		}
	}
	if (ret == ACL_SUCCESS) {
		dev->refs++;
		rt_cur_device = deviceId;
	}
	pthread_rwlock_unlock(&rt_lock);
	return ret;
}

RTS_API rtError_t rtDeviceReset(int32_t deviceId)
{
	struct rt_device *dev;

	if (deviceId < 0 || deviceId >= RT_MAX_DEVICES)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	pthread_rwlock_wrlock(&rt_lock);
	dev = rt_devices[deviceId];
	if (!dev) {
		pthread_rwlock_unlock(&rt_lock);
		return ACL_ERROR_RT_INVALID_DEVICEID;
	}
	if (--dev->refs == 0) {
		device_close_locked(dev);
		rt_log("device %d closed by pid %d", deviceId, (int)getpid());
	}
	pthread_rwlock_unlock(&rt_lock);
	if (rt_cur_device == deviceId)
		rt_cur_device = -1;
	return ACL_SUCCESS;
}

RTS_API rtError_t rtGetDevice(int32_t *devId)
{
	if (!devId)
		return ACL_ERROR_INVALID_PARAM;
	if (rt_cur_device < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	*devId = rt_cur_device;
	return RT_ERROR_NONE;
}
