/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Geometry of npuprof.ko's per-CPU ring regions as arithmetic on numbers:
 * the module sizes its regions with it (page size PAGE_SIZE) and the
 * reader computes its mmap() offsets and lengths with it (page size
 * from GET_INFO), so a host test can run both sides for any page size.
 * What the parts of a region are and who may map what is the ABI,
 * explained once in include/npuprof/npuprof_ioctl.h.
 *
 * Nothing here knows a page size: 4 KiB, 16 KiB and 64 KiB pages (aarch64
 * kernels come with each) all go through the same functions.  Sizes given
 * by the user of the module in pages (ring_pages) are bounded in bytes,
 * so a limit means the same memory whatever the page size.
 *
 * No kernel API and no libc, only <linux/types.h>, so the file builds in
 * both worlds; no 64-bit division either (32-bit kernels lack it).
 */
#ifndef NPUPROF_RING_GEOM_H
#define NPUPROF_RING_GEOM_H

#include <linux/types.h>

/* Data bytes per CPU of a ring at the module's default ring_pages. */
#define NPUPROF_RING_DEFAULT_DATA_BYTES (1U << 20)

/* Most data bytes per CPU a ring may have (ring_pages beyond: EINVAL). */
#define NPUPROF_RING_MAX_DATA_BYTES (256U << 20)

/*
 * Default ring_pages for @page_size: NPUPROF_RING_DEFAULT_DATA_BYTES of
 * data (256 pages of 4 KiB, 64 of 16 KiB, 16 of 64 KiB).  A macro so the
 * module can use it as a constant initializer; no Linux page size is
 * larger than 1 MiB.
 */
#define NPUPROF_RING_DEFAULT_PAGES(page_size) \
	((__u32)(NPUPROF_RING_DEFAULT_DATA_BYTES / (page_size)))

/**
 * struct npuprof_ring_geom - sizes of one CPU's region, in bytes
 * @page_size:   bytes per page, a power of two: the consumer page and the
 *               producer page are one page each
 * @data_size:   bytes of record data, a power of two, whole pages
 * @region_size: bytes per CPU region: 2 * @page_size + @data_size, so
 *               every region starts on a page boundary
 */
struct npuprof_ring_geom {
	__u64 page_size;
	__u64 data_size;
	__u64 region_size;
};

static inline int npuprof_ring_pow2(__u64 v)
{
	return v && !(v & (v - 1));
}

/**
 * npuprof_ring_geom_make() - the geometry of rings of @pages data pages
 * @g:         filled in when valid
 * @page_size: bytes per page, a power of two
 * @pages:     data pages per CPU (the module's ring_pages)
 *
 * Return: 1 when @pages is a power of two and its data fits
 * NPUPROF_RING_MAX_DATA_BYTES (at most 65536 pages of 4 KiB, 16384 of
 * 16 KiB, 4096 of 64 KiB), else 0 and @g untouched.
 */
static inline int npuprof_ring_geom_make(struct npuprof_ring_geom *g,
					 __u64 page_size, __u64 pages)
{
	/* Each factor is checked first, so the product cannot overflow. */
	if (!npuprof_ring_pow2(page_size) || !npuprof_ring_pow2(pages) ||
	    page_size > NPUPROF_RING_MAX_DATA_BYTES ||
	    pages > NPUPROF_RING_MAX_DATA_BYTES ||
	    pages * page_size > NPUPROF_RING_MAX_DATA_BYTES)
		return 0;
	g->page_size = page_size;
	g->data_size = pages * page_size;
	g->region_size = g->data_size + 2 * page_size;
	return 1;
}

/**
 * npuprof_ring_geom_valid() - whether sizes a module reported are a ring
 * geometry the ABI allows (a reader maps nothing by any other)
 * @g: page_size, data_size and region_size as GET_INFO gave them
 *
 * No upper bound on @g->data_size beyond what cannot overflow: a later
 * module may allow larger rings.
 *
 * Return: 1 when the page size and data size are powers of two, the data
 * is whole pages and the region is exactly two pages more, else 0.
 */
static inline int npuprof_ring_geom_valid(const struct npuprof_ring_geom *g)
{
	return npuprof_ring_pow2(g->page_size) &&
	       npuprof_ring_pow2(g->data_size) &&
	       g->data_size >= g->page_size && g->data_size <= (1ULL << 48) &&
	       g->region_size == g->data_size + 2 * g->page_size;
}

/**
 * npuprof_ring_cons_offset() - mmap offset of @cpu's consumer page
 * (the read-write mapping, @g->page_size bytes long), in bytes
 */
static inline __u64
npuprof_ring_cons_offset(const struct npuprof_ring_geom *g, __u32 cpu)
{
	return (__u64)cpu * g->region_size;
}

/**
 * npuprof_ring_prod_offset() - mmap offset of @cpu's producer page, which
 * the read-only mapping of npuprof_ring_prod_len() bytes starts with
 */
static inline __u64
npuprof_ring_prod_offset(const struct npuprof_ring_geom *g, __u32 cpu)
{
	return (__u64)cpu * g->region_size + g->page_size;
}

/**
 * npuprof_ring_prod_len() - bytes of the read-only mapping: the producer
 * page, then the data, which starts npuprof_ring_data_start() bytes in
 */
static inline __u64 npuprof_ring_prod_len(const struct npuprof_ring_geom *g)
{
	return g->page_size + g->data_size;
}

/** npuprof_ring_data_start() - bytes from the producer page to the data */
static inline __u64
npuprof_ring_data_start(const struct npuprof_ring_geom *g)
{
	return g->page_size;
}

#endif /* NPUPROF_RING_GEOM_H */
