// SPDX-License-Identifier: MIT
/*
 * Description: the driver's tracepoint switches (npuprof/trace_switch.h)
 * in a fake /proc: backend ascend's two files of devices 0 and 1 are
 * saved, set to "1\n" and restored to what they held ("0\n", and "1\n" for
 * one set before); the state file names our pid while on and is gone
 * after.  A state file left by a dead collector makes the next start
 * restore the values it saved, not the 1 it left; one of a live process
 * is left alone.  No switch file at all: -ENOENT and nothing written.  A
 * backend without switches: 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"
#include <npuprof/npu_backend.h>
#include <npuprof/trace_switch.h>

static char root[] = "/tmp/npuprof-trsw-XXXXXX";

static void path_of(char *buf, size_t size, const char *fmt, int dev)
{
	char rel[128];

	snprintf(rel, sizeof(rel), fmt, dev);
	snprintf(buf, size, "%s/%s", root, rel);
}

static void put(const char *fmt, int dev, const char *v)
{
	char p[512];
	FILE *f;

	path_of(p, sizeof(p), fmt, dev);
	f = fopen(p, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(v, f);
		fclose(f);
	}
}

static void expect(const char *fmt, int dev, const char *want)
{
	char p[512], buf[16] = "";
	FILE *f;

	path_of(p, sizeof(p), fmt, dev);
	f = fopen(p, "r");
	CHECK(f != NULL);
	if (f) {
		CHECK(fgets(buf, sizeof(buf), f) != NULL);
		fclose(f);
	}
	CHECK_STR(buf, want);
}

static void mkdirs(int dev)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/trs_chan/dev%d-ts0", root, dev);
	CHECK_EQ(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/trs_core/ts_inst/dev%d-ts0", root, dev);
	CHECK_EQ(mkdir(p, 0755), 0);
}

int main(void)
{
	const struct npu_backend *b = npu_backend_find("ascend");
	static struct npuprof_trace_switch ts;
	char p[512], state[600];
	const int devs[2] = { 0, 1 };
	const char *chan, *core;
	pid_t dead;

	CHECK(b != NULL && b->trace_enable);
	if (!b || !mkdtemp(root))
		return CHECK_DONE();
	chan = b->trace_enable[0];
	core = b->trace_enable[1];
	snprintf(state, sizeof(state), "%s/state", root);
	setenv("NPUPROF_TRACE_SWITCH_STATE", state, 1);

	/* none of the files: an older driver */
	CHECK_EQ(npuprof_trace_switch_on(&ts, b, devs, 2, root), -ENOENT);
	CHECK(access(state, F_OK) != 0);
	CHECK_EQ(npuprof_trace_switch_on(&ts, npu_backend_find("npusim"), devs, 2, root), 0);

	snprintf(p, sizeof(p), "%s/trs_chan", root);
	CHECK_EQ(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/trs_core", root);
	CHECK_EQ(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/trs_core/ts_inst", root);
	CHECK_EQ(mkdir(p, 0755), 0);
	mkdirs(0);
	mkdirs(1);
	put(chan, 0, "0\n");
	put(core, 0, "0\n");
	put(chan, 1, "1\n");
	put(core, 1, "0\n");

	/* on, then back */
	CHECK_EQ(npuprof_trace_switch_on(&ts, b, devs, 2, root), 4);
	expect(chan, 0, "1\n");
	expect(core, 0, "1\n");
	expect(core, 1, "1\n");
	CHECK_EQ(access(state, F_OK), 0);
	CHECK_EQ(npuprof_trace_switch_restore(&ts), 0);
	expect(chan, 0, "0\n");
	expect(core, 0, "0\n");
	expect(chan, 1, "1\n");
	expect(core, 1, "0\n");
	CHECK(access(state, F_OK) != 0);
	CHECK_EQ(npuprof_trace_switch_restore(&ts), 0); /* twice is harmless */

	/* a collector killed while on: the next one restores what it saved */
	dead = fork();
	if (!dead) {
		struct npuprof_trace_switch mine;

		_exit(npuprof_trace_switch_on(&mine, b, devs, 2, root) == 4 ? 0 : 1);
	}
	CHECK_EQ(waitpid(dead, NULL, 0), dead);
	expect(chan, 0, "1\n");
	CHECK_EQ(access(state, F_OK), 0);
	CHECK_EQ(npuprof_trace_switch_on(&ts, b, devs, 2, root), 4);
	CHECK(ts.owner);
	CHECK_EQ(npuprof_trace_switch_restore(&ts), 0);
	expect(chan, 0, "0\n");
	expect(core, 0, "0\n");
	expect(chan, 1, "1\n");
	expect(core, 1, "0\n");

	/* a live collector's state is not taken over */
	put(chan, 0, "1\n");
	{
		FILE *f = fopen(state, "w");

		CHECK(f != NULL);
		if (f) {
			fprintf(f, "pid %d\n%s/trs_chan/dev0-ts0/trace_enable 0\n", (int)getppid(),
				root);
			fclose(f);
		}
	}
	CHECK_EQ(npuprof_trace_switch_on(&ts, b, devs, 2, root), 4);
	CHECK(!ts.owner);
	CHECK_EQ(npuprof_trace_switch_restore(&ts), 0);
	expect(chan, 0, "1\n"); /* what it held, not the other's saved 0 */
	CHECK_EQ(access(state, F_OK), 0);

	if (!check_failures)
		tmpdir_remove(root);
	return CHECK_DONE();
}
