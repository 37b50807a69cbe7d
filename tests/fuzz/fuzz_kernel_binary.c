// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the kernel-binary loader of the simulated runtime
 * (sim/runtime/acl_kernel.c, the text format in its banner).  The file is
 * included so its parser can be called on memory; the rest of the runtime
 * is linked (tests/fuzz/fuzz.mk).
 *
 * Input: the file's bytes.
 *
 * Properties beyond the sanitizers: the loader accepts or answers
 * ACL_ERROR_PARSE_FILE (a file with a NUL byte is not text: rejected);
 * every kernel it accepts has a name of 1..RT_KERNEL_NAME_LEN-1 non-blank bytes,
 * unique, not starting a comment, and a run time of 1..60000000 µs; and
 * the kernels written back in the format load as the same kernels.
 */
#include "../../sim/runtime/acl_kernel.c"

#include "fuzz_util.h"

static aclError load_mem(const void *data, size_t size, struct acl_binary **bin)
{
	FILE *f = fmemopen((void *)data, size, "r");
	aclError ret;

	FUZZ_ASSERT(f != NULL);
	*bin = NULL;
	ret = parse_binary(f, bin);
	fclose(f);
	return ret;
}

static void check_kernel(const struct acl_binary *bin, unsigned int i)
{
	const struct rt_kernel_stub *k = &bin->kernels[i];
	size_t len = strnlen(k->name, sizeof(k->name));

	FUZZ_ASSERT(len >= 1 && len < sizeof(k->name));
	FUZZ_ASSERT(k->name[0] != '#');
	for (size_t j = 0; j < len; j++)
		FUZZ_ASSERT(!isspace((unsigned char)k->name[j]));
	FUZZ_ASSERT(k->duration_ns % 1000 == 0);
	FUZZ_ASSERT(k->duration_ns >= 1000 && k->duration_ns <= KERNEL_MAX_US * 1000);
	for (unsigned int j = 0; j < i; j++)
		FUZZ_ASSERT(strcmp(bin->kernels[j].name, k->name) != 0);
}

/* Write @bin back in the text format and load that: the same kernels. */
static void check_round_trip(const struct acl_binary *bin)
{
	struct acl_binary *again;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	FUZZ_ASSERT(f != NULL);
	fprintf(f, "# written back\n");
	for (unsigned int i = 0; i < bin->nr_kernels; i++)
		fprintf(f, "%s %llu\n", bin->kernels[i].name,
			(unsigned long long)(bin->kernels[i].duration_ns / 1000));
	FUZZ_ASSERT(fclose(f) == 0);
	FUZZ_ASSERT(load_mem(text, len, &again) == ACL_SUCCESS);
	FUZZ_ASSERT(again->nr_kernels == bin->nr_kernels);
	for (unsigned int i = 0; i < bin->nr_kernels; i++) {
		FUZZ_ASSERT(!strcmp(again->kernels[i].name, bin->kernels[i].name));
		FUZZ_ASSERT(again->kernels[i].duration_ns == bin->kernels[i].duration_ns);
	}
	free(again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct acl_binary *bin;
	aclError ret;

	if (!size)
		return 0; /* fmemopen wants a buffer of at least one byte */
	ret = load_mem(data, size, &bin);
	FUZZ_ASSERT(ret == ACL_SUCCESS || ret == ACL_ERROR_PARSE_FILE);
	if (memchr(data, '\0', size))
		FUZZ_ASSERT(ret == ACL_ERROR_PARSE_FILE);
	if (ret != ACL_SUCCESS)
		return 0;
	FUZZ_ASSERT(bin->nr_kernels >= 1);
	for (unsigned int i = 0; i < bin->nr_kernels; i++)
		check_kernel(bin, i);
	check_round_trip(bin);
	free(bin);
	return 0;
}
