// SPDX-License-Identifier: MIT
/*
 * Description: the dynamic-profiling server of the simulated runtime
 * (sim/runtime/dynprof_server.c) speaks CANN's protocol.  With
 * PROFILING_MODE=dynamic and HOME a temp dir, aclInit creates
 * $HOME/dynamic_profiling_socket_<pid> with mode 0600; a client gets
 * PARAMS -> SUCCESS, START without a device -> NOT_SET_DEVICE, STOP ->
 * NOT_START, unknown type 42 -> {43, FAIL}, QUIT -> QUIT_RSQ SUCCESS and
 * the connection closed; a half-closed client gets DISCONNECT_RSQ; a bad
 * parameter length gets PARAMS_RSQ FAIL; the 100th message ends the
 * connection; aclFinalize removes the socket; DYNAMIC_PROFILING_KEY_PID
 * names the socket.  Where /dev/davinci0 exists (the VM, npusim.ko
 * loaded) it also checks START -> SUCCESS, START -> ALREADY_START and
 * STOP -> SUCCESS; on a host without the driver that part is skipped.
 *
 * The library is dlopen'ed from ../lib/libascendcl.so next to this
 * binary's directory (build/tests -> build/lib); skip (77) if not built.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <acl/acl.h>
#include <dynprof_wire.h>

#include "check.h"

#define REPLY_MS 3000

static aclError (*p_init)(const char *);
static aclError (*p_finalize)(void);
static aclError (*p_set_device)(int32_t);
static aclError (*p_reset_device)(int32_t);

static int load_acl(void)
{
	char exe[PATH_MAX], lib[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	void *h;

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	snprintf(lib, sizeof(lib), "%s/../lib/libascendcl.so", dirname(exe));
	h = dlopen(lib, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return -ENOENT;
	}
	p_init = (aclError(*)(const char *))dlsym(h, "aclInit");
	p_finalize = (aclError(*)(void))dlsym(h, "aclFinalize");
	p_set_device = (aclError(*)(int32_t))dlsym(h, "aclrtSetDevice");
	p_reset_device = (aclError(*)(int32_t))dlsym(h, "aclrtResetDevice");
	return p_init && p_finalize && p_set_device && p_reset_device ? 0 : -ENOENT;
}

static int connect_to(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		fprintf(stderr, "connect %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Send a raw params block with length field @len; return the reply status. */
static int send_params(int fd, uint32_t len)
{
	uint8_t buf[DYNPROF_PARAMS_SIZE], rep[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;

	dynprof_encode_params(buf, "{\"result_dir\":\"/tmp\"}");
	memcpy(buf, &len, sizeof(len));
	if (dynprof_send_all(fd, buf, sizeof(buf), REPLY_MS) ||
	    dynprof_recv_all(fd, rep, sizeof(rep), REPLY_MS))
		return -1;
	dynprof_decode_msg(rep, &m);
	CHECK_EQ(m.type, DYNPROF_PARAMS_RSQ);
	return m.status;
}

/* Send {@type, 0}; expect reply type @want_type; return its status. */
static int command(int fd, int32_t type, int32_t want_type)
{
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m;

	dynprof_encode_msg(buf, type, 0);
	if (dynprof_send_all(fd, buf, sizeof(buf), REPLY_MS) ||
	    dynprof_recv_all(fd, buf, sizeof(buf), REPLY_MS))
		return -1;
	dynprof_decode_msg(buf, &m);
	CHECK_EQ(m.type, want_type);
	return m.status;
}

/* 1 when the server closed the connection (EOF within REPLY_MS). */
static int closed_by_server(int fd)
{
	uint8_t b;

	return dynprof_recv_all(fd, &b, 1, REPLY_MS) == -ECONNRESET;
}

static void check_socket_file(const char *path)
{
	struct stat st;

	CHECK_EQ(stat(path, &st), 0);
	CHECK(S_ISSOCK(st.st_mode));
	CHECK_EQ(st.st_mode & 07777, 0600);
}

static void check_with_device(int fd)
{
	if (p_set_device(0) != ACL_SUCCESS) {
		fprintf(stderr, "note: no simulated device (npusim.ko not loaded): START -> SUCCESS is checked only in the VM\n");
		return;
	}
	CHECK_EQ(command(fd, DYNPROF_START_REQ, DYNPROF_START_RSQ), DYNPROF_SUCCESS);
	CHECK_EQ(command(fd, DYNPROF_START_REQ, DYNPROF_START_RSQ), DYNPROF_ALREADY_START);
	CHECK_EQ(command(fd, DYNPROF_STOP_REQ, DYNPROF_STOP_RSQ), DYNPROF_SUCCESS);
	CHECK_EQ(p_reset_device(0), ACL_SUCCESS);
}

/* PARAMS, START/STOP answers, unknown type, QUIT closes. */
static void check_session(const char *path)
{
	int fd = connect_to(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(send_params(fd, 21), DYNPROF_SUCCESS);
	CHECK_EQ(command(fd, DYNPROF_START_REQ, DYNPROF_START_RSQ), DYNPROF_NOT_SET_DEVICE);
	CHECK_EQ(command(fd, DYNPROF_STOP_REQ, DYNPROF_STOP_RSQ), DYNPROF_NOT_START);
	CHECK_EQ(command(fd, 42, 43), DYNPROF_FAIL);
	check_with_device(fd);
	CHECK_EQ(command(fd, DYNPROF_QUIT_REQ, DYNPROF_QUIT_RSQ), DYNPROF_SUCCESS);
	CHECK(closed_by_server(fd));
	close(fd);
}

/* A client that half-closes gets DISCONNECT_RSQ, then EOF. */
static void check_disconnect(const char *path)
{
	uint8_t buf[DYNPROF_MSG_SIZE];
	struct dynprof_msg m = { -1, -1 };
	int fd = connect_to(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(send_params(fd, 21), DYNPROF_SUCCESS);
	shutdown(fd, SHUT_WR);
	CHECK_EQ(dynprof_recv_all(fd, buf, sizeof(buf), REPLY_MS), 0);
	dynprof_decode_msg(buf, &m);
	CHECK_EQ(m.type, DYNPROF_DISCONNECT_RSQ);
	CHECK_EQ(m.status, DYNPROF_SUCCESS);
	CHECK(closed_by_server(fd));
	close(fd);
}

/* A length field of 4096 or more is refused with FAIL. */
static void check_bad_params(const char *path)
{
	int fd = connect_to(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(send_params(fd, DYNPROF_PARAMS_DATA_LEN), DYNPROF_FAIL);
	CHECK(closed_by_server(fd));
	close(fd);
}

/* The 100th message is answered, then the connection is dropped. */
static void check_message_limit(const char *path)
{
	int fd = connect_to(path), i, ok = 0;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(send_params(fd, 21), DYNPROF_SUCCESS);
	for (i = 0; i < DYNPROF_MAX_MESSAGES; i++)
		ok += command(fd, DYNPROF_STOP_REQ, DYNPROF_STOP_RSQ) == DYNPROF_NOT_START;
	CHECK_EQ(ok, DYNPROF_MAX_MESSAGES);
	CHECK(closed_by_server(fd));
	close(fd);
}

static void check_env_key(const char *home)
{
	char path[256];
	struct stat st;

	setenv("DYNAMIC_PROFILING_KEY_PID", "424242", 1);
	CHECK_EQ(p_init(NULL), ACL_SUCCESS);
	CHECK_EQ(dynprof_socket_path(path, sizeof(path), home, 424242), 0);
	check_socket_file(path);
	CHECK_EQ(p_finalize(), ACL_SUCCESS);
	CHECK(stat(path, &st) < 0 && errno == ENOENT);
	unsetenv("DYNAMIC_PROFILING_KEY_PID");
}

int main(void)
{
	char home[] = "/tmp/test_dynprof_server.XXXXXX", path[256];
	struct stat st;

	if (load_acl())
		CHECK_SKIP("build/lib/libascendcl.so not built");
	if (!mkdtemp(home))
		CHECK_SKIP("cannot create a temp HOME");
	setenv("HOME", home, 1);
	setenv("PROFILING_MODE", "dynamic", 1);
	unsetenv("DYNAMIC_PROFILING_KEY_PID");
	CHECK_EQ(p_init(NULL), ACL_SUCCESS);
	CHECK_EQ(dynprof_socket_path(path, sizeof(path), home, (long)getpid()), 0);
	check_socket_file(path);
	check_session(path);
	check_disconnect(path);
	check_bad_params(path);
	check_message_limit(path);
	CHECK_EQ(p_finalize(), ACL_SUCCESS);
	CHECK(stat(path, &st) < 0 && errno == ENOENT);
	check_env_key(home);
	rmdir(home);
	return CHECK_DONE();
}
