/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The simulator's four task events, fired through the tracepoints of the
 * driver being built.  The same sources build two modules that are never
 * loaded together (both create /dev/davinciN):
 *
 *   npusim.ko   tracepoints of backend "npusim" (npusim_trace.h,
 *               include/npuprof/drv/npusim_tp.h), with NPUSIM_IOC_CLOCK
 *   npustub.ko  NPUSIM_FLAVOUR_STUB defined (the npustub_*.c wrappers):
 *               tracepoints of backend "npustub" (npustub_trace.h,
 *               include/npuprof/drv/npustub_tp.h), no clock ioctl
 *   ascendsim.ko  NPUSIM_FLAVOUR_ASCEND defined (ascendsim_*.c): the real
 *               Ascend driver's interfaces instead of task tracepoints
 *               (include/npuprof/drv/trs_tp.h): trs_chan:sqe/cqe and
 *               trs_core:logic_cqe, their procfs switches, stream and
 *               hw_sq views and submit modes (ascendsim_trs.c); the four
 *               npusim_tp_*() calls fire nothing there
 *
 * The engine calls npusim_tp_submit/start/end/sync() with npusim's
 * argument order; each maps it onto its flavour's tracepoint.  Both share
 * the user ABI of sim/include/npusim_ioctl.h otherwise.
 *
 * The file that defines CREATE_TRACE_POINTS before including this one
 * (npusim_stream.c) also checks, at compile time, that the tracepoints'
 * names and prototype are exactly those of the backend header, which is
 * what npuprof.ko attaches to.
 */
#ifndef NPUSIM_TP_H
#define NPUSIM_TP_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/types.h>

#if defined(NPUSIM_FLAVOUR_ASCEND)
#include "ascendsim_trs.h"
#elif defined(NPUSIM_FLAVOUR_STUB)
#include <npuprof/drv/npustub_tp.h>
#define NPUSIM_FLAVOUR_PARAMS NPUSTUB_TP_PROBE_PARAMS
#else
#include <npuprof/drv/npusim_tp.h>
#define NPUSIM_FLAVOUR_PARAMS NPUSIM_TP_PROBE_PARAMS
#endif

#ifndef NPUSIM_FLAVOUR_ASCEND
#ifdef NPUSIM_FLAVOUR_STUB
#include "npustub_trace.h"
#else
#include "npusim_trace.h"
#endif

/* A probe type with the backend's prototype, for the checks below. */
typedef int (*npusim_tp_register_fn)(void (*probe)(void *data,
						   NPUSIM_FLAVOUR_PARAMS),
				     void *data);

/*
 * npusim_tp_EVENT(): fire tracepoint TP (literally named TP_NAME in the
 * backend header) with npusim's arguments.  The name is checked at
 * compile time; the prototype by the static_assert.
 */
#ifdef NPUSIM_FLAVOUR_STUB
/* The pids fit s32 (pid_max); a task without a name passes NULL. */
#define NPUSIM_TP_WRAPPER(event, tp, tp_name)                                \
	static_assert(__same_type(&register_trace_##tp,                      \
				  npusim_tp_register_fn));                   \
	static inline void npusim_tp_##event(u32 tgid, u32 tid, u32 device,  \
					     u32 stream, u32 task_id,        \
					     u32 task_type, u64 dev_ts,      \
					     u64 arg, const char *name)      \
	{                                                                    \
		BUILD_BUG_ON(__builtin_strcmp(#tp, tp_name));                \
		trace_##tp(device, stream, task_id, (u16)task_type,          \
			   (s32)tgid, (s32)tid, name && *name ? name : NULL, \
			   dev_ts, arg);                                     \
	}
NPUSIM_TP_WRAPPER(submit, npustub_sq_submit, NPUSTUB_TP_TASK_SUBMIT)
NPUSIM_TP_WRAPPER(start, npustub_task_exec_begin, NPUSTUB_TP_TASK_START)
NPUSIM_TP_WRAPPER(end, npustub_task_exec_end, NPUSTUB_TP_TASK_END)
NPUSIM_TP_WRAPPER(sync, npustub_sq_sync_done, NPUSTUB_TP_STREAM_SYNC)
#else
#define NPUSIM_TP_WRAPPER(event, tp, tp_name)                                \
	static_assert(__same_type(&register_trace_##tp,                      \
				  npusim_tp_register_fn));                   \
	static inline void npusim_tp_##event(NPUSIM_TP_PROBE_PARAMS)         \
	{                                                                    \
		BUILD_BUG_ON(__builtin_strcmp(#tp, tp_name));                \
		trace_##tp(tgid, tid, device, stream, task_id, task_type,    \
			   dev_ts, arg, name);                               \
	}
NPUSIM_TP_WRAPPER(submit, npusim_task_submit, NPUSIM_TP_TASK_SUBMIT)
NPUSIM_TP_WRAPPER(start, npusim_task_start, NPUSIM_TP_TASK_START)
NPUSIM_TP_WRAPPER(end, npusim_task_end, NPUSIM_TP_TASK_END)
NPUSIM_TP_WRAPPER(sync, npusim_stream_sync, NPUSIM_TP_STREAM_SYNC)
#endif
#undef NPUSIM_TP_WRAPPER

/* The realistic driver's hooks (ascendsim_trs.h): none in these two. */
static inline int npusim_trs_init(unsigned int devices) { return 0; }
static inline void npusim_trs_exit(void) {}
static inline int npusim_trs_sq_add(u32 device, u32 stream) { return 0; }
static inline void npusim_trs_sq_del(u32 device, u32 stream) {}
static inline void npusim_trs_send(u32 device, u32 stream, u32 task_id,
				   u32 type) {}
static inline void npusim_trs_complete(u32 device, u32 stream, u32 task_id,
				       u32 type, u64 dev_ts) {}
#endif /* !NPUSIM_FLAVOUR_ASCEND */

#endif /* NPUSIM_TP_H */
