/* SPDX-License-Identifier: MIT */
/*
 * The one owner of file system access to a PROF tree: --output, the
 * PROF_XXX directories in it, and every directory and file below them.
 *
 * msprof usually runs as root while --output may belong to a user, who can
 * plant a symlink at any name in it before msprof gets there (PROF_XXX
 * names are predictable to the millisecond) or rename a PROF_XXX away and
 * put a symlink in its place.  So nothing below --output is ever reached by
 * a path: --output is opened once, each PROF_XXX is made with mkdirat()
 * and held open, and everything inside is made with mkdirat()/openat()
 * relative to a directory fd, one component at a time, with O_NOFOLLOW.
 * A symlink met on the way fails with -ENOTDIR, a name that is
 * taken where a new file belongs fails with -EEXIST: nothing is ever
 * written through a link.  Modes: 0750 for directories, 0640 for files
 * (msprof's own), so only root and the group of msprof read the data.
 *
 * Every function returns a negative errno on failure and prints nothing.
 * File descriptors returned are close-on-exec and never 0, 1 or 2.
 */
#ifndef NPUPROF_PROF_FS_H
#define NPUPROF_PROF_FS_H

#include <stddef.h>

#define NPUPROF_PROF_DIR_MODE 0750
#define NPUPROF_PROF_FILE_MODE 0640

/**
 * npuprof_prof_output_open() - make --output ready: create it (and missing
 * parents, 0750) if needed, open it, and prove a file can be written in
 * it by creating, writing and removing a probe file
 * @path:   --output, absolute or relative to the current directory; the
 *          user named it, so symlinks in it are followed
 * @made:   out: how many directories of @path (the last ones) it created
 * @failed: on failure, the path that failed (@size bytes), for messages
 *
 * On failure the directories it created are removed again, so a failed
 * run leaves nothing.  Return: an open directory fd (the caller closes
 * it), or -errno (-ENOTDIR, -EACCES, -EROFS, -ENOSPC, ...).
 */
int npuprof_prof_output_open(const char *path, unsigned int *made, char *failed, size_t size);

/**
 * npuprof_prof_output_unmake() - remove the @made last directories of
 * @path that npuprof_prof_output_open() created, deepest first, while they
 * are empty (rmdir only: a directory that got anything stays).
 */
void npuprof_prof_output_unmake(const char *path, unsigned int made);

/**
 * npuprof_prof_mkdir_new() - create directory @name (one component) in
 * @dirfd and open it.  Return: its fd; -EEXIST when anything, a symlink
 * included, is at @name already (it is left alone); -errno.
 */
int npuprof_prof_mkdir_new(int dirfd, const char *name);

/**
 * npuprof_prof_mkdirs() - make (or open, when they exist as real
 * directories) the directories of relative path @rel ("device_0/data")
 * below @dirfd.  Return: the fd of the last one; -ENOTDIR when a
 * component is a symlink or not a directory; -errno.
 */
int npuprof_prof_mkdirs(int dirfd, const char *rel);

/**
 * npuprof_prof_create() - create the new file @rel ("host/info.json")
 * below @dirfd for writing, mode 0640; its directories must exist.
 * Return: an O_WRONLY fd; -EEXIST when the name is taken (a planted
 * symlink or file is never opened); -ENOTDIR for a symlink on the
 * way; -errno.
 */
int npuprof_prof_create(int dirfd, const char *rel);

/**
 * npuprof_prof_create_rw() - npuprof_prof_create(), for reading and
 * writing (a file that is read back while it is written: a database).
 * Return: an O_RDWR fd, or as npuprof_prof_create().
 */
int npuprof_prof_create_rw(int dirfd, const char *rel);

/**
 * npuprof_prof_rename_new() - rename the file @from_rel
 * ("host/.info.json.tmp") to @to_rel ("host/info.json"), both in one
 * folder below @dirfd, without replacing anything: a name already taken
 * at @to_rel (a planted symlink or file) fails with -EEXIST and is left
 * alone.  A symlink on the way fails with -ENOTDIR.  Return: 0 or -errno
 * (-EXDEV when the two are not in one folder).
 */
int npuprof_prof_rename_new(int dirfd, const char *from_rel, const char *to_rel);

/**
 * npuprof_prof_unlink() - remove the file @rel ("host/info.json") below
 * @dirfd, not following a symlink on the way (-ENOTDIR) or at the end (a
 * symlink there is removed, not its target).  Return: 0 or -errno.
 */
int npuprof_prof_unlink(int dirfd, const char *rel);

/**
 * npuprof_prof_remove() - remove the tree @name (one component) of @dirfd,
 * never following a symlink (a symlink is removed, not its target).
 * Return: 0 or the first -errno.
 */
int npuprof_prof_remove(int dirfd, const char *name);

/**
 * npuprof_prof_open_regular() - open @path for reading when it is a
 * regular file: a symlink at its last component is not followed (the
 * directories on the way are, as the caller named them), and a FIFO or
 * device planted there is neither read nor waited on (O_NONBLOCK).
 * Return: an O_RDONLY fd; -ENOENT; -ELOOP for a symlink; -EINVAL for
 * anything but a regular file; -errno.
 */
int npuprof_prof_open_regular(const char *path);

#endif /* NPUPROF_PROF_FS_H */
