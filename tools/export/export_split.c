// SPDX-License-Identifier: MIT
/*
 * A stream that cuts a CSV into parts at row boundaries (export_split.h).
 * Bytes come in buffers of any size; the first line is kept as the
 * header, newlines are counted with memchr, and when a row is about to
 * begin in a part that holds max_rows rows, the next part is created and
 * the header written into it first.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export_split.h"

int export_split_name(const struct export_split *s, unsigned int k, bool tmp, char *buf,
		      size_t size)
{
	int n = s->sliced ? snprintf(buf, size, "%.*s%u_%s%s%s", (int)s->prefix_len, s->stem, k,
				     s->stem + s->prefix_len, s->ext, tmp ? ".tmp" : "")
		: k ? snprintf(buf, size, "%s_%u%s%s", s->stem, k, s->ext, tmp ? ".tmp" : "")
		  : snprintf(buf, size, "%s%s%s", s->stem, s->ext, tmp ? ".tmp" : "");

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* write(2) all of @len bytes.  Return: 0 or -errno. */
static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int part_create(struct export_split *s, unsigned int k)
{
	char name[NAME_MAX + 1];
	int err = export_split_name(s, k, true, name, sizeof(name));

	if (err)
		return err;
	if (k >= EXPORT_SPLIT_MAX_PARTS)
		return -EFBIG;
	s->fd = s->create(s->ctx, s->outfd, name);
	if (s->fd < 0)
		return s->fd;
	s->parts = k + 1;
	s->rows = 0;
	return 0;
}

/* End the full part, start the next with the header. */
static int next_part(struct export_split *s)
{
	int err;

	err = close(s->fd) ? -errno : 0;
	s->fd = -1; /* closed even on an error: split_close() must not close it again */
	if (err)
		return err;
	err = part_create(s, s->parts);
	return err ? err : write_all(s->fd, s->header, s->header_len);
}

/* Keep @len bytes of the first line. */
static int keep_header(struct export_split *s, const char *p, size_t len)
{
	if (s->header_len + len > s->header_cap) {
		size_t cap = (s->header_len + len) * 2;
		char *h = realloc(s->header, cap);

		if (!h)
			return -ENOMEM;
		s->header = h;
		s->header_cap = cap;
	}
	memcpy(s->header + s->header_len, p, len);
	s->header_len += len;
	return 0;
}

/* The header's bytes at @p (up to its newline).  Return: bytes taken, or -errno. */
static ssize_t take_header(struct export_split *s, const char *p, size_t len)
{
	const char *nl = memchr(p, '\n', len);
	size_t n = nl ? (size_t)(nl - p) + 1 : len;
	int err = keep_header(s, p, n);

	if (!err)
		err = write_all(s->fd, p, n);
	if (err)
		return err;
	s->in_header = !nl;
	s->line_start = nl != NULL;
	return (ssize_t)n;
}

/*
 * Rows at @p: as many as fit in the part (a row that begins here counts
 * when it begins), cutting to a new part first when it is full.
 * Return: bytes taken, or -errno.
 */
static ssize_t take_rows(struct export_split *s, const char *p, size_t len)
{
	size_t n = 0;
	int err;

	if (s->line_start && s->max_rows && s->rows == s->max_rows) {
		err = next_part(s);
		if (err)
			return err;
	}
	while (n < len) {
		const char *nl;

		if (s->line_start) {
			if (s->max_rows && s->rows == s->max_rows)
				break; /* the next row goes to the next part */
			s->rows++;
			s->line_start = false;
		}
		nl = memchr(p + n, '\n', len - n);
		if (!nl) {
			n = len;
			break;
		}
		n = (size_t)(nl - p) + 1;
		s->line_start = true;
	}
	err = write_all(s->fd, p, n);
	return err ? err : (ssize_t)n;
}

static ssize_t split_write(void *cookie, const char *buf, size_t size)
{
	struct export_split *s = cookie;
	size_t done = 0;

	while (!s->err && done < size) {
		ssize_t n = s->in_header ? take_header(s, buf + done, size - done)
					 : take_rows(s, buf + done, size - done);

		if (n < 0)
			s->err = (int)n;
		else
			done += (size_t)n;
	}
	if (s->err) {
		errno = -s->err;
		return -1;
	}
	return (ssize_t)size;
}

static int split_close(void *cookie)
{
	struct export_split *s = cookie;
	int err = s->fd >= 0 && close(s->fd) ? -errno : 0;

	s->fd = -1;
	free(s->header);
	s->header = NULL;
	if (!s->err)
		s->err = err;
	if (s->err) {
		errno = -s->err;
		return EOF;
	}
	return 0;
}

FILE *export_split_open(struct export_split *s)
{
	cookie_io_functions_t io = { .write = split_write, .close = split_close };
	int err;
	FILE *f;

	s->err = 0;
	s->in_header = true;
	s->line_start = true;
	s->header = NULL;
	s->header_len = s->header_cap = 0;
	s->fd = -1;
	err = part_create(s, 0);
	if (err) {
		errno = -err;
		return NULL;
	}
	f = fopencookie(s, "w", io);
	if (!f) {
		err = errno;
		close(s->fd);
		s->fd = -1;
		errno = err;
	}
	return f;
}
