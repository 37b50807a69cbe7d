// SPDX-License-Identifier: MIT
/*
 * Description: poll() on /dev/npuprof wakes a sleeping reader when a ring
 * reaches the watermark, not before, and after DISABLE whenever any data
 * is left (so the final drain never waits).  ring_pages=1, watermark=1000
 * bytes: 11 records (968 bytes) stay below it, the 12th crosses it.
 */
#include <poll.h>
#include <pthread.h>
#include <time.h>
#include "kmod_common.h"

#define TGID 2024

struct waiter {
	int fd;
	int revents;   /* -1 until poll() returned */
	int64_t waited_ms;
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Block in poll() for up to 20 s and record what woke us. */
static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	struct pollfd p = { .fd = w->fd, .events = POLLIN };
	int64_t t0 = now_ms();
	int n = poll(&p, 1, 20000);

	w->waited_ms = now_ms() - t0;
	__atomic_store_n(&w->revents, n > 0 ? p.revents : 0, __ATOMIC_RELEASE);
	return NULL;
}

static int poll_now(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) > 0 ? p.revents : 0;
}

static void ignore(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	(void)ctx;
	(void)cpu;
	(void)h;
}

/* Start a waiter, let it sleep, run @kick, expect it woken with POLLIN. */
static void expect_wakeup(struct kt_dev *d, void (*kick)(struct kt_dev *))
{
	struct waiter w = { .fd = d->fd, .revents = -1 };
	pthread_t th;

	CHECK_EQ(pthread_create(&th, NULL, wait_thread, &w), 0);
	usleep(300000); /* the waiter is asleep in poll() by now */
	CHECK_EQ(__atomic_load_n(&w.revents, __ATOMIC_ACQUIRE), -1);
	kick(d);
	pthread_join(th, NULL);
	CHECK_EQ(w.revents & POLLIN, POLLIN);
	CHECK(w.waited_ms < 10000);
}

static void kick_one_event(struct kt_dev *d)
{
	(void)d;
	CHECK_EQ(kt_fire(KT_SUBMIT, 1, TGID, TGID, "proc", ""), 0);
}

static void kick_disable(struct kt_dev *d)
{
	CHECK_EQ(kt_ioctl(d, NPUPROF_IOC_DISABLE, 0), 0);
}

int main(void)
{
	static struct kt_dev d;

	kt_require();
	CHECK(kt_pin_cpu() >= 0);
	kt_load_both("ring_pages=1 watermark=1000");
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(d.info.watermark, 1000);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, TGID), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(poll_now(d.fd), 0);

	/* 11 records = 968 bytes: below the watermark, no POLLIN. */
	CHECK_EQ(kt_fire(KT_SUBMIT, 11, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(poll_now(d.fd), 0);
	/* The 12th (1056 bytes) wakes a sleeping reader. */
	expect_wakeup(&d, kick_one_event);
	CHECK_EQ(poll_now(d.fd) & POLLIN, POLLIN);
	CHECK_EQ(kt_consume(&d, ignore, NULL), 12);
	CHECK_EQ(poll_now(d.fd), 0);

	/* One record, far below the watermark: DISABLE wakes the reader. */
	CHECK_EQ(kt_fire(KT_SUBMIT, 1, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(poll_now(d.fd), 0);
	expect_wakeup(&d, kick_disable);
	CHECK_EQ(kt_consume(&d, ignore, NULL), 1);
	CHECK_EQ(poll_now(d.fd), 0); /* disabled and drained */

	/* An over-large watermark is clamped to half the ring (one page). */
	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_load(kt_npuprof_ko(), "ring_pages=1 watermark=1000000"), 0);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(d.info.watermark, (uint64_t)sysconf(_SC_PAGESIZE) / 2);
	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	return CHECK_DONE();
}
