// SPDX-License-Identifier: MIT
/*
 * The device, stream, event and memory functions of the simulated
 * AscendCL: each checks what ACL checks and calls the one runtime
 * function that does the work (<runtime/rt.h>), passing its code on.  The
 * devices set and not yet reset are counted here too: the dynamic-
 * profiling server answers NOT_SET_DEVICE without one.
 */
#include <string.h>

#include "acl_internal.h"

#define ACL_MAX_DEVICES 64

/* aclrtSetDevice calls not yet reset, per device id. */
static unsigned int acl_dev_refs[ACL_MAX_DEVICES];
static pthread_mutex_t acl_dev_lock = PTHREAD_MUTEX_INITIALIZER;

int acl_devices_open(void)
{
	int i, n = 0;

	pthread_mutex_lock(&acl_dev_lock);
	for (i = 0; i < ACL_MAX_DEVICES; i++)
		n += acl_dev_refs[i] != 0;
	pthread_mutex_unlock(&acl_dev_lock);
	return n;
}

void acl_devices_forget(void)
{
	pthread_mutex_lock(&acl_dev_lock);
	memset(acl_dev_refs, 0, sizeof(acl_dev_refs));
	pthread_mutex_unlock(&acl_dev_lock);
}

/* Count a set (+1) or reset (-1) of device @id that succeeded. */
static void dev_count(int32_t id, int delta)
{
	if (id < 0 || id >= ACL_MAX_DEVICES)
		return;
	pthread_mutex_lock(&acl_dev_lock);
	if (delta > 0)
		acl_dev_refs[id]++;
	else if (acl_dev_refs[id])
		acl_dev_refs[id]--;
	pthread_mutex_unlock(&acl_dev_lock);
}

ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId)
{
	aclError ret = rtSetDevice(deviceId);

	if (ret == ACL_SUCCESS)
		dev_count(deviceId, 1);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId)
{
	aclError ret = rtDeviceReset(deviceId);

	if (ret == ACL_SUCCESS)
		dev_count(deviceId, -1);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void)
{
	return rtDeviceSynchronize();
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream)
{
	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	return rtStreamCreate(stream, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream)
{
	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	return rtStreamDestroy(stream);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream)
{
	return rtStreamSynchronize(stream);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event)
{
	if (!event)
		return ACL_ERROR_INVALID_PARAM;
	return rtEventCreate(event);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
	if (!event)
		return ACL_ERROR_INVALID_PARAM;
	return rtEventDestroy(event);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	if (!event)
		return ACL_ERROR_INVALID_PARAM;
	return rtEventRecord(event, stream);
}

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)
{
	if (!devPtr || !size || (unsigned int)policy > ACL_MEM_MALLOC_NORMAL_ONLY_P2P)
		return ACL_ERROR_INVALID_PARAM;
	return rtMalloc(devPtr, size, RT_MEMORY_HBM, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr)
{
	if (!devPtr)
		return ACL_ERROR_INVALID_PARAM;
	return rtFree(devPtr);
}

/*
 * The copies: the runtime checks the pointers, sizes and kind (the same
 * ACL_ERROR_INVALID_PARAM an ACL check would give; the kinds have the same
 * values), so a bad copy reaches it, as in CANN.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
					 aclrtMemcpyKind kind)
{
	return rtMemcpy(dst, destMax, src, count, (rtMemcpyKind_t)kind);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src,
					      size_t count, aclrtMemcpyKind kind,
					      aclrtStream stream)
{
	return rtMemcpyAsync(dst, destMax, src, count, (rtMemcpyKind_t)kind, stream);
}
