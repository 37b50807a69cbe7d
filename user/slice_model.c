// SPDX-License-Identifier: MIT
/*
 * Modelled block codec (format in slice_model.h): each field of a record
 * is stored as its difference to a prediction from earlier records.
 *
 * Why these predictions: on the demo workload (bench P5) the version-1
 * blocks spent, per task record, 2.5 bytes on the host timestamp, 1.4 on
 * the device timestamp, 1.3 on the name, 0.9 on arg and 0.5 on the event
 * and task type, because deltas against the previous record of the same
 * size mix submits, starts and ends of tasks of two threads.  A start and
 * an end repeat their submit's name, arg, type and thread (the parent); a
 * start's device time is usually the previous end's on its stream (tasks
 * back to back); an end's is its start's plus the run time, which repeats
 * per kernel; a submit's follows the host clock at the device rate.  An
 * API call's exit time is its entry time plus a duration, and its entry
 * time follows the previous exit on its thread.
 *
 * Contexts are found through small direct-mapped tables of history
 * positions; a slot's record is used only when it is still in the history
 * and its key fields match, so a collision costs bytes, never correctness.
 * Encoder and decoder run the same lookups in the same order: a word is
 * predicted only from words decoded before it (the model's order).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "slice_model.h"

#define MAXW 13 /* words of the largest modelled record (struct npuprof_rec_api) */
#define HIST SLICE_MODEL_HISTORY
#define GROUP_SLOTS 1024 /* open block's group lookup, > 2 * SLICE_MBLOCK_MAX_GROUPS */

/* Which earlier record a field is predicted from. */
enum ctx {
	CTX_ZERO,   /* none: the field as it is */
	CTX_SELF,   /* another field of the same record, decoded before */
	CTX_CLASS,  /* previous record of the same class */
	CTX_CS,     /* ... of the same class and stream; else CTX_CLASS */
	CTX_STREAM, /* previous record of the same stream; else CTX_CLASS */
	CTX_TYPE,   /* previous record of the same model */
	CTX_PARENT, /* previous record with the same parent key; else CTX_CS */
	CTX_NAME,   /* previous record of the same class and name; else CTX_CS */
	CTX_N
};

/* Where a context falls back to when no record of it is remembered. */
static const uint8_t ctx_fallback[CTX_N] = {
	[CTX_CS] = CTX_CLASS, [CTX_STREAM] = CTX_CLASS, [CTX_PARENT] = CTX_CS,
	[CTX_NAME] = CTX_CS,
};

#define PF_TIME 1   /* host ns: divided by the block's quantum */
#define PF_LINEAR 2 /* + (own ts - its ts) * slope: device counts from host ns */
#define PF_DUR 4    /* + what the CTX_NAME record's own parent step was */

/*
 * How a word differs from its prediction: one 64-bit number, 32-bit or
 * 16-bit fields each on their own (no borrow from one field into the
 * next), each zigzagged (-1 is 1, not all ones); or the XOR (names).
 */
enum lane { L64, L32, L16, LXOR };

/* @src: the word of the context record (or of this record, CTX_SELF). */
struct pred {
	uint8_t ctx, src, flags, lane;
};

/**
 * struct model - how records of one type and size are predicted
 * @stream_word: word holding the stream key (CTX_CS, CTX_STREAM)
 * @parent_word: word that, masked by @parent_mask, adds to the stream key to
 *               make the parent key; 0 when the type has no parents
 * @cls_off:     byte offset of the u16 class
 * @name_lo, @name_hi, @name_xword, @name_xmask: the name key (CTX_NAME):
 *               words @name_lo..@name_hi and word @name_xword masked by
 *               @name_xmask; @name_hi 0 when the type has none
 * @step_word:   the word whose step from the parent each record remembers
 *               (PF_DUR: an end's device time minus its start's), 0: none
 * @order:       words in decoding order: the stream word before any
 *               CTX_CS/CTX_STREAM/CTX_PARENT/CTX_NAME use, the parent word
 *               before CTX_PARENT, the name key before CTX_NAME or PF_DUR,
 *               word 1 (hdr.ts) before PF_LINEAR
 * @rows:        predictions per word, by class (class >= @nrows: row 0)
 */
struct model {
	uint16_t type, size;
	uint8_t nwords, cls_off, stream_word, parent_word;
	uint64_t parent_mask;
	uint8_t name_lo, name_hi, name_xword, step_word;
	uint64_t name_xmask;
	uint8_t order[MAXW];
	uint8_t nrows;
	const struct pred (*rows)[MAXW];
};

/*
 * Task words: 0 hdr, 1 ts, 2 dev_ts, 3 pid|tid, 4 device|stream,
 * 5 task_id|event|task_type, 6 arg, 7-10 name.  Class: event.  A submit
 * takes its arg from the last submit of the same kernel name and type; an
 * end's device time is its start's plus the last run time of that kernel.
 */
