// SPDX-License-Identifier: MIT
/*
 * Reader of npuprof.ko's per-CPU ring buffers (ABI in
 * include/npuprof/npuprof_ioctl.h).  Opening the device asks for its
 * geometry, refuses a module of another ABI major or record version, and
 * maps every possible CPU's region with two mmap()s: the consumer page
 * read-write (the only page we may write) and the producer page plus data
 * read-only.  Reading the rings is ring.c's job; this file only finds them
 * and wraps the control ioctls.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <npuprof/kring.h>
#include <npuprof/npuprof_ioctl.h>
#include <npuprof/ring.h>

#define KRING_DEFAULT_PATH "/dev/" NPUPROF_DEV_NAME

struct kring_cpu {
	bool present;
	void *cons_map; /* one page, read-write */
	void *prod_map; /* npuprof_ring_prod_len() bytes, read-only */
	struct npuprof_ring_view view;
	uint64_t skipped_bytes; /* skipped after a corrupt header, since open */
};

struct npuprof_kring {
	int fd;
	struct npuprof_info info;
	struct npuprof_ring_geom geom; /* from info, checked */
	struct kring_cpu *cpus; /* info.nr_cpu_ids entries */
};

static bool kring_cpu_possible(const struct npuprof_info *info, unsigned int cpu)
{
	return info->possible[cpu / 64] & (1ULL << (cpu % 64));
}

/*
 * Same ABI major, any minor: a newer minor only adds, an older one lacks
 * what came later (its ioctls fail with -ENOTTY).  The geometry must be
 * what the ABI promises before we map anything by it.
 */
int npuprof_kring_geom(const struct npuprof_info *info, uint64_t page_size,
		       struct npuprof_ring_geom *g)
{
	if (NPUPROF_ABI_MAJOR_OF(info->abi_version) != NPUPROF_ABI_MAJOR ||
	    info->record_version != NPUPROF_RECORD_VERSION)
		return -EPROTO;
	if (!info->nr_cpu_ids || info->nr_cpu_ids > NPUPROF_MAX_CPUS)
		return -EPROTO;
	*g = (struct npuprof_ring_geom){ .page_size = info->page_size,
					 .data_size = info->data_size,
					 .region_size = info->region_size };
	if (!npuprof_ring_geom_valid(g) || g->page_size != page_size)
		return -EPROTO;
	return 0;
}

static int kring_map_cpu(struct npuprof_kring *kr, unsigned int cpu)
{
	struct kring_cpu *c = &kr->cpus[cpu];
	const struct npuprof_ring_geom *g = &kr->geom;

	c->cons_map = mmap(NULL, g->page_size, PROT_READ | PROT_WRITE, MAP_SHARED, kr->fd,
			   (off_t)npuprof_ring_cons_offset(g, cpu));
	if (c->cons_map == MAP_FAILED) {
		c->cons_map = NULL;
		return -errno;
	}
	c->prod_map = mmap(NULL, npuprof_ring_prod_len(g), PROT_READ, MAP_SHARED, kr->fd,
			   (off_t)npuprof_ring_prod_offset(g, cpu));
	if (c->prod_map == MAP_FAILED) {
		int err = -errno;

		munmap(c->cons_map, g->page_size);
		c->cons_map = c->prod_map = NULL;
		return err;
	}
	c->present = true;
	c->view.cons = c->cons_map;
	c->view.prod = c->prod_map;
	c->view.data = (const uint8_t *)c->prod_map + npuprof_ring_data_start(g);
	c->view.data_size = g->data_size;
	c->view.cpu = cpu;
	return 0;
}

static void kring_unmap_all(struct npuprof_kring *kr)
{
	for (unsigned int cpu = 0; cpu < kr->info.nr_cpu_ids; cpu++) {
		struct kring_cpu *c = &kr->cpus[cpu];

		if (!c->present)
			continue;
		munmap(c->prod_map, npuprof_ring_prod_len(&kr->geom));
		munmap(c->cons_map, kr->geom.page_size);
		c->present = false;
	}
}

