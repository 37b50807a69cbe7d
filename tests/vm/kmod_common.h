/* SPDX-License-Identifier: MIT */
/*
 * Helpers of the npuprof.ko VM tests (tests/vm/kmod_*.c): load and unload
 * modules, drive the test stub driver (tests/kmod/tp_stub), open
 * /dev/npuprof and map its rings exactly as include/npuprof/npuprof_ioctl.h
 * describes, read records, and look for kernel warnings.  Self-contained
 * on purpose (only the fixed ABI headers), so the tests check the module
 * against the ABI text rather than against our own reader library.
 *
 * Module paths: $NPUPROF_KO (default build/kmod/npuprof.ko, then
 * kmod/npuprof.ko) and $NPUPROF_TP_STUB_KO (default
 * build/kmod/npuprof_tp_stub.ko, then tests/kmod/tp_stub/npuprof_tp_stub.ko),
 * relative to the repository root the tests run in.
 */
#ifndef NPUPROF_KMOD_COMMON_H
#define NPUPROF_KMOD_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <npuprof/npuprof_ioctl.h>
#include <npuprof/record.h>
#include "check.h"

#define KT_STUB_FIRE "/sys/kernel/debug/npuprof_tp_stub/fire"
#define KT_DEV "/dev/" NPUPROF_DEV_NAME
/* The four task events of the idealised drivers (npusim, npustub). */
#define KT_ALL_TP 0xfu

/* Event kinds of the stub's fire file (bitmask). */
#define KT_SUBMIT 1u
#define KT_START 2u
#define KT_END 4u
#define KT_SYNC 8u
#define KT_ALL 15u

static inline const char *kt_first_existing(const char *env, const char *a,
				     const char *b)
{
	const char *p = getenv(env);

	if (p && *p)
		return p;
	return access(a, R_OK) == 0 ? a : b;
}

static inline const char *kt_npuprof_ko(void)
{
	return kt_first_existing("NPUPROF_KO", "build/kmod/npuprof.ko",
				 "kmod/npuprof.ko");
}

static inline const char *kt_stub_ko(void)
{
	return kt_first_existing("NPUPROF_TP_STUB_KO",
				 "build/kmod/npuprof_tp_stub.ko",
				 "tests/kmod/tp_stub/npuprof_tp_stub.ko");
}

/* Load a module file with parameters.  Return 0 or -errno. */
static inline int kt_load(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (syscall(SYS_finit_module, fd, params ? params : "", 0) != 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Unload a module by name.  Return 0, -ENOENT if not loaded, or -errno. */
static inline int kt_unload(const char *name)
{
	int tries;

	for (tries = 0; tries < 50; tries++) {
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0)
			return 0;
		if (errno != EAGAIN && errno != EBUSY)
			return -errno;
		usleep(20000); /* a closing fd may still hold it briefly */
	}
	return -errno;
}

/* Unload what an earlier failed test may have left loaded. */
static inline void kt_unload_all(void)
{
	kt_unload("npuprof");
	kt_unload("npuprof_tp_stub");
}

/* Skip unless root and both module files exist. */
static inline void kt_require(void)
{
	if (geteuid() != 0)
		CHECK_SKIP("needs root (run in the VM: scripts/vm-run.sh)");
	if (access(kt_npuprof_ko(), R_OK) != 0)
		CHECK_SKIP("npuprof.ko not built (make modules)");
	if (access(kt_stub_ko(), R_OK) != 0)
		CHECK_SKIP("npuprof_tp_stub.ko not built (tests/kmod/tp_stub)");
}

/* Load the stub driver, then npuprof.ko with @params.  Exit 1 on error. */
static inline void kt_load_both(const char *params)
{
	int ret;

	kt_unload_all();
	ret = kt_load(kt_stub_ko(), NULL);
	if (ret == 0)
		ret = kt_load(kt_npuprof_ko(), params);
	if (ret) {
		fprintf(stderr, "loading modules failed: %s\n", strerror(-ret));
		kt_unload_all();
		exit(1);
	}
}

/* Keep this process on one CPU so its events go to one ring. */
static inline int kt_pin_cpu(void)
{
	int cpu = sched_getcpu();
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0)
		return -errno;
	return cpu;
}

