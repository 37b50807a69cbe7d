// SPDX-License-Identifier: MIT
/*
 * libascend_hal.so loaded with dlopen(3), and host/device clock pairs
 * read through it (npuprof/ascend_hal.h).
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <npuprof/ascend_hal.h>
#include <npuprof/clock.h>

static pthread_mutex_t hal_lock = PTHREAD_MUTEX_INITIALIZER;
static struct npuprof_ascend_hal hal;
static bool hal_loaded;

/* dlsym() of @name into @fn; false when it is missing and @required. */
static bool find(void *dl, const char *name, void *fn, bool required, char *why, size_t size)
{
	void *p = dlsym(dl, name);

	memcpy(fn, &p, sizeof(p));
	if (!p && required && why)
		snprintf(why, size, "%s has no %s", hal.path, name);
	return p || !required;
}

/* Every function of the library into @hal.  Return: 0 or -ENOEXEC. */
static int find_all(void *dl, char *why, size_t size)
{
	bool ok = find(dl, "halGetDeviceInfo", &hal.device_info, true, why, size) &&
		  find(dl, "prof_drv_get_channels", &hal.get_channels, true, why, size) &&
		  find(dl, "prof_drv_start", &hal.start, true, why, size) &&
		  find(dl, "prof_channel_poll", &hal.poll, true, why, size) &&
		  find(dl, "prof_channel_read", &hal.read, true, why, size) &&
		  find(dl, "prof_stop", &hal.stop, true, why, size);

	if (!ok)
		return -ENOEXEC;
	find(dl, "halProfDataFlush", &hal.flush, false, why, size);
	find(dl, "halDeviceOpen", &hal.dev_open, false, why, size);
	find(dl, "halDeviceClose", &hal.dev_close, false, why, size);
	return 0;
}

/* The job's own library (npuprof_ascend_hal_hint()), "" for none; hal_lock. */
static char hint[PATH_MAX + 32];

void npuprof_ascend_hal_hint(const char *path)
{
	pthread_mutex_lock(&hal_lock);
	if (!hint[0] && path && *path)
		snprintf(hint, sizeof(hint), "%s", path);
	pthread_mutex_unlock(&hal_lock);
}

/*
 * dlopen() of a job's own library (@path, the hint), only when it is
 * trusted as this process's code: a regular file owned by root or by us,
 * that neither group nor others may write.  msprof often runs as root and
 * the job's library may be the job owner's file (its LD_LIBRARY_PATH, its
 * container's root): loading that would run the owner's code as root.
 * The file is opened once and loaded through /proc/self/fd, so a rename
 * after the check cannot put another file in its place.
 * Return: the handle, or NULL (*@untrusted set when it was not trusted).
 */
static void *open_trusted(const char *path, bool *untrusted)
{
	char fdpath[64];
	struct stat st;
	void *dl = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (st.st_uid == 0 || st.st_uid == geteuid()) && !(st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
		dl = dlopen(fdpath, RTLD_NOW | RTLD_LOCAL);
	} else {
		*untrusted = true;
	}
	close(fd);
	return dl;
}

/* dlopen() the first place that loads.  Return: the handle, or NULL. */
static void *open_lib(char *why, size_t size)
{
	const char *env = getenv(NPUPROF_ASCEND_HAL_ENV);
	const char *tries[3] = { hint, ASCEND_HAL_LIB, ASCEND_HAL_LIB_DEFAULT_DIR "/" ASCEND_HAL_LIB };
	bool untrusted = false;
	void *dl;

	if (env && *env) {
		snprintf(hal.path, sizeof(hal.path), "%s", env);
		dl = dlopen(env, RTLD_NOW | RTLD_LOCAL);
		if (!dl && why)
			snprintf(why, size, "%s=%s: %s", NPUPROF_ASCEND_HAL_ENV, env, dlerror());
		return dl;
	}
	for (unsigned int i = 0; i < 3; i++) {
		if (!tries[i][0])
			continue;
		snprintf(hal.path, sizeof(hal.path), "%s", tries[i]);
		dl = tries[i] == hint ? open_trusted(hint, &untrusted)
				      : dlopen(tries[i], RTLD_NOW | RTLD_LOCAL);
		if (dl)
			return dl;
	}
	if (why)
		snprintf(why, size, "%s not found (searched %s%s%sthe loader's path and %s)",
			 ASCEND_HAL_LIB, hint,
			 untrusted ? " (not loaded: writable by group or others, or owned by "
				     "neither root nor this user)"
				   : "",
			 hint[0] ? ", " : "", ASCEND_HAL_LIB_DEFAULT_DIR);
	return NULL;
}

