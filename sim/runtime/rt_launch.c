// SPDX-License-Identifier: MIT
/*
 * Kernel launch of the simulated runtime (libruntime.so): one kernel task
 * on a stream, named and timed by the stub the caller passes (struct
 * rt_kernel_stub, <runtime/rt.h>).  Which kernels exist is the ACL
 * layer's business (its kernel binaries and op table, acl_kernel.c).
 */
#include <string.h>

#include "rt_internal.h"

/* Longest kernel the simulated driver runs: 60 s. */
#define RT_KERNEL_MAX_NS 60000000000ULL

RTS_API rtError_t rtKernelLaunch(const void *stubFunc, uint32_t numBlocks, void *args,
				 uint32_t argsSize, rtSmDesc_t *smDesc, rtStream_t stm)
{
	const struct rt_kernel_stub *k = stubFunc;
	struct rt_target t;
	aclError ret;

	(void)smDesc;
	if (!k || numBlocks == 0 || (!args && argsSize))
		return ACL_ERROR_INVALID_PARAM;
	if (!k->duration_ns || k->duration_ns > RT_KERNEL_MAX_NS ||
	    !memchr(k->name, '\0', sizeof(k->name)))
		return ACL_ERROR_INVALID_PARAM;
	pthread_rwlock_rdlock(&rt_lock);
	ret = rt_resolve_stream_locked(stm, &t);
	if (ret == ACL_SUCCESS)
		ret = rt_submit(&t, NPUSIM_TASK_KERNEL, k->duration_ns, 0, k->name, numBlocks);
	pthread_rwlock_unlock(&rt_lock);
	return ret;
}
