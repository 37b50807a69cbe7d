// SPDX-License-Identifier: MIT
/*
 * The output-file set of one export (export_fileset.h): the timeline
 * (export_timeline.c, sliced as export_tl_slice.c says) and the summary
 * CSVs (export_summary.c) in mindstudio_profiler_output/, and the
 * database at the PROF dir's top (export_db.c; --type=db writes it alone),
 * named with the local export time as msprof does:
 * msprof_<YYYYmmddHHMMSS>.json, op_summary_<...>.csv, ...,
 * msprof_<YYYYmmddHHMMSS>.db.
 *
 * The PROF dir may be a user's while the export runs as root, so nothing
 * is written by path: mindstudio_profiler_output is made or opened below
 * the PROF dir's fd without following a symlink, and every file in it is
 * created new (O_EXCL, O_NOFOLLOW, 0640; npuprof/prof_fs.h), renamed and
 * removed relative to its fd.
 *
 * Every file is first written under a temporary name and, once the whole
 * set is written, renamed into place; only then are the files of an
 * earlier export removed.  A re-export leaves exactly one set, and a
 * failed one (a full disk, say) leaves the earlier set untouched and no
 * half-written file behind.  The temporary files of an export that was
 * killed (SIGINT, SIGKILL) before its renames go with the next export
 * that completes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <npuprof/msg.h>
#include <npuprof/prof_fs.h>

#include "export_db.h"
#include "export_file.h"
#include "export_fileset.h"
#include "export_progress.h"
#include "export_split.h"
#include "export_summary.h"
#include "export_timeline.h"
#include "export_tl_slice.h"

typedef int (*export_writer_fn)(const struct export_model *m, FILE *f);

/* The files one export writes: <prefix><YYYYmmddHHMMSS><ext>. */
static const struct {
	const char *prefix;
	const char *ext;
	export_writer_fn write;
} export_files[] = {
	{ "msprof_", ".json", export_write_timeline },
	{ "api_statistic_", ".csv", export_write_api_statistic },
	{ "op_summary_", ".csv", export_write_op_summary },
	{ "op_statistic_", ".csv", export_write_op_statistic },
	{ "task_time_", ".csv", export_write_task_time },
};

#define EXPORT_NR_FILES (sizeof(export_files) / sizeof(export_files[0]))

/* The database, at the PROF dir's top: <prefix><YYYYmmddHHMMSS><ext>. */
#define EXPORT_DB_PREFIX "msprof_"
#define EXPORT_DB_EXT ".db"

/* Bytes of the run of digits at @p, up to @end. */
static size_t digits(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	return (size_t)(q - p);
}

/* The forms a file's name may take (export_split.h). */
enum export_name_form {
	EXPORT_NAME_WHOLE,	/* <prefix><14 digits><ext> only (the database) */
	EXPORT_NAME_PARTS,	/* also <prefix><14 digits>_<part><ext> (a CSV) */
	EXPORT_NAME_SLICES,	/* also <prefix><n>_<14 digits><ext> (the timeline) */
};

/*
 * The stamp of a name's middle part, from @p (after its prefix) to @end
 * (its extension cut): "<14 digits>", or in the @form's extra shape
 * "<14 digits>_<part>" or "<n>_<14 digits>".  Return: the stamp, or NULL.
 */
static const char *export_stamp_of(const char *p, const char *end, enum export_name_form form)
{
	size_t a = digits(p, end), b;

	if (a == 14 && p + a == end)
		return p;
	if (!a || p + a == end || p[a] != '_')
		return NULL;
	b = digits(p + a + 1, end);
	if (!b || p + a + 1 + b != end)
		return NULL;
	if (form == EXPORT_NAME_PARTS)
		return a == 14 ? p : NULL;
	if (form == EXPORT_NAME_SLICES)
		return b == 14 ? p + a + 1 : NULL;
	return NULL;
}

/*
 * Does @name (its first @len bytes) match <prefix><stamp><ext> in one of
 * @form's shapes, with a stamp other than @keep?
 */
static int is_other_stamp(const char *name, size_t len, const char *prefix, const char *ext,
			  const char *keep, enum export_name_form form)
{
	size_t lp = strlen(prefix), le = strlen(ext);
	const char *stamp;

	if (len < lp + 14 + le || strncmp(name, prefix, lp) || strncmp(name + len - le, ext, le))
		return 0;
	stamp = export_stamp_of(name + lp, name + len - le, form);
	return stamp && strncmp(stamp, keep, 14) != 0;
}

