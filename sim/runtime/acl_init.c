// SPDX-License-Identifier: MIT
/*
 * Process-wide initialisation of the simulated AscendCL: aclInit checks
 * the optional JSON config and, as CANN's profiling init does, starts the
 * dynamic-profiling server when PROFILING_MODE=dynamic; aclFinalize
 * releases every device (through the runtime), every kernel binary, and
 * stops the server.
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_internal.h"
#include "sim_log.h"

static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;

void acl_log(const char *fmt, ...)
{
	va_list ap;

	if (!sim_verbose())
		return;
	va_start(ap, fmt);
	sim_vlog("[INFO] ", "libascendcl", fmt, ap);
	va_end(ap);
}

void acl_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sim_vlog("[WARNING] ", "libascendcl", fmt, ap);
	va_end(ap);
}
static int initialized;

/* ACL_SUCCESS when @path is NULL, empty, or a readable JSON file. */
static aclError check_config(const char *path)
{
	json_error_t jerr;
	json_t *root;

	if (!path || !*path)
		return ACL_SUCCESS;
	if (access(path, R_OK) != 0)
		return ACL_ERROR_INVALID_FILE;
	root = json_load_file(path, 0, &jerr);
	if (!root)
		return ACL_ERROR_PARSE_FILE;
	json_decref(root);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath)
{
	aclError ret;
	int err;

	pthread_mutex_lock(&init_lock);
	if (initialized) {
		ret = ACL_ERROR_REPEAT_INITIALIZE;
		goto out_unlock;
	}
	ret = check_config(configPath);
	if (ret != ACL_SUCCESS)
		goto out_unlock;
	err = dynprof_server_start();
	/* As in CANN, the application runs on without the server. */
	if (err)
		acl_warn("dynamic profiling server not started: %s; msprof --dynamic=on cannot attach to pid %d",
			strerror(-err), (int)getpid());
	initialized = 1;
out_unlock:
	pthread_mutex_unlock(&init_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclFinalize(void)
{
	pthread_mutex_lock(&init_lock);
	if (!initialized) {
		pthread_mutex_unlock(&init_lock);
		return ACL_ERROR_REPEAT_FINALIZE;
	}
	dynprof_server_stop();
	rtsimReleaseAll();
	acl_devices_forget();
	acl_binaries_release();
	initialized = 0;
	pthread_mutex_unlock(&init_lock);
	return ACL_SUCCESS;
}
