// SPDX-License-Identifier: MIT
/*
 * Description: capture switched on and off 150 times while the driver
 * fires.  Every ENABLE of the only session registers npuprof's probes on
 * the driver's four tracepoints and every DISABLE removes them, so the
 * kernel re-patches the tracepoint sites of the driver's code live
 * (static keys: an int3 on each site, a sync IPI to every CPU) while two
 * threads make the stub driver fire all four events, 16 iterations per
 * write, from process context and from a 20 us hrtimer on their CPU
 * ("mixed": probes in hardirq interrupting probes in process context).
 * Every write of the driver returns (it is never stuck on a site being
 * patched), every record the windows left in the rings is whole (a task
 * record of our pid with the stub's field values), and a window after
 * the switching holds exactly its 10 + 10 iterations x 4 events = 80
 * records, none lost.  No kernel warning.
 *
 * Under qemu's multi-threaded TCG this froze the guest within ~30
 * switches: scripts/vm-run.sh says why and runs TCG single-threaded.
 */
#include <pthread.h>
#include <stdatomic.h>
#include "kmod_common.h"

#define TOGGLES 150
#define FIRERS 2

static atomic_bool stop;
static atomic_ulong writes, failed_writes;

struct seen {
	unsigned long records;
	unsigned long bad;
};

static void on_record(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct seen *s = ctx;

	(void)cpu;
	s->records++;
	if (h->type != NPUPROF_REC_TASK || r->pid != (uint32_t)getpid() || r->device != 3 ||
	    r->stream != 7 || r->dev_ts != 1000 + r->task_id)
		s->bad++;
}

static void *firer(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		if (kt_fire(KT_ALL, 16, getpid(), gettid(), "mixed", "") != 0)
			atomic_fetch_add(&failed_writes, 1);
		atomic_fetch_add(&writes, 1);
	}
	return NULL;
}

int main(void)
{
	static struct kt_dev d;
	struct seen s = { 0, 0 };
	pthread_t t[FIRERS];
	int i, warnings;

	kt_require();
	warnings = kt_kernel_warnings();
	kt_load_both(NULL);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, getpid()), 0);

	for (i = 0; i < FIRERS; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, firer, NULL), 0);
	for (i = 0; i < TOGGLES; i++) {
		CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
		CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
		if (i % 16 == 15)
			kt_consume(&d, on_record, &s);
	}
	atomic_store(&stop, true);
	for (i = 0; i < FIRERS; i++)
		pthread_join(t[i], NULL);
	kt_consume(&d, on_record, &s);
	printf("%d switches, %lu driver writes, %lu records in the windows\n", TOGGLES,
	       atomic_load(&writes), s.records);
	CHECK(atomic_load(&writes) > 0);
	CHECK_EQ(atomic_load(&failed_writes), 0);
	CHECK_EQ(s.bad, 0);

	/* One window after the switching: exactly what it is given. */
	s.records = 0;
	kt_window_exact(&d, KT_ALL, 10, getpid(), "mixed", 80);
	CHECK_EQ(kt_consume(&d, on_record, &s), 80);
	CHECK_EQ(s.bad, 0);

	kt_finish_both(&d, warnings);
	return CHECK_DONE();
}