/*
 * Is @name an export of ours (in mindstudio_profiler_output, parts and
 * slices included; with @db, the database at the PROF dir's top), or the
 * same with ".tmp" (a file of an export killed before its renames), with
 * a stamp other than @keep (the set just written)?
 */
static int is_old_export(const char *name, const char *keep, int db)
{
	size_t i, len = strlen(name);

	if (len > 4 && !strcmp(name + len - 4, ".tmp"))
		len -= 4;
	if (db)
		return is_other_stamp(name, len, EXPORT_DB_PREFIX, EXPORT_DB_EXT, keep,
				      EXPORT_NAME_WHOLE);
	for (i = 0; i < EXPORT_NR_FILES; i++)
		if (is_other_stamp(name, len, export_files[i].prefix, export_files[i].ext, keep,
				   strcmp(export_files[i].ext, ".csv") ? EXPORT_NAME_SLICES :
									 EXPORT_NAME_PARTS))
			return 1;
	return 0;
}

/* Remove the old exports (is_old_export()) in @fd. */
static int remove_old_exports(int fd, const char *keep, int db)
{
	struct dirent *de;
	int dfd = fcntl(fd, F_DUPFD_CLOEXEC, 3), err = 0;
	DIR *d = dfd < 0 ? NULL : fdopendir(dfd);

	if (!d) {
		err = -errno;
		if (dfd >= 0)
			close(dfd);
		return err;
	}
	while ((de = readdir(d))) {
		if (!is_old_export(de->d_name, keep, db))
			continue;
		if (unlinkat(fd, de->d_name, 0) && !err)
			err = -errno; /* a symlink there goes, its target stays */
	}
	closedir(d);
	return err;
}

/*
 * Create @tmp in @outfd (0640, O_EXCL, O_NOFOLLOW; O_RDWR with @rw, else
 * O_WRONLY).  Whatever is at the name already (a symlink planted there, a
 * file left by a crash) is never written through: it is removed, said,
 * and the file made anew.
 */
static int create_tmp(int outfd, const char *tmp, const char *out, int rw)
{
	int (*create)(int, const char *) = rw ? npuprof_prof_create_rw : npuprof_prof_create;
	int fd = create(outfd, tmp);

	if (fd != -EEXIST)
		return fd;
	if (unlinkat(outfd, tmp, 0)) {
		fd = -errno;
		npuprof_err("%s/%s: something that is not a file is there: refusing to write through it",
			    out, tmp);
		return fd;
	}
	npuprof_warn("%s/%s: a symlink or a stale file was there: removed, not written through",
		     out, tmp);
	return create(outfd, tmp);
}

/* export_split.create: a part's .tmp file, made as create_tmp() makes it. */
static int split_create(void *ctx, int outfd, const char *name)
{
	return create_tmp(outfd, name, ctx, 0);
}

/* Unlink parts [@from, @s->parts) of @s, as .tmp names when @tmp. */
static void unlink_parts(int outfd, const struct export_split *s, unsigned int from, bool tmp)
{
	char name[NAME_MAX + 1];

	for (unsigned int k = from; k < s->parts; k++)
		if (!export_split_name(s, k, tmp, name, sizeof(name)))
			unlinkat(outfd, name, 0);
}

/*
 * Write one file as <stem><ext>.tmp (and, past @s->max_rows rows, its
 * further parts, export_split.h); a stream error (ENOSPC) fails it and
 * takes every part back.
 */
static int write_tmp(const struct export_model *m, struct export_split *s, export_writer_fn fn,
		     struct export_tl_sketch *sk)
{
	FILE *f = export_split_open(s);
	int err;

	if (!f) {
		err = -errno;
		unlink_parts(s->outfd, s, 0, true); /* a part may be made already */
		return err;
	}
	errno = 0;
	err = sk ? export_write_timeline_measured(m, f, sk) : fn(m, f);
	if (!err && ferror(f))
		err = s->err ? s->err : errno ? -errno : -EIO;
	errno = 0;
	if (fclose(f) && !err)
		err = s->err ? s->err : errno ? -errno : -EIO;
	if (err)
		unlink_parts(s->outfd, s, 0, true);
	return err;
}

