/* SPDX-License-Identifier: MIT */
/*
 * The device-log reader: task begin and end as the device's scheduler
 * logs them (STARS SoC log, profiling channel 50 of libascend_hal.so;
 * ../shared/reference/ascend-driver.md section 2), read in this process
 * and handed to the drain as NPUPROF_REC_TASK records of source
 * NPUPROF_SRC_DEVLOG (NPUPROF_TASK_START and NPUPROF_TASK_END), which land
 * in device_<id>/data like every device's task records.
 *
 * Per device of a window: is channel 50 offered (prof_drv_get_channels)?
 * Start it (prof_drv_start, 20 ms batches, acsq_task and
 * ffts_context_task logs on, no delay), and one reader thread polls the
 * channels and reads them.  Each 64-byte record is decoded (its stream and
 * task id unpacked, ascend_stars_log_ids()), attributed to the process
 * owning its stream (npuprof/stream_owner.h; pid 0 when unknown), timed
 * on the host clock with the device's clock pair taken at start, and put
 * into an in-process ring that the drain reads (its readable fd is an
 * eventfd).
 *
 * Every device gets one outcome (enum npuprof_devlog_outcome), said in
 * one line: we own its log, or why its begin/end times are not captured
 * (the capture then goes on with host-side timing only: submits and API
 * calls).
 *
 * Losses are counted, never silent, per device: records the 4-bit
 * running count (cnt) of the log says are missing (a lower bound: 16
 * missing records look like none), and records the in-process ring had
 * no room for.  Both are the device's "lost" in the drain's ring
 * counters (the drain's "ring full" cause: the device side's buffer or
 * ours), and split in info.json's "taskTiming".
 *
 * Release: a started channel is stopped by npuprof_devlog_stop(), by
 * npuprof_devlog_free() and, for a process that exits without either,
 * by an atexit(3) handler.  A process killed outright cannot stop it; the
 * driver releases its channels when the process's device descriptors
 * close (the HAL's channel belongs to the process that started it), so a
 * crashed msprof does not block the next collector.
 */
#ifndef NPUPROF_DEVLOG_H
#define NPUPROF_DEVLOG_H

#include <stdbool.h>
#include <stdint.h>

#include <npuprof/ascend_hal.h>
#include <npuprof/drain.h>

/* Devices one reader serves. */
#define NPUPROF_DEVLOG_MAX_DEVICES 64

/**
 * enum npuprof_devlog_outcome - what became of one device's log
 * @NPUPROF_DEVLOG_OWNED:      we read it ("device log (channel 50)")
 * @NPUPROF_DEVLOG_NO_LIBRARY: libascend_hal.so missing or unusable
 * @NPUPROF_DEVLOG_NO_CHANNEL: the device lists no channel 50
 * @NPUPROF_DEVLOG_TAKEN:      another process collects it (-10, -3, -11,
 *                             or the HAL's "started already" in ours)
 * @NPUPROF_DEVLOG_CONTAINER:  the container boundary (-12, -13)
 * @NPUPROF_DEVLOG_NO_CONTEXT: no device context (115, also after
 *                             halDeviceOpen)
 * @NPUPROF_DEVLOG_FAILED:     another refusal (its code in .code)
 */
enum npuprof_devlog_outcome {
	NPUPROF_DEVLOG_OWNED = 0,
	NPUPROF_DEVLOG_NO_LIBRARY,
	NPUPROF_DEVLOG_NO_CHANNEL,
	NPUPROF_DEVLOG_TAKEN,
	NPUPROF_DEVLOG_CONTAINER,
	NPUPROF_DEVLOG_NO_CONTEXT,
	NPUPROF_DEVLOG_FAILED,
};

/**
 * npuprof_devlog_outcome_key() - the key info.json writes for @outcome
 * ("deviceLog", "noLibrary", "noChannel", "taken", "container",
 * "noContext", "failed"), never NULL
 */
const char *npuprof_devlog_outcome_key(int outcome);

/**
 * struct npuprof_devlog_dev - one device as the reader saw it
 * @device:      device id
 * @outcome:     enum npuprof_devlog_outcome
 * @code:        the HAL's return code of the refusal, 0 when owned
 * @text:        "device log (channel 50)", or "none: <why>" for a person
 *               (info.json "beginEnd", msprof's line at start)
 * @opened:      the reader opened the device (halDeviceOpen) to get a
 *               device context; closed at stop
 * @start_clock, @stop_clock: clock pairs taken at start and at stop
 *               (freq_hz 0: none); record times use @start_clock
 * @begins, @ends: begin and end records put into the ring
 * @skipped:     records read but not written: another funcType (FFTS+
 *               sub-task logs, ...) or an SQE type with no npuprof task
 *               type (place holder, event wait)
 * @gaps:        records the running count says are missing (at least)
 * @ring_drops:  records the in-process ring had no room for
 * @unattributed: records written with pid 0 (no owner of their stream)
 * @bytes:       bytes read from the channel
 * @stop_code:   prof_stop()'s return code
 */
