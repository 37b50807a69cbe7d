// SPDX-License-Identifier: MIT
/*
 * Description: nothing assumes 4096-byte pages.  For kernels of 4, 16 and
 * 64 KiB pages, with exact values: the ring geometry npuprof.ko makes from
 * ring_pages (include/npuprof/ring_geom.h: the default of 1 MiB of data,
 * one page, the largest allowed, refusals), the mmap() offsets and lengths
 * the reader takes from the module's GET_INFO (npuprof_kring_geom(),
 * which uses the module's page size and refuses one that is not the
 * running kernel's, or sizes laid out for another page size), the BPF
 * ring buffer sizes made from a request (npuprof_acl_trace_ring_size():
 * a power of two of whole pages, the limits) and the declared size of the
 * BPF object's ring template, which must load unresized on every one.
 */
#include <errno.h>
#include <unistd.h>

#include <npuprof/acl_trace.h>
#include <npuprof/kring.h>
#include <npuprof/record.h>

#include "check.h"
#include "../../bpf/acl_trace.h"

#define KIB 1024ULL
#define MIB (1024 * KIB)

/* What one page size gives, worked out by hand. */
struct page_case {
	uint64_t page;
	uint32_t default_pages; /* module's default ring_pages */
	uint64_t default_region;
	uint64_t max_pages; /* NPUPROF_RING_MAX_DATA_BYTES of data */
	uint64_t cons3;	    /* mmap offset of CPU 3's consumer page, default rings */
	uint64_t prod3;	    /* ... of its producer page + data */
	uint32_t bpf_4096;  /* BPF ring made for 4096 bytes asked */
	uint32_t bpf_20000; /* ... for 20000 */
};

static const struct page_case cases[] = {
	{ 4096, 256, 1056768, 65536, 3170304, 3174400, 4096, 32768 },
	{ 16384, 64, 1081344, 16384, 3244032, 3260416, 16384, 32768 },
	{ 65536, 16, 1179648, 4096, 3538944, 3604480, 65536, 65536 },
};

static void test_kernel_geometry(const struct page_case *c)
{
	struct npuprof_ring_geom g = { 0 };

	CHECK_EQ(NPUPROF_RING_DEFAULT_PAGES(c->page), c->default_pages);
	CHECK_EQ(npuprof_ring_geom_make(&g, c->page, c->default_pages), 1);
	CHECK_EQ(g.page_size, c->page);
	CHECK_EQ(g.data_size, 1 * MIB);
	CHECK_EQ(g.region_size, c->default_region);
	CHECK_EQ(g.region_size % c->page, 0);

	/* ring_pages=1: one page of data, three pages of region. */
	CHECK_EQ(npuprof_ring_geom_make(&g, c->page, 1), 1);
	CHECK_EQ(g.data_size, c->page);
	CHECK_EQ(g.region_size, 3 * c->page);

	/* The limit is 256 MiB of data, whatever a page is. */
	CHECK_EQ(npuprof_ring_geom_make(&g, c->page, c->max_pages), 1);
	CHECK_EQ(g.data_size, 256 * MIB);
	g.data_size = 7;
	CHECK_EQ(npuprof_ring_geom_make(&g, c->page, 2 * c->max_pages), 0);
	CHECK_EQ(npuprof_ring_geom_make(&g, c->page, 0), 0);
	CHECK_EQ(npuprof_ring_geom_make(&g, c->page, 3), 0);
	CHECK_EQ(g.data_size, 7); /* untouched when refused */
}

/* GET_INFO as a module on a kernel of @page pages with default rings says it. */
static struct npuprof_info module_info(uint64_t page, uint32_t pages)
{
	struct npuprof_info info = { .abi_version = NPUPROF_ABI_VERSION,
				     .record_version = NPUPROF_RECORD_VERSION,
				     .nr_cpu_ids = 4,
				     .page_size = (uint32_t)page,
				     .data_size = pages * page,
				     .region_size = pages * page + 2 * page,
				     .watermark = 64 * KIB };

	info.possible[0] = 0xf;
	return info;
}