#define TASK_ROW(dev, arg)                                                                     \
	{                                                                                      \
		{ CTX_CLASS, 0, 0, L16 }, { CTX_TYPE, 1, PF_TIME, L64 }, dev,                  \
		{ CTX_CS, 3, 0, L32 }, { CTX_CLASS, 4, 0, L32 }, { CTX_CS, 5, 0, L16 }, arg,   \
		{ CTX_PARENT, 7, 0, LXOR }, { CTX_PARENT, 8, 0, LXOR },                        \
		{ CTX_PARENT, 9, 0, LXOR }, { CTX_PARENT, 10, 0, LXOR },                       \
	}
#define TASK_PRED(ctx, src, flags) { ctx, src, flags, L64 }
static const struct pred task_rows[][MAXW] = {
	TASK_ROW(TASK_PRED(CTX_CS, 2, 0), TASK_PRED(CTX_PARENT, 6, 0)),
	[NPUPROF_TASK_SUBMIT] = TASK_ROW(TASK_PRED(CTX_CS, 2, PF_LINEAR),
					 TASK_PRED(CTX_NAME, 6, 0)),
	[NPUPROF_TASK_START] = TASK_ROW(TASK_PRED(CTX_STREAM, 2, 0), TASK_PRED(CTX_PARENT, 6, 0)),
	[NPUPROF_TASK_END] = TASK_ROW(TASK_PRED(CTX_PARENT, 2, PF_DUR),
				      TASK_PRED(CTX_PARENT, 6, 0)),
	[NPUPROF_TASK_STREAM_SYNC] = TASK_ROW(TASK_PRED(CTX_CS, 2, PF_LINEAR),
					      TASK_PRED(CTX_PARENT, 6, 0)),
};

/*
 * API words: 0 hdr, 1 ts, 2 exit_ts, 3 pid|tid, 4 api|flags|ret,
 * 5 device|kind, 6 stream, 7 bytes, 8 handle, 9-12 name.  Class: api.
 */
static const struct pred api_rows[][MAXW] = {
	{
		{ CTX_CLASS, 0, 0, L16 }, { CTX_STREAM, 2, PF_TIME, L64 },
		{ CTX_SELF, 1, PF_TIME, L64 }, { CTX_CLASS, 3, 0, L32 }, { CTX_CS, 4, 0, L16 },
		{ CTX_CS, 5, 0, L32 }, { CTX_CS, 6, 0, L64 }, { CTX_CS, 7, 0, L64 },
		{ CTX_CS, 8, 0, L64 }, { CTX_CS, 9, 0, LXOR }, { CTX_CS, 10, 0, LXOR },
		{ CTX_CS, 11, 0, LXOR }, { CTX_CS, 12, 0, LXOR },
	},
};

static const struct model models[SLICE_MODEL_COUNT] = {
	[SLICE_MODEL_TASK] = {
		.type = NPUPROF_REC_TASK, .size = sizeof(struct npuprof_rec_task), .nwords = 11,
		.cls_off = offsetof(struct npuprof_rec_task, event), .stream_word = 4,
		.parent_word = 5, .parent_mask = 0xffffffffULL, .name_lo = 7, .name_hi = 10,
		.name_xword = 5, .name_xmask = 0xffff000000000000ULL, .step_word = 2,
		.order = { 0, 4, 3, 5, 1, 7, 8, 9, 10, 6, 2 },
		.nrows = sizeof(task_rows) / sizeof(task_rows[0]), .rows = task_rows,
	},
	[SLICE_MODEL_API] = {
		.type = NPUPROF_REC_API, .size = sizeof(struct npuprof_rec_api), .nwords = 13,
		.cls_off = offsetof(struct npuprof_rec_api, api), .stream_word = 3,
		.order = { 0, 3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12 },
		.nrows = 1, .rows = api_rows,
	},
};

/* Slots (history position + 1, 0: empty) of each context kind. */
#define CLASS_BITS 8
#define CS_BITS 10
#define STREAM_BITS 8
#define PARENT_BITS 12
#define NAME_BITS 10

struct slice_coder {
	/* history: the last HIST modelled records, words as they are, then
	 * the record's step from its parent (model's step_word) */
	uint64_t (*hist)[MAXW + 1];
	uint8_t *hist_model;
	uint64_t n; /* records put in the history since the reset */
	uint64_t class_slot[1u << CLASS_BITS];
	uint64_t cs_slot[1u << CS_BITS];
	uint64_t stream_slot[1u << STREAM_BITS];
	uint64_t parent_slot[1u << PARENT_BITS];
	uint64_t name_slot[1u << NAME_BITS];
	uint64_t type_slot[SLICE_MODEL_COUNT];
	int64_t slope; /* the last block's */
	/* the open block (encoder) or the block being decoded */
	struct slice_mblock_group g[SLICE_MBLOCK_MAX_GROUPS];
	uint32_t ng;
	size_t row_start[SLICE_MBLOCK_MAX_GROUPS]; /* first word of the group in rows */
	uint32_t row_next[SLICE_MBLOCK_MAX_GROUPS];
	uint8_t *seq; /* group of each record */
	uint32_t nr, seq_cap;
	size_t raw; /* record bytes noted */
	uint64_t *rows; /* deltas, group by group, record by record */
	size_t rows_cap; /* in words */
	uint64_t group_key[GROUP_SLOTS]; /* key + 1 of the group in group_idx */
	uint8_t group_idx[GROUP_SLOTS];
	/* first and last (ts, device time) of PF_LINEAR records noted */
	uint64_t lin_ts[2], lin_dev[2];
	uint32_t lin_n;
	bool plain; /* note records without their model (slice_coder_plain()) */
};

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Signed deltas as small unsigned numbers: 0, -1, 1, -2 -> 0, 1, 2, 3. */
static inline uint64_t zigzag(uint64_t d)
{
	return d << 1 ^ (uint64_t)((int64_t)d >> 63);
}

