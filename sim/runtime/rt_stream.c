// SPDX-License-Identifier: MIT
/*
 * Streams, events and synchronization of the simulated runtime
 * (libruntime.so).  A stream
 * is a driver stream of the device's fd; the NULL stream is the device's
 * default stream, created when the process opened the device.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <errno.h>

#include "rt_internal.h"

RTS_API rtError_t rtStreamCreate(rtStream_t *stream, int32_t priority)
{
	struct npusim_stream_req req = { 0 };
	struct rt_device *dev;
	struct rt_stream *s;
	aclError ret = ACL_SUCCESS;

	(void)priority; /* the simulated driver has one priority */
	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	s = calloc(1, sizeof(*s));
	if (!s)
		return ACL_ERROR_BAD_ALLOC;
	pthread_rwlock_wrlock(&rt_lock);
	dev = rt_current_locked();
	if (!dev) {
		ret = ACL_ERROR_RT_CONTEXT_NULL;
	} else if (ioctl(dev->fd, NPUSIM_IOC_STREAM_CREATE, &req) < 0) {
		ret = errno == ENOSPC ? ACL_ERROR_RT_NO_STREAM_RESOURCE
				      : rt_errno_to_acl(-errno);
	} else {
		s->id = req.stream;
		s->device = dev->id;
		s->next = dev->streams;
		dev->streams = s;
		*stream = s;
	}
	pthread_rwlock_unlock(&rt_lock);
	if (ret != ACL_SUCCESS)
		free(s);
	return ret;
}

/* Unlink @stream from whichever device holds it; rt_lock held for writing. */
static struct rt_stream *unlink_stream_locked(aclrtStream stream, struct rt_device **devp)
{
	int i;

	for (i = 0; i < RT_MAX_DEVICES; i++) {
		struct rt_device *dev = rt_devices[i];
		struct rt_stream **sp;

		if (!dev)
			continue;
		for (sp = &dev->streams; *sp; sp = &(*sp)->next) {
			if (*sp == stream) {
				struct rt_stream *s = *sp;

				*sp = s->next;
				*devp = dev;
				return s;
			}
		}
	}
	return NULL;
}

RTS_API rtError_t rtStreamDestroy(rtStream_t stream)
{
	struct rt_device *dev = NULL;
	struct rt_stream *s;
	__u32 id;

	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	pthread_rwlock_wrlock(&rt_lock);
	s = unlink_stream_locked(stream, &dev);
	if (s) {
		id = s->id;
		/* Nothing to report if the driver already dropped it. */
		(void)ioctl(dev->fd, NPUSIM_IOC_STREAM_DESTROY, &id);
	}
	pthread_rwlock_unlock(&rt_lock);
	if (!s)
		return ACL_ERROR_INVALID_PARAM;
	free(s);
	return ACL_SUCCESS;
}

RTS_API rtError_t rtStreamSynchronize(rtStream_t stream)
{
	struct rt_target t;
	aclError ret;

	ret = rt_resolve_stream_dup(stream, &t);
	if (ret != ACL_SUCCESS)
		return ret;
	ret = rt_sync_stream(t.fd, t.stream);
	close(t.fd);
	return ret;
}

/*
 * Snapshot the stream ids of the current device (default first) and a dup
 * of its fd, so the waits below hold no lock.  *@ids is malloc'ed.
 */
static aclError device_streams(int *fd, uint32_t **ids, unsigned int *n)
{
	struct rt_device *dev;
	struct rt_stream *s;
	aclError ret = ACL_SUCCESS;
	unsigned int cnt = 1;

	pthread_rwlock_rdlock(&rt_lock);
	dev = rt_current_locked();
	if (!dev) {
		ret = ACL_ERROR_RT_CONTEXT_NULL;
		goto out_unlock;
	}
	for (s = dev->streams; s; s = s->next)
		cnt++;
	*ids = malloc(cnt * sizeof(**ids));
	if (!*ids) {
		ret = ACL_ERROR_BAD_ALLOC;
		goto out_unlock;
	}
	*n = 0;
	(*ids)[(*n)++] = dev->default_stream;
	for (s = dev->streams; s; s = s->next)
		(*ids)[(*n)++] = s->id;
	*fd = fcntl(dev->fd, F_DUPFD_CLOEXEC, 0);
	if (*fd < 0) {
		free(*ids);
		ret = ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
out_unlock:
	pthread_rwlock_unlock(&rt_lock);
	return ret;
}

RTS_API rtError_t rtDeviceSynchronize(void)
{
	uint32_t *ids;
	unsigned int i, n;
	aclError ret, err;
	int fd;

	ret = device_streams(&fd, &ids, &n);
	if (ret != ACL_SUCCESS)
		return ret;
	for (i = 0; i < n; i++) {
		/* A stream destroyed meanwhile is idle by definition: skip it. */
		err = rt_sync_stream(fd, ids[i]);
		if (err != ACL_SUCCESS && err != ACL_ERROR_RT_PARAM_INVALID && ret == ACL_SUCCESS)
			ret = err;
	}
	close(fd);
	free(ids);
	return ret;
}

RTS_API rtError_t rtEventCreate(rtEvent_t *event)
{
	struct rt_event *e;
	aclError ret;

	if (!event)
		return ACL_ERROR_INVALID_PARAM;
	e = calloc(1, sizeof(*e));
	if (!e)
		return ACL_ERROR_BAD_ALLOC;
	ret = rt_handle_add(&rt_events, &e->h);
	if (ret != ACL_SUCCESS) {
		free(e);
		return ret;
	}
	*event = e;
	return ACL_SUCCESS;
}

RTS_API rtError_t rtEventDestroy(rtEvent_t event)
{
	struct rt_handle *h;

	if (!event)
		return ACL_ERROR_INVALID_PARAM;
	h = rt_handle_remove(&rt_events, event);
	if (!h)
		return ACL_ERROR_INVALID_PARAM;
	free(h);
	return ACL_SUCCESS;
}

RTS_API rtError_t rtEventRecord(rtEvent_t event, rtStream_t stream)
{
	struct rt_event *e;
	struct rt_target t;
	aclError ret;

	if (!event)
		return ACL_ERROR_INVALID_PARAM;
	pthread_rwlock_rdlock(&rt_lock);
	e = (struct rt_event *)rt_handle_find_locked(rt_events, event);
	ret = e ? rt_resolve_stream_locked(stream, &t) : ACL_ERROR_INVALID_PARAM;
	if (ret == ACL_SUCCESS && e->h.device != t.device)
		ret = ACL_ERROR_RT_STREAM_CONTEXT;
	if (ret == ACL_SUCCESS)
		ret = rt_submit(&t, NPUSIM_TASK_EVENT_RECORD, 0, 0, NULL, 0);
	if (ret == ACL_SUCCESS)
		__atomic_add_fetch(&e->records, 1, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&rt_lock);
	return ret;
}
