/* SPDX-License-Identifier: MIT */
/*
 * Channel-50 records (struct ascend_stars_log) as a device writes them,
 * for the device-log reader's tests, and a fake /proc with the driver's
 * stream file (which process owns which stream).
 */
#ifndef NPUPROF_TEST_STARS_LOG_H
#define NPUPROF_TEST_STARS_LOG_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <npuprof/drv/ascend_hal_abi.h>

/* One record: @func (funcType), @cnt (4 bits), @sqe (SQE type), packed ids, counter @ts. */
static inline struct ascend_stars_log stars_log(unsigned int func, unsigned int cnt,
						unsigned int sqe, uint16_t stream, uint16_t task,
						uint64_t ts)
{
	struct ascend_stars_log r;

	memset(&r, 0, sizeof(r));
	r.word0 = (uint16_t)((func & 0x3f) | (cnt & 0xf) << 6 | (sqe & 0x3f) << 10);
	r.stream = stream;
	r.task = task;
	r.timestamp = ts;
	return r;
}

/*
 * @root/trs_core/ts_inst/dev<@device>-ts0/stream holding @text.
 * Return: 0 or -1.
 */
static inline int stars_stream_file(const char *root, int device, const char *text)
{
	char path[700];
	FILE *f;

	snprintf(path, sizeof(path), "%s/trs_core", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/trs_core/ts_inst", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/trs_core/ts_inst/dev%d-ts0", root, device);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/trs_core/ts_inst/dev%d-ts0/stream", root, device);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) ? -1 : 0;
}

#endif /* NPUPROF_TEST_STARS_LOG_H */
