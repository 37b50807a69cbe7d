// SPDX-License-Identifier: MIT
/*
 * Where the bytes of a slice series go (bench P5's breakdown).
 *
 *   slice_bytes [--level N] [--frame-ms MS] SLICE...
 *
 * SLICE...: the files of one series in order (e.g. npuprof.task.0.slice_0
 * _1 ...).  Prints, as "key value" lines a script can read:
 *  - on disk: bytes, zstd frames, records, bytes per record, records per
 *    frame (min, median, max), frames per second of trace time, and the
 *    framing overhead: zstd frame headers, zstd block headers and
 *    checksums, and the raw bytes of the block headers inside the frames
 *    (block header, layouts or groups, order bytes, present bitmaps);
 *  - per field: the same records re-encoded frame by frame (the same frame
 *    boundaries, zstd level N, default 1 as the drain) by the version-1
 *    block codec (frame version 2, "v2") and by the modelled codec the
 *    writer uses now (frame version 3, "v3"), once whole and once with the
 *    byte planes of that field's words left out of every block: the
 *    difference, in bytes per record of the series, is what the field
 *    costs after the transforms.  "v2"/"v3" total lines give the
 *    re-encoded sizes; the fields add up to about them (what is left is
 *    block headers and zstd's own framing).
 * With --frame-ms, the re-encoding cuts frames anew as a drain that closes
 * a frame every MS ms would have (a frame ends before the first record
 * MS ms or more after its own first one, host time), to compare frame
 * policies on the same records; the on-disk figures stay the file's.
 * Frames are decoded like the reader does; a frame it cannot decode ends
 * the input with a message.
 */
#define ZSTD_STATIC_LINKING_ONLY
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <npuprof/record.h>

#include "../../user/slice_block.h"
#include "../../user/slice_model.h"

struct frame {
	uint8_t *raw; /* its records, decoded */
	size_t raw_len;
	uint32_t nr;
	size_t disk;	 /* compressed bytes */
	size_t framing;	 /* zstd frame header, block headers, checksum */
	size_t blk_head; /* block header bytes (raw, inside the frame) */
};

struct series {
	struct frame *f;
	size_t n, cap;
	struct slice_coder *dec;
};

/* A field of one record type: its words @lo..@hi (8 bytes each). */
struct field {
	uint16_t size; /* of the record type, which is what version-1 blocks group by */
	uint8_t lo, hi;
	const char *name;
};

static const struct field fields[] = {
	{ sizeof(struct npuprof_rec_task), 0, 0, "task.type_size_cpu" },
	{ sizeof(struct npuprof_rec_task), 1, 1, "task.ts" },
	{ sizeof(struct npuprof_rec_task), 2, 2, "task.dev_ts" },
	{ sizeof(struct npuprof_rec_task), 3, 3, "task.pid_tid" },
	{ sizeof(struct npuprof_rec_task), 4, 4, "task.device_stream" },
	{ sizeof(struct npuprof_rec_task), 5, 5, "task.task_id_event_type" },
	{ sizeof(struct npuprof_rec_task), 6, 6, "task.arg" },
	{ sizeof(struct npuprof_rec_task), 7, 10, "task.name" },
	{ sizeof(struct npuprof_rec_api), 0, 0, "api.type_size_cpu" },
	{ sizeof(struct npuprof_rec_api), 1, 1, "api.ts" },
	{ sizeof(struct npuprof_rec_api), 2, 2, "api.exit_ts" },
	{ sizeof(struct npuprof_rec_api), 3, 3, "api.pid_tid" },
	{ sizeof(struct npuprof_rec_api), 4, 4, "api.api_flags_ret" },
	{ sizeof(struct npuprof_rec_api), 5, 5, "api.device_kind" },
	{ sizeof(struct npuprof_rec_api), 6, 6, "api.stream" },
	{ sizeof(struct npuprof_rec_api), 7, 7, "api.bytes" },
	{ sizeof(struct npuprof_rec_api), 8, 8, "api.handle" },
	{ sizeof(struct npuprof_rec_api), 9, 12, "api.name" },
};

