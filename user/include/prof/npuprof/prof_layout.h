/* SPDX-License-Identifier: MIT */
/*
 * The one owner of the PROF_XXX layout: what things are called inside a
 * capture's output, not how they are opened (that is npuprof/prof_fs.h).
 *
 *   PROF_<index %06u>_<local time YYYYmmddHHMMSSmmm>_<pid %08d><8 letters A-R>/
 *     host/
 *       data/npuprof.api.slice_<n>        API calls and loss records
 *       data/npuprof.api.slice_<n>.done   "filesize:<bytes>" once closed
 *       start_info end_info info.json sample.json
 *     device_<id>/
 *       data/npuprof.task.<id>.slice_<n>  device task events of device <id>
 *       start_info.<id> end_info.<id> info.json.<id> sample.json
 *
 * Control files (JSON) follow CANN's names (msprof.md section 3): the
 * host's are plain, a device's carry ".<id>" but for sample.json.  Each
 * is written whole under a hidden temporary name (".<name>.tmp" in the
 * same folder) and renamed into place, so a control file that exists is
 * complete.
 *
 * The directory name follows CANN's CreateProfDirSuffix (msprof.md); the
 * series and slice names are npuprof's own and are what the export and
 * npuprof-dump look for.  Device ids are the record's u32 device field,
 * written in decimal without leading zeros, and parsed back only in that
 * one spelling, so a name and its id always map one to one.
 *
 * Builders return 0 or -ENAMETOOLONG when the name does not fit @size
 * bytes (NUL included; @buf then holds a cut name); parsers return 0 or
 * -EINVAL.  Nothing here prints.
 */
#ifndef NPUPROF_PROF_LAYOUT_H
#define NPUPROF_PROF_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define NPUPROF_PROF_PREFIX "PROF_"
#define NPUPROF_PROF_HOST_DIR "host"
#define NPUPROF_PROF_HOST_DATA "host/data"
#define NPUPROF_PROF_DEVICE_PREFIX "device_"
#define NPUPROF_PROF_DATA_DIR "data"
#define NPUPROF_PROF_API_SERIES "npuprof.api"
#define NPUPROF_PROF_TASK_SERIES "npuprof.task" /* + ".<device id>" */
#define NPUPROF_PROF_SLICE_INFIX ".slice_"	 /* <series>.slice_<n> */
#define NPUPROF_PROF_DONE_SUFFIX ".done"	 /* <slice>.done */

/* Control files of host/, relative to the PROF_XXX directory. */
#define NPUPROF_PROF_START_INFO "host/start_info"
#define NPUPROF_PROF_END_INFO "host/end_info"
#define NPUPROF_PROF_INFO_JSON "host/info.json"
#define NPUPROF_PROF_SAMPLE_JSON "host/sample.json"

/* A device's control files (npuprof_device_ctrl_name()). */
enum npuprof_ctrl_file {
	NPUPROF_CTRL_START_INFO, /* start_info.<id>: written at start */
	NPUPROF_CTRL_END_INFO,	 /* end_info.<id>: at stop */
	NPUPROF_CTRL_INFO_JSON,	 /* info.json.<id>: at stop */
	NPUPROF_CTRL_SAMPLE_JSON, /* sample.json: at stop */
};

/* Bytes that hold any PROF_XXX name this module builds, NUL included. */
#define NPUPROF_PROF_NAME_SIZE 64
/* Bytes that hold any series name or series directory, NUL included. */
#define NPUPROF_PROF_SERIES_SIZE 64
/* A series or directory of the host data, not of a device. */
#define NPUPROF_PROF_HOST (-1L)

/**
 * struct npuprof_prof_name - the parts of a PROF_XXX directory name
 * @index:   the capture index (dynamic mode: always 1), 0..999999
 * @stamp:   local time as YYYYmmddHHMMSSmmm (17 digits, NUL-terminated)
 * @pid:     the profiled process, 0..99999999
 * @letters: 8 letters A-R telling apart names of one pid and ms
 */
struct npuprof_prof_name {
	unsigned int index;
	char stamp[18];
	int pid;
	char letters[9];
};

/**
 * npuprof_prof_name_build() - the PROF_XXX name of @n
 * @buf, @size: output; NPUPROF_PROF_NAME_SIZE bytes always suffice
 * @n:          the parts; @letters must be 8 of A-R, @stamp 17 digits
 *
 * Return: 0; -EINVAL when a part is out of range (the name would not
 * parse back); -ENAMETOOLONG.
 */
int npuprof_prof_name_build(char *buf, size_t size, const struct npuprof_prof_name *n);

/**
 * npuprof_prof_name_make() - a new PROF_XXX name for capture index 1 of
 * @pid started at wall clock @now, as CANN makes them: local time to the
 * ms, and 8 letters drawn from @seed (callers vary @seed to draw again
 * when a name is taken).
 * Return: as npuprof_prof_name_build().
 */
