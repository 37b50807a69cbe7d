// SPDX-License-Identifier: MIT
/*
 * Description: the export's progress line (export_progress.h): its exact
 * text with and without a known total; nothing in the first two seconds
 * (a short export prints nothing); once due, on a stream that is not a
 * terminal, one plain line, then nothing until ten seconds later; the end
 * adds nothing there (only a redrawn terminal line gets its newline).
 */
#include <stdio.h>

#include "check.h"
#include "export_progress.h"

static long size_of(FILE *f)
{
	fflush(f);
	return ftell(f);
}

int main(void)
{
	struct export_progress p;
	char line[512], text[256] = "";
	FILE *f = tmpfile();

	CHECK(f != NULL);
	if (!f)
		return 1;
	export_progress_start(&p, f, "PROF_1", 1000);
	CHECK(!p.tty);
	p.t0 = p.phase_t0 = 100.0;
	p.done = 250;
	export_progress_format(&p, 102.0, line, sizeof(line));
	CHECK_STR(line, "PROF_1: 250/1000 records (25%), 125 records/s, 6 s left");
	p.total = 0;
	export_progress_format(&p, 102.0, line, sizeof(line));
	CHECK_STR(line, "PROF_1: 250 records, 125 records/s");
	p.what = "timeline events";
	p.total = 500;
	export_progress_format(&p, 102.0, line, sizeof(line));
	CHECK_STR(line, "PROF_1: 250/500 timeline events (50%), 125 timeline events/s, 2 s left");
	/* more done than the total said (metadata events are not counted):
	 * 100% and nothing left, where the line used to lose its total */
	p.done = 520;
	export_progress_format(&p, 102.0, line, sizeof(line));
	CHECK_STR(line, "PROF_1: 500/500 timeline events (100%), 260 timeline events/s, 0 s left");

	/* a short export: not due for two seconds */
	export_progress_start(&p, f, "PROF_1", 0);
	for (int i = 0; i < 200000; i++)
		export_progress_add(&p);
	export_progress_draw(&p);
	export_progress_end(&p);
	CHECK_EQ(size_of(f), 0);

	/* due at once: one plain line, then not again for ten seconds */
	export_progress_start(&p, f, "PROF_2", 0);
	p.next = p.t0;
	p.done = 7;
	export_progress_draw(&p);
	export_progress_draw(&p);
	export_progress_end(&p);
	rewind(f);
	CHECK(fgets(text, sizeof(text), f) != NULL);
	CHECK(!strncmp(text, "PROF_2: 7 records, ", 19));
	CHECK_EQ(text[strlen(text) - 1], '\n');
	CHECK(fgets(text, sizeof(text), f) == NULL);
	fclose(f);
	return CHECK_DONE();
}