static void test_reader_view(const struct page_case *c)
{
	struct npuprof_info info = module_info(c->page, c->default_pages);
	struct npuprof_ring_geom g = { 0 };

	CHECK_EQ(npuprof_kring_geom(&info, c->page, &g), 0);
	CHECK_EQ(g.page_size, c->page);
	CHECK_EQ(g.data_size, 1 * MIB);
	CHECK_EQ(npuprof_ring_cons_offset(&g, 0), 0);
	CHECK_EQ(npuprof_ring_prod_offset(&g, 0), c->page);
	CHECK_EQ(npuprof_ring_cons_offset(&g, 3), c->cons3);
	CHECK_EQ(npuprof_ring_prod_offset(&g, 3), c->prod3);
	CHECK_EQ(npuprof_ring_prod_len(&g), c->page + 1 * MIB);
	CHECK_EQ(npuprof_ring_data_start(&g), c->page);
	/* Every offset is a multiple of the running page size, as mmap() needs. */
	CHECK_EQ(npuprof_ring_cons_offset(&g, 3) % c->page, 0);
	CHECK_EQ(npuprof_ring_prod_offset(&g, 3) % c->page, 0);

	/* A module of another page size than the one user space runs on. */
	CHECK_EQ(npuprof_kring_geom(&info, c->page == 4096 ? 65536 : 4096, &g), -EPROTO);

	/* Sizes laid out for 4 KiB pages under a larger page size: refused. */
	info.region_size = info.data_size + 2 * 4096;
	CHECK_EQ(npuprof_kring_geom(&info, c->page, &g), c->page == 4096 ? 0 : -EPROTO);

	/* Data that is not whole pages (a 4 KiB ring on a larger page). */
	info = module_info(c->page, 1);
	info.data_size = 4096;
	info.region_size = 4096 + 2 * c->page;
	CHECK_EQ(npuprof_kring_geom(&info, c->page, &g), c->page == 4096 ? 0 : -EPROTO);

	info = module_info(c->page, 1);
	info.page_size = 0;
	CHECK_EQ(npuprof_kring_geom(&info, c->page, &g), -EPROTO);
	info = module_info(c->page, 1);
	info.page_size = (uint32_t)(3 * c->page); /* not a power of two */
	info.region_size = info.data_size + 2 * info.page_size;
	CHECK_EQ(npuprof_kring_geom(&info, info.page_size, &g), -EPROTO);
}

static void test_bpf_rings(const struct page_case *c)
{
	uint32_t b = 0;

	CHECK_EQ(npuprof_acl_trace_ring_size(4096, c->page, &b), 0);
	CHECK_EQ(b, c->bpf_4096);
	CHECK_EQ(npuprof_acl_trace_ring_size(20000, c->page, &b), 0);
	CHECK_EQ(b, c->bpf_20000);
	CHECK_EQ(npuprof_acl_trace_ring_size(1, c->page, &b), 0);
	CHECK_EQ(b, c->page);
	CHECK_EQ(npuprof_acl_trace_ring_size(65537, c->page, &b), 0);
	CHECK_EQ(b, 131072);
	/* msprof's 1 MiB per CPU is whole pages on each: not rounded. */
	CHECK_EQ(npuprof_acl_trace_ring_size(1 * MIB, c->page, &b), 0);
	CHECK_EQ(b, 1 * MIB);
	CHECK_EQ(npuprof_acl_trace_ring_size(3 * MIB, c->page, &b), 0);
	CHECK_EQ(b, 4 * MIB);
	CHECK_EQ(npuprof_acl_trace_ring_size(NPUPROF_BPF_RING_MAX_BYTES, c->page, &b), 0);
	CHECK_EQ(b, 2048 * MIB);
	b = 5;
	CHECK_EQ(npuprof_acl_trace_ring_size(NPUPROF_BPF_RING_MAX_BYTES + 1ULL, c->page, &b),
		 -E2BIG);
	CHECK_EQ(npuprof_acl_trace_ring_size(0, c->page, &b), -EINVAL);
	CHECK_EQ(npuprof_acl_trace_ring_size(4096, 3 * c->page, &b), -EINVAL);
	CHECK_EQ(b, 5); /* untouched when refused */

	/* The object's declared ring loads with no loader resizing it. */
	CHECK_EQ(ACL_TRACE_RING_TEMPLATE_BYTES % c->page, 0);
	CHECK_EQ(ACL_TRACE_RING_TEMPLATE_BYTES & (ACL_TRACE_RING_TEMPLATE_BYTES - 1), 0);
}

/* The reader accepts what a module on this very machine reports. */
static void test_running_page(void)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	struct npuprof_info info = module_info(page, NPUPROF_RING_DEFAULT_PAGES(page));
	struct npuprof_ring_geom g;

	CHECK_EQ(npuprof_kring_geom(&info, page, &g), 0);
	CHECK_EQ(g.data_size, 1 * MIB);
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		test_kernel_geometry(&cases[i]);
		test_reader_view(&cases[i]);
		test_bpf_rings(&cases[i]);
	}
	CHECK_EQ(npuprof_acl_trace_ring_size(4096, 0, &(uint32_t){ 0 }), -EINVAL);
	test_running_page();
	return CHECK_DONE();
}
