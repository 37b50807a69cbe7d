// SPDX-License-Identifier: MIT
/*
 * Names inside a PROF_XXX directory: built and parsed here only (the
 * layout is drawn in npuprof/prof_layout.h); and finding the PROF dirs a
 * path names, by those names (the exporter's and --query's search).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <npuprof/prof_layout.h>

#define PROF_INDEX_MAX 999999u
#define PROF_PID_MAX 99999999
#define PROF_STAMP_LEN 17
#define PROF_LETTERS 8

/* snprintf()'s result as this module's return value. */
static int fit(int n, size_t size)
{
	if (n < 0)
		return -EINVAL;
	return (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int all_letters(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 'A' || s[i] > 'R')
			return 0;
	return 1;
}

int npuprof_prof_name_build(char *buf, size_t size, const struct npuprof_prof_name *n)
{
	if (n->index > PROF_INDEX_MAX || n->pid < 0 || n->pid > PROF_PID_MAX ||
	    strlen(n->stamp) != PROF_STAMP_LEN || !all_digits(n->stamp, PROF_STAMP_LEN) ||
	    strlen(n->letters) != PROF_LETTERS || !all_letters(n->letters, PROF_LETTERS))
		return -EINVAL;
	return fit(snprintf(buf, size, NPUPROF_PROF_PREFIX "%06u_%s_%08d%s", n->index, n->stamp,
			    n->pid, n->letters),
		   size);
}

int npuprof_prof_name_make(char *buf, size_t size, pid_t pid, const struct timespec *now,
			   uint64_t seed)
{
	struct npuprof_prof_name n = { .index = 1, .pid = (int)pid };
	uint64_t h = (uint64_t)now->tv_sec * 1000003u ^ (uint64_t)now->tv_nsec ^
		     ((uint64_t)pid << 20) ^ seed;
	struct tm tm;

	for (int i = 0; i < PROF_LETTERS; i++) {
		h = h * 6364136223846793005ull + 1442695040888963407ull;
		n.letters[i] = (char)('A' + (h >> 33) % 18);
	}
	localtime_r(&now->tv_sec, &tm);
	/* each field held to its width, so the stamp is always 17 digits */
	snprintf(n.stamp, sizeof(n.stamp), "%04u%02u%02u%02u%02u%02u%03u",
		 (unsigned int)(tm.tm_year + 1900) % 10000u, (unsigned int)(tm.tm_mon + 1) % 100u,
		 (unsigned int)tm.tm_mday % 100u, (unsigned int)tm.tm_hour % 100u,
		 (unsigned int)tm.tm_min % 100u, (unsigned int)tm.tm_sec % 100u,
		 (unsigned int)(now->tv_nsec / 1000000) % 1000u);
	return npuprof_prof_name_build(buf, size, &n);
}

int npuprof_prof_name_parse(const char *name, struct npuprof_prof_name *n)
{
	/* PROF_ iiiiii _ stamp(17) _ pppppppp LLLLLLLL */
	const size_t pre = sizeof(NPUPROF_PROF_PREFIX) - 1;
	const size_t len = pre + 6 + 1 + PROF_STAMP_LEN + 1 + 8 + PROF_LETTERS;
	const char *p = name + pre;

	if (strlen(name) != len || strncmp(name, NPUPROF_PROF_PREFIX, pre) ||
	    !all_digits(p, 6) || p[6] != '_' || !all_digits(p + 7, PROF_STAMP_LEN) ||
	    p[7 + PROF_STAMP_LEN] != '_' || !all_digits(p + 8 + PROF_STAMP_LEN, 8) ||
	    !all_letters(p + 16 + PROF_STAMP_LEN, PROF_LETTERS))
		return -EINVAL;
	n->index = (unsigned int)strtoul(p, NULL, 10);
	memcpy(n->stamp, p + 7, PROF_STAMP_LEN);
	n->stamp[PROF_STAMP_LEN] = '\0';
	n->pid = (int)strtol(p + 8 + PROF_STAMP_LEN, NULL, 10);
	memcpy(n->letters, p + 16 + PROF_STAMP_LEN, PROF_LETTERS);
	n->letters[PROF_LETTERS] = '\0';
	return 0;
}

int npuprof_prof_name_match(const char *name)
{
	const size_t pre = sizeof(NPUPROF_PROF_PREFIX) - 1;

	return !strncmp(name, NPUPROF_PROF_PREFIX, pre) && name[pre] != '\0';
}

int npuprof_device_dir_name(char *buf, size_t size, uint32_t id)
{
	return fit(snprintf(buf, size, NPUPROF_PROF_DEVICE_PREFIX "%u", id), size);
}

int npuprof_device_dir_parse(const char *name, uint32_t *id)
{
	const size_t pre = sizeof(NPUPROF_PROF_DEVICE_PREFIX) - 1;
	const char *p = name + pre;
	size_t len;
	uint64_t v = 0;

	if (strncmp(name, NPUPROF_PROF_DEVICE_PREFIX, pre))
		return -EINVAL;
	len = strlen(p);
	/* 1..10 digits, no leading zero but "0" itself: one spelling per id */
	if (!len || len > 10 || !all_digits(p, len) || (p[0] == '0' && len > 1))
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		v = v * 10 + (uint64_t)(p[i] - '0');
	if (v > UINT32_MAX)
		return -EINVAL;
	*id = (uint32_t)v;
	return 0;
}

int npuprof_device_ctrl_name(char *buf, size_t size, uint32_t id, enum npuprof_ctrl_file kind)
{
	static const char *const stem[] = {
		[NPUPROF_CTRL_START_INFO] = "start_info",
		[NPUPROF_CTRL_END_INFO] = "end_info",
		[NPUPROF_CTRL_INFO_JSON] = "info.json",
	};

	if (kind == NPUPROF_CTRL_SAMPLE_JSON)
		return fit(snprintf(buf, size, NPUPROF_PROF_DEVICE_PREFIX "%u/sample.json", id),
			   size);
	if ((unsigned int)kind >= sizeof(stem) / sizeof(stem[0]))
		return -EINVAL;
	return fit(snprintf(buf, size, NPUPROF_PROF_DEVICE_PREFIX "%u/%s.%u", id, stem[kind], id),
		   size);
}

int npuprof_ctrl_tmp_name(char *buf, size_t size, const char *rel)
{
	const char *base = strrchr(rel, '/');
	int dir_len = base ? (int)(base - rel + 1) : 0;

	return fit(snprintf(buf, size, "%.*s.%s.tmp", dir_len, rel, base ? base + 1 : rel), size);
}

int npuprof_series_dir(char *buf, size_t size, long device)
{
	if (device == NPUPROF_PROF_HOST)
		return fit(snprintf(buf, size, "%s", NPUPROF_PROF_HOST_DATA), size);
	if (device < 0 || (unsigned long)device > UINT32_MAX)
		return -EINVAL;
	return fit(snprintf(buf, size, NPUPROF_PROF_DEVICE_PREFIX "%ld/" NPUPROF_PROF_DATA_DIR,
			    device),
		   size);
}

int npuprof_series_name(char *buf, size_t size, long device)
{
	if (device == NPUPROF_PROF_HOST)
		return fit(snprintf(buf, size, "%s", NPUPROF_PROF_API_SERIES), size);
	if (device < 0 || (unsigned long)device > UINT32_MAX)
		return -EINVAL;
	return fit(snprintf(buf, size, NPUPROF_PROF_TASK_SERIES ".%ld", device), size);
}

int npuprof_slice_name(char *buf, size_t size, const char *series, unsigned int idx)
{
	return fit(snprintf(buf, size, "%s" NPUPROF_PROF_SLICE_INFIX "%u", series, idx), size);
}

int npuprof_slice_done_name(char *buf, size_t size, const char *slice)
{
	return fit(snprintf(buf, size, "%s" NPUPROF_PROF_DONE_SUFFIX, slice), size);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int npuprof_prof_devices(const char *prof_dir, uint32_t **ids)
{
	DIR *d = opendir(prof_dir);
	struct dirent *de;
	uint32_t *v = NULL, *grown, id;
	size_t n = 0, cap = 0;

	*ids = NULL;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (npuprof_device_dir_parse(de->d_name, &id))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			grown = realloc(v, cap * sizeof(*v));
			if (!grown) {
				closedir(d);
				free(v);
				return -ENOMEM;
			}
			v = grown;
		}
		v[n++] = id; /* one spelling per id: names never repeat an id */
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_u32);
	*ids = v;
	return (int)n;
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

const char *npuprof_prof_base_name(const char *path)
{
	const char *s = path + strlen(path);

	while (s > path && s[-1] == '/')
		s--;
	while (s > path && s[-1] != '/')
		s--;
	return s;
}

int npuprof_prof_dir_is(const char *path)
{
	char host[PATH_MAX];

	if (!is_dir(path))
		return 0;
	if (npuprof_prof_name_match(npuprof_prof_base_name(path)))
		return 1;
	snprintf(host, sizeof(host), "%s/" NPUPROF_PROF_HOST_DIR, path);
	return is_dir(host);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Append a copy of @path to *@v (*@n entries). */
static int push_path(char ***v, long *n, const char *path)
{
	char **p = realloc(*v, (*n + 1) * sizeof(*p));

	if (!p)
		return -ENOMEM;
	*v = p;
	p[*n] = strdup(path);
	if (!p[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

int npuprof_prof_dirs_find(const char *path, char ***dirs, long *n)
{
	char sub[PATH_MAX + 256];
	struct dirent *de;
	DIR *d;
	int err = 0;

	*dirs = NULL;
	*n = 0;
	if (npuprof_prof_dir_is(path))
		return push_path(dirs, n, path);
	d = opendir(path);
	if (!d)
		return -errno;
	while (!err && (de = readdir(d))) {
		if (!npuprof_prof_name_match(de->d_name))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (is_dir(sub))
			err = push_path(dirs, n, sub);
	}
	closedir(d);
	if (*n)
		qsort(*dirs, *n, sizeof(**dirs), cmp_str);
	return err;
}

void npuprof_prof_dirs_free(char **dirs, long n)
{
	while (n > 0)
		free(dirs[--n]);
	free(dirs);
}
