// SPDX-License-Identifier: MIT
/*
 * Not a test: a stand-in for a container runtime's default seccomp
 * profile.  It installs a filter that answers the named system calls with
 * an error (EPERM unless told otherwise) and lets every other call
 * through, then execs the command, which inherits the filter (and so do
 * its children, as in a container).  The VM tests run msprof under it to
 * see what a job in a Docker or containerd container sees.
 *
 *   seccomp_deny --deny=NAME[,NAME...] [--errno=E] -- CMD [ARG...]
 *
 * NAME is a system call's name as libseccomp knows it (bpf,
 * perf_event_open, userfaultfd, ...) or "io_uring", which stands for
 * io_uring_setup, io_uring_enter and io_uring_register.  E is an errno
 * name (EPERM, EACCES, ENOSYS, ENOMEM) or a positive number.
 *
 * Like Docker's profile the filter does not set no_new_privs when it does
 * not have to (the caller has CAP_SYS_ADMIN): a setuid or file-capability
 * program still gains what it would in the container.  Without
 * CAP_SYS_ADMIN the kernel requires no_new_privs, and it is set.
 *
 * Exit 2 on bad arguments, 3 when the filter cannot be built or loaded,
 * 127 when CMD cannot be executed; otherwise CMD's own status (exec).
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ME "seccomp_deny"

static const char *const io_uring_calls[] = {
	"io_uring_setup", "io_uring_enter", "io_uring_register",
};

static const struct {
	const char *name;
	int value;
} errno_names[] = {
	{ "EPERM", EPERM }, { "EACCES", EACCES }, { "ENOSYS", ENOSYS }, { "ENOMEM", ENOMEM },
};

static void usage(void)
{
	fprintf(stderr, "usage: " ME " --deny=NAME[,NAME...] [--errno=EPERM|EACCES|ENOSYS|ENOMEM|N]"
			" -- CMD [ARG...]\n"
			"  NAME: a system call (bpf, perf_event_open, ...) or io_uring"
			" (io_uring_setup, io_uring_enter, io_uring_register)\n");
	exit(2);
}

/* The errno value @word names, or -1. */
static int parse_errno(const char *word)
{
	size_t i;
	char *end;
	long v;

	for (i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (!strcmp(word, errno_names[i].name))
			return errno_names[i].value;
	v = strtol(word, &end, 10);
	if (*word && !*end && v > 0 && v < 4096)
		return (int)v;
	return -1;
}

/* Answer the call @name with @err in @ctx.  0, or exits with 2 (unknown
 * name) or 3 (libseccomp refused the rule). */
static void deny_one(scmp_filter_ctx ctx, const char *name, int err)
{
	int nr = seccomp_syscall_resolve_name(name);
	int ret;

	if (nr == __NR_SCMP_ERROR) {
		fprintf(stderr, ME ": --deny: '%s' is not a system call libseccomp knows\n", name);
		exit(2);
	}
	ret = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(err), nr, 0);
	if (ret < 0) {
		fprintf(stderr, ME ": adding the rule for %s: %s\n", name, strerror(-ret));
		exit(3);
	}
}

/* Every name of the comma-separated @list, "io_uring" expanded. */
static void deny_list(scmp_filter_ctx ctx, char *list, int err)
{
	char *save = NULL, *name;
	size_t i;

	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (strcmp(name, "io_uring")) {
			deny_one(ctx, name, err);
			continue;
		}
		for (i = 0; i < sizeof(io_uring_calls) / sizeof(io_uring_calls[0]); i++)
			deny_one(ctx, io_uring_calls[i], err);
	}
}

/* Load @ctx without no_new_privs if the kernel lets us, else with it. */
static void load(scmp_filter_ctx ctx)
{
	int ret;

	ret = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (!ret)
		ret = seccomp_load(ctx);
	if (ret == -EACCES || ret == -EPERM) {
		ret = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 1);
		if (!ret)
			ret = seccomp_load(ctx);
	}
	if (ret < 0) {
		fprintf(stderr, ME ": loading the filter: %s\n", strerror(-ret));
		exit(3);
	}
}

int main(int argc, char **argv)
{
	char *deny = NULL;
	int err = EPERM, i;
	scmp_filter_ctx ctx;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--deny=", 7) && argv[i][7])
			deny = argv[i] + 7;
		else if (!strncmp(argv[i], "--errno=", 8) && (err = parse_errno(argv[i] + 8)) > 0)
			continue;
		else
			usage();
	}
	if (!deny || i + 1 >= argc)
		usage();

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		fprintf(stderr, ME ": seccomp_init failed\n");
		return 3;
	}
	deny_list(ctx, deny, err);
	load(ctx);
	seccomp_release(ctx);

	execvp(argv[i + 1], argv + i + 1);
	fprintf(stderr, ME ": %s: %s\n", argv[i + 1], strerror(errno));
	return 127;
}