struct npuprof_devlog_dev {
	int device;
	int outcome;
	int code;
	char text[192];
	bool opened;
	struct npuprof_ascend_clock start_clock, stop_clock;
	uint64_t begins, ends, skipped, gaps, ring_drops, unattributed, bytes, outside;
	int stop_code;
};

/**
 * struct npuprof_devlog_opts - what to read
 * @devices, @nr_devices: device ids (at most NPUPROF_DEVLOG_MAX_DEVICES,
 *               each below that)
 * @ring_records: room of the in-process ring, records (0: 65536; rounded
 *               up to a power of two)
 * @proc_root:   directory holding trs_core/ and the processes, NULL for
 *               "/proc" (tests)
 * @expanded:    the runtime's 32k-stream mode is on (how stream ids are
 *               packed; ascend_stars_log_ids())
 * @windowed:    1: hand on only records inside the capture window that
 *               npuprof_devlog_window() gives (none before its first call);
 *               0: every record
 */
struct npuprof_devlog_opts {
	const int *devices;
	unsigned int nr_devices;
	unsigned int ring_records;
	const char *proc_root;
	int expanded;
	int windowed;
};

struct npuprof_devlog;

/**
 * npuprof_devlog_start() - start the log of every device that gives it
 * @o:   devices and options
 * @out: the reader, with an outcome per device; its thread runs when a
 *       device's log was started
 *
 * A device that refuses is an outcome, not an error: the reader exists
 * (with no thread when none gave its log).
 * Return: 0; -EINVAL for a bad device list; -ENOMEM; -errno of the
 * eventfd or the thread (every channel started is stopped again).
 */
int npuprof_devlog_start(const struct npuprof_devlog_opts *o, struct npuprof_devlog **out);

/**
 * npuprof_devlog_window() - the capture window, in host CLOCK_MONOTONIC
 * ns: only begins and ends at times in [@lo_ns, @hi_ns] are handed on;
 * the others (the log runs from before the producers are enabled until
 * after they are disabled) are counted in npuprof_devlog_dev.outside.
 * The last records to pass arrive after this call: each is tested as the
 * reader decodes it.
 * With npuprof_devlog_opts.windowed, until the first call every record
 * is left out (the window is not open yet).  The session sets @lo_ns to
 * the clock read once every producer is on (start_info's clockMonotonic:
 * a task run before its submit uprobe was placed would have no submit)
 * and @hi_ns to UINT64_MAX, then at the stop, before disabling the
 * producers, @hi_ns to the clock read while they are still on
 * (end_info's clockMonotonic): a task run while they are being removed
 * would have no submit.
 */
void npuprof_devlog_window(struct npuprof_devlog *l, uint64_t lo_ns, uint64_t hi_ns);

/**
 * npuprof_devlog_source() - the drain source of @l (@src filled): its
 * fd, consume and stats.  Ring i of the source is device i: stats() of a
 * device not read says -ENXIO.  Valid until npuprof_devlog_free().
 */
void npuprof_devlog_source(struct npuprof_devlog *l, struct npuprof_drain_source *src);

/**
 * npuprof_devlog_stop() - end the window: stop the reader thread, ask
 * each device for what it holds (halProfDataFlush) and read it, stop
 * every channel (prof_stop, the devices in parallel: it can take
 * seconds), take the stop clock pairs and close the devices the reader
 * opened.  The reader thread ends at its next poll's return: up to the
 * poll's timeout (1 s) more.  Call before the drain's final read; a
 * second call does nothing (also when made from another thread, such as
 * the atexit handler, while the first runs).
 * Return: 0, or -EIO when a prof_stop failed (its code in stop_code);
 * -EINPROGRESS when another thread's call has begun and not returned.
 */
int npuprof_devlog_stop(struct npuprof_devlog *l);

/**
 * npuprof_devlog_devices() - the devices of @l, in the order given, and
 * their number in *@n; valid until npuprof_devlog_free()
 */
const struct npuprof_devlog_dev *npuprof_devlog_devices(const struct npuprof_devlog *l,
							unsigned int *n);

/** npuprof_devlog_free() - stop (if not stopped) and free; NULL is a no-op. */
void npuprof_devlog_free(struct npuprof_devlog *l);

#endif /* NPUPROF_DEVLOG_H */
