// SPDX-License-Identifier: MIT
/*
 * Description: launches carry the kernel name of their function handle
 * when npuprof saw the aclrtBinaryGetFunction() that made it, even outside
 * a capture window.
 *
 * The process loads a kernel binary and looks up "kern_a" before it is
 * attached, then, attached but not capturing, looks up "kern_b" (the one
 * probe pair placed outside capture windows names the handle; no record is
 * written).  It forks a child, attached as well, which never looks
 * anything up before the window.  In a capture window the parent launches
 * kern_a 3 times and kern_b 4 times, the child launches the parent's
 * kern_b handle value twice, then looks up kern_a itself and launches it
 * once: the parent's kern_b launches carry "kern_b", its kern_a launches
 * (handle made before attaching) none, the child's kern_b launches none
 * (the same handle value in another process: names are kept per process),
 * its kern_a launch "kern_a".  Once the child exited, the BPF side holds
 * no name of it (acl_names_exit; read from the map `func_names` here).
 * Runs as root in the test VM with npusim loaded (tests/vm/bpf_acl_trace.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/wait.h>

#include <acl/acl.h>
#include <bpf/bpf.h>

#include "bpf_test.h"

#define H(p) ((__u64)(uintptr_t)(p))

/* A kernel binary for the simulated runtime: two 5 us kernels. */
static const char *write_kernel_file(void)
{
	static const char path[] = "/tmp/bpf_acl_trace_names.kernels";
	FILE *f = fopen(path, "w");

	if (f) {
		fputs("kern_a 5\nkern_b 5\n", f);
		fclose(f);
	}
	return path;
}

/*
 * Fork a child that waits for a byte on a pipe, then launches @fn twice
 * (0 blocks: refused at once, recorded all the same), looks up kern_a in
 * @bin and launches it once, and exits.
 * Return: its pid; *@go is the write end that starts it.
 */
static pid_t spawn_launcher(aclrtBinHandle bin, aclrtFuncHandle fn, aclrtStream stream,
			    int *go)
{
	aclrtFuncHandle own = NULL;
	pid_t pid = bpf_test_fork_waiting(go);

	if (pid)
		return pid;
	aclrtLaunchKernel(fn, 0, NULL, 0, stream);
	aclrtLaunchKernel(fn, 0, NULL, 0, stream);
	if (aclrtBinaryGetFunction(bin, "kern_a", &own))
		_exit(2);
	aclrtLaunchKernel(own, 0, NULL, 0, stream);
	_exit(0);
}

/*
 * Entries of process @pid in the BPF map `func_names` (the only one of
 * that name: one capture runs in the test VM), or -1 when there is none.
 */
static int names_held(pid_t pid)
{
	struct bpf_map_info info;
	__u32 id = 0, len;
	int fd = -1, n = 0;
	struct {
		__u32 tgid, pad;
		__u64 handle;
	} key, next;
	void *prev = NULL;

	while (fd < 0 && !bpf_map_get_next_id(id, &id)) {
		fd = bpf_map_get_fd_by_id(id);
		if (fd < 0)
			continue;
		len = sizeof(info);
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(fd, &info, &len) || strcmp(info.name, "func_names")) {
			close(fd);
			fd = -1;
		}
	}
	if (fd < 0)
		return -1;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		n += next.tgid == (__u32)pid;
		key = next;
		prev = &key;
	}
	close(fd);
	return n;
}

int main(void)
{
	struct npuprof_acl_trace *t = bpf_test_open(64 * 1024);
	aclrtFuncHandle fa = NULL, fb = NULL;
	struct api_log log = { 0 };
	aclrtBinHandle bin = NULL;
	aclrtStream stream = NULL;
	size_t i, named = 0, unnamed_a = 0, child = 0, child_named = 0;
	int go, status = 0;
	pid_t kid;

	CHECK_EQ(aclInit(NULL), 0);
	CHECK_EQ(aclrtSetDevice(0), 0);
	CHECK_EQ(aclrtCreateStream(&stream), 0);
	CHECK_EQ(aclrtBinaryLoadFromFile(write_kernel_file(), NULL, &bin), 0);
	CHECK_EQ(aclrtBinaryGetFunction(bin, "kern_a", &fa), 0);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, getpid()), 0);
	CHECK_EQ(aclrtBinaryGetFunction(bin, "kern_b", &fb), 0);
	CHECK(fa != fb);
	kid = spawn_launcher(bin, fb, stream, &go);
	CHECK_EQ(npuprof_acl_trace_attach_pid(t, kid), 0);
	CHECK_EQ(bpf_test_drain(t, &log), 0); /* nothing recorded outside the window */

	CHECK_EQ(npuprof_acl_trace_enable(t, 1), 0);
	for (i = 0; i < 3; i++)
		CHECK_EQ(aclrtLaunchKernel(fa, 1, NULL, 0, stream), 0);
	for (i = 0; i < 4; i++)
		CHECK_EQ(aclrtLaunchKernel(fb, 1, NULL, 0, stream), 0);
	CHECK_EQ(write(go, "x", 1), 1);
	close(go);
	CHECK_EQ(waitpid(kid, &status, 0), kid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ(names_held(kid), 0);
	CHECK_EQ(names_held(getpid()), 1);
	CHECK_EQ(aclrtSynchronizeStream(stream), 0);
	CHECK_EQ(npuprof_acl_trace_enable(t, 0), 0);

	/* 3 + 4 + 3 launches, the child's look-up, the sync */
	CHECK_EQ(bpf_test_drain(t, &log), 12);
	for (i = 0; i < log.nr; i++) {
		const struct npuprof_rec_api *r = &log.recs[i];

		if (r->api != NPUPROF_API_RT_LAUNCH_KERNEL)
			continue;
		if (r->pid == (__u32)kid && r->handle == H(fa)) {
			CHECK_STR(r->name, "kern_a");
			child_named++;
		} else if (r->pid == (__u32)kid) {
			CHECK_EQ(r->handle, H(fb));
			CHECK_EQ(r->name[0], '\0');
			child++;
		} else if (r->handle == H(fb)) {
			CHECK_STR(r->name, "kern_b");
			named++;
		} else {
			CHECK_EQ(r->handle, H(fa));
			CHECK_EQ(r->name[0], '\0');
			unnamed_a++;
		}
	}
	CHECK_EQ(named, 4);
	CHECK_EQ(unnamed_a, 3);
	CHECK_EQ(child, 2);
	CHECK_EQ(child_named, 1);

	npuprof_acl_trace_close(t);
	aclrtDestroyStream(stream);
	aclrtResetDevice(0);
	aclFinalize();
	free(log.recs);
	return CHECK_DONE();
}
