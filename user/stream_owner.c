// SPDX-License-Identifier: MIT
/*
 * Stream -> owner pid table (npuprof/stream_owner.h).  One flat array per
 * device, indexed by stream id (stream ids are small: below 2048 on a
 * 910B, 32768 in the runtime's expanded mode), grown on demand.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <npuprof/npu_backend.h>
#include <npuprof/stream_owner.h>

/* Highest stream id kept (the runtime's expanded mode: 15 bits). */
#define STREAM_OWNER_MAX_STREAM 32767u

struct owner_dev {
	uint32_t *pid; /* by stream id */
	uint32_t n;    /* entries of @pid */
};

struct npuprof_stream_owners {
	char root[PATH_MAX];
	struct owner_dev dev[NPU_BACKEND_MAX_DEVICES];
};

struct npuprof_stream_owners *npuprof_stream_owners_new(const char *proc_root)
{
	struct npuprof_stream_owners *t = calloc(1, sizeof(*t));

	if (t)
		snprintf(t->root, sizeof(t->root), "%s", proc_root ? proc_root : "/proc");
	return t;
}

void npuprof_stream_owners_free(struct npuprof_stream_owners *t)
{
	unsigned int i;

	if (!t)
		return;
	for (i = 0; i < NPU_BACKEND_MAX_DEVICES; i++)
		free(t->dev[i].pid);
	free(t);
}

int npuprof_stream_owners_set(struct npuprof_stream_owners *t, int device, uint32_t stream,
			      uint32_t pid)
{
	struct owner_dev *d;
	uint32_t n, *p;

	if (device < 0 || device >= NPU_BACKEND_MAX_DEVICES || stream > STREAM_OWNER_MAX_STREAM)
		return -EINVAL;
	d = &t->dev[device];
	if (stream >= d->n) {
		if (!pid)
			return 0;
		n = d->n ? d->n : 64;
		while (n <= stream)
			n *= 2;
		p = realloc(d->pid, n * sizeof(*p));
		if (!p)
			return -ENOMEM;
		memset(p + d->n, 0, (n - d->n) * sizeof(*p));
		d->pid = p;
		d->n = n;
	}
	d->pid[stream] = pid;
	return 0;
}

uint32_t npuprof_stream_owners_pid(const struct npuprof_stream_owners *t, int device,
				   uint32_t stream)
{
	const struct owner_dev *d;

	if (device < 0 || device >= NPU_BACKEND_MAX_DEVICES)
		return 0;
	d = &t->dev[device];
	return stream < d->n ? d->pid[stream] : 0;
}

/* The number after word @p (separators: spaces, '=', ':'), or -1. */
static long long number_after(const char *p)
{
	char *end;
	long long v;

	while (*p == ' ' || *p == '\t' || *p == '=' || *p == ':')
		p++;
	if (!isdigit((unsigned char)*p))
		return -1;
	errno = 0;
	v = strtoll(p, &end, 10);
	if (errno || v > UINT32_MAX)
		return -1;
	return v;
}

int npuprof_stream_owners_parse_line(const char *line, uint32_t *stream, uint32_t *pid)
{
	long long sid = -1, owner = -1, v;
	const char *p = line, *w;
	size_t len;

	while (*p) {
		while (*p && !isalpha((unsigned char)*p) && *p != '_')
			p++;
		w = p;
		while (*p && (isalnum((unsigned char)*p) || *p == '_'))
			p++;
		len = (size_t)(p - w);
		if (!len)
			continue;
		if ((len == 2 && !strncmp(w, "id", 2)) || (len == 9 && !strncmp(w, "stream_id", 9))) {
			v = number_after(p);
			if (v >= 0 && sid < 0)
				sid = v;
		} else if (len == 3 && !strncmp(w, "pid", 3)) {
			v = number_after(p);
			if (v >= 0 && owner < 0)
				owner = v;
		}
	}
	if (sid < 0 || owner < 0)
		return 0;
	*stream = (uint32_t)sid;
	*pid = (uint32_t)owner;
	return 1;
}

int npuprof_stream_owners_load(struct npuprof_stream_owners *t, int device)
{
	char path[PATH_MAX + 64], line[512];
	uint32_t stream, pid;
	int n = 0, err;
	FILE *f;

	if (device < 0 || device >= NPU_BACKEND_MAX_DEVICES)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/trs_core/ts_inst/dev%d-ts0/stream", t->root, device);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* A stream gone since the last read keeps its owner: its records may still come. */
	while (fgets(line, sizeof(line), f)) {
		if (!npuprof_stream_owners_parse_line(line, &stream, &pid))
			continue;
		err = npuprof_stream_owners_set(t, device, stream, pid);
		if (err == -ENOMEM) {
			fclose(f);
			return err;
		}
		n += !err;
	}
	fclose(f);
	return n;
}