/* The database to @tmp in @dirfd (the PROF dir), taken back on failure. */
static int write_db_tmp(const struct export_model *m, int dirfd, const char *tmp,
			const char *dir)
{
	int err, fd = create_tmp(dirfd, tmp, dir, 1);

	if (fd < 0)
		return fd;
	err = export_write_db(m, fd);
	if (close(fd) && !err)
		err = -errno;
	if (err)
		unlinkat(dirfd, tmp, 0);
	return err;
}

/* Close the @n streams of @files; Return: 0 or the first failure, -errno. */
static int close_files(FILE **files, size_t n)
{
	int err = 0;

	for (size_t k = 0; k < n; k++) {
		errno = 0;
		if ((ferror(files[k]) | fclose(files[k])) && !err)
			err = errno ? -errno : -EIO;
	}
	return err;
}

/* Create the .tmp files of @n slices of @s, opened in @files. */
static int open_slices(struct export_split *s, FILE **files, size_t n)
{
	char name[NAME_MAX + 1];

	for (size_t k = 0; k < n; k++) {
		int fd = export_split_name(s, (unsigned int)k, true, name, sizeof(name));

		fd = fd ? fd : s->create(s->ctx, s->outfd, name);
		if (fd < 0) {
			close_files(files, k);
			return fd;
		}
		s->parts = (unsigned int)k + 1;
		files[k] = fdopen(fd, "w");
		if (!files[k]) {
			int err = -errno;

			close(fd);
			close_files(files, k);
			return err;
		}
	}
	return 0;
}

/*
 * The timeline @s (written whole, measured into @sk) again as slices
 * (export_tl_slice.h) when it is at least @cfg->min_bytes and more than
 * one slice of @cfg->cap_bytes: the whole file goes, @s then names the
 * slices.
 */
static int slice_timeline(const struct export_model *m, struct export_split *s,
			  struct export_tl_sketch *sk, const struct export_tl_slice_cfg *cfg)
{
	int64_t *bounds = NULL;
	FILE **files = NULL;
	size_t n = 1;
	int err;

	if (!cfg->on || sk->total + sk->meta_bytes < cfg->min_bytes)
		return 0;
	err = export_tl_sketch_bounds(sk, cfg->cap_bytes, &bounds, &n);
	if (err || n < 2) {
		free(bounds);
		return err;
	}
	files = calloc(n, sizeof(*files));
	if (!files) {
		free(bounds);
		return -ENOMEM;
	}
	unlink_parts(s->outfd, s, 0, true);
	s->sliced = true;
	s->parts = 0;
	err = open_slices(s, files, n);
	if (!err) {
		int closed;

		if (m->progress) /* the timeline's events once more, into the slices */
			export_progress_phase(m->progress, "timeline events (sliced)", export_tl_events(m));
		err = export_write_timeline_sliced(m, files, bounds, n);
		closed = close_files(files, n);
		err = err ? err : closed;
	}
	if (err)
		unlink_parts(s->outfd, s, 0, true);
	else
		npuprof_info("Timeline of %llu MB written as %u slices of at most %llu MB.",
			     (unsigned long long)((sk->total + sk->meta_bytes) >> 20), s->parts,
			     (unsigned long long)(cfg->cap_bytes >> 20));
	free(files);
	free(bounds);
	return err;
}

/* Unlink every part of the first @n files, as .tmp names when @tmp. */
static void unlink_files(int outfd, const struct export_split *s, size_t n, bool tmp)
{
	while (n--)
		unlink_parts(outfd, &s[n], 0, tmp);
}

/* 1 when something is at @name in @fd; a symlink there is said. */
static int name_taken(int fd, const char *dir, const char *name)
{
	struct stat st;

	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW))
		return 0;
	if (S_ISLNK(st.st_mode))
		npuprof_warn("%s/%s is a symlink: left alone, not written through", dir, name);
	return 1;
}

/*
 * 1 when anything is at a name an export stamped @stamp writes.  A
 * symlink there is said and left alone: the export takes the next stamp.
 */
static int stamp_taken(const struct export_dest *d, const char *stamp)
{
	char name[NAME_MAX + 1];
	size_t i;

	for (i = 0; d->outfd >= 0 && i < EXPORT_NR_FILES; i++) {
		snprintf(name, sizeof(name), "%s%s%s", export_files[i].prefix, stamp,
			 export_files[i].ext);
		if (name_taken(d->outfd, d->out, name))
			return 1;
	}
	snprintf(name, sizeof(name), EXPORT_DB_PREFIX "%s" EXPORT_DB_EXT, stamp);
	return name_taken(d->dirfd, d->dir, name);
}

