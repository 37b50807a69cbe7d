// SPDX-License-Identifier: GPL-2.0
/*
 * npusim.ko: a simulated Ascend NPU driver, the stand-in for the real one
 * on hosts without an NPU.  It creates /dev/davinci0..N-1, runs the tasks
 * the simulated runtime (libascendcl.so) submits on kernel timers, keeps a
 * device clock unlike the host's, and fires the driver tracepoints that
 * npuprof records (include/npuprof/drv/npusim_tp.h).  The user ABI is
 * sim/include/npusim_ioctl.h.
 *
 * This file holds the module parameters, the device clock, the character
 * devices and the ioctl dispatch; streams and tasks are in npusim_stream.c,
 * the device log (profiling channel 50) and its owner in npusim_devlog.c,
 * the benchmark hook (/sys/kernel/debug/npusim/bench) in npusim_bench.c.
 *
 * The same sources also build npustub.ko, a second driver with other
 * tracepoints and no clock ioctl, and ascendsim.ko, with the real Ascend
 * driver's tracepoints, procfs files and submit modes (npusim_tp.h says
 * how); no two of them are loaded together.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/compat.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/mm.h> /* kvmalloc_array(), kvfree(): slab.h has them only since 5.16 */
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npusim.h"
#include "npusim_tp.h"

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices,
		 "Number of simulated NPUs, /dev/davinci0..N-1 (1-8, default 1)");

static unsigned long long dev_freq_hz = 50000000;
module_param(dev_freq_hz, ullong, 0444);
MODULE_PARM_DESC(dev_freq_hz,
		 "Nominal device clock frequency in Hz, reported by NPUSIM_IOC_CLOCK (default 50000000)");

static unsigned long long dev_offset = 123456789000ULL;
module_param(dev_offset, ullong, 0444);
MODULE_PARM_DESC(dev_offset,
		 "Device clock count at module load, so device time is unlike host time (default 123456789000)");

static int drift_ppm = 30;
module_param(drift_ppm, int, 0444);
MODULE_PARM_DESC(drift_ppm,
		 "How much faster than nominal the device clock runs, in ppm; negative is slower (default 30)");

unsigned int npusim_memcpy_bw_mbps = 10000;
module_param_named(memcpy_bw_mbps, npusim_memcpy_bw_mbps, uint, 0444);
MODULE_PARM_DESC(memcpy_bw_mbps,
		 "Memcpy task bandwidth in MB/s, MB = 1e6 bytes (default 10000)");

unsigned long long npusim_memcpy_latency_ns = 2000;
module_param_named(memcpy_latency_ns, npusim_memcpy_latency_ns, ullong, 0444);
MODULE_PARM_DESC(memcpy_latency_ns,
		 "Fixed cost of a memcpy task in ns, added to bytes / bandwidth (default 2000)");

unsigned int npusim_task_id_bits = 16;
module_param_named(task_id_bits, npusim_task_id_bits, uint, 0444);
MODULE_PARM_DESC(task_id_bits,
		 "Bits of a task id, 8-32 (default 16, as Ascend's): ids wrap and are reused; tests make them wrap sooner");

unsigned long long npusim_event_ns = 1000;
module_param_named(event_ns, npusim_event_ns, ullong, 0444);
MODULE_PARM_DESC(event_ns,
		 "Run time of an event record task in ns (default 1000)");

/* Host CLOCK_MONOTONIC ns at module load: device count dev_offset. */
static u64 npusim_t0_ns;
/* Device counts per 1e15 host ns: dev_freq_hz * (1e6 + drift_ppm). */
static u64 npusim_counts_per_1e15ns;

static struct npusim_dev *npusim_devs;

u64 npusim_dev_ts(u64 host_ns)
{
	u64 elapsed = host_ns > npusim_t0_ns ? host_ns - npusim_t0_ns : 0;

	/* 1e6 (ppm) * 1e9 (ns per s); the 128-bit product cannot overflow. */
	return dev_offset + mul_u64_u64_div_u64(elapsed,
						npusim_counts_per_1e15ns,
						1000000ULL * NSEC_PER_SEC);
}

