// SPDX-License-Identifier: GPL-2.0
/*
 * Find the NPU driver's tracepoints by name at run time and attach the
 * probe of probes.c to them, the way LTTng attaches to module
 * tracepoints: the tracepoint module notifier reports every loaded module
 * that has tracepoints at registration, then each one coming and going;
 * for_each_kernel_tracepoint() covers a driver built into the kernel.
 * No link-time symbol of the driver is used, so npuprof.ko loads without
 * it, picks it up when it loads later, and lets go when it unloads.
 * The names are in include/npuprof/npu_driver_tp.h.
 *
 * Finding a tracepoint and registering the probe on it are two steps: the
 * probe is registered only while at least one session captures
 * (npuprof_tp_get() at the first ENABLE, npuprof_tp_put() at the last
 * DISABLE or destroy).  A tracepoint with no probe is a static branch not
 * taken, so a loaded npuprof.ko with idle sessions costs the driver
 * nothing per event; a registered probe costs every event of every
 * process a call and a tgid lookup.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include "npuprof.h"

/* Tracepoints attached at once: 4 names, a few drivers carrying them. */
#define NPUPROF_MAX_ATTACH 16

/**
 * struct npuprof_attach - one driver tracepoint found
 * @tp:         the tracepoint, NULL when the slot is free
 * @mod:        module that owns @tp, NULL for a built-in tracepoint
 * @bit:        enum npuprof_tp_bit
 * @registered: our probe is registered on @tp now
 */
struct npuprof_attach {
	struct tracepoint *tp;
	struct module *mod;
	unsigned int bit;
	bool registered;
};

static const struct {
	const char *name;
	enum npuprof_task_event event;
} npuprof_tp_names[NPUPROF_TP_COUNT] = {
	[NPUPROF_TP_TASK_SUBMIT] = { NPU_TP_NAME_TASK_SUBMIT, NPUPROF_TASK_SUBMIT },
	[NPUPROF_TP_TASK_START] = { NPU_TP_NAME_TASK_START, NPUPROF_TASK_START },
	[NPUPROF_TP_TASK_END] = { NPU_TP_NAME_TASK_END, NPUPROF_TASK_END },
	[NPUPROF_TP_STREAM_SYNC] = { NPU_TP_NAME_STREAM_SYNC,
				     NPUPROF_TASK_STREAM_SYNC },
};

/* Protects the three below (writers). */
static DEFINE_MUTEX(npuprof_tp_mutex);
static struct npuprof_attach npuprof_attached[NPUPROF_MAX_ATTACH];
/* Tracepoints found, bits of enum npuprof_tp_bit (GET_TP_STATUS). */
static u32 npuprof_attached_mask;
/* Sessions capturing: the probe is registered while this is not 0. */
static unsigned int npuprof_tp_users;

static void npuprof_tp_update_mask(void)
{
	u32 mask = 0;
	unsigned int i;

	for (i = 0; i < NPUPROF_MAX_ATTACH; i++)
		if (npuprof_attached[i].tp)
			mask |= 1U << npuprof_attached[i].bit;
	WRITE_ONCE(npuprof_attached_mask, mask);
}

static const char *npuprof_tp_owner(const struct npuprof_attach *a)
{
	return a->mod ? a->mod->name : "kernel";
}

/* Register the probe on @a's tracepoint; caller holds the mutex. */
static void npuprof_tp_register(struct npuprof_attach *a)
{
	void *data = (void *)(uintptr_t)npuprof_tp_names[a->bit].event;
	int ret;

	if (a->registered)
		return;
	ret = tracepoint_probe_register(a->tp, npuprof_task_probe, data);
	if (ret) {
		pr_warn("npuprof: cannot attach to tracepoint %s of %s: error %d\n",
			a->tp->name, npuprof_tp_owner(a), ret);
		return;
	}
	a->registered = true;
}

/*
 * Unregister the probe from @a's tracepoint; caller holds the mutex and
 * waits (tracepoint_synchronize_unregister()) before freeing anything a
 * probe still running may touch.
 */
static void npuprof_tp_unregister(struct npuprof_attach *a)
{
	void *data = (void *)(uintptr_t)npuprof_tp_names[a->bit].event;
	int ret;

	if (!a->registered)
		return;
	ret = tracepoint_probe_unregister(a->tp, npuprof_task_probe, data);
	if (ret)
		pr_warn("npuprof: detaching from tracepoint %s of %s failed: error %d\n",
			a->tp->name, npuprof_tp_owner(a), ret);
	a->registered = false;
}

static int npuprof_tp_bit(const char *name)
{
	unsigned int bit;

	for (bit = 0; bit < NPUPROF_TP_COUNT; bit++)
		if (!strcmp(name, npuprof_tp_names[bit].name))
			return bit;
	return -ENOENT;
}

/*
 * Remember @tp if it is one of ours, and register the probe on it if a
 * session captures; caller holds the mutex.
 */
