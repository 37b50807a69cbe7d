// SPDX-License-Identifier: MIT
/*
 * Description: the simulated ACL runtime (build/lib/libascendcl.so)
 * returns CANN's error code for each kind of bad input: NULL pointers
 * (ACL_ERROR_INVALID_PARAM), no current device (ACL_ERROR_RT_CONTEXT_NULL),
 * bad device ids, repeated init/finalize, unreadable and malformed kernel
 * binaries (a NUL byte anywhere included), unknown ops.  Where /dev/davinci0 exists (the VM) it also
 * loads a kernel binary and checks kernel lookup; without the driver it
 * checks that aclrtSetDevice reports ACL_ERROR_RT_NO_DEVICE.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <libgen.h>
#include <unistd.h>

#include <acl/acl.h>

#include "check.h"

static void *lib;

/* Resolve @name from the library or fail the test. */
static void *sym(const char *name)
{
	void *p = dlsym(lib, name);

	if (!p) {
		fprintf(stderr, "missing symbol %s\n", name);
		exit(1);
	}
	return p;
}

#define ACL(name) ((__typeof__(&name))sym(#name))

static int load_acl(void)
{
	char exe[PATH_MAX], path[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n < 0)
		return -errno;
	exe[n] = '\0';
	snprintf(path, sizeof(path), "%s/../lib/libascendcl.so", dirname(exe));
	lib = dlopen(path, RTLD_NOW);
	return lib ? 0 : -ENOENT;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void write_bytes(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		CHECK_EQ(fwrite(data, 1, len, f), len);
		fclose(f);
	}
}

