// SPDX-License-Identifier: MIT
/*
 * Slice block codec (format in slice_block.h): records grouped by size,
 * word deltas against the previous record of the same size, byte planes.
 *
 * Records of a layout are handled 8 at a time: the 8 deltas of word j
 * are one 8x8 byte transpose away from 8 bytes of each of the word's 8
 * planes, so a tile costs 8 loads, a transpose and 8 stores instead of 64
 * single-byte stores.  The decoder runs the same transpose backwards (it
 * is its own inverse) and adds the deltas up.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <npuprof/record.h>

#include "slice_block.h"

struct block_layouts {
	struct slice_block_layout l[SLICE_BLOCK_MAX_LAYOUTS];
	uint32_t n;
	uint32_t start[SLICE_BLOCK_MAX_LAYOUTS]; /* first scratch entry */
	size_t plane_off[SLICE_BLOCK_MAX_LAYOUTS]; /* offset of its planes */
};

/* out[b] byte r = in[r] byte b. */
static inline void tr8x8(const uint64_t in[8], uint64_t out[8])
{
#ifdef __SSE2__
	__m128i p01 = _mm_unpacklo_epi8(_mm_loadl_epi64((const void *)&in[0]),
					_mm_loadl_epi64((const void *)&in[1]));
	__m128i p23 = _mm_unpacklo_epi8(_mm_loadl_epi64((const void *)&in[2]),
					_mm_loadl_epi64((const void *)&in[3]));
	__m128i p45 = _mm_unpacklo_epi8(_mm_loadl_epi64((const void *)&in[4]),
					_mm_loadl_epi64((const void *)&in[5]));
	__m128i p67 = _mm_unpacklo_epi8(_mm_loadl_epi64((const void *)&in[6]),
					_mm_loadl_epi64((const void *)&in[7]));
	__m128i q0 = _mm_unpacklo_epi16(p01, p23), q1 = _mm_unpackhi_epi16(p01, p23);
	__m128i q2 = _mm_unpacklo_epi16(p45, p67), q3 = _mm_unpackhi_epi16(p45, p67);

	_mm_storeu_si128((void *)&out[0], _mm_unpacklo_epi32(q0, q2));
	_mm_storeu_si128((void *)&out[2], _mm_unpackhi_epi32(q0, q2));
	_mm_storeu_si128((void *)&out[4], _mm_unpacklo_epi32(q1, q3));
	_mm_storeu_si128((void *)&out[6], _mm_unpackhi_epi32(q1, q3));
#else
	for (int b = 0; b < 8; b++) {
		uint64_t v = 0;

		for (int r = 0; r < 8; r++)
			v |= ((in[r] >> (8 * b)) & 0xff) << (8 * r);
		out[b] = v;
	}
#endif
}

static inline uint64_t load64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void store64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

/* Index of the layout of @size, added when new.  Return: index or -E2BIG. */
static int layout_index(struct block_layouts *ls, uint32_t size, uint32_t *last)
{
	if (*last < ls->n && ls->l[*last].size == size)
		return (int)*last;
	for (uint32_t i = 0; i < ls->n; i++) {
		if (ls->l[i].size == size) {
			*last = i;
			return (int)i;
		}
	}
	if (ls->n == SLICE_BLOCK_MAX_LAYOUTS)
		return -E2BIG;
	ls->l[ls->n] = (struct slice_block_layout){ .size = size };
	*last = ls->n;
	return (int)ls->n++;
}

/* Where each layout's records (scratch) and planes (after @planes) start. */
static void layouts_place(struct block_layouts *ls, size_t planes)
{
	uint32_t first = 0;

	for (uint32_t i = 0; i < ls->n; i++) {
		ls->start[i] = first;
		ls->plane_off[i] = planes;
		first += ls->l[i].count;
		planes += (size_t)ls->l[i].size * ls->l[i].count;
	}
}

/* Pass 1: the layout of every record into @seq; counts into @ls. */
static int encode_scan(const uint8_t *src, size_t raw_bytes, uint32_t nr, struct block_layouts *ls,
		       uint32_t *seq)
{
	uint32_t last = 0;
	size_t pos = 0;

	for (uint32_t i = 0; i < nr; i++) {
		const struct npuprof_rec_hdr *h = (const void *)(src + pos);
		int idx;

		if (raw_bytes - pos < sizeof(*h) || h->size < sizeof(*h) ||
		    h->size % NPUPROF_REC_ALIGN || h->size > raw_bytes - pos)
			return -EINVAL;
		idx = layout_index(ls, h->size, &last);
		if (idx < 0)
			return idx;
		seq[i] = (uint32_t)idx;
		ls->l[idx].count++;
		pos += h->size;
	}
	return pos == raw_bytes ? 0 : -EINVAL;
}

