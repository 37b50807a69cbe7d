/* SPDX-License-Identifier: MIT */
/*
 * The one rule by which a name becomes text.
 *
 * Names reach us as bytes that nobody checked: kernel and op names from an
 * app's kernel binary or aclopExecuteV2 call, copied by the driver and the
 * BPF probes into fixed NPUPROF_NAME_LEN fields; a process's comm; a host
 * name.  Every writer of text (the timeline JSON, the CSVs, the console
 * summary, npuprof-dump, info.json) passes them through
 * npuprof_name_text() first, so the output is always valid UTF-8 without
 * control characters, whatever the app handed us.
 *
 * The rule, byte by byte from the start of the name:
 *  - a well-formed UTF-8 sequence (Unicode table 3-7: no overlong forms,
 *    no surrogates U+D800..U+DFFF, nothing above U+10FFFF) is copied as
 *    it is, unless it is a control character;
 *  - a control character (C0: U+0001..U+001F, DEL: U+007F, and C1:
 *    U+0080..U+009F, which some terminals obey as escape sequences) has
 *    each of its bytes written as "\xNN";
 *  - any other byte (one that does not begin a well-formed sequence, or
 *    a stray continuation byte) is written as "\xNN";
 * where NN is two lowercase hex digits.  This is Python's
 * bytes.decode("utf-8", errors="backslashreplace") with control characters
 * escaped as well.  A backslash in the name is left as it is, so the text
 * is for people and tools to read, not to decode back into bytes: the
 * four-character name `\xff` and the single byte 0xff give the same text.
 *
 * A name ends at its first NUL byte or after its field's size, whichever
 * comes first: a record field that is full to the last byte has no NUL.
 * A field may have cut a multi-byte character at its end; that tail is not
 * well-formed and shows as escaped bytes ("\xe4\xb8").
 */
#ifndef NPUPROF_NAME_TEXT_H
#define NPUPROF_NAME_TEXT_H

#include <jansson.h>
#include <stddef.h>

/* Text one name byte can become at most: "\xNN". */
#define NPUPROF_NAME_ESC_LEN 4

/* Buffer that holds the text of any name of up to @n bytes, NUL included. */
#define NPUPROF_NAME_TEXT_SIZE(n) (NPUPROF_NAME_ESC_LEN * (n) + 1)

/**
 * npuprof_name_text() - a name's bytes as printable UTF-8 text
 * @dst:  output buffer of @size bytes; NUL-terminated whenever @size > 0
 *        (NULL with @size 0 to learn the length)
 * @size: bytes at @dst; NPUPROF_NAME_TEXT_SIZE(@len) always suffices
 * @src:  the name; bytes up to the first NUL or @len, whichever is first
 * @len:  size of the field @src lies in (bytes)
 *
 * Applies the rule of this header.  When @dst is too small, the text is
 * cut before the first character or escape that does not fit whole, so
 * what is written is still valid UTF-8.
 *
 * Return: length in bytes of the whole text (without the NUL), as
 * snprintf() does; a value >= @size means the text was cut.
 */
size_t npuprof_name_text(char *dst, size_t size, const char *src, size_t len);

/**
 * npuprof_name_json() - a JSON string holding the text of a name
 * @src, @len: as for npuprof_name_text(); strlen() of a C string of any
 *             length (a path, a host name)
 *
 * For jansson's "s:o" and json_object_set_new(), which would refuse the
 * raw bytes (json_string() takes valid UTF-8 only).
 *
 * Return: a new reference, or NULL when out of memory.
 */
json_t *npuprof_name_json(const char *src, size_t len);

#endif /* NPUPROF_NAME_TEXT_H */
