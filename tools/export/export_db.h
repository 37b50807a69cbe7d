/* SPDX-License-Identifier: MIT */
/*
 * msprof_<YYYYmmddHHMMSS>.db: the export's SQLite database, in the tables
 * and columns of CANN's "Profile Data File Reference (DB)" (msprof
 * docs/en/user_guide/profile_data_file_references_db.md; schema 1.2.0)
 * for what npuprof captures.
 */
#ifndef MSPROF_EXPORT_DB_H
#define MSPROF_EXPORT_DB_H

#include "export_model.h"

/* ENUM_API_TYPE ids (CANN's): the level of a CANN_API row. */
enum export_db_api_type {
	EXPORT_DB_API_ACL = 20000,
	EXPORT_DB_API_MODEL = 15000,
	EXPORT_DB_API_NODE = 10000,
	EXPORT_DB_API_COMMUNICATION = 5500,
	EXPORT_DB_API_RUNTIME = 5000,
	EXPORT_DB_API_OP = 50001,
	EXPORT_DB_API_QUEUE = 50002,
	EXPORT_DB_API_TRACE = 50003,
	EXPORT_DB_API_MSTX = 50004,
};

/**
 * export_write_db() - write @m as a database into @fd
 * @fd: an empty regular file made by the caller, open read-write; still
 *      the caller's afterwards
 *
 * Tables (all made, empty when nothing fills them):
 *  - STRING_IDS(id, value): every text column below holds an id of it,
 *    0, 1, 2, ... in the order the texts are first met
 *  - ENUM_API_TYPE(id, name): CANN's nine API levels
 *  - CANN_API: one row per API call; connectionId is the call's position
 *    in the calls' order (xm_calls_next(), from 0), globalTid pid << 32 |
 *    tid, name the API's name, type its level (ENUM_API_TYPE: 20000
 *    AscendCL, 5000 runtime; NULL for an API id this build does not know)
 *  - TASK: one row per task with a start and an end (xm_task.drawn);
 *    globalTaskId is the task's position in the tasks' order (from 0),
 *    connectionId that of the API call that submitted it (NULL when not
 *    linked), taskType the text of xm_task_type(); contextId and modelId
 *    NULL.  Index TaskIndex(startNs, globalTaskId), as CANN's.
 *  - COMPUTE_TASK_INFO: one row per such kernel task: name
 *    (xm_task_name()), opType (xm_op_type()), taskType; the columns of
 *    op info we do not capture (block numbers, formats, shapes...) NULL
 *  - SESSION_TIME_INFO: one row, start_info's and end_info's capture
 *    times (NULL where the file is missing)
 *  - NPU_INFO: one row per device in the data, its chip name NULL (not
 *    captured); HOST_INFO: one row, hostUid NULL, hostName info.json's
 *  - META_DATA: SCHEMA_VERSION (_MAJOR, _MINOR, _MICRO) of the CANN
 *    schema these tables follow
 *
 * Times are the model's, in ns: Unix time when start_info gave the wall
 * clock (export_model_load()).  A task cut by the capture window is left
 * out of TASK and COMPUTE_TASK_INFO, as out of the per-task CSVs: it has
 * one real time at most, and CANN's readers take startNs and endNs as a
 * task's extent (the export's summary counts such tasks).
 *
 * One transaction over prepared statements; the calls and tasks are read
 * in one pass each (never held in memory).
 * Return: 0; -ENOSPC or another -errno of writing @fd; -ENOMEM; -EIO
 * when SQLite fails otherwise (its message is printed); -errno of the
 * model's passes.
 */
int export_write_db(const struct export_model *m, int fd);

#endif /* MSPROF_EXPORT_DB_H */