static void npuprof_tp_attach_one(struct tracepoint *tp, struct module *mod)
{
	struct npuprof_attach *a;
	int bit = npuprof_tp_bit(tp->name);
	unsigned int i;

	if (bit < 0)
		return;
	for (i = 0; i < NPUPROF_MAX_ATTACH; i++)
		if (!npuprof_attached[i].tp)
			break;
	if (i == NPUPROF_MAX_ATTACH) {
		pr_warn("npuprof: tracepoint %s of %s not attached: more than %d driver tracepoints; unload a driver\n",
			tp->name, mod ? mod->name : "kernel", NPUPROF_MAX_ATTACH);
		return;
	}
	a = &npuprof_attached[i];
	a->tp = tp;
	a->mod = mod;
	a->bit = bit;
	a->registered = false;
	if (npuprof_tp_users)
		npuprof_tp_register(a);
	pr_info("npuprof: found tracepoint %s of %s\n", tp->name,
		npuprof_tp_owner(a));
}

/* Forget every tracepoint of @mod (NULL: built-in ones), probes off. */
static void npuprof_tp_detach_module(struct module *mod)
{
	struct npuprof_attach *a;
	unsigned int i, n = 0;

	mutex_lock(&npuprof_tp_mutex);
	for (i = 0; i < NPUPROF_MAX_ATTACH; i++) {
		a = &npuprof_attached[i];
		if (!a->tp || a->mod != mod)
			continue;
		npuprof_tp_unregister(a);
		a->tp = NULL;
		a->mod = NULL;
		n++;
	}
	npuprof_tp_update_mask();
	mutex_unlock(&npuprof_tp_mutex);
	if (n)
		pr_info("npuprof: detached from %u tracepoint(s) of %s\n", n,
			mod ? mod->name : "kernel");
}

static void npuprof_tp_attach_module(struct module *mod)
{
	unsigned int i;

	mutex_lock(&npuprof_tp_mutex);
	for (i = 0; i < mod->num_tracepoints; i++)
		npuprof_tp_attach_one(tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]),
				      mod);
	npuprof_tp_update_mask();
	mutex_unlock(&npuprof_tp_mutex);
}

/*
 * Called with the tracepoint core's module list mutex held, for COMING
 * before the module's init runs and GOING after its exit ran (the core
 * WARNs if a probe is still registered on a going module's tracepoint).
 */
static int npuprof_tp_module_notify(struct notifier_block *nb,
				    unsigned long val, void *data)
{
	struct tp_module *tp_mod = data;

	if (val == MODULE_STATE_COMING)
		npuprof_tp_attach_module(tp_mod->mod);
	else if (val == MODULE_STATE_GOING)
		npuprof_tp_detach_module(tp_mod->mod);
	return NOTIFY_OK;
}

static struct notifier_block npuprof_tp_module_nb = {
	.notifier_call = npuprof_tp_module_notify,
};

static void npuprof_tp_scan_kernel(struct tracepoint *tp, void *priv)
{
	npuprof_tp_attach_one(tp, NULL);
}

/**
 * npuprof_tp_init() - find the driver tracepoints present now and watch
 * for modules coming and going
 *
 * Return: 0 (no driver loaded is not an error); or the error of
 * register_tracepoint_module_notifier(), with nothing left attached.
 */
int npuprof_tp_init(void)
{
	int ret;

	mutex_lock(&npuprof_tp_mutex);
	for_each_kernel_tracepoint(npuprof_tp_scan_kernel, NULL);
	npuprof_tp_update_mask();
	mutex_unlock(&npuprof_tp_mutex);

	ret = register_tracepoint_module_notifier(&npuprof_tp_module_nb);
	if (ret) {
		npuprof_tp_detach_module(NULL);
		tracepoint_synchronize_unregister();
	}
	return ret;
}

/**
 * npuprof_tp_exit() - detach every probe and wait until none runs
 *
 * Unregistering the notifier reports GOING for every loaded module, which
 * detaches their tracepoints; built-in ones are detached here.  On return
 * no CPU is inside npuprof_task_probe(), so the rings can be freed.
 */
void npuprof_tp_exit(void)
{
	unregister_tracepoint_module_notifier(&npuprof_tp_module_nb);
	npuprof_tp_detach_module(NULL);
	tracepoint_synchronize_unregister();
}

/**
 * npuprof_tp_attached() - bitmap of enum npuprof_tp_bit found now
 *
 * A tracepoint found has the probe registered only while a session
 * captures (npuprof_tp_get()).
 */
u32 npuprof_tp_attached(void)
{
	return READ_ONCE(npuprof_attached_mask);
}

/**
 * npuprof_tp_get() - a session starts capturing: probes on
 *
 * The first user registers the probe on every tracepoint found; later
 * tracepoints (a driver loading) get it when found.  May sleep.
 */
void npuprof_tp_get(void)
{
	unsigned int i;

	mutex_lock(&npuprof_tp_mutex);
	if (!npuprof_tp_users++)
		for (i = 0; i < NPUPROF_MAX_ATTACH; i++)
			if (npuprof_attached[i].tp)
				npuprof_tp_register(&npuprof_attached[i]);
	mutex_unlock(&npuprof_tp_mutex);
}

/**
 * npuprof_tp_put() - a session stops capturing: probes off after the last
 *
 * The caller must tracepoint_synchronize_unregister() before freeing
 * anything a probe that was running may still touch.  May sleep.
 */
void npuprof_tp_put(void)
{
	unsigned int i;

	mutex_lock(&npuprof_tp_mutex);
	if (!WARN_ON(!npuprof_tp_users) && !--npuprof_tp_users)
		for (i = 0; i < NPUPROF_MAX_ATTACH; i++)
			if (npuprof_attached[i].tp)
				npuprof_tp_unregister(&npuprof_attached[i]);
	mutex_unlock(&npuprof_tp_mutex);
}
