// SPDX-License-Identifier: MIT
/*
 * Description: the uprobes land on exactly the libascendcl.so file a process
 * mapped, even when that file was deleted or replaced on disk since.
 *
 * Copies of this program (child mode) run from /tmp with their own copy of
 * libascendcl.so next to them (and of the libruntime.so and
 * libascend_hal.so it needs):
 *   child 1 maps file A, then A is deleted;
 *   child 2 maps file B, then B is replaced at its path by file C;
 *   child 3 maps file C, left alone.
 * Without access to /proc/PID/map_files (stat() on it refused with EPERM,
 * as the kernel does without CAP_SYS_ADMIN) children 1 and 2 give -ESTALE
 * and child 3 attaches by name.  With it, all three attach,
 * and 5 calls of each are recorded, exactly, with the child's pid: probes
 * placed by path on C would miss child 2's calls.
 * Runs as root in the test VM (tests/vm/bpf_acl_trace.sh).
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <acl/acl.h>

#include "bpf_test.h"

#define BASE "/tmp/bpf_acl_trace_mapfiles"
#define PROG BASE "/tests/vm/prog" /* so its rpath finds BASE/lib */
#define LIB BASE "/lib/libascendcl.so"
#define CALLS 5
#define FIRST_DEVICE 500

struct child {
	pid_t pid;
	int to, from; /* pipes to its stdin, from its stdout */
};

/* Child mode: per 'c' read, CALLS aclrtResetDevice calls, then 'd'. */
static int child_main(void)
{
	char c = 'r';
	int i;

	if (write(1, &c, 1) != 1)
		return 1;
	while (read(0, &c, 1) == 1) {
		for (i = 0; i < CALLS; i++)
			aclrtResetDevice(FIRST_DEVICE + i);
		c = 'd';
		if (write(1, &c, 1) != 1)
			return 1;
	}
	return 0;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in, out, err = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0) {
		close(in);
		return -errno;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			err = -EIO;
			break;
		}
	if (n < 0)
		err = -errno;
	close(in);
	if (close(out) && !err)
		err = -errno;
	return err;
}

/* The libascendcl.so this test runs with, from its own maps. */
static int own_lib(char *path, size_t len)
{
	char line[4096], *p;
	FILE *f = fopen("/proc/self/maps", "re");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		p = strchr(line, '/');
		if (!p || !strstr(p, "/libascendcl.so"))
			continue;
		p[strcspn(p, "\n")] = '\0';
		snprintf(path, len, "%s", p);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

/*
 * The libruntime.so and libascend_hal.so beside the libascendcl.so at
 * @acl, copied beside LIB: the copies of the ACL library find them there
 * (their $ORIGIN run path).
 */
static void copy_runtime(const char *acl)
{
	static const char *const libs[] = { "libruntime.so", "libascend_hal.so" };
	const char *slash = strrchr(acl, '/');
	char src[4096], dst[256];
	size_t i;

	for (i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		snprintf(src, sizeof(src), "%.*s/%s", slash ? (int)(slash - acl) : 1,
			 slash ? acl : ".", libs[i]);
		snprintf(dst, sizeof(dst), BASE "/lib/%s", libs[i]);
		CHECK_EQ(copy_file(src, dst, 0755), 0);
	}
}

/* Put a fresh copy (a new inode) of the library at LIB. */
static void install_lib(const char *src)
{
	CHECK_EQ(copy_file(src, LIB ".new", 0755), 0);
	CHECK_EQ(rename(LIB ".new", LIB), 0);
}

static struct child spawn(void)
{
	struct child c = { 0 };
	int in[2], out[2];
	char r = 0;

	/* Close-on-exec: a later child must not hold this one's stdin open. */
	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC))
		exit(1);
	c.pid = fork();
	if (c.pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		execl(PROG, "prog", "child", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	c.to = in[1];
	c.from = out[0];
	if (read(c.from, &r, 1) != 1 || r != 'r') {
		fprintf(stderr, "child %d did not start\n", (int)c.pid);
		exit(1);
	}
	return c;
}

static void run(const struct child *c)
{
	char x = 'c';

	CHECK_EQ(write(c->to, &x, 1), 1);
	CHECK_EQ(read(c->from, &x, 1), 1);
	CHECK_EQ(x, 'd');
}

static void reap(struct child *c)
{
	close(c->to);
	close(c->from);
	waitpid(c->pid, NULL, 0);
}

/*
 * Seam for the fallback: this program's stat() is the one the capture calls
 * (it is linked in statically), so it can refuse map_files the way the
 * kernel does without CAP_SYS_ADMIN.  Dropping the capability for real
 * cannot test it: Debian's 6.1 refuses uprobes without CAP_SYS_ADMIN too.
 */
static int deny_map_files;

int stat(const char *restrict path, struct stat *restrict st)
{
	if (deny_map_files && strstr(path, "/map_files/")) {
		errno = EPERM;
		return -1;
	}
	return fstatat(AT_FDCWD, path, st, 0);
}

/* Attach as a process that may not read map_files (the fallback). */
static void attach_without_map_files(struct npuprof_acl_trace *t,
				     const struct child *c1,
				     const struct child *c2,
				     const struct child *c3)
{
	deny_map_files = 1;
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, c1->pid), -ESTALE);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, c2->pid), -ESTALE);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, c3->pid), 0);
	deny_map_files = 0;
}

static void check_child_records(const struct api_log *log, pid_t pid)
{
	size_t i;
	int n = 0;

	for (i = 0; i < log->nr; i++) {
		if (log->recs[i].pid != (__u32)pid)
			continue;
		CHECK_EQ(log->recs[i].api, NPUPROF_API_RT_RESET_DEVICE);
		CHECK_EQ(log->recs[i].device, FIRST_DEVICE + n);
		n++;
	}
	CHECK_EQ(n, CALLS);
}

int main(int argc, char **argv)
{
	struct npuprof_acl_trace *t;
	struct api_log log = { 0 };
	struct child c1, c2, c3;
	char src[4096];

	if (argc > 1 && strcmp(argv[1], "child") == 0)
		return child_main();
	t = bpf_test_open(64 * 1024);
	CHECK_EQ(own_lib(src, sizeof(src)), 0);
	CHECK_EQ(system("rm -rf " BASE " && mkdir -p " BASE "/tests/vm " BASE
			"/lib"), 0);
	CHECK_EQ(copy_file("/proc/self/exe", PROG, 0755), 0);
	copy_runtime(src);

	install_lib(src);
	c1 = spawn();
	CHECK_EQ(unlink(LIB), 0);
	install_lib(src);
	c2 = spawn();
	install_lib(src);
	c3 = spawn();

	attach_without_map_files(t, &c1, &c2, &c3);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, c1.pid), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, c2.pid), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, c3.pid), 0);

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	run(&c1);
	run(&c2);
	run(&c3);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);
	CHECK_EQ(bpf_test_drain(t, &log), 3 * CALLS);
	api_log_sort(&log);
	check_child_records(&log, c1.pid);
	check_child_records(&log, c2.pid);
	check_child_records(&log, c3.pid);

	reap(&c1);
	reap(&c2);
	reap(&c3);
	npuprof_acl_trace_close(t);
	free(log.recs);
	CHECK_EQ(system("rm -rf " BASE), 0);
	return CHECK_DONE();
}