/*
 * The local export time as msprof stamps it (YYYYmmddHHMMSS), moved on by
 * a second while an earlier export holds that stamp: a re-export within
 * the same second must not rename over the set it is about to replace.
 * Return: 0, or -EEXIST (said here) when the next minute's stamps are all
 * taken (names planted there): writing over one would mix two sets.
 */
static int export_stamp(const struct export_dest *d, char *stamp, size_t size)
{
	time_t t = time(NULL);
	struct tm tm;
	int tries;

	for (tries = 0; tries < 60; tries++, t++) {
		localtime_r(&t, &tm);
		strftime(stamp, size, "%Y%m%d%H%M%S", &tm);
		if (!stamp_taken(d, stamp))
			return 0;
	}
	npuprof_err("%s: the export's names for the next 60 seconds are all taken: "
		    "remove the msprof_*, *.csv and msprof_*.db files not written by an export",
		    d->dir);
	return -EEXIST;
}

/*
 * Rename every part of every file of @s (@n files) from its .tmp name.
 * Renaming replaces a name, never writes through it: a symlink at a final
 * name (planted after the stamp was chosen) is replaced.  A failed rename
 * takes back the new files already in place and the temporary ones left.
 */
static int rename_files(int outfd, const char *out, const struct export_split *s, size_t n)
{
	char tmp[NAME_MAX + 1], name[NAME_MAX + 1];
	int err;

	for (size_t i = 0; i < n; i++) {
		for (unsigned int k = 0; k < s[i].parts; k++) {
			export_split_name(&s[i], k, true, tmp, sizeof(tmp)); /* made before */
			export_split_name(&s[i], k, false, name, sizeof(name));
			if (!renameat(outfd, tmp, outfd, name))
				continue;
			err = -errno;
			npuprof_err("renaming %s/%s: %s", out, tmp, strerror(-err));
			unlink_files(outfd, s, i, false);
			for (unsigned int j = 0; j < k; j++)
				if (!export_split_name(&s[i], j, false, name, sizeof(name)))
					unlinkat(outfd, name, 0);
			unlink_parts(outfd, &s[i], k, true);
			for (size_t l = i + 1; l < n; l++)
				unlink_parts(outfd, &s[l], 0, true);
			return err;
		}
	}
	return 0;
}

/* The timeline's slicing: msprof_slice.json, or the test's sizes in @opts. */
static int slice_config(const struct msprof_export_opts *opts, struct export_tl_slice_cfg *cfg)
{
	int err = export_tl_slice_config(cfg, NULL);

	if (err)
		return err;
	if (opts->tl_slice_bytes) {
		cfg->on = 1;
		cfg->cap_bytes = opts->tl_slice_bytes;
		cfg->min_bytes = opts->tl_slice_min ? opts->tl_slice_min : EXPORT_TL_SLICE_MIN;
	}
	return 0;
}

/*
 * The JSON and CSVs, each as one or more parts (export_split.h), under
 * temporary names in d->outfd, as @s names them.  On failure none is left.
 */
static int write_text_tmps(const struct export_model *m, const struct export_dest *d,
			   const struct msprof_export_opts *opts, const char *stamp,
			   struct export_split *s)
{
	struct export_tl_slice_cfg cfg;
	struct export_tl_sketch sk = { 0 };
	size_t i;
	int err = slice_config(opts, &cfg);

