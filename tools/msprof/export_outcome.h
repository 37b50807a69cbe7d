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
 *   no clock samples for a device      "device D: no clock samples, so
 *                                      device times are fitted ...".
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
 * export_outcome_json() - the capture's outcome for the timeline's
 * metadata: {"complete": bool, "incomplete": [reasons], "lost": {loss
 * counts as npuprof/loss_json.h, with "byCpu"}}.  New reference, NULL on
 * ENOMEM.
 */
json_t *export_outcome_json(const struct export_model *m);

#endif /* MSPROF_EXPORT_OUTCOME_H */