static int kring_map_all(struct npuprof_kring *kr)
{
	kr->cpus = calloc(kr->info.nr_cpu_ids, sizeof(*kr->cpus));
	if (!kr->cpus)
		return -ENOMEM;
	for (unsigned int cpu = 0; cpu < kr->info.nr_cpu_ids; cpu++) {
		int err;

		if (!kring_cpu_possible(&kr->info, cpu))
			continue;
		err = kring_map_cpu(kr, cpu);
		if (err) {
			kring_unmap_all(kr);
			free(kr->cpus);
			kr->cpus = NULL;
			return err;
		}
	}
	return 0;
}

int npuprof_kring_open(const char *path, struct npuprof_kring **out)
{
	struct npuprof_kring *kr;
	int err;

	kr = calloc(1, sizeof(*kr));
	if (!kr)
		return -ENOMEM;
	kr->fd = open(path ? path : KRING_DEFAULT_PATH, O_RDWR | O_CLOEXEC);
	if (kr->fd < 0) {
		err = -errno;
		goto out_free;
	}
	if (ioctl(kr->fd, NPUPROF_IOC_GET_INFO, &kr->info) < 0) {
		err = -errno;
		goto out_close;
	}
	err = npuprof_kring_geom(&kr->info, (uint64_t)sysconf(_SC_PAGESIZE), &kr->geom);
	if (err)
		goto out_close;
	err = kring_map_all(kr);
	if (err)
		goto out_close;
	*out = kr;
	return 0;

out_close:
	close(kr->fd);
out_free:
	free(kr);
	return err;
}

void npuprof_kring_close(struct npuprof_kring *kr)
{
	if (!kr)
		return;
	/* Closing disables capture too; asking first makes the order explicit. */
	ioctl(kr->fd, NPUPROF_IOC_DISABLE);
	kring_unmap_all(kr);
	free(kr->cpus);
	close(kr->fd);
	free(kr);
}

int npuprof_kring_fd(const struct npuprof_kring *kr)
{
	return kr->fd;
}

static int kring_ioctl(struct npuprof_kring *kr, unsigned long req, void *arg)
{
	return ioctl(kr->fd, req, arg) < 0 ? -errno : 0;
}

int npuprof_kring_add_tgid(struct npuprof_kring *kr, pid_t tgid)
{
	__u32 v = (__u32)tgid;

	return kring_ioctl(kr, NPUPROF_IOC_ADD_TGID, &v);
}

int npuprof_kring_add_tgid_follow(struct npuprof_kring *kr, pid_t tgid)
{
	struct npuprof_tgid_add req = { .tgid = (__u32)tgid, .flags = NPUPROF_TGID_FOLLOW };

	if (tgid <= 0)
		return -EINVAL;
	return kring_ioctl(kr, NPUPROF_IOC_ADD_TGID_FLAGS, &req);
}

int npuprof_kring_follow_missed(struct npuprof_kring *kr, uint64_t *missed)
{
	struct npuprof_follow_stats st = { 0 };
	int err = kring_ioctl(kr, NPUPROF_IOC_FOLLOW_STATS, &st);

	if (err)
		return err;
	*missed = st.missed;
	return 0;
}

int npuprof_kring_del_tgid(struct npuprof_kring *kr, pid_t tgid)
{
	__u32 v = (__u32)tgid;

	return kring_ioctl(kr, NPUPROF_IOC_DEL_TGID, &v);
}

int npuprof_kring_tgid_owner(struct npuprof_kring *kr, pid_t tgid, pid_t *owner)
{
	struct npuprof_tgid_owner req = { .tgid = (__u32)tgid };
	int err;

	if (tgid <= 0)
		return -EINVAL;
	err = kring_ioctl(kr, NPUPROF_IOC_TGID_OWNER, &req);
	if (err)
		return err;
	*owner = (pid_t)req.owner_pid;
	return 0;
}

int npuprof_kring_enable(struct npuprof_kring *kr)
{
	return kring_ioctl(kr, NPUPROF_IOC_ENABLE, NULL);
}

