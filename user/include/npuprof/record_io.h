/* SPDX-License-Identifier: MIT */
/*
 * Record callbacks shared by the ring readers, the drain and the slice
 * reader.  A reader hands out records one at a time, in place; the callee
 * must copy what it keeps.
 */
#ifndef NPUPROF_RECORD_IO_H
#define NPUPROF_RECORD_IO_H

#include <stddef.h>
#include <stdint.h>
#include <npuprof/record.h>

/**
 * typedef npuprof_rec_fn - receives one record
 * @ctx: caller's context
 * @rec: the record; rec->size bytes are valid until the callback returns
 *
 * Return: 0 to go on, a negative errno to stop the reader, which then
 * returns that value.
 */
typedef int (*npuprof_rec_fn)(void *ctx, const struct npuprof_rec_hdr *rec);

/** npuprof_api_name() - public ACL name of an enum npuprof_api, or NULL. */
const char *npuprof_api_name(unsigned int api);

/** npuprof_task_type_name() - msprof "Task Type" text: AI_CORE, MEMCPY, ... */
const char *npuprof_task_type_name(unsigned int task_type);

#endif /* NPUPROF_RECORD_IO_H */
