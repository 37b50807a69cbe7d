// SPDX-License-Identifier: MIT
/*
 * Devices of the simulated runtime (libruntime.so): opening /dev/davinci<N>
 * (once per process, reference counted by rtSetDevice/rtDeviceReset), the
 * per-thread current device, and the two driver calls every task path
 * shares (submit, stream synchronize).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

aclError rt_submit(const struct rt_target *t, uint32_t type, uint64_t duration_ns,
		   uint64_t bytes, const char *name)
{
	struct npusim_task_req req;

	memset(&req, 0, sizeof(req));
	req.stream = t->stream;
	req.type = type;
	req.duration_ns = duration_ns;
	req.bytes = bytes;
	if (name)
		strncpy(req.name, name, sizeof(req.name) - 1);
	if (ioctl(t->fd, NPUSIM_IOC_SUBMIT, &req) < 0)
		return rt_errno_to_acl(-errno);
	return ACL_SUCCESS;
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
