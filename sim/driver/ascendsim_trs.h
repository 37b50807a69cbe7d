/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ascendsim.ko, the simulator as the real Ascend host driver presents
 * itself (npusim_tp.h says how the three modules are built): what the
 * engine (npusim_stream.c, npusim_main.c) calls, and the tracepoints.
 * Included only through npusim_tp.h with NPUSIM_FLAVOUR_ASCEND defined.
 *
 * The engine's four idealised task events fire nothing here (the real
 * driver never sees a task start or end); instead ascendsim_trs.c fires
 * trs_chan:sqe when an SQE reaches the hardware queue and
 * trs_core:logic_cqe and trs_chan:cqe when a task that asked for a
 * completion ends, under the per-device procfs switches.
 */
#ifndef ASCENDSIM_TRS_H
#define ASCENDSIM_TRS_H

#include <linux/types.h>
#include <npuprof/drv/trs_tp.h>

#include "trs_chan_trace.h"
#include "trs_core_trace.h"

/* The prototypes are those of the backend header, which npuprof reads. */
static_assert(__same_type(&register_trace_sqe,
			  int (*)(void (*)(void *, TRS_CHAN_SQE_PROBE_PARAMS),
				  void *)));
static_assert(__same_type(&register_trace_cqe,
			  int (*)(void (*)(void *, TRS_CHAN_CQE_PROBE_PARAMS),
				  void *)));
static_assert(__same_type(&register_trace_logic_cqe,
			  int (*)(void (*)(void *,
					   TRS_CORE_LOGIC_CQE_PROBE_PARAMS),
				  void *)));

/* The engine's idealised events: no such tracepoints in this driver. */
static inline void npusim_tp_submit(u32 tgid, u32 tid, u32 device, u32 stream,
				    u32 task_id, u32 task_type, u64 dev_ts,
				    u64 arg, const char *name) {}
static inline void npusim_tp_start(u32 tgid, u32 tid, u32 device, u32 stream,
				   u32 task_id, u32 task_type, u64 dev_ts,
				   u64 arg, const char *name) {}
static inline void npusim_tp_end(u32 tgid, u32 tid, u32 device, u32 stream,
				 u32 task_id, u32 task_type, u64 dev_ts,
				 u64 arg, const char *name) {}
static inline void npusim_tp_sync(u32 tgid, u32 tid, u32 device, u32 stream,
				  u32 task_id, u32 task_type, u64 dev_ts,
				  u64 arg, const char *name) {}

/**
 * npusim_trs_init() - procfs views and switches of devices 0..@devices-1
 * Return: 0 or -ENOMEM.
 */
int npusim_trs_init(unsigned int devices);

/** npusim_trs_exit() - remove them; no stream is left, no work pending. */
void npusim_trs_exit(void);

/**
 * npusim_trs_sq_add() - a stream (and its SQ, same id) was created by
 * current, which the stream file names as its owner
 * Return: 0 or -ENOMEM.
 */
int npusim_trs_sq_add(u32 device, u32 stream);

/** npusim_trs_sq_del() - the stream is gone. */
void npusim_trs_sq_del(u32 device, u32 stream);

/**
 * npusim_trs_send() - a task was submitted (process context, may sleep):
 * trs_chan:sqe now (kio SQ), from a kernel worker 1-4 ms later (uio_t),
 * or never (uio_d)
 * @type: NPUSIM_TASK_*
 */
void npusim_trs_send(u32 device, u32 stream, u32 task_id, u32 type);

/**
 * npusim_trs_complete() - a task ended on the device (any context): for a
 * task that asked for a completion (an event record), trs_core:logic_cqe
 * and trs_chan:cqe from a kernel worker, carrying @dev_ts, the device
 * counter at its end
 */
void npusim_trs_complete(u32 device, u32 stream, u32 task_id, u32 type,
			 u64 dev_ts);

#endif /* ASCENDSIM_TRS_H */
