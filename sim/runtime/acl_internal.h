/* SPDX-License-Identifier: MIT */
/*
 * Private interfaces between the files of the simulated AscendCL
 * (libascendcl.so: acl_*.c, dynprof_server.c).  Nothing here is exported:
 * the library is built with -fvisibility=hidden and only
 * ACL_FUNC_VISIBILITY functions are public.
 *
 * The ACL layer checks its arguments, keeps what is its own (kernel
 * binaries, the op table, the dynamic-profiling server) and does every
 * device operation through the runtime's C API (<runtime/rt.h>,
 * libruntime.so), one runtime call per ACL call, as CANN's ACL does: so a
 * task's submission happens inside the runtime call, inside the ACL call.
 *
 * Rule of the library: a public ACL function never calls another public
 * ACL function (uprobes count every entry of one).
 */
#ifndef SIM_RUNTIME_ACL_INTERNAL_H
#define SIM_RUNTIME_ACL_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include <acl/acl.h>
#include <runtime/rt.h>

/** acl_devices_open() - devices set (aclrtSetDevice) and not yet reset. */
int acl_devices_open(void);

/** acl_devices_forget() - aclFinalize: no device is set any more. */
void acl_devices_forget(void);

/** acl_binaries_release() - aclFinalize: free every loaded kernel binary. */
void acl_binaries_release(void);

/**
 * acl_log() - one line to stderr, "[INFO] libascendcl: ...", only when
 * NPUSIM_VERBOSE=1.  (npuprof_msg() prints INFO to stdout, which belongs
 * to the application.)
 */
void acl_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * acl_warn() - one line to stderr, "[WARNING] libascendcl: ...", always:
 * the library's own printer (it does not link npuprof's messaging code).
 */
void acl_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * dynprof_server_start() - start the dynamic-profiling server thread if
 * PROFILING_MODE=dynamic.  Return: 0 (also when not requested) or -errno;
 * the caller warns and goes on without the server.
 */
int dynprof_server_start(void);

/** dynprof_server_stop() - stop the thread, unlink the socket; idempotent. */
void dynprof_server_stop(void);

#endif /* SIM_RUNTIME_ACL_INTERNAL_H */
