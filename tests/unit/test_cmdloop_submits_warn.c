// SPDX-License-Identifier: MIT
/*
 * Description: msprof says once per run that a process's libascend_hal.so
 * could not be probed for task submits (npuprof_session_submits_missing()):
 * the first such process and why, in one line, however often the loop
 * asks (after every attach, at every saved window); nothing while no
 * process is missing one, and nothing from a session without the call.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "cmdloop.h"
#include "stderr_text.h"

static pid_t missing_pid;
static int missing_why;

static pid_t fake_submits_missing(const struct npuprof_session *s, int *why)
{
	(void)s;
	*why = missing_why;
	return missing_pid;
}

static const struct msprof_session_ops ops = { .submits_missing = fake_submits_missing };
static const struct msprof_session_ops no_ops = { 0 };

/* What msprof_warn_missing_layers() prints on @d, called @n times. */
static void warn_text(struct msprof_dyn *d, int n, char *buf, size_t size)
{
	stderr_text_begin();
	while (n--)
		msprof_warn_missing_layers(d);
	stderr_text_end(buf, size);
}

int main(void)
{
	struct msprof_dyn d = { .ops = &ops };
	char text[1024];

	warn_text(&d, 2, text, sizeof(text));
	CHECK_STR(text, "");
	missing_pid = 321;
	missing_why = -ENOENT;
	warn_text(&d, 3, text, sizeof(text));
	CHECK_STR(text, "[WARNING] npuprof: pid 321 maps no libascend_hal.so: its device tasks "
			"have no submit (no pid, thread or API call in the export)\n");
	missing_pid = 322; /* a second one: said already */
	warn_text(&d, 1, text, sizeof(text));
	CHECK_STR(text, "");

	d = (struct msprof_dyn){ .ops = &ops };
	missing_why = -ENOEXEC;
	warn_text(&d, 2, text, sizeof(text));
	CHECK_STR(text, "[WARNING] npuprof: cannot probe halSqTaskSend in the libascend_hal.so "
			"of pid 322 (Exec format error): its device tasks have no submit\n");

	d = (struct msprof_dyn){ .ops = &no_ops };
	warn_text(&d, 1, text, sizeof(text));
	CHECK_STR(text, "");
	return CHECK_DONE();
}
