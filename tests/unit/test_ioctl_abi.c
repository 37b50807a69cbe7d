// SPDX-License-Identifier: MIT
/*
 * Description: ABI 1.3 of npuprof.ko is a compatible extension of 1.0.
 * Every 1.0 ioctl number is unchanged (the numbers encode the struct
 * sizes, so the layouts are too); TGID_OWNER is number 8 with a 32-byte
 * struct, ADD_TGID_FLAGS 9 (32 bytes) and FOLLOW_STATS 10 (40 bytes), the
 * FOLLOW flag bit 0; LIST_TP is 11, read-write, with a 2848-byte list of
 * 16 entries of 176 bytes; the version word encodes 1.3 so that the plain
 * 1 of 1.0 modules decodes as major 1, minor 0, the major a 1.3 reader
 * requires.
 */
#include <stddef.h>

#include "check.h"
#include <npuprof/npuprof_ioctl.h>

/* The numbers of ABI 1.0, as its header produced them on x86-64. */
static void check_v1_0_numbers(void)
{
	CHECK_EQ(NPUPROF_IOC_GET_INFO, 0x80a8b701);
	CHECK_EQ(NPUPROF_IOC_ADD_TGID, 0x4004b702);
	CHECK_EQ(NPUPROF_IOC_DEL_TGID, 0x4004b703);
	CHECK_EQ(NPUPROF_IOC_ENABLE, 0xb704);
	CHECK_EQ(NPUPROF_IOC_DISABLE, 0xb705);
	CHECK_EQ(NPUPROF_IOC_GET_STATS, 0xc018b706);
	CHECK_EQ(NPUPROF_IOC_GET_TP_STATUS, 0x8008b707);
	CHECK_EQ(sizeof(struct npuprof_info), 168);
	CHECK_EQ(offsetof(struct npuprof_info, abi_version), 0);
	CHECK_EQ(sizeof(((struct npuprof_info *)0)->abi_version), 4);
}

static void check_tgid_owner(void)
{
	CHECK_EQ(NPUPROF_IOC_TGID_OWNER, 0xc020b708);
	CHECK_EQ(sizeof(struct npuprof_tgid_owner), 32);
	CHECK_EQ(offsetof(struct npuprof_tgid_owner, tgid), 0);
	CHECK_EQ(offsetof(struct npuprof_tgid_owner, owner_pid), 4);
	CHECK_EQ(offsetof(struct npuprof_tgid_owner, reserved), 8);
}

static void check_follow(void)
{
	CHECK_EQ(NPUPROF_IOC_ADD_TGID_FLAGS, 0x4020b709);
	CHECK_EQ(sizeof(struct npuprof_tgid_add), 32);
	CHECK_EQ(offsetof(struct npuprof_tgid_add, tgid), 0);
	CHECK_EQ(offsetof(struct npuprof_tgid_add, flags), 4);
	CHECK_EQ(offsetof(struct npuprof_tgid_add, reserved), 8);
	CHECK_EQ(NPUPROF_TGID_FOLLOW, 1);
	CHECK_EQ(NPUPROF_TGID_FLAGS_ALL, 1);
	CHECK_EQ(NPUPROF_IOC_FOLLOW_STATS, 0x8028b70a);
	CHECK_EQ(sizeof(struct npuprof_follow_stats), 40);
	CHECK_EQ(offsetof(struct npuprof_follow_stats, joined), 0);
	CHECK_EQ(offsetof(struct npuprof_follow_stats, missed), 8);
	CHECK_EQ(offsetof(struct npuprof_follow_stats, nr_tgids), 16);
	CHECK_EQ(offsetof(struct npuprof_follow_stats, reserved), 20);
}

static void check_list_tp(void)
{
	CHECK_EQ(NPUPROF_IOC_LIST_TP, 0xcb20b70b);
	CHECK_EQ(NPUPROF_TP_LIST_MAX, 16);
	CHECK_EQ(sizeof(struct npuprof_tp_entry), 176);
	CHECK_EQ(offsetof(struct npuprof_tp_entry, backend), 0);
	CHECK_EQ(offsetof(struct npuprof_tp_entry, name), 32);
	CHECK_EQ(offsetof(struct npuprof_tp_entry, module), 96);
	CHECK_EQ(offsetof(struct npuprof_tp_entry, bit), 160);
	CHECK_EQ(offsetof(struct npuprof_tp_entry, registered), 164);
	CHECK_EQ(offsetof(struct npuprof_tp_entry, reserved), 168);
	CHECK_EQ(sizeof(struct npuprof_tp_list), 2848);
	CHECK_EQ(offsetof(struct npuprof_tp_list, count), 0);
	CHECK_EQ(offsetof(struct npuprof_tp_list, reserved), 4);
	CHECK_EQ(offsetof(struct npuprof_tp_list, tp), 32);
	/* The event bits are those of ABI 1.0. */
	CHECK_EQ(NPUPROF_TP_TASK_SUBMIT, 0);
	CHECK_EQ(NPUPROF_TP_TASK_START, 1);
	CHECK_EQ(NPUPROF_TP_TASK_END, 2);
	CHECK_EQ(NPUPROF_TP_STREAM_SYNC, 3);
	/* ABI 1.4: queue and completion events. */
	CHECK_EQ(NPUPROF_TP_TASK_QUEUED, 4);
	CHECK_EQ(NPUPROF_TP_TASK_CQE, 5);
	CHECK_EQ(NPUPROF_TP_COUNT, 6);
}

static void check_version(void)
{
	CHECK_EQ(NPUPROF_ABI_MAJOR, 1);
	CHECK_EQ(NPUPROF_ABI_MINOR, 4);
	CHECK_EQ(NPUPROF_ABI_VERSION, 0x00040001);
	CHECK_EQ(NPUPROF_ABI_MAJOR_OF(NPUPROF_ABI_VERSION), 1);
	CHECK_EQ(NPUPROF_ABI_MINOR_OF(NPUPROF_ABI_VERSION), 4);
	/* What a 1.0 module reports. */
	CHECK_EQ(NPUPROF_ABI_VERSION_OF(1, 0), 1);
	CHECK_EQ(NPUPROF_ABI_MAJOR_OF(1u), 1);
	CHECK_EQ(NPUPROF_ABI_MINOR_OF(1u), 0);
	/* A later minor keeps the major; a major bump does not. */
	CHECK_EQ(NPUPROF_ABI_MAJOR_OF(NPUPROF_ABI_VERSION_OF(1, 7)), 1);
	CHECK_EQ(NPUPROF_ABI_MAJOR_OF(NPUPROF_ABI_VERSION_OF(2, 0)), 2);
}

int main(void)
{
	check_v1_0_numbers();
	check_tgid_owner();
	check_follow();
	check_list_tp();
	check_version();
	return CHECK_DONE();
}
