# make lint: the repository's rules (layers' includes, README length, the man page,
# references, test scripts' tap_check) as the TAP test tests/lint/lint.t, which
# make check runs too. Exits non-zero when a rule is broken. Included by the Makefile.

lint:
	$(Q)LRS_ROOT=$(CURDIR) tests/lint/lint.t
