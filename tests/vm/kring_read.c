// SPDX-License-Identifier: MIT
/*
 * Description: the project's own ring reader (user/kring.c + user/ring.c,
 * as msprof uses them) against the real npuprof.ko, fed by the stub driver
 * (tests/kmod/tp_stub).  The ring holds 8 KiB of data per CPU (ring_pages=2)
 * on 4 KiB pages, one page on larger ones; on 4 KiB a lap is 92 task records
 * of 88 bytes and a 96-byte PAD (the 93rd record would have left 8 bytes),
 * and lap_shape() works the same out for 16 and 64 KiB.  Pinned to one CPU:
 *  1. open succeeds (no -EPROTO for the matching module); a second open
 *     is a session of its own, which cannot take the tgid the first one
 *     records (-EBUSY) and is told who records it (our pid);
 *  2. K = 1000 events fired in batches over about 11 laps while reading
 *     with npuprof_kring_consume(): after DISABLE and a last read, exactly
 *     K records, in firing order, every field as fired; written K, lost 0;
 *     the PAD at the end of a lap is as lap_shape() says (96 bytes on 4K);
 *  3. a full ring (800 events, nothing read): written + lost == 800,
 *     written == what fits, and the records read are intact and in order;
 *  4. a consumer position moved into the middle of a record (through our
 *     own mapping of the consumer page) makes the reader skip the ring:
 *     -EBADMSG, npuprof_kring_skipped() == the bytes from there to
 *     producer_pos, and the next records read normally.
 */
#include "kmod_common.h"

#include <npuprof/kring.h>

#include "../../kmod/ring_layout.h"

#define TGID 4711
#define K_ITER 250 /* iterations of 4 events: K = 1000 */
#define BATCH 10   /* iterations fired between two reads */
#define FULL_ITER 200

struct order {
	unsigned int cpu;
	uint32_t next_task; /* 0: take the first record's task id */
	unsigned int next_event;
	uint64_t records;
	uint64_t bad;
};

/* Records come in firing order: task n's submit, start, end, sync, n+1... */
static int check_rec(void *ctx, const struct npuprof_rec_hdr *h)
{
	const struct npuprof_rec_task *r = (const void *)h;
	struct order *o = ctx;
	bool sync = o->next_event == NPUPROF_TASK_STREAM_SYNC;
	bool ok;

	if (!o->next_task && h->type == NPUPROF_REC_TASK)
		o->next_task = r->task_id;
	ok = h->type == NPUPROF_REC_TASK && h->size == sizeof(*r) && h->cpu == o->cpu &&
	     h->ts != 0 && r->pid == TGID && r->tid == TGID + 1 && r->device == 3 &&
	     r->stream == 7 && r->task_id == o->next_task && r->event == o->next_event &&
	     r->task_type == (sync ? 3 : 0) && r->dev_ts == 1000 + r->task_id &&
	     r->arg == 10ull * r->task_id &&
	     strncmp(r->name, sync ? "" : "stub_kernel", NPUPROF_NAME_LEN) == 0;
	if (!ok && o->bad++ < 5)
		fprintf(stderr, "record %llu: type %u cpu %u task %u event %u, want task %u event %u\n",
			(unsigned long long)o->records, h->type, h->cpu, r->task_id, r->event,
			o->next_task, o->next_event);
	o->records++;
	if (o->next_event == NPUPROF_TASK_STREAM_SYNC)
		o->next_task++;
	o->next_event = o->next_event % 4 + 1;
	return 0;
}

static void totals(struct npuprof_kring *kr, uint64_t *written, uint64_t *lost)
{
	*written = *lost = 0;
	for (unsigned int cpu = 0; cpu < npuprof_kring_nr_cpus(kr); cpu++) {
		uint64_t w, l;
		int err = npuprof_kring_stats(kr, cpu, &w, &l);

		if (err == -ENXIO)
			continue;
		CHECK_EQ(err, 0);
		*written += w;
		*lost += l;
	}
}

/* Our own view of one CPU's ring, to inspect and to misplace consumer_pos. */
struct peek {
	struct npuprof_info info;
	struct npuprof_ring_consumer *cons;
	const struct npuprof_ring_producer *prod;
	const uint8_t *data;
};

static int peek_map(int fd, unsigned int cpu, struct peek *p)
{
	off_t base;
	void *c, *d;

	if (ioctl(fd, NPUPROF_IOC_GET_INFO, &p->info))
		return -errno;
	base = (off_t)cpu * (off_t)p->info.region_size;
	c = mmap(NULL, p->info.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
	if (c == MAP_FAILED)
		return -errno;
	d = mmap(NULL, p->info.page_size + p->info.data_size, PROT_READ, MAP_SHARED, fd,
		 base + p->info.page_size);
	if (d == MAP_FAILED)
		return -errno;
	p->cons = c;
	p->prod = d;
	p->data = (const uint8_t *)d + p->info.page_size;
	return 0;
}

static const struct npuprof_rec_hdr *peek_at(const struct peek *p, uint64_t pos)
{
	return (const void *)(p->data + (pos & (p->info.data_size - 1)));
}

/*
 * Records of 88 bytes per lap of a DATA_SIZE ring, and the PAD after them:
 * ring_layout.h places a record where it ends the data exactly or leaves at
 * least NPUPROF_RING_MIN_REC bytes behind it.
 */
static void lap_shape(uint64_t data_size, uint64_t *per_lap, uint64_t *pad)
{
	uint64_t n = 0;

	while (data_size - n * 88 == 88 || data_size - n * 88 >= 88 + NPUPROF_RING_MIN_REC)
		n++;
	*per_lap = n;
	*pad = data_size - n * 88;
}

/* Part 2: K events over many laps, read while firing. */
static void test_laps(struct npuprof_kring *kr, struct peek *p, struct order *o)
{
	uint64_t written, lost, pads = 0, last_pad = 0, per_lap, pad;
	long n, got = 0;

	lap_shape(p->info.data_size, &per_lap, &pad);

	CHECK_EQ(npuprof_kring_add_tgid(kr, TGID), 0);
	CHECK_EQ(npuprof_kring_enable(kr), 0);
	for (int i = 0; i < K_ITER; i += BATCH) {
		uint64_t before = p->cons->consumer_pos;

		CHECK_EQ(kt_fire(KT_ALL, BATCH, TGID, TGID + 1, "proc", ""), 0);
		/* A lap ends in this batch: its PAD sits where the record went. */
		for (uint64_t pos = before; pos < p->prod->producer_pos; pos += peek_at(p, pos)->size) {
			if (!peek_at(p, pos)->size) {
				CHECK(!"a record of size 0");
				break;
			}
			if (peek_at(p, pos)->type != NPUPROF_REC_PAD)
				continue;
			pads++;
			last_pad = peek_at(p, pos)->size;
			CHECK_EQ(pos % p->info.data_size, per_lap * 88);
		}
		n = npuprof_kring_consume(kr, check_rec, o);
		CHECK(n >= 0);
		got += n;
	}
	CHECK_EQ(npuprof_kring_disable(kr), 0);
	n = npuprof_kring_consume(kr, check_rec, o);
	CHECK_EQ(n, 0); /* everything was read while firing */
	got += n;
	CHECK_EQ(got, 4 * K_ITER);
	CHECK_EQ(o->records, 4 * K_ITER);
	CHECK_EQ(o->bad, 0);
	totals(kr, &written, &lost);
	CHECK_EQ(written, 4 * K_ITER);
	CHECK_EQ(lost, 0);
	CHECK_EQ(pads, 4 * K_ITER * 88 / (per_lap * 88 + pad));
	CHECK(pads > 0);
	CHECK_EQ(last_pad, pad);
	CHECK_EQ(p->prod->producer_pos, 4 * K_ITER * 88 + pads * pad);
	fprintf(stderr, "laps: %ld records read, %llu PADs of %llu bytes, producer_pos %llu\n",
		got, (unsigned long long)pads, (unsigned long long)last_pad,
		(unsigned long long)p->prod->producer_pos);
}

/* Part 3: a full ring discards and counts; what it kept reads back whole. */
static void test_full(struct npuprof_kring *kr, struct peek *p, struct order *o)
{
	uint64_t written, lost, start = p->prod->producer_pos;
	long n;

	CHECK_EQ(npuprof_kring_enable(kr), 0); /* resets written/lost */
	CHECK_EQ(kt_fire(KT_ALL, FULL_ITER, TGID, TGID + 1, "proc", ""), 0);
	CHECK_EQ(npuprof_kring_disable(kr), 0);
	totals(kr, &written, &lost);
	CHECK_EQ(written + lost, 4 * FULL_ITER);
	CHECK(lost > 0);
	/* From offset start % data_size, records fit up to a full ring (one PAD). */
	CHECK(p->prod->producer_pos - start <= p->info.data_size);
	CHECK(p->prod->producer_pos - start > p->info.data_size - 88 - 96);
	o->records = 0;
	n = npuprof_kring_consume(kr, check_rec, o);
	CHECK_EQ(n, (long)written);
	CHECK_EQ(o->records, written);
	CHECK_EQ(o->bad, 0);
	fprintf(stderr, "full ring: fired %d, written %llu, lost %llu, read %ld\n", 4 * FULL_ITER,
		(unsigned long long)written, (unsigned long long)lost, n);
}

/* Part 4: a consumer_pos inside a record: the ring is skipped and counted. */
static void test_skip(struct npuprof_kring *kr, struct peek *p, struct order *o, int cpu)
{
	uint64_t bytes = 1, target, prod;
	long n;

	CHECK_EQ(npuprof_kring_skipped(kr, (unsigned int)cpu, &bytes), 0);
	CHECK_EQ(bytes, 0);
	CHECK_EQ(npuprof_kring_enable(kr), 0);
	CHECK_EQ(kt_fire(KT_ALL, 3, TGID, TGID + 1, "proc", ""), 0);
	target = p->cons->consumer_pos;
	if (peek_at(p, target)->type == NPUPROF_REC_PAD)
		target += peek_at(p, target)->size;
	target += offsetof(struct npuprof_rec_task, name); /* "stub_kernel": no header */
	prod = p->prod->producer_pos;
	__atomic_store_n(&p->cons->consumer_pos, target, __ATOMIC_RELEASE);
	o->records = 0;
	CHECK_EQ(npuprof_kring_consume(kr, check_rec, o), -EBADMSG);
	CHECK_EQ(o->records, 0);
	CHECK_EQ(npuprof_kring_skipped(kr, (unsigned int)cpu, &bytes), 0);
	CHECK_EQ(bytes, prod - target);
	CHECK_EQ(p->cons->consumer_pos, prod);
	/* The ring reads normally again, from the next submit on. */
	o->next_task = 0;
	o->next_event = NPUPROF_TASK_SUBMIT;
	CHECK_EQ(kt_fire(KT_ALL, 2, TGID, TGID + 1, "proc", ""), 0);
	n = npuprof_kring_consume(kr, check_rec, o);
	CHECK_EQ(n, 8);
	CHECK_EQ(o->bad, 0);
	CHECK_EQ(npuprof_kring_skipped(kr, (unsigned int)cpu, &bytes), 0);
	CHECK_EQ(bytes, prod - target);
	CHECK_EQ(npuprof_kring_disable(kr), 0);
	fprintf(stderr, "skip: %llu bytes skipped on CPU %d, then %ld records read\n",
		(unsigned long long)bytes, cpu, n);
}

int main(void)
{
	struct npuprof_kring *kr = NULL, *second = NULL;
	struct order o = { .next_event = NPUPROF_TASK_SUBMIT };
	struct peek p;
	int cpu, warnings;
	long page = sysconf(_SC_PAGESIZE);

	kt_require();
	cpu = kt_pin_cpu();
	CHECK(cpu >= 0);
	o.cpu = (unsigned int)cpu;
	warnings = kt_kernel_warnings();
	kt_load_both(page >= 8192 ? "ring_pages=1" : "ring_pages=2");

	CHECK_EQ(npuprof_kring_open(NULL, &kr), 0); /* not -EPROTO: same ABI */
	if (!kr) {
		kt_unload_all();
		return 1;
	}
	CHECK_EQ(npuprof_kring_add_tgid(kr, TGID), 0);
	CHECK_EQ(npuprof_kring_open(NULL, &second), 0);
	if (second) {
		pid_t owner = -1;

		CHECK_EQ(npuprof_kring_add_tgid(second, TGID), -EBUSY);
		CHECK_EQ(npuprof_kring_tgid_owner(second, TGID, &owner), 0);
		CHECK_EQ(owner, getpid());
		npuprof_kring_close(second);
	}
	CHECK_EQ(npuprof_kring_tp_attached(kr), (int)KT_ALL_TP);
	CHECK_EQ(peek_map(npuprof_kring_fd(kr), (unsigned int)cpu, &p), 0);
	CHECK_EQ(p.info.data_size, page >= 8192 ? (uint64_t)page : 8192);

	test_laps(kr, &p, &o);
	test_full(kr, &p, &o);
	test_skip(kr, &p, &o, cpu);

	munmap(p.cons, p.info.page_size);
	munmap((void *)p.prod, p.info.page_size + p.info.data_size);
	npuprof_kring_close(kr);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
