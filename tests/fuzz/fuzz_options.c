// SPDX-License-Identifier: MIT
/*
 * Fuzz target: msprof's option parser (tools/msprof/options.c,
 * msprof_options_parse) on a fuzzed argv.
 *
 * Input: the words after "msprof", each ended by a NUL byte (the last one
 * by the end of the input), at most MAX_WORDS of them.
 *
 * Properties beyond the sanitizers: the result is 0 or -EINVAL; a usage
 * error comes with a message and success without one, the message always
 * ends inside its MSPROF_ERR_MAX buffer; what a success fills in stays in
 * its bounds (--output length, the pid list, the app command pointing into
 * argv or into the split --application words); parsing the same argv again
 * gives the same result.
 */
#include <npuprof/session.h>

#include "fuzz_util.h"
#include "options.h"

#define MAX_WORDS 64

/* Split @buf (@size bytes, a copy) at NULs into @argv after "msprof". */
static int split_words(char *buf, size_t size, char **argv)
{
	static char prog[] = "msprof";
	int argc = 0;
	size_t i = 0;

	argv[argc++] = prog;
	while (i < size && argc < MAX_WORDS + 1) {
		argv[argc++] = buf + i;
		while (i < size && buf[i])
			i++;
		i++; /* past the NUL (the copy has one more at the end) */
	}
	argv[argc] = NULL;
	return argc;
}

/* The app command points into @argv or into @o's own split words. */
static void check_app(const struct msprof_options *o, char **argv, int argc)
{
	int i;

	if (!o->app_argv) {
		FUZZ_ASSERT(o->app_argc == 0);
		return;
	}
	if (o->application) {
		FUZZ_ASSERT(o->app_argv == o->app_words);
		for (i = 0; o->app_words[i]; i++) {
			FUZZ_ASSERT(i < MSPROF_APP_WORDS);
			FUZZ_ASSERT(o->app_words[i] >= o->app_line &&
				    o->app_words[i] < o->app_line + sizeof(o->app_line));
			FUZZ_ASSERT(o->app_words[i][0] != '\0');
		}
		return;
	}
	FUZZ_ASSERT(o->app_argv > argv && o->app_argv < argv + argc);
	FUZZ_ASSERT(o->app_argc == argc - (int)(o->app_argv - argv));
}

static void check_parsed(const struct msprof_options *o, char **argv, int argc)
{
	unsigned int i;

	FUZZ_ASSERT(memchr(o->output, '\0', sizeof(o->output)) != NULL);
	FUZZ_ASSERT(memchr(o->result, '\0', sizeof(o->result)) != NULL);
	FUZZ_ASSERT(o->nr_pids <= MSPROF_MAX_PIDS);
	FUZZ_ASSERT(o->nr_pids ? o->pid == o->pids[0] : o->pid == 0);
	for (i = 0; i < o->nr_pids; i++)
		FUZZ_ASSERT(o->pids[i] > 0);
	FUZZ_ASSERT(o->task_time >= MSPROF_TASK_TIME_OFF && o->task_time <= MSPROF_TASK_TIME_L1);
	check_app(o, argv, argc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct msprof_options o, again;
	char *buf = malloc(size + 1), *argv[MAX_WORDS + 2];
	char err[MSPROF_ERR_MAX], err2[MSPROF_ERR_MAX];
	int argc, rc, rc2;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argc = split_words(buf, size, argv);
	memset(err, 0xa5, sizeof(err));
	rc = msprof_options_parse(argc, argv, &o, err);
	FUZZ_ASSERT(rc == 0 || rc == -EINVAL);
	FUZZ_ASSERT(memchr(err, '\0', sizeof(err)) != NULL);
	FUZZ_ASSERT(rc ? err[0] != '\0' : err[0] == '\0');
	if (!rc)
		check_parsed(&o, argv, argc);
	rc2 = msprof_options_parse(argc, argv, &again, err2);
	FUZZ_ASSERT(rc2 == rc && strcmp(err, err2) == 0);
	free(buf);
	return 0;
}
