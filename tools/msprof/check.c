// SPDX-License-Identifier: MIT
/*
 * msprof --check=on: what this host's NPU driver offers npuprof, in lines
 * of "key: value" meant to be pasted into a bug report.  It answers, as
 * far as one look can, the questions ../shared/reference/ascend-driver.md
 * section 4.3 leaves to real hardware: are the trs tracepoints and their
 * switches there, which submit mode the SQs in use have, can this process
 * open the device log (channel 50) and, if not, who holds it, and what the
 * device clock says.  It changes nothing it does not put back: the device
 * log is started and stopped again (that takes the channel for a moment,
 * as any collector does), no switch is written.
 *
 * Exit status: 0 when task begin/end can be captured on every device
 * (the device log opens, or the driver's tracepoints see execution) by
 * this user (root, with bpf() or npuprof.ko); 1 when not on some device,
 * not by this user, or no device is found; 2 usage.
 */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <npuprof/ascend_hal.h>
#include <npuprof/capture_access.h>
#include <npuprof/devlog.h>
#include <npuprof/drv/trs_tp.h>
#include <npuprof/npu_backend.h>

#include "check.h"
#include "check_words.h"

/* Where tracefs is mounted: the modern place, else the debugfs one. */
static const char *tracefs(void)
{
	return access("/sys/kernel/tracing/events", F_OK) == 0 ? "/sys/kernel/tracing"
							       : "/sys/kernel/debug/tracing";
}

const char *msprof_check_present(const char *path, char *buf, size_t size)
{
	if (access(path, F_OK) == 0)
		return "present";
	if (errno == ENOENT)
		return "absent";
	snprintf(buf, size, "unknown (%s: run msprof --check=on as root)", strerror(errno));
	return buf;
}

const char *msprof_check_root_writable(const char *path, bool root)
{
	if (!root)
		return "unknown (asked as a user other than root)";
	return access(path, W_OK) == 0 ? "yes" : "no";
}

bool msprof_check_user(const struct npuprof_capture_access *a, char *buf, size_t size)
{
	if (a->root && (!a->bpf.err || !a->kmod_err)) {
		snprintf(buf, size, "yes");
		return true;
	}
	if (a->root)
		snprintf(buf, size, "no: bpf() refused (%s) and npuprof.ko unusable (%s)",
			 strerror(-a->bpf.err), strerror(-a->kmod_err));
	else
		snprintf(buf, size, "no: msprof captures as root only (this user: bpf() %s, perf_event_open() %s)",
			 a->bpf.err ? strerror(-a->bpf.err) : "allowed",
			 a->perf.err ? strerror(-a->perf.err) : "allowed");
	return false;
}


/* The first line of @path into @buf (no newline), or "" when unreadable. */
static const char *first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return buf;
	if (fgets(buf, (int)size, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return buf;
}

static void check_kernel(FILE *out)
{
	struct utsname u;
	char buf[256];

	if (!uname(&u))
		fprintf(out, "kernel: %s %s\n", u.release, u.machine);
	fprintf(out, "driver version: %s\n",
		first_line("/usr/local/Ascend/driver/version.info", buf, sizeof(buf))[0]
			? buf : "unknown (no /usr/local/Ascend/driver/version.info)");
}

static void check_tracepoints(FILE *out, const struct npu_host *h)
{
	static const char *const events[] = { "trs_chan/sqe", "trs_chan/cqe", "trs_chan/recv",
					      "trs_core/logic_cqe", "trs_core/logic_cq_recv" };
	char path[256], buf[32], why[160];

	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/%s", tracefs(), events[i]);
		fprintf(out, "tracepoint %s: %s\n", events[i],
			msprof_check_present(path, why, sizeof(why)));
	}
	fprintf(out, "module BTF asdrv_trs: %s\n",
		msprof_check_present("/sys/kernel/btf/asdrv_trs", why, sizeof(why)));
	for (unsigned int i = 0; i < h->nr_devices; i++) {
		const char *const files[] = { ASCEND_PROC_CHAN_ENABLE, ASCEND_PROC_CORE_ENABLE };

		for (unsigned int k = 0; k < 2; k++) {
			char rel[96];

			snprintf(rel, sizeof(rel), files[k], (unsigned int)h->devices[i]);
			snprintf(path, sizeof(path), "/proc/%s", rel);
			if (access(path, F_OK)) {
				fprintf(out, "switch %s: absent\n", path);
				continue;
			}
			fprintf(out, "switch %s: %s (root may write it: %s)\n", path,
				first_line(path, buf, sizeof(buf)),
				msprof_check_root_writable(path, geteuid() == 0));
		}
	}
}

/* SQs by submit mode from /proc/trs_core/ts_inst/dev<N>-ts0/hw_sq. */
static void check_sq_modes(FILE *out, const struct npu_host *h)
{
	static const char *const modes[] = { "kio", "uio_t", "uio_d" };

	for (unsigned int i = 0; i < h->nr_devices; i++) {
		unsigned int n[3] = { 0 }, other = 0;
		char path[128], line[512];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/trs_core/ts_inst/dev%d-ts0/hw_sq", h->devices[i]);
		f = fopen(path, "re");
		if (!f) {
			fprintf(out, "device %d submit queues: %s unreadable (%s)\n", h->devices[i], path,
				strerror(errno));
			continue;
		}
		while (fgets(line, sizeof(line), f)) {
			const char *m = strstr(line, "mode ");
			unsigned int k;

			if (!m)
				continue;
			m += 5;
			for (k = 0; k < 3; k++)
				if (!strncmp(m, modes[k], strlen(modes[k])) &&
				    (m[strlen(modes[k])] == ' ' || m[strlen(modes[k])] == '\n'))
					break;
			if (k < 3)
				n[k]++;
			else
				other++;
		}
		fclose(f);
		fprintf(out, "device %d submit queues now: kio %u, uio_t %u, uio_d %u%s\n",
			h->devices[i], n[0], n[1], n[2], other ? " and others" : "");
	}
}

