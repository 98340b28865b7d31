// SPDX-License-Identifier: GPL-2.0
/*
 * The spinlock source for each kernel answer (collector/live/spin_choice.h):
 * the kind judged from what can be read, and the source each request gets on
 * each kind, with the tracepoint present or not and the slowpath hooks loaded
 * or not.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "collector/live/spin_choice.h"

#define KVM_LOG "<6>[    0.094787] kvm-guest: PV spinlocks enabled\n<6>[    0.1] other\n"

static void judge(int key_on, int pv, int hyp, const char *klog, struct lrs_spin_facts *f)
{
	struct lrs_spin_evidence e = {
		.key_on = key_on, .pv_slowpath = pv, .hypervisor = hyp, .klog = klog
	};

	memset(f, 0, sizeof(*f));
	lrs_spin__judge_kind(&e, f);
}

static void test_kind_from_the_static_key(void **state)
{
	struct lrs_spin_facts f;

	judge(1, -1, 1, NULL, &f);
	assert_int_equal(f.kind, LRS_SPINLOCKS_TAS);
	assert_non_null(strstr(f.kind_why, "sure: virt_spin_lock_key is on"));
	judge(0, 1, 1, NULL, &f);
	assert_int_equal(f.kind, LRS_SPINLOCKS_PARAVIRT);
	judge(0, 0, 1, KVM_LOG, &f); /* the key beats the log */
	assert_int_equal(f.kind, LRS_SPINLOCKS_NATIVE);
	assert_non_null(strstr(f.kind_why, "sure:"));
}

static void test_kind_from_cpu_flags_and_the_log(void **state)
{
	struct lrs_spin_facts f;

	judge(-1, -1, 0, NULL, &f);
	assert_int_equal(f.kind, LRS_SPINLOCKS_NATIVE);
	assert_string_equal(f.kind_why, "sure: no hypervisor CPU flag");
	judge(-1, -1, 1, KVM_LOG, &f);
	assert_int_equal(f.kind, LRS_SPINLOCKS_PARAVIRT);
	assert_string_equal(f.kind_why, "kernel log: \"kvm-guest: PV spinlocks enabled\"");
	judge(-1, -1, 1, "[ 0.1] kvm-guest: PV spinlocks disabled, no host support\n", &f);
	assert_int_equal(f.kind, LRS_SPINLOCKS_TAS);
	judge(-1, -1, 1, "[ 0.1] kvm-guest: PV spinlocks disabled with KVM_HINTS_REALTIME hints\n",
	      &f);
	assert_int_equal(f.kind, LRS_SPINLOCKS_NATIVE);
	judge(-1, -1, 1, "[ 0.1] nothing about spinlocks\n", &f);
	assert_int_equal(f.kind, LRS_SPINLOCKS_TAS);
	assert_non_null(strstr(f.kind_why, "probably"));
	judge(-1, -1, 1, NULL, &f);
	assert_int_equal(f.kind, LRS_SPINLOCKS_UNSURE);
}

static struct lrs_spin_facts facts(enum lrs_spinlock_kind kind, bool tp, bool sp)
{
	struct lrs_spin_facts f = { .kind = kind, .tracepoint = tp, .slowpath = sp };

	snprintf(f.kind_why, sizeof(f.kind_why), "test");
	snprintf(f.slowpath_why, sizeof(f.slowpath_why), "fentry refused");
	return f;
}

static int choose(enum lrs_spin_request req, struct lrs_spin_facts f, struct lrs_spin_source *out,
		  char *err)
{
	return lrs_spin__choose(req, &f, out, err, 256);
}

static void test_auto_on_each_kind(void **state)
{
	struct lrs_spin_source s;
	char err[256];

	/* paravirt with the tracepoint: it sees every waiter, the slow path is not tried */
	assert_false(lrs_spin__want_slowpath(
		LRS_SPIN_ASK_AUTO,
		&(struct lrs_spin_facts){ .kind = LRS_SPINLOCKS_PARAVIRT, .tracepoint = true }));
	assert_int_equal(
		choose(LRS_SPIN_ASK_AUTO, facts(LRS_SPINLOCKS_PARAVIRT, true, false), &s, err), 0);
	assert_int_equal(s.name, LRS_SPIN_TRACEPOINT);
	assert_true(s.first_waiter);
	/* the tracepoint's blind spots: the slow path where it loads */
	for (int k = LRS_SPINLOCKS_UNSURE; k <= LRS_SPINLOCKS_TAS; k++) {
		if (k == LRS_SPINLOCKS_PARAVIRT)
			continue;
		assert_true(lrs_spin__want_slowpath(
			LRS_SPIN_ASK_AUTO,
			&(struct lrs_spin_facts){ .kind = k, .tracepoint = true }));
		assert_int_equal(choose(LRS_SPIN_ASK_AUTO, facts(k, true, true), &s, err), 0);
		assert_int_equal(s.name, LRS_SPIN_SLOWPATH);
		assert_true(s.first_waiter);
	}
	/* no tracepoint (before 5.19): the slow path, even on paravirt */
	assert_int_equal(
		choose(LRS_SPIN_ASK_AUTO, facts(LRS_SPINLOCKS_PARAVIRT, false, true), &s, err), 0);
	assert_int_equal(s.name, LRS_SPIN_SLOWPATH);
	assert_non_null(strstr(s.why, "no contention tracepoint"));
}

