# The recording reader's fuzz target (tests/fuzz). Included by the top Makefile.
# make fuzz [FUZZ_SECS=N]: build it, seed a corpus from synthetic recordings
# (and a real one when run as root), fuzz for N seconds; crashes land in build/fuzz/.

FUZZ_CC    ?= clang
FUZZ_SECS  ?= 300
FUZZ_DIR   := $(BUILD)/fuzz
FUZZ_BIN   := $(FUZZ_DIR)/fuzz_recording
FUZZ_SRCS  := collector/json_reader.c collector/zstream.c collector/recording.c \
	collector/snapshot_diff.c collector/snapshot.c collector/snapshot_json.c \
	collector/json_writer.c collector/u64map.c

.PHONY: fuzz fuzz-build fuzz-corpus

$(FUZZ_BIN): tests/fuzz/fuzz_recording.c $(FUZZ_SRCS) $(wildcard collector/*.h)
	$(call msg,FUZZ-CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(FUZZ_CC) -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-D_GNU_SOURCE -Icollector -o $@ tests/fuzz/fuzz_recording.c $(FUZZ_SRCS) -lz -lzstd

fuzz-build: $(FUZZ_BIN)

fuzz-corpus: $(BUILD)/tests/bench/bench_recording
	$(Q)tests/fuzz/seed.sh $(FUZZ_DIR)/corpus

fuzz: fuzz-build fuzz-corpus
	$(Q)cd $(FUZZ_DIR) && ./fuzz_recording -max_total_time=$(FUZZ_SECS) -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 corpus
