// SPDX-License-Identifier: MIT
/*
 * Description: the stream -> pid table read from the driver's
 * trs_core/ts_inst/dev<N>-ts0/stream file (npuprof/stream_owner.h).  A
 * file of a header line, "id 3 pid 4242 sq 3 ...", "stream_id=7 pid=99"
 * and a line with no pid gives owners 4242 for stream 3 and 99 for 7, and
 * 2 streams read; stream 5 is unknown (0); a second device's file is read
 * apart; a device with no file gives -ENOENT; set() adds and forgets an
 * owner; a stream past 32767 is refused with -EINVAL.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "stars_log.h"
#include <npuprof/stream_owner.h>

int main(void)
{
	char root[] = "/tmp/npuprof-stream-owner-XXXXXX";
	struct npuprof_stream_owners *t;
	uint32_t s = 0, p = 0;

	CHECK(mkdtemp(root) != NULL);
	CHECK_EQ(stars_stream_file(root, 0, "streams of dev0\nid 3 pid 4242 sq 3 cq 3\nstream_id=7 pid=99\nid 9 sq 9\n"), 0);
	CHECK_EQ(stars_stream_file(root, 2, "id 3 pid 11\n"), 0);

	CHECK(npuprof_stream_owners_parse_line("id 3 pid 4242 sq 3", &s, &p) == 1);
	CHECK(s == 3 && p == 4242);
	CHECK(npuprof_stream_owners_parse_line("pid: 5, stream_id: 8", &s, &p) == 1);
	CHECK(s == 8 && p == 5);
	CHECK(npuprof_stream_owners_parse_line("tid 3 pid 4", &s, &p) == 0);
	CHECK(npuprof_stream_owners_parse_line("", &s, &p) == 0);

	t = npuprof_stream_owners_new(root);
	CHECK(t != NULL);
	if (!t)
		return CHECK_DONE();
	CHECK(npuprof_stream_owners_load(t, 0) == 2);
	CHECK(npuprof_stream_owners_pid(t, 0, 3) == 4242);
	CHECK(npuprof_stream_owners_pid(t, 0, 7) == 99);
	CHECK(npuprof_stream_owners_pid(t, 0, 5) == 0);
	CHECK(npuprof_stream_owners_pid(t, 0, 9) == 0);
	CHECK(npuprof_stream_owners_pid(t, 2, 3) == 0);
	CHECK(npuprof_stream_owners_load(t, 2) == 1);
	CHECK(npuprof_stream_owners_pid(t, 2, 3) == 11);
	CHECK(npuprof_stream_owners_pid(t, 0, 3) == 4242);
	CHECK(npuprof_stream_owners_load(t, 1) == -ENOENT);
	CHECK(npuprof_stream_owners_set(t, 1, 1000, 77) == 0);
	CHECK(npuprof_stream_owners_pid(t, 1, 1000) == 77);
	CHECK(npuprof_stream_owners_set(t, 1, 1000, 0) == 0);
	CHECK(npuprof_stream_owners_pid(t, 1, 1000) == 0);
	CHECK(npuprof_stream_owners_set(t, 1, 32768, 5) == -EINVAL);
	CHECK(npuprof_stream_owners_pid(t, 99, 1) == 0);
	npuprof_stream_owners_free(t);
	return CHECK_DONE();
}
