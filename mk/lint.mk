# make lint: the repository's rules (layers' includes, README length, the man page,
# references, test scripts' tap_check, the C sources' format) as the TAP test
# tests/lint/lint.t, which make check runs too. Exits non-zero when a rule is broken.
# make format-check: only the format rule, naming every C file clang-format would
# change (.clang-format says how; .clang-format-ignore lists what it skips).
# Included by the Makefile.

.PHONY: format-check

lint:
	$(Q)LRS_ROOT=$(CURDIR) tests/lint/lint.t

format-check:
	$(Q)out=$$($(PYTHON) tests/lint/format_check.py $(CURDIR)); rc=$$?; \
	if [ $$rc -eq 1 ]; then \
		echo "format-check: clang-format would change these files (clang-format -i FILE):" >&2; \
		printf '%s\n' "$$out" | sed 's/^/  /' >&2; exit 1; \
	elif [ $$rc -ne 0 ]; then echo "format-check: $$out" >&2; exit 1; fi
