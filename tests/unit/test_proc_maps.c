// SPDX-License-Identifier: MIT
/*
 * Description: /proc/PID/maps parsing (user/proc_maps.c) reads exactly
 * what a maps line says.  A file mapping "7f00-7f80 r-xp 00001000 fd:01
 * 1234 /usr/lib/libfoo.so.1" gives start 0x7f00, end 0x7f80, device 253:1,
 * inode 1234, executable, not deleted, path /usr/lib/libfoo.so.1; the
 * same with " (deleted)" after the path gives deleted and the path without
 * the suffix; a read-only one is not executable; "[stack]", an anonymous
 * mapping and a malformed line are not file mappings (0).  On this
 * process, proc_maps_find() finds the executable mapping of "libc.so"
 * (libc.so.6) and map_files opens it (same inode), -ENOENT names a file
 * no mapping has, and a reaped pid is -ESRCH.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "dead_pid.h"
#include "../../user/proc_maps.h"

static void check_lines(void)
{
	char exec[] = "7f00-7f80 r-xp 00001000 fd:01 1234   /usr/lib/libfoo.so.1\n";
	char gone[] = "7f00-7f80 r-xp 00001000 fd:01 1234   /usr/lib/libfoo.so.1 (deleted)\n";
	char ro[] = "7f80-7f90 r--p 00000000 08:02 99 /lib/x.so\n";
	char stack[] = "7ffc0000-7ffe0000 rw-p 00000000 00:00 0  [stack]\n";
	char anon[] = "7f90-7fa0 rw-p 00000000 00:00 0\n";
	char junk[] = "not a maps line /x\n";
	struct proc_map m;

	CHECK_EQ(proc_maps_parse_line(exec, &m), 1);
	CHECK_EQ(m.start, 0x7f00);
	CHECK_EQ(m.end, 0x7f80);
	CHECK_EQ(m.dev_major, 0xfd);
	CHECK_EQ(m.dev_minor, 1);
	CHECK_EQ(m.ino, 1234);
	CHECK_EQ(m.exec, true);
	CHECK_EQ(m.deleted, false);
	CHECK_STR(m.path, "/usr/lib/libfoo.so.1");

	CHECK_EQ(proc_maps_parse_line(gone, &m), 1);
	CHECK_EQ(m.deleted, true);
	CHECK_STR(m.path, "/usr/lib/libfoo.so.1");

	CHECK_EQ(proc_maps_parse_line(ro, &m), 1);
	CHECK_EQ(m.exec, false);
	CHECK_EQ(m.dev_major, 8);
	CHECK_EQ(m.dev_minor, 2);
	CHECK_STR(m.path, "/lib/x.so");

	CHECK_EQ(proc_maps_parse_line(stack, &m), 0);
	CHECK_EQ(proc_maps_parse_line(anon, &m), 0);
	CHECK_EQ(proc_maps_parse_line(junk, &m), 0);
}

int main(void)
{
	char path[PATH_MAX + 32];
	struct proc_map m;
	struct stat st;

	check_lines();
	CHECK_EQ(proc_maps_find(getpid(), "libc.so", &m), 0);
	CHECK_EQ(m.exec, true);
	CHECK(strstr(m.path, "/libc.so") != NULL);
	CHECK_EQ(proc_map_file(getpid(), &m, path, sizeof(path), &st), 0);
	CHECK_EQ((unsigned long)st.st_ino, m.ino);
	CHECK_EQ(proc_maps_find(getpid(), "libnot-mapped-here.so", &m), -ENOENT);
	CHECK_EQ(proc_maps_find(dead_pid(), "libc.so", &m), -ESRCH);
	return CHECK_DONE();
}