/* Planes of word @j for records @k..@k+7 of a layout (@recs: offsets in @src). */
static void encode_tile(const uint8_t *src, const uint32_t *recs, uint32_t k, uint32_t j,
			uint8_t *planes, uint32_t count)
{
	uint64_t d[8], out[8], prev = k ? load64(src + recs[k - 1] + 8 * j) : 0;

	for (int r = 0; r < 8; r++) {
		uint64_t w = load64(src + recs[k + r] + 8 * j);

		d[r] = w - prev;
		prev = w;
	}
	tr8x8(d, out);
	for (int b = 0; b < 8; b++)
		store64(planes + (size_t)(8 * j + b) * count + k, out[b]);
}

static void encode_layout(const uint8_t *src, const uint32_t *recs,
			  const struct slice_block_layout *l, uint8_t *planes)
{
	uint32_t words = l->size / 8, k = 0;

	for (; k + 8 <= l->count; k += 8)
		for (uint32_t j = 0; j < words; j++)
			encode_tile(src, recs, k, j, planes, l->count);
	for (; k < l->count; k++) {
		for (uint32_t j = 0; j < words; j++) {
			uint64_t prev = k ? load64(src + recs[k - 1] + 8 * j) : 0;
			uint64_t d = load64(src + recs[k] + 8 * j) - prev;

			for (int b = 0; b < 8; b++)
				planes[(size_t)(8 * j + b) * l->count + k] = (uint8_t)(d >> (8 * b));
		}
	}
}

long slice_block_encode(const uint8_t *src, size_t raw_bytes, uint32_t nr, uint32_t *scratch,
			uint8_t *dst)
{
	struct block_layouts ls = { .n = 0 };
	struct slice_block_hdr *hdr = (void *)dst;
	uint32_t pos[SLICE_BLOCK_MAX_LAYOUTS];
	uint8_t *seq;
	size_t head, off = 0;
	int err = encode_scan(src, raw_bytes, nr, &ls, scratch);

	if (err)
		return err;
	*hdr = (struct slice_block_hdr){ .magic = SLICE_BLOCK_MAGIC, .version = SLICE_BLOCK_VERSION,
					 .nr_records = nr, .nr_layouts = ls.n };
	memcpy(dst + sizeof(*hdr), ls.l, ls.n * sizeof(ls.l[0]));
	seq = dst + sizeof(*hdr) + ls.n * sizeof(ls.l[0]);
	head = (size_t)(seq - dst) + (ls.n > 1 ? nr : 0);
	for (uint32_t i = 0; ls.n > 1 && i < nr; i++)
		seq[i] = (uint8_t)scratch[i];
	layouts_place(&ls, head);
	/* Pass 2: each layout's records in order, as offsets into @src. */
	for (uint32_t i = 0; i < ls.n; i++)
		pos[i] = ls.start[i];
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t l = ls.n > 1 ? seq[i] : 0;

		scratch[pos[l]++] = (uint32_t)off;
		off += ls.l[l].size;
	}
	for (uint32_t i = 0; i < ls.n; i++)
		encode_layout(src, scratch + ls.start[i], &ls.l[i], dst + ls.plane_off[i]);
	return (long)(head + raw_bytes);
}

bool slice_block_is(const uint8_t *p, size_t len)
{
	uint32_t magic;

	if (len < sizeof(magic))
		return false;
	memcpy(&magic, p, sizeof(magic));
	return magic == SLICE_BLOCK_MAGIC;
}

/* Layouts of a block: sizes records can have, counts adding up to @nr. */
static long check_layouts(const struct slice_block_layout *l, uint32_t n, uint32_t nr)
{
	uint64_t records = 0, raw = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (l[i].size < sizeof(struct npuprof_rec_hdr) || l[i].size % NPUPROF_REC_ALIGN ||
		    l[i].size > UINT16_MAX || !l[i].count)
			return -EBADMSG;
		records += l[i].count;
		raw += (uint64_t)l[i].size * l[i].count;
	}
	return records == nr && raw <= UINT32_MAX ? (long)raw : -EBADMSG;
}