/*
 * With capture off nothing writes: whatever the rings still hold belongs
 * to an earlier window that nobody drained (a start that failed half way).
 */
uint64_t npuprof_kring_discard(struct npuprof_kring *kr)
{
	uint64_t bytes = 0;

	for (unsigned int cpu = 0; cpu < kr->info.nr_cpu_ids; cpu++)
		if (kr->cpus[cpu].present && npuprof_ring_pending(&kr->cpus[cpu].view))
			bytes += npuprof_ring_skip_published(&kr->cpus[cpu].view);
	return bytes;
}

int npuprof_kring_disable(struct npuprof_kring *kr)
{
	return kring_ioctl(kr, NPUPROF_IOC_DISABLE, NULL);
}

long npuprof_kring_consume(struct npuprof_kring *kr, npuprof_rec_fn fn, void *ctx)
{
	long total = 0;
	int bad = 0;

	for (unsigned int cpu = 0; cpu < kr->info.nr_cpu_ids; cpu++) {
		struct npuprof_ring_view *v = &kr->cpus[cpu].view;
		long n;

		if (!kr->cpus[cpu].present)
			continue;
		n = npuprof_ring_consume(v, fn, ctx);
		if (n == -EBADMSG) {
			/*
			 * A ring whose header is corrupt would stay readable
			 * forever and starve the others: drop what its
			 * producer published so far, so the next records start
			 * clean, count the bytes (npuprof_kring_skipped()) and
			 * report -EBADMSG once the other CPUs were read.
			 */
			kr->cpus[cpu].skipped_bytes += npuprof_ring_skip_published(v);
			bad = -EBADMSG;
			continue;
		}
		if (n < 0)
			return n; /* the callback asked to stop */
		total += n;
	}
	return bad ? bad : total;
}

unsigned int npuprof_kring_nr_cpus(const struct npuprof_kring *kr)
{
	return kr->info.nr_cpu_ids;
}

uint64_t npuprof_kring_data_size(const struct npuprof_kring *kr)
{
	return kr->geom.data_size;
}

int npuprof_kring_stats(struct npuprof_kring *kr, unsigned int cpu, uint64_t *written,
			uint64_t *lost)
{
	struct npuprof_cpu_stats st = { .cpu = cpu };
	int err;

	if (cpu >= kr->info.nr_cpu_ids || !kr->cpus[cpu].present)
		return -ENXIO;
	err = kring_ioctl(kr, NPUPROF_IOC_GET_STATS, &st);
	if (err)
		return err;
	*written = st.written;
	*lost = st.lost;
	return 0;
}

int npuprof_kring_skipped(const struct npuprof_kring *kr, unsigned int cpu, uint64_t *bytes)
{
	if (cpu >= kr->info.nr_cpu_ids || !kr->cpus[cpu].present)
		return -ENXIO;
	*bytes = kr->cpus[cpu].skipped_bytes;
	return 0;
}

int npuprof_kring_tp_attached(struct npuprof_kring *kr)
{
	struct npuprof_tp_status st = { 0 };
	int err = kring_ioctl(kr, NPUPROF_IOC_GET_TP_STATUS, &st);

	return err ? err : (int)st.attached;
}

/* The module's strings are trusted no further than their arrays. */
#define KRING_TERMINATE(a) ((a)[sizeof(a) - 1] = '\0')

int npuprof_kring_list_tp(struct npuprof_kring *kr, struct npuprof_tp_list *list)
{
	struct npuprof_tp_entry *e;
	int err;

	memset(list, 0, sizeof(*list)); /* reserved fields: 0 */
	err = kring_ioctl(kr, NPUPROF_IOC_LIST_TP, list);
	if (err)
		return err;
	if (list->count > NPUPROF_TP_LIST_MAX)
		return -EPROTO;
	for (e = list->tp; e < list->tp + list->count; e++) {
		KRING_TERMINATE(e->backend);
		KRING_TERMINATE(e->name);
		KRING_TERMINATE(e->module);
	}
	return 0;
}
