/* SPDX-License-Identifier: MIT */
/*
 * Is a PROF_XXX directory's data complete, and if not, why: one sentence
 * per reason, each naming what is missing and where, for the export's
 * console summary, its timeline metadata and its exit status
 * (MSPROF_EXIT_INCOMPLETE).  Every way a PROF dir can be incomplete maps
 * to one reason:
 *   a control file missing or damaged  "collector stopped abruptly (or
 *                                      could not write it): no end_info",
 *                                      "no info.json: ...";
 *   a slice never closed               "<slice> has no .done file: ...";
 *   a .done naming another size        "<slice>: .done says N bytes, ...";
 *   a slice cut inside a frame         "last slice <slice> cut at byte N";
 *   a corrupt zstd frame               "<slice>: corrupt zstd frame at ...";
 *   records cut or too short           "... bytes that do not form ...";
 *   records lost (info.json "lost")    "N records lost (ring full: ...)";
 *   a write that failed at capture     "a write failed during the capture";
 *   slices aged out (--storage-limit)  "N oldest slices (B bytes, R records)
 *                                      removed at capture by --storage-limit";
 *   a device with neither clock        "device D: no clock samples and too
 *   samples nor records for a fit      few task records for a fit, ...".
 *
 * How a device's times were placed on the host clock is said for every
 * device, complete or not (export_clock_placement()): a fit over the
 * driver's clock samples in info.json, or, for a driver that gives none
 * (a driver without a clock read), the documented fit over the
 * task records' START/END host times (clock_sync.h).  The latter is a
 * method, not missing data, so it is no reason.
 */
#ifndef MSPROF_EXPORT_OUTCOME_H
#define MSPROF_EXPORT_OUTCOME_H

#include <jansson.h>

#include "export_model.h"

/**
 * export_outcome_reasons() - fill @m->reasons with every reason @m's data
 * is incomplete (none for a complete capture), after export_model_load().
 * Return: 0 or -ENOMEM.
 */
int export_outcome_reasons(struct export_model *m);

/**
 * export_clock_placement() - how device @d's times were placed
 * @d:    a device of a loaded model
 * @buf:  out: one sentence for a person, e.g. "device 0: device times
 *        placed by a fit over 3000 task record times (no clock samples in
 *        info.json)"; untouched when the function returns NULL
 * @size: bytes of @buf
 *
 * Return: the placement's name for scripts: "clockSamples" (fit over
 * info.json's samples), "taskRecordFit" (fit over the START/END records'
 * host times), "tracepointTimes" (no fit: the tracepoints' host times);
 * NULL for a device with no START or END record (nothing placed).
 */
const char *export_clock_placement(const struct xm_device *d, char *buf, size_t size);

/**
 * export_clock_correction() - the largest correction of device @d's
 * placement into @buf: "device 0: largest correction applied: 1.250 us
 * (3 tasks moved to start at their launch)", or "...: none (every task
 * starts after its launch)"; NULL (@buf untouched) for a device without a
 * fit (its times are the tracepoints').
 */
const char *export_clock_correction(const struct xm_device *d, char *buf, size_t size);

/**
 * export_outcome_json() - the capture's outcome for the timeline's
 * metadata: {"complete": bool, "incomplete": [reasons], "lost": {loss
 * counts as npuprof/loss_json.h, with "byCpu"}, "clocks": [{"device": id,
 * "placement": export_clock_placement()'s name, "pairs": readings the
 * fit used (0 without a fit)}, one per device with times]}.  New
 * reference, NULL on ENOMEM.
 */
json_t *export_outcome_json(const struct export_model *m);

#endif /* MSPROF_EXPORT_OUTCOME_H */
