/* SPDX-License-Identifier: MIT */
/*
 * What a call prints on stderr, for the tests of msprof's words:
 * stderr_text_begin(), the call, stderr_text_end() with the buffer that
 * gets the text.  Not nestable.
 */
#ifndef NPUPROF_TEST_STDERR_TEXT_H
#define NPUPROF_TEST_STDERR_TEXT_H

#include <stdio.h>
#include <unistd.h>

static FILE *stderr_text_log;
static int stderr_text_saved = -1;

/* From now on stderr goes to a temporary file. */
static inline void stderr_text_begin(void)
{
	stderr_text_log = tmpfile();
	stderr_text_saved = dup(STDERR_FILENO);
	fflush(stderr);
	if (stderr_text_log)
		dup2(fileno(stderr_text_log), STDERR_FILENO);
}

/* stderr back; what it got since stderr_text_begin() into @buf (NUL-ended). */
static inline void stderr_text_end(char *buf, size_t size)
{
	size_t n = 0;

	fflush(stderr);
	dup2(stderr_text_saved, STDERR_FILENO);
	close(stderr_text_saved);
	if (stderr_text_log) {
		rewind(stderr_text_log);
		n = fread(buf, 1, size - 1, stderr_text_log);
		fclose(stderr_text_log);
	}
	buf[n] = '\0';
}

#endif /* NPUPROF_TEST_STDERR_TEXT_H */
