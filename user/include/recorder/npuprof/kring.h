/* SPDX-License-Identifier: MIT */
/*
 * Reader of npuprof.ko: opens /dev/npuprof (a capture session of its own),
 * maps every possible CPU's ring (two mmap()s per CPU, as the ABI header
 * says) and wraps the control ioctls.  All functions return 0 or a
 * negative errno; none sets errno.
 */
#ifndef NPUPROF_KRING_H
#define NPUPROF_KRING_H

#include <sys/types.h>
#include <npuprof/npuprof_ioctl.h>
#include <npuprof/record_io.h>
#include <npuprof/ring_geom.h>

struct npuprof_kring;

/**
 * npuprof_kring_open() - open the module's device and map all rings
 * @path: device path, NULL for "/dev/npuprof"
 * @out:  the new reader on success
 *
 * Every open is a capture session of its own (its rings, tgids and
 * enable state), alongside those of other readers.
 *
 * Return: 0; -ENOENT when the device does not exist (module not loaded);
 * -EACCES/-EPERM without privileges; -EUSERS when the module has its
 * max_sessions sessions open already (-EBUSY from a module of ABI 1.0,
 * which had one session); -ENOMEM when it has no memory for the rings;
 * -EPROTO when the module's ABI major or record version differs from ours
 * (any ABI minor of our major is accepted) or its ring geometry is not one
 * the ABI allows (npuprof_kring_geom()).
 */
int npuprof_kring_open(const char *path, struct npuprof_kring **out);

/** npuprof_kring_close() - disable capture, unmap, close. NULL is a no-op. */
void npuprof_kring_close(struct npuprof_kring *kr);

/** npuprof_kring_fd() - the device fd, to poll() for POLLIN. */
int npuprof_kring_fd(const struct npuprof_kring *kr);

/**
 * npuprof_kring_add_tgid() - record this process in our session
 *
 * Return: 0, also when our session has it already; -EBUSY when another
 * session records it (nothing changes); -ENOSPC when our session has
 * NPUPROF_MAX_TGIDS processes; -EINVAL for 0.
 */
int npuprof_kring_add_tgid(struct npuprof_kring *kr, pid_t tgid);

/**
 * npuprof_kring_add_tgid_follow() - record this process and the processes
 * it forks from now on, theirs too
 *
 * For a launcher (torchrun, mpirun, a script) whose ranks start after
 * capture may be on: each new process (not a thread) joins our session
 * before it runs a single instruction, so its first task is recorded, and
 * exec keeps it in; its tasks carry its own pid.  Processes forked before
 * this call are not taken.  Every process, followed or added, leaves our
 * session when it exits.  A child that cannot join is counted, see
 * npuprof_kring_follow_missed().
 *
 * Return: as npuprof_kring_add_tgid(); on a process our session records
 * already, 0 and it is followed from now on; -EINVAL for a @tgid <= 0;
 * -ENOTTY from a module older than ABI 1.2, which cannot follow.
 */
int npuprof_kring_add_tgid_follow(struct npuprof_kring *kr, pid_t tgid);

/**
 * npuprof_kring_follow_missed() - processes our session could not follow
 * @missed: out: new processes of followed processes that did not join our
 *          session since npuprof_kring_open(): it had NPUPROF_MAX_TGIDS
 *          processes at the fork, the kernel had no memory, or another
 *          session (another msprof) records that pid.  Neither their tasks
 *          nor those of processes they fork are recorded by us.
 *
 * Return: 0; -ENOTTY from a module older than ABI 1.2.
 */
int npuprof_kring_follow_missed(struct npuprof_kring *kr, uint64_t *missed);

/** npuprof_kring_del_tgid() - stop recording it (-ENOENT if not ours). */
int npuprof_kring_del_tgid(struct npuprof_kring *kr, pid_t tgid);

/**
 * npuprof_kring_tgid_owner() - which process records @tgid
 * @tgid:  the process asked about
 * @owner: out: the process that opened the session recording @tgid (ours
 *         or another reader's, e.g. another msprof), as our pid namespace
 *         sees it; 0 when no session records it
 *
 * Names the other reader after npuprof_kring_add_tgid() returned -EBUSY.
 *
 * Return: 0; -EINVAL for a @tgid <= 0; -ENOTTY from a module of ABI 1.0.
 */
int npuprof_kring_tgid_owner(struct npuprof_kring *kr, pid_t tgid, pid_t *owner);

/** npuprof_kring_enable() - start capture; resets written/lost counters. */
int npuprof_kring_enable(struct npuprof_kring *kr);