static int npusim_open(struct inode *inode, struct file *file)
{
	struct miscdevice *misc = file->private_data;
	struct npusim_file *nf;

	nf = kzalloc(sizeof(*nf), GFP_KERNEL);
	if (!nf)
		return -ENOMEM;
	nf->dev = container_of(misc, struct npusim_dev, misc);
	mutex_init(&nf->lock);
	INIT_LIST_HEAD(&nf->streams);
	nf->tgid = task_tgid_nr(current);
	spin_lock(&nf->dev->files_lock);
	list_add_tail(&nf->dev_node, &nf->dev->files);
	spin_unlock(&nf->dev->files_lock);
	file->private_data = nf;
	return 0;
}

static int npusim_release(struct inode *inode, struct file *file)
{
	struct npusim_file *nf = file->private_data;

	npusim_prof_release(nf);
	npusim_file_release_streams(nf);
	spin_lock(&nf->dev->files_lock);
	list_del(&nf->dev_node);
	spin_unlock(&nf->dev->files_lock);
	mutex_destroy(&nf->lock);
	kfree(nf);
	return 0;
}

static long npusim_ioc_stream_create(struct npusim_file *nf,
				     void __user *uarg)
{
	struct npusim_stream_req req;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (req.flags)
		return -EINVAL;
	err = npusim_stream_create(nf, &req.stream);
	if (err)
		return err;
	if (copy_to_user(uarg, &req, sizeof(req))) {
		npusim_stream_destroy(nf, req.stream);
		return -EFAULT;
	}
	return 0;
}

static long npusim_ioc_submit(struct npusim_file *nf, void __user *uarg)
{
	struct npusim_task_req req;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	err = npusim_stream_submit(nf, &req);
	if (err)
		return err;
	/* The task is queued either way; only the id is lost. */
	if (put_user(req.task_id, (__u32 __user *)(uarg +
				offsetof(struct npusim_task_req, task_id))))
		return -EFAULT;
	return 0;
}

/* NPUSIM_IOC_SQ_SEND: copy the SQEs in, then queue them. */
static long npusim_ioc_sq_send(struct npusim_file *nf, void __user *uarg)
{
	struct npusim_sq_send_req req;
	struct npusim_sqe *sqes;
	long err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	if (!req.sqe_num || req.sqe_num > NPUSIM_SQ_SEND_MAX)
		return -EINVAL;
	sqes = kvmalloc_array(req.sqe_num, sizeof(*sqes), GFP_KERNEL);
	if (!sqes)
		return -ENOMEM;
	if (copy_from_user(sqes, u64_to_user_ptr(req.sqe_addr),
			   req.sqe_num * sizeof(*sqes)))
		err = -EFAULT;
	else
		err = npusim_stream_sq_send(nf, req.stream, sqes, req.sqe_num);
	kvfree(sqes);
	return err;
}

static long npusim_ioc_prof_start(struct npusim_file *nf, void __user *uarg)
{
	struct npusim_prof_start_req req;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	npusim_prof_start(nf, &req);
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;
}

static long npusim_ioc_prof_read(struct npusim_file *nf, void __user *uarg)
{
	struct npusim_prof_read_req req;
	int err;

	if (copy_from_user(&req, uarg, sizeof(req)))
		return -EFAULT;
	err = npusim_prof_read(nf, &req);
	if (err)
		return err;
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;
}

#ifndef NPUSIM_FLAVOUR_STUB
static long npusim_ioc_clock_raw(void __user *uarg)
{
	struct npusim_clock_raw_req req = { 0 };
	unsigned long flags;

	/* Both host clocks and the device count as close as one instant. */
	local_irq_save(flags);
	req.host_ns = ktime_get_ns();
	req.raw_ns = ktime_get_raw_ns();
	local_irq_restore(flags);
	req.dev_ts = npusim_dev_ts(req.host_ns);
	req.freq_hz = dev_freq_hz;
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;
}

static long npusim_ioc_clock(void __user *uarg)
{
	struct npusim_clock_req req = { 0 };

	req.host_ns = ktime_get_ns();
	req.dev_ts = npusim_dev_ts(req.host_ns);
	req.freq_hz = dev_freq_hz;
	return copy_to_user(uarg, &req, sizeof(req)) ? -EFAULT : 0;
}
#endif

