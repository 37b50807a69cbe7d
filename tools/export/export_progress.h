/* SPDX-License-Identifier: MIT */
/*
 * Progress of an export that takes a while, on stderr: the records read
 * so far, the rate and, when the total is known (info.json "drain"
 * "records"), the percentage and the time left.  Nothing for the first
 * two seconds, so short exports print nothing.  On a terminal one line is
 * redrawn in place (five times a second); otherwise a plain line every
 * ten seconds, for logs.
 */
#ifndef MSPROF_EXPORT_PROGRESS_H
#define MSPROF_EXPORT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/**
 * struct export_progress - one export's progress
 * @what:  what is counted: "records" (read), then "timeline events"
 *         (written, export_progress_phase())
 * @out:   where it goes (stderr)
 * @tty:   @out is a terminal: redraw in place
 * @name:  the PROF dir's name, for the line
 * @total: records expected, 0 when unknown
 * @done:  records read so far
 * @t0:    start, s (CLOCK_MONOTONIC)
 * @phase_t0: start of the phase, s: the rate is the phase's
 * @next:  when the next line is due, s
 * @drawn: a line was drawn (on a terminal: it is still there)
 * @quiet_s: seconds before the first line (2; tests set 0)
 */
struct export_progress {
	const char *what;
	double phase_t0;
	FILE *out;
	bool tty;
	const char *name;
	uint64_t total;
	uint64_t done;
	double t0;
	double next;
	bool drawn;
	double quiet_s;
};

/** export_progress_start() - begin for @name, @total records (0: unknown), on @out. */
void export_progress_start(struct export_progress *p, FILE *out, const char *name,
			   uint64_t total);

/**
 * export_progress_phase() - count @what from now on, @total of them (0:
 * unknown); the quiet first seconds still run from the start
 */
void export_progress_phase(struct export_progress *p, const char *what, uint64_t total);

/** export_progress_draw() - print a line now if one is due (the slow path of _add). */
void export_progress_draw(struct export_progress *p);

/** export_progress_add() - one more record read; cheap: the clock is read every 64 Ki. */
static inline void export_progress_add(struct export_progress *p)
{
	if (!(++p->done & 0xffff))
		export_progress_draw(p);
}

/**
 * export_progress_format() - the line for @p at @now_s into @buf:
 * "PROF_x: 1234567/4000000 records (30%), 812345 records/s, 3 s left" or,
 * without a total, "PROF_x: 1234567 records, 812345 records/s" (another
 * phase's word for "records").
 */
void export_progress_format(const struct export_progress *p, double now_s, char *buf,
			    size_t size);

/** export_progress_end() - end the redrawn line (a newline) if one is showing. */
void export_progress_end(struct export_progress *p);

#endif /* MSPROF_EXPORT_PROGRESS_H */
