// SPDX-License-Identifier: MIT
/*
 * Names of the enumerations in include/npuprof/record.h that people read:
 * the name msprof shows for an API and its CANN level, and the msprof
 * "Task Type" text of a device task.  The tables are built from the record format itself
 * (NPUPROF_API_LIST), so a new API id gets its name with no second list to
 * keep in step.
 */
#include <stddef.h>

#include <npuprof/record_io.h>

static const char *const api_names[NPUPROF_API_MAX] = {
#define API_NAME(id, sym, level, name, func) [id] = name,
	NPUPROF_API_LIST(API_NAME)
#undef API_NAME
};

static const unsigned short api_levels[NPUPROF_API_MAX] = {
#define API_LEVEL(id, sym, level, name, func) [id] = level,
	NPUPROF_API_LIST(API_LEVEL)
#undef API_LEVEL
};

/*
 * msprof prints AI_CORE for compute kernels and MEMCPY / EVENT_RECORD for
 * the runtime's own task kinds.  A stream synchronize is not a device task
 * in CANN; the simulated driver reports it as one, so it gets a name that
 * says what it is rather than borrowing a CANN task type.
 */
static const char *const task_type_names[] = {
	[NPUPROF_TT_KERNEL] = "AI_CORE",
	[NPUPROF_TT_MEMCPY] = "MEMCPY",
	[NPUPROF_TT_EVENT_RECORD] = "EVENT_RECORD",
	[NPUPROF_TT_SYNC] = "STREAM_SYNC",
};

const char *npuprof_api_name(unsigned int api)
{
	if (api >= NPUPROF_API_MAX)
		return NULL;
	return api_names[api]; /* NULL for the unused id 0 */
}

unsigned int npuprof_api_level(unsigned int api, const char **level_name)
{
	unsigned int level = api < NPUPROF_API_MAX ? api_levels[api] : 0;

	if (level_name)
		*level_name = npuprof_level_name(level);
	return level;
}

/* msprof's words for a level (hiascend "api_statistic", atlasprofiling_16_0063). */
const char *npuprof_level_name(unsigned int level)
{
	switch (level) {
	case NPUPROF_LEVEL_ACL:
		return "AscendCL";
	case NPUPROF_LEVEL_RUNTIME:
		return "Runtime";
	default:
		return NULL;
	}
}

const char *npuprof_task_type_name(unsigned int task_type)
{
	if (task_type >= sizeof(task_type_names) / sizeof(task_type_names[0]))
		return NULL;
	return task_type_names[task_type];
}
