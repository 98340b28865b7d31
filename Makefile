# lruscope: make (build only), make deps, make check, make demo, make bench, make install
# (the binary, the man page, the drgn scripts, the bash completion).
# Quiet by default; V=1 shows the commands. GUI=0 builds without SDL2. All outputs go under build/.
# SAN=1 builds with AddressSanitizer and UBSan into build/san/ (the BPF objects as always);
# make SAN=1 unit also runs the unit tests there, stopping at the first sanitizer report.

SAN        ?= 0
BUILD      := build
ifeq ($(SAN),1)
BUILD      := $(BUILD)/san
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
endif
LRS_CACHE  ?= /var/cache/lruscope
PYTHON     := /usr/bin/python3
PREFIX     ?= /usr/local
CLANG      ?= clang
BPFTOOL    ?= bpftool
CC         ?= gcc
PKG_CONFIG ?= pkg-config
GUI        ?= 1
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

# pkg-config where the library ships a .pc file, the plain -l otherwise
pc_libs = $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null || echo $(2))
pc_cflags = $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)

# One include style: every project header by its path from the top ("model/snapshot.h");
# generated headers (vmlinux.h, skeletons) from build/.
CFLAGS_COMMON := -std=gnu11 -g -O2 -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers \
	-I. -I$(BUILD) -D_GNU_SOURCE -DLRS_GUI=$(GUI) -MMD -MP $(SAN_FLAGS)
CFLAGS  ?=
# CPPFLAGS, CFLAGS and LDFLAGS from the environment (dpkg-buildflags) reach every host object
# and link; the BPF objects (clang -target bpf) take none of them.

# ---- layers: one static archive each, linked in this order (a layer uses only those after it) ----
LAYERS := demo export text tui gui ui walk replay live model
ifeq ($(GUI),0)
LAYERS := $(filter-out gui,$(LAYERS))
endif

