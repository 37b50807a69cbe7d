// SPDX-License-Identifier: MIT
/*
 * "Device" memory and copies of the simulated runtime (libruntime.so).  Device memory is
 * host memory, so a copy is a host memmove done at once; what makes it a
 * device event is the MEMCPY task of the same size queued on a stream,
 * which the driver runs for latency + bytes / bandwidth.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_internal.h"

#define ALLOC_BUCKETS 256
#define ALLOC_ALIGN 64

struct rt_alloc {
	struct rt_alloc *next;
	void *ptr;
	size_t size;
};

/* Every live rtMalloc pointer, so rtFree can reject foreign ones. */
static struct rt_alloc *alloc_table[ALLOC_BUCKETS];
static pthread_mutex_t alloc_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned int alloc_bucket(const void *p)
{
	return (unsigned int)(((uintptr_t)p / ALLOC_ALIGN) % ALLOC_BUCKETS);
}

RTS_API rtError_t rtMalloc(void **devPtr, uint64_t size, rtMemType_t type, uint16_t moduleId)
{
	struct rt_alloc *a;
	unsigned int b;
	int has_dev;

	(void)type, (void)moduleId; /* one kind of memory: host memory */
	if (!devPtr || !size)
		return ACL_ERROR_INVALID_PARAM;
	pthread_rwlock_rdlock(&rt_lock);
	has_dev = rt_current_locked() != NULL;
	pthread_rwlock_unlock(&rt_lock);
	if (!has_dev)
		return ACL_ERROR_RT_CONTEXT_NULL;
	a = malloc(sizeof(*a));
	if (!a)
		return ACL_ERROR_BAD_ALLOC;
	a->size = size;
	if (posix_memalign(&a->ptr, ALLOC_ALIGN, size)) {
		free(a);
		return ACL_ERROR_BAD_ALLOC;
	}
	b = alloc_bucket(a->ptr);
	pthread_mutex_lock(&alloc_lock);
	a->next = alloc_table[b];
	alloc_table[b] = a;
	pthread_mutex_unlock(&alloc_lock);
	*devPtr = a->ptr;
	return ACL_SUCCESS;
}

RTS_API rtError_t rtFree(void *devPtr)
{
	struct rt_alloc **ap, *a = NULL;

	if (!devPtr)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&alloc_lock);
	for (ap = &alloc_table[alloc_bucket(devPtr)]; *ap; ap = &(*ap)->next) {
		if ((*ap)->ptr == devPtr) {
			a = *ap;
			*ap = a->next;
			break;
		}
	}
	pthread_mutex_unlock(&alloc_lock);
	if (!a)
		return ACL_ERROR_INVALID_PARAM;
	free(a->ptr);
	free(a);
	return ACL_SUCCESS;
}

static aclError check_copy(void *dst, uint64_t destMax, const void *src, uint64_t count,
			   rtMemcpyKind_t kind)
{
	if (!dst || !src || count > destMax)
		return ACL_ERROR_INVALID_PARAM;
	if ((unsigned int)kind > RT_MEMCPY_INTER_DEVICE_TO_DEVICE)
		return ACL_ERROR_INVALID_PARAM;
	return ACL_SUCCESS;
}

RTS_API rtError_t rtMemcpy(void *dst, uint64_t destMax, const void *src, uint64_t count,
			   rtMemcpyKind_t kind)
{
	struct rt_target t;
	aclError ret;

	ret = check_copy(dst, destMax, src, count, kind);
	if (ret != ACL_SUCCESS)
		return ret;
	/*
	 * A synchronous copy goes through the default stream, then waits on a
	 * dup of the fd (see rt_resolve_stream_dup()), without the lock.
	 */
	pthread_rwlock_rdlock(&rt_lock);
	ret = rt_resolve_stream_locked(NULL, &t);
	if (ret == ACL_SUCCESS) {
		memmove(dst, src, count);
		ret = rt_submit(&t, NPUSIM_TASK_MEMCPY, 0, count, NULL, 0);
	}
	if (ret == ACL_SUCCESS) {
		t.fd = fcntl(t.fd, F_DUPFD_CLOEXEC, 0);
		if (t.fd < 0)
			ret = ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
	pthread_rwlock_unlock(&rt_lock);
	if (ret != ACL_SUCCESS)
		return ret;
	ret = rt_sync_stream(t.fd, t.stream);
	close(t.fd);
	return ret;
}

RTS_API rtError_t rtMemcpyAsync(void *dst, uint64_t destMax, const void *src, uint64_t count,
				rtMemcpyKind_t kind, rtStream_t stream)
{
	struct rt_target t;
	aclError ret;

	ret = check_copy(dst, destMax, src, count, kind);
	if (ret != ACL_SUCCESS)
		return ret;
	pthread_rwlock_rdlock(&rt_lock);
	ret = rt_resolve_stream_locked(stream, &t);
	if (ret == ACL_SUCCESS) {
		memmove(dst, src, count);
		ret = rt_submit(&t, NPUSIM_TASK_MEMCPY, 0, count, NULL, 0);
	}
	pthread_rwlock_unlock(&rt_lock);
	return ret;
}