static inline uint64_t unzigzag(uint64_t z)
{
	return z >> 1 ^ -(z & 1);
}

/* Lanes of @w bits (16 or 32): their lowest bits. */
static inline uint64_t lanes_low(unsigned int w)
{
	return w == 16 ? 0x0001000100010001ULL : 0x0000000100000001ULL;
}

/* Zigzag each @w-bit lane of @d on its own. */
static inline uint64_t lanes_zigzag(uint64_t d, unsigned int w)
{
	uint64_t low = lanes_low(w), hi = low << (w - 1);

	return ((d << 1) & ~low) ^ (((d & hi) >> (w - 1)) * ((1ULL << w) - 1));
}

static inline uint64_t lanes_unzigzag(uint64_t z, unsigned int w)
{
	uint64_t low = lanes_low(w), hi = low << (w - 1);

	return ((z >> 1) & ~hi) ^ ((z & low) * ((1ULL << w) - 1));
}

/*
 * The stored form of word @v predicted as @p by lane mode @lane; a 64-bit
 * difference stays raw here (rows_map() scales and zigzags it).
 */
static inline uint64_t lane_delta(uint8_t lane, uint64_t v, uint64_t p)
{
	switch (lane) {
	case L32:
		return lanes_zigzag(slice_lane_sub(v, p, SLICE_LANE32_HI), 32);
	case L16:
		return lanes_zigzag(slice_lane_sub(v, p, SLICE_LANE16_HI), 16);
	case LXOR:
		return v ^ p;
	}
	return v - p;
}

/* Undo lane_delta(): word from its stored form @d and prediction @p. */
static inline uint64_t lane_undo(uint8_t lane, uint64_t d, uint64_t p)
{
	switch (lane) {
	case L32:
		return slice_lane_add(p, lanes_unzigzag(d, 32), SLICE_LANE32_HI);
	case L16:
		return slice_lane_add(p, lanes_unzigzag(d, 16), SLICE_LANE16_HI);
	case LXOR:
		return d ^ p;
	}
	return p + d;
}

static inline uint64_t hash64(uint64_t v, unsigned int bits)
{
	return (v * 0x9e3779b97f4a7c15ULL) >> (64 - bits);
}

/* The model of records of @type and @size, SLICE_MODEL_NONE if none. */
static uint16_t model_of(uint16_t type, uint32_t size)
{
	for (uint16_t m = 1; m < SLICE_MODEL_COUNT; m++) {
		if (models[m].type == type && models[m].size == size)
			return m;
	}
	return SLICE_MODEL_NONE;
}

static const struct pred *model_row(const struct model *m, uint16_t cls)
{
	return m->rows[cls < m->nrows ? cls : 0];
}

static uint16_t word_cls(const struct model *m, const uint64_t *w)
{
	return (uint16_t)(w[m->cls_off / 8] >> (8 * (m->cls_off % 8)));
}

/* Hashes of a record's keys, from the words the model's order decoded first. */
static uint64_t key_class(uint16_t model, uint16_t cls)
{
	return hash64((uint64_t)model << 16 | cls, CLASS_BITS);
}

static uint64_t key_cs(uint16_t model, uint16_t cls, uint64_t stream)
{
	return hash64(stream * 0xff51afd7ed558ccdULL ^ ((uint64_t)model << 16 | cls), CS_BITS);
}

static uint64_t key_stream(uint16_t model, uint64_t stream)
{
	return hash64(stream * 0xc4ceb9fe1a85ec53ULL ^ model, STREAM_BITS);
}

static uint64_t key_parent(uint16_t model, uint64_t stream, uint64_t parent)
{
	return hash64((stream * 0xff51afd7ed558ccdULL ^ parent) * 0xc4ceb9fe1a85ec53ULL ^ model,
		      PARENT_BITS);
}

static uint64_t key_name(const struct model *m, uint16_t model, uint16_t cls, const uint64_t *w)
{
	uint64_t h = (w[m->name_xword] & m->name_xmask) ^ ((uint64_t)model << 16 | cls);

	for (uint32_t j = m->name_lo; j <= m->name_hi; j++)
		h = (h ^ w[j]) * 0xff51afd7ed558ccdULL;
	return hash64(h, NAME_BITS);
}

static bool same_name(const struct model *m, const uint64_t *a, const uint64_t *b)
{
	for (uint32_t j = m->name_lo; j <= m->name_hi; j++) {
		if (a[j] != b[j])
			return false;
	}
	return ((a[m->name_xword] ^ b[m->name_xword]) & m->name_xmask) == 0;
}