static void die(const char *what, const char *path)
{
	fprintf(stderr, "slice_bytes: %s: %s\n", path, what);
	exit(1);
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0)
		die("cannot read", path);
	rewind(f);
	b = malloc((size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		die("cannot read", path);
	fclose(f);
	*len = (size_t)n;
	return b;
}

/* Header, block headers and checksum of the zstd frame @p (@len bytes, whole). */
static size_t zstd_framing(const uint8_t *p, size_t len)
{
	size_t off = ZSTD_frameHeaderSize(p, len), head = off;
	ZSTD_frameHeader fh;
	int last = 0;

	if (ZSTD_isError(off) || ZSTD_getFrameHeader(&fh, p, len))
		return 0;
	while (!last && off + 3 <= len) {
		uint32_t bh = p[off] | p[off + 1] << 8 | (uint32_t)p[off + 2] << 16;

		last = bh & 1;
		off += 3 + (((bh >> 1) & 3) == 1 ? 1 : bh >> 3);
		head += 3;
	}
	return head + (fh.checksumFlag ? 4 : 0);
}

/* Bytes of a block's headers: what is not planes. */
static size_t block_head(const uint8_t *blk, size_t len)
{
	struct slice_block_hdr h;
	size_t planes = 0;

	memcpy(&h, blk, sizeof(h));
	if (h.version >= SLICE_MBLOCK_VERSION) {
		const struct slice_mblock_group *g = (const void *)(blk + sizeof(struct slice_mblock_hdr));
		const uint8_t *present = blk + sizeof(struct slice_mblock_hdr) + h.nr_layouts * sizeof(*g) +
					 (h.nr_layouts > 1 ? h.nr_records : 0);

		for (uint32_t i = 0; i < h.nr_layouts; i++) {
			for (uint32_t j = 0; j < g[i].size / 8u; j++)
				planes += (size_t)__builtin_popcount(*present++) * g[i].count;
		}
		return len - planes;
	}
	/* version 1: sparse planes, as slice_block.c lays them out */
	const struct slice_block_layout *l = (const void *)(blk + sizeof(h));
	const uint8_t *present = blk + sizeof(h) + h.nr_layouts * sizeof(*l) +
				 (h.nr_layouts > 1 ? h.nr_records : 0);

	for (uint32_t i = 0; i < h.nr_layouts; i++) {
		for (uint32_t j = 0; j < l[i].size / 8; j++)
			planes += (size_t)__builtin_popcount(*present++) * l[i].count;
	}
	return len - planes;
}

/* Decode one frame's block into @fr.  Return: 0, -EBADMSG. */
static int frame_decode(struct series *s, struct frame *fr, const uint8_t *blk, size_t len)
{
	uint16_t version;
	uint32_t nr;
	long raw;

	if (!slice_block_is(blk, len) || len < 8)
		return -EBADMSG; /* version-1 frames (raw records) are not broken down */
	memcpy(&version, blk + 4, sizeof(version));
	raw = version >= SLICE_MBLOCK_VERSION ? slice_mblock_check(blk, len, &nr) :
						 slice_block_check(blk, len, &nr);
	if (raw < 0)
		return -EBADMSG;
	fr->raw = malloc((size_t)raw);
	fr->raw_len = (size_t)raw;
	fr->nr = nr;
	if (!fr->raw)
		return -ENOMEM;
	if (version >= SLICE_MBLOCK_VERSION)
		return slice_mblock_decode(s->dec, blk, len, fr->raw);
	uint32_t *scratch = malloc(nr * sizeof(*scratch));

	if (!scratch)
		return -ENOMEM;
	slice_block_decode(blk, len, scratch, fr->raw);
	free(scratch);
	return 0;
}

static void load_slice(struct series *s, const char *path)
{
	size_t len, pos = 0;
	uint8_t *b = slurp(path, &len);

	slice_coder_reset(s->dec);
	while (pos < len) {
		size_t c = ZSTD_findFrameCompressedSize(b + pos, len - pos);
		unsigned long long cs = ZSTD_isError(c) ? 0 : ZSTD_getFrameContentSize(b + pos, c);
		struct frame *fr;
		uint8_t *blk;
		size_t n;

		if (ZSTD_isError(c) || cs == ZSTD_CONTENTSIZE_ERROR || cs == ZSTD_CONTENTSIZE_UNKNOWN)
			die("a frame without a known size (cut or not a slice)", path);
		if (s->n == s->cap) {
			s->cap = s->cap ? 2 * s->cap : 64;
			s->f = realloc(s->f, s->cap * sizeof(*s->f));
			if (!s->f)
				die("out of memory", path);
		}
		fr = &s->f[s->n];
		blk = malloc(cs + 1);
		n = blk ? ZSTD_decompress(blk, cs, b + pos, c) : 0;
		if (!blk || ZSTD_isError(n) || frame_decode(s, fr, blk, n))
			die("a frame that does not decode as a block", path);
		fr->disk = c;
		fr->framing = zstd_framing(b + pos, c);
		fr->blk_head = block_head(blk, n);
		free(blk);
		s->n++;
		pos += c;
	}
	free(b);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Host ns of the first record of @fr and of its last. */
static void frame_span(const struct frame *fr, uint64_t *first, uint64_t *last)
{
	const struct npuprof_rec_hdr *h = (const void *)fr->raw;

	*first = h->ts;
	for (size_t off = 0; off < fr->raw_len; off += h->size) {
		h = (const void *)(fr->raw + off);
		*last = h->ts;
	}
}

/* Host ns of the record at @p. */
static uint64_t rec_ts(const uint8_t *p)
{
	const struct npuprof_rec_hdr *h = (const void *)p;

	return h->ts;
}

/* @s's records cut into frames of @ms ms of host time each (see the top). */
static struct series reframe(const struct series *s, unsigned int ms)
{
	struct series out = { .cap = 16 };
	uint64_t first = 0;
	struct frame *fr = NULL;

	out.f = calloc(out.cap, sizeof(*out.f));
	for (size_t i = 0; i < s->n; i++) {
		for (size_t off = 0; off < s->f[i].raw_len;) {
			const uint8_t *rec = s->f[i].raw + off;
			uint16_t size = ((const struct npuprof_rec_hdr *)rec)->size;

			if (!fr || (int64_t)(rec_ts(rec) - first) >= (int64_t)ms * 1000000) {
				if (out.n == out.cap) {
					out.cap *= 2;
					out.f = realloc(out.f, out.cap * sizeof(*out.f));
				}
				fr = &out.f[out.n++];
				*fr = (struct frame){ .raw = malloc(s->f[i].raw_len + 1) };
				first = rec_ts(rec);
			}
			fr->raw = realloc(fr->raw, fr->raw_len + size);
			if (!out.f || !fr->raw)
				die("out of memory", "--frame-ms");
			memcpy(fr->raw + fr->raw_len, rec, size);
			fr->raw_len += size;
			fr->nr++;
			off += size;
		}
	}
	return out;
}

static void report_disk(const struct series *s)
{
	size_t disk = 0, framing = 0, head = 0, records = 0;
	uint32_t *nr = malloc(s->n * sizeof(*nr));
	uint64_t t0 = 0, t1 = 0, x = 0;

	for (size_t i = 0; i < s->n; i++) {
		disk += s->f[i].disk;
		framing += s->f[i].framing;
		head += s->f[i].blk_head;
		records += s->f[i].nr;
		nr[i] = s->f[i].nr;
	}
	qsort(nr, s->n, sizeof(*nr), cmp_u32);
	frame_span(&s->f[0], &t0, &x);
	frame_span(&s->f[s->n - 1], &x, &t1);
	printf("disk_bytes %zu\nframes %zu\nrecords %zu\nbytes_per_record %.3f\n", disk, s->n,
	       records, (double)disk / records);
	printf("records_per_frame_min %u\nrecords_per_frame_median %u\nrecords_per_frame_max %u\n",
	       nr[0], nr[s->n / 2], nr[s->n - 1]);
	printf("trace_seconds %.3f\nframes_per_second %.2f\n", (t1 - t0) / 1e9,
	       t1 > t0 ? s->n / ((t1 - t0) / 1e9) : 0.0);
	printf("zstd_framing_bytes %zu\nzstd_framing_per_record %.3f\n", framing,
	       (double)framing / records);
	printf("block_header_raw_bytes %zu\nblock_header_raw_per_record %.3f\n", head,
	       (double)head / records);
	free(nr);
}

/*
 * Squeeze the planes of field @fd's words out of the block @blk (@len
 * bytes), in place.  Return: the block's new length.  The block no longer
 * decodes; it is only compressed, to see what those planes cost.
 */
static size_t strip_field(uint8_t *blk, size_t len, const struct field *fd)
{
	struct slice_block_hdr h;
	size_t head, groups_at, gsize, src, dst;
	uint8_t *present;

	memcpy(&h, blk, sizeof(h));
	if (h.version >= SLICE_MBLOCK_VERSION) {
		groups_at = sizeof(struct slice_mblock_hdr);
		gsize = sizeof(struct slice_mblock_group);
	} else {
		groups_at = sizeof(h);
		gsize = sizeof(struct slice_block_layout);
	}
	present = blk + groups_at + h.nr_layouts * gsize + (h.nr_layouts > 1 ? h.nr_records : 0);
	head = (size_t)(present - blk);
	for (uint32_t i = 0; i < h.nr_layouts; i++) {
		uint16_t size;

		memcpy(&size, blk + groups_at + i * gsize, sizeof(size));
		head += size / 8u;
	}
	src = dst = head;
	for (uint32_t i = 0; i < h.nr_layouts; i++) {
		uint32_t size, count;

		if (h.version >= SLICE_MBLOCK_VERSION) {
			const struct slice_mblock_group *g = (const void *)(blk + groups_at + i * gsize);

			size = g->size;
			count = g->count;
		} else {
			const struct slice_block_layout *l = (const void *)(blk + groups_at + i * gsize);

			size = l->size;
			count = l->count;
		}
		for (uint32_t j = 0; j < size / 8; j++, present++) {
			size_t n = (size_t)__builtin_popcount(*present) * count;
			bool drop = size == fd->size && j >= fd->lo && j <= fd->hi;

			if (!drop)
				memmove(blk + dst, blk + src, n);
			dst += drop ? 0 : n;
			src += n;
		}
	}
	return len - (src - dst);
}

/*
 * Compressed bytes of the series re-encoded (@v3: modelled blocks), frame
 * by frame, with the planes of field @fd left out (NULL: all kept).
 */
static size_t reencode(const struct series *s, bool v3, int level, const struct field *fd)
{
	struct slice_coder *enc = slice_coder_new(0, 0);
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	size_t total = 0;

	ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, level);
	ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1);
	for (size_t i = 0; i < s->n; i++) {
		const struct frame *fr = &s->f[i];
		size_t bound = slice_mblock_bound(fr->raw_len, fr->nr);
		uint8_t *blk = malloc(bound), *out = malloc(ZSTD_compressBound(bound));
		uint32_t *scratch = malloc(fr->nr * sizeof(*scratch));
		long n;

		if (!blk || !out || !scratch)
			die("out of memory", "re-encode");
		if (v3) {
			for (size_t off = 0; off < fr->raw_len;
			     off += ((const struct npuprof_rec_hdr *)(fr->raw + off))->size)
				if (slice_coder_note(enc, (const void *)(fr->raw + off)))
					die("more groups than a block holds", "re-encode");
			n = slice_mblock_encode(enc, fr->raw, fr->raw_len, blk);
		} else {
			n = slice_block_encode(fr->raw, fr->raw_len, fr->nr, scratch, blk);
		}
		if (n < 0)
			die("cannot re-encode", "frame");
		if (fd)
			n = (long)strip_field(blk, (size_t)n, fd);
		total += ZSTD_compress2(cc, out, ZSTD_compressBound(bound), blk, (size_t)n);
		free(blk);
		free(out);
		free(scratch);
	}
	ZSTD_freeCCtx(cc);
	slice_coder_free(enc);
	return total;
}

