/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the libFuzzer targets (tests/fuzz/fuzz_*.c): a byte
 * cursor over the fuzz input, a scratch directory on tmpfs, and slice
 * files (include/npuprof/slice.h) made from fuzzed record bytes.
 *
 * A target that finds a bug aborts (FUZZ_ASSERT) or trips a sanitizer;
 * the crashing input then becomes a unit test in tests/unit.
 */
#ifndef NPUPROF_FUZZ_UTIL_H
#define NPUPROF_FUZZ_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>
#include <sanitizer/common_interface_defs.h>

#include "tmpdir.h"

/*
 * A broken property: a crash, reported through the sanitizer's report
 * file so it shows even when libFuzzer runs with -close_fd_mask.
 */
#define FUZZ_ASSERT(cond)                                                                \
	do {                                                                             \
		if (!(cond)) {                                                           \
			__sanitizer_report_error_summary("property failed: " __FILE__ ":" \
							 FUZZ_STR(__LINE__) ": " #cond);  \
			__sanitizer_print_stack_trace();                                 \
			abort();                                                         \
		}                                                                        \
	} while (0)
#define FUZZ_STR(x) FUZZ_STR_(x)
#define FUZZ_STR_(x) #x

/** struct fuzz_in - what is left of the fuzz input */
struct fuzz_in {
	const uint8_t *p;
	size_t left;
};

/* Next byte, 0 once the input is used up. */
static inline uint8_t fuzz_u8(struct fuzz_in *in)
{
	uint8_t b = 0;

	if (in->left) {
		b = *in->p++;
		in->left--;
	}
	return b;
}

/* Next little-endian 16-bit value, missing bytes read as 0. */
static inline uint16_t fuzz_u16(struct fuzz_in *in)
{
	uint16_t lo = fuzz_u8(in);

	return (uint16_t)(lo | (uint16_t)fuzz_u8(in) << 8);
}

/*
 * A section of the input: the next @len bytes (fewer at the end).  *@out
 * points into the input.  Return: the bytes taken.
 */
static inline size_t fuzz_take(struct fuzz_in *in, size_t len, const uint8_t **out)
{
	if (len > in->left)
		len = in->left;
	*out = in->p;
	in->p += len;
	in->left -= len;
	return len;
}

/* A length-prefixed section: u16 length, then that many bytes. */
static inline size_t fuzz_section(struct fuzz_in *in, const uint8_t **out)
{
	return fuzz_take(in, fuzz_u16(in), out);
}

static const char *fuzz_dir_made;

static void fuzz_dir_remove(void)
{
	tmpdir_remove(fuzz_dir_made);
}

/*
 * A fresh directory for the target's files (@dir, PATH_MAX bytes), on
 * tmpfs when there is one: the targets write and read files on every
 * run.  Removed with all it holds when the fuzzer exits; aborts when it
 * cannot be made.
 */
static inline void fuzz_mkdtemp(char *dir, size_t size, const char *tag)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");

	snprintf(dir, size, "%s/npuprof_fuzz_%s_XXXXXX", base ? base : "/tmp", tag);
	if (!mkdtemp(dir))
		abort();
	fuzz_dir_made = dir;
	atexit(fuzz_dir_remove);
}

static inline int fuzz_write_file(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	if (len)
		n = write(fd, data, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

/*
 * How fuzzed record bytes become a slice file.
 * @chunk:   decoded bytes per zstd frame (0: one frame); frames split
 *           records anywhere, as a flush of the drain may
 * @cut:     bytes cut from the end of the file (a crash mid-write)
 * @flip_at: when @flip, the compressed byte at @flip_at (mod size) is
 *           XORed with @flip (a corrupt frame)
 */
struct fuzz_slice_shape {
	size_t chunk;
	size_t cut;
	size_t flip_at;
	uint8_t flip;
};

/* Read a shape from three input bytes. */
static inline struct fuzz_slice_shape fuzz_slice_shape(struct fuzz_in *in)
{
	struct fuzz_slice_shape s = { 0 };
	uint8_t b = fuzz_u8(in);

	s.chunk = (size_t)(b & 0x3f) * 64;
	if (b & 0x40)
		s.cut = fuzz_u8(in);
	if (b & 0x80) {
		s.flip_at = fuzz_u8(in);
		s.flip = fuzz_u8(in) | 1;
	}
	return s;
}

/*
 * Write @path: @data (@len decoded bytes) compressed as @shape says.
 * Return: 0 or a negative errno.
 */
static inline int fuzz_write_slice(const char *path, const uint8_t *data, size_t len,
				   const struct fuzz_slice_shape *shape)
{
	size_t chunk = shape->chunk ? shape->chunk : len ? len : 1;
	size_t cap = ZSTD_compressBound(len) + (len / chunk + 1) * 32, out = 0, pos = 0;
	uint8_t *buf = malloc(cap);
	int err;

	if (!buf)
		return -ENOMEM;
	do {
		size_t n = len - pos < chunk ? len - pos : chunk;
		size_t z = ZSTD_compress(buf + out, cap - out, data + pos, n, 1);

		if (ZSTD_isError(z)) {
			free(buf);
			return -EIO;
		}
		out += z;
		pos += n;
	} while (pos < len);
	out -= shape->cut < out ? shape->cut : out;
	if (shape->flip && out)
		buf[shape->flip_at % out] ^= shape->flip;
	err = fuzz_write_file(path, buf, out);
	free(buf);
	return err;
}

/* Send stdout to /dev/null: the code under test talks a lot. */
static inline void fuzz_quiet_stdout(void)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		fflush(stdout);
		dup2(fd, 1);
		close(fd);
	}
}

#endif /* NPUPROF_FUZZ_UTIL_H */
