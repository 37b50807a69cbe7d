// SPDX-License-Identifier: MIT
/*
 * Description: resolving the recorded functions of a layer in a library's
 * ELF symbols (user/acl_symbols.c), before any probe is placed, gives
 * three distinct answers: every function found (the simulator's
 * build/lib/libascendcl.so: all 19 ACL ones, nothing missing; its
 * build/lib/libruntime.so: all 14 runtime ones, ids 20-33, asked for both
 * layers; each library holds only its own layer, so asking
 * libascendcl.so for the runtime layer alone is -ENOEXEC naming
 * rtSetDevice rtDeviceReset); an older runtime
 * that lacks some (a stand-in with the four every runtime has plus
 * aclrtMalloc and aclrtFree: those six found, the other thirteen named in
 * NPUPROF_API_LIST order, not an error); a library that lacks a function
 * every runtime has (-ENOEXEC, stage SYMBOLS, the three missing ones
 * named) or has no ELF symbols at all (-ENOEXEC, none named).  Each
 * offset found is checked against the code the dynamic loader maps for
 * that name: the file's bytes there are the function's first bytes.  A
 * function defined past the end of the file (the fixture a VM test uses
 * to have the kernel refuse a uprobe) still resolves, to an offset beyond
 * the file's size.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "../../user/acl_symbols.h"

static char build_tests[PATH_MAX]; /* build/tests: this program's directory */

static const char *const all_names[] = {
#define NAME(id, sym, level, name, func) func,
	NPUPROF_API_LIST(NAME)
#undef NAME
};

static int open_built(const char *rel, char *path, size_t size)
{
	if ((size_t)snprintf(path, size, "%s/%s", build_tests, rel) >= size)
		return -1;
	return open(path, O_RDONLY | O_CLOEXEC);
}

static const char *api_name(uint64_t api)
{
	return api >= 1 && api <= ACL_NR_FUNCS ? all_names[api - 1] : "?";
}

/* The bytes at each offset are the code dlopen() maps for that name. */
static void check_offsets(const char *path, int fd, const struct acl_symbols *sym)
{
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	unsigned char file[16];

	CHECK(lib != NULL);
	for (unsigned int i = 0; lib && i < sym->nr_funcs; i++) {
		const void *code = dlsym(lib, api_name(sym->apis[i]));

		CHECK(code != NULL);
		CHECK_EQ(pread(fd, file, sizeof(file), (off_t)sym->offs[i]), sizeof(file));
		if (code && memcmp(file, code, sizeof(file))) {
			fprintf(stderr, "%s: %s: offset %llu is not its code\n", path,
				api_name(sym->apis[i]), (unsigned long long)sym->offs[i]);
			CHECK(0);
		}
	}
	if (lib)
		dlclose(lib);
}

/*
 * Resolve build/tests/@rel into @sym and @e (zeroed first), check that
 * each offset found is its function's code (with @code), and give the
 * file's size in *@size.  Return: what acl_symbols_resolve() returned, or 1 when the file
 * cannot be opened.
 */
static int resolve_layers(const char *rel, unsigned int layers, struct acl_symbols *sym,
			  struct npuprof_error *e, off_t *size, int code)
{
	char path[PATH_MAX];
	struct stat st = { 0 };
	int fd = open_built(rel, path, sizeof(path)), rc;

	memset(e, 0, sizeof(*e));
	if (fd < 0)
		return 1;
	CHECK_EQ(fstat(fd, &st), 0);
	*size = st.st_size;
	rc = acl_symbols_resolve(fd, layers, sym, e);
	if (!rc && code)
		check_offsets(path, fd, sym);
	close(fd);
	return rc;
}

/* resolve_layers() of the ACL layer, what a libascendcl.so holds. */
static int resolve_built(const char *rel, struct acl_symbols *sym, struct npuprof_error *e,
			 off_t *size, int code)
{
	return resolve_layers(rel, NPUPROF_LAYER_ACL, sym, e, size, code);
}

static void check_simulator(void)
{
	struct npuprof_error e;
	struct acl_symbols sym;
	off_t size;
	int rc = resolve_built("../lib/libascendcl.so", &sym, &e, &size, 1);

	if (rc == 1)
		CHECK_SKIP("build/lib/libascendcl.so not built");
	CHECK_EQ(rc, 0);
	CHECK_EQ(sym.layers, NPUPROF_LAYER_ACL);
	CHECK_EQ(sym.nr_funcs, 19);
	CHECK_STR(sym.missing, "");
	for (unsigned int i = 0; i < sym.nr_funcs; i++)
		CHECK_EQ(sym.apis[i], i + 1); /* NPUPROF_API_LIST order */
	CHECK_EQ(e.stage, NPUPROF_STAGE_NONE);
	/* both layers asked for: libascendcl.so still holds the ACL one only */
	CHECK_EQ(resolve_layers("../lib/libascendcl.so", NPUPROF_LAYER_ACL | NPUPROF_LAYER_RUNTIME,
				&sym, &e, &size, 0), 0);
	CHECK_EQ(sym.layers, NPUPROF_LAYER_ACL);
	CHECK_EQ(sym.nr_funcs, 19);
	CHECK_EQ(resolve_layers("../lib/libascendcl.so", NPUPROF_LAYER_RUNTIME, &sym, &e, &size, 0),
		 -ENOEXEC);
	CHECK_EQ(e.stage, NPUPROF_STAGE_SYMBOLS);
	CHECK_STR(e.functions, "rtSetDevice rtDeviceReset");
}

