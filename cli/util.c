// SPDX-License-Identifier: GPL-2.0
/* Shared by the subcommands: signals, option values, what a failed write means. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/commands.h"

volatile sig_atomic_t lrs_stop;

static void on_signal(int sig)
{
	lrs_stop = sig;
}

void lrs_signals__install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: a blocking read or sleep must return and see lrs_stop */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int lrs_parse_number(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int lrs_parse_seconds(const char *s, double *out)
{
	double v;

	if (lrs_parse_number(s, 0, 86400.0 * 365, &v) || v == 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int lrs_cli__seconds(const char *cmd, char opt, const char *arg, double *out)
{
	if (!lrs_parse_seconds(arg, out))
		return 0;
	fprintf(stderr, "lruscope %s: -%c '%s': want a positive number of seconds\n", cmd, opt,
		arg);
	return -EINVAL;
}

const char *lrs_cli__write_error(int err)
{
	switch (err) {
	case -ENOSPC:
		return "no space left on the device (the disk is full)";
	case -EDQUOT:
		return "the disk quota is used up";
	case -EPIPE:
		return "the reader closed the pipe";
	default:
		return strerror(-err);
	}
}

int lrs_cli__writable(const char *cmd, const char *opt, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat st;

	if (!stat(path, &st)) {
		if (S_ISDIR(st.st_mode)) {
			fprintf(stderr, "lruscope %s: %s %s: is a directory: name a file\n", cmd,
				opt, path);
			return -EISDIR;
		}
		if (access(path, W_OK)) {
			fprintf(stderr, "lruscope %s: %s %s: cannot write it: %s\n", cmd, opt, path,
				strerror(errno));
			return -errno;
		}
		return 0;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (slash == path ? 1 : (int)(slash - path)) : 1,
		 slash ? path : ".");
	if (stat(dir, &st)) {
		fprintf(stderr, "lruscope %s: %s %s: the directory %s %s\n", cmd, opt, path, dir,
			errno == ENOENT ? "does not exist" : strerror(errno));
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		fprintf(stderr, "lruscope %s: %s %s: %s is not a directory\n", cmd, opt, path, dir);
		return -ENOTDIR;
	}
	if (access(dir, W_OK | X_OK)) {
		fprintf(stderr, "lruscope %s: %s %s: cannot create a file in %s: %s\n", cmd, opt,
			path, dir, strerror(errno));
		return -errno;
	}
	return 0;
}

int lrs_parse_uint(const char *s, unsigned int max, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > max)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

int lrs_parse_bytes(const char *s, unsigned long long *out)
{
	char *end;
	unsigned long long v, mult = 1;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -EINVAL;
	switch (*end) {
	case 0:
		break;
	case 'k':
	case 'K':
		mult = 1ULL << 10;
		end++;
		break;
	case 'm':
	case 'M':
		mult = 1ULL << 20;
		end++;
		break;
	case 'g':
	case 'G':
		mult = 1ULL << 30;
		end++;
		break;
	default:
		return -EINVAL;
	}
	if (*end == 'i' || *end == 'b' || *end == 'B')
		end++;
	if (*end == 'B')
		end++;
	if (*end || (v && mult > ~0ULL / v))
		return -EINVAL;
	*out = v * mult;
	return 0;
}

int lrs_cli__bad_option(const char *cmd, int c, char **argv)
{
	const char *arg = argv[optind - 1], *what = "unknown option";
	bool is_long = !strncmp(arg, "--", 2);
	char letter[3] = { '-', (char)optopt, 0 };
	const char *name = letter;

	/* optopt 0: a long option; else a letter, maybe inside a cluster (-qx) */
	if (!optopt || (is_long && (c == ':' || strchr(arg, '='))))
		name = arg;
	if (c == ':')
		what = "a value is missing after";
	else if (optopt && is_long && strchr(arg, '='))
		what = "no value is taken by";
	fprintf(stderr, "lruscope %s: %s '%s': see 'lruscope %s --help'\n", cmd, what, name, cmd);
	return LRS_EXIT_USAGE;
}

int lrs_cli__stdout_done(const char *cmd, const char *what)
{
	int err;

	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return LRS_EXIT_OK;
	err = errno ? -errno : -EIO;
	if (err == -EPIPE)
		return LRS_EXIT_OK; /* the reader took what it wanted (| head) */
	fprintf(stderr, "lruscope%s%s: writing %s failed: %s\n", cmd ? " " : "", cmd ? cmd : "",
		what, lrs_cli__write_error(err));
	return LRS_EXIT_FAIL;
}