/* The record of history slot value @s if still remembered and of @model. */
static const uint64_t *hist_at(const struct slice_coder *c, uint64_t s, uint16_t model)
{
	size_t i;

	if (!s || c->n - (s - 1) > HIST)
		return NULL;
	i = (size_t)((s - 1) % HIST);
	return c->hist_model[i] == model ? c->hist[i] : NULL;
}

/*
 * Context records of one record, looked up as its words come (each at
 * most once): @slot is where the record's own key lives in each table
 * (hist_put() fills them), @r the record found there if it matches
 * exactly, @res the record after fallbacks.
 */
struct refs {
	const uint64_t *r[CTX_N];
	const uint64_t *res[CTX_N];
	uint32_t slot[CTX_N];
	uint8_t done;	  /* slot and r known */
	uint8_t resolved; /* res known */
};

/* The table of context @ctx (TYPE: indexed by model). */
static uint64_t *ctx_table(struct slice_coder *c, int ctx)
{
	switch (ctx) {
	case CTX_CLASS:
		return c->class_slot;
	case CTX_CS:
		return c->cs_slot;
	case CTX_STREAM:
		return c->stream_slot;
	case CTX_PARENT:
		return c->parent_slot;
	case CTX_NAME:
		return c->name_slot;
	}
	return c->type_slot;
}

/* Slot of @w's key in context @ctx's table; false when the model has no such key. */
static bool ctx_slot(const struct model *m, uint16_t model, uint16_t cls, const uint64_t *w,
		     int ctx, uint32_t *slot)
{
	uint64_t stream = w[m->stream_word];

	switch (ctx) {
	case CTX_CLASS:
		*slot = (uint32_t)key_class(model, cls);
		return true;
	case CTX_CS:
		*slot = (uint32_t)key_cs(model, cls, stream);
		return true;
	case CTX_STREAM:
		*slot = (uint32_t)key_stream(model, stream);
		return true;
	case CTX_PARENT:
		*slot = (uint32_t)key_parent(model, stream, w[m->parent_word] & m->parent_mask);
		return m->parent_word;
	case CTX_NAME:
		*slot = (uint32_t)key_name(m, model, cls, w);
		return m->name_hi;
	case CTX_TYPE:
		*slot = model;
		return true;
	}
	return false;
}

/* Does the remembered record @r have @w's key in context @ctx? */
static bool ctx_match(const struct model *m, uint16_t cls, const uint64_t *r, const uint64_t *w,
		      int ctx)
{
	bool same_stream = r[m->stream_word] == w[m->stream_word];

	switch (ctx) {
	case CTX_CLASS:
		return word_cls(m, r) == cls;
	case CTX_CS:
		return word_cls(m, r) == cls && same_stream;
	case CTX_STREAM:
		return same_stream;
	case CTX_PARENT:
		return same_stream &&
		       ((r[m->parent_word] ^ w[m->parent_word]) & m->parent_mask) == 0;
	case CTX_NAME:
		return word_cls(m, r) == cls && same_name(m, r, w);
	}
	return true;
}

/* Look context @ctx up for @w (once): its slot, and the exact record or NULL. */
static void ctx_lookup(struct slice_coder *c, uint16_t model, uint16_t cls, const uint64_t *w,
		       struct refs *rf, int ctx)
{
	const struct model *m = &models[model];
	const uint64_t *r = NULL;
	uint32_t slot = 0;

	if (ctx_slot(m, model, cls, w, ctx, &slot)) {
		r = hist_at(c, ctx_table(c, ctx)[slot], model);
		if (r && !ctx_match(m, cls, r, w, ctx))
			r = NULL;
	}
	rf->slot[ctx] = slot;
	rf->r[ctx] = r;
	rf->done |= (uint8_t)(1u << ctx);
}

/* The exact record of context @ctx for @w, NULL if none. */
static inline const uint64_t *ctx_exact(struct slice_coder *c, uint16_t model, uint16_t cls,
					const uint64_t *w, struct refs *rf, int ctx)
{
	if (!(rf->done & (1u << ctx)))
		ctx_lookup(c, model, cls, w, rf, ctx);
	return rf->r[ctx];
}

/* The record of context @ctx for @w, or of its fallbacks; NULL if none. */
static const uint64_t *ctx_resolve(struct slice_coder *c, uint16_t model, uint16_t cls,
				   const uint64_t *w, struct refs *rf, int ctx)
{
	const uint64_t *r = ctx_exact(c, model, cls, w, rf, ctx);

	if (!r && ctx_fallback[ctx] != CTX_ZERO)
		r = ctx_resolve(c, model, cls, w, rf, ctx_fallback[ctx]);
	rf->res[ctx] = r;
	rf->resolved |= (uint8_t)(1u << ctx);
	return r;
}

