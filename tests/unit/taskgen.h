/* SPDX-License-Identifier: MIT */
/*
 * Realistic device task records, as npuprof.ko writes them for the
 * simulated driver (sim/driver): per task a SUBMIT, a START and an END,
 * a stream sync now and then; host ns timestamps that advance by a few
 * hundred ns to a few hundred us with jitter; a device clock at 50 MHz
 * (npusim's default) following the host clock; increasing task ids; a
 * few kernel names.  Deterministic for a seed, so a test can rebuild what
 * it wrote and a benchmark can feed the same bytes to its baselines.
 */
#ifndef NPUPROF_TEST_TASKGEN_H
#define NPUPROF_TEST_TASKGEN_H

#include <stdint.h>
#include <string.h>

#include <npuprof/record.h>

/**
 * struct taskgen - state of one generator
 * @rng:     xorshift state
 * @ts:      host ns of the next event
 * @task_id: id of the current task
 * @phase:   0 submit, 1 start, 2 end, 3 stream sync
 * @type:    task type of the current task
 * @name:    kernel name index of the current task
 * @arg:     arg of the current task
 * @cpu:     CPU the records claim (hdr.cpu)
 * @pid:     pid/tid of the submitter
 * @device:  device id
 */
struct taskgen {
	uint64_t rng;
	uint64_t ts;
	uint32_t task_id;
	unsigned int phase;
	uint16_t type;
	unsigned int name;
	uint64_t arg;
	uint32_t cpu;
	uint32_t pid;
	uint32_t device;
};

static const char *const taskgen_names[] = {
	"MatMulV2", "Add", "ReluGrad", "LayerNormV3", "FlashAttentionScore", "Cast",
};

static inline void taskgen_init(struct taskgen *g, uint64_t seed, uint32_t cpu, uint32_t device)
{
	memset(g, 0, sizeof(*g));
	g->rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	g->ts = 1000000000ULL + seed * 1000;
	g->task_id = 1;
	g->cpu = cpu;
	g->pid = 4242;
	g->device = device;
}

static inline uint32_t taskgen_rand(struct taskgen *g, uint32_t below)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return (uint32_t)((g->rng >> 11) % below);
}

/* Pick the next task's type, name and argument. */
static inline void taskgen_new_task(struct taskgen *g)
{
	uint32_t r = taskgen_rand(g, 10);

	g->type = r < 7 ? NPUPROF_TT_KERNEL : r < 9 ? NPUPROF_TT_MEMCPY : NPUPROF_TT_EVENT_RECORD;
	g->name = taskgen_rand(g, sizeof(taskgen_names) / sizeof(taskgen_names[0]));
	if (g->type == NPUPROF_TT_KERNEL)
		g->arg = 20000 + 1000 * g->name;
	else if (g->type == NPUPROF_TT_MEMCPY)
		g->arg = 4096u << taskgen_rand(g, 8);
	else
		g->arg = 0;
}

/* Host ns from this event to the next one, for the current phase. */
static inline uint64_t taskgen_gap(struct taskgen *g)
{
	switch (g->phase) {
	case 0:
		return 800 + taskgen_rand(g, 4000);		/* queue to start */
	case 1:
		return g->type == NPUPROF_TT_KERNEL ? g->arg + taskgen_rand(g, 2000)
						    : 500 + taskgen_rand(g, 3000);
	default:
		return 300 + taskgen_rand(g, 1500);		/* host to next submit */
	}
}

/**
 * taskgen_next() - the next record
 * @g:   generator
 * @rec: filled in (88 bytes)
 */
static inline void taskgen_next(struct taskgen *g, struct npuprof_rec_task *rec)
{
	static const uint16_t events[] = { NPUPROF_TASK_SUBMIT, NPUPROF_TASK_START,
					   NPUPROF_TASK_END, NPUPROF_TASK_STREAM_SYNC };

	if (g->phase == 0)
		taskgen_new_task(g);
	memset(rec, 0, sizeof(*rec));
	rec->hdr = (struct npuprof_rec_hdr){ NPUPROF_REC_TASK, sizeof(*rec), g->cpu, g->ts };
	/* 50 MHz device clock from an offset: 1 count per 20 host ns */
	rec->dev_ts = 123456789000ULL + g->ts / 20;
	rec->pid = g->pid;
	rec->tid = g->pid + 1;
	rec->device = g->device;
	rec->stream = 3;
	rec->task_id = g->task_id;
	rec->event = events[g->phase];
	rec->task_type = g->phase == 3 ? NPUPROF_TT_SYNC : g->type;
	rec->arg = g->phase == 3 ? 10000 + taskgen_rand(g, 50000) : g->arg;
	if (g->type == NPUPROF_TT_KERNEL && g->phase != 3)
		memcpy(rec->name, taskgen_names[g->name], strlen(taskgen_names[g->name]));
	g->ts += taskgen_gap(g);
	if (g->phase == 2 && g->task_id % 16 == 0)
		g->phase = 3;	/* a stream sync after every 16th task */
	else if (g->phase >= 2)
		g->phase = 0;
	else
		g->phase++;
	if (g->phase == 0)
		g->task_id++;
}

#endif /* NPUPROF_TEST_TASKGEN_H */
