/* SPDX-License-Identifier: MIT */
/*
 * Runtime API of the simulated AscendCL: devices, streams, events, memory,
 * copies and kernel launch, with CANN's acl/acl_rt.h names and signatures.
 *
 * Simulation: device memory is host memory; every copy is done on the host
 * at once and a MEMCPY task of the same size is queued on the simulated
 * driver (/dev/davinci<N>, npusim.ko) so the device timeline shows it.
 * Kernels are queued as KERNEL tasks that "run" for the duration their
 * kernel binary gives (see aclrtBinaryLoadFromFile()).
 *
 * The current device is per thread, as in ACL: aclrtSetDevice() makes it
 * current for the calling thread; APIs that need a device return
 * ACL_ERROR_RT_CONTEXT_NULL on a thread that has none.  All functions are
 * thread-safe.
 */
#ifndef ACL_ACL_RT_H
#define ACL_ACL_RT_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtFuncHandle;
typedef void *aclrtBinHandle;

/* Direction of a copy (CANN values). */
typedef enum aclrtMemcpyKind {
	ACL_MEMCPY_HOST_TO_HOST = 0,
	ACL_MEMCPY_HOST_TO_DEVICE,
	ACL_MEMCPY_DEVICE_TO_HOST,
	ACL_MEMCPY_DEVICE_TO_DEVICE,
	ACL_MEMCPY_DEFAULT,
	ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
	ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
	ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,
} aclrtMemcpyKind;

/* Page policy of aclrtMalloc() (CANN values; the simulator ignores it). */
typedef enum aclrtMemMallocPolicy {
	ACL_MEM_MALLOC_HUGE_FIRST = 0,
	ACL_MEM_MALLOC_HUGE_ONLY,
	ACL_MEM_MALLOC_NORMAL_ONLY,
	ACL_MEM_MALLOC_HUGE_FIRST_P2P,
	ACL_MEM_MALLOC_HUGE_ONLY_P2P,
	ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
} aclrtMemMallocPolicy;

/* Load options of aclrtBinaryLoadFromFile() (accepted and ignored). */
typedef enum aclrtBinaryLoadOptionType {
	ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
	ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
	uint32_t isLazyLoad;
	uint32_t magic;
} aclrtBinaryLoadOptionValue;

typedef struct aclrtBinaryLoadOption {
	aclrtBinaryLoadOptionType type;
	aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
	aclrtBinaryLoadOption *options;
	size_t numOpt;
} aclrtBinaryLoadOptions;

/**
 * aclrtSetDevice() - open device @deviceId for the process (reference
 * counted) and make it the calling thread's current device
 * Return: ACL_SUCCESS; ACL_ERROR_RT_INVALID_DEVICEID for a negative id or
 * one without /dev/davinci<id>; ACL_ERROR_RT_NO_DEVICE when no simulated
 * device exists at all (npusim.ko not loaded); ACL_ERROR_RT_NO_PERMISSION.
 */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);

/**
 * aclrtResetDevice() - drop one reference taken by aclrtSetDevice(); the
 * last one closes the device, which cancels its pending tasks and destroys
 * its streams.  Clears the caller's current device if it was @deviceId.
 * Return: ACL_SUCCESS; ACL_ERROR_RT_INVALID_DEVICEID when the process has
 * not set @deviceId.
 */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);

/**
 * aclrtCreateStream() - create a stream on the current device
 * Return: ACL_SUCCESS with *@stream set; ACL_ERROR_INVALID_PARAM for NULL;
 * ACL_ERROR_RT_CONTEXT_NULL without a current device;
 * ACL_ERROR_RT_NO_STREAM_RESOURCE when the driver has no stream left.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);

/**
 * aclrtDestroyStream() - destroy @stream; tasks still queued are cancelled
 * (synchronize first to let them finish).
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or an unknown
 * stream.
 */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);