/*
 * Fire @count iterations of @kinds on the stub for @tgid/@tid.  @ctx is
 * "proc" or "irq"; @flag "" or "long".  Return 0 or -errno.
 */
static inline int kt_fire(unsigned int kinds, unsigned int count, uint32_t tgid,
		   uint32_t tid, const char *ctx, const char *flag)
{
	char buf[64];
	int fd, n, ret = 0;

	n = snprintf(buf, sizeof(buf), "%u %u %u %u %s %s", kinds, count,
		     tgid, tid, ctx, flag);
	fd = open(KT_STUB_FIRE, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, buf, n) != n)
		ret = -errno;
	close(fd);
	return ret;
}

/* One CPU's ring as mapped by the test. */
struct kt_ring {
	struct npuprof_ring_consumer *cons;
	const struct npuprof_ring_producer *prod;
	const uint8_t *data;
};

/* The open device and all its rings. */
struct kt_dev {
	int fd;
	struct npuprof_info info;
	struct kt_ring ring[NPUPROF_MAX_CPUS];
};

static inline bool kt_cpu_possible(const struct kt_dev *d, unsigned int cpu)
{
	return d->info.possible[cpu / 64] & (1ull << (cpu % 64));
}

static inline int kt_map_ring(struct kt_dev *d, unsigned int cpu)
{
	off_t base = (off_t)cpu * d->info.region_size;
	size_t page = d->info.page_size;
	void *c, *p;

	c = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd, base);
	if (c == MAP_FAILED)
		return -errno;
	p = mmap(NULL, page + d->info.data_size, PROT_READ, MAP_SHARED, d->fd,
		 base + page);
	if (p == MAP_FAILED)
		return -errno;
	d->ring[cpu].cons = c;
	d->ring[cpu].prod = p;
	d->ring[cpu].data = (const uint8_t *)p + page;
	return 0;
}