model_SRCS  := $(wildcard model/*.c model/json/*.c)
live_SRCS   := $(wildcard collector/live/*.c)
replay_SRCS := $(wildcard collector/replay/*.c)
walk_SRCS   := $(wildcard collector/walk/*.c)
ui_SRCS     := $(wildcard ui/*.c)
tui_SRCS    := $(wildcard ui/tui/*.c)
gui_SRCS    := $(wildcard ui/gui/*.c)
text_SRCS   := $(wildcard ui/text/*.c)
export_SRCS := $(wildcard ui/export/*.c)
demo_SRCS   := $(wildcard demo/*.c)

model_LIBS  := -lm
ui_LIBS     := -lm
live_LIBS   := $(call pc_libs,libbpf,-lbpf) $(call pc_libs,libelf,-lelf) $(call pc_libs,zlib,-lz)
replay_LIBS := $(call pc_libs,zlib,-lz) $(call pc_libs,libzstd,-lzstd)
tui_LIBS    := $(call pc_libs,ncursesw,-lncursesw -ltinfo)
export_LIBS := $(call pc_libs,libmicrohttpd,-lmicrohttpd) -lpthread
gui_LIBS    := $(call pc_libs,sdl2,-lSDL2) $(call pc_libs,SDL2_ttf,-lSDL2_ttf) $(call pc_libs,libpng,-lpng)

# compile flags from pkg-config, given to that layer's objects only
live_CFLAGS := $(call pc_cflags,libbpf)
tui_CFLAGS  := $(call pc_cflags,ncursesw)
gui_CFLAGS  := $(call pc_cflags,sdl2 SDL2_ttf libpng)
export_CFLAGS := $(call pc_cflags,libmicrohttpd)

layer_lib  = $(BUILD)/lib/liblrs-$(1).a
# archives and libraries for a list of layers, in link order
layers_ar  = $(foreach l,$(filter $(1),$(LAYERS)),$(call layer_lib,$(l)))
layers_ld  = $(call layers_ar,$(1)) $(foreach l,$(filter $(1),$(LAYERS)),$($(l)_LIBS))

obj_of = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

BPF_SRCS   := $(wildcard bpf/*.bpf.c)
BPF_SKELS  := $(patsubst bpf/%.bpf.c,$(BUILD)/%.skel.h,$(BPF_SRCS))
CLI_SRCS   := $(wildcard cli/*.c)
ALL_OBJS   := $(call obj_of,$(CLI_SRCS) $(foreach l,$(LAYERS),$($(l)_SRCS)))

# What each unit test and bench binary links (tests/unit/support is always in), and
# X_SRCS, X_LIBS: sources and libraries a binary needs beyond its layers'.
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))
ifeq ($(GUI),0)
UNIT_BINS  := $(filter-out %/test_gui_layout %/test_gui_render,$(UNIT_BINS))
endif
TEST_SUPPORT_SRCS := $(wildcard tests/unit/support/*.c)
test_actions_LAYERS      := ui model
test_attribute_LAYERS    := live model
test_bpf_map_read_LAYERS := live model
test_colour_LAYERS       := ui
test_causes_LAYERS       := model
test_compare_LAYERS      := model
test_compare_stats_LAYERS := model
test_clock_LAYERS        := model
test_cpu_list_LAYERS     := live model
test_demo_summary_LAYERS := demo live model
test_export_LAYERS       := export text model
test_gui_layout_LAYERS   := gui ui model
test_gui_render_LAYERS   := gui ui model
test_holders_LAYERS      := model
test_json_LAYERS         := model
test_layout_LAYERS       := ui
test_model_LAYERS        := ui model
test_options_LAYERS      := ui model
test_options_SRCS        := cli/options.c cli/options_man.c cli/util.c
test_percpu_merge_LAYERS := live model
test_memcg_table_fs_LAYERS := live model
test_recording_LAYERS    := text ui replay model
test_sources_LAYERS      := text ui replay live model
test_snapshot_diff_LAYERS := model
test_spin_choice_LAYERS  := live model
test_tui_LAYERS          := tui ui model
test_tui_time_LAYERS     := tui ui model
test_walk_LAYERS         := tui text ui walk model
bench_frames_LAYERS      := tui ui model
bench_gui_LAYERS         := gui ui model
bench_json_LAYERS        := replay model
bench_json_SRCS          := tests/bench/support/bench_jsonc.c
bench_json_LIBS          := $(call pc_libs,jansson,-ljansson) $(call pc_libs,json-c,-ljson-c)
bench_model_LAYERS       := model
bench_recording_LAYERS   := replay model

.PHONY: all deps deps-check check unit bench demo install clean fuzz lint

all: deps-check $(BUILD)/lruscope

# Building never installs: it names what is missing and how to get it.
deps-check:
	$(Q)mk/deps.sh --check-build $(if $(filter 0,$(GUI)),--no-gui)

# Installs every Debian package lruscope needs to build, test and run the demo.
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
	$(Q)llvm-strip -g $@

$(BUILD)/%.skel.h: $(BUILD)/bpf/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$*)_bpf > $@

$(foreach l,$(LAYERS),$(eval $(call obj_of,$($(l)_SRCS)): LAYER_CFLAGS := $($(l)_CFLAGS)))

# Only the live collector includes skeletons: its objects wait for them.
$(call obj_of,$(live_SRCS)): | $(BPF_SKELS)

$(BUILD)/obj/%.o: %.c | deps-check
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS_COMMON) $(LAYER_CFLAGS) $(CFLAGS) -c $< -o $@

define layer_rule
$(call layer_lib,$(1)): $(call obj_of,$($(1)_SRCS))
	$$(call msg,AR,$$@)
	$$(Q)mkdir -p $$(@D)
	$$(Q)rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach l,$(LAYERS),$(eval $(call layer_rule,$(l))))

$(BUILD)/lruscope: $(call obj_of,$(CLI_SRCS)) $(call layers_ar,$(LAYERS))
	$(call msg,LINK,$@)
	$(Q)$(CC) $(SAN_FLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $(call obj_of,$(CLI_SRCS)) $(call layers_ld,$(LAYERS))

# the tests' support code (synthetic snapshots, reading PNGs back, noise): never shipped
TEST_SUPPORT_LIB := $(BUILD)/lib/liblrs-testsupport.a
$(TEST_SUPPORT_LIB): $(call obj_of,$(TEST_SUPPORT_SRCS))
	$(call msg,AR,$@)
	$(Q)mkdir -p $(@D)
	$(Q)rm -f $@ && ar rcs $@ $^

define test_rule
$(BUILD)/tests/$(1)/$(2): tests/$(1)/$(2).c $($(2)_SRCS) $(TEST_SUPPORT_LIB) $(call layers_ar,$($(2)_LAYERS) model)
	$$(call msg,CC,$$@)
	$$(Q)mkdir -p $$(@D)
	$$(Q)$$(CC) $$(CPPFLAGS) $$(CFLAGS_COMMON) $$(CFLAGS) $$(LDFLAGS) -Itests/unit -o $$@ $$< $($(2)_SRCS) $(TEST_SUPPORT_LIB) \
		$(call layers_ld,$($(2)_LAYERS) model) $($(2)_LIBS) \
		$(if $(filter unit,$(1)),$(call pc_libs,cmocka,-lcmocka)) \
		$(if $(filter gui,$($(2)_LAYERS)),$(call pc_libs,libpng,-lpng))
endef
$(foreach t,$(UNIT_BINS),$(eval $(call test_rule,unit,$(notdir $(t)))))

unit: deps-check $(UNIT_BINS)
ifeq ($(SAN),1)
	$(Q)mk/san-unit.sh $(UNIT_BINS)
endif

# The README's test command: installs what is missing, builds, runs every test.
check:
	$(Q)mk/deps.sh --install
	$(Q)$(MAKE) --no-print-directory all unit
	$(Q)LRS_ROOT=$(CURDIR) LRS_BUILD=$(abspath $(BUILD)) LRS_BIN=$(abspath $(BUILD))/lruscope \
		tests/run-all.sh

# The README's main command: installs what is missing, builds, runs the demo.
demo:
	$(Q)mk/deps.sh --install
	$(Q)$(MAKE) --no-print-directory all
	$(Q)$(BUILD)/lruscope demo

BENCH_BINS := $(patsubst tests/bench/%.c,$(BUILD)/tests/bench/%,$(wildcard tests/bench/*.c))
ifeq ($(GUI),0)
BENCH_BINS := $(filter-out %/bench_gui,$(BENCH_BINS))
endif
$(foreach t,$(BENCH_BINS),$(eval $(call test_rule,bench,$(notdir $(t)))))

bench:
	$(Q)mk/deps.sh --install
	$(Q)$(MAKE) --no-print-directory all $(BENCH_BINS)
	$(Q)LRS_ROOT=$(CURDIR) LRS_BUILD=$(abspath $(BUILD)) LRS_BIN=$(abspath $(BUILD))/lruscope \
		tests/bench/run.sh

# the bash completion, written by the program from its option tables
$(BUILD)/lruscope.bash-completion: $(BUILD)/lruscope
	$(call msg,GEN,$@)
	$(Q)$(BUILD)/lruscope completion bash > $@

install: all $(BUILD)/lruscope.bash-completion
	$(Q)install -D -m 0755 $(BUILD)/lruscope $(DESTDIR)$(PREFIX)/bin/lruscope
	$(Q)install -D -m 0644 docs/lruscope.8 $(DESTDIR)$(PREFIX)/share/man/man8/lruscope.8
	$(Q)install -D -m 0644 $(BUILD)/lruscope.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/lruscope
	$(Q)mkdir -p $(DESTDIR)$(PREFIX)/share/lruscope/drgn-scripts
	$(Q)cp -R drgn-scripts/. $(DESTDIR)$(PREFIX)/share/lruscope/drgn-scripts/
	$(Q)find $(DESTDIR)$(PREFIX)/share/lruscope/drgn-scripts -name __pycache__ -prune -exec rm -rf {} +

clean:
	$(Q)rm -rf $(BUILD)

-include $(patsubst %.o,%.d,$(ALL_OBJS) $(call obj_of,$(TEST_SUPPORT_SRCS)))
-include $(wildcard mk/*.mk)