/* libruntime.so: the 14 rt* functions, ids 20..33, at their code. */
static void check_runtime(void)
{
	struct npuprof_error e;
	struct acl_symbols sym;
	off_t size;
	int rc = resolve_layers("../lib/libruntime.so", NPUPROF_LAYER_ACL | NPUPROF_LAYER_RUNTIME,
				&sym, &e, &size, 1);

	if (rc == 1)
		CHECK_SKIP("build/lib/libruntime.so not built");
	CHECK_EQ(rc, 0);
	CHECK_EQ(sym.layers, NPUPROF_LAYER_RUNTIME);
	CHECK_EQ(sym.nr_funcs, 14);
	CHECK_STR(sym.missing, "");
	for (unsigned int i = 0; i < sym.nr_funcs; i++)
		CHECK_EQ(sym.apis[i], i + 20);
	CHECK_EQ(e.stage, NPUPROF_STAGE_NONE);
	/* the ACL layer alone: no aclInit & co. there */
	CHECK_EQ(resolve_layers("../lib/libruntime.so", NPUPROF_LAYER_ACL, &sym, &e, &size, 0),
		 -ENOEXEC);
	CHECK_STR(e.functions, "aclInit aclFinalize aclrtSetDevice aclrtResetDevice");
}

static void check_partial(void)
{
	static const unsigned int found[] = { NPUPROF_API_ACL_INIT, NPUPROF_API_ACL_FINALIZE,
					      NPUPROF_API_RT_SET_DEVICE, NPUPROF_API_RT_RESET_DEVICE,
					      NPUPROF_API_RT_MALLOC, NPUPROF_API_RT_FREE };
	struct npuprof_error e;
	struct acl_symbols sym;
	off_t size;

	CHECK_EQ(resolve_built("fixtures/libacl_partial.so", &sym, &e, &size, 1), 0);
	CHECK_EQ(sym.nr_funcs, 6);
	for (unsigned int i = 0; i < 6 && i < sym.nr_funcs; i++)
		CHECK_EQ(sym.apis[i], found[i]);
	CHECK_STR(sym.missing,
		  "aclrtCreateStream aclrtDestroyStream aclrtMemcpy aclrtMemcpyAsync "
		  "aclrtLaunchKernel aclrtBinaryGetFunction aclopExecuteV2 aclrtSynchronizeStream "
		  "aclrtSynchronizeDevice aclrtRecordEvent aclrtCreateEvent aclrtDestroyEvent "
		  "aclrtBinaryLoadFromFile");
	CHECK_EQ(e.stage, NPUPROF_STAGE_NONE);
}

static void check_required_missing(void)
{
	struct npuprof_error e;
	struct acl_symbols sym;
	off_t size;

	CHECK_EQ(resolve_built("fixtures/libacl_required.so", &sym, &e, &size, 1), -ENOEXEC);
	CHECK_EQ(e.stage, NPUPROF_STAGE_SYMBOLS);
	CHECK_EQ(e.err, -ENOEXEC);
	CHECK_STR(e.functions, "aclFinalize aclrtSetDevice aclrtResetDevice");
}

/* A file that is no ELF: -ENOEXEC, no function to name. */
static void check_not_elf(void)
{
	char path[] = "/tmp/test_acl_symbols.XXXXXX";
	struct npuprof_error e = { 0 };
	struct acl_symbols sym;
	int fd = mkstemp(path);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK_EQ(write(fd, "not an ELF file\n", 16), 16);
	CHECK_EQ(acl_symbols_resolve(fd, NPUPROF_LAYER_ACL, &sym, &e), -ENOEXEC);
	CHECK_EQ(e.stage, NPUPROF_STAGE_SYMBOLS);
	CHECK_STR(e.functions, "");
	close(fd);
	unlink(path);
}

/* A function past the end of the file still resolves, beyond its size. */
static void check_past_end(void)
{
	struct npuprof_error e;
	struct acl_symbols sym;
	off_t size = 0;

	memset(&sym, 0, sizeof(sym));
	CHECK_EQ(resolve_built("fixtures/libacl_pastend.so", &sym, &e, &size, 0), 0);
	CHECK_EQ(sym.nr_funcs, 5);
	CHECK_EQ(sym.apis[4], NPUPROF_API_RT_MALLOC);
	CHECK(sym.offs[4] > (uint64_t)size);
}

int main(void)
{
	ssize_t n = readlink("/proc/self/exe", build_tests, sizeof(build_tests) - 1);

	if (n < 0)
		CHECK_SKIP("no /proc/self/exe");
	build_tests[n] = '\0';
	dirname(build_tests);
	check_simulator();
	check_runtime();
	check_partial();
	check_required_missing();
	check_not_elf();
	check_past_end();
	return CHECK_DONE();
}