/**
 * npuprof_kring_discard() - drop what the rings still hold, while capture
 * is off and nobody else reads them: an earlier window's records that were
 * never drained must not open the next capture.  Return: bytes dropped.
 */
uint64_t npuprof_kring_discard(struct npuprof_kring *kr);

/** npuprof_kring_disable() - stop capture; returns when no probe writes. */
int npuprof_kring_disable(struct npuprof_kring *kr);

/**
 * npuprof_kring_consume() - drain every CPU's ring into @fn
 *
 * A ring with a corrupt record header is not read further: everything its
 * producer published so far is skipped (and counted, see
 * npuprof_kring_skipped()) so that ring starts clean; the other rings are
 * still read.
 *
 * Return: records delivered; -EBADMSG when a ring was skipped (the records
 * of the other rings were still delivered); or the negative value @fn
 * returned.
 */
long npuprof_kring_consume(struct npuprof_kring *kr, npuprof_rec_fn fn, void *ctx);

/** npuprof_kring_nr_cpus() - number of CPU ids (rings may be fewer). */
unsigned int npuprof_kring_nr_cpus(const struct npuprof_kring *kr);

/**
 * npuprof_kring_data_size() - bytes of record data of each CPU's ring, as
 * the module made them: its ring_pages times its page size, so the same
 * ring_pages gives other sizes on kernels of other page sizes.
 */
uint64_t npuprof_kring_data_size(const struct npuprof_kring *kr);

/**
 * npuprof_kring_geom() - check the geometry a module reported before
 * anything is mapped by it
 * @info:      what NPUPROF_IOC_GET_INFO returned
 * @page_size: the running kernel's page size, bytes (sysconf(_SC_PAGESIZE)):
 *             the mmap() offsets of the rings must be multiples of it
 * @g:         out: the ring geometry, with the module's page size; the
 *             offsets and lengths to map come from include/npuprof/ring_geom.h
 *
 * Pure: npuprof_kring_open() calls it with the running page size, tests
 * with any.  Nothing assumes a page size; the module's is used, and must
 * be the one user space sees.
 *
 * Return: 0; -EPROTO when the ABI major or record version differs from
 * ours, the CPU count is 0 or above NPUPROF_MAX_CPUS, the sizes are not a
 * geometry the ABI allows (npuprof_ring_geom_valid()), or the module's
 * page size is not @page_size.
 */
int npuprof_kring_geom(const struct npuprof_info *info, uint64_t page_size,
		       struct npuprof_ring_geom *g);

/**
 * npuprof_kring_stats() - counters of one CPU's ring
 * Return: 0; -ENXIO when that CPU has no ring.
 */
int npuprof_kring_stats(struct npuprof_kring *kr, unsigned int cpu,
			uint64_t *written, uint64_t *lost);

/**
 * npuprof_kring_skipped() - bytes of one CPU's ring skipped as unreadable
 * @bytes: out: bytes npuprof_kring_consume() skipped on that ring because a
 *         record header was corrupt, since npuprof_kring_open() (ENABLE
 *         does not reset it).  How many records they held cannot be told
 *         from corrupt headers; the ring's written counter minus the
 *         records read from it can.
 *
 * Return: 0; -ENXIO when that CPU has no ring.
 */
int npuprof_kring_skipped(const struct npuprof_kring *kr, unsigned int cpu, uint64_t *bytes);

/** npuprof_kring_tp_attached() - bitmap of enum npuprof_tp_bit, or -errno. */
int npuprof_kring_tp_attached(struct npuprof_kring *kr);

/**
 * npuprof_kring_list_tp() - the driver tracepoints the module found
 * @list: out: list->count entries in list->tp[], each with its backend
 *        name, tracepoint name, owning module ("kernel" for a
 *        built-in driver), enum npuprof_tp_bit and whether the probe is
 *        registered now (a session captures); every string NUL-terminated
 *        here whatever the module sent.  A bit >= NPUPROF_TP_COUNT is an
 *        event of a newer minor than this reader knows.
 *
 * Works with any module of this reader's ABI major from minor 3 on (the
 * struct is fixed by the ioctl number; npuprof_kring_open() has checked
 * the major).
 *
 * Return: 0; -ENOTTY from a module older than ABI 1.3; -EPROTO when the
 * module reports more than NPUPROF_TP_LIST_MAX entries; -errno of the
 * ioctl otherwise.
 */
int npuprof_kring_list_tp(struct npuprof_kring *kr, struct npuprof_tp_list *list);

#endif /* NPUPROF_KRING_H */
