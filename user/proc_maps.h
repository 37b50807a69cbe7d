/* SPDX-License-Identifier: MIT */
/*
 * Reading another process's file mappings from /proc/PID/maps, and naming
 * exactly the file behind one of them (/proc/PID/map_files), for tracers
 * that place probes on the code a process runs.
 */
#ifndef NPUPROF_PROC_MAPS_H
#define NPUPROF_PROC_MAPS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * struct proc_map - one file mapping, as a /proc/PID/maps line lists it
 * @start, @end:            the address range (end exclusive)
 * @dev_major, @dev_minor:  the device of the file, as maps prints it
 * @ino:                    the file's inode
 * @exec:                   mapped executable: where its code runs
 * @deleted:                the line ended in " (deleted)"
 * @path:                   the file as the process sees it, that suffix
 *                          stripped
 */
struct proc_map {
	unsigned long start, end;
	unsigned int dev_major, dev_minor;
	unsigned long ino;
	bool exec;
	bool deleted;
	char path[PATH_MAX];
};

/*
 * proc_maps_parse_line() - parse one /proc/PID/maps @line (modified: its
 * newline and " (deleted)" are cut off) into @m.
 * Return: 1 for a mapping of a file (a path that starts with '/'), 0 for
 * anything else (anonymous memory, [stack], a malformed line).
 */
int proc_maps_parse_line(char *line, struct proc_map *m);

/*
 * proc_maps_find() - the mapping of @pid whose file name (the last path
 * component) starts with @prefix ("libascendcl.so" also finds
 * "libascendcl.so.1"), the executable one when there is one: a process
 * that mapped two such files runs the code of that one.
 * Return: 0 with @m filled; -ESRCH when the process is gone; -ENOENT when
 * it maps no such file; -errno of opening its maps.
 */
int proc_maps_find(pid_t pid, const char *prefix, struct proc_map *m);

/*
 * proc_map_file() - write into @path (@len bytes) a name that opens
 * exactly the file of @pid's mapping @m, and stat it into @st.  First
 * /proc/@pid/map_files/<start>-<end>, which the kernel resolves to the
 * mapped file itself even when it was replaced or deleted on disk or lives
 * in another mount namespace (the inode is checked against @m in case the
 * range was remapped meanwhile); where map_files is closed to us (it needs
 * CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE), the path @m names, under
 * /proc/@pid/root, if that is still the same device and inode.
 * Return: 0; -ESRCH when the process is gone; -ENOENT when the range was
 * unmapped or remapped meanwhile; -ESTALE when only the path could be
 * tried and the file there is not (or no longer) the mapped one;
 * -ENAMETOOLONG.
 */
int proc_map_file(pid_t pid, const struct proc_map *m, char *path, size_t len,
		  struct stat *st);

#endif /* NPUPROF_PROC_MAPS_H */