/*
 * A running job's own libascend_hal.so, for the loader to try (msprof may
 * run without the driver's library path): the first process whose maps
 * name one, reached through its root.
 */
static void hint_job_library(void)
{
	char path[300], line[PATH_MAX + 128], hint[PATH_MAX + 320];
	struct dirent *de;
	DIR *d = opendir("/proc");

	while (d && (de = readdir(d))) {
		const char *lib;
		FILE *f;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%s/maps", de->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			lib = strchr(line, '/');
			line[strcspn(line, "\n")] = '\0';
			if (lib && strstr(lib, "/libascend_hal.so") && !strstr(lib, " (deleted)"))
				break;
			lib = NULL;
		}
		fclose(f);
		if (lib) {
			snprintf(hint, sizeof(hint), "/proc/%s/root%s", de->d_name, lib);
			npuprof_ascend_hal_hint(hint);
			break;
		}
	}
	if (d)
		closedir(d);
}

/* The device log of every device: started, then stopped at once. */
static int check_device_log(FILE *out, const struct npu_host *h)
{
	struct npuprof_devlog_opts o = { .devices = h->devices, .nr_devices = h->nr_devices,
					 .windowed = 1 };
	const struct npuprof_devlog_dev *devs;
	const struct npuprof_ascend_hal *hal;
	struct npuprof_devlog *l = NULL;
	unsigned int n = 0, ok = 0;
	char why[512];
	int err;

	hint_job_library();
	err = npuprof_ascend_hal_get(&hal, why, sizeof(why));
	if (err) {
		fprintf(out, "libascend_hal.so: %s\n", why);
		return -1;
	}
	{
		Dl_info where = { 0 };

		/* the file the loader took, also when found by its search */
		fprintf(out, "libascend_hal.so: %s\n",
			dladdr((void *)hal->start, &where) && where.dli_fname ? where.dli_fname
									 : hal->path);
	}
	fprintf(out, "halDeviceOpen: %s\n", hal->dev_open ? "exported" : "not exported");
	for (unsigned int i = 0; i < h->nr_devices; i++) {
		struct npuprof_ascend_clock c;
		int code = 0;

		if (npuprof_ascend_hal_clock_pair(hal, h->devices[i], &c, &code))
			fprintf(out, "device %d clock: halGetDeviceInfo refused (%d)\n", h->devices[i],
				code);
		else
			fprintf(out, "device %d clock: counter %llu Hz\n", h->devices[i],
				(unsigned long long)c.freq_hz);
	}
	err = npuprof_devlog_start(&o, &l);
	if (err) {
		fprintf(out, "device log: cannot start the reader: %s\n", strerror(-err));
		return -1;
	}
	npuprof_devlog_stop(l);
	devs = npuprof_devlog_devices(l, &n);
	for (unsigned int i = 0; i < n; i++) {
		fprintf(out, "device %d log (channel 50): %s%s\n", devs[i].device, devs[i].text,
			devs[i].opened ? " (after halDeviceOpen)" : "");
		ok += devs[i].outcome == NPUPROF_DEVLOG_OWNED;
	}
	npuprof_devlog_free(l);
	return ok == h->nr_devices ? 0 : -1;
}

/* What this process may use.  Return: true when a capture by it can run. */
static bool check_access(FILE *out)
{
	struct npuprof_capture_access a;
	char words[320];
	bool can;

	npuprof_capture_access_probe("/dev/npuprof", &a);
	fprintf(out, "bpf(): %s\n", a.bpf.err ? strerror(-a.bpf.err) : "allowed");
	fprintf(out, "perf_event_open(): %s\n", a.perf.err ? strerror(-a.perf.err) : "allowed");
	fprintf(out, "uprobe_multi links: %s\n", a.uprobe_multi ? "yes" : "no");
	fprintf(out, "npuprof.ko: %s\n", a.kmod_err == -ENOENT ? "not loaded"
				       : a.kmod_err ? strerror(-a.kmod_err) : "loaded");
	can = msprof_check_user(&a, words, sizeof(words));
	fprintf(out, "capture as this user: %s\n", words);
	return can;
}

int msprof_check_run(FILE *out)
{
	struct npu_host h;
	int err, ok = 0;
	bool user_ok;

	fprintf(out, "npuprof check (msprof --check=on): paste this into a bug report\n");
	check_kernel(out);
	err = npu_host_detect(&h, NULL, NULL);
	if (err || !h.nr_devices) {
		fprintf(out, "devices: none (no /dev/davinci<N>)\n");
		check_access(out);
		return 1;
	}
	fprintf(out, "devices:");
	for (unsigned int i = 0; i < h.nr_devices; i++)
		fprintf(out, " %d", h.devices[i]);
	fprintf(out, " (nodes owned by module %s)\n", h.owner[0] ? h.owner : "unknown");
	fprintf(out, "driver backend: %s\n", h.backend ? h.backend->name : "none known");
	check_tracepoints(out, &h);
	check_sq_modes(out, &h);
	if (h.backend && !h.backend->device_log) {
		fprintf(out, "device log: not needed (driver %s's tracepoints see tasks run)\n",
			h.backend->name);
		ok = 1;
	} else {
		ok = check_device_log(out, &h) == 0;
	}
	user_ok = check_access(out);
	fprintf(out, "task begin/end: %s\n", ok ? "can be captured on every device"
					     : "cannot be captured on every device (see above)");
	return ok && user_ok ? 0 : 1;
}
