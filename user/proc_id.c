// SPDX-License-Identifier: MIT
/*
 * Process identity from procfs (npuprof/proc_id.h).
 *
 * /proc/<pid>/stat: "pid (comm) state ppid ... starttime ..."; comm is
 * what the process named itself, any bytes but NUL, ')' and spaces
 * included, so the fields are counted from the *last* ')'.  state is field
 * 3, ppid 4, starttime 22.  /proc/<pid>/status: a
 * "Tgid:\t<pid>" line and a "NSpid:\t<pid>\t<pid>..." one (Linux 4.1+).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <npuprof/proc_id.h>

/* Read @proc_dir/@pid/@name into @buf (NUL-terminated).  Return: bytes or -errno. */
static ssize_t read_proc_file(const char *proc_dir, pid_t pid, const char *name, char *buf,
			      size_t size)
{
	char path[256];
	ssize_t n;
	int fd, e;

	snprintf(path, sizeof(path), "%s/%d/%s", proc_dir ? proc_dir : "/proc", (int)pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n < 0)
		return e == ESRCH ? -ESRCH : -e;
	buf[n] = '\0';
	return n;
}

/* state, ppid and starttime from the stat line @buf. */
static int parse_stat(const char *buf, struct npuprof_proc_stat *st)
{
	const char *p = strrchr(buf, ')');
	unsigned long long v;
	int field;
	char *end;
	long ppid;

	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -EBADMSG;
	st->state = p[2];
	p += 4; /* field 4, ppid */
	errno = 0;
	ppid = strtol(p, &end, 10);
	if (end == p || errno || *end != ' ' || ppid < 0)
		return -EBADMSG;
	st->ppid = (pid_t)ppid;
	/* starttime is field 22 */
	for (field = 4; field < 22; field++) {
		p = strchr(p, ' ');
		if (!p)
			return -EBADMSG;
		p++;
	}
	errno = 0;
	v = strtoull(p, &end, 10);
	if (end == p || errno || (*end != ' ' && *end != '\n' && *end != '\0'))
		return -EBADMSG;
	st->start_ticks = v;
	return 0;
}

int npuprof_proc_stat_read(pid_t pid, const char *proc_dir, struct npuprof_proc_stat *st)
{
	char buf[4096];
	ssize_t n;
	int err;

	memset(st, 0, sizeof(*st));
	if (pid <= 0)
		return -ESRCH;
	n = read_proc_file(proc_dir, pid, "stat", buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	err = parse_stat(buf, st);
	if (err)
		memset(st, 0, sizeof(*st));
	return err;
}

/* The pids of an "NSpid:" line's rest @p into @id; unparsable: @pid alone. */
static void parse_nspid(const char *p, pid_t pid, struct npuprof_proc_id *id)
{
	char *end;
	long v;

	id->nr_nspid = 0;
	while (id->nr_nspid < NPUPROF_PROC_MAX_NS) {
		v = strtol(p, &end, 10);
		if (end == p || v <= 0)
			break;
		id->nspid[id->nr_nspid++] = (pid_t)v;
		p = end;
	}
	if (!id->nr_nspid || id->nspid[0] != pid) { /* not what the kernel writes */
		id->nspid[0] = pid;
		id->nr_nspid = 1;
	}
}

/*
 * Tgid and NSpid from @proc_dir/@pid/status, read line by line: the file
 * has no size limit (a Groups line of thousands of groups comes before
 * NSpid).  Missing lines leave @pid itself.  Return: 0 or -errno.
 */
static int read_status(const char *proc_dir, pid_t pid, struct npuprof_proc_id *id)
{
	char path[256], *line = NULL;
	size_t cap = 0;
	long v;
	FILE *f;

	id->tgid = pid;
	id->nspid[0] = pid;
	id->nr_nspid = 1;
	snprintf(path, sizeof(path), "%s/%d/status", proc_dir ? proc_dir : "/proc", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (getline(&line, &cap, f) > 0) {
		if (!strncmp(line, "Tgid:", 5)) {
			v = strtol(line + 5, NULL, 10);
			id->tgid = v > 0 ? (pid_t)v : pid;
		} else if (!strncmp(line, "NSpid:", 6)) {
			parse_nspid(line + 6, pid, id);
		}
	}
	free(line);
	fclose(f);
	return 0;
}

int npuprof_proc_id_read(pid_t pid, const char *proc_dir, struct npuprof_proc_id *id)
{
	struct npuprof_proc_stat st;
	int err;

	memset(id, 0, sizeof(*id));
	err = npuprof_proc_stat_read(pid, proc_dir, &st);
	if (!err && (st.state == 'Z' || st.state == 'X'))
		err = -ESRCH;
	if (!err) {
		id->start_ticks = st.start_ticks;
		err = read_status(proc_dir, pid, id);
	}
	if (err) /* nothing half-read: start_ticks 0 means unknown */
		memset(id, 0, sizeof(*id));
	return err;
}

int npuprof_proc_id_same(pid_t pid, const char *proc_dir, const struct npuprof_proc_id *id)
{
	struct npuprof_proc_stat st;
	int err = npuprof_proc_stat_read(pid, proc_dir, &st);

	if (err == -ESRCH)
		return 0;
	if (err)
		return err;
	return st.state != 'Z' && st.state != 'X' && st.start_ticks == id->start_ticks;
}

/* The inode of the initial pid namespace: PROC_PID_INIT_INO, include/linux/proc_ns.h. */
#define PROC_ID_PID_INIT_INO 0xEFFFFFFCU

int npuprof_in_host_pid_ns(void)
{
	struct stat st;

	return stat("/proc/self/ns/pid", &st) || st.st_ino == PROC_ID_PID_INIT_INO;
}

int npuprof_procfs_is_ours(void)
{
	char self[32];
	ssize_t n = readlink("/proc/self", self, sizeof(self) - 1);

	if (n <= 0)
		return 0;
	self[n] = '\0';
	return strtol(self, NULL, 10) == (long)getpid();
}

int npuprof_proc_getenv(pid_t pid, const char *name, char *buf, size_t size)
{
	size_t len = strlen(name), cap = 0;
	char path[64], *line = NULL;
	int rc = -ENODATA;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* one NAME=value at a time: an environment has no size limit here */
	while ((n = getdelim(&line, &cap, '\0', f)) > 0) {
		if (strncmp(line, name, len) || line[len] != '=')
			continue;
		rc = (size_t)snprintf(buf, size, "%s", line + len + 1) < size ? 0 : -ENAMETOOLONG;
		break;
	}
	if (n < 0 && ferror(f))
		rc = -EIO;
	free(line);
	fclose(f);
	return rc;
}