static void check_no_device(void)
{
	void *p = NULL;
	char buf[8];
	aclrtStream s;
	aclrtEvent e;

	CHECK_EQ(ACL(aclrtCreateStream)(&s), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(ACL(aclrtCreateEvent)(&e), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(ACL(aclrtMalloc)(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(ACL(aclrtMemcpy)(buf, 8, "1234567", 8, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(ACL(aclrtSynchronizeStream)(NULL), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(ACL(aclrtSynchronizeDevice)(), ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(ACL(aclopExecuteV2)("Gelu", 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
		 ACL_ERROR_RT_CONTEXT_NULL);
	CHECK_EQ(ACL(aclrtResetDevice)(0), ACL_ERROR_RT_INVALID_DEVICEID);
	CHECK_EQ(ACL(aclrtSetDevice)(-1), ACL_ERROR_RT_INVALID_DEVICEID);
	if (access("/dev/davinci0", F_OK) != 0)
		CHECK_EQ(ACL(aclrtSetDevice)(0), ACL_ERROR_RT_NO_DEVICE);
}

static void check_null_args(void)
{
	char buf[8];
	aclrtBinHandle bin;

	CHECK_EQ(ACL(aclrtCreateStream)(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtDestroyStream)(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtCreateEvent)(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtDestroyEvent)(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtRecordEvent)(NULL, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtMalloc)(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtFree)(NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtFree)(buf), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtMemcpy)(NULL, 8, buf, 8, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtMemcpy)(buf, 4, "1234567", 8, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtMemcpyAsync)(buf, 8, NULL, 8, ACL_MEMCPY_DEVICE_TO_HOST, NULL),
		 ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtLaunchKernel)(NULL, 1, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtLaunchKernel)(buf, 1, NULL, 0, NULL), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclopExecuteV2)(NULL, 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
		 ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclopExecuteV2)("Gelu", 1, NULL, NULL, 0, NULL, NULL, NULL, NULL),
		 ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclopExecuteV2)("NoSuchOp", 0, NULL, NULL, 0, NULL, NULL, NULL, NULL),
		 ACL_ERROR_OP_NOT_FOUND);
	CHECK_EQ(ACL(aclrtBinaryLoadFromFile)(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtBinaryGetFunction)(NULL, "MatMul", &bin), ACL_ERROR_INVALID_PARAM);
	CHECK_EQ(ACL(aclrtBinaryGetFunction)(buf, "MatMul", &bin), ACL_ERROR_INVALID_PARAM);
}

/* Kernel binary parsing: file errors come before the device check. */
static void check_binaries(const char *dir)
{
	char good[256], bad[256], dup[256];
	aclrtBinHandle bin = NULL;
	aclrtFuncHandle fn = NULL;
	int have_device;

	snprintf(good, sizeof(good), "%s/good.bin", dir);
	snprintf(bad, sizeof(bad), "%s/bad.bin", dir);
	snprintf(dup, sizeof(dup), "%s/dup.bin", dir);
	write_file(good, "# comment\n\n  MatMul 2000\nAdd\t300   \n");
	write_file(bad, "MatMul 2000us\n");
	write_file(dup, "Add 1\nAdd 2\n");
	CHECK_EQ(ACL(aclrtBinaryLoadFromFile)("/nonexistent/k.bin", NULL, &bin),
		 ACL_ERROR_INVALID_FILE);
	CHECK_EQ(ACL(aclrtBinaryLoadFromFile)(bad, NULL, &bin), ACL_ERROR_PARSE_FILE);
	CHECK_EQ(ACL(aclrtBinaryLoadFromFile)(dup, NULL, &bin), ACL_ERROR_PARSE_FILE);
	have_device = ACL(aclrtSetDevice)(0) == ACL_SUCCESS;
	if (!have_device) {
		CHECK_EQ(ACL(aclrtBinaryLoadFromFile)(good, NULL, &bin), ACL_ERROR_RT_CONTEXT_NULL);
	} else {
		CHECK_EQ(ACL(aclrtBinaryLoadFromFile)(good, NULL, &bin), ACL_SUCCESS);
		CHECK_EQ(ACL(aclrtBinaryGetFunction)(bin, "Add", &fn), ACL_SUCCESS);
		CHECK_STR((const char *)fn, "Add"); /* the handle starts with the name */
		CHECK_EQ(ACL(aclrtBinaryGetFunction)(bin, "Gelu", &fn), ACL_ERROR_KERNEL_NOT_FOUND);
		CHECK_EQ(ACL(aclrtBinaryUnLoad)(bin), ACL_SUCCESS);
		CHECK_EQ(ACL(aclrtResetDevice)(0), ACL_SUCCESS);
	}
	unlink(good);
	unlink(bad);
	unlink(dup);
}

/*
 * A file with a NUL byte is no text, wherever the NUL is: before, the
 * parser read each line as a C string and ignored what followed a NUL.
 */
static void check_nul_binary(const char *dir)
{
	/* fuzz_kernel_binary's input: a NUL in the comment line */
	static const char nul_comment[] =
		"# ai_task built-in kernel binary3 <u\0rnel_uame> <duration_us>\n"
		"MatMul 2000\n"
		"Add 300\n"
		"LayerNorm 500\n"
		"Softmax 700\n"
		"Welu 400\n";
	static const char nul_kernel[] = "MatMul 2000\nAdd 300\0 and more\n";
	aclrtBinHandle bin = NULL;
	char path[256];

	snprintf(path, sizeof(path), "%s/nul.bin", dir);
	write_bytes(path, nul_comment, sizeof(nul_comment) - 1);
	CHECK_EQ(ACL(aclrtBinaryLoadFromFile)(path, NULL, &bin), ACL_ERROR_PARSE_FILE);
	write_bytes(path, nul_kernel, sizeof(nul_kernel) - 1);
	CHECK_EQ(ACL(aclrtBinaryLoadFromFile)(path, NULL, &bin), ACL_ERROR_PARSE_FILE);
	CHECK(bin == NULL);
	unlink(path);
}

int main(void)
{
	char dir[] = "/tmp/test_acl_errors.XXXXXX", cfg[256];

	if (load_acl())
		CHECK_SKIP("build/lib/libascendcl.so not built");
	if (!mkdtemp(dir))
		CHECK_SKIP("cannot create a temp dir");
	unsetenv("PROFILING_MODE");
	CHECK_EQ(ACL(aclFinalize)(), ACL_ERROR_REPEAT_FINALIZE);
	CHECK_EQ(ACL(aclInit)("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE);
	snprintf(cfg, sizeof(cfg), "%s/acl.json", dir);
	write_file(cfg, "{not json");
	CHECK_EQ(ACL(aclInit)(cfg), ACL_ERROR_PARSE_FILE);
	write_file(cfg, "{}");
	CHECK_EQ(ACL(aclInit)(cfg), ACL_SUCCESS);
	CHECK_EQ(ACL(aclInit)(NULL), ACL_ERROR_REPEAT_INITIALIZE);
	check_no_device();
	check_null_args();
	check_binaries(dir);
	check_nul_binary(dir);
	CHECK_EQ(ACL(aclFinalize)(), ACL_SUCCESS);
	CHECK_EQ(ACL(aclFinalize)(), ACL_ERROR_REPEAT_FINALIZE);
	unlink(cfg);
	rmdir(dir);
	return CHECK_DONE();
}
