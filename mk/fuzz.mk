# The recording reader's fuzz target (tests/fuzz). Included by the top Makefile.
# make fuzz [FUZZ_SECS=N]: build it, seed a corpus from synthetic recordings
# (and a real one when run as root), fuzz for N seconds; crashes land in build/fuzz/.

FUZZ_CC    ?= clang
FUZZ_SECS  ?= 300
FUZZ_DIR   := $(BUILD)/fuzz
FUZZ_BIN   := $(FUZZ_DIR)/fuzz_recording
# the recording reader and the model under it: no libbpf, no screens
FUZZ_SRCS  := $(replay_SRCS) $(model_SRCS)

.PHONY: fuzz fuzz-build fuzz-corpus

$(FUZZ_BIN): tests/fuzz/fuzz_recording.c $(FUZZ_SRCS) $(wildcard collector/replay/*.h model/*.h model/json/*.h)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -I. -o $@ tests/fuzz/fuzz_recording.c $(FUZZ_SRCS) \
		$(replay_LIBS) $(model_LIBS)

fuzz-build: $(FUZZ_BIN)

fuzz-corpus: $(BUILD)/tests/bench/bench_recording
	$(Q)tests/fuzz/seed.sh $(FUZZ_DIR)/corpus

fuzz: fuzz-build fuzz-corpus
	$(Q)cd $(FUZZ_DIR) && ./fuzz_recording -max_total_time=$(FUZZ_SECS) -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus
