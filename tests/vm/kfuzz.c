// SPDX-License-Identifier: MIT
/*
 * Description: npuprof.ko survives a hostile reader.  Several threads throw
 * random but seeded calls at /dev/npuprof: malformed and out-of-order
 * ioctls (unknown numbers, wrong sizes and directions, NULL, unmapped,
 * read-only, page-straddling and kernel pointers, nonzero reserved fields,
 * unknown flags, tgid 0, more tgids than a session holds), mmap() of
 * random offsets, lengths and protections, munmap() while the rings are
 * being consumed and written, madvise(), read(), write(), lseek(), poll(),
 * dup() and close() of descriptors other threads are using, fork() with
 * the descriptors open, ENABLE/DISABLE, and delete_module() of npuprof.ko
 * (must fail while a descriptor is open) and of the drivers (may succeed:
 * the sessions then outlive the tracepoints they were attached to), while
 * npusim.ko tasks and the stub driver's process and hardirq events flow
 * into whichever session owns our tgid.  Every call whose outcome is
 * determined by its own arguments must return exactly the documented
 * value (include/npuprof/npuprof_ioctl.h, man 2 mmap).  After each epoch
 * every descriptor is closed and npuprof.ko must unload, and a clean
 * session of the reloaded module must count exactly the tasks it is
 * given.  At the end the kernel log must hold no new BUG, WARNING, Oops,
 * refcount, list corruption or atomic-sleep report.
 *
 * Environment: NPUPROF_FUZZ_SEED (default: the time; printed, so a run can
 * be repeated: each thread's sequence of calls follows from the seed, the
 * interleaving of threads does not), NPUPROF_FUZZ_CALLS (total calls,
 * default 30000), NPUPROF_FUZZ_THREADS (default 4),
 * NPUPROF_FUZZ_EPOCHS (module load/unload rounds, default 4).
 */
#include <npusim_ioctl.h>
#include <poll.h>
#include <sys/epoll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <limits.h>
#include <time.h>
#include "kmod_common.h"

#define MAX_THREADS 16
#define SHARED_SLOTS 6
#define PRIVATE_SLOTS 3
#define MAX_VIEWS 4
#define KERNEL_PTR ((void *)0xffffffff81000000ul)

/* Kernel log lines that mean a kernel bug, beyond what vm-run.sh greps. */
static const char *const bad_log[] = {
	"BUG:", "WARNING:", "Oops", "general protection", "refcount_t",
	"list_add corruption", "list_del corruption", "scheduling while atomic",
	"sleeping function called from invalid context", "KASAN", "UBSAN",
	"possible circular locking", "kernel BUG at", "bad page state",
	"Bad page map", "page dumped because", "self-detected stall",
	"detected stalls",
};

/* One descriptor slot; threads using the fd hold @lock for reading. */
struct slot {
	pthread_rwlock_t lock;
	int fd;
};

/* One CPU's ring as a thread mapped it (consumer page + producer/data). */
struct view {
	struct npuprof_ring_consumer *cons;
	const struct npuprof_ring_producer *prod;
	size_t prod_len;
	uint64_t data_size;
};

struct worker {
	unsigned int idx;
	uint64_t rng;
	unsigned long calls;
	unsigned long budget;
	unsigned int failures;
	struct slot priv[PRIVATE_SLOTS];
	struct view views[MAX_VIEWS];
	unsigned int nr_views;
	int epfd;
	pthread_t tid;
	struct npuprof_tp_list tp_list; /* 2.8 KiB: off the thread's stack */
};

static struct slot shared[SHARED_SLOTS];
static struct npuprof_info geo; /* geometry of the module of this epoch */
static dev_t npuprof_rdev;
static uint8_t *guard_page;	/* PROT_NONE after @ro_page */
static uint8_t *ro_page;	/* PROT_READ */
static long page;		/* the running page size, bytes */
static atomic_bool stop_producer;
static atomic_ulong producer_calls;
static __thread sigjmp_buf *touch_jmp;
static atomic_ulong records_read;

/* How often each kind of call was made and refused, for the closing table. */
struct tally {
	const char *what;
	unsigned long ok, refused;
};

static struct tally tallies[64];
static pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t seed;
static unsigned int nr_threads = 4;

static uint64_t rnd(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static unsigned int pick(uint64_t *s, unsigned int n)
{
	return (unsigned int)(rnd(s) % n);
}

static unsigned long env_ul(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : def;
}

/* A SIGSEGV/SIGBUS in a touch of a mapping goes back to its sigsetjmp. */
static void on_fault(int sig)
{
	if (touch_jmp)
		siglongjmp(*touch_jmp, sig);
	signal(sig, SIG_DFL);
	raise(sig);
}

#define EXPECT(w, what, got, ...) expect(w, what, got, (const long[]){ __VA_ARGS__, LONG_MIN })

/*
 * @got must be one of the values listed (a list ended by LONG_MIN); a mismatch is a failure printed with the thread and call
 * number, which with the seed pins down the input.
 */
static void tally(const char *what, long got)
{
	unsigned int i;

	pthread_mutex_lock(&tally_lock);
	for (i = 0; i < 63 && tallies[i].what && tallies[i].what != what; i++)
		;
	tallies[i].what = what;
	if (got < 0)
		tallies[i].refused++;
	else
		tallies[i].ok++;
	pthread_mutex_unlock(&tally_lock);
}

static void print_tallies(void)
{
	unsigned int i;

	printf("%-30s %8s %8s\n", "call", "ok", "refused");
	for (i = 0; i < 64 && tallies[i].what; i++)
		printf("%-30s %8lu %8lu\n", tallies[i].what, tallies[i].ok, tallies[i].refused);
}

static void expect(struct worker *w, const char *what, long got, const long *ok)
{
	tally(what, got);
	for (; *ok != LONG_MIN; ok++)
		if (got == *ok)
			return;
	fprintf(stderr, "seed %llu thread %u call %lu: %s returned %ld (%s)\n",
		(unsigned long long)seed, w->idx, w->calls, what, got,
		got < 0 ? strerror((int)-got) : "no error");
	w->failures++;
}

static long sys_ret(long r)
{
	return r < 0 ? -errno : r;
}

/* A pointer the kernel must refuse with EFAULT. */
static void *bad_ptr(uint64_t *s, size_t size)
{
	switch (pick(s, 5)) {
	case 0:
		return NULL;
	case 1: /* below mmap_min_addr: never mapped */
		return (void *)(uintptr_t)(4096 + rnd(s) % 32768);
	case 2:
		return KERNEL_PTR;
	case 3: /* straddles into the guard page */
		return guard_page - size / 2 - 1;
	default:
		return (void *)(uintptr_t)(-(rnd(s) % 4096) - 1);
	}
}

/* A command number no ioctl of ours has. */
static unsigned long bad_cmd(uint64_t *s)
{
	static const unsigned long good[] = {
		NPUPROF_IOC_GET_INFO,	     NPUPROF_IOC_ADD_TGID,
		NPUPROF_IOC_DEL_TGID,	     NPUPROF_IOC_ENABLE,
		NPUPROF_IOC_DISABLE,	     NPUPROF_IOC_GET_STATS,
		NPUPROF_IOC_GET_TP_STATUS,   NPUPROF_IOC_TGID_OWNER,
		NPUPROF_IOC_ADD_TGID_FLAGS, NPUPROF_IOC_FOLLOW_STATS,
		NPUPROF_IOC_LIST_TP,
	};
	unsigned long cmd, g = good[pick(s, 11)];
	unsigned int i;

	switch (pick(s, 4)) {
	case 0: /* a good one with another size */
		cmd = (g & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
		      ((rnd(s) & _IOC_SIZEMASK) << _IOC_SIZESHIFT);
		break;
	case 1: /* a good one with another direction */
		cmd = g ^ ((1ul + pick(s, 3)) << _IOC_DIRSHIFT);
		break;
	case 2: /* our magic, a number we do not have */
		cmd = _IOC(pick(s, 4), NPUPROF_IOC_MAGIC, 12 + pick(s, 244),
			   rnd(s) & _IOC_SIZEMASK);
		break;
	default: /* another driver's magic (not the VFS's 'T', 'X', 'f') */
		cmd = _IOC(pick(s, 4), 0xB8 + pick(s, 8), pick(s, 256),
			   rnd(s) & _IOC_SIZEMASK);
		break;
	}
	for (i = 0; i < 11; i++)
		if ((unsigned int)cmd == (unsigned int)good[i])
			return NPUPROF_IOC_MAGIC << _IOC_TYPESHIFT; /* nr 0 */
	return (unsigned int)cmd;
}

/* ioctl with a pointer the kernel must refuse. */
static void fuzz_ioctl_fault(struct worker *w, int fd)
{
	static const unsigned long cmds[] = {
		NPUPROF_IOC_GET_INFO,	   NPUPROF_IOC_ADD_TGID,
		NPUPROF_IOC_DEL_TGID,	   NPUPROF_IOC_GET_STATS,
		NPUPROF_IOC_GET_TP_STATUS, NPUPROF_IOC_TGID_OWNER,
		NPUPROF_IOC_ADD_TGID_FLAGS, NPUPROF_IOC_FOLLOW_STATS,
		NPUPROF_IOC_LIST_TP,
	};
	unsigned long cmd = cmds[pick(&w->rng, 9)];
	void *p = bad_ptr(&w->rng, _IOC_SIZE(cmd));

	/*
	 * A read-only page of zeros for what the kernel writes back:
	 * GET_STATS of cpu 0 and LIST_TP (reserved words 0) read fine, then
	 * cannot write (EFAULT); TGID_OWNER of tgid 0 is refused before any
	 * write (EINVAL).
	 */
	if ((_IOC_DIR(cmd) & _IOC_READ) && pick(&w->rng, 4) == 0) {
		p = ro_page;
		EXPECT(w, "ioctl(read-only arg)", sys_ret(ioctl(fd, cmd, p)),
		       cmd == NPUPROF_IOC_TGID_OWNER ? -EINVAL : -EFAULT);
		return;
	}
	EXPECT(w, "ioctl(bad pointer)", sys_ret(ioctl(fd, cmd, p)), -EFAULT);
}

static void fuzz_ioctl_reserved(struct worker *w, int fd)
{
	struct npuprof_tgid_owner own;
	struct npuprof_tgid_add add;
	struct npuprof_tp_list *list = &w->tp_list;

	memset(&own, 0, sizeof(own));
	memset(&add, 0, sizeof(add));
	own.tgid = getpid();
	add.tgid = getpid();
	switch (pick(&w->rng, 5)) {
	case 4:
		memset(list, 0, sizeof(*list));
		list->reserved[pick(&w->rng, 7)] = (uint32_t)rnd(&w->rng) | 1;
		EXPECT(w, "LIST_TP(reserved)",
		       sys_ret(ioctl(fd, NPUPROF_IOC_LIST_TP, list)), -EINVAL);
		break;
	case 0:
		own.reserved[pick(&w->rng, 6)] = (uint32_t)rnd(&w->rng) | 1;
		EXPECT(w, "TGID_OWNER(reserved)",
		       sys_ret(ioctl(fd, NPUPROF_IOC_TGID_OWNER, &own)), -EINVAL);
		break;
	case 1:
		own.tgid = 0;
		EXPECT(w, "TGID_OWNER(0)",
		       sys_ret(ioctl(fd, NPUPROF_IOC_TGID_OWNER, &own)), -EINVAL);
		break;
	case 2:
		add.reserved[pick(&w->rng, 6)] = (uint32_t)rnd(&w->rng) | 1;
		EXPECT(w, "ADD_TGID_FLAGS(reserved)",
		       sys_ret(ioctl(fd, NPUPROF_IOC_ADD_TGID_FLAGS, &add)), -EINVAL);
		break;
	default:
		add.flags = (uint32_t)rnd(&w->rng) & ~NPUPROF_TGID_FLAGS_ALL;
		add.flags |= 1u << (1 + pick(&w->rng, 31));
		EXPECT(w, "ADD_TGID_FLAGS(flags)",
		       sys_ret(ioctl(fd, NPUPROF_IOC_ADD_TGID_FLAGS, &add)), -EINVAL);
		break;
	}
}

/* A tgid: ours (the producers'), 0, 1, a random one, or a huge one. */
static uint32_t some_tgid(uint64_t *s)
{
	switch (pick(s, 5)) {
	case 0:
	case 1:
		return getpid();
	case 2:
		return 0;
	case 3:
		return 2 + pick(s, 100000);
	default:
		return (uint32_t)rnd(s) | 0x80000000u;
	}
}

static void fuzz_ioctl_tgid(struct worker *w, int fd)
{
	struct npuprof_tgid_add add = { .tgid = some_tgid(&w->rng) };
	uint32_t tgid = some_tgid(&w->rng);
	long r;

	switch (pick(&w->rng, 3)) {
	case 0:
		r = sys_ret(ioctl(fd, NPUPROF_IOC_ADD_TGID, &tgid));
		if (!tgid)
			EXPECT(w, "ADD_TGID(0)", r, -EINVAL);
		else
			EXPECT(w, "ADD_TGID", r, 0, -EBUSY, -ENOSPC);
		break;
	case 1:
		r = sys_ret(ioctl(fd, NPUPROF_IOC_DEL_TGID, &tgid));
		EXPECT(w, "DEL_TGID", r, 0, -ENOENT);
		break;
	default:
		add.flags = pick(&w->rng, 2) ? NPUPROF_TGID_FOLLOW : 0;
		r = sys_ret(ioctl(fd, NPUPROF_IOC_ADD_TGID_FLAGS, &add));
		if (!add.tgid)
			EXPECT(w, "ADD_TGID_FLAGS(0)", r, -EINVAL);
		else
			EXPECT(w, "ADD_TGID_FLAGS", r, 0, -EBUSY, -ENOSPC);
		break;
	}
}

/* More tgids than a session may own: the ones past the limit get ENOSPC. */
static void fuzz_fill_tgids(struct worker *w, int fd)
{
	struct npuprof_follow_stats st;
	uint32_t base = 200000 + w->idx * 1000 + pick(&w->rng, 900);
	unsigned int i;
	long r;

	for (i = 0; i < NPUPROF_MAX_TGIDS + 4; i++) {
		uint32_t tgid = base + i;

		r = sys_ret(ioctl(fd, NPUPROF_IOC_ADD_TGID, &tgid));
		w->calls++;
		EXPECT(w, "ADD_TGID(fill)", r, 0, -EBUSY, -ENOSPC);
	}
	r = sys_ret(ioctl(fd, NPUPROF_IOC_FOLLOW_STATS, &st));
	EXPECT(w, "FOLLOW_STATS", r, 0);
	if (!r && st.nr_tgids > NPUPROF_MAX_TGIDS)
		EXPECT(w, "FOLLOW_STATS.nr_tgids", st.nr_tgids, NPUPROF_MAX_TGIDS);
	for (i = 0; i < NPUPROF_MAX_TGIDS + 4; i += 1 + pick(&w->rng, 3)) {
		uint32_t tgid = base + i;

		w->calls++;
		EXPECT(w, "DEL_TGID(fill)",
		       sys_ret(ioctl(fd, NPUPROF_IOC_DEL_TGID, &tgid)), 0, -ENOENT);
	}
}

static void fuzz_ioctl_good(struct worker *w, int fd)
{
	struct npuprof_cpu_stats st = { .cpu = 0 };
	struct npuprof_tgid_owner own = { .tgid = some_tgid(&w->rng) };
	union {
		struct npuprof_info info;
		struct npuprof_tp_status tp;
		struct npuprof_follow_stats fs;
	} u;
	long r;

	switch (pick(&w->rng, 6)) {
	case 0:
		EXPECT(w, "GET_INFO", sys_ret(ioctl(fd, NPUPROF_IOC_GET_INFO, &u.info)), 0);
		break;
	case 1:
		st.cpu = pick(&w->rng, 3) ? pick(&w->rng, geo.nr_cpu_ids) :
					    (uint32_t)rnd(&w->rng);
		st.pad = (uint32_t)rnd(&w->rng);
		r = sys_ret(ioctl(fd, NPUPROF_IOC_GET_STATS, &st));
		EXPECT(w, "GET_STATS", r, st.cpu < geo.nr_cpu_ids ? 0 : -ENXIO);
		if (!r)
			EXPECT(w, "GET_STATS.pad", st.pad, 0);
		break;
	case 2:
		EXPECT(w, "GET_TP_STATUS",
		       sys_ret(ioctl(fd, NPUPROF_IOC_GET_TP_STATUS, &u.tp)), 0);
		break;
	case 3:
		r = sys_ret(ioctl(fd, NPUPROF_IOC_TGID_OWNER, &own));
		EXPECT(w, "TGID_OWNER", r, own.tgid ? 0 : -EINVAL);
		break;
	case 4:
		EXPECT(w, "FOLLOW_STATS",
		       sys_ret(ioctl(fd, NPUPROF_IOC_FOLLOW_STATS, &u.fs)), 0);
		break;
	default:
		r = sys_ret(ioctl(fd, pick(&w->rng, 2) ? NPUPROF_IOC_ENABLE :
							 NPUPROF_IOC_DISABLE,
				  rnd(&w->rng)));
		EXPECT(w, "ENABLE/DISABLE", r, 0);
		break;
	}
}

/*
 * What the ABI says mmap() of @len bytes at @off with @prot returns, shared
 * or private alike (a private writable mapping has VM_WRITE too).
 */
static long mmap_expected(uint64_t off, uint64_t len, int prot)
{
	uint64_t region = geo.region_size, cpu, within;

	if (!len)
		return -EINVAL;
	cpu = off / region;
	if (cpu >= geo.nr_cpu_ids)
		return -ENXIO;
	within = off - cpu * region;
	if (len > region - within)
		return -EINVAL;
	if ((prot & PROT_WRITE) && within + len > geo.page_size)
		return -EPERM;
	return 0;
}

/* Read every page of a mapping, write the first when writable. */
static void touch(void *p, size_t len, bool writable, uint64_t junk)
{
	volatile uint8_t *b = p;
	sigjmp_buf jb;
	size_t i;

	touch_jmp = &jb;
	if (sigsetjmp(jb, 1) == 0) {
		for (i = 0; i < len; i += (size_t)page)
			(void)b[i];
		if (writable)
			*(volatile uint64_t *)p = junk;
	}
	touch_jmp = NULL;
}

static void fuzz_mmap(struct worker *w, int fd)
{
	uint64_t page = geo.page_size, region = geo.region_size;
	uint64_t pages = region / page, off, len;
	int prot = pick(&w->rng, 2) ? PROT_READ : PROT_READ | PROT_WRITE;
	int shared = pick(&w->rng, 4) != 0;
	long want;
	void *p;

	off = (uint64_t)pick(&w->rng, geo.nr_cpu_ids + 1) * region +
	      (uint64_t)pick(&w->rng, pages + 1) * page;
	len = pick(&w->rng, 4) ? (uint64_t)pick(&w->rng, 3) * page :
				 (uint64_t)pick(&w->rng, pages + 2) * page;
	if (pick(&w->rng, 16) == 0)
		off = (rnd(&w->rng) >> pick(&w->rng, 64)) & ~(page - 1);
	if (pick(&w->rng, 16) == 0)
		len = 1ull << (32 + pick(&w->rng, 14)); /* huge: no room, or too long */
	want = mmap_expected(off, len, prot);
	p = mmap(NULL, len, prot, shared ? MAP_SHARED : MAP_PRIVATE, fd, (off_t)off);
	if (off > (1ull << 40)) /* the VM's own offset checks may come first */
		EXPECT(w, "mmap(huge offset)", p == MAP_FAILED ? -errno : 0, -ENXIO,
		       -EOVERFLOW, -EINVAL, -EPERM, -ENOMEM);
	else if (len > (1ull << 31))
		EXPECT(w, "mmap(huge length)", p == MAP_FAILED ? -errno : 0, want, -ENOMEM);
	else
		EXPECT(w, "mmap", p == MAP_FAILED ? -errno : 0, want);
	if (p == MAP_FAILED)
		return;
	touch(p, len, prot & PROT_WRITE, rnd(&w->rng));
	if (pick(&w->rng, 3) == 0)
		EXPECT(w, "mprotect(rw)",
		       sys_ret(mprotect(p, len, PROT_READ | PROT_WRITE)),
		       (prot & PROT_WRITE) || off % region + len <= page ? 0 : -EACCES);
	if (pick(&w->rng, 3) == 0) {
		EXPECT(w, "madvise(DONTNEED)", sys_ret(madvise(p, len, MADV_DONTNEED)), 0);
		touch(p, len, false, 0); /* may SIGBUS: nothing to fault in */
	}
	if (pick(&w->rng, 4) == 0) {
		void *q = mremap(p, len, len + page, MREMAP_MAYMOVE);

		if (q != MAP_FAILED) {
			fprintf(stderr, "seed %llu thread %u call %lu: mremap grew a ring mapping\n",
				(unsigned long long)seed, w->idx, w->calls);
			w->failures++;
			p = q;
			len += page;
		}
	}
	if (len > page && pick(&w->rng, 4) == 0) {
		/* Moved and shrunk: the rest of the mapping must go with it. */
		void *q = mremap(p, len, len - page, MREMAP_MAYMOVE);

		EXPECT(w, "mremap(shrink)", q == MAP_FAILED ? -errno : 0, 0);
		if (q != MAP_FAILED) {
			p = q;
			len -= page;
			touch(p, len, false, 0);
		}
	}
	if (len > 2 * page && pick(&w->rng, 4) == 0) {
		/* A hole in the middle splits the mapping in two. */
		EXPECT(w, "munmap(middle)", sys_ret(munmap((char *)p + page, page)), 0);
		EXPECT(w, "munmap(head)", sys_ret(munmap(p, page)), 0);
		p = (char *)p + 2 * page;
		len -= 2 * page;
	}
	EXPECT(w, "munmap", sys_ret(munmap(p, len)), 0);
}

static void view_unmap(struct worker *w, unsigned int i)
{
	struct view *v = &w->views[i];

	EXPECT(w, "munmap(consumer)", sys_ret(munmap(v->cons, geo.page_size)), 0);
	EXPECT(w, "munmap(producer+data)", sys_ret(munmap((void *)v->prod, v->prod_len)), 0);
	*v = w->views[--w->nr_views];
}

/* Map CPU @cpu's ring the reader's way and keep it in @w's views. */
static void fuzz_map_view(struct worker *w, int fd)
{
	struct view *v;
	unsigned int cpu = pick(&w->rng, geo.nr_cpu_ids);
	off_t base = (off_t)cpu * geo.region_size;
	void *c, *p;

	if (w->nr_views == MAX_VIEWS)
		view_unmap(w, pick(&w->rng, MAX_VIEWS)); /* churn: an old one goes */
	c = mmap(NULL, geo.page_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
	EXPECT(w, "mmap(consumer)", c == MAP_FAILED ? -errno : 0, 0);
	if (c == MAP_FAILED)
		return;
	p = mmap(NULL, geo.page_size + geo.data_size, PROT_READ, MAP_SHARED, fd,
		 base + geo.page_size);
	EXPECT(w, "mmap(producer+data)", p == MAP_FAILED ? -errno : 0, 0);
	if (p == MAP_FAILED) {
		munmap(c, geo.page_size);
		return;
	}
	/* Mostly make it the session that records the producers' events. */
	if (pick(&w->rng, 4)) {
		uint32_t me = getpid();

		EXPECT(w, "ADD_TGID(view)", sys_ret(ioctl(fd, NPUPROF_IOC_ADD_TGID, &me)), 0,
		       -EBUSY, -ENOSPC);
		EXPECT(w, "ENABLE(view)", sys_ret(ioctl(fd, NPUPROF_IOC_ENABLE)), 0);
	}
	v = &w->views[w->nr_views++];
	v->cons = c;
	v->prod = p;
	v->prod_len = geo.page_size + geo.data_size;
	v->data_size = geo.data_size;
}

/*
 * Consume a view the way a reader does, but trusting nothing (another
 * thread may consume the same ring); sometimes write a wild consumer
 * position instead, sometimes unmap the view halfway through.
 */
static void fuzz_consume(struct worker *w)
{
	struct view *v;
	unsigned int i, n;
	uint64_t prod, cons, mask;
	const uint8_t *data;

	if (!w->nr_views)
		return;
	i = pick(&w->rng, w->nr_views);
	v = &w->views[i];
	mask = v->data_size - 1;
	data = (const uint8_t *)v->prod + geo.page_size;
	if (pick(&w->rng, 8) == 0) {
		v->cons->consumer_pos = rnd(&w->rng) >> pick(&w->rng, 64);
		return;
	}
	prod = __atomic_load_n(&v->prod->producer_pos, __ATOMIC_ACQUIRE);
	cons = __atomic_load_n(&v->cons->consumer_pos, __ATOMIC_RELAXED);
	if (prod - cons > v->data_size)
		cons = prod; /* a wild position: start afresh */
	for (n = 0; cons < prod && n < 64; n++) {
		const struct npuprof_rec_hdr *h = (const void *)(data + (cons & mask));

		if (h->size < sizeof(*h) || h->size % NPUPROF_REC_ALIGN ||
		    (cons & mask) + h->size > v->data_size)
			break; /* overwritten under us by a racing consumer */
		cons += h->size;
		__atomic_store_n(&v->cons->consumer_pos, cons, __ATOMIC_RELEASE);
		atomic_fetch_add(&records_read, 1);
		if (pick(&w->rng, 32) == 0) {
			view_unmap(w, i);
			return;
		}
	}
}

/*
 * epoll: the registration outlives our use of the descriptor (another
 * thread may close it), the session's release must take it off.
 */
static void fuzz_epoll(struct worker *w, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd }, out[4];
	long r;

	EXPECT(w, "epoll_ctl(add)", sys_ret(epoll_ctl(w->epfd, EPOLL_CTL_ADD, fd, &ev)), 0,
	       -EEXIST);
	r = sys_ret(epoll_wait(w->epfd, out, 4, pick(&w->rng, 3)));
	EXPECT(w, "epoll_wait", r < 0 ? r : 0, 0);
	if (pick(&w->rng, 2))
		EXPECT(w, "epoll_ctl(del)", sys_ret(epoll_ctl(w->epfd, EPOLL_CTL_DEL, fd, NULL)),
		       0);
}

static void fuzz_poll(struct worker *w, int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN | POLLOUT | POLLPRI };
	long r;

	if (pick(&w->rng, 2)) {
		fuzz_epoll(w, fd);
		return;
	}
	r = sys_ret(poll(&pfd, 1, pick(&w->rng, 3)));

	EXPECT(w, "poll", r, 0, 1);
	if (r == 1 && pfd.revents & ~(POLLIN | POLLRDNORM))
		EXPECT(w, "poll.revents", pfd.revents, POLLIN);
}

/* read(), write(), lseek(), pread() of a device without them. */
static void fuzz_rw(struct worker *w, int fd)
{
	char buf[64];
	size_t n = pick(&w->rng, sizeof(buf) + 1);

	switch (pick(&w->rng, 5)) {
	case 0:
		EXPECT(w, "read", sys_ret(read(fd, buf, n)), -EINVAL);
		break;
	case 1:
		EXPECT(w, "read(bad buffer)", sys_ret(read(fd, bad_ptr(&w->rng, n), n)),
		       -EINVAL);
		break;
	case 2:
		EXPECT(w, "write", sys_ret(write(fd, buf, n)), -EINVAL);
		break;
	case 3:
		EXPECT(w, "lseek", sys_ret(lseek(fd, (off_t)rnd(&w->rng) >> 1, SEEK_SET)),
		       -ESPIPE);
		break;
	default:
		EXPECT(w, "pread", sys_ret(pread(fd, buf, n, 0)), -ESPIPE);
		break;
	}
}

/* delete_module() of npuprof.ko: the epoch's guard descriptor holds it. */
static void fuzz_rmmod(struct worker *w)
{
	const char *drv = pick(&w->rng, 2) ? "npusim" : "npuprof_tp_stub";

	if (pick(&w->rng, 3)) {
		EXPECT(w, "delete_module(npuprof)",
		       sys_ret(syscall(SYS_delete_module, "npuprof", O_NONBLOCK)),
		       -EWOULDBLOCK);
		return;
	}
	/* A driver may go: our sessions outlive its tracepoints. */
	EXPECT(w, "delete_module(driver)",
	       sys_ret(syscall(SYS_delete_module, drv, O_NONBLOCK)), 0, -EWOULDBLOCK,
	       -ENOENT, -EBUSY);
}

static bool is_npuprof_fd(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == npuprof_rdev;
}

/*
 * fork() with descriptors open: the child shares their sessions, turns
 * capture on and off, adds itself, maybe closes, and exits (its tgid
 * leaves whatever session took it).  Only async-signal-safe calls.
 */
static void fuzz_fork(struct worker *w)
{
	uint64_t s = rnd(&w->rng);
	pid_t pid = fork();
	int fd, status;

	if (pid == 0) {
		for (fd = 3; fd < 64; fd++) {
			uint32_t me = getpid();

			if (!is_npuprof_fd(fd))
				continue;
			ioctl(fd, pick(&s, 2) ? NPUPROF_IOC_ENABLE : NPUPROF_IOC_DISABLE);
			ioctl(fd, NPUPROF_IOC_ADD_TGID, &me);
			if (pick(&s, 2))
				close(fd);
		}
		_exit(0);
	}
	EXPECT(w, "fork", pid < 0 ? -errno : 0, 0);
	if (pid > 0)
		EXPECT(w, "waitpid", waitpid(pid, &status, 0) == pid && status == 0 ? 0 : -1, 0);
}

static long open_dev(void)
{
	int fd = open(KT_DEV, O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Open, dup or close the descriptor of a slot (exclusive). */
static void fuzz_slot_change(struct worker *w, struct slot *sl)
{
	long r;

	pthread_rwlock_wrlock(&sl->lock);
	if (sl->fd < 0) {
		r = open_dev();
		EXPECT(w, "open", r < 0 ? r : 0, 0, -EUSERS, -ENOMEM);
		sl->fd = r < 0 ? -1 : (int)r;
	} else if (pick(&w->rng, 3) == 0) {
		struct slot *other = &shared[pick(&w->rng, SHARED_SLOTS)];
		int fd = dup(sl->fd);

		EXPECT(w, "dup", fd < 0 ? -errno : 0, 0);
		/* the dup goes to a private slot if one is free, else closed */
		if (fd >= 0 && other != sl && pthread_rwlock_trywrlock(&other->lock) == 0) {
			if (other->fd < 0) {
				other->fd = fd;
				fd = -1;
			}
			pthread_rwlock_unlock(&other->lock);
		}
		if (fd >= 0)
			EXPECT(w, "close(dup)", sys_ret(close(fd)), 0);
	} else {
		EXPECT(w, "close", sys_ret(close(sl->fd)), 0);
		sl->fd = -1;
	}
	pthread_rwlock_unlock(&sl->lock);
}

/* One call on the descriptor of @sl (shared with other threads or not). */
static void fuzz_on_slot(struct worker *w, struct slot *sl)
{
	unsigned int op = pick(&w->rng, 100);

	if (op < 8) {
		fuzz_slot_change(w, sl);
		return;
	}
	pthread_rwlock_rdlock(&sl->lock);
	if (sl->fd < 0) {
		pthread_rwlock_unlock(&sl->lock);
		fuzz_slot_change(w, sl);
		return;
	}
	if (op < 28)
		fuzz_ioctl_good(w, sl->fd);
	else if (op < 40)
		fuzz_ioctl_tgid(w, sl->fd);
	else if (op < 48)
		fuzz_ioctl_fault(w, sl->fd);
	else if (op < 54)
		fuzz_ioctl_reserved(w, sl->fd);
	else if (op < 60)
		EXPECT(w, "ioctl(unknown)", sys_ret(ioctl(sl->fd, bad_cmd(&w->rng),
							  rnd(&w->rng))), -ENOTTY);
	else if (op < 70)
		fuzz_mmap(w, sl->fd);
	else if (op < 76)
		fuzz_map_view(w, sl->fd);
	else if (op < 82)
		fuzz_poll(w, sl->fd);
	else if (op < 90)
		fuzz_rw(w, sl->fd);
	else if (op < 91)
		fuzz_fill_tgids(w, sl->fd);
	else
		fuzz_consume(w);
	pthread_rwlock_unlock(&sl->lock);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int op;

	while (w->calls < w->budget) {
		w->calls++;
		op = pick(&w->rng, 1000);
		if (op < 3)
			fuzz_fork(w);
		else if (op < 8)
			fuzz_rmmod(w);
		else if (op < 600)
			fuzz_on_slot(w, &shared[pick(&w->rng, SHARED_SLOTS)]);
		else
			fuzz_on_slot(w, &w->priv[pick(&w->rng, PRIVATE_SLOTS)]);
	}
	while (w->nr_views)
		view_unmap(w, 0);
	for (op = 0; op < PRIVATE_SLOTS; op++)
		if (w->priv[op].fd >= 0) {
			close(w->priv[op].fd);
			w->priv[op].fd = -1;
		}
	close(w->epfd);
	return NULL;
}

static const char *npusim_ko(void)
{
	return kt_first_existing("NPUSIM_KO", "build/kmod/npusim.ko", "sim/driver/npusim.ko");
}

/* Submit a few npusim kernels on one stream and wait: 3 events each + 1. */
static int npusim_burst(unsigned int tasks)
{
	struct npusim_stream_req sreq = { 0, 0 };
	struct npusim_task_req req;
	int dev, ret = 0;
	unsigned int i;

	dev = open("/dev/davinci0", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return -errno;
	if (ioctl(dev, NPUSIM_IOC_STREAM_CREATE, &sreq) != 0) {
		ret = -errno;
		goto out;
	}
	for (i = 0; i < tasks && !ret; i++) {
		memset(&req, 0, sizeof(req));
		req.stream = sreq.stream;
		req.type = NPUSIM_TASK_KERNEL;
		req.duration_ns = 2000;
		strcpy(req.name, "fuzz_k");
		if (ioctl(dev, NPUSIM_IOC_SUBMIT, &req) != 0)
			ret = -errno;
	}
	if (!ret && ioctl(dev, NPUSIM_IOC_STREAM_SYNC, &sreq.stream) != 0)
		ret = -errno;
out:
	close(dev);
	return ret;
}

/*
 * Producer: npusim tasks and stub events (process and hardirq context)
 * for our tgid; a driver another thread unloaded is loaded again.
 */
static void *producer_main(void *arg)
{
	uint64_t s = seed ^ 0x9e3779b97f4a7c15ull;

	(void)arg;
	while (!atomic_load(&stop_producer)) {
		atomic_fetch_add(&producer_calls, 1);
		if (pick(&s, 2)) {
			if (npusim_burst(1 + pick(&s, 8)) == -ENOENT)
				kt_load(npusim_ko(), NULL);
		} else if (kt_fire(KT_ALL, 1 + pick(&s, 16), getpid(), gettid(),
				   pick(&s, 2) ? "mixed" : "proc", "") == -ENOENT) {
			kt_load(kt_stub_ko(), NULL);
		}
	}
	return NULL;
}

/* Kernel log lines matching bad_log. */
static int kernel_problems(bool print)
{
	static char buf[1 << 21];
	int len = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof(buf) - 1);
	unsigned int i;
	int n = 0;
	char *line, *save = NULL;

	if (len < 0)
		return 0;
	buf[len] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		for (i = 0; i < sizeof(bad_log) / sizeof(bad_log[0]); i++)
			if (strstr(line, bad_log[i])) {
				if (print)
					fprintf(stderr, "kernel: %s\n", line);
				n++;
				break;
			}
	return n;
}

/* Load npusim, the stub and npuprof.ko with @params; learn the geometry. */
static int epoch_load(const char *params)
{
	struct stat st;
	int fd, ret;

	kt_unload("npuprof");
	ret = kt_load(npusim_ko(), NULL);
	if (ret && ret != -EEXIST)
		return ret;
	ret = kt_load(kt_stub_ko(), NULL);
	if (ret && ret != -EEXIST)
		return ret;
	ret = kt_load(kt_npuprof_ko(), params);
	if (ret)
		return ret;
	fd = open(KT_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || ioctl(fd, NPUPROF_IOC_GET_INFO, &geo)) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	npuprof_rdev = st.st_rdev;
	return fd;
}

/*
 * A clean session of the module after the abuse counts exactly what it is
 * given: 5 npusim kernels (submit, start, end each) and one stream sync.
 */
static void check_clean_session(void)
{
	static struct kt_dev d;
	uint64_t written, lost;
	int ret;

	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, getpid()), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	ret = npusim_burst(5);
	if (ret == -ENOENT && kt_load(npusim_ko(), NULL) == 0)
		ret = npusim_burst(5);
	CHECK_EQ(ret, 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_EQ(kt_stats_sum(&d, &written, &lost), 0);
	CHECK_EQ(written, 16);
	CHECK_EQ(lost, 0);
	kt_close(&d);
}

static unsigned long run_epoch(unsigned int epoch, unsigned long calls)
{
	static const char *const params[] = {
		"ring_pages=1", "ring_pages=4 max_sessions=20", NULL, "ring_pages=2 watermark=8",
	};
	static struct worker w[MAX_THREADS];
	const char *p = params[(seed + epoch) % 4];
	pthread_t producer;
	unsigned long total = 0;
	unsigned int i;
	int guard;

	guard = epoch_load(p);
	CHECK(guard >= 0);
	if (guard < 0) {
		fprintf(stderr, "epoch %u: loading the modules failed: %s\n", epoch,
			strerror(-guard));
		return 0;
	}
	printf("epoch %u: npuprof.ko %s, %u CPUs, data %llu bytes per ring\n", epoch,
	       p ? p : "(defaults)", geo.nr_cpu_ids, (unsigned long long)geo.data_size);
	for (i = 0; i < SHARED_SLOTS; i++)
		shared[i].fd = -1;
	atomic_store(&stop_producer, false);
	CHECK_EQ(pthread_create(&producer, NULL, producer_main, NULL), 0);
	for (i = 0; i < nr_threads; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].idx = i;
		w[i].rng = (seed + 1) * 0x2545f4914f6cdd1dull + epoch * 131 + i + 1;
		w[i].budget = calls / nr_threads;
		w[i].epfd = epoll_create1(EPOLL_CLOEXEC);
		for (unsigned int k = 0; k < PRIVATE_SLOTS; k++) {
			pthread_rwlock_init(&w[i].priv[k].lock, NULL);
			w[i].priv[k].fd = -1;
		}
		CHECK_EQ(pthread_create(&w[i].tid, NULL, worker_main, &w[i]), 0);
	}
	for (i = 0; i < nr_threads; i++) {
		pthread_join(w[i].tid, NULL);
		total += w[i].calls;
		check_failures += w[i].failures;
	}
	atomic_store(&stop_producer, true);
	pthread_join(producer, NULL);

	/*
	 * Held by the guard: refused (the kernel says EWOULDBLOCK, rmmod
	 * "in use").  Everything closed: it goes.
	 */
	CHECK_EQ(sys_ret(syscall(SYS_delete_module, "npuprof", O_NONBLOCK)), -EWOULDBLOCK);
	CHECK(system("rmmod npuprof 2>/dev/null") != 0);
	for (i = 0; i < SHARED_SLOTS; i++)
		if (shared[i].fd >= 0)
			close(shared[i].fd);
	close(guard);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(open_dev(), -ENOENT);
	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	check_clean_session();
	return total;
}

int main(void)
{
	unsigned long calls, total = 0;
	unsigned int epochs, e;
	struct timespec t0, t1;
	int problems;

	kt_require();
	if (access(npusim_ko(), R_OK) != 0)
		CHECK_SKIP("npusim.ko not built");
	seed = env_ul("NPUPROF_FUZZ_SEED", (unsigned long)time(NULL));
	calls = env_ul("NPUPROF_FUZZ_CALLS", 30000);
	nr_threads = env_ul("NPUPROF_FUZZ_THREADS", 4);
	epochs = env_ul("NPUPROF_FUZZ_EPOCHS", 4);
	if (!nr_threads || nr_threads > MAX_THREADS || !epochs) {
		fprintf(stderr, "NPUPROF_FUZZ_THREADS must be 1..%d, NPUPROF_FUZZ_EPOCHS >= 1\n",
			MAX_THREADS);
		return 1;
	}
	printf("kfuzz: seed %llu (NPUPROF_FUZZ_SEED=%llu repeats it), %lu calls, %u threads, %u epochs\n",
	       (unsigned long long)seed, (unsigned long long)seed, calls, nr_threads, epochs);
	fflush(stdout);
	for (e = 0; e < SHARED_SLOTS; e++)
		pthread_rwlock_init(&shared[e].lock, NULL);
	/* A read-only page and a guard page, of the running page size. */
	page = sysconf(_SC_PAGESIZE);
	ro_page = mmap(NULL, 2 * page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(ro_page != MAP_FAILED);
	guard_page = ro_page + page;
	CHECK_EQ(mprotect(guard_page, page, PROT_NONE), 0);
	signal(SIGSEGV, on_fault);
	signal(SIGBUS, on_fault);
	problems = kernel_problems(false);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	kt_unload_all();
	kt_unload("npusim");
	for (e = 0; e < epochs; e++)
		total += run_epoch(e, calls / epochs);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	kt_unload_all();
	kt_unload("npusim");

	print_tallies();
	printf("kfuzz: %lu calls at /dev/npuprof, %lu records read, %lu producer bursts in %.1f s, %d failures\n",
	       total, atomic_load(&records_read), atomic_load(&producer_calls),
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       check_failures);
	CHECK_EQ(kernel_problems(true) - problems, 0);
	return CHECK_DONE();
}
