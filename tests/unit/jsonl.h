/* SPDX-License-Identifier: MIT */
/* Reading JSON lines (--result files, npuprof-dump output) in a test. */
#ifndef NPUPROF_TEST_JSONL_H
#define NPUPROF_TEST_JSONL_H

#include <jansson.h>
#include <string.h>

/*
 * The JSON object on the line at *@cursor, which moves to the next line;
 * NULL when no whole line is left or it does not parse.  The buffer is
 * modified (the newline becomes a NUL).
 */
static inline json_t *jsonl_next(char **cursor)
{
	char *nl = strchr(*cursor, '\n');
	json_t *j;

	if (!nl)
		return NULL;
	*nl = '\0';
	j = json_loads(*cursor, 0, NULL);
	*cursor = nl + 1;
	return j;
}

#endif /* NPUPROF_TEST_JSONL_H */
