// SPDX-License-Identifier: MIT
/*
 * Reading a PROF dir's files without following a planted symlink or
 * blocking on a planted FIFO, and paths as text (export_file.h).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <npuprof/prof_fs.h>

#include "export_file.h"

json_t *export_load_json(const char *path, int *err)
{
	int fd = npuprof_prof_open_regular(path);
	json_t *doc;

	*err = fd < 0 ? fd : 0;
	if (fd < 0)
		return NULL;
	doc = json_loadfd(fd, 0, NULL);
	close(fd);
	if (!doc)
		*err = -EBADMSG;
	return doc;
}

const char *export_path_text(const char *path, char *buf, size_t size)
{
	npuprof_name_text(buf, size, path, strlen(path));
	return buf;
}

const char *export_base_name(const char *path)
{
	const char *s = path + strlen(path);

	while (s > path && s[-1] == '/')
		s--;
	while (s > path && s[-1] != '/')
		s--;
	return s;
}
