/* SPDX-License-Identifier: MIT */
/*
 * Single-operator execution of the simulated AscendCL (CANN acl/acl_op.h).
 *
 * aclopExecuteV2() queues one KERNEL task named by the op type on the
 * stream.  Its run time comes from the simulator's built-in op table
 * (microseconds, independent of tensor shapes):
 *
 *   Add 300, Sub 300, Mul 300, RealDiv 300, Relu 200, Gelu 400, Cast 100,
 *   Transpose 250, ReduceSum 350, ReduceMean 350, Softmax 700,
 *   SoftmaxV2 700, LayerNorm 500, MatMul 2000, MatMulV2 2000,
 *   BatchMatMul 2500, Conv2D 3000
 *
 * An op type outside the table returns ACL_ERROR_OP_NOT_FOUND.
 */
#ifndef ACL_ACL_OP_H
#define ACL_ACL_OP_H

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopAttr aclopAttr;

/**
 * aclopExecuteV2() - run op @opType asynchronously on @stream (NULL: the
 * default stream of the current device)
 * @numInputs/@numOutputs: 0 or more; when > 0 the matching desc and buffer
 *   arrays must be non-NULL with non-NULL entries
 * @attr: may be NULL
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM for a NULL @opType, negative
 * counts or missing arrays; ACL_ERROR_OP_NOT_FOUND for an op type outside
 * the table; ACL_ERROR_RT_CONTEXT_NULL; ACL_ERROR_RT_STREAM_CONTEXT.
 */
ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs,
					    aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
					    int numOutputs, aclTensorDesc *outputDesc[],
					    aclDataBuffer *outputs[], aclopAttr *attr,
					    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_OP_H */
