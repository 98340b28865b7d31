// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collector/walk/walk_run.h"

#define WALK_MAX_JSON (256u << 20)

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int lrs_walk_scripts__find(char *dir, size_t len)
{
	const char *env = getenv("LRS_DRGN_SCRIPTS");
	char exe[PATH_MAX], path[PATH_MAX + 64];
	static const char *const rel[] = { "../drgn-scripts", "../share/lruscope/drgn-scripts" };
	ssize_t n;

	if (env && *env) {
		snprintf(path, sizeof(path), "%s/walk.py", env);
		if (!is_file(path)) {
			fprintf(stderr,
				"lruscope walk: LRS_DRGN_SCRIPTS=%s has no walk.py; "
				"point it at lruscope's drgn-scripts directory\n",
				env);
			return -ENOENT;
		}
		snprintf(dir, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0) {
		fprintf(stderr,
			"lruscope walk: /proc/self/exe: %s; set LRS_DRGN_SCRIPTS to the "
			"drgn-scripts directory\n",
			strerror(errno));
		return -errno;
	}
	exe[n] = '\0';
	dirname(exe);
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/walk.py", exe, rel[i]);
		if (is_file(path) && snprintf(dir, len, "%s/%s", exe, rel[i]) < (int)len)
			return 0;
	}
	fprintf(stderr,
		"lruscope walk: walk.py not found in %s/../drgn-scripts or "
		"%s/../share/lruscope/drgn-scripts; set LRS_DRGN_SCRIPTS to lruscope's "
		"drgn-scripts directory\n",
		exe, exe);
	return -ENOENT;
}

/* Exit status of argv run quietly (127: could not run it). */
static int run_quiet(char *const argv[])
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int lrs_walk_python__check(void)
{
	char *const argv[] = { WALK_PYTHON, "-c", "import drgn", NULL };

	if (access(WALK_PYTHON, X_OK)) {
		fprintf(stderr,
			"lruscope walk: %s is missing: install python3 and drgn "
			"(Debian: apt-get install python3-drgn)\n",
			WALK_PYTHON);
		return -ENOENT;
	}
	if (run_quiet(argv)) {
		fprintf(stderr,
			"lruscope walk: %s cannot import drgn: install it "
			"(Debian: apt-get install python3-drgn)\n",
			WALK_PYTHON);
		return -ENOENT;
	}
	return 0;
}

/* Read all of fd into *out (NUL-terminated). */
static int read_all(int fd, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap), *p;
	ssize_t r;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (n + 1 >= cap) {
			if (cap >= WALK_MAX_JSON) {
				free(buf);
				return -E2BIG;
			}
			p = realloc(buf, cap * 2);
			if (!p) {
				free(buf);
				return -ENOMEM;
			}
			buf = p;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return -errno;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

int lrs_walk__run_script(const struct lrs_walk_run_opts *o, const char *dir, char **json,
			 size_t *len)
{
	char script[PATH_MAX + 16];
	char *argv[16];
	int argc = 0, p[2], status, err;
	pid_t pid;

	snprintf(script, sizeof(script), "%s/walk.py", dir);
	argv[argc++] = WALK_PYTHON;
	argv[argc++] = script;
	argv[argc++] = "--json";
	if (o->core) {
		argv[argc++] = "-c";
		argv[argc++] = (char *)o->core;
	}
	if (o->vmlinux) {
		argv[argc++] = "-s";
		argv[argc++] = (char *)o->vmlinux;
	}
	if (o->page_owner)
		argv[argc++] = "--page-owner";
	if (o->max_folios) {
		argv[argc++] = "--max-folios";
		argv[argc++] = (char *)o->max_folios;
	}
	argv[argc] = NULL;

	if (pipe2(p, O_CLOEXEC)) {
		fprintf(stderr, "lruscope walk: pipe: %s\n", strerror(errno));
		return -EIO;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "lruscope walk: fork: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		return -EIO;
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		/* its one error line then reads as this command's own */
		setenv("LRS_ERROR_PREFIX", "lruscope walk", 1);
		execv(argv[0], argv);
		fprintf(stderr, "lruscope walk: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	err = read_all(p[0], json, len);
	close(p[0]);
	if (err)
		kill(pid, SIGTERM); /* the reader gave up: don't leave walk.py behind */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "lruscope walk: waitpid: %s\n", strerror(errno));
			return -EIO;
		}
	if (err) {
		fprintf(stderr, "lruscope walk: reading walk.py's output: %s\n", strerror(-err));
		return -EIO;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "lruscope walk: walk.py killed by signal %d\n", WTERMSIG(status));
		goto fail;
	}
	if (WEXITSTATUS(status) == 1)
		goto fail; /* walk.py printed its one-line error on stderr */
	if (WEXITSTATUS(status)) {
		fprintf(stderr, "lruscope walk: walk.py exited with status %d\n",
			WEXITSTATUS(status));
		goto fail;
	}
	return 0;
fail:
	free(*json);
	*json = NULL;
	return -EIO;
}
