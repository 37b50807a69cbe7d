// SPDX-License-Identifier: GPL-2.0
/*
 * npuprof.ko: records the NPU driver's task tracepoints of selected
 * processes into per-CPU ring buffers that a reader maps through the
 * /dev/npuprof misc device; every open is a capture session of its own
 * (session.c).  This file holds module init/exit, the device file
 * operations, the ioctls and poll(); the user ABI is
 * include/npuprof/npuprof_ioctl.h.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <npuprof/ring_geom.h>
#include "compat.h"
#include "npuprof.h"

/* 1 MiB of data per CPU, whatever the page size (npuprof/ring_geom.h). */
static unsigned int ring_pages = NPUPROF_RING_DEFAULT_PAGES(PAGE_SIZE);
module_param(ring_pages, uint, 0444);
MODULE_PARM_DESC(ring_pages,
		 "data pages per CPU ring of each session, a power of two, at most 256 MiB of data (default: 1 MiB of data, 256 pages of 4 KiB, 16 of 64 KiB)");

static unsigned long watermark = 64 * 1024;
module_param(watermark, ulong, 0444);
MODULE_PARM_DESC(watermark,
		 "pending bytes that wake a reader (default 65536, at most half a ring)");

static unsigned int max_sessions = 64;
module_param(max_sessions, uint, 0444);
MODULE_PARM_DESC(max_sessions,
		 "capture sessions (opens of /dev/npuprof) at once, each with possible CPUs x (ring_pages + 2) pages of rings; one more open fails with EUSERS (default 64)");

/* Sessions that exist now, at most max_sessions. */
static DEFINE_SPINLOCK(npuprof_sessions_lock);
static unsigned int npuprof_nr_sessions;

static bool npuprof_session_slot_get(void)
{
	bool ok;

	spin_lock(&npuprof_sessions_lock);
	ok = npuprof_nr_sessions < max_sessions;
	if (ok)
		npuprof_nr_sessions++;
	spin_unlock(&npuprof_sessions_lock);
	return ok;
}

static void npuprof_session_slot_put(void)
{
	spin_lock(&npuprof_sessions_lock);
	npuprof_nr_sessions--;
	spin_unlock(&npuprof_sessions_lock);
}

static long npuprof_ioc_get_info(struct npuprof_session *s,
				 void __user *uarg)
{
	const struct npuprof_rings *rs = &s->rings;
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

static long npuprof_ioc_get_stats(struct npuprof_session *s,
				  void __user *uarg)
{
	struct npuprof_cpu_stats st;
	int ret;

	if (copy_from_user(&st, uarg, sizeof(st)))
		return -EFAULT;
	ret = npuprof_rings_stats(&s->rings, &st);
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

/* The list is 2.8 KiB: off the stack.  Reserved fields: room for minors. */
static long npuprof_ioc_list_tp(void __user *uarg)
{
	struct npuprof_tp_list *list;
	long ret = 0;

	list = kzalloc(sizeof(*list), GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	if (copy_from_user(list->reserved,
			   uarg + offsetof(struct npuprof_tp_list, reserved),
			   sizeof(list->reserved))) {
		ret = -EFAULT;
		goto out_free;
	}
	if (memchr_inv(list->reserved, 0, sizeof(list->reserved))) {
		ret = -EINVAL;
		goto out_free;
	}
	npuprof_tp_list(list);
	if (copy_to_user(uarg, list, sizeof(*list)))
		ret = -EFAULT;
out_free:
	kfree(list);
	return ret;
}

static long npuprof_ioc_tgid(struct npuprof_session *s, unsigned int cmd,
			     void __user *uarg)
{
	u32 tgid;

	if (get_user(tgid, (u32 __user *)uarg))
		return -EFAULT;
	if (cmd == NPUPROF_IOC_ADD_TGID)
		return npuprof_tgid_add(s, tgid, 0);
	return npuprof_tgid_del(s, tgid);
}

/* Unknown flags and nonzero reserved fields are refused: room for minors. */
static long npuprof_ioc_add_tgid_flags(struct npuprof_session *s,
				       void __user *uarg)
{
	struct npuprof_tgid_add req;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.flags & ~NPUPROF_TGID_FLAGS_ALL ||
	    memchr_inv(req.reserved, 0, sizeof(req.reserved)))
		return -EINVAL;
	return npuprof_tgid_add(s, req.tgid, req.flags);
}

static long npuprof_ioc_follow_stats(struct npuprof_session *s,
				     void __user *uarg)
{
	struct npuprof_follow_stats st;

	npuprof_tgid_follow_stats(s, &st);
	if (copy_to_user(uarg, &st, sizeof(st)))
		return -EFAULT;
	return 0;
}

/* Any session's tgid; the reserved fields keep room for later minors. */
static long npuprof_ioc_tgid_owner(void __user *uarg)
{
	struct npuprof_tgid_owner req;
	struct pid *owner;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (!req.tgid || memchr_inv(req.reserved, 0, sizeof(req.reserved)))
		return -EINVAL;
	owner = npuprof_tgid_owner(req.tgid);
	req.owner_pid = owner ? pid_vnr(owner) : 0;
	put_pid(owner);
	if (copy_to_user(uarg, &req, sizeof(req)))
		return -EFAULT;
	return 0;
}

/* ENABLE and DISABLE: the session's lock orders them. */
static long npuprof_ioc_capture(struct npuprof_session *s, unsigned int cmd)
{
	mutex_lock(&s->lock);
	if (cmd == NPUPROF_IOC_ENABLE)
		npuprof_session_start(s);
	else
		npuprof_session_stop(s);
	mutex_unlock(&s->lock);
	return 0;
}

/* Every ioctl acts on the session of @file only. */
static long npuprof_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct npuprof_session *s = file->private_data;
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case NPUPROF_IOC_GET_INFO:
		return npuprof_ioc_get_info(s, uarg);
	case NPUPROF_IOC_GET_STATS:
		return npuprof_ioc_get_stats(s, uarg);
	case NPUPROF_IOC_GET_TP_STATUS:
		return npuprof_ioc_get_tp_status(uarg);
	case NPUPROF_IOC_ADD_TGID:
	case NPUPROF_IOC_DEL_TGID:
		return npuprof_ioc_tgid(s, cmd, uarg);
	case NPUPROF_IOC_ENABLE:
	case NPUPROF_IOC_DISABLE:
		return npuprof_ioc_capture(s, cmd);
	case NPUPROF_IOC_TGID_OWNER:
		return npuprof_ioc_tgid_owner(uarg);
	case NPUPROF_IOC_ADD_TGID_FLAGS:
		return npuprof_ioc_add_tgid_flags(s, uarg);
	case NPUPROF_IOC_FOLLOW_STATS:
		return npuprof_ioc_follow_stats(s, uarg);
	case NPUPROF_IOC_LIST_TP:
		return npuprof_ioc_list_tp(uarg);
	default:
		return -ENOTTY;
	}
}

