// SPDX-License-Identifier: GPL-2.0
/*
 * Backend of the per-CPU rings: one vmalloc_user() region per possible
 * CPU (consumer page, producer page, data), mapped into the reader with
 * remap_vmalloc_range() as kernel/relay.c does.  Geometry and the mmap
 * rules are the user ABI in include/npuprof/npuprof_ioctl.h.
 */
#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <npuprof/ring_geom.h>
#include "compat.h"
#include "npuprof.h"
#include "ring_layout.h"

static struct npuprof_ring *npuprof_ring_alloc(const struct npuprof_rings *rs,
					       unsigned int cpu)
{
	struct npuprof_ring *r;

	r = kzalloc_node(sizeof(*r), GFP_KERNEL, cpu_to_node(cpu));
	if (!r)
		return NULL;
	/* Zeroed: positions and counters start at 0. */
	r->region = vmalloc_user(rs->region_size);
	if (!r->region) {
		kfree(r);
		return NULL;
	}
	r->cons = r->region;
	r->prod = r->region + PAGE_SIZE;
	r->data = r->region + 2 * PAGE_SIZE;
	r->cpu = cpu;
	return r;
}

/**
 * npuprof_rings_check() - whether rings of @pages can be set up at all
 * @pages: data pages per CPU
 *
 * Lets module init refuse a bad ring_pages before any session allocates.
 *
 * Return: 0; -EINVAL unless @pages is a power of two of at most
 * NPUPROF_RING_MAX_DATA_BYTES of data (include/npuprof/ring_geom.h) and
 * the CPU ids fit the GET_INFO bitmap.
 */
int npuprof_rings_check(unsigned int pages)
{
	struct npuprof_ring_geom g;

	if (!npuprof_ring_geom_make(&g, PAGE_SIZE, pages))
		return -EINVAL;
	if (nr_cpu_ids > NPUPROF_MAX_CPUS)
		return -EINVAL; /* the GET_INFO bitmap could not describe them */
	return 0;
}

/**
 * npuprof_rings_alloc() - allocate one ring per possible CPU
 * @rs:        filled in
 * @pages:     data pages per CPU, as npuprof_rings_check() accepts
 * @watermark: wake-up threshold in bytes; clamped to [8, data size / 2]
 *
 * Return: 0; -EINVAL for a bad @pages; -ENOMEM (nothing left allocated).
 */
int npuprof_rings_alloc(struct npuprof_rings *rs, unsigned int pages,
			u64 watermark)
{
	struct npuprof_ring_geom g;
	unsigned int cpu;
	int ret;

	ret = npuprof_rings_check(pages);
	if (ret)
		return ret;
	npuprof_ring_geom_make(&g, PAGE_SIZE, pages);
	rs->data_size = g.data_size;
	rs->region_size = g.region_size;
	rs->watermark = clamp_t(u64, watermark, NPUPROF_REC_ALIGN,
				rs->data_size / 2);
	rs->ring = kcalloc(nr_cpu_ids, sizeof(*rs->ring), GFP_KERNEL);
	if (!rs->ring)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		rs->ring[cpu] = npuprof_ring_alloc(rs, cpu);
		if (!rs->ring[cpu]) {
			npuprof_rings_free(rs);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * npuprof_rings_free() - free every ring
 * @rs: rings; no probe may still run and no reader may have them mapped
 *      (pages of a live mapping stay referenced by it, so even that is safe)
 */
void npuprof_rings_free(struct npuprof_rings *rs)
{
	unsigned int cpu;

	if (!rs->ring)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (!rs->ring[cpu])
			continue;
		vfree(rs->ring[cpu]->region);
		kfree(rs->ring[cpu]);
	}
	kfree(rs->ring);
	rs->ring = NULL;
}

/**
 * npuprof_rings_mmap() - map (part of) one CPU's region
 * @rs:  rings
 * @vma: offset selects the CPU (offset / region_size) and the part
 *
 * Only the consumer page may be mapped writable; any other mapping loses
 * VM_MAYWRITE so mprotect() cannot make it writable later.
 *
 * Return: 0; -ENXIO for a CPU without a ring; -EINVAL when the length does
 * not fit the region; -EPERM for a writable mapping beyond the consumer
 * page; or the error of remap_vmalloc_range().
 */
int npuprof_rings_mmap(struct npuprof_rings *rs, struct vm_area_struct *vma)
{
	u64 offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
	u64 len = vma->vm_end - vma->vm_start;
	u64 cpu = div64_u64(offset, rs->region_size);
	u64 within = offset - cpu * rs->region_size;

	if (cpu >= nr_cpu_ids)
		return -ENXIO;
	cpu = array_index_nospec(cpu, (u64)nr_cpu_ids);
	if (!rs->ring[cpu])
		return -ENXIO;
	if (len > rs->region_size - within)
		return -EINVAL;
	if (within + len > PAGE_SIZE) {
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		npuprof_vm_flags_clear(vma, VM_MAYWRITE);
	}
	npuprof_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	return remap_vmalloc_range(vma, rs->ring[cpu]->region,
				   within >> PAGE_SHIFT);
}

/**
 * npuprof_ring_pending() - bytes published and not yet consumed
 * @rs: rings
 * @r:  one ring
 *
 * consumer_pos is untrusted; by the producer's own rule
 * (npuprof_ring_room()) a position ahead of the producer, or more than
 * data_size behind it, makes the ring full, so it is data_size pending
 * here too: poll() then reports what the probes see (every event lost,
 * each asking for a wake-up) instead of an empty ring that is woken for
 * ever and never readable.
 *
 * Return: bytes, 0..data_size.
 */
u64 npuprof_ring_pending(const struct npuprof_rings *rs,
			 const struct npuprof_ring *r)
{
	u64 prod = smp_load_acquire(&r->prod->producer_pos);
	u64 cons = READ_ONCE(r->cons->consumer_pos);

	return rs->data_size - npuprof_ring_room(prod, cons, rs->data_size);
}

/**
 * npuprof_rings_reset_counters() - zero written/lost of every ring
 * @rs: rings; capture must be off and no probe running (ENABLE does
 *      that), since the counters are written by the producers unlocked
 */
void npuprof_rings_reset_counters(struct npuprof_rings *rs)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		WRITE_ONCE(rs->ring[cpu]->prod->written, 0);
		WRITE_ONCE(rs->ring[cpu]->prod->lost, 0);
	}
}

/**
 * npuprof_rings_stats() - counters of the CPU @st->cpu
 * @rs: rings
 * @st: in: cpu; out: written, lost, pad = 0
 *
 * Return: 0; -ENXIO when that CPU has no ring.
 */
int npuprof_rings_stats(const struct npuprof_rings *rs,
			struct npuprof_cpu_stats *st)
{
	const struct npuprof_ring *r;
	unsigned int cpu = st->cpu;

	if (cpu >= nr_cpu_ids)
		return -ENXIO;
	r = rs->ring[array_index_nospec(cpu, nr_cpu_ids)];
	if (!r)
		return -ENXIO;
	st->pad = 0;
	st->written = READ_ONCE(r->prod->written);
	st->lost = READ_ONCE(r->prod->lost);
	return 0;
}
