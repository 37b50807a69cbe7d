/* SPDX-License-Identifier: MIT */
/*
 * The check of a NPUPROF_IOC_LIST_TP answer shared by the VM tests that
 * ask for it (kmod_npustub_capture through the ioctl, kring_list_tp
 * through the reader library): exactly one driver's tracepoints.
 */
#ifndef NPUPROF_TESTS_TP_LIST_CHECK_H
#define NPUPROF_TESTS_TP_LIST_CHECK_H

#include <string.h>
#include <npuprof/npuprof_ioctl.h>
#include "check.h"

/*
 * @list holds exactly one entry per event bit @names has a name for (NULL:
 * the driver has no tracepoint for that event), each of backend @backend
 * named @names[bit], defined by @module, with registered == @registered
 * and zero reserved words; the entries after them are zeroed.
 */
static inline void check_tp_list(const struct npuprof_tp_list *list, const char *backend,
				 const char *const names[NPUPROF_TP_COUNT], const char *module,
				 uint32_t registered)
{
	const struct npuprof_tp_entry *e;
	unsigned int i, seen = 0, want = 0, count = 0;

	for (i = 0; i < NPUPROF_TP_COUNT; i++)
		if (names[i]) {
			want |= 1u << i;
			count++;
		}
	CHECK_EQ(list->count, count);
	for (i = 0; i < list->count && i < NPUPROF_TP_LIST_MAX; i++) {
		e = &list->tp[i];
		CHECK(e->bit < NPUPROF_TP_COUNT && names[e->bit]);
		if (e->bit >= NPUPROF_TP_COUNT || !names[e->bit])
			continue;
		seen |= 1u << e->bit;
		CHECK_STR(e->backend, backend);
		CHECK_STR(e->name, names[e->bit]);
		CHECK_STR(e->module, module);
		CHECK_EQ(e->registered, registered);
		CHECK_EQ(e->reserved[0] | e->reserved[1], 0);
	}
	CHECK_EQ(seen, want);
	for (; i < NPUPROF_TP_LIST_MAX; i++)
		CHECK_EQ(list->tp[i].name[0], 0);
}

#endif /* NPUPROF_TESTS_TP_LIST_CHECK_H */
