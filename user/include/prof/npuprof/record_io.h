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

/**
 * npuprof_api_name() - the name msprof shows for an enum npuprof_api: the
 * public ACL name at level 20000 ("aclrtLaunchKernel"), CANN's runtime
 * profiling name at level 5000 ("KernelLaunch"); NULL for an unknown id.
 */
const char *npuprof_api_name(unsigned int api);

/**
 * npuprof_api_level() - the CANN level of an enum npuprof_api
 * @api:        the API id of a record (struct npuprof_rec_api.api)
 * @level_name: out, may be NULL: msprof's name of the level, "AscendCL"
 *              or "Runtime" (npuprof_level_name()); NULL for an unknown id
 *
 * The level is what CANN's database stores as CANN_API.type and
 * ENUM_API_TYPE (MSP docs/en/user_guide/profile_data_file_references_db.md:
 * 20000 acl, 5000 runtime), what the timeline's CANN events carry as
 * their level and what api_statistic prints in "Level".
 * Return: NPUPROF_LEVEL_ACL (20000) or NPUPROF_LEVEL_RUNTIME (5000); 0 for
 * an id the format does not know (a newer writer's).
 */
unsigned int npuprof_api_level(unsigned int api, const char **level_name);

/**
 * npuprof_level_name() - msprof's name of CANN level @level: "AscendCL"
 * for 20000, "Runtime" for 5000 (the api_statistic "Level" column and the
 * timeline's "level" argument); NULL for any other value.
 */
const char *npuprof_level_name(unsigned int level);

/** npuprof_task_type_name() - msprof "Task Type" text: AI_CORE, MEMCPY, ... */
const char *npuprof_task_type_name(unsigned int task_type);

#endif /* NPUPROF_RECORD_IO_H */
