/* SPDX-License-Identifier: MIT */
/*
 * What an I/O engine (io_engine.h) implements: one ops table per engine,
 * the engine's own struct starting with struct io_engine.
 */
#ifndef NPUPROF_IO_ENGINE_INT_H
#define NPUPROF_IO_ENGINE_INT_H

#include "io_engine.h"

struct io_engine_ops {
	int (*poll)(struct io_engine *e, int fd, uint64_t user_data);
	int (*timeout)(struct io_engine *e, uint64_t ns, uint64_t user_data);
	int (*write)(struct io_engine *e, int fd, const void *buf, size_t len, uint64_t off,
		     uint64_t user_data);
	int (*cancel)(struct io_engine *e, uint64_t target, uint64_t user_data);
	int (*submit)(struct io_engine *e);
	int (*wait)(struct io_engine *e, int64_t timeout_ns);
	bool (*peek)(struct io_engine *e, struct io_engine_cqe *c);
	void (*close)(struct io_engine *e);
};

struct io_engine {
	const struct io_engine_ops *ops;
	enum io_engine_kind kind;
};

int io_engine_uring_open(unsigned int entries, struct io_engine **out);
int io_engine_pwrite_open(struct io_engine **out);

#endif /* NPUPROF_IO_ENGINE_INT_H */
