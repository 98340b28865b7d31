// SPDX-License-Identifier: GPL-2.0
/*
 * A crash says so: on a fatal signal, one line naming it and the command,
 * and the backtrace, on stderr; then the signal's own end (its exit status,
 * its core). Without it a crashed 'lruscope diff' under a script is an
 * empty output and nothing else.
 */
#include <errno.h>
#include <execinfo.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"

static const char *crash_command = "lruscope";
static char alt_stack[64 * 1024]; /* a stack overflow still gets its report */

static void say(const char *s)
{
	ssize_t ignored = write(STDERR_FILENO, s, strlen(s));

	(void)ignored;
}

static void on_crash(int sig)
{
	void *frames[64];
	int n;

	say("lruscope ");
	say(crash_command);
	say(": killed by SIG");
	say(sigabbrev_np(sig) ? sigabbrev_np(sig) : "?");
	say(", a bug in lruscope. Its backtrace ('addr2line -f -e ");
	say(program_invocation_name);
	say(" OFFSET' names the line of each +0x offset):\n");
	n = backtrace(frames, 64);
	backtrace_symbols_fd(frames, n, STDERR_FILENO);
	raise(sig); /* SA_RESETHAND put the default back: the signal's own end */
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(undefined_behavior_sanitizer)
#define LRS_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define LRS_SANITIZED 1
#endif

void lrs_crash__install(const char *command)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	stack_t ss = { .ss_sp = alt_stack, .ss_size = sizeof(alt_stack) };
	struct sigaction sa;
	void *warm[1];

	crash_command = command;
#ifdef LRS_SANITIZED
	return; /* make SAN=1: the sanitizer's own report says more */
#endif
	/* backtrace() loads libgcc on its first call: not in a signal handler */
	backtrace(warm, 1);
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaction(fatal[i], &sa, NULL);
}
