/* SPDX-License-Identifier: MIT */
/*
 * An SQLite database written into a file descriptor the export made
 * itself (export_fileset.c: O_EXCL, O_NOFOLLOW, relative to the PROF dir's fd),
 * so that SQLite never opens a path in a PROF dir that someone else may
 * be able to write: a small VFS whose main database file is that fd.
 */
#ifndef MSPROF_EXPORT_DB_FD_H
#define MSPROF_EXPORT_DB_FD_H

#include <sqlite3.h>

/**
 * export_db_fd_open() - open a new database whose file is @fd
 * @fd: an empty regular file open for reading and writing; still the
 *      caller's (closed by the caller after sqlite3_close())
 * @db: out: the connection, NULL on error
 *
 * The database has no rollback journal (journal_mode OFF, nothing is
 * ever written next to it): a failed export throws the whole file away.
 * Sorting temporaries (CREATE INDEX) go where SQLite's default VFS puts
 * them (SQLITE_TMPDIR, TMPDIR, /var/tmp, /tmp), unnamed.
 * Return: 0; -ENOMEM; -EIO when SQLite refuses (its message is printed).
 */
int export_db_fd_open(int fd, sqlite3 **db);

/**
 * export_db_fd_errno() - the errno of the last read or write of @db's
 * file that failed (ENOSPC for a full disk), 0 if none did.
 */
int export_db_fd_errno(sqlite3 *db);

#endif /* MSPROF_EXPORT_DB_FD_H */
