// SPDX-License-Identifier: GPL-2.0
/*
 * Find the NPU drivers' tracepoints by name at run time and attach each
 * driver backend's probe (drv_*.c) to them, the way LTTng attaches to module
 * tracepoints: the tracepoint module notifier reports every loaded module
 * that has tracepoints at registration, then each one coming and going;
 * for_each_kernel_tracepoint() covers a driver built into the kernel.
 * No link-time symbol of the driver is used, so npuprof.ko loads without
 * it, picks it up when it loads later, and lets go when it unloads.
 * The drivers are those of the table below, one struct npuprof_drv per
 * backend, listed in Kbuild (NPUPROF_DRIVERS): a tracepoint is ours when
 * its name is in one of their tables, and gets that backend's probe.
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

/*
 * Tracepoints attached at once: at most 4 per driver, a driver or two
 * loaded (LIST_TP reports them all).
 */
#define NPUPROF_MAX_ATTACH NPUPROF_TP_LIST_MAX

/* The driver backends, from Kbuild: NPUPROF_DRV(name) for each. */
#define NPUPROF_DRV(name) extern const struct npuprof_drv npuprof_drv_##name;
NPUPROF_DRIVERS
#undef NPUPROF_DRV
#define NPUPROF_DRV(name) &npuprof_drv_##name,
static const struct npuprof_drv *const npuprof_drivers[] = { NPUPROF_DRIVERS };
#undef NPUPROF_DRV

/* The record event of each enum npuprof_tp_bit, the probes' data. */
static const enum npuprof_task_event npuprof_tp_events[NPUPROF_TP_COUNT] = {
	[NPUPROF_TP_TASK_SUBMIT] = NPUPROF_TASK_SUBMIT,
	[NPUPROF_TP_TASK_START] = NPUPROF_TASK_START,
	[NPUPROF_TP_TASK_END] = NPUPROF_TASK_END,
	[NPUPROF_TP_STREAM_SYNC] = NPUPROF_TASK_STREAM_SYNC,
	[NPUPROF_TP_TASK_QUEUED] = NPUPROF_TASK_QUEUED,
	[NPUPROF_TP_TASK_CQE] = NPUPROF_TASK_CQE,
};

/**
 * struct npuprof_attach - one driver tracepoint found
 * @tp:         the tracepoint, NULL when the slot is free
 * @mod:        module that owns @tp, NULL for a built-in tracepoint
 * @drv:        backend whose table names @tp; its probe goes on @tp
 * @bit:        enum npuprof_tp_bit
 * @registered: our probe is registered on @tp now
 */
struct npuprof_attach {
	struct tracepoint *tp;
	struct module *mod;
	const struct npuprof_drv *drv;
	unsigned int bit;
	bool registered;
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

static void *npuprof_tp_data(const struct npuprof_attach *a)
{
	return (void *)(uintptr_t)npuprof_tp_events[a->bit];
}

/* The backend's probe for @a's event. */
static void *npuprof_tp_probe(const struct npuprof_attach *a)
{
	return a->drv->probes[a->bit] ? a->drv->probes[a->bit] : a->drv->probe;
}

/* Register the backend's probe on @a's tracepoint; caller holds the mutex. */
static void npuprof_tp_register(struct npuprof_attach *a)
{
	int ret;

	if (a->registered)
		return;
	ret = tracepoint_probe_register(a->tp, npuprof_tp_probe(a),
					npuprof_tp_data(a));
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
	int ret;

	if (!a->registered)
		return;
	ret = tracepoint_probe_unregister(a->tp, npuprof_tp_probe(a),
					  npuprof_tp_data(a));
	if (ret)
		pr_warn("npuprof: detaching from tracepoint %s of %s failed: error %d\n",
			a->tp->name, npuprof_tp_owner(a), ret);
	a->registered = false;
}

/* Whether @drv's tracepoints may come from module @mod (NULL: built in). */
static bool npuprof_tp_module_ok(const struct npuprof_drv *drv,
				 const struct module *mod)
{
	const char *const *m;

	if (!drv->modules)
		return true;
	for (m = drv->modules; *m; m++)
		if (mod && !strcmp(mod->name, *m))
			return true;
	return false;
}

/*
 * The backend naming @name in a module it accepts, and its bit in *@bit;
 * NULL if none does.
 */
static const struct npuprof_drv *npuprof_tp_lookup(const char *name,
						   const struct module *mod,
						   unsigned int *bit)
{
	const struct npuprof_drv *drv;
	unsigned int i, b;

	for (i = 0; i < ARRAY_SIZE(npuprof_drivers); i++) {
		drv = npuprof_drivers[i];
		if (!npuprof_tp_module_ok(drv, mod))
			continue;
		for (b = 0; b < NPUPROF_TP_COUNT; b++) {
			/* a backend may lack an event: NULL name */
			if (drv->tp[b] && !strcmp(name, drv->tp[b])) {
				*bit = b;
				return drv;
			}
		}
	}
	return NULL;
}

/*
 * Remember @tp if it is one of ours, and register the probe on it if a
 * session captures; caller holds the mutex.
 */
static void npuprof_tp_attach_one(struct tracepoint *tp, struct module *mod)
{
	const struct npuprof_drv *drv;
	struct npuprof_attach *a;
	unsigned int i, bit;

	drv = npuprof_tp_lookup(tp->name, mod, &bit);
	if (!drv)
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
	a->drv = drv;
	a->bit = bit;
	a->registered = false;
	if (npuprof_tp_users)
		npuprof_tp_register(a);
	pr_info("npuprof: found tracepoint %s of %s (driver %s)\n", tp->name,
		npuprof_tp_owner(a), drv->name);
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
		a->drv = NULL;
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
 * no CPU is inside a probe, so the rings can be freed.
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
 * npuprof_tp_list() - the tracepoints found now, for LIST_TP
 * @list: zeroed by the caller; count and tp[] are filled in
 *
 * One snapshot under the mutex, so a module coming or going is wholly in
 * it or not; module names stay valid while the mutex is held (GOING takes
 * it before the module is freed).
 */
void npuprof_tp_list(struct npuprof_tp_list *list)
{
	const struct npuprof_attach *a;
	struct npuprof_tp_entry *e;
	unsigned int i;

	mutex_lock(&npuprof_tp_mutex);
	for (i = 0; i < NPUPROF_MAX_ATTACH; i++) {
		a = &npuprof_attached[i];
		if (!a->tp)
			continue;
		e = &list->tp[list->count++];
		strscpy_pad(e->backend, a->drv->name, sizeof(e->backend));
		strscpy_pad(e->name, a->tp->name, sizeof(e->name));
		strscpy_pad(e->module, npuprof_tp_owner(a), sizeof(e->module));
		e->bit = a->bit;
		e->registered = a->registered;
	}
	mutex_unlock(&npuprof_tp_mutex);
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
