// SPDX-License-Identifier: MIT
/*
 * Timeline slicing (export_tl_slice.h): msprof_slice.json, the sketch of
 * event bytes by anchor time, and the boundaries taken from it.
 */
#include <errno.h>
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/msg.h>

#include "export_file.h"
#include "export_tl_slice.h"

/* Marks a sketch holds before merging neighbours: 16 MiB. */
#define TL_SKETCH_MARKS (1u << 20)
/* Slice caps when "slice_file_size(MB)" sets none, by "strategy". */
#define TL_CAP_FEWEST (1024ULL << 20)
#define TL_CAP_FAST (200ULL << 20)

/* $NPUPROF_SLICE_CONFIG, else <dir of msprof>/../share/npuprof/msprof_slice.json. */
static void config_path(char *path)
{
	const char *env = getenv("NPUPROF_SLICE_CONFIG");
	char exe[PATH_MAX];
	ssize_t n;

	path[0] = '\0';
	if (env && *env) {
		snprintf(path, PATH_MAX, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return;
	exe[n] = '\0';
	snprintf(path, PATH_MAX, "%s/../share/npuprof/msprof_slice.json", dirname(exe));
	if (access(path, F_OK))
		path[0] = '\0';
}

static int bad_value(const char *path, const char *key)
{
	char text[EXPORT_PATH_TEXT_LEN];

	npuprof_err("%s: \"%s\" has a value msprof_slice.json does not take (see man msprof, Timeline slicing)",
		    export_path_text(path, text, sizeof(text)), key);
	return -EINVAL;
}

/* The keys of @doc into @cfg. */
static int config_parse(json_t *doc, const char *path, struct export_tl_slice_cfg *cfg)
{
	json_t *sw = json_object_get(doc, "slice_switch");
	json_t *size = json_object_get(doc, "slice_file_size(MB)");
	json_t *strategy = json_object_get(doc, "strategy");
	json_int_t st = json_is_integer(strategy) ? json_integer_value(strategy) : 0;

	if (sw && (!json_is_string(sw) || (strcmp(json_string_value(sw), "on") &&
					   strcmp(json_string_value(sw), "off"))))
		return bad_value(path, "slice_switch");
	if (strategy && (!json_is_integer(strategy) || st < 0 || st > 1))
		return bad_value(path, "strategy");
	if (size && !json_is_integer(size))
		return bad_value(path, "slice_file_size(MB)");
	cfg->on = sw && !strcmp(json_string_value(sw), "on");
	cfg->cap_bytes = st ? TL_CAP_FAST : TL_CAP_FEWEST;
	if (size && json_integer_value(size) >= 200)
		cfg->cap_bytes = (uint64_t)json_integer_value(size) << 20;
	return 0;
}

int export_tl_slice_config(struct export_tl_slice_cfg *cfg, char *path)
{
	char buf[PATH_MAX], text[EXPORT_PATH_TEXT_LEN];
	json_t *doc;
	int err;

	*cfg = (struct export_tl_slice_cfg){ .cap_bytes = TL_CAP_FEWEST,
					     .min_bytes = EXPORT_TL_SLICE_MIN };
	if (!path)
		path = buf;
	config_path(path);
	if (!path[0])
		return 0;
	doc = export_load_json(path, &err);
	if (!doc) {
		npuprof_err("reading %s: %s", export_path_text(path, text, sizeof(text)),
			    err == -EBADMSG ? "not valid JSON" : strerror(-err));
		return err == -EBADMSG ? -EINVAL : err;
	}
	err = config_parse(doc, path, cfg);
	json_decref(doc);
	return err;
}

static int mark_cmp(const void *a, const void *b)
{
	const struct export_tl_mark *x = a, *y = b;

	return x->anchor < y->anchor ? -1 : x->anchor > y->anchor;
}

/* Sort the marks and fold equal anchors into one. */
static void sketch_sort(struct export_tl_sketch *sk)
{
	size_t j = 0;

	qsort(sk->m, sk->n, sizeof(*sk->m), mark_cmp);
	for (size_t i = 0; i < sk->n; i++) {
		if (j && sk->m[j - 1].anchor == sk->m[i].anchor)
			sk->m[j - 1].bytes += sk->m[i].bytes;
		else
			sk->m[j++] = sk->m[i];
	}
	sk->n = j;
}

/* Full: sort, then merge each two neighbours (the first one's anchor). */
static void sketch_halve(struct export_tl_sketch *sk)
{
	size_t j = 0;

	sketch_sort(sk);
	for (size_t i = 0; i < sk->n; i += 2, j++) {
		sk->m[j] = sk->m[i];
		if (i + 1 < sk->n)
			sk->m[j].bytes += sk->m[i + 1].bytes;
	}
	sk->n = j;
}

int export_tl_sketch_add(struct export_tl_sketch *sk, int64_t anchor, uint64_t bytes)
{
	if (!sk->m) {
		sk->m = malloc(TL_SKETCH_MARKS * sizeof(*sk->m));
		if (!sk->m)
			return -ENOMEM;
		sk->cap = TL_SKETCH_MARKS;
	}
	if (sk->n == sk->cap)
		sketch_halve(sk);
	sk->m[sk->n++] = (struct export_tl_mark){ anchor, bytes };
	sk->total += bytes;
	return 0;
}

int export_tl_sketch_bounds(struct export_tl_sketch *sk, uint64_t cap_bytes, int64_t **bounds,
			    size_t *n)
{
	/* "[\n", ",\n" per event and "\n]\n" are in the events' bytes but 4 */
	uint64_t room = cap_bytes / 10 * 9, fill = 0;
	size_t nb = 0, cap = 16;
	int64_t *b;

	if (room <= sk->meta_bytes + 4)
		return -EFBIG;
	room -= sk->meta_bytes + 4;
	b = malloc(cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	sketch_sort(sk);
	for (size_t i = 0; i < sk->n; i++) {
		if (fill && fill + sk->m[i].bytes > room) {
			if (nb == cap) {
				int64_t *p = realloc(b, (cap *= 2) * sizeof(*b));

				if (!p) {
					free(b);
					return -ENOMEM;
				}
				b = p;
			}
			b[nb++] = sk->m[i].anchor;
			fill = 0;
		}
		fill += sk->m[i].bytes;
	}
	*bounds = b;
	*n = nb + 1;
	return 0;
}

void export_tl_sketch_free(struct export_tl_sketch *sk)
{
	free(sk->m);
	*sk = (struct export_tl_sketch){ 0 };
}

size_t export_tl_slice_of(const int64_t *bounds, size_t n, int64_t anchor)
{
	size_t lo = 0, hi = n - 1; /* the slice is the count of bounds <= anchor */

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bounds[mid] <= anchor)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