/* Open /dev/npuprof and map every ring.  Return 0 or -errno. */
static inline int kt_open(struct kt_dev *d)
{
	unsigned int cpu;
	int ret;

	memset(d, 0, sizeof(*d));
	d->fd = open(KT_DEV, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	if (ioctl(d->fd, NPUPROF_IOC_GET_INFO, &d->info) != 0)
		return -errno;
	if (d->info.abi_version != NPUPROF_ABI_VERSION ||
	    d->info.record_version != NPUPROF_RECORD_VERSION)
		return -EPROTO;
	for (cpu = 0; cpu < d->info.nr_cpu_ids; cpu++) {
		if (!kt_cpu_possible(d, cpu))
			continue;
		ret = kt_map_ring(d, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

/* Unmap the rings and close the device. */
static inline void kt_close(struct kt_dev *d)
{
	size_t page = d->info.page_size;
	unsigned int cpu;

	for (cpu = 0; cpu < d->info.nr_cpu_ids; cpu++) {
		if (!d->ring[cpu].cons)
			continue;
		munmap(d->ring[cpu].cons, page);
		munmap((void *)d->ring[cpu].prod, page + d->info.data_size);
	}
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* Simple ioctl without argument or with a u32: 0 or -errno. */
static inline int kt_ioctl(struct kt_dev *d, unsigned long cmd, uint32_t arg)
{
	int ret = cmd == NPUPROF_IOC_ENABLE || cmd == NPUPROF_IOC_DISABLE ?
			  ioctl(d->fd, cmd) :
			  ioctl(d->fd, cmd, &arg);
	return ret ? -errno : 0;
}

/* Attached tracepoint bitmap, or -errno. */
static inline int kt_tp_status(struct kt_dev *d)
{
	struct npuprof_tp_status st;

	if (ioctl(d->fd, NPUPROF_IOC_GET_TP_STATUS, &st) != 0)
		return -errno;
	return (int)st.attached;
}

/* Sum of written and lost over all CPUs (from GET_STATS). */
static inline int kt_stats_sum(struct kt_dev *d, uint64_t *written, uint64_t *lost)
{
	struct npuprof_cpu_stats st;
	unsigned int cpu;

	*written = *lost = 0;
	for (cpu = 0; cpu < d->info.nr_cpu_ids; cpu++) {
		if (!kt_cpu_possible(d, cpu))
			continue;
		memset(&st, 0, sizeof(st));
		st.cpu = cpu;
		if (ioctl(d->fd, NPUPROF_IOC_GET_STATS, &st) != 0)
			return -errno;
		*written += st.written;
		*lost += st.lost;
	}
	return 0;
}

/*
 * One capture window of the stub's events: ENABLE, fire @kinds x @count
 * for @tgid in context @ctx ("proc", "mixed"), DISABLE; the window must
 * have written exactly @want records and lost none.
 */
static inline void kt_window_exact(struct kt_dev *d, unsigned int kinds, unsigned int count,
				   uint32_t tgid, const char *ctx, uint64_t want)
{
	uint64_t written, lost;

	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_fire(kinds, count, tgid, tgid, ctx, ""), 0);
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_stats_sum(d, &written, &lost), 0);
	CHECK_EQ(written, want);
	CHECK_EQ(lost, 0);
}

typedef void (*kt_rec_fn)(void *ctx, unsigned int cpu,
			  const struct npuprof_rec_hdr *rec);

/*
 * Read one ring's published records (PAD skipped) and free them.
 * Return: records delivered, or -EBADMSG on a corrupt header.
 */
static inline long kt_consume_ring(struct kt_dev *d, unsigned int cpu, kt_rec_fn fn,
			    void *ctx)
{
	struct kt_ring *r = &d->ring[cpu];
	uint64_t mask = d->info.data_size - 1;
	uint64_t prod = __atomic_load_n(&r->prod->producer_pos, __ATOMIC_ACQUIRE);
	uint64_t cons = r->cons->consumer_pos;
	const struct npuprof_rec_hdr *h;
	long n = 0;

	while (cons < prod) {
		h = (const void *)(r->data + (cons & mask));
		if (h->size < sizeof(*h) || h->size % NPUPROF_REC_ALIGN ||
		    h->size > prod - cons ||
		    (cons & mask) + h->size > d->info.data_size) {
			fprintf(stderr, "cpu %u: corrupt record at %llu (size %u)\n",
				cpu, (unsigned long long)cons, h->size);
			return -EBADMSG;
		}
		if (h->type != NPUPROF_REC_PAD) {
			fn(ctx, cpu, h);
			n++;
		}
		cons += h->size;
		__atomic_store_n(&r->cons->consumer_pos, cons, __ATOMIC_RELEASE);
	}
	return n;
}

/* Read every ring.  Return: records delivered, or -EBADMSG. */
static inline long kt_consume(struct kt_dev *d, kt_rec_fn fn, void *ctx)
{
	unsigned int cpu;
	long n = 0, ret;

	for (cpu = 0; cpu < d->info.nr_cpu_ids; cpu++) {
		if (!kt_cpu_possible(d, cpu))
			continue;
		ret = kt_consume_ring(d, cpu, fn, ctx);
		if (ret < 0)
			return ret;
		n += ret;
	}
	return n;
}

/* Count of "WARNING:", "BUG:" and "Oops" lines in the kernel log. */
static inline int kt_kernel_warnings(void)
{
	static char buf[1 << 20];
	const char *pats[] = { "WARNING:", "BUG:", "Oops" };
	int len = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	int n = 0;
	unsigned int i;
	char *p;

	if (len <= 0 || len > (int)sizeof(buf) - 1)
		len = sizeof(buf) - 1;
	len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, len);
	if (len < 0)
		return 0;
	buf[len] = '\0';
	for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
		for (p = buf; (p = strstr(p, pats[i])); p++)
			n++;
	return n;
}

/*
 * The end of a test that loaded the stub driver and npuprof.ko: close @d,
 * both modules unload, and the kernel logged no new warning since
 * @warnings (kt_kernel_warnings() at the start).
 */
static inline void kt_finish_both(struct kt_dev *d, int warnings)
{
	kt_close(d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
}

#endif /* NPUPROF_KMOD_COMMON_H */