static long npusim_ioctl(struct file *file, unsigned int cmd,
			 unsigned long arg)
{
	struct npusim_file *nf = file->private_data;
	void __user *uarg = (void __user *)arg;
	u32 stream;

	switch (cmd) {
	case NPUSIM_IOC_STREAM_CREATE:
		return npusim_ioc_stream_create(nf, uarg);
	case NPUSIM_IOC_STREAM_DESTROY:
		if (get_user(stream, (u32 __user *)uarg))
			return -EFAULT;
		return npusim_stream_destroy(nf, stream);
	case NPUSIM_IOC_SUBMIT:
		return npusim_ioc_submit(nf, uarg);
	case NPUSIM_IOC_STREAM_SYNC:
		if (get_user(stream, (u32 __user *)uarg))
			return -EFAULT;
		return npusim_stream_sync(nf, stream);
	case NPUSIM_IOC_SQ_SEND:
		return npusim_ioc_sq_send(nf, uarg);
	case NPUSIM_IOC_PROF_START:
		return npusim_ioc_prof_start(nf, uarg);
	case NPUSIM_IOC_PROF_STOP:
		if (get_user(stream, (u32 __user *)uarg))
			return -EFAULT;
		return npusim_prof_stop(nf, stream);
	case NPUSIM_IOC_PROF_READ:
		return npusim_ioc_prof_read(nf, uarg);
#ifndef NPUSIM_FLAVOUR_STUB
	case NPUSIM_IOC_CLOCK: /* npustub has none: ENOTTY below */
		return npusim_ioc_clock(uarg);
	case NPUSIM_IOC_CLOCK_RAW:
		return npusim_ioc_clock_raw(uarg);
#endif
	default:
		return -ENOTTY;
	}
}