static void test_auto_where_the_slow_path_cannot_load(void **state)
{
	struct lrs_spin_source s;
	char err[256];

	/* test-and-set: nothing sees spinlock waits, and it says so */
	assert_int_equal(choose(LRS_SPIN_ASK_AUTO, facts(LRS_SPINLOCKS_TAS, true, false), &s, err),
			 0);
	assert_int_equal(s.name, LRS_SPIN_NONE);
	assert_false(s.first_waiter);
	assert_non_null(strstr(s.why, "fentry refused"));
	assert_non_null(strstr(s.why, "sleeping locks are still seen"));
	/* native: the tracepoint, without first waiters */
	assert_int_equal(
		choose(LRS_SPIN_ASK_AUTO, facts(LRS_SPINLOCKS_NATIVE, true, false), &s, err), 0);
	assert_int_equal(s.name, LRS_SPIN_TRACEPOINT);
	assert_false(s.first_waiter);
	assert_non_null(strstr(s.why, "first waiter"));
	/* neither source: an error that names both */
	assert_int_equal(choose(LRS_SPIN_ASK_AUTO, facts(LRS_SPINLOCKS_NATIVE, false, false), &s,
				err),
			 -ENOTSUP);
	assert_non_null(strstr(err, "5.19"));
	assert_non_null(strstr(err, "fentry refused"));
}

static void test_asked_sources(void **state)
{
	struct lrs_spin_source s;
	char err[256] = "";

	assert_int_equal(choose(LRS_SPIN_ASK_SLOWPATH, facts(LRS_SPINLOCKS_PARAVIRT, true, false),
				&s, err),
			 -ENOTSUP);
	assert_non_null(strstr(err, "--spin-source slowpath"));
	assert_non_null(strstr(err, "fentry refused"));
	assert_int_equal(choose(LRS_SPIN_ASK_SLOWPATH, facts(LRS_SPINLOCKS_PARAVIRT, true, true),
				&s, err),
			 0);
	assert_int_equal(s.name, LRS_SPIN_SLOWPATH);
	assert_false(lrs_spin__want_slowpath(
		LRS_SPIN_ASK_TRACEPOINT, &(struct lrs_spin_facts){ .kind = LRS_SPINLOCKS_TAS }));
	assert_int_equal(
		choose(LRS_SPIN_ASK_TRACEPOINT, facts(LRS_SPINLOCKS_TAS, true, true), &s, err), 0);
	assert_int_equal(s.name, LRS_SPIN_NONE);
	assert_int_equal(choose(LRS_SPIN_ASK_TRACEPOINT, facts(LRS_SPINLOCKS_NATIVE, true, true),
				&s, err),
			 0);
	assert_int_equal(s.name, LRS_SPIN_TRACEPOINT);
	assert_false(s.first_waiter);
	assert_int_equal(choose(LRS_SPIN_ASK_TRACEPOINT, facts(LRS_SPINLOCKS_NATIVE, false, true),
				&s, err),
			 -ENOTSUP);
	assert_non_null(strstr(err, "--spin-source tracepoint"));
}

static void test_request_names(void **state)
{
	assert_int_equal(lrs_spin_request__parse("auto"), LRS_SPIN_ASK_AUTO);
	assert_int_equal(lrs_spin_request__parse("tracepoint"), LRS_SPIN_ASK_TRACEPOINT);
	assert_int_equal(lrs_spin_request__parse("slowpath"), LRS_SPIN_ASK_SLOWPATH);
	assert_int_equal(lrs_spin_request__parse("kprobe"), -1);
	assert_int_equal(lrs_spin_name__parse("none"), LRS_SPIN_NONE);
	assert_null(lrs_spin_name__str(LRS_SPIN_UNKNOWN));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind_from_the_static_key),
		cmocka_unit_test(test_kind_from_cpu_flags_and_the_log),
		cmocka_unit_test(test_auto_on_each_kind),
		cmocka_unit_test(test_auto_where_the_slow_path_cannot_load),
		cmocka_unit_test(test_asked_sources),
		cmocka_unit_test(test_request_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
