/* SPDX-License-Identifier: MIT */
/*
 * Entry header of the simulated AscendCL (CANN acl/acl.h): process-wide
 * initialisation plus the base, runtime and single-op APIs.
 */
#ifndef ACL_ACL_H
#define ACL_ACL_H

#include "acl_base.h"
#include "acl_rt.h"
#include "acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * aclInit() - initialise AscendCL for the process
 * @configPath: NULL or "" for none, else a JSON file (checked for syntax,
 *   its contents otherwise ignored)
 *
 * With environment PROFILING_MODE=dynamic this also starts the dynamic
 * profiling server (a Unix socket in $HOME that msprof --dynamic=on
 * connects to), as CANN does.
 * Return: ACL_SUCCESS; ACL_ERROR_REPEAT_INITIALIZE when already
 * initialised; ACL_ERROR_INVALID_FILE when @configPath cannot be read;
 * ACL_ERROR_PARSE_FILE when it is not JSON.
 */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);

/**
 * aclFinalize() - release every device the process still holds, stop the
 * dynamic profiling server and remove its socket file.  aclInit() may be
 * called again afterwards.
 * Return: ACL_SUCCESS; ACL_ERROR_REPEAT_FINALIZE when not initialised.
 */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_H */
