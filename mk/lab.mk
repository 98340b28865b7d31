# The lab VM for the drgn scripts (tests/lab, drgn-scripts). Included by the top Makefile.
# Downloads and images live under $(LRS_CACHE)/lab, never in the repository.

LAB_TESTS := $(sort $(wildcard tests/lab/*.t))
DRGN_TESTS := $(sort $(wildcard tests/drgn/*.t))

.PHONY: lab-check lab-bench lab-fetch lab-demo

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
	@# kernel memory of a running lruscope at 2, 26 and 104 CPUs: on a load, with its maps full
	$(Q)LRS_CACHE=$(LRS_CACHE) LRS_BIN=$(abspath $(BUILD))/lruscope $(PYTHON) tests/lab/lib/kmem_bench.py
	@# throughput with lruscope, --holders, perf lock and bpftrace over none, where waits are traced
	$(Q)LRS_CACHE=$(LRS_CACHE) LRS_BIN=$(abspath $(BUILD))/lruscope $(PYTHON) tests/lab/lib/throughput_bench.py
	@# holders: the estimate against exact mode (fentry) in the 6.1 guest, one run
	$(Q)LRS_CACHE=$(LRS_CACHE) LRS_BIN=$(abspath $(BUILD))/lruscope $(PYTHON) tests/lab/holders.t \
		| grep -E "^# run [0-9]|# SKIP|^not ok" || true

# The per-memcg lru_lock patchset on its two real kernels: Debian's 5.10 and 6.1 in identical
# lab guests, the same containers under lruscope record in each, side by side; recordings,
# pictures and the summary in build/lab-demo. LAB_DEMO_ARGS: e.g. --rounds 5 --containers 8.
lab-demo:
	$(Q)mk/deps.sh --install
	$(Q)$(MAKE) --no-print-directory all
	$(Q)LRS_CACHE=$(LRS_CACHE) $(PYTHON) tests/lab/lib/lab_demo.py --lruscope $(abspath $(BUILD))/lruscope \
		--out $(abspath $(BUILD))/lab-demo $(LAB_DEMO_ARGS)
