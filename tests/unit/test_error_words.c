// SPDX-License-Identifier: MIT
/*
 * Description: msprof words a session failure from its stage and errno
 * (tools/msprof/error_words.c), one row per outcome, exact text.  The
 * same errno reads differently by stage: -ENOENT is "npuprof.ko is not
 * loaded" at MODULE, "no libascendcl.so mapped" at LIBRARY (library not
 * mapped; "no libruntime.so mapped" when the failure names that library,
 * a runtime-only capture), the path at OUTPUT; -ENOEXEC at SYMBOLS names the functions the
 * library lacks (function missing); the kernel refusing a uprobe is
 * "attach failed" with the library and the errno; -EACCES is "needs
 * root" for the kernel-side stages (to root: what refuses root, a
 * security module or a user namespace; a BPF load's EACCES, the verifier's
 * refusal, in plain words) but a plain permission error on --output.  The pid the failure names wins over the caller's.
 */
#include <errno.h>

#include "check.h"
#include "error_words.h"

struct row {
	enum npuprof_stage stage;
	int err;
	pid_t pid;	       /* in the failure */
	const char *object;
	const char *functions;
	const char *want;
};

#define LIB "/opt/cann/lib64/libascendcl.so"

static const struct row rows[] = {
	{ NPUPROF_STAGE_MODULE, -ENOENT, 0, "/dev/npuprof", "",
	  "npuprof.ko is not loaded: load it with insmod npuprof.ko (see README)" },
	{ NPUPROF_STAGE_MODULE, -EACCES, 0, "/dev/npuprof", "",
	  "needs root (CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN): run as root" },
	{ NPUPROF_STAGE_MODULE, -EUSERS, 0, "/dev/npuprof", "",
	  "npuprof.ko has as many capture sessions open as it allows (max_sessions): quit another "
	  "msprof, or reload npuprof.ko with a larger max_sessions" },
	{ NPUPROF_STAGE_MODULE, -EBUSY, 0, "selecting the process in npuprof.ko", "",
	  "another msprof already profiles process 42: one msprof per process; quit that one first" },
	{ NPUPROF_STAGE_MODULE, -ENOTTY, 0, "following the launched job in npuprof.ko", "",
	  "npuprof.ko is older than this msprof and cannot follow a launched job: load the "
	  "npuprof.ko built with this msprof" },
	{ NPUPROF_STAGE_BPF_LOAD, -EPERM, 0, "loading the BPF runtime-API probes", "",
	  "needs root (CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN): run as root" },
	{ NPUPROF_STAGE_BPF_LOAD, -EOPNOTSUPP, 0, "loading the BPF runtime-API probes", "",
	  "this kernel lacks what the capture needs (BPF uprobes with BTF)" },
	{ NPUPROF_STAGE_BPF_LOAD, -E2BIG, 0, "loading the BPF runtime-API probes", "",
	  "loading the BPF runtime-API probes: Argument list too long" },
	{ NPUPROF_STAGE_PROCESS, -ESRCH, 0, "", "", "process 42 has exited" },
	{ NPUPROF_STAGE_PROCESS, -ESRCH, 77, "", "", "process 77 has exited" },
	/* library not mapped */
	{ NPUPROF_STAGE_LIBRARY, -ENOENT, 0, "", "",
	  "process 42 has no libascendcl.so mapped: profile an app that uses AscendCL (aclInit)" },
	/* --ascendcl=off --runtime-api=on: the library of the runtime layer */
	{ NPUPROF_STAGE_LIBRARY, -ENOENT, 0, "libruntime.so", "",
	  "process 42 has no libruntime.so mapped: profile an app that uses CANN's runtime, or "
	  "leave --runtime-api off" },
	{ NPUPROF_STAGE_LIBRARY, -ESTALE, 0, LIB, "",
	  "the libascendcl.so that process 42 runs (" LIB ") was replaced or deleted on disk, and "
	  "/proc/42/map_files is not readable here: run msprof as root (CAP_SYS_ADMIN), or restart "
	  "the app to profile it" },
	{ NPUPROF_STAGE_LIBRARY, -EMFILE, 0, LIB, "",
	  "cannot open the libascendcl.so " LIB ": Too many open files" },
	/* function missing */
	{ NPUPROF_STAGE_SYMBOLS, -ENOEXEC, 0, LIB, "aclFinalize aclrtSetDevice",
	  "function missing: " LIB " lacks aclFinalize aclrtSetDevice, which every ACL runtime "
	  "has: not a supported runtime" },
	{ NPUPROF_STAGE_SYMBOLS, -ENOEXEC, 0, LIB, "",
	  LIB " has no ELF symbol table: not a supported runtime" },
	/* attach failed */
	{ NPUPROF_STAGE_ATTACH, -EINVAL, 0, LIB, "",
	  "attach failed: the kernel refused the probes on " LIB ": Invalid argument" },
	{ NPUPROF_STAGE_ATTACH, -EPERM, 0, LIB, "",
	  "needs root (CAP_BPF, CAP_PERFMON, CAP_SYS_ADMIN): run as root" },
	{ NPUPROF_STAGE_CAPTURE, -EIO, 0, "starting the drain", "",
	  "starting the drain: Input/output error" },
	{ NPUPROF_STAGE_OUTPUT, -ENOSPC, 0, "/out", "", "/out: No space left on device" },
	{ NPUPROF_STAGE_OUTPUT, -EACCES, 0, "/out", "", "/out: Permission denied" },
	{ NPUPROF_STAGE_SESSION, -EALREADY, 0, "", "", "Operation already in progress" },
};