	if (err)
		return err;
	for (i = 0; i < EXPORT_NR_FILES; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].outfd = d->outfd;
		s[i].ext = export_files[i].ext;
		s[i].create = split_create;
		s[i].ctx = (void *)d->out;
		s[i].prefix_len = strlen(export_files[i].prefix);
		if (!strcmp(export_files[i].ext, ".csv"))
			s[i].max_rows = opts->csv_max_rows ? opts->csv_max_rows : EXPORT_CSV_MAX_ROWS;
		/*
		 * Names are a short prefix, a 14-digit stamp and an extension;
		 * the check is for compilers that cannot see that (aarch64
		 * gcc-12 -Wformat-truncation after inlining).
		 */
		if (snprintf(s[i].stem, sizeof(s[i].stem), "%s%s", export_files[i].prefix, stamp) >=
		    (int)sizeof(s[i].stem) - 32) {
			npuprof_err("%s/%s%s: name too long", d->out, export_files[i].prefix, stamp);
			unlink_files(d->outfd, s, i, true);
			return -ENAMETOOLONG;
		}
		if (export_files[i].write == export_write_timeline) {
			err = write_tmp(m, &s[i], export_files[i].write, cfg.on ? &sk : NULL);
			err = err ? err : slice_timeline(m, &s[i], &sk, &cfg);
			export_tl_sketch_free(&sk);
		} else {
			err = write_tmp(m, &s[i], export_files[i].write, NULL);
		}
		if (err) {
			npuprof_err("writing %s/%s%s: %s", d->out, s[i].stem, s[i].ext, strerror(-err));
			/* this file too: a slicing that failed early leaves the whole timeline */
			unlink_files(d->outfd, s, i + 1, true);
			return err;
		}
	}
	return 0;
}

/*
 * Write one export into @d: every file under a temporary name, then all
 * renamed into place; only a complete new set lets the old one go.
 */
int export_fileset_write(const struct export_model *m, struct export_dest *d,
			 const struct msprof_export_opts *opts)
{
	struct export_split s[EXPORT_NR_FILES];
	char stamp[32], db_tmp[NAME_MAX + 1];
	size_t n = d->outfd >= 0 ? EXPORT_NR_FILES : 0;
	int err;

	err = export_stamp(d, stamp, sizeof(stamp));
	if (err)
		return err;
	snprintf(d->db_name, sizeof(d->db_name), EXPORT_DB_PREFIX "%.14s" EXPORT_DB_EXT, stamp);
	snprintf(db_tmp, sizeof(db_tmp), EXPORT_DB_PREFIX "%.14s" EXPORT_DB_EXT ".tmp", stamp);
	err = n ? write_text_tmps(m, d, opts, stamp, s) : 0;
	if (err)
		return err;
	err = write_db_tmp(m, d->dirfd, db_tmp, d->dir);
	if (err) {
		npuprof_err("writing %s/%s: %s", d->dir, d->db_name, strerror(-err));
		unlink_files(d->outfd, s, n, true);
		return err;
	}
	err = rename_files(d->outfd, d->out, s, n);
	if (!err && renameat(d->dirfd, db_tmp, d->dirfd, d->db_name)) {
		err = -errno;
		npuprof_err("renaming %s/%s: %s", d->dir, db_tmp, strerror(-err));
		unlink_files(d->outfd, s, n, false);
	}
	if (err) {
		unlinkat(d->dirfd, db_tmp, 0);
		return err;
	}
	err = n ? remove_old_exports(d->outfd, stamp, 0) : 0;
	if (err)
		npuprof_warn("removing the earlier export in %s: %s", d->out, strerror(-err));
	err = remove_old_exports(d->dirfd, stamp, 1);
	if (err)
		npuprof_warn("removing the earlier database in %s: %s", d->dir, strerror(-err));
	return 0;
}

/*
 * Open @dir (not through a symlink at its own name) into d->dirfd and,
 * unless @db_only, make or open mindstudio_profiler_output in it, never
 * through a symlink, into d->outfd (-1 otherwise); @out gets its path as
 * text.  Return: 0 or -errno (said here); d->dirfd is closed on error.
 */
int export_fileset_open(const char *dir, int db_only, char *out, size_t size,
			struct export_dest *d)
{
	snprintf(out, size, "%s/" EXPORT_OUT_DIR, d->dir);
	d->out = out;
	d->outfd = -1;
	d->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->dirfd < 0) {
		d->dirfd = -errno;
		npuprof_err("opening %s: %s", d->dir, strerror(-d->dirfd));
		return d->dirfd;
	}
	if (db_only)
		return 0;
	d->outfd = npuprof_prof_mkdirs(d->dirfd, EXPORT_OUT_DIR);
	if (d->outfd == -ENOTDIR)
		npuprof_err("%s is a symlink or not a directory: refusing to write through it", out);
	else if (d->outfd < 0)
		npuprof_err("creating %s: %s", out, strerror(-d->outfd));
	if (d->outfd >= 0)
		return 0;
	close(d->dirfd);
	return d->outfd;
}

void export_fileset_close(struct export_dest *d)
{
	if (d->outfd >= 0)
		close(d->outfd);
	close(d->dirfd);
}
