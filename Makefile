# npuprof top-level build.
#
#   make            build modules, BPF objects + skeletons, libraries, tools,
#                   the simulated NPU runtime and sample app, the tests
#   make demo       install dependencies, build, run the demo in the VM
#   make check      install dependencies, build, run every test (the unit
#                   tests also built under ASan+UBSan in build-asan/)
#   make check-all  make check, then every benchmark once at a tiny size
#                   (tests/bench/smoke.sh), npuprof.ko built through dkms
#                   (tests/pkg/dkms_build.sh), every VM suite on the other
#                   kernels (tests/matrix.sh $(MATRIX_TARGETS)), and the long soak and
#                   kernel-interface fuzz (tests/e2e/soak.sh, tests/vm/kfuzz.sh
#                   at full size), and the export of a 1,000,003-task PROF
#                   dir with every timeline slice parsed as JSON
#                   (tests/unit/test_export_big.c; make check exports the
#                   same dir and scans its slices in C,
#                   tests/unit/test_export_big_msprof.c)
#   make bench      install dependencies, build, run every benchmark against
#                   its baselines (bench/run.sh): a table and bench-out/bench.json
#   make fuzz       build the libFuzzer targets in build-fuzz/ and run each
#                   for FUZZ_SECONDS (tests/fuzz/fuzz.mk)
#   make install    install the tools, libnpuprof.a and its headers, the man
#                   pages, msprof's bash completion and npuprof.ko's DKMS
#                   source under DESTDIR+PREFIX (default /usr/local); make
#                   uninstall removes them.  make dkms-src: the DKMS source only.
#   make target TARGET=T
#                   build for VM target T (scripts/vm-kernel.sh targets) into
#                   build/target/T/: for an arm64 target everything the VM
#                   and e2e tests use (user space, tools, the simulated
#                   runtime and app, the test and bench programs, the BPF
#                   objects), cross-compiled; scripts/vm-run.sh puts them
#                   over build/ inside that target's guest
#   make target-modules TARGET=T
#                   the kernel modules for VM target T (scripts/vm-kernel.sh
#                   targets) in build/target/T/kmod/
#
# KDIR selects the kernel the modules are built for; the default is the
# Debian kernel the test VM boots (scripts/vm-kernel.sh).  For the running
# kernel of a real host: make KDIR=/lib/modules/$(uname -r)/build

BUILD ?= build
CC ?= gcc
CLANG ?= clang
# The architecture the BPF programs are built for: bpf_tracing.h's
# PT_REGS_* and our own register reads (bpf/acl_trace.bpf.c) follow it.
# __TARGET_ARCH of the BPF programs: the build machine's (make target sets
# it for a cross build).
BPF_ARCH ?= $(patsubst aarch64,arm64,$(patsubst x86_64,x86,$(shell uname -m)))
BPFTOOL ?= bpftool
VM_KVER := $(shell scripts/vm-kernel.sh version 2>/dev/null)
KDIR ?= /lib/modules/$(VM_KVER)/build

# The BPF skeletons user code includes; an instrumented build (SANFLAGS,
# in its own BUILD) reuses those of the plain build.
BPF_DIR ?= $(BUILD)/bpf
# Sanitizer flags for compile and link, e.g. -fsanitize=address,undefined.
SANFLAGS ?=
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread \
	  -Iinclude $(PROF_INC) $(RECORDER_INC) -Iwire/include -I$(BPF_DIR) $(SANFLAGS)
# The three layers (README, Architecture) show in the include paths.  The
# user library's headers are in two folders: user/include/prof (the PROF
# format both sides read and write: records, slices, the PROF dir's names
# and control files, losses) and user/include/recorder (the capture:
# session, drain, kernel ring reader, BPF loader, driver backends).  The
# PROF format's own sources (PROF_SRCS) and the exporter (tools/export/,
# libnpuprof_export.a) are compiled without the recorder's folder, so a
# recorder header included there does not compile; tests/host/layers.sh
# says which line broke the rule.
PROF_INC := -Iuser/include/prof
RECORDER_INC := -Iuser/include/recorder
# The simulator's headers (its driver ABI, the ACL API) are for the
# simulator, the tests and the benchmarks that drive it, and the one
# product file that speaks the simulated driver's ioctl (its backend).
# Product code (user/, tools/, kmod/, bpf/) is built without them, so a
# product file including a simulator header does not compile.
SIM_CFLAGS := -Isim/include
LDLIBS_NPUPROF := -lbpf -lelf -lz -luring -lzstd -ljansson -lpthread -lm
# msprof and what links libmsprof.a: the export's database (export_db.c).
LDLIBS_MSPROF := -lsqlite3 $(LDLIBS_NPUPROF)

