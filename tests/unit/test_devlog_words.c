// SPDX-License-Identifier: MIT
/*
 * Description: what msprof says at a window's start about each device's
 * task begin/end on a host that reads the device log
 * (tools/msprof/dynamic.c msprof_say_device_log_of()): one line per
 * distinct outcome, its devices named ("devices 0, 3"), the device log as
 * [INFO] on stdout, each refusal as a [WARNING] on stderr ending in
 * "host-side timing only (submits and API calls)", with the exact words.
 * A second window with the same outcomes says nothing; one whose device 2
 * is now read says only that.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/devlog.h>
#include <npuprof/msg.h>

#include "check.h"
#include "dynamic.h"
#include "stderr_text.h"

/* stdout and stderr of one call, into @out and @err. */
static void say(const struct npuprof_devlog_dev *dl, unsigned int n, char *out, char *err,
		size_t size)
{
	FILE *log = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t got = 0;

	fflush(stdout);
	if (log)
		dup2(fileno(log), STDOUT_FILENO);
	stderr_text_begin();
	msprof_say_device_log_of(dl, n);
	stderr_text_end(err, size);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	if (log) {
		rewind(log);
		got = fread(out, 1, size - 1, log);
		fclose(log);
	}
	out[got] = 0;
}

static void set(struct npuprof_devlog_dev *d, int device, int outcome, const char *text)
{
	memset(d, 0, sizeof(*d));
	d->device = device;
	d->outcome = outcome;
	snprintf(d->text, sizeof(d->text), "%s", text);
}

int main(void)
{
	struct npuprof_devlog_dev dl[4];
	char out[2048], err[2048];

	npuprof_msg_set_prog("msprof");
	set(&dl[0], 0, NPUPROF_DEVLOG_OWNED, "device log (channel 50)");
	set(&dl[1], 1, NPUPROF_DEVLOG_TAKEN,
	    "none: another process collects device 1's log (pid 1234, msprof)");
	set(&dl[2], 2, NPUPROF_DEVLOG_NO_CONTEXT, "none: no device context on device 2");
	set(&dl[3], 3, NPUPROF_DEVLOG_OWNED, "device log (channel 50)");
	say(dl, 4, out, err, sizeof(out));
	CHECK_STR(out, "[INFO] msprof: devices 0, 3: task begin/end from the device log (channel 50)\n");
	CHECK_STR(err, "[WARNING] msprof: device 1: no task begin/end times: another process "
		       "collects device 1's log (pid 1234, msprof); host-side timing only "
		       "(submits and API calls)\n"
		       "[WARNING] msprof: device 2: no task begin/end times: no device context on "
		       "device 2; host-side timing only (submits and API calls)\n");

	say(dl, 4, out, err, sizeof(out));
	CHECK_STR(out, "");
	CHECK_STR(err, "");

	set(&dl[2], 2, NPUPROF_DEVLOG_OWNED, "device log (channel 50)");
	say(dl, 4, out, err, sizeof(out));
	CHECK_STR(out, "[INFO] msprof: device 2: task begin/end from the device log (channel 50)\n");
	CHECK_STR(err, "");
	return CHECK_DONE();
}
