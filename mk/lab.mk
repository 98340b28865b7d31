# The lab VM for the drgn scripts (tests/lab, drgn-scripts). Included by the top Makefile.
# Downloads and images live under $(LRS_CACHE)/lab, never in the repository.

LAB_TESTS := $(sort $(wildcard tests/lab/*.t))
DRGN_TESTS := $(sort $(wildcard tests/drgn/*.t))

.PHONY: lab-check lab-bench lab-fetch

# LAB_KERNEL=5.10: bullseye's kernel (one lru_lock per node) instead of this machine's suite's
lab-fetch:
	$(Q)tests/lab/lib/fetch-kernel.sh $(LRS_CACHE)/lab $(LAB_KERNEL) >/dev/null

# the synthetic-program tests and the lab tests, through the project's runner
lab-check:
	$(Q)LRS_CACHE=$(LRS_CACHE) tests/run-all.sh tests/drgn/
	$(Q)LRS_CACHE=$(LRS_CACHE) tests/run-all.sh tests/lab/

# walk throughput on the lab vmcore: folios/s, memcgs/s, time to enumerate 1,000 memcgs
lab-bench:
	$(Q)LRS_CACHE=$(LRS_CACHE) $(PYTHON) tests/lab/lib/bench.py
	@# spin sources: BPF ns per wait, tracepoint and slowpath on the same waits (6.1 guest)
	$(Q)LRS_CACHE=$(LRS_CACHE) LRS_BIN=$(abspath $(BUILD))/lruscope $(PYTHON) tests/lab/lib/spin_bench.py \
		| grep -E "cost|^not ok|skipped" || true
	@# holders: the estimate against exact mode (fentry) in the 6.1 guest, one run
	$(Q)LRS_CACHE=$(LRS_CACHE) LRS_BIN=$(abspath $(BUILD))/lruscope $(PYTHON) tests/lab/holders.t \
		| grep -E "^# run [0-9]|# SKIP|^not ok" || true
