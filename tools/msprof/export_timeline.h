/* SPDX-License-Identifier: MIT */
/*
 * The timeline file msprof_<ts>.json: a Chrome trace event array as msprof
 * writes it (msprof.md section 4), for chrome://tracing, Perfetto and
 * MindStudio Insight.
 */
#ifndef MSPROF_EXPORT_TIMELINE_H
#define MSPROF_EXPORT_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

#include "export_model.h"

/*
 * msprof's process id: (pid << 10) | (index << 5) | device; device 31 =
 * host.  The device field has 5 bits, so like msprof this tells apart
 * devices 0..30 only.
 */
#define EXPORT_HOST_DEV 31u
static inline int64_t export_trace_pid(uint32_t app_pid, uint32_t dev)
{
	return ((int64_t)app_pid << 10) | (0 << 5) | (int64_t)(dev & 31u);
}

/**
 * export_write_timeline() - write the trace of @m to @f
 *
 * One event at a time (each built as a small jansson object, dumped and
 * freed), so the file is never held in memory as one JSON tree.
 *
 * Return: 0; -ENOMEM; -EIO when writing to @f failed.
 */
int export_write_timeline(const struct export_model *m, FILE *f);

#endif /* MSPROF_EXPORT_TIMELINE_H */