int npuprof_prof_name_make(char *buf, size_t size, pid_t pid, const struct timespec *now,
			   uint64_t seed);

/**
 * npuprof_prof_name_parse() - split a PROF_XXX name built as above
 * Return: 0 with *@n filled; -EINVAL for any other name (renamed copies,
 * other tools' names: see npuprof_prof_name_match() for those).
 */
int npuprof_prof_name_parse(const char *name, struct npuprof_prof_name *n);

/**
 * npuprof_prof_name_match() - does directory name @name claim to be a
 * PROF dir: "PROF_" and at least one more byte (other tools and other
 * versions name the rest differently; the export takes them all).
 * Return: 1 or 0.
 */
int npuprof_prof_name_match(const char *name);

/** npuprof_device_dir_name() - "device_<id>" into @buf. */
int npuprof_device_dir_name(char *buf, size_t size, uint32_t id);

/**
 * npuprof_device_dir_parse() - the id of device directory name @name
 * Return: 0 with *@id set when @name is exactly "device_" and the
 * decimal spelling of a u32 (no sign, no leading zero, no suffix);
 * -EINVAL otherwise.
 */
int npuprof_device_dir_parse(const char *name, uint32_t *id);

/**
 * npuprof_device_ctrl_name() - the control file @kind of device @id,
 * relative to the PROF_XXX directory: "device_<id>/start_info.<id>",
 * ".../end_info.<id>", ".../info.json.<id>", "device_<id>/sample.json".
 * Return: 0; -EINVAL for an unknown @kind; -ENAMETOOLONG.
 */
int npuprof_device_ctrl_name(char *buf, size_t size, uint32_t id, enum npuprof_ctrl_file kind);

/**
 * npuprof_ctrl_tmp_name() - the temporary name control file @rel
 * ("host/info.json") is written under before it is renamed to @rel:
 * ".<last component>.tmp" in the same folder ("host/.info.json.tmp").
 * Return: 0; -ENAMETOOLONG.
 */
int npuprof_ctrl_tmp_name(char *buf, size_t size, const char *rel);

/**
 * npuprof_series_dir() - the data directory of a series, relative to
 * the PROF_XXX directory: "host/data" for @device NPUPROF_PROF_HOST,
 * else "device_<device>/data".  @device: -1 or a u32 id.
 */
int npuprof_series_dir(char *buf, size_t size, long device);

/**
 * npuprof_series_name() - the series name (the stem of its slice file
 * names): "npuprof.api" for @device NPUPROF_PROF_HOST, else
 * "npuprof.task.<device>".
 */
int npuprof_series_name(char *buf, size_t size, long device);

/** npuprof_slice_name() - "<series>.slice_<idx>" into @buf. */
int npuprof_slice_name(char *buf, size_t size, const char *series, unsigned int idx);

/** npuprof_slice_done_name() - "<slice>.done" of slice name @slice into @buf. */
int npuprof_slice_done_name(char *buf, size_t size, const char *slice);

/**
 * npuprof_prof_devices() - the device ids of a PROF_XXX directory: the
 * entries of @prof_dir named as npuprof_device_dir_parse() accepts,
 * whatever they are (the reader of each finds out)
 * @prof_dir: path of the PROF_XXX directory
 * @ids:      out: malloc'd array, ascending, no duplicates (the caller
 *            frees it; NULL when there are none)
 *
 * Return: how many ids, or -errno from opendir() or -ENOMEM.
 */
int npuprof_prof_devices(const char *prof_dir, uint32_t **ids);

/**
 * npuprof_prof_base_name() - the last component of @path (a PROF dir's
 * name), pointing into @path; a trailing '/' stays on it: "a/PROF_1/"
 * gives "PROF_1/"
 */
const char *npuprof_prof_base_name(const char *path);

/**
 * npuprof_prof_dir_is() - whether @path is a PROF dir: a directory named
 * as npuprof_prof_name_match() accepts, or one holding host/ (a PROF dir
 * renamed or copied under another name)
 * Return: 1 or 0 (0 too when @path cannot be read).
 */
int npuprof_prof_dir_is(const char *path);

/**
 * npuprof_prof_dirs_find() - the PROF dirs a path names: @path itself when
 * npuprof_prof_dir_is() says so, else the directories below it named
 * PROF_*, in name order (a path to a job's output folder)
 * @dirs: out: malloc'd paths, "@path/<name>" (free with
 *        npuprof_prof_dirs_free(), also on error)
 * @n:    out: how many
 * Return: 0 (@n may be 0: nothing found), -errno of opendir(@path), or
 * -ENOMEM.
 */
int npuprof_prof_dirs_find(const char *path, char ***dirs, long *n);

/** npuprof_prof_dirs_free() - free @n paths of npuprof_prof_dirs_find(). */
void npuprof_prof_dirs_free(char **dirs, long n);

#endif /* NPUPROF_PROF_LAYOUT_H */