static inline const uint64_t *ctx_find(struct slice_coder *c, uint16_t model, uint16_t cls,
				       const uint64_t *w, struct refs *rf, int ctx)
{
	if (rf->resolved & (1u << ctx))
		return rf->res[ctx];
	return ctx_resolve(c, model, cls, w, rf, ctx);
}

/* The prediction of a word by @p, from the words of @w decoded so far. */
static inline uint64_t predict(struct slice_coder *c, uint16_t model, uint16_t cls,
			       const uint64_t *w, struct refs *rf, const struct pred *p,
			       int64_t slope)
{
	const uint64_t *r, *n;
	uint64_t v;

	if (p->ctx == CTX_ZERO)
		return 0;
	if (p->ctx == CTX_SELF)
		return w[p->src];
	r = ctx_find(c, model, cls, w, rf, p->ctx);
	if (!r)
		return 0;
	v = r[p->src];
	if (p->flags & PF_LINEAR) {
		__int128 dt = (int64_t)(w[1] - r[1]);

		v += (uint64_t)(int64_t)((dt * slope) >> 32);
	}
	if (p->flags & PF_DUR) {
		n = ctx_exact(c, model, cls, w, rf, CTX_NAME);
		v += n ? n[MAXW] : 0;
	}
	return v;
}

/*
 * Remember the record @w of @model (whose contexts @rf looked up), with its
 * step from its parent, and index it under each of its keys.
 */
static void hist_put(struct slice_coder *c, uint16_t model, const uint64_t *w, struct refs *rf)
{
	static const uint8_t keyed[] = { CTX_CLASS, CTX_CS, CTX_STREAM, CTX_PARENT, CTX_NAME,
					 CTX_TYPE };
	const struct model *m = &models[model];
	uint16_t cls = word_cls(m, w);
	uint64_t s = c->n + 1;
	size_t i = (size_t)(c->n % HIST);
	const uint64_t *parent = m->step_word ? ctx_exact(c, model, cls, w, rf, CTX_PARENT) : NULL;

	memcpy(c->hist[i], w, m->nwords * sizeof(*w));
	c->hist[i][MAXW] = parent ? w[m->step_word] - parent[m->step_word] : 0;
	c->hist_model[i] = (uint8_t)model;
	for (uint32_t k = 0; k < sizeof(keyed); k++) {
		int ctx = keyed[k];
		uint32_t slot;

		if (rf->done & (1u << ctx))
			ctx_table(c, ctx)[rf->slot[ctx]] = s;
		else if (ctx_slot(m, model, cls, w, ctx, &slot))
			ctx_table(c, ctx)[slot] = s;
	}
	c->n++;
}

static void coder_clear_block(struct slice_coder *c)
{
	for (uint32_t i = 0; i < GROUP_SLOTS; i++)
		c->group_key[i] = 0;
	c->ng = 0;
	c->nr = 0;
	c->raw = 0;
	c->lin_n = 0;
}

void slice_coder_reset(struct slice_coder *c)
{
	c->n = 0;
	c->plain = false;
	c->slope = 0;
	memset(c->class_slot, 0, sizeof(c->class_slot));
	memset(c->cs_slot, 0, sizeof(c->cs_slot));
	memset(c->stream_slot, 0, sizeof(c->stream_slot));
	memset(c->parent_slot, 0, sizeof(c->parent_slot));
	memset(c->name_slot, 0, sizeof(c->name_slot));
	memset(c->type_slot, 0, sizeof(c->type_slot));
	coder_clear_block(c);
}

/* Room for @nr records and @raw bytes in the block buffers.  Return: 0, -ENOMEM. */
static int coder_reserve(struct slice_coder *c, size_t raw, uint32_t nr)
{
	if (nr > c->seq_cap) {
		uint8_t *p = realloc(c->seq, nr);

		if (!p)
			return -ENOMEM;
		c->seq = p;
		c->seq_cap = nr;
	}
	if (raw / 8 > c->rows_cap) {
		uint64_t *p = realloc(c->rows, raw);

		if (!p)
			return -ENOMEM;
		c->rows = p;
		c->rows_cap = raw / 8;
	}
	return 0;
}

struct slice_coder *slice_coder_new(size_t max_raw, uint32_t max_nr)
{
	struct slice_coder *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->hist = malloc(HIST * sizeof(*c->hist));
	c->hist_model = malloc(HIST);
	if (!c->hist || !c->hist_model || coder_reserve(c, max_raw, max_nr)) {
		slice_coder_free(c);
		return NULL;
	}
	slice_coder_reset(c);
	return c;
}

void slice_coder_free(struct slice_coder *c)
{
	if (!c)
		return;
	free(c->hist);
	free(c->hist_model);
	free(c->seq);
	free(c->rows);
	free(c);
}

/* Group index of @key in the open block, added when new.  Return: index, -E2BIG. */
static int group_index(struct slice_coder *c, uint64_t key, const struct slice_mblock_group *g)
{
	uint32_t i = (uint32_t)hash64(key, 10);

	while (c->group_key[i]) {
		if (c->group_key[i] == key + 1)
			return c->group_idx[i];
		i = (i + 1) % GROUP_SLOTS;
	}
	if (c->ng == SLICE_MBLOCK_MAX_GROUPS)
		return -E2BIG;
	c->group_key[i] = key + 1;
	c->group_idx[i] = (uint8_t)c->ng;
	c->g[c->ng] = *g;
	return (int)c->ng++;
}