/**
 * aclrtSynchronizeStream() - block until every task queued on @stream (NULL:
 * the default stream) has ended
 * Return: ACL_SUCCESS; ACL_ERROR_RT_CONTEXT_NULL; ACL_ERROR_INVALID_PARAM
 * for an unknown stream; ACL_ERROR_RT_STREAM_CONTEXT when @stream belongs to
 * another device than the current one.
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/**
 * aclrtSynchronizeDevice() - block until every stream of this process on
 * the current device (the default stream included) is idle
 * Return: ACL_SUCCESS; ACL_ERROR_RT_CONTEXT_NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);

/**
 * aclrtCreateEvent() - create an event on the current device
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM; ACL_ERROR_RT_CONTEXT_NULL;
 * ACL_ERROR_BAD_ALLOC.
 */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);

/** aclrtDestroyEvent() - Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);

/**
 * aclrtRecordEvent() - queue an EVENT_RECORD task for @event on @stream
 * (NULL: the default stream)
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for an unknown event or
 * stream; ACL_ERROR_RT_CONTEXT_NULL; ACL_ERROR_RT_STREAM_CONTEXT.
 */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);

/**
 * aclrtMalloc() - allocate @size bytes of "device" memory (host memory in
 * the simulator, 64-byte aligned) on the current device
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL, size 0 or an
 * unknown @policy; ACL_ERROR_RT_CONTEXT_NULL; ACL_ERROR_BAD_ALLOC.
 */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/**
 * aclrtFree() - free memory from aclrtMalloc()
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL or a pointer
 * aclrtMalloc() did not return.
 */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);

/**
 * aclrtMemcpy() - copy @count bytes and wait: the copy is queued as one
 * MEMCPY task on the current device's default stream, which is then
 * synchronized
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for NULL pointers, @count
 * greater than @destMax or an unknown @kind; ACL_ERROR_RT_CONTEXT_NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
					 aclrtMemcpyKind kind);

/**
 * aclrtMemcpyAsync() - copy @count bytes as one MEMCPY task on @stream
 * (NULL: the default stream); returns once the task is queued
 * Return: as aclrtMemcpy(), plus ACL_ERROR_RT_STREAM_CONTEXT.
 */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src,
					      size_t count, aclrtMemcpyKind kind,
					      aclrtStream stream);

/**
 * aclrtBinaryLoadFromFile() - load a simulator "kernel binary" onto the
 * current device
 *
 * The file is text, one kernel per line: `<kernel_name> <duration_us>`,
 * separated by blanks; the name is 1..31 characters without blanks, the
 * duration a whole number of microseconds from 1 to 60000000.  Empty lines
 * and lines whose first non-blank character is '#' are ignored.  A name may
 * appear once.  At least one kernel is required.
 *
 * @options may be NULL; its contents are accepted and ignored.
 * Return: ACL_SUCCESS with *@binHandle set (free with aclrtBinaryUnLoad());
 * ACL_ERROR_INVALID_PARAM for NULL @binPath/@binHandle;
 * ACL_ERROR_RT_CONTEXT_NULL; ACL_ERROR_INVALID_FILE when the file cannot be
 * read; ACL_ERROR_PARSE_FILE for a malformed line, a duplicate name or no
 * kernel; ACL_ERROR_BAD_ALLOC.
 */
ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath,
						     aclrtBinaryLoadOptions *options,
						     aclrtBinHandle *binHandle);

/**
 * aclrtBinaryUnLoad() - free a loaded binary; its function handles become
 * invalid
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for an unknown handle.
 */
ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

/**
 * aclrtBinaryGetFunction() - look up kernel @kernelName in @binHandle
 * Return: ACL_SUCCESS with *@funcHandle set (valid until the binary is
 * unloaded); ACL_ERROR_INVALID_PARAM for NULL arguments or an unknown
 * binary; ACL_ERROR_KERNEL_NOT_FOUND when the binary has no such kernel.
 */
ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle,
						    const char *kernelName,
						    aclrtFuncHandle *funcHandle);

/**
 * aclrtLaunchKernel() - queue one KERNEL task of @funcHandle on @stream
 * (NULL: the default stream); it runs for the kernel's duration
 * @numBlocks:  1 or more (recorded by nothing; checked for honesty)
 * @argsData:   kernel arguments, may be NULL only with @argsSize 0
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for an unknown function,
 * stream, 0 blocks or NULL args with a size; ACL_ERROR_RT_CONTEXT_NULL;
 * ACL_ERROR_RT_STREAM_CONTEXT.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks,
					       const void *argsData, size_t argsSize,
					       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_H */
