// SPDX-License-Identifier: MIT
/*
 * Kernels of the simulated AscendCL: the text "kernel binary" format
 * (aclrtBinaryLoadFromFile), function lookup, and the two ways to run a
 * kernel, aclrtLaunchKernel and single-op execution with its built-in op
 * duration table; both hand the runtime's rtKernelLaunch a copy of the
 * kernel (struct rt_kernel_stub), so a binary unloaded meanwhile cannot
 * pull the name from under the launch.
 *
 * Kernel binary format, one kernel per line:
 *     <kernel_name> <duration_us>
 * blank-separated; name 1..31 non-blank characters; duration a whole
 * number of microseconds, 1..60000000.  Blank lines and lines starting
 * with '#' (after blanks) are comments.  A NUL byte anywhere, comments
 * included, makes the file no text and the load fails.  Example:
 *     # name   us
 *     MatMul   2000
 *     Add      300
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"

#define KERNEL_MAX_US 60000000ULL

/* struct acl_binary - what an aclrtBinHandle points to. */
struct acl_binary {
	struct acl_binary *next;
	unsigned int nr_kernels;
	struct rt_kernel_stub kernels[];
};

/* Loaded binaries, process-wide until unloaded or aclFinalize. */
static struct acl_binary *acl_binaries;
static pthread_mutex_t acl_binaries_lock = PTHREAD_MUTEX_INITIALIZER;

/* Built-in run time of each op type aclopExecuteV2 knows (acl_op.h). */
static const struct {
	const char *type;
	uint32_t us;
} op_table[] = {
	{ "Add", 300 },	      { "Sub", 300 },	       { "Mul", 300 },
	{ "RealDiv", 300 },   { "Relu", 200 },	       { "Gelu", 400 },
	{ "Cast", 100 },      { "Transpose", 250 },    { "ReduceSum", 350 },
	{ "ReduceMean", 350 }, { "Softmax", 700 },     { "SoftmaxV2", 700 },
	{ "LayerNorm", 500 }, { "MatMul", 2000 },      { "MatMulV2", 2000 },
	{ "BatchMatMul", 2500 }, { "Conv2D", 3000 },
};

/*
 * Parse one line into @k.  Return: 1 for a kernel, 0 for a comment or
 * blank line, -EINVAL for anything else.
 */
static int parse_line(char *line, struct rt_kernel_stub *k)
{
	char *p = line, *name, *end;
	unsigned long long us;
	size_t len;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	name = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	len = (size_t)(p - name);
	if (len >= RT_KERNEL_NAME_LEN)
		return -EINVAL;
	while (isspace((unsigned char)*p) && *p != '\n')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	us = strtoull(p, &end, 10);
	if (errno || us == 0 || us > KERNEL_MAX_US)
		return -EINVAL;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	memset(k->name, 0, sizeof(k->name));
	memcpy(k->name, name, len);
	k->duration_ns = us * 1000;
	return 1;
}

static int has_kernel(const struct rt_kernel_stub *ks, unsigned int n, const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(ks[i].name, name))
			return 1;
	return 0;
}

/* Append @k to the growing array *@ks of *@n entries; -ENOMEM. */
static int push_kernel(struct rt_kernel_stub **ks, unsigned int *n, const struct rt_kernel_stub *k)
{
	struct rt_kernel_stub *grown;

	if ((*n & (*n - 1)) == 0) { /* grow at 0, 1, 2, 4, 8, ... */
		grown = realloc(*ks, (*n ? *n * 2 : 1) * sizeof(**ks));
		if (!grown)
			return -ENOMEM;
		*ks = grown;
	}
	(*ks)[(*n)++] = *k;
	return 0;
}

