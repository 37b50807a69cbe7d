// SPDX-License-Identifier: MIT
/*
 * Not a test: the app tests/e2e/hostile_names.sh launches under msprof.
 * It names itself "names<ff><01>" (prctl PR_SET_NAME), writes a kernel
 * binary whose kernels are the six names of issue 6 (Mat"Mul, back\slash,
 * x,y, <01>ctl, bad<ff><fe>utf, n<c3><a4>me; 100 us each), and for
 * SECONDS seconds, every 50 ms, looks each kernel up (so the API records
 * of the window carry the names too), launches it and synchronises the
 * stream.  Only kernel tasks reach the device.
 *
 *   helper_names_app SECONDS
 *
 * Exit 0 when every ACL call succeeded, 2 on bad arguments, 3 otherwise
 * (the failing call named on stderr).
 */
#include <acl/acl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static const char *const names[] = {
	"Mat\"Mul", "back\\slash", "x,y", "\x01" "ctl", "bad\xff\xfeutf", "n\xc3\xa4me",
};
#define N_NAMES (sizeof(names) / sizeof(names[0]))

static int ok(aclError ret, const char *what)
{
	if (ret != ACL_SUCCESS)
		fprintf(stderr, "helper_names_app: %s: error %d\n", what, (int)ret);
	return ret == ACL_SUCCESS;
}

/* The kernel binary in a fresh file; @path gets its name.  0 or -1. */
static int write_binary(char *path, size_t size)
{
	FILE *f;
	size_t i;
	int fd;

	snprintf(path, size, "/tmp/names_kernels_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		return -1;
	for (i = 0; i < N_NAMES; i++)
		fprintf(f, "%s 100\n", names[i]);
	return fclose(f) ? -1 : 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One round: every kernel looked up and launched, then a synchronize. */
static int round_of_kernels(aclrtBinHandle bin, aclrtStream stream)
{
	aclrtFuncHandle fn;
	size_t i;

	for (i = 0; i < N_NAMES; i++)
		if (!ok(aclrtBinaryGetFunction(bin, names[i], &fn), "aclrtBinaryGetFunction") ||
		    !ok(aclrtLaunchKernel(fn, 1, NULL, 0, stream), "aclrtLaunchKernel"))
			return -1;
	return ok(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream") ? 0 : -1;
}

int main(int argc, char **argv)
{
	aclrtBinHandle bin = NULL;
	aclrtStream stream = NULL;
	char path[64];
	double end;
	int good;

	if (argc != 2 || atoi(argv[1]) <= 0)
		return 2;
	end = now_s() + atoi(argv[1]);
	prctl(PR_SET_NAME, "names\xff\x01", 0, 0, 0);
	if (write_binary(path, sizeof(path)))
		return 3;
	good = ok(aclInit(NULL), "aclInit") && ok(aclrtSetDevice(0), "aclrtSetDevice") &&
	       ok(aclrtCreateStream(&stream), "aclrtCreateStream") &&
	       ok(aclrtBinaryLoadFromFile(path, NULL, &bin), "aclrtBinaryLoadFromFile");
	unlink(path);
	while (good && now_s() < end) {
		good = !round_of_kernels(bin, stream);
		usleep(50000);
	}
	if (bin)
		aclrtBinaryUnLoad(bin);
	if (stream)
		aclrtDestroyStream(stream);
	aclrtResetDevice(0);
	aclFinalize();
	return good ? 0 : 3;
}