/* Track the first and last (ts, device time) of records predicted linearly. */
static void note_linear(struct slice_coder *c, const struct model *m, uint16_t cls,
			const uint8_t *rec)
{
	const struct pred *p = model_row(m, cls);
	uint32_t at = c->lin_n ? 1 : 0;

	for (uint32_t j = 0; j < m->nwords; j++) {
		if (!(p[j].flags & PF_LINEAR))
			continue;
		c->lin_ts[at] = load64(rec + 8);
		c->lin_dev[at] = load64(rec + 8 * j);
		c->lin_n++;
		return;
	}
}

void slice_coder_drop(struct slice_coder *c)
{
	coder_clear_block(c);
}

void slice_coder_plain(struct slice_coder *c, bool plain)
{
	c->plain = plain;
}

int slice_coder_note(struct slice_coder *c, const struct npuprof_rec_hdr *rec)
{
	struct npuprof_rec_hdr h;
	uint16_t model;
	const struct model *m;
	struct slice_mblock_group g;
	int idx;

	memcpy(&h, rec, sizeof(h)); /* records need not be aligned */
	model = c->plain ? SLICE_MODEL_NONE : model_of(h.type, h.size);
	m = &models[model];
	g = (struct slice_mblock_group){ .size = h.size, .type = h.type, .model = model };

	if (model)
		memcpy(&g.cls, (const uint8_t *)rec + m->cls_off, sizeof(g.cls));
	idx = group_index(c, (uint64_t)g.size | (uint64_t)g.type << 16 | (uint64_t)g.cls << 32 |
				     (uint64_t)model << 48, &g);
	if (idx < 0)
		return idx;
	if (coder_reserve(c, c->raw + h.size, c->nr + 1))
		return -ENOMEM;
	c->seq[c->nr++] = (uint8_t)idx;
	c->g[idx].count++;
	c->raw += h.size;
	if (model)
		note_linear(c, m, g.cls, (const uint8_t *)rec);
	return 0;
}

/* Where each group's rows start, and their cursors at the start. */
static void groups_place(struct slice_coder *c)
{
	size_t start = 0;

	for (uint32_t i = 0; i < c->ng; i++) {
		c->row_start[i] = start;
		c->row_next[i] = 0;
		start += (size_t)c->g[i].count * (c->g[i].size / 8);
	}
}