static bool has_size(const struct series *s, uint16_t size)
{
	for (size_t i = 0; i < s->n; i++) {
		for (size_t off = 0; off < s->f[i].raw_len;) {
			const struct npuprof_rec_hdr *h = (const void *)(s->f[i].raw + off);

			if (h->size == size)
				return true;
			off += h->size;
		}
	}
	return false;
}

static void report_fields(const struct series *s, int level)
{
	size_t records = 0, base[2];

	for (size_t i = 0; i < s->n; i++)
		records += s->f[i].nr;
	for (int v = 0; v < 2; v++) {
		base[v] = reencode(s, v, level, NULL);
		printf("v%d_bytes %zu\nv%d_bytes_per_record %.3f\n", v + 2, base[v], v + 2,
		       (double)base[v] / records);
	}
	for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
		if (!has_size(s, fields[k].size))
			continue;
		for (int v = 0; v < 2; v++) {
			long d = (long)base[v] - (long)reencode(s, v, level, &fields[k]);

			printf("v%d_field %s %.3f\n", v + 2, fields[k].name, (double)d / records);
		}
	}
}

int main(int argc, char **argv)
{
	struct series s = { .dec = slice_coder_new(0, 0) };
	int level = 1, i = 1;
	unsigned int frame_ms = 0;

	for (; i + 1 < argc && !strncmp(argv[i], "--", 2); i += 2) {
		if (!strcmp(argv[i], "--level"))
			level = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--frame-ms"))
			frame_ms = (unsigned int)atoi(argv[i + 1]);
		else
			break;
	}
	if (i >= argc || !s.dec) {
		fprintf(stderr, "usage: slice_bytes [--level N] [--frame-ms MS] SLICE...\n");
		return 2;
	}
	for (; i < argc; i++)
		load_slice(&s, argv[i]);
	if (!s.n)
		die("no frames", argv[argc - 1]);
	report_disk(&s);
	if (frame_ms) {
		s = reframe(&s, frame_ms);
		printf("reframed_frames %zu\n", s.n);
	}
	report_fields(&s, level);
	return 0;
}
