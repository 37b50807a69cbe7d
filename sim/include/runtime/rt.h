/* SPDX-License-Identifier: MIT */
/*
 * The simulated CANN runtime (libruntime.so): the layer libascendcl.so
 * calls for every device operation, as CANN's ACL library calls its
 * runtime.  Function names and parameter lists follow CANN's runtime C API
 * (runtime/rt.h and the headers it includes: dev.h, stream.h, event.h,
 * mem.h, kernel.h); only the subset the simulator implements is declared.
 * CANN's profiling records these functions at level 5000 ("Runtime") under
 * the names its runtime registers (rtKernelLaunch as "KernelLaunch", ...).
 *
 * Error codes: rtError_t 0 is success; failures are the ACL_ERROR_RT_*
 * codes of acl/acl_base.h (CANN's rt_error_codes.h, which ACL passes
 * through), and for a bad handle or argument the ACL code the ACL layer
 * returns for it (ACL_ERROR_INVALID_PARAM, ACL_ERROR_BAD_ALLOC), so the
 * ACL functions hand the runtime's code on unchanged.
 *
 * Rule of the library: a public rt function never calls another public rt
 * function (uprobes count every entry of one).
 */
#ifndef RUNTIME_RT_H
#define RUNTIME_RT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTS_API __attribute__((visibility("default")))

typedef int32_t rtError_t;
#define RT_ERROR_NONE 0

typedef void *rtStream_t;
typedef void *rtEvent_t;
typedef struct rtSmDesc rtSmDesc_t; /* unused by the simulator */

/* Copy directions: the values of aclrtMemcpyKind (CANN rtMemcpyKind_t). */
typedef enum rtMemcpyKind {
	RT_MEMCPY_HOST_TO_HOST = 0,
	RT_MEMCPY_HOST_TO_DEVICE,
	RT_MEMCPY_DEVICE_TO_HOST,
	RT_MEMCPY_DEVICE_TO_DEVICE,
	RT_MEMCPY_DEFAULT,
	RT_MEMCPY_HOST_TO_BUF_TO_DEVICE,
	RT_MEMCPY_INNER_DEVICE_TO_DEVICE,
	RT_MEMCPY_INTER_DEVICE_TO_DEVICE,
} rtMemcpyKind_t;

/* Memory types of rtMalloc (CANN's RT_MEMORY_* bits); the simulator takes any. */
typedef uint32_t rtMemType_t;
#define RT_MEMORY_DEFAULT 0x0U
#define RT_MEMORY_HBM 0x2U

/*
 * What rtKernelLaunch()'s stubFunc points to in the simulator: the kernel's
 * name (NUL-padded, first, so a uprobe can read it from the pointer) and
 * its run time.  CANN's stub is the address a kernel was registered under;
 * the simulator's ACL layer passes its own copy of the kernel.
 */
#define RT_KERNEL_NAME_LEN 32
struct rt_kernel_stub {
	char name[RT_KERNEL_NAME_LEN];
	uint64_t duration_ns;
};

/* Devices: open (reference counted) and close, current device, sync. */
RTS_API rtError_t rtSetDevice(int32_t devId);
RTS_API rtError_t rtDeviceReset(int32_t devId);
RTS_API rtError_t rtGetDevice(int32_t *devId);
RTS_API rtError_t rtDeviceSynchronize(void);

/* Streams of the current device; NULL is its default stream. */
RTS_API rtError_t rtStreamCreate(rtStream_t *stm, int32_t priority);
RTS_API rtError_t rtStreamDestroy(rtStream_t stm);
RTS_API rtError_t rtStreamSynchronize(rtStream_t stm);

/* Events: EVENT_RECORD tasks on a stream. */
RTS_API rtError_t rtEventCreate(rtEvent_t *evt);
RTS_API rtError_t rtEventDestroy(rtEvent_t evt);
RTS_API rtError_t rtEventRecord(rtEvent_t evt, rtStream_t stm);

/* Device memory and copies (each copy queues one MEMCPY task). */
RTS_API rtError_t rtMalloc(void **devPtr, uint64_t size, rtMemType_t type, uint16_t moduleId);
RTS_API rtError_t rtFree(void *devPtr);
RTS_API rtError_t rtMemcpy(void *dst, uint64_t destMax, const void *src, uint64_t cnt,
			   rtMemcpyKind_t kind);
RTS_API rtError_t rtMemcpyAsync(void *dst, uint64_t destMax, const void *src, uint64_t cnt,
				rtMemcpyKind_t kind, rtStream_t stm);

/* One kernel task on @stm; @stubFunc is a struct rt_kernel_stub. */
RTS_API rtError_t rtKernelLaunch(const void *stubFunc, uint32_t numBlocks, void *args,
				 uint32_t argsSize, rtSmDesc_t *smDesc, rtStream_t stm);

/*
 * Not CANN API, not recorded: the simulator's aclFinalize closes every
 * device the process still holds through this.
 */
RTS_API void rtsimReleaseAll(void);

/*
 * Not CANN API, not recorded: the simulator's dynamic-profiling server
 * tells the runtime a profiling window starts (1) or stops (0); the
 * runtime sends the profiling-enable (or -disable) place-holder task for
 * this process on every device it has open, and the enable on each device
 * it opens while the window is open, as CANN's runtime does.  (In app
 * mode, PROFILER_SAMPLECONFIG set, profiling is on from the start.)
 */
RTS_API void rtsimProfilingSwitch(int on);

#ifdef __cplusplus
}
#endif

#endif /* RUNTIME_RT_H */