/* The next row of group @g. */
static uint64_t *group_row(struct slice_coder *c, uint32_t g)
{
	return c->rows + c->row_start[g] + (size_t)c->row_next[g]++ * (c->g[g].size / 8);
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Deltas of a modelled record into @row; ORs into *@g the host-time deltas' gcd. */
static void encode_modelled(struct slice_coder *c, uint16_t model, const uint8_t *rec,
			    uint64_t *row, int64_t slope, uint64_t *g)
{
	const struct model *m = &models[model];
	uint64_t w[MAXW];
	struct refs rf;
	uint16_t cls;
	const struct pred *p;

	rf.done = rf.resolved = 0;
	memcpy(w, rec, m->nwords * sizeof(w[0]));
	cls = word_cls(m, w);
	p = model_row(m, cls);
	for (uint32_t k = 0; k < m->nwords; k++) {
		uint32_t j = m->order[k];
		uint64_t d = lane_delta(p[j].lane, w[j], predict(c, model, cls, w, &rf, &p[j], slope));

		row[j] = d;
		if ((p[j].flags & PF_TIME) && *g != 1)
			*g = gcd64(*g, (int64_t)d < 0 ? -d : d);
	}
	hist_put(c, model, w, &rf);
}

/* Deltas of an unmodelled record against the previous one of its group. */
static void encode_plain(const uint8_t *rec, const uint8_t *prev, uint32_t nw, uint64_t *row)
{
	for (uint32_t j = 0; j < nw; j++)
		row[j] = lane_delta(L16, load64(rec + 8 * j), prev ? load64(prev + 8 * j) : 0);
}

/*
 * Encoding (@down): divide the host-time deltas by @q, then zigzag the
 * 64-bit deltas of the modelled groups; decoding: the reverse.
 */
static void rows_map(struct slice_coder *c, uint64_t q, bool down)
{
	for (uint32_t i = 0; i < c->ng; i++) {
		const struct slice_mblock_group *g = &c->g[i];
		const struct pred *p = g->model ? model_row(&models[g->model], g->cls) : NULL;
		uint32_t nw = g->size / 8;

		for (uint32_t j = 0; p && j < nw; j++) {
			uint64_t *col = c->rows + c->row_start[i] + j;
			bool scale = q > 1 && (p[j].flags & PF_TIME);

			if (p[j].lane != L64)
				continue;
			for (uint32_t k = 0; k < g->count; k++, col += nw) {
				if (down)
					*col = zigzag(scale ? (uint64_t)((int64_t)*col / (int64_t)q) : *col);
				else
					*col = scale ? unzigzag(*col) * q : unzigzag(*col);
			}
		}
	}
}

/* The block's slope: from its first and last linearly predicted records. */
static int64_t block_slope(const struct slice_coder *c)
{
	__int128 dev = (int64_t)(c->lin_dev[1] - c->lin_dev[0]), s;
	int64_t dt = (int64_t)(c->lin_ts[1] - c->lin_ts[0]);

	if (c->lin_n < 2 || dt <= 0)
		return c->slope;
	s = (dev * ((__int128)1 << 32)) / dt;
	return s > INT64_MAX || s < INT64_MIN ? c->slope : (int64_t)s;
}

/* Model pass: every record's deltas into its group's rows.  Return: quantum. */
static uint64_t encode_rows(struct slice_coder *c, const uint8_t *src, int64_t slope)
{
	const uint8_t *prev[SLICE_MBLOCK_MAX_GROUPS] = { NULL };
	uint64_t g = 0;
	size_t off = 0;

	groups_place(c);
	for (uint32_t i = 0; i < c->nr; i++) {
		uint32_t gi = c->seq[i];
		uint64_t *row = group_row(c, gi);

		if (c->g[gi].model)
			encode_modelled(c, c->g[gi].model, src + off, row, slope, &g);
		else
			encode_plain(src + off, prev[gi], c->g[gi].size / 8, row);
		prev[gi] = src + off;
		off += c->g[gi].size;
	}
	return g > 1 && g <= UINT32_MAX ? g : 1;
}

/* The present bitmaps and planes of every group, from the rows.  Return: end. */
static uint8_t *put_planes(const struct slice_coder *c, uint8_t *present, uint8_t *out)
{
	for (uint32_t i = 0; i < c->ng; i++) {
		uint32_t nw = c->g[i].size / 8;

		for (uint32_t j = 0; j < nw; j++) {
			*present = slice_planes_put(c->rows + c->row_start[i] + j, nw, c->g[i].count,
						    out);
			out += (size_t)__builtin_popcount(*present++) * c->g[i].count;
		}
	}
	return out;
}

/* Records of the noted sizes, @raw_bytes in all, at @src? */
static bool src_matches(const struct slice_coder *c, const uint8_t *src, size_t raw_bytes)
{
	size_t off = 0;

	if (raw_bytes != c->raw)
		return false;
	for (uint32_t i = 0; i < c->nr; i++) {
		uint16_t size;

		memcpy(&size, src + off + offsetof(struct npuprof_rec_hdr, size), sizeof(size));
		if (size != c->g[c->seq[i]].size)
			return false;
		off += size;
	}
	return true;
}

long slice_mblock_encode(struct slice_coder *c, const uint8_t *src, size_t raw_bytes,
			 uint8_t *dst)
{
	struct slice_mblock_hdr *h = (void *)dst;
	uint8_t *p = dst + sizeof(*h), *present;
	size_t bitmaps = 0;
	uint64_t q;

	if (!c->nr || !src_matches(c, src, raw_bytes)) {
		coder_clear_block(c);
		return -EINVAL;
	}
	*h = (struct slice_mblock_hdr){ .magic = SLICE_BLOCK_MAGIC, .version = SLICE_MBLOCK_VERSION,
					.nr_records = c->nr, .nr_groups = c->ng,
					.slope = block_slope(c) };
	c->slope = h->slope;
	memcpy(p, c->g, c->ng * sizeof(c->g[0]));
	p += c->ng * sizeof(c->g[0]);
	if (c->ng > 1) {
		memcpy(p, c->seq, c->nr);
		p += c->nr;
	}
	q = encode_rows(c, src, h->slope);
	rows_map(c, q, true);
	h->quantum = (uint32_t)q;
	for (uint32_t i = 0; i < c->ng; i++)
		bitmaps += c->g[i].size / 8;
	present = p;
	p = put_planes(c, present, p + bitmaps);
	coder_clear_block(c);
	return p - dst;
}

/* Groups of a block: valid sizes and models, counts adding up to @nr. */
static long check_groups(const struct slice_mblock_group *g, uint32_t n, uint32_t nr)
{
	uint64_t records = 0, raw = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (g[i].model >= SLICE_MODEL_COUNT)
			return -EPROTO;
		if (g[i].size < sizeof(struct npuprof_rec_hdr) || g[i].size % NPUPROF_REC_ALIGN ||
		    !g[i].count || (!g[i].model && g[i].cls) ||
		    (g[i].model && model_of(g[i].type, g[i].size) != g[i].model))
			return -EBADMSG;
		records += g[i].count;
		raw += (uint64_t)g[i].size * g[i].count;
	}
	return records == nr && raw <= UINT32_MAX ? (long)raw : -EBADMSG;
}

/* Each order index in range, as many of each as its group's count. */
static bool check_seq(const uint8_t *seq, uint32_t nr, const struct slice_mblock_group *g,
		      uint32_t n)
{
	uint32_t count[SLICE_MBLOCK_MAX_GROUPS];

	for (uint32_t i = 0; i < n; i++)
		count[i] = g[i].count;
	return slice_seq_check(seq, nr, count, n);
}

