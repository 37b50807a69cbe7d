/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * What npuprof needs to know about an NPU driver's tracepoints, in a form
 * the kernel module, the BPF loader and user space share.  Each driver
 * backend describes its four task tracepoints in its own header under
 * include/npuprof/drv/ (names, prototype, and where each field of a task
 * record sits in the prototype); nothing outside the backend files names a
 * driver.
 *
 * A tracepoint's arguments are numbered from 0 in TP_PROTO order (the
 * order BPF raw tracepoints see them in ctx->args[]).  enum npu_tp_field
 * lists the fields of struct npuprof_rec_task a driver tracepoint can give;
 * a backend maps each one to an argument position, or to NPU_TP_ABSENT
 * when its tracepoints do not carry it (the field is then 0, or "" for the
 * name).  Integer arguments are at most 64 bits wide; the width of each
 * is given so a reader of raw 64-bit argument slots can drop the bits the
 * ABI leaves undefined above a narrower argument.
 *
 * An argument may also be a pointer to a struct (the real Ascend driver's
 * tracepoints pass struct trs_id_inst * and struct trs_chan_sq_trace *,
 * include/npuprof/drv/trs_tp.h): a field marked in @deref is then read,
 * @bits wide, at byte @off inside the struct argument @pos points to
 * (bpf_probe_read_kernel() in the BPF programs).  A layout that leaves
 * @deref zeroed (npusim's, npustub's) reads every field from the argument
 * itself.  A prototype without NPU_TP_TGID gives records the tgid of
 * "current" when the capture follows it, else 0 (an event a kernel worker
 * fired); user space attributes those by stream owner.
 */
#ifndef NPUPROF_NPU_DRIVER_H
#define NPUPROF_NPU_DRIVER_H

/*
 * Events, in the order of enum npuprof_tp_bit (npuprof_ioctl.h): submit,
 * start, end, stream sync, queued, completion entry.  A backend names the
 * tracepoint that gives each, or none.
 */
#define NPU_TP_EVENTS 6

/* Fields of a task record, as a driver tracepoint may carry them. */
enum npu_tp_field {
	NPU_TP_TGID = 0,   /* owner process of the task (the submitter) */
	NPU_TP_TID,        /* owner thread */
	NPU_TP_DEVICE,     /* device id, N of /dev/davinciN */
	NPU_TP_STREAM,     /* stream id, per device */
	NPU_TP_TASK_ID,    /* task id, per device */
	NPU_TP_TASK_TYPE,  /* enum npuprof_task_type value */
	NPU_TP_DEV_TS,     /* device clock count at the event */
	NPU_TP_ARG,        /* kernel: requested ns; memcpy: bytes; sync: ns waited */
	NPU_TP_NAME,       /* const char *: kernel name, may be NULL */
	NPU_TP_FIELDS
};

/* Position of a field the tracepoints do not carry. */
#define NPU_TP_ABSENT 0xff

/* Most arguments a driver tracepoint may have (BPF raw tracepoints: 12). */
#define NPU_TP_MAX_ARGS 12

/**
 * struct npu_tp_layout - where each task record field sits in a prototype
 * @nr_args: arguments of the prototype
 * @pos:     argument position of each enum npu_tp_field, or NPU_TP_ABSENT
 * @bits:    width in bits of that argument, or of the struct member when
 *           @deref (8, 16, 32 or 64; 64 for the name pointer)
 * @deref:   1 when argument @pos points to a struct holding the field
 * @off:     with @deref: byte offset of the field inside that struct
 */
struct npu_tp_layout {
	unsigned char nr_args;
	unsigned char pos[NPU_TP_FIELDS];
	unsigned char bits[NPU_TP_FIELDS];
	unsigned char deref[NPU_TP_FIELDS];
	unsigned short off[NPU_TP_FIELDS];
};

#endif /* NPUPROF_NPU_DRIVER_H */
