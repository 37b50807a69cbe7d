/* SPDX-License-Identifier: MIT */
/*
 * Which stage of setting up or running a capture failed, as a value.
 *
 * The library returns a negative errno from every function that can fail;
 * an errno alone does not say what to do about it (-ENOENT is "npuprof.ko
 * is not loaded" when opening /dev/npuprof, "no libascendcl.so mapped" when
 * attaching to a process).  The session (npuprof/session.h) and the
 * runtime-API capture (npuprof/acl_trace.h) therefore also keep a struct
 * npuprof_error for their last failure: the stage, the errno and the object
 * it concerns.  A tool words its messages from those fields, once, and never
 * from message text.
 */
#ifndef NPUPROF_ERROR_H
#define NPUPROF_ERROR_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

/**
 * enum npuprof_stage - where a capture failed
 * @NPUPROF_STAGE_NONE:     no failure (or one before any stage, e.g. no memory)
 * @NPUPROF_STAGE_SESSION:  the request does not fit the session's state
 *                          (a window runs, the pid is in already, full)
 * @NPUPROF_STAGE_MODULE:   npuprof.ko: opening its device node, a session in
 *                          it, selecting a process in it, enabling it
 * @NPUPROF_STAGE_DEVICE:   the NPU driver or its devices (driver backends)
 * @NPUPROF_STAGE_BPF_LOAD: loading the BPF programs and creating their rings
 * @NPUPROF_STAGE_PROCESS:  the target process: gone, or not readable
 * @NPUPROF_STAGE_LIBRARY:  finding and opening the libascendcl.so (or, for
 *                          the runtime layer, libruntime.so: @object names
 *                          it) the process maps: -ENOENT when it maps none
 *                          ("library not mapped"), -ESTALE when the mapped
 *                          file cannot be reached any more
 * @NPUPROF_STAGE_SYMBOLS:  resolving the ACL functions in that file's ELF
 *                          symbols: a function every runtime has is missing
 *                          (@functions names them), or no symbol table
 * @NPUPROF_STAGE_ATTACH:   the kernel refused a uprobe or tracepoint (or the
 *                          BPF process filter refused the pid)
 * @NPUPROF_STAGE_CAPTURE:  enabling, disabling or draining a running capture
 * @NPUPROF_STAGE_OUTPUT:   --output, a PROF_XXX directory or one of its files
 *
 * The values are stable: tests compare them.
 */
enum npuprof_stage {
	NPUPROF_STAGE_NONE = 0,
	NPUPROF_STAGE_SESSION = 1,
	NPUPROF_STAGE_MODULE = 2,
	NPUPROF_STAGE_DEVICE = 3,
	NPUPROF_STAGE_BPF_LOAD = 4,
	NPUPROF_STAGE_PROCESS = 5,
	NPUPROF_STAGE_LIBRARY = 6,
	NPUPROF_STAGE_SYMBOLS = 7,
	NPUPROF_STAGE_ATTACH = 8,
	NPUPROF_STAGE_CAPTURE = 9,
	NPUPROF_STAGE_OUTPUT = 10,
};

/* Room for the names of the ACL functions one library lacks. */
#define NPUPROF_ERROR_FUNCS_MAX 512

/**
 * struct npuprof_error - one failure, as values
 * @stage:     enum npuprof_stage
 * @err:       negative errno; 0 with NPUPROF_STAGE_NONE
 * @pid:       the process concerned, 0 when none
 * @object:    what failed, for a person: a path (/dev/npuprof, the
 *             library file, a PROF_XXX directory) or an action ("starting
 *             the drain"); "" when there is nothing to add
 * @functions: NPUPROF_STAGE_SYMBOLS: the missing functions, separated by
 *             one space; "" otherwise
 */
struct npuprof_error {
	enum npuprof_stage stage;
	int err;
	pid_t pid;
	char object[PATH_MAX];
	char functions[NPUPROF_ERROR_FUNCS_MAX];
};

/**
 * npuprof_error_set() - fill @e: @stage, @err (negative errno), @pid and
 * @object (NULL for ""); @functions is emptied.
 */
void npuprof_error_set(struct npuprof_error *e, enum npuprof_stage stage, int err, pid_t pid,
		       const char *object);

/** npuprof_error_clear() - @e says "no failure". */
void npuprof_error_clear(struct npuprof_error *e);

/**
 * npuprof_stage_name() - a stage as a lower-case word ("module",
 * "symbols"), for logs and tests; "unknown" for a value not in the enum.
 */
const char *npuprof_stage_name(enum npuprof_stage stage);

/**
 * npuprof_error_words() - @e in plain words into @buf (@size bytes, always
 * NUL-terminated): "<object>: <strerror>", or the strerror alone when
 * @object is "".  The text of npuprof_session_last_error(), and what a
 * tool's own wording (msprof's error_words.c) says for a stage it has no
 * better words for.
 */
void npuprof_error_words(const struct npuprof_error *e, char *buf, size_t size);

#endif /* NPUPROF_ERROR_H */
