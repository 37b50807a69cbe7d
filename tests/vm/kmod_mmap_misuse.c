// SPDX-License-Identifier: MIT
/*
 * Description: the ring mmap() rules of the ABI.  The consumer page maps
 * read-write; a writable mapping reaching the producer page or data fails
 * with EPERM; a read-only one cannot be mprotect()ed writable; a length
 * past the CPU's region fails with EINVAL; an offset past the last CPU
 * with ENXIO.  A second open() is a session of its own and maps other
 * rings: a consumer position written through one is not seen through the
 * other.
 */
#include "kmod_common.h"

static int map_err(int fd, size_t len, int prot, off_t off)
{
	void *p = mmap(NULL, len, prot, MAP_SHARED, fd, off);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, len);
	return 0;
}

/* Another open maps rings of its own. */
static void check_second_session(struct kt_dev *d)
{
	static struct kt_dev other;
	unsigned int cpu = 0;

	while (!kt_cpu_possible(d, cpu))
		cpu++;
	CHECK_EQ(kt_open(&other), 0);
	CHECK(other.ring[cpu].cons != NULL);
	if (!other.ring[cpu].cons)
		return;
	d->ring[cpu].cons->consumer_pos = 8;
	CHECK_EQ(other.ring[cpu].cons->consumer_pos, 0);
	other.ring[cpu].cons->consumer_pos = 16;
	CHECK_EQ(d->ring[cpu].cons->consumer_pos, 8);
	d->ring[cpu].cons->consumer_pos = 0;
	kt_close(&other);
}

int main(void)
{
	static struct kt_dev d;
	const int rw = PROT_READ | PROT_WRITE;
	size_t page, region;
	void *p;

	kt_require();
	kt_load_both(NULL);
	CHECK_EQ(kt_open(&d), 0);
	check_second_session(&d);
	page = d.info.page_size;
	region = d.info.region_size;
	CHECK_EQ(region, d.info.data_size + 2 * page);

	CHECK_EQ(map_err(d.fd, page, rw, 0), 0);
	CHECK_EQ(map_err(d.fd, 2 * page, rw, 0), -EPERM);
	CHECK_EQ(map_err(d.fd, page, rw, page), -EPERM);
	CHECK_EQ(map_err(d.fd, d.info.data_size, rw, 2 * page), -EPERM);
	CHECK_EQ(map_err(d.fd, region, PROT_READ, 0), 0);
	CHECK_EQ(map_err(d.fd, region + page, PROT_READ, 0), -EINVAL);
	CHECK_EQ(map_err(d.fd, page + d.info.data_size + page, PROT_READ, page),
		 -EINVAL);
	CHECK_EQ(map_err(d.fd, page, PROT_READ, (off_t)d.info.nr_cpu_ids * region),
		 -ENXIO);

	p = mmap(NULL, page, PROT_READ, MAP_SHARED, d.fd, page);
	CHECK(p != MAP_FAILED);
	if (p != MAP_FAILED) {
		CHECK_EQ(mprotect(p, page, rw) ? -errno : 0, -EACCES);
		munmap(p, page);
	}

	kt_close(&d);
	/* Closed: the device can be opened again. */
	CHECK_EQ(kt_open(&d), 0);
	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
	return CHECK_DONE();
}
