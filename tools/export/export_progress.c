// SPDX-License-Identifier: MIT
/*
 * Progress lines of a long export (export_progress.h).
 */
#include <time.h>
#include <unistd.h>

#include "export_progress.h"

#define PROGRESS_QUIET_S 2.0
#define PROGRESS_TTY_S 0.2
#define PROGRESS_LOG_S 10.0

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void export_progress_start(struct export_progress *p, FILE *out, const char *name,
			   uint64_t total)
{
	*p = (struct export_progress){ .what = "records", .out = out, .tty = isatty(fileno(out)),
				       .name = name, .total = total, .quiet_s = PROGRESS_QUIET_S };
	p->t0 = mono_s();
	p->phase_t0 = p->t0;
	p->next = p->t0 + p->quiet_s;
}

void export_progress_phase(struct export_progress *p, const char *what, uint64_t total)
{
	char line[512];

	if (p->out && p->tty && p->drawn) { /* the last phase's final count stays */
		export_progress_format(p, mono_s(), line, sizeof(line));
		fprintf(p->out, "\r\033[K%s\n", line);
		p->drawn = false;
	}
	p->what = what;
	p->total = total;
	p->done = 0;
	p->phase_t0 = mono_s();
}

void export_progress_format(const struct export_progress *p, double now_s, char *buf,
			    size_t size)
{
	double took = now_s - p->phase_t0;
	double rate = took > 0 ? (double)p->done / took : 0;
	/* a total known from the records is a floor: past it, the line shows 100% */
	uint64_t done = p->done < p->total ? p->done : p->total;

	if (p->total && rate > 0)
		snprintf(buf, size, "%s: %llu/%llu %s (%u%%), %.0f %s/s, %.0f s left", p->name,
			 (unsigned long long)done, (unsigned long long)p->total, p->what,
			 (unsigned int)(done * 100 / p->total), rate, p->what,
			 (double)(p->total - done) / rate);
	else
		snprintf(buf, size, "%s: %llu %s, %.0f %s/s", p->name, (unsigned long long)p->done,
			 p->what, rate, p->what);
}

void export_progress_draw(struct export_progress *p)
{
	double now = mono_s();
	char line[512];

	if (!p->out || now < p->next)
		return;
	export_progress_format(p, now, line, sizeof(line));
	if (p->tty)
		fprintf(p->out, "\r\033[K%s", line);
	else
		fprintf(p->out, "%s\n", line);
	fflush(p->out);
	p->drawn = true;
	p->next = now + (p->tty ? PROGRESS_TTY_S : PROGRESS_LOG_S);
}

void export_progress_end(struct export_progress *p)
{
	char line[512];

	if (p->out && p->tty && p->drawn) {
		export_progress_format(p, mono_s(), line, sizeof(line));
		fprintf(p->out, "\r\033[K%s\n", line);
	}
	p->drawn = false;
}
