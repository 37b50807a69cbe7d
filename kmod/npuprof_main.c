// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof.ko: records the NPU driver's task tracepoints of selected
 * processes into per-CPU ring buffers that a reader maps through the
 * /dev/npuprof misc device.  This file holds module init/exit, the device
 * file operations, the ioctls and poll(); the user ABI is
 * include/npuprof/npuprof_ioctl.h.
 */
#include <linux/bitops.h>
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include "npuprof.h"

static unsigned int ring_pages = 256;
module_param(ring_pages, uint, 0444);
MODULE_PARM_DESC(ring_pages,
		 "data pages per CPU ring, a power of two (default 256 = 1 MiB)");

static unsigned long watermark = 64 * 1024;
module_param(watermark, ulong, 0444);
MODULE_PARM_DESC(watermark,
		 "pending bytes that wake a reader (default 65536, at most half a ring)");

struct npuprof_state npuprof_state;

/* Serialises the control ioctls, open and release. */
static DEFINE_MUTEX(npuprof_ctl_mutex);
/* Bit 0 set while /dev/npuprof is open: one reader at a time. */
static unsigned long npuprof_open_flag;

static void npuprof_wake_work_fn(struct irq_work *work)
{
	wake_up_all(&npuprof_state.wq);
}

/*
 * Stop capture and return once no probe can still be writing: probes run
 * with preemption disabled inside the tracepoint call, which is what
 * tracepoint_synchronize_unregister() (SRCU + RCU grace period) waits for.
 * Caller holds npuprof_ctl_mutex.
 */
static void npuprof_capture_stop(void)
{
	if (!READ_ONCE(npuprof_state.enabled))
		return;
	WRITE_ONCE(npuprof_state.enabled, 0);
	tracepoint_synchronize_unregister();
	irq_work_sync(&npuprof_state.wake_work);
	wake_up_all(&npuprof_state.wq); /* the final drain must not wait */
}

/*
 * Reset the counters and start capture.  Stopping first guarantees no
 * producer is writing the counters while they are zeroed; the release
 * store pairs with the probe's acquire load.  Caller holds the mutex.
 */
static void npuprof_capture_start(void)
{
	npuprof_capture_stop();
	npuprof_rings_reset_counters(&npuprof_state.rings);
	smp_store_release(&npuprof_state.enabled, 1);
}

static int npuprof_tgid_add(u32 tgid)
{
	int free_slot = -1;
	unsigned int i;

	if (!tgid)
		return -EINVAL;
	for (i = 0; i < NPUPROF_MAX_TGIDS; i++) {
		if (npuprof_state.tgids[i] == tgid)
			return 0; /* already selected */
		if (!npuprof_state.tgids[i] && free_slot < 0)
			free_slot = i;
	}
	if (free_slot < 0)
		return -ENOSPC;
	WRITE_ONCE(npuprof_state.tgids[free_slot], tgid);
	return 0;
}

static int npuprof_tgid_del(u32 tgid)
{
	unsigned int i;

	if (!tgid)
		return -ENOENT;
	for (i = 0; i < NPUPROF_MAX_TGIDS; i++) {
		if (npuprof_state.tgids[i] == tgid) {
			WRITE_ONCE(npuprof_state.tgids[i], 0);
			return 0;
		}
	}
	return -ENOENT;
}

static void npuprof_tgid_clear(void)
{
	unsigned int i;

	for (i = 0; i < NPUPROF_MAX_TGIDS; i++)
		WRITE_ONCE(npuprof_state.tgids[i], 0);
}

static long npuprof_ioc_get_info(void __user *uarg)
{
	const struct npuprof_rings *rs = &npuprof_state.rings;
	struct npuprof_info *info;
	unsigned int cpu;
	long ret = 0;

	info = kzalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	info->abi_version = NPUPROF_ABI_VERSION;
	info->record_version = NPUPROF_RECORD_VERSION;
	info->nr_cpu_ids = nr_cpu_ids;
	info->page_size = PAGE_SIZE;
	info->data_size = rs->data_size;
	info->region_size = rs->region_size;
	info->watermark = rs->watermark;
	for_each_possible_cpu(cpu)
		info->possible[cpu / 64] |= 1ULL << (cpu % 64);
	if (copy_to_user(uarg, info, sizeof(*info)))
		ret = -EFAULT;
	kfree(info);
	return ret;
}

static long npuprof_ioc_get_stats(void __user *uarg)
{
	struct npuprof_cpu_stats st;
	int ret;

	if (copy_from_user(&st, uarg, sizeof(st)))
		return -EFAULT;
	ret = npuprof_rings_stats(&npuprof_state.rings, &st);
	if (ret)
		return ret;
	if (copy_to_user(uarg, &st, sizeof(st)))
		return -EFAULT;
	return 0;
}

static long npuprof_ioc_get_tp_status(void __user *uarg)
{
	struct npuprof_tp_status st = { .attached = npuprof_tp_attached() };

	if (copy_to_user(uarg, &st, sizeof(st)))
		return -EFAULT;
	return 0;
}

