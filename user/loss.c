// SPDX-License-Identifier: MIT
/*
 * Records lost, by cause (npuprof/loss.h) and their JSON layout
 * (npuprof/loss_json.h): the names live here and nowhere else.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <npuprof/loss.h>
#include <npuprof/loss_json.h>

static const struct {
	const char *key;
	const char *words;
} loss_causes[NPUPROF_LOSS_CAUSES] = {
	[NPUPROF_LOSS_RING_FULL] = { "ring_full", "ring full" },
	[NPUPROF_LOSS_WRITE_ERROR] = { "write_error", "write error" },
	[NPUPROF_LOSS_DECODE_ERROR] = { "decode_error", "decode error" },
};

const char *npuprof_loss_key(enum npuprof_loss_cause cause)
{
	return (unsigned int)cause < NPUPROF_LOSS_CAUSES ? loss_causes[cause].key : "unknown";
}

const char *npuprof_loss_words(enum npuprof_loss_cause cause)
{
	return (unsigned int)cause < NPUPROF_LOSS_CAUSES ? loss_causes[cause].words : "unknown";
}

uint64_t npuprof_loss_total(const struct npuprof_loss *l)
{
	uint64_t sum = 0;

	/* saturated: a count read from an edited file must not wrap to 0 */
	for (int c = 0; c < NPUPROF_LOSS_CAUSES; c++)
		sum = l->n[c] > UINT64_MAX - sum ? UINT64_MAX : sum + l->n[c];
	return sum;
}

char *npuprof_loss_causes(const struct npuprof_loss *l, char *buf, size_t size)
{
	size_t len = 0;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (int c = 0; c < NPUPROF_LOSS_CAUSES && len < size; c++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s: %" PRIu64, c ? ", " : "",
					npuprof_loss_words(c), l->n[c]);
	return buf;
}

char *npuprof_loss_format(const struct npuprof_loss *l, char *buf, size_t size)
{
	uint64_t total = npuprof_loss_total(l);
	char causes[128];

	if (total)
		snprintf(buf, size, "%" PRIu64 " records lost (%s)", total,
			 npuprof_loss_causes(l, causes, sizeof(causes)));
	else if (size)
		snprintf(buf, size, "0 records lost");
	return buf;
}

json_t *npuprof_loss_json(const struct npuprof_loss *l, int with_cpu)
{
	json_t *o = json_object();

	if (!o)
		return NULL;
	if (with_cpu)
		json_object_set_new(o, "cpu", json_integer(l->cpu));
	json_object_set_new(o, "total", json_integer((json_int_t)npuprof_loss_total(l)));
	for (int c = 0; c < NPUPROF_LOSS_CAUSES; c++)
		json_object_set_new(o, npuprof_loss_key(c), json_integer((json_int_t)l->n[c]));
	return o;
}

json_t *npuprof_loss_by_cpu_json(const struct npuprof_loss *cpus, unsigned int n)
{
	json_t *arr = json_array();

	for (unsigned int i = 0; arr && i < n; i++)
		if (npuprof_loss_total(&cpus[i]))
			json_array_append_new(arr, npuprof_loss_json(&cpus[i], 1));
	return arr;
}

json_t *npuprof_loss_report_json(const struct npuprof_loss *total,
				 const struct npuprof_loss *cpus, unsigned int n)
{
	json_t *o = npuprof_loss_json(total, 0);

	if (o)
		json_object_set_new(o, "byCpu", npuprof_loss_by_cpu_json(cpus, n));
	return o;
}

static uint64_t count_of(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	return json_is_integer(v) && json_integer_value(v) > 0 ? (uint64_t)json_integer_value(v)
							       : 0;
}

int npuprof_loss_from_json(const json_t *obj, struct npuprof_loss *l)
{
	memset(l, 0, sizeof(*l));
	if (!json_is_object(obj))
		return -EINVAL;
	for (int c = 0; c < NPUPROF_LOSS_CAUSES; c++)
		l->n[c] = count_of(obj, npuprof_loss_key(c));
	l->cpu = (uint32_t)count_of(obj, "cpu");
	return 0;
}
