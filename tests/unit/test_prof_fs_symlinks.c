// SPDX-License-Identifier: MIT
/*
 * Description: nothing of a PROF tree is written through a symlink
 * planted where a PROF file or directory goes (prof_fs.h).  In an
 * --output owned by someone else, symlinks point at a victim directory and
 * a victim file; each way msprof makes a PROF entry is tried on them:
 *  - the PROF_XXX dir itself (a name guessed from the clock): -EEXIST;
 *  - device_0 (a directory the drain makes below PROF_XXX): -ENOTDIR;
 *  - host/info.json and a slice name (new files): -EEXIST;
 *  - a control file renamed into place from its temporary name onto a
 *    planted symlink: -EEXIST, the link and the temporary file stay;
 *  - removing a PROF_XXX that holds a symlink removes the link only;
 *  - a "." or ".." component is refused (-EINVAL);
 *  - --output with a trailing or doubled slash is made and unmade whole.
 * The victims keep their exact contents (one file, "victim\n"), and what
 * msprof does make has modes 0750 (dirs) and 0640 (files).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "tmpdir.h"
#include <npuprof/prof_fs.h>

static char root[] = "/tmp/npuprof-symlinks-XXXXXX";
static char victim_dir[600], victim_file[600];

/* The victims as they must stay: one file, "victim\n", and an empty dir. */
static void check_victims(int line)
{
	char buf[64] = "";
	struct stat st;
	int fd = open(victim_file, O_RDONLY), n = -1;

	if (fd >= 0) {
		n = (int)read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	if (n != 7 || strcmp(buf, "victim\n"))
		fprintf(stderr, "line %d: ", line);
	CHECK_EQ(n, 7);
	CHECK_STR(buf, "victim\n");
	CHECK_EQ(rmdir(victim_dir), 0); /* empty: nothing was made in it */
	CHECK_EQ(mkdir(victim_dir, 0755), 0);
	CHECK_EQ(lstat(victim_dir, &st), 0);
}

static int link_at(int dirfd, const char *target, const char *name)
{
	return symlinkat(target, dirfd, name);
}

static void test_prof_dir_name(int out)
{
	CHECK_EQ(link_at(out, victim_dir, "PROF_000001_guessed"), 0);
	CHECK_EQ(npuprof_prof_mkdir_new(out, "PROF_000001_guessed"), -EEXIST);
	check_victims(__LINE__);
}

static void test_inside(int out)
{
	struct stat st;
	int prof, fd;

	prof = npuprof_prof_mkdir_new(out, "PROF_000001_ours");
	CHECK(prof > 2);
	CHECK_EQ(fstat(prof, &st), 0);
	CHECK_EQ(st.st_mode & 07777, 0750);
	fd = npuprof_prof_mkdirs(prof, "host/data");
	CHECK(fd > 2);
	close(fd);

	/* a directory the drain makes */
	CHECK_EQ(link_at(prof, victim_dir, "device_0"), 0);
	CHECK_EQ(npuprof_prof_mkdirs(prof, "device_0/data"), -ENOTDIR);
	/* new files: a control file and a slice */
	CHECK_EQ(link_at(prof, victim_file, "host/info.json"), 0);
	CHECK_EQ(npuprof_prof_create(prof, "host/info.json"), -EEXIST);
	CHECK_EQ(link_at(prof, victim_file, "host/data/npuprof.api.slice_0"), 0);
	CHECK_EQ(npuprof_prof_create(prof, "host/data/npuprof.api.slice_0"), -EEXIST);
	/* a file through a symlinked directory */
	CHECK_EQ(npuprof_prof_create(prof, "device_0/x"), -ENOTDIR);
	/* a control file written whole, then renamed onto a planted link */
	fd = npuprof_prof_create(prof, "host/.info.json.tmp");
	CHECK(fd > 2);
	close(fd);
	CHECK_EQ(npuprof_prof_rename_new(prof, "host/.info.json.tmp", "host/info.json"), -EEXIST);
	CHECK_EQ(faccessat(prof, "host/.info.json.tmp", F_OK, AT_SYMLINK_NOFOLLOW), 0);
	CHECK_EQ(npuprof_prof_rename_new(prof, "host/.info.json.tmp", "info.json"), -EXDEV);
	CHECK_EQ(npuprof_prof_rename_new(prof, "host/.info.json.tmp", "host/sample.json"), 0);
	CHECK_EQ(faccessat(prof, "host/.info.json.tmp", F_OK, AT_SYMLINK_NOFOLLOW), -1);
	CHECK_EQ(faccessat(prof, "host/sample.json", F_OK, AT_SYMLINK_NOFOLLOW), 0);
	check_victims(__LINE__);

	fd = npuprof_prof_create(prof, "host/start_info");
	CHECK(fd > 2);
	CHECK_EQ(fstat(fd, &st), 0);
	CHECK_EQ(st.st_mode & 07777, 0640);
	close(fd);
	close(prof);

	/* the links go, their targets stay */
	CHECK_EQ(npuprof_prof_remove(out, "PROF_000001_ours"), 0);
	CHECK_EQ(faccessat(out, "PROF_000001_ours", F_OK, AT_SYMLINK_NOFOLLOW), -1);
	check_victims(__LINE__);
}

/* --output made with its parents, probed, and unmade while empty. */
static void test_output(void)
{
	char out[700], failed[700];
	unsigned int made = 9;
	int fd;

	snprintf(out, sizeof(out), "%s/new/out", root);
	fd = npuprof_prof_output_open(out, &made, failed, sizeof(failed));
	CHECK(fd > 2);
	CHECK_EQ(made, 2);
	close(fd);
	CHECK_EQ(access(out, F_OK), 0);
	npuprof_prof_output_unmake(out, made);
	snprintf(failed, sizeof(failed), "%s/new", root);
	CHECK_EQ(access(failed, F_OK), -1);

	/* a trailing and a doubled slash: the same two directories made and unmade */
	snprintf(out, sizeof(out), "%s/new2//out/", root);
	fd = npuprof_prof_output_open(out, &made, failed, sizeof(failed));
	CHECK(fd > 2);
	CHECK_EQ(made, 2);
	close(fd);
	npuprof_prof_output_unmake(out, made);
	snprintf(failed, sizeof(failed), "%s/new2", root);
	CHECK_EQ(access(failed, F_OK), -1);

	/* the probe leaves nothing behind, whatever its random name was */
	snprintf(out, sizeof(out), "%s/victim_dir", root);
	fd = npuprof_prof_output_open(out, &made, failed, sizeof(failed));
	CHECK(fd > 2);
	CHECK_EQ(made, 0);
	close(fd);

	fd = npuprof_prof_output_open("/proc/no/such/out", &made, failed, sizeof(failed));
	CHECK_EQ(fd, -ENOENT);
	CHECK_EQ(made, 0);
	CHECK_STR(failed, "/proc/no");
}

/* "." and ".." never lead out of (or around in) a PROF tree. */
static void test_dot_components(int out)
{
	CHECK_EQ(npuprof_prof_create(out, "../escaped"), -EINVAL);
	CHECK_EQ(npuprof_prof_create(out, "victim_dir/../x"), -EINVAL);
	CHECK_EQ(npuprof_prof_mkdirs(out, "./d"), -EINVAL);
	CHECK_EQ(npuprof_prof_unlink(out, "victim_dir/.."), -EINVAL);
}

int main(void)
{
	int out, fd;

	umask(022);
	if (!mkdtemp(root))
		CHECK_SKIP("no temp dir");
	snprintf(victim_dir, sizeof(victim_dir), "%s/victim_dir", root);
	snprintf(victim_file, sizeof(victim_file), "%s/victim_file", root);
	CHECK_EQ(mkdir(victim_dir, 0755), 0);
	fd = open(victim_file, O_WRONLY | O_CREAT | O_EXCL, 0644);
	CHECK_EQ(write(fd, "victim\n", 7), 7);
	close(fd);
	out = open(root, O_RDONLY | O_DIRECTORY);
	test_prof_dir_name(out);
	test_inside(out);
	test_dot_components(out);
	close(out);
	test_output();
	tmpdir_remove(root);
	return CHECK_DONE();
}