int main(void)
{
	char words[8192];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct npuprof_error e = { .stage = rows[i].stage, .err = rows[i].err,
					   .pid = rows[i].pid };

		snprintf(e.object, sizeof(e.object), "%s", rows[i].object);
		snprintf(e.functions, sizeof(e.functions), "%s", rows[i].functions);
		msprof_error_words_as(&e, 42, 0, words, sizeof(words));
		CHECK_STR(words, rows[i].want);
	}
	/* the same refusals to root: not "needs root", but what refuses root */
	{
		struct npuprof_error e = { .stage = NPUPROF_STAGE_LIBRARY, .err = -EPERM };

		snprintf(e.object, sizeof(e.object), "/proc/42/map_files");
		msprof_error_words_as(&e, 42, 1, words, sizeof(words));
		CHECK_STR(words, "/proc/42/map_files: permission denied to root: a security module "
				 "(SELinux, AppArmor, Yama, lockdown) or a user namespace without the "
				 "capabilities refuses it");
		e.stage = NPUPROF_STAGE_BPF_LOAD;
		e.object[0] = '\0';
		msprof_error_words_as(&e, 42, 1, words, sizeof(words));
		CHECK_STR(words, "permission denied to root: a security module (SELinux, AppArmor, "
				 "Yama, lockdown) or a user namespace without the capabilities refuses it");
		/* EACCES from a BPF load is the verifier refusing the program */
		e.err = -EACCES;
		snprintf(e.object, sizeof(e.object), "loading the BPF runtime-API probes");
		msprof_error_words_as(&e, 42, 1, words, sizeof(words));
		CHECK_STR(words, "loading the BPF runtime-API probes: Permission denied");
		e.stage = NPUPROF_STAGE_OUTPUT; /* not a kernel-side stage: the path's own error */
		snprintf(e.object, sizeof(e.object), "/out");
		msprof_error_words_as(&e, 42, 1, words, sizeof(words));
		CHECK_STR(words, "/out: Permission denied");
	}
	msprof_untraced_words("aclrtMemcpy aclopExecuteV2", words, sizeof(words));
	CHECK_STR(words, "function missing: the profiled libascendcl.so lacks aclrtMemcpy "
			 "aclopExecuteV2 (an older runtime?): calls to them are not captured "
			 "(info.json lists them as untracedFunctions)");
	CHECK_STR(npuprof_stage_name(NPUPROF_STAGE_SYMBOLS), "symbols");
	CHECK_STR(npuprof_stage_name((enum npuprof_stage)99), "unknown");
	return CHECK_DONE();
}