static const struct file_operations npusim_fops = {
	.owner = THIS_MODULE,
	.open = npusim_open,
	.release = npusim_release,
	.unlocked_ioctl = npusim_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/* Reject parameter values the clock and task arithmetic cannot handle. */
static int npusim_check_params(void)
{
	u64 ppm = 1000000;

	if (devices < 1 || devices > NPUSIM_MAX_DEVICES) {
		pr_err("devices=%u: must be 1..%d\n", devices,
		       NPUSIM_MAX_DEVICES);
		return -EINVAL;
	}
	if (npusim_task_id_bits < 8 || npusim_task_id_bits > 32) {
		pr_err("task_id_bits=%u: must be 8..32\n", npusim_task_id_bits);
		return -EINVAL;
	}
	if (drift_ppm <= -1000000 || drift_ppm >= 1000000) {
		pr_err("drift_ppm=%d: must be within (-1000000, 1000000)\n",
		       drift_ppm);
		return -EINVAL;
	}
	if (!dev_freq_hz || check_mul_overflow(dev_freq_hz, ppm + drift_ppm,
					       &npusim_counts_per_1e15ns)) {
		pr_err("dev_freq_hz=%llu: must be 1..%llu\n", dev_freq_hz,
		       div64_u64(U64_MAX, 2 * ppm));
		return -EINVAL;
	}
	if (!npusim_memcpy_bw_mbps ||
	    npusim_memcpy_latency_ns > NPUSIM_MAX_TASK_NS ||
	    npusim_event_ns > NPUSIM_MAX_TASK_NS) {
		pr_err("memcpy_bw_mbps must be > 0, memcpy_latency_ns and event_ns <= %llu\n",
		       NPUSIM_MAX_TASK_NS);
		return -EINVAL;
	}
	return npusim_devlog_check_params();
}

/*
 * The platform driver: user space recognises the driver behind
 * /dev/davinciN by the module its parent device is bound to
 * (/sys/dev/char/MAJ:MIN/device/driver/module), before it sends any
 * driver-private ioctl.  Device N is platform device KBUILD_MODNAME.N;
 * its probe creates the misc device, which npusim_remove_devices() removes
 * before the platform device (no remove callback: binding through sysfs is
 * turned off, so the devices live exactly as long as the module).  With
 * the other flavour loaded, /dev/davinci0 exists and the probe fails, so
 * npusim.ko and npustub.ko cannot be loaded together.
 */
/* Why the last probe failed: what npusim_add_device() returns. */
static int npusim_probe_err;

static int npusim_probe(struct platform_device *pdev)
{
	struct npusim_dev *d;
	int err;

	if (pdev->id < 0 || (unsigned int)pdev->id >= devices)
		return -ENODEV;
	d = &npusim_devs[pdev->id];
	snprintf(d->name, sizeof(d->name), "davinci%u", d->id);
	d->misc.minor = MISC_DYNAMIC_MINOR;
	d->misc.name = d->name;
	d->misc.fops = &npusim_fops;
	d->misc.mode = 0666;
	d->misc.parent = &pdev->dev;
	err = misc_register(&d->misc);
	if (err) {
		pr_err("/dev/%s: cannot register: %pe%s\n", d->name,
		       ERR_PTR(err),
		       err == -EEXIST ? " (another NPU driver, npusim, npustub or ascendsim, is loaded)" : "");
		npusim_probe_err = err;
		return err;
	}
	platform_set_drvdata(pdev, d);
	return 0;
}

static struct platform_driver npusim_platform_driver = {
	.probe = npusim_probe,
	.driver = {
		.name = KBUILD_MODNAME,
		.suppress_bind_attrs = true,
		.probe_type = PROBE_FORCE_SYNCHRONOUS,
	},
};

/* Device @i: its platform device, bound at once, and /dev/davinci@i. */
static int npusim_add_device(unsigned int i)
{
	struct npusim_dev *d = &npusim_devs[i];
	struct platform_device *pdev;

	d->id = i;
	atomic_set(&d->task_seq, 0);
	ida_init(&d->stream_ida);
	npusim_devlog_init(d);
	pdev = platform_device_register_simple(KBUILD_MODNAME, i, NULL, 0);
	if (IS_ERR(pdev)) {
		ida_destroy(&d->stream_ida);
		return PTR_ERR(pdev);
	}
	if (!platform_get_drvdata(pdev)) { /* the probe failed and said why */
		platform_device_unregister(pdev);
		ida_destroy(&d->stream_ida);
		return npusim_probe_err ? npusim_probe_err : -ENODEV;
	}
	d->pdev = pdev;
	return 0;
}

static void npusim_remove_devices(unsigned int n)
{
	while (n--) {
		misc_deregister(&npusim_devs[n].misc);
		platform_device_unregister(npusim_devs[n].pdev);
		ida_destroy(&npusim_devs[n].stream_ida);
	}
}

static int __init npusim_init(void)
{
	unsigned int i;
	int err;

	err = npusim_check_params();
	if (err)
		return err;
	npusim_devs = kcalloc(devices, sizeof(*npusim_devs), GFP_KERNEL);
	if (!npusim_devs)
		return -ENOMEM;
	npusim_t0_ns = ktime_get_ns();
	err = platform_driver_register(&npusim_platform_driver);
	if (err)
		goto out_free_devs;
	for (i = 0; i < devices; i++) {
		err = npusim_add_device(i);
		if (err)
			goto out_remove_devices;
	}
	err = npusim_trs_init(devices);
	if (err)
		goto out_remove_devices;
	npusim_bench_init();
	npusim_devlog_debugfs(npusim_devs, devices);
	pr_info("%u device(s), clock %llu Hz %+d ppm from %llu\n", devices,
		dev_freq_hz, drift_ppm, dev_offset);
	return 0;

out_remove_devices:
	npusim_remove_devices(i);
	platform_driver_unregister(&npusim_platform_driver);
out_free_devs:
	kfree(npusim_devs);
	return err;
}

/*
 * Every stream belongs to an open file, and an open file pins the module,
 * so no stream or timer is left by the time this runs.
 */
static void __exit npusim_exit(void)
{
	npusim_bench_exit();
	npusim_trs_exit();
	npusim_remove_devices(devices);
	platform_driver_unregister(&npusim_platform_driver);
	kfree(npusim_devs);
}

module_init(npusim_init);
module_exit(npusim_exit);

#if defined(NPUSIM_FLAVOUR_ASCEND)
MODULE_DESCRIPTION("Simulated NPU driver with the real Ascend driver's interfaces (trs tracepoints, procfs, submit modes)");
#elif defined(NPUSIM_FLAVOUR_STUB)
MODULE_DESCRIPTION("Second simulated NPU driver: npusim's engine, other tracepoints, no clock ioctl");
#else
MODULE_DESCRIPTION("Simulated Ascend NPU driver (streams, tasks, device clock, tracepoints)");
#endif
MODULE_AUTHOR("npuprof");
MODULE_LICENSE("GPL");