LIB_SRCS := $(sort $(wildcard user/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
# The PROF format's part of libnpuprof.a: what the exporter links, also
# as libnpuprof_prof.a of its own (the export tests link nothing else of
# user/).
PROF_SRCS := $(addprefix user/,io_engine.c io_engine_pwrite.c io_engine_uring.c loss.c msg.c \
	name_text.c prof_control.c prof_fs.c \
	prof_layout.c prof_open.c record_names.c slice_block.c slice_model.c \
	slice_reader.c slice_writer.c)
PROF_OBJS := $(PROF_SRCS:%.c=$(BUILD)/obj/%.o)
PROF_CFLAGS = $(filter-out $(RECORDER_INC) -Iwire/include -I$(BPF_DIR),$(CFLAGS))
# The exporter (tools/export/): PROF dirs in, msprof's outputs out.  A
# library of its own, libnpuprof_export.a, over the PROF format only.
EXPORT_SRCS := $(sort $(wildcard tools/export/*.c))
EXPORT_OBJS := $(EXPORT_SRCS:%.c=$(BUILD)/obj/%.o)
EXPORT_LIB := $(BUILD)/lib/libnpuprof_export.a
EXPORT_CFLAGS = $(PROF_CFLAGS) -Itools/export
MSPROF_SRCS := $(sort $(wildcard tools/msprof/*.c))
MSPROF_OBJS := $(MSPROF_SRCS:%.c=$(BUILD)/obj/%.o)
MSPROF_MAIN := $(BUILD)/obj/tools/msprof/main.o
MSPROF_LIB_OBJS := $(filter-out $(MSPROF_MAIN),$(MSPROF_OBJS))
# The dynamic-profiling wire codec (wire/): a library of its own, linked
# by the product (msprof: libdynprof_wire.a) and by the simulated runtime
# (its PIC objects).  It is compiled with its own header dir only, so it
# cannot grow a dependency on product or simulator code.
WIRE_SRCS := $(sort $(wildcard wire/*.c))
WIRE_OBJS := $(WIRE_SRCS:%.c=$(BUILD)/obj/%.o)
WIRE_PIC_OBJS := $(WIRE_SRCS:%.c=$(BUILD)/pic/%.o)
WIRE_LIB := $(BUILD)/lib/libdynprof_wire.a
WIRE_CFLAGS = $(filter-out -I%,$(CFLAGS)) -Iwire/include
WIRE_TEST_SRCS := $(sort $(wildcard wire/tests/test_*.c))
WIRE_TEST_BINS := $(WIRE_TEST_SRCS:wire/tests/%.c=$(BUILD)/tests/%)
# The simulated runtime is two libraries, as CANN's: libascendcl.so (the
# acl* functions: sim/runtime/acl_*.c and the dynamic-profiling server)
# calls libruntime.so (the rt* functions: sim/runtime/rt_*.c), which talks
# to the driver.
RT_SRCS := $(sort $(wildcard sim/runtime/rt_*.c))
RT_OBJS := $(RT_SRCS:%.c=$(BUILD)/pic/%.o)
ACL_SRCS := $(filter-out $(RT_SRCS),$(sort $(wildcard sim/runtime/*.c)))
# Under both, as under CANN's, the driver's user-space library
# libascend_hal.so (sim/hal/*.c: halSqTaskSend, halGetDeviceInfo, the
# profiling channel API), which talks to the simulated driver.
HAL_SRCS := $(sort $(wildcard sim/hal/*.c))
ACL_OBJS := $(ACL_SRCS:%.c=$(BUILD)/pic/%.o) $(WIRE_PIC_OBJS)
HAL_OBJS := $(HAL_SRCS:%.c=$(BUILD)/pic/%.o)
APP_SRCS := $(sort $(wildcard sim/app/*.c))
BPF_SRCS := $(sort $(wildcard bpf/*.bpf.c))
BPF_OBJS := $(BPF_SRCS:bpf/%.bpf.c=$(BPF_DIR)/%.bpf.o)
BPF_SKELS := $(BPF_SRCS:bpf/%.bpf.c=$(BPF_DIR)/%.skel.h)
# make bench's programs (bench/src/*.c) and baseline BPF programs
# (bench/bpf/*.bpf.c: skeletons next to the product's).
BENCH_SRCS := $(sort $(wildcard bench/src/*.c))
BENCH_BINS := $(BENCH_SRCS:bench/src/%.c=$(BUILD)/bench/%)
BENCH_BPF_SRCS := $(sort $(wildcard bench/bpf/*.bpf.c))
BENCH_SKELS := $(BENCH_BPF_SRCS:bench/bpf/%.bpf.c=$(BPF_DIR)/%.skel.h)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
# The exporter's tests: built like the exporter, linked with it alone.
EXPORT_TEST_SRCS := $(sort $(wildcard tests/unit/test_export_*.c) tests/unit/test_query.c \
	tests/unit/test_clock_sync.c)
EXPORT_TEST_BINS := $(EXPORT_TEST_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: print-layers all deps modules target-modules smoke-target-modules bpf libs tools sim tests bench-progs tests-unit asan demo check check-all bench clean \
	install uninstall dkms-src target
.DELETE_ON_ERROR:

all: modules bpf libs tools sim tests bench-progs

deps:
	scripts/install-deps.sh

# Kernel modules (Kbuild): npuprof.ko, the simulated driver npusim.ko and
# npustub.ko (the simulator as a second driver) and ascendsim.ko (the simulator
# with the real Ascend driver's interfaces); never load two of them together.
modules:
	@test -d "$(KDIR)" || { echo "make: KDIR=$(KDIR): no kernel build tree; run scripts/install-deps.sh or pass KDIR=" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
	$(MAKE) -C $(KDIR) M=$(CURDIR)/tests/kmod/tp_stub modules
	mkdir -p $(BUILD)/kmod
	cp kmod/npuprof.ko sim/driver/npusim.ko sim/driver/npustub.ko sim/driver/ascendsim.ko \
		tests/kmod/tp_stub/npuprof_tp_stub.ko $(BUILD)/kmod/

# The same modules for the other VM targets' kernels, each in a shadow tree
# under build/target/T/ (scripts/target-modules.sh).  `make check` builds
# those of SMOKE_TARGETS (make smoke-target-modules), the kernels it
# smoke-tests (tests/platform/smoke_*.sh); a rebuild happens only when a
# module source or the target's kernel changed, as kbuild's own no-op pass
# takes seconds per target.
SMOKE_TARGETS ?= amd64-5.10 amd64-6.12
MODULE_SRCS := Kbuild scripts/target-modules.sh \
	$(filter-out %.mod.c,$(wildcard kmod/Kbuild kmod/*.[ch] sim/driver/Kbuild \
	sim/driver/*.[ch] sim/include/*.h include/npuprof/*.h \
	include/npuprof/drv/*.h tests/kmod/tp_stub/Kbuild tests/kmod/tp_stub/*.[ch]))
# A target's record names the kernel fetched for it: a newer one (after a
# Debian kernel update) rebuilds its modules.
VM_CACHE := $(shell scripts/vm-kernel.sh cache)
$(VM_CACHE)/targets/%:
	scripts/vm-kernel.sh --target $* fetch
build/target/%/kmod/npuprof.ko: $(MODULE_SRCS) $(VM_CACHE)/targets/%
	MAKE="$(MAKE)" scripts/target-modules.sh $*

smoke-target-modules: $(SMOKE_TARGETS:%=build/target/%/kmod/npuprof.ko)

target-modules:
	@test -n "$(TARGET)" || { echo "make: target-modules needs TARGET=T (scripts/vm-kernel.sh targets)" >&2; exit 1; }
	MAKE="$(MAKE)" scripts/target-modules.sh $(TARGET)

# BPF: CO-RE objects and their generated skeletons.
$(BPF_DIR)/vmlinux.h:
	@mkdir -p $(@D)
	scripts/gen-vmlinux-h.sh $@

$(BPF_DIR)/%.bpf.o: bpf/%.bpf.c $(BPF_DIR)/vmlinux.h include/npuprof/record.h include/npuprof/drv/ascend_hal_abi.h $(wildcard bpf/*.h)
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
		-I$(BPF_DIR) -Iinclude -Ibpf -c $< -o $@

$(BPF_DIR)/%.bpf.o: bench/bpf/%.bpf.c $(BPF_DIR)/vmlinux.h include/npuprof/record.h
	$(CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror \
		-I$(BPF_DIR) -Iinclude -Ibpf -c $< -o $@

$(BPF_DIR)/%.skel.h: $(BPF_DIR)/%.bpf.o
	$(BPFTOOL) gen skeleton $< > $@

bpf: $(BPF_SKELS) $(BENCH_SKELS)

# libnpuprof.a: rings, drain, record format, session.
$(BUILD)/obj/%.o: %.c | $(BPF_SKELS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(OBJ_CFLAGS) -MMD -MP -c $< -o $@

# The PROF format's sources and the exporter: no recorder header.
$(PROF_OBJS): $(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) -MMD -MP -c $< -o $@

$(EXPORT_OBJS): $(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(EXPORT_CFLAGS) -MMD -MP -c $< -o $@

# What tests/host/layers.sh checks the layers against.
print-layers:
	@echo "PROF_SRCS=$(PROF_SRCS)"
	@echo "EXPORT_SRCS=$(EXPORT_SRCS)"
	@echo "EXPORT_CFLAGS=$(EXPORT_CFLAGS)"
	@echo "EXPORT_TEST_SRCS=$(EXPORT_TEST_SRCS)"

# msprof calls the exporter through its entry points (export.h, query.h).
$(MSPROF_OBJS): OBJ_CFLAGS := -Itools/export

# The npusim driver backend: the only product object built with SIM_CFLAGS.
$(BUILD)/obj/user/drv_npusim.o: OBJ_CFLAGS := $(SIM_CFLAGS)
# Driver backends, one user/drv_<name>.c each: their table in npu_backend.c.
NPU_BACKENDS := $(patsubst user/drv_%.c,%,$(sort $(wildcard user/drv_*.c)))
$(BUILD)/obj/user/npu_backend.o: OBJ_CFLAGS := "-DNPU_BACKENDS=$(foreach b,$(NPU_BACKENDS),X($(b)))"
# A backend file added (newer than the object) rebuilds the table.
$(BUILD)/obj/user/npu_backend.o: $(wildcard user/drv_*.c)


$(BUILD)/pic/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

# The simulated runtime sees no product header: what it shares with the
# product is the wire codec, through wire/include.
# The driver's ABI header (include/npuprof/drv/ascend_hal_abi.h: SQE
# header, HAL prototypes) is the one it shares with the simulated HAL, as
# CANN's runtime includes the driver's headers.
ACL_CFLAGS = $(filter-out -Iinclude $(PROF_INC) $(RECORDER_INC),$(CFLAGS)) $(SIM_CFLAGS) -Iinclude/npuprof/drv
$(BUILD)/pic/sim/runtime/%.o: sim/runtime/%.c
	@mkdir -p $(@D)
	$(CC) $(ACL_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(BUILD)/pic/sim/hal/%.o: sim/hal/%.c
	@mkdir -p $(@D)
	$(CC) $(ACL_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(BUILD)/lib/libnpuprof.a: $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# libdynprof_wire.a and the runtime's PIC copies: only wire/include.
$(BUILD)/obj/wire/%.o: wire/%.c
	@mkdir -p $(@D)
	$(CC) $(WIRE_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/pic/wire/%.o: wire/%.c
	@mkdir -p $(@D)
	$(CC) $(WIRE_CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(WIRE_LIB): $(WIRE_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/lib/libnpuprof_prof.a: $(PROF_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(EXPORT_LIB): $(EXPORT_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

libs: $(BUILD)/lib/libnpuprof.a $(BUILD)/lib/libnpuprof_prof.a $(EXPORT_LIB) $(WIRE_LIB)

# What the exporter links: itself, the PROF format, SQLite (export_db.c).
LDLIBS_EXPORT := $(EXPORT_LIB) $(BUILD)/lib/libnpuprof_prof.a -lsqlite3 -ljansson -luring -lzstd -lpthread -lm

# Tools: msprof.  Everything but main.o also goes into libmsprof.a so the
# unit tests can call the option parser and the command loop directly.
$(BUILD)/lib/libmsprof.a: $(MSPROF_LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

MSPROF_LIBS := $(BUILD)/lib/libmsprof.a $(EXPORT_LIB) $(BUILD)/lib/libnpuprof.a $(WIRE_LIB)
$(BUILD)/bin/msprof: $(MSPROF_MAIN) $(MSPROF_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $(MSPROF_MAIN) $(MSPROF_LIBS) $(LDLIBS_MSPROF)

# npuprof-dump reads PROF dirs: built like the report side, on the PROF
# format alone.
$(BUILD)/bin/npuprof-dump: tools/npuprof-dump/main.c $(BUILD)/lib/libnpuprof_prof.a
	@mkdir -p $(@D)
	$(CC) $(PROF_CFLAGS) -o $@ $< $(BUILD)/lib/libnpuprof_prof.a -ljansson -lzstd -lpthread -lm

tools: $(BUILD)/bin/msprof $(BUILD)/bin/npuprof-dump

# Simulated NPU user space: libascendcl.so over libruntime.so, and the
# sample AI task.  libascendcl.so finds libruntime.so beside itself
# ($ORIGIN): a program's own run path does not serve its libraries' needs.
# Linking against libascendcl.so: the linker looks for the libruntime.so it
# needs in build/lib (a cross linker does not follow its $ORIGIN).
ACL_LINK = -Wl,-rpath-link,$(BUILD)/lib

$(BUILD)/lib/libascend_hal.so: $(HAL_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libascend_hal.so -o $@ $^ -lpthread

# Both libraries need libascend_hal.so (DT_NEEDED, beside them), as CANN's do.
HAL_NEEDED = -L$(BUILD)/lib -Wl,--push-state,--no-as-needed -lascend_hal -Wl,--pop-state

$(BUILD)/lib/libruntime.so: $(RT_OBJS) $(BUILD)/lib/libascend_hal.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libruntime.so -o $@ $(RT_OBJS) \
		$(HAL_NEEDED) -Wl,-rpath,'$$ORIGIN' -lpthread

$(BUILD)/lib/libascendcl.so: $(ACL_OBJS) $(BUILD)/lib/libruntime.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libascendcl.so -o $@ $(ACL_OBJS) \
		-L$(BUILD)/lib -lruntime $(HAL_NEEDED) -Wl,-rpath,'$$ORIGIN' -ljansson -lpthread

$(BUILD)/bin/ai_task: $(APP_SRCS) $(BUILD)/lib/libascendcl.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_CFLAGS) -o $@ $(APP_SRCS) -L$(BUILD)/lib -lascendcl $(ACL_LINK) -Wl,-rpath,'$$ORIGIN/../lib' -ljansson -lpthread

# The wrapper that starts ai_task ranks with &, next to the binary it runs.
$(BUILD)/bin/run_ranks.sh: sim/app/run_ranks.sh
	@mkdir -p $(@D)
	install -m 0755 $< $@

sim: $(BUILD)/lib/libascend_hal.so $(BUILD)/lib/libruntime.so $(BUILD)/lib/libascendcl.so $(BUILD)/bin/ai_task $(BUILD)/bin/run_ranks.sh

# Host unit tests: one program per behaviour.
$(BUILD)/tests/%: tests/unit/%.c $(MSPROF_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_CFLAGS) -Itests/unit -Itools/msprof -Itools/export -MMD -MP -o $@ $< $(MSPROF_LIBS) $(LDLIBS_MSPROF)

$(EXPORT_TEST_BINS): $(BUILD)/tests/%: tests/unit/%.c $(EXPORT_LIB) $(BUILD)/lib/libnpuprof_prof.a
	@mkdir -p $(@D)
	$(CC) $(EXPORT_CFLAGS) -Itests/unit -MMD -MP -o $@ $< $(LDLIBS_EXPORT)

# The wire codec's own tests: that library and libc, nothing else.
$(WIRE_TEST_BINS): $(BUILD)/tests/%: wire/tests/%.c $(WIRE_LIB)
	@mkdir -p $(@D)
	$(CC) $(WIRE_CFLAGS) -Itests/unit -o $@ $< $(WIRE_LIB)

# Stand-in libraries for the ELF symbol tests (tests/unit/acl_lib_fixture.c).
FIXTURE_LIBS := $(foreach v,partial required pastend,$(BUILD)/tests/fixtures/libacl_$(v).so)
$(BUILD)/tests/fixtures/libacl_%.so: tests/unit/acl_lib_fixture.c
	@mkdir -p $(@D)
	$(CC) -O0 -g -shared -fPIC -DFIXTURE_$* -o $@ $<

# The stand-in libascend_hal.so of the device-log reader's tests
# (tests/unit/fake_ascend_hal.h).
FAKE_HAL := $(BUILD)/tests/fixtures/libascend_hal.so
$(FAKE_HAL): tests/unit/fake_ascend_hal.c tests/unit/fake_ascend_hal.h include/npuprof/drv/ascend_hal_abi.h
	@mkdir -p $(@D)
	$(CC) -O1 -g -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -shared -fPIC \
		-fvisibility=hidden -Iinclude -Itests/unit -o $@ $<

# A stand-in libascend_hal.so for the submit uprobe's VM test (tests/unit/hal_lib_fixture.c).
HAL_FIXTURE := $(BUILD)/tests/fixtures/hal/libascend_hal.so
$(HAL_FIXTURE): tests/unit/hal_lib_fixture.c
	@mkdir -p $(@D)
	$(CC) -O0 -g -shared -fPIC -o $@ $<

# Programs the VM tests run inside the guest (tests/vm/*.c).
VM_SRCS := $(sort $(wildcard tests/vm/*.c))
VM_BINS := $(VM_SRCS:tests/vm/%.c=$(BUILD)/tests/vm/%)
# The shared test headers too: a changed helper must not leave a stale test.
$(BUILD)/tests/vm/%: tests/vm/%.c $(wildcard tests/vm/*.h) $(BUILD)/lib/libnpuprof.a $(BUILD)/lib/libascendcl.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_CFLAGS) -Itests/unit -o $@ $< $(BUILD)/lib/libnpuprof.a -L$(BUILD)/lib -lascendcl $(ACL_LINK) -Wl,-rpath,'$$ORIGIN/../../lib' $(LDLIBS_NPUPROF)
# The HAL test calls the runtime and the HAL themselves (rt*, hal*, prof_*).
$(BUILD)/tests/vm/hal_channel: tests/vm/hal_channel.c $(BUILD)/lib/libascendcl.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_CFLAGS) -Iinclude/npuprof/drv -Itests/unit -o $@ $< -L$(BUILD)/lib -lruntime -lascend_hal $(ACL_LINK) -Wl,-rpath,'$$ORIGIN/../../lib' -lpthread
# The stand-in for a container's default seccomp profile: libseccomp only.
$(BUILD)/tests/vm/seccomp_deny: tests/vm/seccomp_deny.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $< -lseccomp

# make bench's programs: linked like the tests, with the runtime library.
$(BUILD)/bench/%: bench/src/%.c $(wildcard bench/src/*.h) $(BUILD)/lib/libnpuprof.a $(BUILD)/lib/libascendcl.so $(BENCH_SKELS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_CFLAGS) -Ibench/src -o $@ $< $(BUILD)/lib/libnpuprof.a -L$(BUILD)/lib -lascendcl $(ACL_LINK) -Wl,-rpath,'$$ORIGIN/../lib' $(LDLIBS_NPUPROF)

# P1 calls the submit fixture's halSqTaskSend, P2 reads the device-log stand-in.
bench-progs: $(BENCH_BINS) $(FAKE_HAL) $(HAL_FIXTURE)

tests-unit: $(UNIT_BINS) $(FIXTURE_LIBS) $(FAKE_HAL) $(HAL_FIXTURE) $(WIRE_TEST_BINS)

tests: tests-unit $(VM_BINS)

# The host unit tests again, under AddressSanitizer and UBSan, in their
# own build directory; tests/run.sh runs them as asan/test_*.  (The
# runtime library and msprof too: some tests load or run them.)
ASAN_BUILD := build-asan
asan: bpf
	$(MAKE) BUILD=$(ASAN_BUILD) BPF_DIR=$(abspath $(BPF_DIR)) \
		SANFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer" \
		$(ASAN_BUILD)/lib/libascendcl.so tools tests-unit

demo: deps
	$(MAKE) all
	scripts/demo.sh

# The arm64 smoke (tests/platform/smoke_arm64_6_1.sh) needs its cross
# build: ~1.5 min on 2 cores, the smoke itself ~30 s.
# make check builds with one job per core (CI calls plain `make check`).
CHECK_JOBS ?= $(shell nproc)
check: deps
	$(MAKE) -j$(CHECK_JOBS) all
	$(MAKE) -j$(CHECK_JOBS) smoke-target-modules
	$(MAKE) -j$(CHECK_JOBS) asan
	$(MAKE) -j$(CHECK_JOBS) target TARGET=arm64-6.1 TARGET_GOALS="tools sim"
	$(MAKE) -j$(CHECK_JOBS) target-modules TARGET=arm64-6.1
	tests/run.sh

# Builds for the other VM targets.  An arm64 target: this Makefile again
# with Debian's cross compiler and the :arm64 libraries (multiarch, found by
# aarch64-linux-gnu-gcc without pkg-config), BPF objects for arm64 against
# the vmlinux.h of that target's kernel (scripts/gen-vmlinux-h.sh follows
# NPUPROF_VM_TARGET); the unit tests are built too (they run on arm64
# hardware, not under the amd64 host).
TARGET ?=
TARGET_BUILD := build/target/$(TARGET)
TARGET_DEB_ARCH = $(shell scripts/vm-kernel.sh --target '$(TARGET)' arch)
CROSS_arm64 := aarch64-linux-gnu-
# What `make target` builds; make check's arm64 smoke needs only the tools
# and the simulated runtime and app.
TARGET_GOALS ?= bpf libs tools sim tests bench-progs
BPF_ARCH_arm64 := arm64

target:
	@test -n "$(TARGET)" || { echo "make target: say which, e.g. TARGET=arm64-6.1 (scripts/vm-kernel.sh targets)" >&2; exit 1; }
	@test -n "$(CROSS_$(TARGET_DEB_ARCH))" || { echo "make target: TARGET=$(TARGET): nothing to cross-build for $(TARGET_DEB_ARCH) (make target-modules builds its modules)" >&2; exit 1; }
	NPUPROF_VM_TARGET=$(TARGET) $(MAKE) BUILD=$(TARGET_BUILD) \
		CC=$(CROSS_$(TARGET_DEB_ARCH))gcc AR=$(CROSS_$(TARGET_DEB_ARCH))ar \
		BPF_ARCH=$(BPF_ARCH_$(TARGET_DEB_ARCH)) \
		$(TARGET_GOALS)

# The soak and the fuzz test at full size take long under TCG (see README).
# Every VM suite on arm64 too (arm64-6.1, TCG).
# MATRIX_TARGETS: the other VM targets every VM suite runs on
# (tests/matrix.sh; make check covers the default kernel).
MATRIX_TARGETS ?= amd64-5.10 amd64-6.12 arm64-6.1 arm64-6.12-16k
check-all: check
	tests/run.sh --bench
	tests/run.sh --pkg
	tests/matrix.sh $(MATRIX_TARGETS)
	E2E_SOAK_CYCLES=200 E2E_SOAK_LOADS=50 NPUPROF_VM_TEST_TIMEOUT=3600 \
		tests/run.sh --vm e2e/soak
	NPUPROF_FUZZ_CALLS=$${NPUPROF_FUZZ_CALLS:-200000} NPUPROF_VM_TEST_TIMEOUT=3600 \
		tests/run.sh --vm vm/kfuzz
	# a PROF dir of just over 1,000,000 tasks, with msprof's own CSV
	# rollover and timeline slice sizes, each slice parsed as JSON: what
	# make check's C scan of the same export (test_export_big_msprof.c)
	# does not do
	NPUPROF_BIG_TASKS=1000003 timeout 1800 build/tests/test_export_big

# Figures, not pass/fail: see bench/run.sh (BENCH_ARGS: e.g. --only P1,P3).
bench: deps
	$(MAKE) all
	bench/run.sh $(BENCH_ARGS)

# Installation: GNU directory variables, each overridable; DESTDIR stages
# the whole tree elsewhere (packaging, tests/host/install.sh).  Install
# builds nothing that `make` would not: it needs the tools and libnpuprof.a
# as `make tools libs` left them.  No BPF object is installed: bpftool's
# skeleton embeds bpf/acl_trace.bpf.c's object in libnpuprof, so msprof
# carries its programs wherever it is copied and has no file to look up.
# npuprof.ko is installed as DKMS source (kmod/dkms.conf.in), built by dkms
# for each kernel the host installs, rather than as a .ko for KDIR.
VERSION := 0.1.0
PREFIX ?= /usr/local
EXEC_PREFIX ?= $(PREFIX)
BINDIR ?= $(EXEC_PREFIX)/bin
LIBDIR ?= $(EXEC_PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATAROOTDIR ?= $(PREFIX)/share
DATADIR ?= $(DATAROOTDIR)
MANDIR ?= $(DATAROOTDIR)/man
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# With PREFIX=/usr this is /usr/src/npuprof-VERSION, where `dkms add -m
# npuprof -v VERSION` looks; elsewhere give dkms add the directory.
DKMSDIR ?= $(PREFIX)/src/npuprof-$(VERSION)
INSTALL ?= install

INSTALL_BINS := $(BUILD)/bin/msprof $(BUILD)/bin/npuprof-dump
# The library's public headers: the shared ABI (include/npuprof) and the
# user library's two layers (user/include/{prof,recorder}/npuprof) share
# the npuprof/ prefix already.  The tools' plumbing (messages, names as
# text, the PROF dir's safe opens, the loss JSON and the control files'
# JSON, both in jansson's types, libbpf's log hook, clock reads) and
# the driver backends' tracepoint headers and driver ABIs (drv/), with the
# device-log reader and libascend_hal.so's loader that speak one of those
# (ascend_hal.h, devlog.h), are not installed: the tools and tests include
# them from the tree.
PRIVATE_HEADERS := msg.h bpf_log.h name_text.h prof_fs.h loss_json.h prof_control.h clock.h \
	ascend_hal.h devlog.h
INSTALL_HEADERS := $(sort $(filter-out $(addprefix %/,$(PRIVATE_HEADERS)), \
	$(wildcard include/npuprof/*.h user/include/*/npuprof/*.h)))
MAN_PAGES := $(sort $(wildcard man/*.1))
# What `dkms build` needs to build npuprof.ko alone: kmod/ (not the
# modpost output of an in-tree build) and the ABI headers it includes.
DKMS_SRCS := kmod/Kbuild $(filter-out %.mod.c,$(sort $(wildcard kmod/*.c kmod/*.h))) \
	$(sort $(wildcard include/npuprof/*.h include/npuprof/drv/*.h))

install: $(INSTALL_BINS) $(BUILD)/lib/libnpuprof.a dkms-src
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/npuprof $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	$(INSTALL) -m 0755 $(INSTALL_BINS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 0644 $(BUILD)/lib/libnpuprof.a $(DESTDIR)$(LIBDIR)/
	$(INSTALL) -m 0644 $(INSTALL_HEADERS) $(DESTDIR)$(INCLUDEDIR)/npuprof/
	$(INSTALL) -m 0644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/
	$(INSTALL) -m 0644 completion/msprof.bash $(DESTDIR)$(BASHCOMPDIR)/msprof
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|' user/npuprof.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/npuprof.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/npuprof.pc

dkms-src:
	for f in $(DKMS_SRCS); do $(INSTALL) -D -m 0644 $$f $(DESTDIR)$(DKMSDIR)/$$f || exit 1; done
	sed 's|@VERSION@|$(VERSION)|' kmod/dkms.conf.in >$(DESTDIR)$(DKMSDIR)/dkms.conf
	chmod 0644 $(DESTDIR)$(DKMSDIR)/dkms.conf

# Directories are removed only when they are npuprof's own and empty.
uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(INSTALL_BINS))) \
		$(DESTDIR)$(LIBDIR)/libnpuprof.a $(DESTDIR)$(PKGCONFIGDIR)/npuprof.pc \
		$(addprefix $(DESTDIR)$(INCLUDEDIR)/npuprof/,$(notdir $(INSTALL_HEADERS))) \
		$(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MAN_PAGES))) \
		$(DESTDIR)$(BASHCOMPDIR)/msprof \
		$(addprefix $(DESTDIR)$(DKMSDIR)/,$(DKMS_SRCS) dkms.conf)
	for d in $(INCLUDEDIR)/npuprof $(DKMSDIR)/kmod $(DKMSDIR)/include/npuprof/drv \
		$(DKMSDIR)/include/npuprof $(DKMSDIR)/include $(DKMSDIR); do \
		rmdir $(DESTDIR)$$d 2>/dev/null || true; done

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/tests/kmod/tp_stub clean

include tests/fuzz/fuzz.mk

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
