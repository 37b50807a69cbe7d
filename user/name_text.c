// SPDX-License-Identifier: MIT
/*
 * Names as text (name_text.h): the escaping rule every writer of a name
 * goes through.  Well-formedness follows Unicode table 3-7 ("Well-Formed
 * UTF-8 Byte Sequences"), the same table Python's UTF-8 decoder checks, so
 * the tests can state the expected text as Python would produce it.
 */
#include <stdlib.h>
#include <string.h>

#include <npuprof/name_text.h>

/*
 * Length of the well-formed UTF-8 sequence at @s (@n bytes left), 0 when
 * none starts there.  The second byte's range depends on the lead byte:
 * that is where overlong forms, surrogates and values past U+10FFFF are
 * refused.
 */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0; /* continuation byte, C0/C1 (overlong), F5..FF */
	if (s[0] == 0xe0)
		lo = 0xa0; /* below: overlong 3-byte form */
	else if (s[0] == 0xed)
		hi = 0x9f; /* above: surrogates */
	else if (s[0] == 0xf0)
		lo = 0x90; /* below: overlong 4-byte form */
	else if (s[0] == 0xf4)
		hi = 0x8f; /* above: past U+10FFFF */
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* C0, DEL, or C1 (U+0080..U+009F, encoded c2 80..c2 9f). */
static int is_control(const unsigned char *s, size_t len)
{
	if (len == 1)
		return s[0] < 0x20 || s[0] == 0x7f;
	return len == 2 && s[0] == 0xc2 && s[1] < 0xa0;
}

struct text_out {
	char *dst;
	size_t size;
	size_t len; /* whole text so far */
	int full;   /* a piece did not fit: write nothing more */
};

/* Append @n bytes as one piece: whole, or (when it does not fit) not at all. */
static void put(struct text_out *o, const char *p, size_t n)
{
	if (!o->full && o->len + n < o->size) {
		memcpy(o->dst + o->len, p, n);
		o->dst[o->len + n] = '\0';
	} else {
		o->full = 1;
	}
	o->len += n;
}

static void put_escaped(struct text_out *o, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char esc[NPUPROF_NAME_ESC_LEN] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	put(o, esc, sizeof(esc));
}

size_t npuprof_name_text(char *dst, size_t size, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	struct text_out o = { dst, size, 0, 0 };
	size_t n = strnlen(src, len), i = 0, k, seq;

	if (size)
		dst[0] = '\0';
	while (i < n) {
		seq = utf8_seq_len(s + i, n - i);
		if (seq && !is_control(s + i, seq)) {
			put(&o, (const char *)s + i, seq);
			i += seq;
			continue;
		}
		for (k = 0; k < (seq ? seq : 1); k++)
			put_escaped(&o, s[i + k]);
		i += seq ? seq : 1;
	}
	return o.len;
}

json_t *npuprof_name_json(const char *src, size_t len)
{
	size_t size = npuprof_name_text(NULL, 0, src, len) + 1;
	char *text = malloc(size);
	json_t *v;

	if (!text)
		return NULL;
	npuprof_name_text(text, size, src, len);
	v = json_string(text);
	free(text);
	return v;
}
