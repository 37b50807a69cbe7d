// SPDX-License-Identifier: MIT
/*
 * Description: the names of the loss causes (npuprof/loss.h), the ones
 * every writer and reader goes through: keys "ring_full", "write_error",
 * "decode_error" and words "ring full", "write error", "decode error";
 * a value out of range is "unknown" in both.  A count of {5, 2, 0} is
 * written as exactly {"total": 7, "ring_full": 5, "write_error": 2,
 * "decode_error": 0} and worded "7 records lost (ring full: 5, write
 * error: 2, decode error: 0)"; it reads back from that JSON unchanged.  A
 * total over counts near 2^64 saturates at UINT64_MAX, never wraps
 * (2^63-1 + 2^63-1 + 2 was 0: found by attack).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <npuprof/loss.h>
#include <npuprof/loss_json.h>

int main(void)
{
	static const char *const keys[] = { "ring_full", "write_error", "decode_error" };
	static const char *const words[] = { "ring full", "write error", "decode error" };
	struct npuprof_loss l = { .n = { 5, 2, 0 } }, back;
	char buf[160], *text;
	json_t *o;

	for (int c = 0; c < NPUPROF_LOSS_CAUSES; c++) {
		CHECK_STR(npuprof_loss_key(c), keys[c]);
		CHECK_STR(npuprof_loss_words(c), words[c]);
	}
	CHECK_STR(npuprof_loss_key(NPUPROF_LOSS_CAUSES), "unknown");
	CHECK_STR(npuprof_loss_words((enum npuprof_loss_cause)-1), "unknown");

	o = npuprof_loss_json(&l, 0);
	CHECK(o != NULL);
	text = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	CHECK_STR(text, "{\"total\":7,\"ring_full\":5,\"write_error\":2,\"decode_error\":0}");
	CHECK_EQ(npuprof_loss_from_json(o, &back), 0);
	CHECK(!memcmp(back.n, l.n, sizeof(l.n)));
	CHECK_STR(npuprof_loss_format(&l, buf, sizeof(buf)),
		  "7 records lost (ring full: 5, write error: 2, decode error: 0)");
	free(text);
	json_decref(o);
	l = (struct npuprof_loss){ .n = { INT64_MAX, INT64_MAX, 2 } };
	CHECK_EQ(npuprof_loss_total(&l), UINT64_MAX);
	return CHECK_DONE();
}
