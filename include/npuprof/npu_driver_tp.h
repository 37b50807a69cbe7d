/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The driver tracepoints npuprof.ko attaches to, and the prototype each
 * must have.  npuprof.ko finds them by name at run time (through the
 * tracepoint module notifier, as LTTng does for module tracepoints), never
 * through link-time symbols, so it loads and runs on a host whose NPU
 * driver is not npusim.ko.  NPUPROF_IOC_GET_TP_STATUS reports which of
 * these names are attached; a driver without them gives no device tasks.
 * The match is by name only: the kernel keeps no prototype with a
 * tracepoint, so a driver that used one of these names with another
 * prototype would break the probe.  The names carry the driver's prefix
 * for that reason; supporting another driver means adding its names and
 * prototype here, as LTTng carries one probe definition per tracepoint.
 *
 * Prototype (TP_PROTO) of all four:
 *   u32 tgid, u32 tid    owner of the task (the submitter), not "current"
 *   u32 device           device id (N of /dev/davinciN)
 *   u32 stream           device stream id
 *   u32 task_id          per-device task id, from 1
 *   u32 task_type        enum npuprof_task_type (include/npuprof/record.h)
 *   u64 dev_ts           device clock count at the event
 *   u64 arg              kernel: requested ns; memcpy: bytes; sync: ns waited
 *   const char *name     kernel name, or "" (at most 31 bytes are kept)
 */
#ifndef NPUPROF_NPU_DRIVER_TP_H
#define NPUPROF_NPU_DRIVER_TP_H

#define NPU_TP_NAME_TASK_SUBMIT "npusim_task_submit"
#define NPU_TP_NAME_TASK_START "npusim_task_start"
#define NPU_TP_NAME_TASK_END "npusim_task_end"
#define NPU_TP_NAME_STREAM_SYNC "npusim_stream_sync"

/* Parameter list of a probe for these tracepoints, after "void *data". */
#define NPU_TP_PROBE_PARAMS                                              \
	u32 tgid, u32 tid, u32 device, u32 stream, u32 task_id,         \
		u32 task_type, u64 dev_ts, u64 arg, const char *name

#endif /* NPUPROF_NPU_DRIVER_TP_H */
