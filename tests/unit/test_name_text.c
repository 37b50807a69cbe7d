// SPDX-License-Identifier: MIT
/*
 * Description: npuprof_name_text() turns each name into its exact text
 * under the rule of name_text.h: the six hostile kernel names of issue 6,
 * control characters (C0, DEL, C1), a multi-byte character cut by the end
 * of a field, overlong forms, surrogates, values past U+10FFFF, a field
 * with no NUL, and an output buffer too small (cut between pieces).
 */
#include <npuprof/name_text.h>
#include <npuprof/record.h>

#include "check.h"

static void check_text(const char *name, size_t field, const char *want)
{
	char buf[NPUPROF_NAME_TEXT_SIZE(64)];
	size_t n = npuprof_name_text(buf, sizeof(buf), name, field);

	CHECK_STR(buf, want);
	CHECK_EQ(n, strlen(want));
}

/* @name is NUL-terminated: the field is its length + 1. */
static void check_name(const char *name, const char *want)
{
	check_text(name, strlen(name) + 1, want);
}

static void hostile_kernel_names(void)
{
	check_name("Mat\"Mul", "Mat\"Mul");
	check_name("back\\slash", "back\\slash");
	check_name("x,y", "x,y");
	check_name("\x01" "ctl", "\\x01ctl");
	check_name("bad\xff\xfeutf", "bad\\xff\\xfeutf");
	check_name("n\xc3\xa4me", "n\xc3\xa4me");
}

static void control_characters(void)
{
	check_name("a\tb\nc\rd\x1b[0m", "a\\x09b\\x0ac\\x0dd\\x1b[0m");
	check_name("del\x7f", "del\\x7f");
	check_name("c1\xc2\x80\xc2\x9b" "x", "c1\\xc2\\x80\\xc2\\x9bx"); /* U+0080, U+009B CSI */
	check_name("nbsp\xc2\xa0" "x", "nbsp\xc2\xa0" "x");		     /* U+00A0: not a control */
	check_name("~ok", "~ok");
}

static void ill_formed_sequences(void)
{
	check_name("\xe4\xb8" "x", "\\xe4\\xb8x");		/* cut 3-byte form */
	check_name("\xf0\x9f\x98", "\\xf0\\x9f\\x98");	/* cut 4-byte form */
	check_name("\xc0\xaf", "\\xc0\\xaf");		/* overlong '/' */
	check_name("\xc1\xbf", "\\xc1\\xbf");
	check_name("\xe0\x80\xaf", "\\xe0\\x80\\xaf");
	check_name("\xf0\x80\x80\xaf", "\\xf0\\x80\\x80\\xaf");
	check_name("\xed\xa0\x80", "\\xed\\xa0\\x80");	/* surrogate U+D800 */
	check_name("\xed\xbf\xbf", "\\xed\\xbf\\xbf");	/* surrogate U+DFFF */
	check_name("\xed\x9f\xbf", "\xed\x9f\xbf");		/* U+D7FF is fine */
	check_name("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* U+110000 */
	check_name("\xf4\x8f\xbf\xbf", "\xf4\x8f\xbf\xbf");	/* U+10FFFF is fine */
	check_name("\xf5\x80\x80\x80", "\\xf5\\x80\\x80\\x80");
	check_name("\x80" "a\xbf", "\\x80a\\xbf");		/* stray continuations */
	check_name("\xe2\x82\xe2\x82\xac", "\\xe2\\x82\xe2\x82\xac"); /* cut, then a whole euro */
	check_name("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80");	/* U+1F600 */
}

/* Record fields: the name ends at the field's end when no NUL is in it. */
static void fixed_fields(void)
{
	struct {
		char name[NPUPROF_NAME_LEN];
		char after[8];
	} rec;
	char want[NPUPROF_NAME_TEXT_SIZE(NPUPROF_NAME_LEN)];
	size_t i;

	memset(rec.name, 'x', sizeof(rec.name));
	memcpy(rec.after, "AFTER", 6);
	memset(want, 'x', NPUPROF_NAME_LEN);
	want[NPUPROF_NAME_LEN] = '\0';
	check_text(rec.name, sizeof(rec.name), want);

	/* a 3-byte character cut after 2 of its bytes by the field's end */
	memset(rec.name, 'a', NPUPROF_NAME_LEN - 2);
	memcpy(rec.name + NPUPROF_NAME_LEN - 2, "\xe4\xb8", 2);
	memset(want, 'a', NPUPROF_NAME_LEN - 2);
	strcpy(want + NPUPROF_NAME_LEN - 2, "\\xe4\\xb8");
	check_text(rec.name, sizeof(rec.name), want);

	/* NUL-padded: the text stops at the first NUL */
	memset(rec.name, 0, sizeof(rec.name));
	memcpy(rec.name, "ab\0cd", 5);
	check_text(rec.name, sizeof(rec.name), "ab");

	/* the worst case fills NPUPROF_NAME_TEXT_SIZE exactly */
	memset(rec.name, 0xff, sizeof(rec.name));
	for (i = 0; i < NPUPROF_NAME_LEN; i++)
		memcpy(want + 4 * i, "\\xff", 5);
	{
		char buf[NPUPROF_NAME_TEXT_SIZE(NPUPROF_NAME_LEN)];

		CHECK_EQ(npuprof_name_text(buf, sizeof(buf), rec.name, sizeof(rec.name)),
			 4 * NPUPROF_NAME_LEN);
		CHECK_STR(buf, want);
	}
}

/* A buffer too small gets whole pieces only, and the whole length back. */
static void short_buffers(void)
{
	char buf[16];

	memset(buf, '#', sizeof(buf));
	CHECK_EQ(npuprof_name_text(buf, 6, "ab\xffzz", 6), 8);
	CHECK_STR(buf, "ab"); /* "\xff" would need 4 of the 3 bytes left */
	CHECK_EQ(npuprof_name_text(buf, 3, "a\xc3\xa4", 4), 3);
	CHECK_STR(buf, "a"); /* never half of U+00E4 */
	CHECK_EQ(npuprof_name_text(buf, 4, "a\xc3\xa4", 4), 3);
	CHECK_STR(buf, "a\xc3\xa4");
	buf[0] = '#';
	CHECK_EQ(npuprof_name_text(buf, 0, "abc", 4), 3);
	CHECK_EQ(buf[0], '#'); /* size 0: nothing written */
	CHECK_EQ(npuprof_name_text(buf, 1, "abc", 4), 3);
	CHECK_STR(buf, "");
}

int main(void)
{
	hostile_kernel_names();
	control_characters();
	ill_formed_sequences();
	fixed_fields();
	short_buffers();
	return CHECK_DONE();
}
