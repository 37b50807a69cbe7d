// SPDX-License-Identifier: MIT
/*
 * Kernel feature probes (kernel_features.h): vmlinux BTF, the BPF map
 * types and helpers the uprobe programs choose between, kernel lockdown
 * and Secure Boot.  The BPF answers come from libbpf's probes, which load
 * a tiny program or create a tiny map and report whether the kernel took
 * it; the others read what the kernel and the firmware publish in /sys.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "kernel_features.h"

#define LOCKDOWN_PATH "/sys/kernel/security/lockdown"
/* The EFI global variable GUID, under which SecureBoot is defined. */
#define SECURE_BOOT_PATH "/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c"

bool kernel_btf_present(void)
{
	return access("/sys/kernel/btf/vmlinux", R_OK) == 0;
}

/* Whether @helper may be called from a kprobe-type (uprobe) program. */
static bool kprobe_helper(enum bpf_func_id helper)
{
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, helper, NULL) == 1;
}

bool kernel_bpf_task_storage(void)
{
	return kernel_btf_present() &&
	       libbpf_probe_bpf_map_type(BPF_MAP_TYPE_TASK_STORAGE, NULL) == 1 &&
	       kprobe_helper(BPF_FUNC_task_storage_get) &&
	       kprobe_helper(BPF_FUNC_get_current_task_btf);
}

bool kernel_bpf_attach_cookie(void)
{
	return kprobe_helper(BPF_FUNC_get_attach_cookie);
}

bool kernel_bpf_for_each_map_elem(void)
{
	return kprobe_helper(BPF_FUNC_for_each_map_elem);
}

/*
 * The lockdown file lists every mode and brackets the active one:
 * "none [integrity] confidentiality".
 */
void kernel_lockdown_mode(char *mode, size_t size)
{
	char text[128], *open_b, *close_b;
	size_t n;
	FILE *f;

	mode[0] = '\0';
	f = fopen(LOCKDOWN_PATH, "r");
	if (!f)
		return;
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	open_b = strchr(text, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (!close_b || !strncmp(open_b + 1, "none]", 5))
		return;
	*close_b = '\0';
	snprintf(mode, size, "%s", open_b + 1);
}

/* An efivarfs file holds 4 bytes of attributes, then the value: 1 is on. */
bool kernel_secure_boot(void)
{
	unsigned char var[5];
	bool on = false;
	FILE *f;

	f = fopen(SECURE_BOOT_PATH, "r");
	if (!f)
		return false;
	on = fread(var, 1, sizeof(var), f) == sizeof(var) && var[4] == 1;
	fclose(f);
	return on;
}