static __poll_t npuprof_poll(struct file *file, poll_table *wait)
{
	struct npuprof_session *s = file->private_data;

	/* Re-arm the probes' wake-up before queueing and looking. */
	WRITE_ONCE(s->wake_sent, false);
	poll_wait(file, &s->wq, wait);
	/* Pairs with wq_has_sleeper() in the probe: queue, then look. */
	smp_mb();
	return npuprof_session_readable(s) ? EPOLLIN | EPOLLRDNORM : 0;
}

static int npuprof_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct npuprof_session *s = file->private_data;

	return npuprof_rings_mmap(&s->rings, vma);
}

/*
 * Every open is a new session with its own rings, capture off, no tgid.
 * EUSERS, not EMFILE or ENFILE: those name the caller's and the system's
 * file limits, and user space must tell this limit apart from them.
 */
static int npuprof_open(struct inode *inode, struct file *file)
{
	struct npuprof_session *s;

	if (!npuprof_session_slot_get())
		return -EUSERS;
	s = npuprof_session_create(ring_pages, watermark);
	if (IS_ERR(s)) {
		/* -EINVAL cannot happen: init checked ring_pages. */
		pr_warn_ratelimited("npuprof: %s[%d]: no memory for a capture session: %u possible CPUs x (ring_pages=%u + 2) pages; close other sessions or load npuprof.ko with a smaller ring_pages\n",
				    current->comm, task_tgid_nr(current),
				    num_possible_cpus(), ring_pages);
		npuprof_session_slot_put();
		return PTR_ERR(s);
	}
	file->private_data = s;
	return nonseekable_open(inode, file);
}

/*
 * Last reference to the file gone (mappings hold one): capture off, its
 * tgids free for other sessions, rings freed.
 */
static int npuprof_release(struct inode *inode, struct file *file)
{
	npuprof_session_destroy(file->private_data);
	npuprof_session_slot_put();
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
	.llseek = npuprof_no_llseek,
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

	ret = npuprof_rings_check(ring_pages);
	if (ret) {
		pr_err("npuprof: cannot set up rings of ring_pages=%u for %u CPU ids: ring_pages must be a power of two up to %lu (%u MiB of %lu-byte pages), CPU ids at most %u\n",
		       ring_pages, nr_cpu_ids,
		       NPUPROF_RING_MAX_DATA_BYTES / PAGE_SIZE,
		       NPUPROF_RING_MAX_DATA_BYTES >> 20, PAGE_SIZE,
		       NPUPROF_MAX_CPUS);
		return ret;
	}
	if (!max_sessions) {
		pr_err("npuprof: max_sessions=0: at least one session is needed\n");
		return -EINVAL;
	}
	ret = npuprof_follow_init();
	if (ret)
		return ret;
	ret = npuprof_tp_init();
	if (ret) {
		pr_err("npuprof: cannot watch for driver tracepoints: %pe\n",
		       ERR_PTR(ret));
		goto out_follow_exit;
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
out_follow_exit:
	npuprof_follow_exit();
	return ret;
}

/*
 * No file can be open here (fops owner holds the module), so no session
 * exists; detach every probe and wait for running ones.
 */
static void __exit npuprof_exit(void)
{
	misc_deregister(&npuprof_miscdev);
	npuprof_tp_exit();
	npuprof_follow_exit();
}

module_init(npuprof_init);
module_exit(npuprof_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("npuprof: NPU driver task tracepoints into per-CPU ring buffers");
