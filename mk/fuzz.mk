# The recording reader's fuzz target (tests/fuzz). Included by the top Makefile.
# make fuzz [FUZZ_SECS=N]: build it, seed a corpus from synthetic recordings
# (and a real one when run as root), fuzz for N seconds; crashes land in build/fuzz/.

FUZZ_CC    ?= clang
FUZZ_SECS  ?= 300
FUZZ_DIR   := $(BUILD)/fuzz
FUZZ_BIN   := $(FUZZ_DIR)/fuzz_recording
# the whole collector, so a new module the snapshot code calls needs no edit here
FUZZ_SRCS  := $(wildcard collector/*.c)

.PHONY: fuzz fuzz-build fuzz-corpus

$(FUZZ_BIN): tests/fuzz/fuzz_recording.c $(FUZZ_SRCS) $(wildcard collector/*.h) $(BPF_SKELS)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -I$(BUILD) -Icollector -o $@ tests/fuzz/fuzz_recording.c $(FUZZ_SRCS) \
		-lbpf -lelf -lz -lzstd -lm

fuzz-build: $(FUZZ_BIN)

fuzz-corpus: $(BUILD)/tests/bench/bench_recording
	$(Q)tests/fuzz/seed.sh $(FUZZ_DIR)/corpus

fuzz: fuzz-build fuzz-corpus
	$(Q)cd $(FUZZ_DIR) && ./fuzz_recording -max_total_time=$(FUZZ_SECS) -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus
