/* SPDX-License-Identifier: MIT */
/*
 * The driver's tracepoint switches (npu_backend.trace_enable): the real
 * Ascend driver fires its trs_chan/trs_core tracepoints only while
 * /proc/trs_chan/dev<N>-ts0/trace_enable and
 * /proc/trs_core/ts_inst/dev<N>-ts0/trace_enable hold 1, off by default,
 * global per device, root only, written with exactly "1\n" or "0\n".  A
 * capture saves each file's value, writes 1 at start and writes the saved
 * value back at stop and on every exit path of the session.
 *
 * A collector killed mid-capture (SIGKILL) cannot restore them.  So the
 * saved values are also kept in a state file (NPUPROF_TRACE_SWITCH_STATE,
 * or $NPUPROF_TRACE_SWITCH_STATE) with the pid that wrote them; the next
 * start that finds the file of a pid no longer alive takes the values in
 * it as the ones to restore, not the 1 its predecessor left.  Two
 * collectors at once share the switches: the second saves 1 and restores
 * 1, and the first to stop switches them off for both (the real driver
 * has one switch per device).
 */
#ifndef NPUPROF_TRACE_SWITCH_H
#define NPUPROF_TRACE_SWITCH_H

#include <stdbool.h>

#include <npuprof/npu_backend.h>

#define NPUPROF_TRACE_SWITCH_STATE "/run/npuprof-trace-enable"
/* Switch files kept: 2 per device. */
#define NPUPROF_TRACE_SWITCH_MAX (2 * NPU_BACKEND_MAX_DEVICES)

/**
 * struct npuprof_trace_switch - the switches one capture turned on
 * @n:     entries used
 * @path:  each file
 * @saved: its value before the capture ('0' or '1')
 * @owner: this process wrote the state file (removes it at restore)
 */
struct npuprof_trace_switch {
	unsigned int n;
	char path[NPUPROF_TRACE_SWITCH_MAX][96];
	char saved[NPUPROF_TRACE_SWITCH_MAX];
	bool owner;
};

/**
 * npuprof_trace_switch_on() - save and switch on the tracepoints of devices
 * @ts:        out; restore with npuprof_trace_switch_restore()
 * @b:         the driver backend (nothing to do when b->trace_enable is NULL)
 * @devices:   device ids
 * @n:         entries of @devices
 * @proc_root: procfs root, NULL for "/proc" (tests)
 *
 * Return: switch files turned on (>= 0); -ENOENT when the driver has none
 * of them (an older driver: a normal outcome, no QUEUED/CQE records);
 * -EACCES and other -errno of the first file that could not be written
 * (those written are restored before returning).
 */
int npuprof_trace_switch_on(struct npuprof_trace_switch *ts, const struct npu_backend *b,
			    const int *devices, unsigned int n, const char *proc_root);

/**
 * npuprof_trace_switch_restore() - write every saved value back
 * @ts: from npuprof_trace_switch_on(); emptied.  Safe to call twice.
 * Return: 0, or the first -errno of a write (the others are still tried).
 */
int npuprof_trace_switch_restore(struct npuprof_trace_switch *ts);

#endif /* NPUPROF_TRACE_SWITCH_H */