/* The ioctls that change state; caller holds npuprof_ctl_mutex. */
static long npuprof_ioctl_locked(unsigned int cmd, void __user *uarg)
{
	u32 tgid;

	switch (cmd) {
	case NPUPROF_IOC_ADD_TGID:
		if (get_user(tgid, (u32 __user *)uarg))
			return -EFAULT;
		return npuprof_tgid_add(tgid);
	case NPUPROF_IOC_DEL_TGID:
		if (get_user(tgid, (u32 __user *)uarg))
			return -EFAULT;
		return npuprof_tgid_del(tgid);
	case NPUPROF_IOC_ENABLE:
		npuprof_capture_start();
		return 0;
	case NPUPROF_IOC_DISABLE:
		npuprof_capture_stop();
		return 0;
	default:
		return -ENOTTY;
	}
}

static long npuprof_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	void __user *uarg = (void __user *)arg;
	long ret;

	switch (cmd) {
	case NPUPROF_IOC_GET_INFO:
		return npuprof_ioc_get_info(uarg);
	case NPUPROF_IOC_GET_STATS:
		return npuprof_ioc_get_stats(uarg);
	case NPUPROF_IOC_GET_TP_STATUS:
		return npuprof_ioc_get_tp_status(uarg);
	}
	mutex_lock(&npuprof_ctl_mutex);
	ret = npuprof_ioctl_locked(cmd, uarg);
	mutex_unlock(&npuprof_ctl_mutex);
	return ret;
}

/*
 * POLLIN when a ring holds at least the watermark, or anything at all
 * once capture is off, so the reader's final drain never waits.
 */
static __poll_t npuprof_poll(struct file *file, poll_table *wait)
{
	const struct npuprof_rings *rs = &npuprof_state.rings;
	u64 need;
	unsigned int cpu;

	poll_wait(file, &npuprof_state.wq, wait);
	/* Pairs with wq_has_sleeper() in the probe: queue, then look. */
	smp_mb();
	need = READ_ONCE(npuprof_state.enabled) ? rs->watermark : 1;
	for_each_possible_cpu(cpu)
		if (npuprof_ring_pending(rs, rs->ring[cpu]) >= need)
			return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static int npuprof_mmap(struct file *file, struct vm_area_struct *vma)
{
	return npuprof_rings_mmap(&npuprof_state.rings, vma);
}

static int npuprof_open(struct inode *inode, struct file *file)
{
	if (test_and_set_bit_lock(0, &npuprof_open_flag))
		return -EBUSY;
	/* Capture is off while closed: no producer, rings can be reset. */
	mutex_lock(&npuprof_ctl_mutex);
	npuprof_rings_discard(&npuprof_state.rings);
	mutex_unlock(&npuprof_ctl_mutex);
	return nonseekable_open(inode, file);
}

static int npuprof_release(struct inode *inode, struct file *file)
{
	mutex_lock(&npuprof_ctl_mutex);
	npuprof_capture_stop();
	npuprof_tgid_clear();
	mutex_unlock(&npuprof_ctl_mutex);
	clear_bit_unlock(0, &npuprof_open_flag);
	return 0;
}

static const struct file_operations npuprof_fops = {
	.owner = THIS_MODULE,
	.open = npuprof_open,
	.release = npuprof_release,
	.unlocked_ioctl = npuprof_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = npuprof_mmap,
	.poll = npuprof_poll,
	.llseek = no_llseek,
};

static struct miscdevice npuprof_miscdev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = NPUPROF_DEV_NAME,
	.fops = &npuprof_fops,
	.mode = 0600,
};

static int __init npuprof_init(void)
{
	int ret;

	init_waitqueue_head(&npuprof_state.wq);
	init_irq_work(&npuprof_state.wake_work, npuprof_wake_work_fn);
	ret = npuprof_rings_alloc(&npuprof_state.rings, ring_pages, watermark);
	if (ret) {
		if (ret == -ENOMEM)
			pr_err("npuprof: not enough memory for rings of ring_pages=%u on every possible CPU: load with a smaller ring_pages\n",
			       ring_pages);
		else
			pr_err("npuprof: cannot set up rings of ring_pages=%u: %pe (ring_pages must be a power of two up to 65536)\n",
			       ring_pages, ERR_PTR(ret));
		return ret;
	}
	ret = npuprof_tp_init();
	if (ret) {
		pr_err("npuprof: cannot watch for driver tracepoints: %pe\n",
		       ERR_PTR(ret));
		goto out_free_rings;
	}
	ret = misc_register(&npuprof_miscdev);
	if (ret) {
		pr_err("npuprof: cannot register /dev/%s: %pe\n",
		       NPUPROF_DEV_NAME, ERR_PTR(ret));
		goto out_tp_exit;
	}
	return 0;

out_tp_exit:
	npuprof_tp_exit();
out_free_rings:
	npuprof_rings_free(&npuprof_state.rings);
	return ret;
}

/*
 * No file can be open here (fops owner holds the module), so capture is
 * off; still stop it, detach every probe and wait for running ones
 * before the rings go away.
 */
static void __exit npuprof_exit(void)
{
	misc_deregister(&npuprof_miscdev);
	WRITE_ONCE(npuprof_state.enabled, 0);
	npuprof_tp_exit();
	irq_work_sync(&npuprof_state.wake_work);
	npuprof_rings_free(&npuprof_state.rings);
}

module_init(npuprof_init);
module_exit(npuprof_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("npuprof: NPU driver task tracepoints into per-CPU ring buffers");
