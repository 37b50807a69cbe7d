// SPDX-License-Identifier: MIT
/*
 * The runtime-API capture's process filter (npuprof/acl_trace.h): which
 * processes the uprobe programs record.  The BPF side looks every probe
 * hit up in its `tgids` map; this file selects and forgets pids there,
 * attaches the sched_process_fork/exit programs that let a followed
 * process's children in and take exited processes out, and asks a BPF
 * iterator for the host pid of a pid seen from another pid namespace.
 */
#include <errno.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "acl_trace_int.h"
#include "acl_trace.skel.h" /* after the types it uses */

/* Set @bits in @pid's filter entry, keeping those it has (a followed child). */
static int acl_trace_add_tgid(struct npuprof_acl_trace *t, pid_t pid, __u8 bits)
{
	__u32 tgid = pid;
	__u8 old = 0;

	if (bpf_map__lookup_elem(t->skel->maps.tgids, &tgid, sizeof(tgid), &old, sizeof(old), 0))
		old = 0;
	old |= bits;
	return bpf_map__update_elem(t->skel->maps.tgids, &tgid, sizeof(tgid),
				    &old, sizeof(old), BPF_ANY);
}

/*
 * Attach the exit program once (loaded: t->exit_prog), and with it the one
 * that drops an exited process's handle names where it is loaded (best
 * effort: without it the names stay until the session closes).
 * Return: 0 or -errno.
 */
static int acl_trace_attach_exit(struct npuprof_acl_trace *t)
{
	if (t->names_exit_prog && !t->names_exit_link)
		t->names_exit_link = bpf_program__attach(t->skel->progs.acl_names_exit);
	if (t->exit_link)
		return 0;
	t->exit_link = bpf_program__attach(t->skel->progs.acl_exit_process);
	if (!t->exit_link)
		return -errno;
	return 0;
}

int npuprof_acl_trace_follow_pid(struct npuprof_acl_trace *t, pid_t pid)
{
	int err;

	if (pid <= 0)
		return -EINVAL;
	if (!t->follow)
		return -EOPNOTSUPP;
	if (!t->fork_link) { /* following needs both tracepoints */
		bool had_exit = t->exit_link != NULL;

		err = acl_trace_attach_exit(t);
		if (err)
			return err;
		t->fork_link = bpf_program__attach(t->skel->progs.acl_fork);
		if (!t->fork_link) {
			err = -errno;
			if (!had_exit) { /* one a selected process already needs stays */
				bpf_link__destroy(t->exit_link);
				t->exit_link = NULL;
			}
			return err;
		}
	}
	return acl_trace_add_tgid(t, pid, ACL_TGID_SELECTED | ACL_TGID_FOLLOW);
}

int npuprof_acl_trace_select_pid(struct npuprof_acl_trace *t, pid_t pid)
{
	if (pid <= 0)
		return -EINVAL;
	/*
	 * Without it the filter keeps an exited pid until msprof notices (at
	 * its next look, or the next start): a later process given the pid
	 * could be recorded meanwhile.  Best effort, as capture works
	 * without it; msprof checks each process's identity at every start.
	 */
	if (t->exit_prog)
		(void)acl_trace_attach_exit(t);
	return acl_trace_add_tgid(t, pid, ACL_TGID_SELECTED);
}

int npuprof_acl_trace_selected(const struct npuprof_acl_trace *t, pid_t pid)
{
	__u32 tgid = pid;
	__u8 bits;

	return !bpf_map__lookup_elem(t->skel->maps.tgids, &tgid, sizeof(tgid), &bits, sizeof(bits), 0);
}

uint64_t npuprof_acl_trace_follow_missed(const struct npuprof_acl_trace *t)
{
	return __atomic_load_n(&t->skel->bss->follow_missed, __ATOMIC_RELAXED);
}

int npuprof_acl_trace_host_pid(struct npuprof_acl_trace *t, pid_t pid, pid_t *host)
{
	struct bpf_program *prog = t->skel->progs.acl_host_pid;
	struct bpf_link *link;
	__u32 pair[64][2];
	ssize_t n;
	int fd, err = -ESRCH;

	*host = 0;
	if (!bpf_program__autoload(prog))
		return -EOPNOTSUPP;
	link = bpf_program__attach_iter(prog, NULL);
	if (!link)
		return -errno;
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		err = fd;
		goto out;
	}
	/* the iterator writes whole pairs; read to the end, as reading runs it */
	while ((n = read(fd, pair, sizeof(pair))) > 0) {
		for (size_t i = 0; i < (size_t)n / sizeof(pair[0]); i++) {
			if (pair[i][0] == (__u32)pid && !*host) {
				*host = (pid_t)pair[i][1];
				err = 0;
			}
		}
	}
	if (n < 0)
		err = -errno;
	close(fd);
out:
	bpf_link__destroy(link);
	return err;
}

int npuprof_acl_trace_detach_pid(struct npuprof_acl_trace *t, pid_t pid)
{
	__u32 tgid = pid;

	return bpf_map__delete_elem(t->skel->maps.tgids, &tgid, sizeof(tgid),
				    0);
}
