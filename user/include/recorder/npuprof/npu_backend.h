/* SPDX-License-Identifier: MIT */
/*
 * Driver backends, user side: what npuprof knows about one NPU driver.
 * A backend says how to recognise the driver (the kernel module that owns
 * the /dev/davinci<N> nodes, read from sysfs before any driver-private
 * ioctl is sent), where its task tracepoints are and how their arguments
 * map to task records (include/npuprof/npu_driver.h, for the BPF capture
 * path), and how to read host/device clock pairs, if the driver can.
 * Adding a driver is one backend file (user/drv_<name>.c, and
 * kmod/drv_<name>.c for npuprof.ko); the build lists the backends from
 * the file names.
 */
#ifndef NPUPROF_NPU_BACKEND_H
#define NPUPROF_NPU_BACKEND_H

#include <stdint.h>

#include <npuprof/npu_driver.h>

/* Most devices one host is handled with (device ids 0..63). */
#define NPU_BACKEND_MAX_DEVICES 64

/**
 * struct npu_backend - one NPU driver
 * @name:     backend name, printed by msprof (the driver's own name)
 * @module:   name of the kernel module owning the device nodes, as
 *            /sys/dev/char/<major>:<minor>/device/driver/module names it
 * @tp_names: tracepoint names, in enum npuprof_tp_bit order (submit,
 *            start, end, stream sync, queued, completion entry); NULL for
 *            an event the driver has no tracepoint for.  The position is
 *            the record event a tracepoint gives (tp_attach.c, acl_trace.c)
 * @layout:   argument layout shared by the tracepoints
 * @event_layout: per event, the layout of a tracepoint whose prototype
 *            differs from @layout's (NULL: @layout)
 * @proc_probe: a path below /proc that only this driver makes, or NULL:
 *            the backend is taken when the device nodes' owner is a module
 *            npuprof does not know (the real Ascend driver's node owner
 *            is not the module with the tracepoints; its name is unknown
 *            here) and this path exists
 * @trace_enable: printf formats (one %u, the device) of the files below
 *            /proc that switch the tracepoints of a device on ("1\n") and
 *            off ("0\n"), NULL-terminated; NULL when they always fire.
 *            The session saves them, writes "1\n" at start and restores
 *            them at stop (user/trace_switch.c)
 * @clock:    read one host/device clock pair of @device: host
 *            CLOCK_MONOTONIC ns and the device clock count at the same
 *            instant.  0, or -errno.  NULL when the driver has no clock
 *            interface: the export then places device times by its fit
 *            over task records.
 * @device_log: 1 when the driver's tracepoints never see a task run (the
 *            real Ascend driver): task begin and end then come from the
 *            device scheduler's log through libascend_hal.so's profiling
 *            channel (user/devlog.c), submits from a uprobe on the HAL's
 *            halSqTaskSend() in each target, and the tracepoints (where
 *            present) give NPUPROF_TASK_QUEUED / _CQE records only.
 *            0: the tracepoints give submit, start, end and sync.
 */
struct npu_backend {
	const char *name;
	const char *module;
	const char *tp_names[NPU_TP_EVENTS];
	struct npu_tp_layout layout;
	const struct npu_tp_layout *event_layout[NPU_TP_EVENTS];
	const char *proc_probe;
	const char *const *trace_enable;
	int (*clock)(int device, uint64_t *host_ns, uint64_t *dev_ts);
	unsigned int device_log;
};

/**
 * struct npu_host - the NPU driver and devices found on this host
 * @backend:    the driver's backend; NULL when no /dev/davinci<N> exists
 *              or its owner has no backend (see @owner)
 * @owner:      module owning the device nodes as sysfs says ("" unknown)
 * @nr_devices: entries of @devices
 * @devices:    device ids, ascending
 */
struct npu_host {
	const struct npu_backend *backend;
	char owner[64];
	unsigned int nr_devices;
	int devices[NPU_BACKEND_MAX_DEVICES];
};

/**
 * npu_host_detect() - find the devices and the backend of their driver
 * @host: out
 * @dev_dir: directory holding the device nodes, NULL for "/dev" (tests)
 * @sys_dir: sysfs root, NULL for "/sys" (tests)
 *
 * Lists davinci<N> character nodes (not opening them; symlinks and other
 * files are skipped), and names the module owning each through sysfs.
 * The host's driver is the owner of the lowest-numbered node whose owner
 * has a backend (else whose owner sysfs names at all); its nodes are the
 * devices, and nodes of another owner, or of none while others have one,
 * are left out.  With no owner for any node, every node is a device and
 * @host->owner is "".  No driver ioctl is sent.
 *
 * Return: 0 (with @host->backend NULL when the owner is not a known
 * driver, or no device exists); -errno when @dev_dir cannot be read.
 */
int npu_host_detect(struct npu_host *host, const char *dev_dir, const char *sys_dir);

/**
 * npu_pid_devices() - the devices a process has open
 * @pid:      the process
 * @proc_dir: procfs root, NULL for "/proc" (tests)
 * @mask:     out: bit N set when one of @pid's descriptors is
 *            "/dev/davinci<N>" (N < NPU_BACKEND_MAX_DEVICES), or a
 *            character device named "davinci<N>" elsewhere (a process in
 *            a container shows the path in its own mount namespace)
 *
 * A process holds /dev/davinci<N> open from the moment its runtime sets
 * device N (aclrtSetDevice) on; the capture reads this at start to know
 * which devices a window covers before any task runs.
 * Return: 0; -errno when /proc/<pid>/fd cannot be read (gone, no right).
 */
int npu_pid_devices(int pid, const char *proc_dir, uint64_t *mask);

/**
 * npu_backend_find() - the backend of the driver named @name, or NULL
 * @name: backend name or module name
 */
const struct npu_backend *npu_backend_find(const char *name);

/**
 * npu_backend_list() - every backend npuprof was built with
 * @n: out: number of entries
 */
const struct npu_backend *const *npu_backend_list(unsigned int *n);

#endif /* NPUPROF_NPU_BACKEND_H */
