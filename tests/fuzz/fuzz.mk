# libFuzzer targets, included by the top Makefile.
#
#   make fuzz FUZZ_SECONDS=60    build tests/fuzz/fuzz_*.c with clang
#                                (-fsanitize=fuzzer,address,undefined) in
#                                build-fuzz/, run each for FUZZ_SECONDS from
#                                its seed corpus tests/fuzz/corpus/<name>/;
#                                fails when a target finds a crash
#
# The libraries are rebuilt with clang and the sanitizers in build-fuzz/
# by the rules above (BUILD=build-fuzz); targets that fuzz a file-local
# part of the simulated runtime #include its .c and link the rest of it.

FUZZ_BUILD := build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
		 -fno-omit-frame-pointer

# Objects of the simulated runtime a target links besides the libraries:
# both of its libraries minus the file it includes (and the codec
# libdynprof_wire.a has).
FUZZ_ACL_OBJS = $(filter-out $(WIRE_PIC_OBJS) $(BUILD)/pic/$(1),$(ACL_OBJS) $(RT_OBJS))
FUZZ_OBJS_fuzz_kernel_binary = $(call FUZZ_ACL_OBJS,sim/runtime/acl_kernel.o)

.PHONY: fuzz fuzz-build fuzz-bins

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz_util.h $(MSPROF_LIBS) $(ACL_OBJS) $(RT_OBJS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SIM_CFLAGS) -fsanitize=fuzzer -Itests/unit -Itools/msprof -Itools/export -Isim/runtime -o $@ $< \
		$(FUZZ_OBJS_$*) $(MSPROF_LIBS) $(LDLIBS_MSPROF)

fuzz-bins: $(FUZZ_BINS)

fuzz-build: bpf
	$(MAKE) CC=$(CLANG) BUILD=$(FUZZ_BUILD) BPF_DIR=$(abspath $(BPF_DIR)) \
		SANFLAGS="$(FUZZ_SANFLAGS)" fuzz-bins

fuzz: deps
	$(MAKE) fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)
