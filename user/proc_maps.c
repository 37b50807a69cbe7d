// SPDX-License-Identifier: MIT
/*
 * /proc/PID/maps parsing (proc_maps.h): a process's file mappings, the
 * one whose file has a given name, and a path that reaches that very file
 * for probing or opening.  Nothing here knows which library is wanted or
 * why.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/sysmacros.h>

#include "proc_maps.h"

#define DELETED_SUFFIX " (deleted)"

int proc_maps_parse_line(char *line, struct proc_map *m)
{
	size_t sfx = strlen(DELETED_SUFFIX), n;
	char perms[8], *file;

	if (sscanf(line, "%lx-%lx %7s %*x %x:%x %lu", &m->start, &m->end, perms,
		   &m->dev_major, &m->dev_minor, &m->ino) != 6)
		return 0;
	file = strchr(line, '/');
	if (!file)
		return 0;
	file[strcspn(file, "\n")] = '\0';
	n = strlen(file);
	m->deleted = n > sfx && strcmp(file + n - sfx, DELETED_SUFFIX) == 0;
	if (m->deleted)
		file[n - sfx] = '\0';
	m->exec = strchr(perms, 'x') != NULL;
	snprintf(m->path, sizeof(m->path), "%s", file);
	return 1;
}

/* Whether the last component of @m's path starts with @prefix. */
static bool proc_map_named(const struct proc_map *m, const char *prefix)
{
	const char *base = strrchr(m->path, '/') + 1;

	return strncmp(base, prefix, strlen(prefix)) == 0;
}

int proc_maps_find(pid_t pid, const char *prefix, struct proc_map *m)
{
	char maps[64], line[PATH_MAX + 128];
	struct proc_map cand;
	int found = 0;
	FILE *f;

	snprintf(maps, sizeof(maps), "/proc/%d/maps", (int)pid);
	f = fopen(maps, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!(found && m->exec) && fgets(line, sizeof(line), f)) {
		if (!proc_maps_parse_line(line, &cand) || !proc_map_named(&cand, prefix))
			continue;
		if (!found || cand.exec)
			*m = cand;
		found = 1;
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

static int proc_pid_alive(pid_t pid)
{
	char dir[32];

	snprintf(dir, sizeof(dir), "/proc/%d", (int)pid);
	return access(dir, F_OK) == 0;
}

/*
 * Fallback when map_files is closed to us: the path the maps line names,
 * through /proc/@pid/root so a process in another mount namespace is found
 * too.  Only good if it is still the file that was mapped: same device and
 * inode.  Return: 0 with @path and @st; -ESRCH; -ESTALE when the file at
 * that path is not (or no longer) the mapped one.
 */
static int proc_map_file_by_name(pid_t pid, const struct proc_map *m, char *path, size_t len,
				 struct stat *st)
{
	if ((size_t)snprintf(path, len, "/proc/%d/root%s", (int)pid, m->path) >= len)
		return -ENAMETOOLONG;
	if (!m->deleted && stat(path, st) == 0 && st->st_ino == m->ino &&
	    major(st->st_dev) == m->dev_major && minor(st->st_dev) == m->dev_minor)
		return 0;
	return proc_pid_alive(pid) ? -ESTALE : -ESRCH;
}

/*
 * Only the inode is compared with the maps line: on btrfs stat reports a
 * subvolume's device, not the one maps prints.
 */
int proc_map_file(pid_t pid, const struct proc_map *m, char *path, size_t len,
		  struct stat *st)
{
	snprintf(path, len, "/proc/%d/map_files/%lx-%lx", (int)pid, m->start, m->end);
	if (stat(path, st) == 0) {
		if (st->st_ino == m->ino)
			return 0;
		return -ENOENT;
	}
	if (errno == ENOENT)
		return proc_pid_alive(pid) ? -ENOENT : -ESRCH;
	return proc_map_file_by_name(pid, m, path, len, st);
}
