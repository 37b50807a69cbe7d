// SPDX-License-Identifier: MIT
/*
 * Description: the record format and the npuprof.ko ABI keep their exact
 * byte layout (sizes and field offsets), which old traces and other
 * builds of the module depend on; record sizes are multiples of the
 * record alignment; the API id table is dense from 1 and its names are the
 * public ACL names.
 */
#include <stddef.h>

#include "check.h"
#include <npuprof/npuprof_ioctl.h>
#include <npuprof/record.h>
#include <npuprof/record_io.h>

static void check_sizes(void)
{
	CHECK_EQ(sizeof(struct npuprof_rec_hdr), 16);
	CHECK_EQ(sizeof(struct npuprof_rec_stream_hdr), 32);
	CHECK_EQ(sizeof(struct npuprof_rec_api), 104);
	CHECK_EQ(sizeof(struct npuprof_rec_task), 88);
	CHECK_EQ(sizeof(struct npuprof_rec_lost), 40);
	CHECK_EQ(sizeof(struct npuprof_rec_api) % NPUPROF_REC_ALIGN, 0);
	CHECK_EQ(sizeof(struct npuprof_rec_task) % NPUPROF_REC_ALIGN, 0);
	CHECK_EQ(sizeof(struct npuprof_rec_lost) % NPUPROF_REC_ALIGN, 0);
	CHECK_EQ(NPUPROF_REC_ROUND(1), 8);
	CHECK_EQ(NPUPROF_REC_ROUND(88), 88);
	CHECK_EQ(NPUPROF_REC_ROUND(89), 96);
}

static void check_offsets(void)
{
	CHECK_EQ(offsetof(struct npuprof_rec_hdr, type), 0);
	CHECK_EQ(offsetof(struct npuprof_rec_hdr, size), 2);
	CHECK_EQ(offsetof(struct npuprof_rec_hdr, cpu), 4);
	CHECK_EQ(offsetof(struct npuprof_rec_hdr, ts), 8);
	CHECK_EQ(offsetof(struct npuprof_rec_api, exit_ts), 16);
	CHECK_EQ(offsetof(struct npuprof_rec_api, pid), 24);
	CHECK_EQ(offsetof(struct npuprof_rec_api, api), 32);
	CHECK_EQ(offsetof(struct npuprof_rec_api, ret), 36);
	CHECK_EQ(offsetof(struct npuprof_rec_api, stream), 48);
	CHECK_EQ(offsetof(struct npuprof_rec_api, name), 72);
	CHECK_EQ(offsetof(struct npuprof_rec_task, dev_ts), 16);
	CHECK_EQ(offsetof(struct npuprof_rec_task, device), 32);
	CHECK_EQ(offsetof(struct npuprof_rec_task, task_id), 40);
	CHECK_EQ(offsetof(struct npuprof_rec_task, event), 44);
	CHECK_EQ(offsetof(struct npuprof_rec_task, arg), 48);
	CHECK_EQ(offsetof(struct npuprof_rec_task, name), 56);
	CHECK_EQ(offsetof(struct npuprof_rec_lost, written), 24);
}

static void check_kmod_abi(void)
{
	CHECK_EQ(sizeof(struct npuprof_ring_consumer), 8);
	CHECK_EQ(sizeof(struct npuprof_ring_producer), 24);
	CHECK_EQ(sizeof(struct npuprof_info), 40 + NPUPROF_MAX_CPUS / 8);
	CHECK_EQ(sizeof(struct npuprof_cpu_stats), 24);
	CHECK_EQ(NPUPROF_IOC_GET_INFO, 0x8000b701 | (sizeof(struct npuprof_info) << 16));
	CHECK_EQ(NPUPROF_IOC_ENABLE, 0xb704);
	CHECK_EQ(NPUPROF_IOC_DISABLE, 0xb705);
}

static void check_api_table(void)
{
	unsigned int id;

	for (id = 1; id < NPUPROF_API_MAX; id++)
		CHECK(npuprof_api_name(id) != NULL);
	CHECK(npuprof_api_name(0) == NULL);
	CHECK(npuprof_api_name(NPUPROF_API_MAX) == NULL);
	CHECK_STR(npuprof_api_name(NPUPROF_API_RT_LAUNCH_KERNEL), "aclrtLaunchKernel");
	CHECK_STR(npuprof_api_name(NPUPROF_API_OP_EXECUTE_V2), "aclopExecuteV2");
	/* the runtime layer (level 5000) appended after the ACL ids */
	CHECK_EQ(NPUPROF_API_RT_BINARY_LOAD_FROM_FILE, 19);
	CHECK_EQ(NPUPROF_API_RTS_SET_DEVICE, 20);
	CHECK_EQ(NPUPROF_API_RTS_KERNEL_LAUNCH, 30);
	CHECK_EQ(NPUPROF_API_RTS_EVENT_RECORD, 33);
	CHECK_EQ(NPUPROF_API_MAX, 34);
}

int main(void)
{
	check_sizes();
	check_offsets();
	check_kmod_abi();
	check_api_table();
	return CHECK_DONE();
}
