// SPDX-License-Identifier: MIT
/*
 * Device clock -> host clock mapping (see clock_sync.h).
 *
 * Why a fit and not one offset: the device counter runs from its own
 * crystal, so besides an offset it drifts (tens of ppm are normal); over a
 * ten-minute capture 30 ppm is 18 ms, far more than a kernel lasts.  A line
 * through many (count, host ns) readings takes care of both, and its
 * residuals say how good the mapping is (rms_ns).
 *
 * Numerics: values are anchored at the first pair and both sums are taken
 * around the means (two passes), so the slope does not suffer from the
 * cancellation a one-pass sum of squares of 1e11-sized counts would.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock_sync.h"

/* Residuals beyond this many median absolute residuals are outliers. */
#define CLOCK_OUTLIER_MADS 6.0
/* ...but never reject a pair that is within this many ns of the line. */
#define CLOCK_OUTLIER_FLOOR_NS 100.0

static double pair_dx(const struct clock_fit *fit, const struct clock_pair *p)
{
	return (double)(int64_t)(p->dev_ts - fit->dev0);
}

static double pair_dy(const struct clock_fit *fit, const struct clock_pair *p)
{
	return (double)(int64_t)(p->host_ns - fit->host0);
}

/* Fit the pairs whose keep[] is set (all when keep is NULL). */
static int fit_line(const struct clock_pair *pairs, size_t n, const unsigned char *keep,
		    struct clock_fit *fit)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, see = 0;
	size_t i, used = 0;

	for (i = 0; i < n; i++) {
		if (keep && !keep[i])
			continue;
		mx += pair_dx(fit, &pairs[i]);
		my += pair_dy(fit, &pairs[i]);
		used++;
	}
	if (used < 2)
		return -EINVAL;
	mx /= (double)used;
	my /= (double)used;
	for (i = 0; i < n; i++) {
		double dx, dy;

		if (keep && !keep[i])
			continue;
		dx = pair_dx(fit, &pairs[i]) - mx;
		dy = pair_dy(fit, &pairs[i]) - my;
		sxx += dx * dx;
		sxy += dx * dy;
	}
	if (sxx <= 0)
		return -EINVAL; /* one device count only: no slope */
	fit->b = sxy / sxx;
	fit->a = my - fit->b * mx;
	fit->n_used = used;
	for (i = 0; i < n; i++) {
		double r;

		if (keep && !keep[i])
			continue;
		r = pair_dy(fit, &pairs[i]) - (fit->a + fit->b * pair_dx(fit, &pairs[i]));
		see += r * r;
	}
	fit->rms_ns = sqrt(see / (double)used);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of @n values; sorts @v in place. */
static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * Mark the pairs to keep for the second fit: residual within
 * CLOCK_OUTLIER_MADS median absolute residuals (or the floor).
 * Return: the number kept, or -ENOMEM.
 */
static long mark_inliers(const struct clock_pair *pairs, size_t n, const struct clock_fit *fit,
			 unsigned char *keep)
{
	double *res = malloc(2 * n * sizeof(*res));
	double *sorted = res + n;
	double limit;
	size_t i;
	long kept = 0;

	if (!res)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		res[i] = fabs(pair_dy(fit, &pairs[i]) -
			      (fit->a + fit->b * pair_dx(fit, &pairs[i])));
	memcpy(sorted, res, n * sizeof(*res));
	limit = fmax(CLOCK_OUTLIER_MADS * median(sorted, n), CLOCK_OUTLIER_FLOOR_NS);
	for (i = 0; i < n; i++) {
		keep[i] = res[i] <= limit;
		kept += keep[i];
	}
	free(res);
	return kept;
}

int clock_fit_pairs(const struct clock_pair *pairs, size_t n, struct clock_fit *fit)
{
	struct clock_fit first;
	unsigned char *keep;
	long kept;
	int err;

	if (n < 2)
		return -EINVAL;
	memset(&first, 0, sizeof(first));
	first.dev0 = pairs[0].dev_ts;
	first.host0 = pairs[0].host_ns;
	first.n_pairs = n;
	err = fit_line(pairs, n, NULL, &first);
	if (err)
		return err;
	*fit = first;
	keep = malloc(n);
	if (!keep)
		return -ENOMEM;
	kept = mark_inliers(pairs, n, &first, keep);
	if (kept < 0) {
		free(keep);
		return (int)kept;
	}
	/* Refit only when outliers were found and enough pairs remain. */
	if ((size_t)kept < n && (size_t)kept >= 2 && (size_t)kept * 2 >= n) {
		struct clock_fit second = first;

		if (!fit_line(pairs, n, keep, &second))
			*fit = second;
	}
	free(keep);
	return 0;
}

int64_t clock_dev_to_host_ns(const struct clock_fit *fit, uint64_t dev_ts)
{
	const double lim = (double)CLOCK_HOST_NS_MAX;
	double rel = fit->a + fit->b * (double)(int64_t)(dev_ts - fit->dev0);
	int64_t host0 = fit->host0 > (uint64_t)CLOCK_HOST_NS_MAX ? CLOCK_HOST_NS_MAX
								  : (int64_t)fit->host0;
	int64_t ns;

	/* a damaged fit or count: no conversion of an out-of-range double */
	if (!(rel > -lim)) /* NaN too */
		return 0;
	if (rel >= lim)
		return CLOCK_HOST_NS_MAX;
	ns = host0 + (int64_t)llround(rel); /* both within 2^62: no overflow */
	return ns < 0 ? 0 : ns > CLOCK_HOST_NS_MAX ? CLOCK_HOST_NS_MAX : ns;
}

double clock_fit_freq_hz(const struct clock_fit *fit)
{
	return fit->b > 0 ? 1e9 / fit->b : 0;
}
