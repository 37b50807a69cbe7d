// SPDX-License-Identifier: MIT
/*
 * Description: which writer a capture gets, and the words that say why
 * io_uring is not used (user/writer_probe.c).
 *  1. NPUPROF_WRITER: unset, "" and "auto" are AUTO, "io_uring" and
 *     "pwrite" force, anything else is -EINVAL (and the probe says AUTO).
 *     Forced pwrite is never probed; its words name the variable.
 *  2. The words of each cause, exactly, and of io_uring forced where it
 *     is refused (nothing can start: what to do).
 *  3. Under a seccomp filter answering io_uring's calls with EPERM, ENOSYS
 *     or EACCES (the test runs itself under build/tests/vm/seccomp_deny),
 *     the probe says PWRITE, the errno and "a seccomp filter"; with
 *     ENOMEM, RLIMIT_MEMLOCK.  Forcing io_uring there keeps io_uring (the
 *     start would fail, as asked) with the error known.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include <npuprof/drain.h>
#include <npuprof/writer_probe.h>

#define FALLBACK " writing with the fallback writer (pwrite from a writer thread)"

static void test_env(void)
{
	struct npuprof_writer_probe p;
	char words[512];

	unsetenv("NPUPROF_WRITER");
	CHECK_EQ(npuprof_writer_env(), NPUPROF_WRITER_AUTO);
	setenv("NPUPROF_WRITER", "", 1);
	CHECK_EQ(npuprof_writer_env(), NPUPROF_WRITER_AUTO);
	setenv("NPUPROF_WRITER", "auto", 1);
	CHECK_EQ(npuprof_writer_env(), NPUPROF_WRITER_AUTO);
	setenv("NPUPROF_WRITER", "io_uring", 1);
	CHECK_EQ(npuprof_writer_env(), NPUPROF_WRITER_IO_URING);
	setenv("NPUPROF_WRITER", "Pwrite", 1);
	CHECK_EQ(npuprof_writer_env(), -EINVAL);
	CHECK_EQ(npuprof_writer_probe(NPUPROF_WRITER_AUTO, &p), -EINVAL);
	CHECK_EQ(p.writer, NPUPROF_WRITER_AUTO);
	setenv("NPUPROF_WRITER", "pwrite", 1);
	CHECK_EQ(npuprof_writer_env(), NPUPROF_WRITER_PWRITE);
	CHECK_EQ(npuprof_writer_probe(NPUPROF_WRITER_AUTO, &p), 0);
	CHECK_EQ(p.writer, NPUPROF_WRITER_PWRITE);
	CHECK_EQ(p.forced, 1);
	CHECK_EQ(p.error, 0);
	CHECK_STR(npuprof_writer_words(&p, words, sizeof(words)),
		  "NPUPROF_WRITER=pwrite:" FALLBACK);
	CHECK_STR(npuprof_writer_name(p.writer), "pwrite");
	CHECK_STR(npuprof_writer_name(NPUPROF_WRITER_IO_URING), "io_uring");
	unsetenv("NPUPROF_WRITER");
}

/* The words for a refusal @why of error @err. */
static const char *words_of(int err, int why, int disabled)
{
	static char buf[512];
	struct npuprof_writer_probe p = { .writer = NPUPROF_WRITER_PWRITE, .error = err,
					  .refusal = why, .disabled = disabled };

	return npuprof_writer_words(&p, buf, sizeof(buf));
}

