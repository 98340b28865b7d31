// SPDX-License-Identifier: GPL-2.0
/*
 * The holders' scan covers one more than the highest online CPU: the kernel's
 * CPU-list syntax read right, a list it cannot have refused. And this
 * machine's own online list, read from sysfs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>
#include <cmocka.h>

#include "collector/live/cpu_list.h"

static void test_span_of_kernel_lists(void **state)
{
	(void)state;
	assert_int_equal(lrs_cpu_list__span("0\n"), 1);
	assert_int_equal(lrs_cpu_list__span("0-5\n"), 6);
	assert_int_equal(lrs_cpu_list__span("0-3,8,10-11\n"), 12);
	assert_int_equal(lrs_cpu_list__span("10-11,0-3"), 12); /* highest, not last */
	assert_int_equal(lrs_cpu_list__span("0-103"), 104);
}

static void test_span_refuses_what_is_no_list(void **state)
{
	(void)state;
	assert_int_equal(lrs_cpu_list__span(""), -EINVAL);
	assert_int_equal(lrs_cpu_list__span("\n"), -EINVAL);
	assert_int_equal(lrs_cpu_list__span("a-b"), -EINVAL);
	assert_int_equal(lrs_cpu_list__span("3-1"), -EINVAL);
	assert_int_equal(lrs_cpu_list__span("0-3;5"), -EINVAL);
	assert_int_equal(lrs_cpu_list__span("-1"), -EINVAL);
}

/* this machine: at least the CPUs sysconf counts online, at most the configured ones */
static void test_online_span_of_this_machine(void **state)
{
	int span = lrs_cpu_list__online_span();

	(void)state;
	assert_true(span >= (int)sysconf(_SC_NPROCESSORS_ONLN));
	assert_true(span <= (int)sysconf(_SC_NPROCESSORS_CONF));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_span_of_kernel_lists),
		cmocka_unit_test(test_span_refuses_what_is_no_list),
		cmocka_unit_test(test_online_span_of_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
