/* SPDX-License-Identifier: MIT */
/*
 * Which writer a capture gets (enum npuprof_writer, npuprof/drain.h), and
 * why io_uring is refused where it is, found before anything is launched
 * or attached (user/writer_probe.c).
 */
#ifndef NPUPROF_WRITER_PROBE_H
#define NPUPROF_WRITER_PROBE_H

#include <stddef.h>
#include <npuprof/drain.h>

/**
 * enum npuprof_uring_refusal - why io_uring cannot be set up here
 * @NPUPROF_URING_AVAILABLE: it can
 * @NPUPROF_URING_DISABLED:  kernel.io_uring_disabled (Linux 6.6) is 2, or
 *                           1 and the caller lacks CAP_SYS_ADMIN
 * @NPUPROF_URING_SECCOMP:   a seccomp filter refused it (the process has
 *                           one: a container's default profile does so)
 * @NPUPROF_URING_DENIED:    EPERM/EACCES with neither: a security module
 * @NPUPROF_URING_NO_KERNEL: ENOSYS: a kernel built without io_uring
 * @NPUPROF_URING_MEMLOCK:   ENOMEM: RLIMIT_MEMLOCK too small for the rings
 *                           (kernels before 5.12 charge them to it)
 * @NPUPROF_URING_OTHER:     another error
 */
enum npuprof_uring_refusal {
	NPUPROF_URING_AVAILABLE,
	NPUPROF_URING_DISABLED,
	NPUPROF_URING_SECCOMP,
	NPUPROF_URING_DENIED,
	NPUPROF_URING_NO_KERNEL,
	NPUPROF_URING_MEMLOCK,
	NPUPROF_URING_OTHER,
};

/**
 * struct npuprof_writer_probe - which writer a capture here will use
 * @writer:   enum npuprof_writer: IO_URING or PWRITE (or AUTO when
 *            io_uring works and nothing forced a choice: a later refusal
 *            still falls back)
 * @forced:   1 when NPUPROF_WRITER (or the caller) chose, not the probe
 * @error:    -errno of setting io_uring up, 0 when it worked or was not
 *            tried
 * @refusal:  enum npuprof_uring_refusal of @error
 * @disabled: kernel.io_uring_disabled, -1 when the kernel has no such
 *            setting (before 6.6)
 */
struct npuprof_writer_probe {
	int writer;
	int forced;
	int error;
	int refusal;
	int disabled;
};

/**
 * npuprof_writer_env() - NPUPROF_WRITER as an enum npuprof_writer
 * Return: AUTO when unset, empty or "auto"; IO_URING for "io_uring";
 * PWRITE for "pwrite"; -EINVAL for anything else.
 */
int npuprof_writer_env(void);

/**
 * npuprof_writer_probe() - find out, before a capture, which writer it gets
 * @want: enum npuprof_writer; AUTO lets NPUPROF_WRITER choose, then tries
 *        io_uring (a ring of 2 entries, made and freed at once)
 * @out:  the answer
 *
 * Return: 0; -EINVAL for a bad NPUPROF_WRITER (@out says AUTO).
 */
int npuprof_writer_probe(int want, struct npuprof_writer_probe *out);

/**
 * npuprof_writer_classify() - set @p's @error, @refusal and @disabled for
 * a failure @err (-errno) of setting io_uring up; 0: available
 */
void npuprof_writer_classify(struct npuprof_writer_probe *p, int err);

/** npuprof_writer_name() - "io_uring" or "pwrite" (what info.json says). */
const char *npuprof_writer_name(int writer);

/**
 * npuprof_writer_words() - why io_uring is not used, for a person: e.g.
 * "io_uring unavailable (EPERM: blocked by a seccomp filter, as a
 * container's default profile does): writing with the fallback writer
 * (pwrite from a writer thread)"; with io_uring forced where it is
 * refused, why nothing can start and what to do
 * Return: @buf ("" when io_uring is used).
 */
char *npuprof_writer_words(const struct npuprof_writer_probe *p, char *buf, size_t size);

#endif /* NPUPROF_WRITER_PROBE_H */