int npuprof_ascend_hal_get(const struct npuprof_ascend_hal **out, char *why, size_t size)
{
	void *dl;
	int err = 0;

	pthread_mutex_lock(&hal_lock);
	if (!hal_loaded) {
		dl = open_lib(why, size);
		err = dl ? find_all(dl, why, size) : -ENOENT;
		if (err && dl)
			dlclose(dl); /* nothing of it was called: safe to unload */
		hal_loaded = !err;
	}
	pthread_mutex_unlock(&hal_lock);
	if (!err)
		*out = &hal;
	return err;
}

/* Tries of the counter per pair; the quickest answer is kept. */
#define CLOCK_PAIR_TRIES 5

int npuprof_ascend_hal_clock_pair(const struct npuprof_ascend_hal *h, int device,
				  struct npuprof_ascend_clock *c, int *code)
{
	uint64_t m0, m1, best = UINT64_MAX;
	__s64 count = 0, freq = 0;
	int rc;

	/*
	 * halGetDeviceInfo() gives the counter and the host's MONOTONIC_RAW
	 * time in two calls, each from a sample of its own (the driver reads
	 * both each time and returns one): a pair from two calls is off by
	 * the time between them.  So the counter's call is bracketed by our
	 * own CLOCK_MONOTONIC reads and its midpoint taken, from the quickest
	 * of a few tries: the error is at most half that call's time (as
	 * MSPTI pairs them).
	 */
	for (int i = 0; i < CLOCK_PAIR_TRIES; i++) {
		__s64 n = 0;

		m0 = npuprof_mono_ns();
		rc = h->device_info((__u32)device, ASCEND_MODULE_TYPE_SYSTEM,
				    ASCEND_INFO_TYPE_SYS_COUNT, &n);
		m1 = npuprof_mono_ns();
		if (rc || n < 0) {
			if (code)
				*code = rc;
			return -EIO;
		}
		if (m1 - m0 < best) {
			best = m1 - m0;
			count = n;
			c->host_ns = m0 + (m1 - m0) / 2;
		}
	}
	c->dev = (uint64_t)count;
	if (h->device_info((__u32)device, ASCEND_MODULE_TYPE_SYSTEM,
			   ASCEND_INFO_TYPE_DEV_OSC_FREQUE, &freq) || freq <= 0)
		freq = 0;
	c->freq_hz = (uint64_t)freq;
	return 0;
}

int npuprof_ascend_hal_clock(int device, uint64_t *host_ns, uint64_t *dev_ts)
{
	const struct npuprof_ascend_hal *h;
	struct npuprof_ascend_clock c;
	int err = npuprof_ascend_hal_get(&h, NULL, 0);

	if (err)
		return err;
	err = npuprof_ascend_hal_clock_pair(h, device, &c, NULL);
	if (err)
		return err;
	*host_ns = c.host_ns;
	*dev_ts = c.dev;
	return 0;
}

uint64_t npuprof_ascend_hal_to_host(const struct npuprof_ascend_clock *c, uint64_t count)
{
	unsigned __int128 d;
	uint64_t ns;

	if (count >= c->dev) {
		d = (unsigned __int128)(count - c->dev) * 1000000000u / c->freq_hz;
		return c->host_ns + (uint64_t)d;
	}
	d = (unsigned __int128)(c->dev - count) * 1000000000u / c->freq_hz;
	ns = (uint64_t)d;
	return ns < c->host_ns ? c->host_ns - ns : 0;
}
