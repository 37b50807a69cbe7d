// SPDX-License-Identifier: MIT
/* The I/O engine's calls (io_engine.h), each handed to the engine's ops. */
#include <errno.h>

#include "io_engine_int.h"

int io_engine_open(enum io_engine_kind kind, unsigned int entries, struct io_engine **out)
{
	switch (kind) {
	case IO_ENGINE_URING:
		return io_engine_uring_open(entries, out);
	case IO_ENGINE_PWRITE:
		return io_engine_pwrite_open(out);
	}
	return -EINVAL;
}

void io_engine_close(struct io_engine *e)
{
	if (e)
		e->ops->close(e);
}

enum io_engine_kind io_engine_kind(const struct io_engine *e)
{
	return e->kind;
}

int io_engine_poll(struct io_engine *e, int fd, uint64_t user_data)
{
	return e->ops->poll(e, fd, user_data);
}

int io_engine_timeout(struct io_engine *e, uint64_t ns, uint64_t user_data)
{
	return e->ops->timeout(e, ns, user_data);
}

int io_engine_write(struct io_engine *e, int fd, const void *buf, size_t len, uint64_t off,
		    uint64_t user_data)
{
	return e->ops->write(e, fd, buf, len, off, user_data);
}

int io_engine_cancel(struct io_engine *e, uint64_t target, uint64_t user_data)
{
	return e->ops->cancel(e, target, user_data);
}

int io_engine_submit(struct io_engine *e)
{
	return e->ops->submit(e);
}

int io_engine_wait(struct io_engine *e, int64_t timeout_ns)
{
	return e->ops->wait(e, timeout_ns);
}

bool io_engine_peek(struct io_engine *e, struct io_engine_cqe *c)
{
	return e->ops->peek(e, c);
}
