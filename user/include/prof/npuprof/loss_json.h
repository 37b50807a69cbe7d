/* SPDX-License-Identifier: MIT */
/*
 * Loss counts (npuprof/loss.h) as JSON, one layout for every file that
 * carries them:
 *   {"total": 7, "ring_full": 5, "write_error": 2, "decode_error": 0}
 * and, for a per-CPU table, the same keys after "cpu":
 *   "byCpu": [{"cpu": 1, "total": 5, "ring_full": 5, ...}, ...]
 * with only the CPUs that lost a record.
 */
#ifndef NPUPROF_LOSS_JSON_H
#define NPUPROF_LOSS_JSON_H

#include <jansson.h>

#include <npuprof/loss.h>

/** npuprof_loss_json() - new object for @l (with "cpu" when @with_cpu), NULL on ENOMEM. */
json_t *npuprof_loss_json(const struct npuprof_loss *l, int with_cpu);

/**
 * npuprof_loss_by_cpu_json() - new array of the entries of @cpus (@n) that
 * lost a record, NULL on ENOMEM.
 */
json_t *npuprof_loss_by_cpu_json(const struct npuprof_loss *cpus, unsigned int n);

/**
 * npuprof_loss_report_json() - new object for @total with "byCpu", the
 * entries of @cpus (@n, may be NULL with 0) that lost a record: the "lost"
 * of info.json, --result and the timeline metadata.  NULL on ENOMEM.
 */
json_t *npuprof_loss_report_json(const struct npuprof_loss *total,
				 const struct npuprof_loss *cpus, unsigned int n);

/**
 * npuprof_loss_from_json() - read an object written by npuprof_loss_json()
 * into @l (missing or negative counts read as 0; "cpu" when present).
 * Return: 0, or -EINVAL when @obj is not an object.
 */
int npuprof_loss_from_json(const json_t *obj, struct npuprof_loss *l);

#endif /* NPUPROF_LOSS_JSON_H */