/* Read every kernel of @f into a new binary. */
static aclError parse_binary(FILE *f, struct acl_binary **out)
{
	struct rt_kernel_stub *ks = NULL, k;
	struct acl_binary *bin = NULL;
	unsigned int n = 0;
	aclError ret = ACL_SUCCESS;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int r;

	while (ret == ACL_SUCCESS && (len = getline(&line, &cap, f)) >= 0) {
		/* the parser sees a C string: a NUL would hide the rest of the line */
		r = memchr(line, '\0', (size_t)len) ? -EINVAL : parse_line(line, &k);
		if (r < 0 || (r > 0 && has_kernel(ks, n, k.name)))
			ret = ACL_ERROR_PARSE_FILE;
		else if (r > 0 && push_kernel(&ks, &n, &k))
			ret = ACL_ERROR_BAD_ALLOC;
	}
	if (ret == ACL_SUCCESS && ferror(f))
		ret = ACL_ERROR_INVALID_FILE;
	if (ret == ACL_SUCCESS && n == 0)
		ret = ACL_ERROR_PARSE_FILE;
	if (ret == ACL_SUCCESS) {
		bin = calloc(1, sizeof(*bin) + n * sizeof(*ks));
		if (!bin) {
			ret = ACL_ERROR_BAD_ALLOC;
		} else {
			bin->nr_kernels = n;
			memcpy(bin->kernels, ks, n * sizeof(*ks));
			*out = bin;
		}
	}
	free(line);
	free(ks);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryLoadFromFile(const char *binPath,
						     aclrtBinaryLoadOptions *options,
						     aclrtBinHandle *binHandle)
{
	struct acl_binary *bin = NULL;
	aclError ret;
	int32_t dev;
	FILE *f;

	if (!binPath || !binHandle || (options && options->numOpt && !options->options))
		return ACL_ERROR_INVALID_PARAM;
	f = fopen(binPath, "re");
	if (!f)
		return ACL_ERROR_INVALID_FILE;
	ret = parse_binary(f, &bin);
	fclose(f);
	if (ret != ACL_SUCCESS)
		return ret;
	/* a binary is loaded onto the current device: none, no load */
	if (rtGetDevice(&dev) != RT_ERROR_NONE) {
		free(bin);
		return ACL_ERROR_RT_CONTEXT_NULL;
	}
	pthread_mutex_lock(&acl_binaries_lock);
	bin->next = acl_binaries;
	acl_binaries = bin;
	pthread_mutex_unlock(&acl_binaries_lock);
	*binHandle = bin;
	return ACL_SUCCESS;
}

/* Take @h off the list of loaded binaries. Return: it, or NULL (unknown). */
static struct acl_binary *binary_remove(const void *h)
{
	struct acl_binary **p, *found = NULL;

	pthread_mutex_lock(&acl_binaries_lock);
	for (p = &acl_binaries; *p; p = &(*p)->next) {
		if (*p == h) {
			found = *p;
			*p = found->next;
			break;
		}
	}
	pthread_mutex_unlock(&acl_binaries_lock);
	return found;
}

void acl_binaries_release(void)
{
	struct acl_binary *b;

	pthread_mutex_lock(&acl_binaries_lock);
	while ((b = acl_binaries)) {
		acl_binaries = b->next;
		free(b);
	}
	pthread_mutex_unlock(&acl_binaries_lock);
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle)
{
	struct acl_binary *b;

	if (!binHandle)
		return ACL_ERROR_INVALID_PARAM;
	b = binary_remove(binHandle);
	if (!b)
		return ACL_ERROR_INVALID_PARAM;
	free(b);
	return ACL_SUCCESS;
}

/* The loaded binary @h, or NULL; acl_binaries_lock held. */
static struct acl_binary *binary_find_locked(const void *h)
{
	struct acl_binary *b;

	for (b = acl_binaries; b && b != h; b = b->next)
		;
	return b;
}

ACL_FUNC_VISIBILITY aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle,
						    const char *kernelName,
						    aclrtFuncHandle *funcHandle)
{
	struct acl_binary *b;
	aclError ret = ACL_ERROR_INVALID_PARAM;
	unsigned int i;

	if (!binHandle || !kernelName || !funcHandle)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&acl_binaries_lock);
	b = binary_find_locked(binHandle);
	if (b) {
		ret = ACL_ERROR_KERNEL_NOT_FOUND;
		for (i = 0; i < b->nr_kernels; i++) {
			if (!strcmp(b->kernels[i].name, kernelName)) {
				*funcHandle = &b->kernels[i];
				ret = ACL_SUCCESS;
				break;
			}
		}
	}
	pthread_mutex_unlock(&acl_binaries_lock);
	return ret;
}

/*
 * Copy the loaded kernel @func points to into @out.
 * Return: 0, or -1 when @func is no kernel of a loaded binary.
 */
static int kernel_copy(const void *func, struct rt_kernel_stub *out)
{
	const struct acl_binary *b;
	int ret = -1;

	pthread_mutex_lock(&acl_binaries_lock);
	for (b = acl_binaries; b && ret; b = b->next) {
		const struct rt_kernel_stub *first = b->kernels, *last = first + b->nr_kernels;
		const struct rt_kernel_stub *k = func;

		/* Compare as integers: the handle may point anywhere. */
		if ((uintptr_t)k >= (uintptr_t)first && (uintptr_t)k < (uintptr_t)last &&
		    ((uintptr_t)k - (uintptr_t)first) % sizeof(*k) == 0) {
			*out = *k;
			ret = 0;
		}
	}
	pthread_mutex_unlock(&acl_binaries_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchKernel(aclrtFuncHandle funcHandle, uint32_t numBlocks,
					       const void *argsData, size_t argsSize,
					       aclrtStream stream)
{
	struct rt_kernel_stub k;

	if (!funcHandle || numBlocks == 0 || (!argsData && argsSize) || argsSize > UINT32_MAX)
		return ACL_ERROR_INVALID_PARAM;
	if (kernel_copy(funcHandle, &k))
		return ACL_ERROR_INVALID_PARAM;
	return rtKernelLaunch(&k, numBlocks, (void *)argsData, (uint32_t)argsSize, NULL, stream);
}

/* Run time of op @type in µs, or 0 when the table lacks it. */
static uint32_t op_duration_us(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(op_table) / sizeof(op_table[0]); i++)
		if (!strcmp(op_table[i].type, type))
			return op_table[i].us;
	return 0;
}

/* A tensor list of @n entries is usable: arrays present, entries non-NULL. */
static int tensors_ok(int n, aclTensorDesc *desc[], aclDataBuffer *buf[])
{
	int i;

	if (n < 0)
		return 0;
	if (n == 0)
		return 1;
	if (!desc || !buf)
		return 0;
	for (i = 0; i < n; i++)
		if (!desc[i] || !buf[i])
			return 0;
	return 1;
}

ACL_FUNC_VISIBILITY aclError aclopExecuteV2(const char *opType, int numInputs,
					    aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
					    int numOutputs, aclTensorDesc *outputDesc[],
					    aclDataBuffer *outputs[], aclopAttr *attr,
					    aclrtStream stream)
{
	struct rt_kernel_stub k = { .name = "" };
	uint32_t us;

	(void)attr;
	if (!opType || !tensors_ok(numInputs, inputDesc, inputs) ||
	    !tensors_ok(numOutputs, outputDesc, outputs))
		return ACL_ERROR_INVALID_PARAM;
	us = op_duration_us(opType);
	if (!us)
		return ACL_ERROR_OP_NOT_FOUND;
	/* the table's names are all shorter than a kernel name */
	strncpy(k.name, opType, sizeof(k.name) - 1);
	k.duration_ns = (uint64_t)us * 1000;
	return rtKernelLaunch(&k, 1, NULL, 0, NULL, stream);
}
