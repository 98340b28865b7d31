# The GUI's bench binary: 'make bench' runs every build/tests/bench/* (tests/bench/run.sh).
bench: $(BUILD)/tests/bench/bench_gui