static void test_words(void)
{
	char buf[64], big[512];
	struct npuprof_writer_probe used = { .writer = NPUPROF_WRITER_AUTO };
	struct npuprof_writer_probe forced = { .writer = NPUPROF_WRITER_IO_URING, .forced = 1 };

	CHECK_STR(words_of(-EPERM, NPUPROF_URING_SECCOMP, -1),
		  "io_uring unavailable (EPERM: blocked by a seccomp filter, as a container's default profile does):" FALLBACK);
	CHECK_STR(words_of(-EPERM, NPUPROF_URING_DISABLED, 2),
		  "io_uring unavailable (EPERM: kernel.io_uring_disabled=2 allows it to nobody):" FALLBACK);
	CHECK_STR(words_of(-EPERM, NPUPROF_URING_DISABLED, 1),
		  "io_uring unavailable (EPERM: kernel.io_uring_disabled=1 allows it only to CAP_SYS_ADMIN and kernel.io_uring_group):" FALLBACK);
	CHECK_STR(words_of(-EACCES, NPUPROF_URING_DENIED, 0),
		  "io_uring unavailable (EACCES: refused by a security module or the kernel's settings):" FALLBACK);
	CHECK_STR(words_of(-ENOSYS, NPUPROF_URING_NO_KERNEL, -1),
		  "io_uring unavailable (ENOSYS: the kernel has no io_uring):" FALLBACK);
	CHECK_STR(words_of(-ENOMEM, NPUPROF_URING_MEMLOCK, -1),
		  "io_uring unavailable (ENOMEM: no memory for its rings: kernels before 5.12 charge them to RLIMIT_MEMLOCK, raise ulimit -l):" FALLBACK);
	CHECK_STR(words_of(-EINVAL, NPUPROF_URING_OTHER, -1),
		  "io_uring unavailable (EINVAL: Invalid argument):" FALLBACK);
	CHECK_STR(npuprof_writer_words(&used, buf, sizeof(buf)), "");
	forced.error = -EPERM;
	forced.refusal = NPUPROF_URING_SECCOMP;
	CHECK_STR(npuprof_writer_words(&forced, big, sizeof(big)),
		  "NPUPROF_WRITER=io_uring, but io_uring is unavailable (EPERM: blocked by a seccomp filter, as a container's default profile does): nothing was started; unset NPUPROF_WRITER (or set it to auto) to write with the fallback writer");
	CHECK_STR(npuprof_writer_name(NPUPROF_WRITER_AUTO), "auto");
}

/* In the child under the filter: print what the probe found. */
static int child(void)
{
	struct npuprof_writer_probe p, f;

	npuprof_writer_probe(NPUPROF_WRITER_AUTO, &p);
	npuprof_writer_probe(NPUPROF_WRITER_IO_URING, &f);
	printf("%d %d %d %d %d %d\n", p.writer, p.forced, p.error, p.refusal, f.writer, f.error);
	return 0;
}

/* Run this test under seccomp_deny with io_uring answered by @errname. */
static void under_filter(const char *self, const char *errname, int err, int why)
{
	char cmd[1024], line[128];
	int got[6];
	FILE *f;

	snprintf(cmd, sizeof(cmd),
		 "build/tests/vm/seccomp_deny --deny=io_uring --errno=%s -- %s --child", errname, self);
	f = popen(cmd, "r");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(fgets(line, sizeof(line), f) != NULL);
	CHECK_EQ(pclose(f), 0);
	CHECK_EQ(sscanf(line, "%d %d %d %d %d %d", &got[0], &got[1], &got[2], &got[3], &got[4],
			&got[5]),
		 6);
	fprintf(stderr, "%s: %s", errname, line);
	CHECK_EQ(got[0], NPUPROF_WRITER_PWRITE);
	CHECK_EQ(got[1], 0);
	CHECK_EQ(got[2], -err);
	CHECK_EQ(got[3], why);
	CHECK_EQ(got[4], NPUPROF_WRITER_IO_URING);
	CHECK_EQ(got[5], -err);
}

int main(int argc, char **argv)
{
	char self[4096];
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child();
	test_env();
	test_words();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0 || access("build/tests/vm/seccomp_deny", X_OK))
		CHECK_SKIP("no build/tests/vm/seccomp_deny (make all) to run under");
	self[n] = '\0';
	under_filter(self, "EPERM", EPERM, NPUPROF_URING_SECCOMP);
	under_filter(self, "ENOSYS", ENOSYS, NPUPROF_URING_SECCOMP);
	under_filter(self, "EACCES", EACCES, NPUPROF_URING_SECCOMP);
	under_filter(self, "ENOMEM", ENOMEM, NPUPROF_URING_MEMLOCK);
	return CHECK_DONE();
}
