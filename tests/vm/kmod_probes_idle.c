// SPDX-License-Identifier: MIT
/*
 * Description: npuprof.ko's probe is on the driver's tracepoints only while
 * a session captures, so an idle npuprof.ko costs the driver nothing per
 * event.  The stub driver reports the tracepoint core's own count of
 * probes on each tracepoint ("probes"): 0 with npuprof.ko loaded and a
 * session open with a tgid but not enabled; 1 on each after ENABLE, still
 * 1 with a second session capturing; 0 again after the last DISABLE, and
 * after a capturing session is closed without DISABLE.  A driver loading
 * while a session captures gets the probe at once; GET_TP_STATUS reports
 * the tracepoints found throughout, capturing or not.
 */
#include "kmod_common.h"

#define TGID 2424
#define KT_STUB_PROBES "/sys/kernel/debug/npuprof_tp_stub/probes"

/* The stub's "probes" line, "" if it cannot be read. */
static const char *stub_probes(void)
{
	static char buf[64];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	fd = open(KT_STUB_PROBES, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return buf;
	n = read(fd, buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	return buf;
}

static void count(void *ctx, unsigned int cpu, const struct npuprof_rec_hdr *h)
{
	(void)cpu;
	if (h->type == NPUPROF_REC_TASK &&
	    ((const struct npuprof_rec_task *)h)->pid == TGID)
		(*(unsigned int *)ctx)++;
}

/* Two sessions: probes on from the first ENABLE to the last DISABLE. */
static void two_sessions(void)
{
	static struct kt_dev a, b;
	unsigned int n = 0;

	kt_load_both(NULL);
	CHECK_STR(stub_probes(), "0 0 0 0\n");
	CHECK_EQ(kt_open(&a), 0);
	CHECK_EQ(kt_ioctl(&a, NPUPROF_IOC_ADD_TGID, TGID), 0);
	CHECK_EQ(kt_tp_status(&a), KT_ALL_TP);
	CHECK_STR(stub_probes(), "0 0 0 0\n");
	CHECK_EQ(kt_ioctl(&a, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_STR(stub_probes(), "0 0 0 0\n");

	CHECK_EQ(kt_ioctl(&a, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_STR(stub_probes(), "1 1 1 1\n");
	CHECK_EQ(kt_ioctl(&a, NPUPROF_IOC_ENABLE, 0), 0); /* restart */
	CHECK_STR(stub_probes(), "1 1 1 1\n");
	CHECK_EQ(kt_open(&b), 0);
	CHECK_EQ(kt_ioctl(&b, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_STR(stub_probes(), "1 1 1 1\n");
	CHECK_EQ(kt_fire(KT_ALL, 5, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(kt_ioctl(&a, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_STR(stub_probes(), "1 1 1 1\n");
	CHECK_EQ(kt_consume(&a, count, &n), 20);
	CHECK_EQ(n, 20);
	CHECK_EQ(kt_ioctl(&b, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_STR(stub_probes(), "0 0 0 0\n");
	CHECK_EQ(kt_tp_status(&a), KT_ALL_TP);

	/* Closed while capturing: the release drops its reference. */
	CHECK_EQ(kt_ioctl(&b, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_STR(stub_probes(), "1 1 1 1\n");
	kt_close(&b);
	CHECK_STR(stub_probes(), "0 0 0 0\n");
	kt_close(&a);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
}

/* The driver loads while a session captures: the probe goes on at once. */
static void driver_arrives_capturing(void)
{
	static struct kt_dev d;
	unsigned int n = 0;

	CHECK_EQ(kt_load(kt_npuprof_ko(), NULL), 0);
	CHECK_EQ(kt_open(&d), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ADD_TGID, TGID), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_ENABLE, 0), 0);
	CHECK_EQ(kt_load(kt_stub_ko(), NULL), 0);
	CHECK_EQ(kt_tp_status(&d), KT_ALL_TP);
	CHECK_STR(stub_probes(), "1 1 1 1\n");
	CHECK_EQ(kt_fire(KT_ALL, 3, TGID, TGID, "proc", ""), 0);
	CHECK_EQ(kt_ioctl(&d, NPUPROF_IOC_DISABLE, 0), 0);
	CHECK_STR(stub_probes(), "0 0 0 0\n");
	CHECK_EQ(kt_consume(&d, count, &n), 12);
	CHECK_EQ(n, 12);
	kt_close(&d);
	CHECK_EQ(kt_unload("npuprof"), 0);
	CHECK_EQ(kt_unload("npuprof_tp_stub"), 0);
}

int main(void)
{
	int warnings;

	kt_require();
	kt_unload_all();
	warnings = kt_kernel_warnings();
	two_sessions();
	driver_arrives_capturing();
	CHECK_EQ(kt_kernel_warnings(), warnings);
	return CHECK_DONE();
}
