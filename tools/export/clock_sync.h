/* SPDX-License-Identifier: MIT */
/*
 * Device clock -> host clock mapping for the export.
 *
 * Every device task START/END record carries two readings of one instant:
 * the device clock count (dev_ts) and the host CLOCK_MONOTONIC ns at which
 * the driver tracepoint fired (hdr.ts).  A straight-line least-squares fit
 * host = a + b * dev over those pairs recovers both the offset between the
 * clocks and the device clock's rate (nominal frequency and its drift, in
 * one slope); the tracepoint's latency jitter averages out over many pairs.
 */
#ifndef MSPROF_CLOCK_SYNC_H
#define MSPROF_CLOCK_SYNC_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct clock_pair - one instant read on both clocks
 * @dev_ts:  device clock count
 * @host_ns: host CLOCK_MONOTONIC ns
 */
struct clock_pair {
	uint64_t dev_ts;
	uint64_t host_ns;
};

/**
 * struct clock_fit - host_ns = host0 + a + b * (dev_ts - dev0)
 * @dev0:     integer anchor on the device clock (first pair's count)
 * @host0:    integer anchor on the host clock (first pair's ns)
 * @a:        ns at dev0, relative to host0
 * @b:        ns per device count (1e9 / effective frequency)
 * @n_used:   pairs the final fit used (outliers dropped)
 * @n_pairs:  pairs offered
 * @rms_ns:   root mean square residual of the used pairs, ns
 *
 * Anchoring at integer values keeps the doubles small: counts of 1e11 and
 * ns of 1e12 lose nothing before the subtraction, and the fitted line is
 * evaluated on differences that a double holds exactly.
 */
struct clock_fit {
	uint64_t dev0;
	uint64_t host0;
	double a;
	double b;
	size_t n_used;
	size_t n_pairs;
	double rms_ns;
};

/**
 * clock_fit_pairs() - least-squares fit of host ns against device counts
 * @pairs: the readings, any order; not modified
 * @n:     number of readings
 * @fit:   filled in on success
 *
 * Fits once, then drops pairs whose residual is more than 6 median
 * absolute residuals away (a tracepoint delayed by an interrupt) and fits
 * again, so a few late readings do not tilt the line.
 *
 * Return: 0; -EINVAL when fewer than 2 pairs or all pairs have the same
 * device count (no slope); -ENOMEM.
 */
int clock_fit_pairs(const struct clock_pair *pairs, size_t n, struct clock_fit *fit);

/* Host times from clock_dev_to_host_ns() are in [0, CLOCK_HOST_NS_MAX] (2^62). */
#define CLOCK_HOST_NS_MAX ((int64_t)1 << 62)

/**
 * clock_dev_to_host_ns() - map a device count onto the host clock
 * Return: host CLOCK_MONOTONIC ns, rounded to the nearest ns, clamped into
 * [0, CLOCK_HOST_NS_MAX] (a fit or count from a damaged file may point
 * anywhere).
 */
int64_t clock_dev_to_host_ns(const struct clock_fit *fit, uint64_t dev_ts);

/** clock_fit_freq_hz() - the fitted device clock frequency, counts per s. */
double clock_fit_freq_hz(const struct clock_fit *fit);

#endif /* MSPROF_CLOCK_SYNC_H */
