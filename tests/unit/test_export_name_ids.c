// SPDX-License-Identifier: MIT
/*
 * Description: the export's name table gives one id per distinct name
 * field (all NPUPROF_NAME_LEN bytes count, past an inner NUL too), the
 * same id for the same bytes however often they come, id 0 and "" for an
 * empty name or one whose first byte is NUL, and keeps every name's bytes
 * through many growths of the table.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "export_names.h"

#define N_NAMES 20000u

static void field(char *raw, const char *text)
{
	memset(raw, 0, NPUPROF_NAME_LEN);
	memcpy(raw, text, strnlen(text, NPUPROF_NAME_LEN));
}

int main(void)
{
	struct xm_names t = { 0 };
	char raw[NPUPROF_NAME_LEN], text[64];
	uint32_t id, a, b, full;
	uint32_t i;

	field(raw, "");
	CHECK_EQ(xm_names_add(&t, raw, &id), 0);
	CHECK_EQ(id, 0);
	CHECK_STR(xm_names_get(&t, 0), "");
	raw[5] = 'x'; /* first byte NUL: no name, whatever follows */
	CHECK_EQ(xm_names_add(&t, raw, &id), 0);
	CHECK_EQ(id, 0);

	field(raw, "MatMul");
	CHECK_EQ(xm_names_add(&t, raw, &a), 0);
	CHECK(a != 0);
	raw[10] = 'y'; /* same text, other bytes after the NUL: another field */
	CHECK_EQ(xm_names_add(&t, raw, &b), 0);
	CHECK(b != a && b != 0);
	CHECK_EQ(memcmp(xm_names_get(&t, b), raw, NPUPROF_NAME_LEN), 0);
	memset(raw, 'z', sizeof(raw)); /* no NUL in the field: one is added */
	CHECK_EQ(xm_names_add(&t, raw, &full), 0);
	CHECK_EQ(strlen(xm_names_get(&t, full)), NPUPROF_NAME_LEN);

	for (i = 0; i < N_NAMES; i++) {
		snprintf(text, sizeof(text), "op_%u", i);
		field(raw, text);
		CHECK_EQ(xm_names_add(&t, raw, &id), 0);
		CHECK_EQ(id, i + 4); /* after "", MatMul, its twin and zzz... */
	}
	for (i = 0; i < N_NAMES; i++) {
		snprintf(text, sizeof(text), "op_%u", i);
		field(raw, text);
		CHECK_EQ(xm_names_add(&t, raw, &id), 0);
		CHECK_EQ(id, i + 4);
		CHECK_STR(xm_names_get(&t, id), text);
	}
	field(raw, "MatMul");
	CHECK_EQ(xm_names_add(&t, raw, &id), 0);
	CHECK_EQ(id, a);
	CHECK_EQ(t.n, N_NAMES + 4);
	xm_names_free(&t);
	CHECK_EQ(t.n, 0);
	return CHECK_DONE();
}
