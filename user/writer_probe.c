// SPDX-License-Identifier: MIT
/*
 * Which writer a capture gets (npuprof/drain.h, enum npuprof_writer), and
 * why io_uring is refused where it is: asked before anything is launched
 * or attached, so a host or container without io_uring is said once, up
 * front, and captured with the pwrite fallback instead of failing at
 * start.  The causes a default container profile and a hardened host
 * give: a seccomp filter (Docker's and containerd's default profiles
 * answer io_uring_setup with EPERM), kernel.io_uring_disabled (Linux 6.6),
 * a security module, RLIMIT_MEMLOCK (kernels before 5.12 charge the rings
 * to it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>

#include <npuprof/capture_access.h>
#include <npuprof/writer_probe.h>

#include "io_engine.h"

#define URING_DISABLED_FILE "/proc/sys/kernel/io_uring_disabled"

int npuprof_writer_env(void)
{
	const char *v = getenv("NPUPROF_WRITER");

	if (!v || !*v || !strcmp(v, "auto"))
		return NPUPROF_WRITER_AUTO;
	if (!strcmp(v, "io_uring"))
		return NPUPROF_WRITER_IO_URING;
	if (!strcmp(v, "pwrite"))
		return NPUPROF_WRITER_PWRITE;
	return -EINVAL;
}

/* Why setting io_uring up failed with @err (-errno). */
static int refusal_of(int err, int disabled)
{
	struct npuprof_self_status st;

	if (!err)
		return NPUPROF_URING_AVAILABLE;
	if (err == -ENOMEM)
		return NPUPROF_URING_MEMLOCK;
	npuprof_self_status_read(&st);
	if (err == -EPERM &&
	    (disabled == 2 || (disabled == 1 && !npuprof_self_has_cap(&st, CAP_SYS_ADMIN))))
		return NPUPROF_URING_DISABLED;
	if (err != -EPERM && err != -EACCES && err != -ENOSYS)
		return NPUPROF_URING_OTHER;
	if (st.seccomp_filter)
		return NPUPROF_URING_SECCOMP;
	return err == -ENOSYS ? NPUPROF_URING_NO_KERNEL : NPUPROF_URING_DENIED;
}

void npuprof_writer_classify(struct npuprof_writer_probe *p, int err)
{
	p->error = err;
	p->disabled = npuprof_sysctl_int(URING_DISABLED_FILE, -1);
	p->refusal = refusal_of(err, p->disabled);
}

int npuprof_writer_probe(int want, struct npuprof_writer_probe *out)
{
	int env = want == NPUPROF_WRITER_AUTO ? npuprof_writer_env() : want;
	struct io_engine *io;
	int err;

	*out = (struct npuprof_writer_probe){ .writer = NPUPROF_WRITER_AUTO, .disabled = -1 };
	if (env < 0)
		return env;
	out->forced = env != NPUPROF_WRITER_AUTO;
	if (env == NPUPROF_WRITER_PWRITE) {
		out->writer = env;
		return 0;
	}
	/* the ring the drain makes: a limit on locked memory counts its size */
	err = io_engine_open(IO_ENGINE_URING, NPUPROF_DRAIN_ENGINE_ENTRIES, &io);
	if (!err)
		io_engine_close(io);
	npuprof_writer_classify(out, err);
	out->writer = err && !out->forced ? NPUPROF_WRITER_PWRITE : env;
	return 0;
}

const char *npuprof_writer_name(int writer)
{
	return writer == NPUPROF_WRITER_PWRITE	   ? "pwrite"
	       : writer == NPUPROF_WRITER_IO_URING ? "io_uring"
						   : "auto";
}

/* The cause of a refusal, in words. */
static const char *refusal_words(const struct npuprof_writer_probe *p, char *buf, size_t size)
{
	switch (p->refusal) {
	case NPUPROF_URING_DISABLED:
		if (p->disabled == 2)
			return "kernel.io_uring_disabled=2 allows it to nobody";
		return "kernel.io_uring_disabled=1 allows it only to CAP_SYS_ADMIN and kernel.io_uring_group";
	case NPUPROF_URING_SECCOMP:
		return "blocked by a seccomp filter, as a container's default profile does";
	case NPUPROF_URING_DENIED:
		return "refused by a security module or the kernel's settings";
	case NPUPROF_URING_NO_KERNEL:
		return "the kernel has no io_uring";
	case NPUPROF_URING_MEMLOCK:
		return "no memory for its rings: kernels before 5.12 charge them to RLIMIT_MEMLOCK, raise ulimit -l";
	}
	snprintf(buf, size, "%s", strerror(-p->error));
	return buf;
}

char *npuprof_writer_words(const struct npuprof_writer_probe *p, char *buf, size_t size)
{
	char why[128];
	const char *name = strerrorname_np(-p->error);

	buf[0] = '\0';
	if (p->writer == NPUPROF_WRITER_PWRITE && p->forced)
		snprintf(buf, size, "NPUPROF_WRITER=pwrite: writing with the fallback writer (pwrite from a writer thread)");
	else if (p->writer == NPUPROF_WRITER_PWRITE)
		snprintf(buf, size, "io_uring unavailable (%s: %s): writing with the fallback writer (pwrite from a writer thread)",
			 name ? name : "error", refusal_words(p, why, sizeof(why)));
	else if (p->error)
		snprintf(buf, size, "NPUPROF_WRITER=io_uring, but io_uring is unavailable (%s: %s): nothing was started; unset NPUPROF_WRITER (or set it to auto) to write with the fallback writer",
			 name ? name : "error", refusal_words(p, why, sizeof(why)));
	return buf;
}
