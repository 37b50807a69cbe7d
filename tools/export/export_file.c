// SPDX-License-Identifier: MIT
/*
 * Reading a PROF dir's files without following a planted symlink or
 * blocking on a planted FIFO, and paths as text (export_file.h).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/prof_control.h>
#include <npuprof/prof_fs.h>

#include "export_file.h"

json_t *export_load_json(const char *path, int *err)
{
	return npuprof_ctrl_load(path, err);
}

const char *export_path_text(const char *path, char *buf, size_t size)
{
	npuprof_name_text(buf, size, path, strlen(path));
	return buf;
}
