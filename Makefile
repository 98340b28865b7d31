# lruscope: make (build), make check, make demo, make bench, make deps.
# Quiet by default; V=1 shows the commands. All outputs go under build/.

BUILD      := build
LRS_CACHE  ?= /var/cache/lruscope
PYTHON     := /usr/bin/python3
PREFIX     ?= /usr/local
CLANG      ?= clang
BPFTOOL    ?= bpftool
CC         ?= gcc
ARCH       := $(shell uname -m | sed 's/x86_64/x86/;s/aarch64/arm64/')

ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.DELETE_ON_ERROR:
.SECONDARY:
.DEFAULT_GOAL := all
export LRS_CACHE

CFLAGS_COMMON := -std=gnu11 -g -O2 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-I$(BUILD) -Icollector -Iui -Icli -D_GNU_SOURCE
CFLAGS  ?=
LDLIBS  := -lbpf -lelf -lz -lzstd -lncursesw -ltinfo -lSDL2 -lSDL2_ttf -lm

BPF_SRCS   := $(wildcard bpf/*.bpf.c)
BPF_OBJS   := $(patsubst bpf/%.bpf.c,$(BUILD)/bpf/%.bpf.o,$(BPF_SRCS))
BPF_SKELS  := $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))
LIB_SRCS   := $(wildcard collector/*.c ui/*.c)
LIB_OBJS   := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
CLI_SRCS   := $(wildcard cli/*.c)
CLI_OBJS   := $(patsubst %.c,$(BUILD)/obj/%.o,$(CLI_SRCS))
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))
TEST_SUPPORT_SRCS := $(wildcard tests/unit/support/*.c)

.PHONY: all deps deps-check check unit bench demo install clean fuzz

all: deps-check $(BUILD)/lruscope

# Every target that builds calls this: it installs what is missing.
deps-check:
	$(Q)mk/deps.sh 2>/dev/null || $(MAKE) --no-print-directory deps

deps:
	$(Q)mk/deps.sh --install

$(BUILD)/vmlinux.h:
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(@D)
	$(Q)if [ ! -r /sys/kernel/btf/vmlinux ]; then \
		echo "vmlinux.h: /sys/kernel/btf/vmlinux is missing: this kernel has no BTF (CONFIG_DEBUG_INFO_BTF); lruscope's BPF collector needs it" >&2; exit 1; fi
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

$(BUILD)/bpf/%.bpf.o: bpf/%.bpf.c $(wildcard bpf/*.h) $(BUILD)/vmlinux.h | deps-check
	$(call msg,BPF,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O2 -Wall -target bpf -D__TARGET_ARCH_$(ARCH) -I$(BUILD) -Ibpf -c $< -o $@
	$(Q)llvm-strip -g $@ 2>/dev/null || true

$(BUILD)/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@

$(BUILD)/obj/%.o: %.c $(BPF_SKELS) $(wildcard collector/*.h ui/*.h cli/*.h bpf/*.h) | deps-check
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_COMMON) $(CFLAGS) -c $< -o $@

$(BUILD)/liblruscope.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/lruscope: $(CLI_OBJS) $(BUILD)/liblruscope.a
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $(CLI_OBJS) $(BUILD)/liblruscope.a $(LDLIBS)

$(BUILD)/tests/unit/%: tests/unit/%.c $(TEST_SUPPORT_SRCS) $(BUILD)/liblruscope.a
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_COMMON) $(CFLAGS) -Itests/unit -o $@ $< $(TEST_SUPPORT_SRCS) $(BUILD)/liblruscope.a $(LDLIBS) -lcmocka

unit: deps-check $(UNIT_BINS)

# The README's test command: unit tests, live-kernel tests, TUI/GUI tests, the lab VM.
check: all unit
	$(Q)LRS_ROOT=$(CURDIR) LRS_BUILD=$(abspath $(BUILD)) LRS_BIN=$(abspath $(BUILD))/lruscope \
		tests/run-all.sh

# The README's main command.
demo: all
	$(Q)$(BUILD)/lruscope demo

BENCH_BINS := $(patsubst tests/bench/%.c,$(BUILD)/tests/bench/%,$(wildcard tests/bench/*.c))

bench: all $(BENCH_BINS)
	$(Q)LRS_ROOT=$(CURDIR) LRS_BUILD=$(abspath $(BUILD)) LRS_BIN=$(abspath $(BUILD))/lruscope \
		tests/bench/run.sh

$(BUILD)/tests/bench/%: tests/bench/%.c $(TEST_SUPPORT_SRCS) $(BUILD)/liblruscope.a
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS_COMMON) $(CFLAGS) -Itests/unit -o $@ $< $(TEST_SUPPORT_SRCS) $(BUILD)/liblruscope.a $(LDLIBS)

install: all
	$(Q)install -D -m 0755 $(BUILD)/lruscope $(DESTDIR)$(PREFIX)/bin/lruscope
	$(Q)mkdir -p $(DESTDIR)$(PREFIX)/share/lruscope/drgn-scripts
	$(Q)install -m 0644 drgn-scripts/*.py $(DESTDIR)$(PREFIX)/share/lruscope/drgn-scripts/ 2>/dev/null || true

clean:
	$(Q)rm -rf $(BUILD)

-include $(wildcard mk/*.mk)
