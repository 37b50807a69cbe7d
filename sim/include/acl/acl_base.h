/* SPDX-License-Identifier: MIT */
/*
 * Base types and error codes of the simulated AscendCL (libascendcl.so).
 * Names, types and error values follow CANN's public acl/acl_base.h and
 * runtime/rt_error_codes.h so an application written against CANN builds
 * unchanged; only the subset the simulator implements is declared.
 */
#ifndef ACL_ACL_BASE_H
#define ACL_ACL_BASE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))

/* Every ACL function returns one of the codes below; 0 is success. */
typedef int aclError;

/* Opaque handles.  A NULL aclrtStream means the device's default stream. */
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclTensorDesc aclTensorDesc;

/* Element types and layouts (CANN values) for aclCreateTensorDesc(). */
typedef enum {
	ACL_DT_UNDEFINED = -1,
	ACL_FLOAT = 0,
	ACL_FLOAT16 = 1,
	ACL_INT8 = 2,
	ACL_INT32 = 3,
	ACL_UINT8 = 4,
	ACL_INT16 = 6,
	ACL_UINT16 = 7,
	ACL_UINT32 = 8,
	ACL_INT64 = 9,
	ACL_UINT64 = 10,
	ACL_DOUBLE = 11,
	ACL_BOOL = 12,
} aclDataType;

typedef enum {
	ACL_FORMAT_UNDEFINED = -1,
	ACL_FORMAT_NCHW = 0,
	ACL_FORMAT_NHWC = 1,
	ACL_FORMAT_ND = 2,
	ACL_FORMAT_NC1HWC0 = 3,
	ACL_FORMAT_FRACTAL_Z = 4,
} aclFormat;

/* Success. */
#define ACL_SUCCESS 0

/* Caller errors (1000xx). */
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_INVALID_FILE 100003
#define ACL_ERROR_WRITE_FILE 100004
#define ACL_ERROR_INVALID_FILE_SIZE 100005
#define ACL_ERROR_PARSE_FILE 100006
#define ACL_ERROR_OP_NOT_FOUND 100024
#define ACL_ERROR_KERNEL_NOT_FOUND 100029
#define ACL_ERROR_REPEAT_FINALIZE 100037

/* Resource errors (2000xx). */
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_API_NOT_SUPPORT 200001
#define ACL_ERROR_INVALID_DEVICE 200002
#define ACL_ERROR_INVALID_RESOURCE_HANDLE 200005
#define ACL_ERROR_FEATURE_UNSUPPORTED 200006

/* Internal errors (5000xx). */
#define ACL_ERROR_INTERNAL_ERROR 500000
#define ACL_ERROR_FAILURE 500001
#define ACL_ERROR_RT_FAILURE 500003
#define ACL_ERROR_DRV_FAILURE 500004
#define ACL_ERROR_PROFILING_FAILURE 500005

/* Runtime (rt_error_codes.h) codes the runtime APIs pass through. */
#define ACL_ERROR_RT_PARAM_INVALID 107000
#define ACL_ERROR_RT_INVALID_DEVICEID 107001
#define ACL_ERROR_RT_CONTEXT_NULL 107002
#define ACL_ERROR_RT_STREAM_CONTEXT 107003
#define ACL_ERROR_RT_FILE_OPEN 107009
#define ACL_ERROR_RT_INVALID_HANDLE 107017
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000
#define ACL_ERROR_RT_MEMORY_ALLOCATION 207001
#define ACL_ERROR_RT_NO_DEVICE 207004
#define ACL_ERROR_RT_NO_PERMISSION 207006
#define ACL_ERROR_RT_NO_STREAM_RESOURCE 207008
#define ACL_ERROR_RT_INTERNAL_ERROR 507000
#define ACL_ERROR_RT_STREAM_TASK_FULL 507002
#define ACL_ERROR_RT_KERNEL_LOOKUP 507027
#define ACL_ERROR_RT_DRV_INTERNAL_ERROR 507899

/**
 * aclCreateDataBuffer() - wrap @size bytes at @data (not copied, not owned)
 * Return: a new buffer to free with aclDestroyDataBuffer(), or NULL when
 * out of memory.  @data may be NULL only with @size 0.
 */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);

/** aclDestroyDataBuffer() - free the wrapper (not the data). */
ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);

/** aclGetDataBufferAddr() - the wrapped address, NULL for a NULL buffer. */
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);

/** aclGetDataBufferSizeV2() - the wrapped size in bytes, 0 for NULL. */
ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer);

/**
 * aclCreateTensorDesc() - describe a tensor of @numDims dimensions @dims
 * Return: a new descriptor to free with aclDestroyTensorDesc(), or NULL on
 * bad input (@numDims < 0 or > 64, @dims NULL with @numDims > 0) or when out
 * of memory.
 */
ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims,
						       const int64_t *dims, aclFormat format);

/** aclDestroyTensorDesc() - free a descriptor; NULL is a no-op. */
ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_BASE_H */
