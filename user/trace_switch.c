// SPDX-License-Identifier: MIT
/*
 * Saving, switching on and restoring a driver's tracepoint switches
 * (npuprof/trace_switch.h), with a state file so that the values a killed
 * collector could not restore are restored by the next one.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/trace_switch.h>

static const char *state_path(void)
{
	const char *p = getenv("NPUPROF_TRACE_SWITCH_STATE");

	return p && *p ? p : NPUPROF_TRACE_SWITCH_STATE;
}

/* Read '0' or '1' from @path into *@v.  Return: 0 or -errno. */
static int read_switch(const char *path, char *v)
{
	char buf[8];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	n = n < 0 ? -errno : n;
	close(fd);
	if (n < 0)
		return (int)n;
	if (n < 1 || (buf[0] != '0' && buf[0] != '1'))
		return -EINVAL;
	*v = buf[0];
	return 0;
}

/* Write "<v>\n", exactly the 2 bytes the driver takes.  Return: 0 or -errno. */
static int write_switch(const char *path, char v)
{
	char buf[2] = { v, '\n' };
	ssize_t n;
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = write(fd, buf, sizeof(buf));
	n = n < 0 ? -errno : n;
	close(fd);
	if (n < 0)
		return (int)n;
	return n == sizeof(buf) ? 0 : -EIO;
}

/*
 * A predecessor's state file, if its writer is gone: the values it saved
 * replace those read now for the same files.  A live writer's file is left
 * alone (it restores its own).  Return: true when the file is ours to
 * rewrite (absent, or its writer dead).
 */
static bool adopt_stale_state(struct npuprof_trace_switch *ts)
{
	char path[96];
	FILE *f = fopen(state_path(), "re");
	unsigned int i;
	int pid = 0;
	char v;

	if (!f)
		return true;
	if (fscanf(f, "pid %d\n", &pid) != 1 || pid <= 0) {
		fclose(f);
		return true;
	}
	if (pid != getpid() && (kill(pid, 0) == 0 || errno == EPERM)) {
		fclose(f);
		return false;
	}
	while (fscanf(f, "%95s %c\n", path, &v) == 2) {
		for (i = 0; i < ts->n; i++)
			if (!strcmp(ts->path[i], path) && (v == '0' || v == '1'))
				ts->saved[i] = v;
	}
	fclose(f);
	return true;
}

/* The saved values and our pid, for the next collector if we get killed. */
static void write_state(const struct npuprof_trace_switch *ts)
{
	char tmp[PATH_MAX];
	unsigned int i;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.%d", state_path(), (int)getpid());
	f = fopen(tmp, "we");
	if (!f)
		return;
	fprintf(f, "pid %d\n", (int)getpid());
	for (i = 0; i < ts->n; i++)
		fprintf(f, "%s %c\n", ts->path[i], ts->saved[i]);
	if (fclose(f) || rename(tmp, state_path()))
		unlink(tmp);
}

int npuprof_trace_switch_on(struct npuprof_trace_switch *ts, const struct npu_backend *b,
			    const int *devices, unsigned int n, const char *proc_root)
{
	const char *root = proc_root ? proc_root : "/proc";
	char file[64];
	unsigned int i, k;
	int err;

	memset(ts, 0, sizeof(*ts));
	if (!b || !b->trace_enable)
		return 0;
	for (i = 0; i < n; i++) {
		for (k = 0; b->trace_enable[k] && ts->n < NPUPROF_TRACE_SWITCH_MAX; k++) {
			snprintf(file, sizeof(file), b->trace_enable[k], (unsigned int)devices[i]);
			snprintf(ts->path[ts->n], sizeof(ts->path[0]), "%s/%s", root, file);
			if (read_switch(ts->path[ts->n], &ts->saved[ts->n]))
				continue; /* not this driver release's file */
			ts->n++;
		}
	}
	if (!ts->n)
		return -ENOENT;
	ts->owner = adopt_stale_state(ts);
	if (ts->owner)
		write_state(ts);
	for (i = 0; i < ts->n; i++) {
		err = write_switch(ts->path[i], '1');
		if (err) {
			ts->n = i; /* restore the ones switched so far */
			npuprof_trace_switch_restore(ts);
			return err;
		}
	}
	return (int)ts->n;
}

int npuprof_trace_switch_restore(struct npuprof_trace_switch *ts)
{
	unsigned int i;
	int err = 0, e;

	for (i = 0; i < ts->n; i++) {
		e = write_switch(ts->path[i], ts->saved[i]);
		err = err ? err : e;
	}
	if (ts->owner)
		unlink(state_path());
	ts->n = 0;
	ts->owner = false;
	return err;
}