/* Bytes of planes the present bitmaps at @present say follow them. */
static uint64_t planes_bytes(const uint8_t *present, const struct slice_mblock_group *g,
			     uint32_t n)
{
	uint64_t bytes = 0;

	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t j = 0; j < g[i].size / 8u; j++)
			bytes += (uint64_t)__builtin_popcount(*present++) * g[i].count;
	}
	return bytes;
}

long slice_mblock_check(const uint8_t *p, size_t len, uint32_t *nr_records)
{
	struct slice_mblock_hdr h;
	struct slice_mblock_group g[SLICE_MBLOCK_MAX_GROUPS];
	size_t head = sizeof(h), bitmaps = 0;
	long raw;

	if (len < sizeof(h))
		return -EBADMSG;
	memcpy(&h, p, sizeof(h));
	if (h.version > SLICE_MBLOCK_VERSION || h.flags)
		return -EPROTO;
	if (h.version != SLICE_MBLOCK_VERSION || !h.nr_groups ||
	    h.nr_groups > SLICE_MBLOCK_MAX_GROUPS || !h.quantum || h.reserved ||
	    (len - head) / sizeof(g[0]) < h.nr_groups)
		return -EBADMSG;
	memcpy(g, p + head, h.nr_groups * sizeof(g[0]));
	head += h.nr_groups * sizeof(g[0]);
	raw = check_groups(g, h.nr_groups, h.nr_records);
	if (raw < 0)
		return raw;
	if (h.nr_groups > 1) {
		if (len - head < h.nr_records || !check_seq(p + head, h.nr_records, g, h.nr_groups))
			return -EBADMSG;
		head += h.nr_records;
	}
	for (uint32_t i = 0; i < h.nr_groups; i++)
		bitmaps += g[i].size / 8u;
	if (len - head < bitmaps ||
	    len - head - bitmaps != planes_bytes(p + head, g, h.nr_groups))
		return -EBADMSG;
	*nr_records = h.nr_records;
	return raw;
}

/* A modelled record from its deltas @row into @dst, and into the history. */
static void decode_modelled(struct slice_coder *c, uint16_t model, uint16_t cls,
			    const uint64_t *row, int64_t slope, uint8_t *dst)
{
	const struct model *m = &models[model];
	const struct pred *p = model_row(m, cls);
	uint64_t w[MAXW];
	struct refs rf;

	rf.done = rf.resolved = 0;
	for (uint32_t k = 0; k < m->nwords; k++) {
		uint32_t j = m->order[k];

		w[j] = lane_undo(p[j].lane, row[j], predict(c, model, cls, w, &rf, &p[j], slope));
	}
	memcpy(dst, w, m->nwords * sizeof(w[0]));
	hist_put(c, model, w, &rf);
}

int slice_mblock_decode(struct slice_coder *c, const uint8_t *p, size_t len, uint8_t *dst)
{
	struct slice_mblock_hdr h;
	const uint8_t *seq, *present, *planes;
	uint8_t *prev[SLICE_MBLOCK_MAX_GROUPS] = { NULL };
	size_t off = 0;

	(void)len; /* checked by slice_mblock_check() */
	memcpy(&h, p, sizeof(h));
	c->ng = h.nr_groups;
	memcpy(c->g, p + sizeof(h), c->ng * sizeof(c->g[0]));
	seq = p + sizeof(h) + c->ng * sizeof(c->g[0]);
	present = seq + (c->ng > 1 ? h.nr_records : 0);
	planes = present;
	for (uint32_t i = 0; i < c->ng; i++)
		planes += c->g[i].size / 8u;
	groups_place(c);
	if (coder_reserve(c, c->row_start[c->ng - 1] * 8 +
				     (size_t)c->g[c->ng - 1].count * c->g[c->ng - 1].size, 0))
		return -ENOMEM;
	for (uint32_t i = 0; i < c->ng; i++) {
		uint32_t nw = c->g[i].size / 8;

		for (uint32_t j = 0; j < nw; j++)
			planes += slice_planes_get(c->rows + c->row_start[i] + j, nw, c->g[i].count,
						   *present++, planes);
	}
	rows_map(c, h.quantum, false);
	for (uint32_t i = 0; i < h.nr_records; i++) {
		uint32_t gi = c->ng > 1 ? seq[i] : 0;
		const uint64_t *row = group_row(c, gi);
		uint32_t nw = c->g[gi].size / 8;

		if (c->g[gi].model) {
			decode_modelled(c, c->g[gi].model, c->g[gi].cls, row, h.slope, dst + off);
		} else {
			for (uint32_t j = 0; j < nw; j++) {
				uint64_t v = lane_undo(L16, row[j],
						       prev[gi] ? load64(prev[gi] + 8 * j) : 0);

				memcpy(dst + off + 8 * j, &v, sizeof(v));
			}
		}
		prev[gi] = dst + off;
		off += c->g[gi].size;
	}
	c->ng = 0;
	return 0;
}
