// SPDX-License-Identifier: MIT
/*
 * Data buffers and tensor descriptors of the simulated AscendCL: plain
 * host-side wrappers that aclopExecuteV2 accepts (their contents do not
 * change the simulated run time).
 */
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"

#define TENSOR_MAX_DIMS 64

struct aclDataBuffer {
	void *data;
	size_t size;
};

struct aclTensorDesc {
	aclDataType type;
	aclFormat format;
	int num_dims;
	int64_t dims[];
};

ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)
{
	aclDataBuffer *b;

	if (!data && size)
		return NULL;
	b = malloc(sizeof(*b));
	if (!b)
		return NULL;
	b->data = data;
	b->size = size;
	return b;
}

ACL_FUNC_VISIBILITY aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)
{
	if (!dataBuffer)
		return ACL_ERROR_INVALID_PARAM;
	free((void *)dataBuffer);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)
{
	return dataBuffer ? dataBuffer->data : NULL;
}

ACL_FUNC_VISIBILITY size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)
{
	return dataBuffer ? dataBuffer->size : 0;
}

ACL_FUNC_VISIBILITY aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims,
						       const int64_t *dims, aclFormat format)
{
	aclTensorDesc *d;

	if (numDims < 0 || numDims > TENSOR_MAX_DIMS || (numDims && !dims))
		return NULL;
	d = malloc(sizeof(*d) + (size_t)numDims * sizeof(*dims));
	if (!d)
		return NULL;
	d->type = dataType;
	d->format = format;
	d->num_dims = numDims;
	if (numDims)
		memcpy(d->dims, dims, (size_t)numDims * sizeof(*dims));
	return d;
}

ACL_FUNC_VISIBILITY void aclDestroyTensorDesc(const aclTensorDesc *desc)
{
	free((void *)desc);
}
