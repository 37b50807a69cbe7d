/* SPDX-License-Identifier: MIT */
/*
 * How the export reads what a PROF_XXX directory holds (control files,
 * info.json) and how it names paths in what it says.
 *
 * A PROF dir may belong to a user while msprof --export=on runs as root:
 * whoever can write in it can plant a symlink, a FIFO or a device where a
 * control file belongs.  A file is read only when it is a regular file
 * reached without a symlink at its own name, and it is opened with
 * O_NONBLOCK, so a FIFO neither hangs the export nor gets read.
 *
 * Paths are bytes (a directory may be named anything); every path in a
 * console line or an incompleteness reason goes through the name rule of
 * npuprof/name_text.h first.
 */
#ifndef MSPROF_EXPORT_FILE_H
#define MSPROF_EXPORT_FILE_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>

#include <npuprof/name_text.h>

/* Text of any path (PATH_MAX bytes) under the name rule, NUL included. */
#define EXPORT_PATH_TEXT_LEN NPUPROF_NAME_TEXT_SIZE(PATH_MAX)

/**
 * export_load_json() - parse the JSON file @path, if it is a regular file:
 * npuprof_ctrl_load() (npuprof/prof_control.h), for the export's own
 * JSON files too (a --timeline-slice config)
 * @err: out: 0 when parsed, -EBADMSG when not valid JSON, else as for
 *       npuprof_prof_open_regular() (npuprof/prof_fs.h)
 *
 * Return: the document (a new reference), or NULL with *@err set.
 */
json_t *export_load_json(const char *path, int *err);

/**
 * export_path_text() - @path as text for a console line or a reason
 * @buf: EXPORT_PATH_TEXT_LEN bytes (less cuts the text short)
 *
 * Return: @buf.
 */
const char *export_path_text(const char *path, char *buf, size_t size);

#endif /* MSPROF_EXPORT_FILE_H */