long slice_block_check(const uint8_t *p, size_t len, uint32_t *nr_records)
{
	struct slice_block_hdr hdr;
	struct slice_block_layout l[SLICE_BLOCK_MAX_LAYOUTS];
	uint32_t seen[SLICE_BLOCK_MAX_LAYOUTS] = { 0 };
	size_t head;
	long raw;

	if (len < sizeof(hdr) || !slice_block_is(p, len))
		return -EBADMSG;
	memcpy(&hdr, p, sizeof(hdr));
	if (hdr.version > SLICE_BLOCK_VERSION || hdr.flags)
		return -EPROTO;
	if (!hdr.version || !hdr.nr_layouts || hdr.nr_layouts > SLICE_BLOCK_MAX_LAYOUTS ||
	    len - sizeof(hdr) < hdr.nr_layouts * sizeof(l[0]))
		return -EBADMSG;
	memcpy(l, p + sizeof(hdr), hdr.nr_layouts * sizeof(l[0]));
	raw = check_layouts(l, hdr.nr_layouts, hdr.nr_records);
	head = sizeof(hdr) + hdr.nr_layouts * sizeof(l[0]);
	if (raw < 0 || len - head < (hdr.nr_layouts > 1 ? hdr.nr_records : 0))
		return -EBADMSG;
	if (hdr.nr_layouts > 1) {
		for (uint32_t i = 0; i < hdr.nr_records; i++) {
			uint8_t s = p[head + i];

			if (s >= hdr.nr_layouts || seen[s]++ == l[s].count)
				return -EBADMSG;
		}
		head += hdr.nr_records;
	}
	if (len - head != (size_t)raw)
		return -EBADMSG;
	*nr_records = hdr.nr_records;
	return raw;
}

/* Words @j of records @k..@k+7 of a layout from its planes, into @dst. */
static void decode_tile(uint8_t *dst, const uint32_t *recs, uint32_t k, uint32_t j,
			const uint8_t *planes, uint32_t count)
{
	uint64_t in[8], d[8], prev = k ? load64(dst + recs[k - 1] + 8 * j) : 0;

	for (int b = 0; b < 8; b++)
		in[b] = load64(planes + (size_t)(8 * j + b) * count + k);
	tr8x8(in, d);
	for (int r = 0; r < 8; r++) {
		prev += d[r];
		store64(dst + recs[k + r] + 8 * j, prev);
	}
}

static void decode_layout(uint8_t *dst, const uint32_t *recs, const struct slice_block_layout *l,
			  const uint8_t *planes)
{
	uint32_t words = l->size / 8, k = 0;

	for (; k + 8 <= l->count; k += 8)
		for (uint32_t j = 0; j < words; j++)
			decode_tile(dst, recs, k, j, planes, l->count);
	for (; k < l->count; k++) {
		for (uint32_t j = 0; j < words; j++) {
			uint64_t d = 0, prev = k ? load64(dst + recs[k - 1] + 8 * j) : 0;

			for (int b = 0; b < 8; b++)
				d |= (uint64_t)planes[(size_t)(8 * j + b) * l->count + k] << (8 * b);
			store64(dst + recs[k] + 8 * j, prev + d);
		}
	}
}

void slice_block_decode(const uint8_t *p, size_t len, uint32_t *scratch, uint8_t *dst)
{
	struct block_layouts ls;
	struct slice_block_hdr hdr;
	uint32_t pos[SLICE_BLOCK_MAX_LAYOUTS];
	const uint8_t *seq;
	size_t off = 0, head;

	(void)len; /* checked by slice_block_check() */
	memcpy(&hdr, p, sizeof(hdr));
	ls.n = hdr.nr_layouts;
	memcpy(ls.l, p + sizeof(hdr), ls.n * sizeof(ls.l[0]));
	seq = p + sizeof(hdr) + ls.n * sizeof(ls.l[0]);
	head = (size_t)(seq - p) + (ls.n > 1 ? hdr.nr_records : 0);
	layouts_place(&ls, head);
	for (uint32_t i = 0; i < ls.n; i++)
		pos[i] = ls.start[i];
	for (uint32_t i = 0; i < hdr.nr_records; i++) {
		uint32_t l = ls.n > 1 ? seq[i] : 0;

		scratch[pos[l]++] = (uint32_t)off;
		off += ls.l[l].size;
	}
	for (uint32_t i = 0; i < ls.n; i++)
		decode_layout(dst, scratch + ls.start[i], &ls.l[i], p + ls.plane_off[i]);
}
