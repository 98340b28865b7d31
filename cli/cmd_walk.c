// SPDX-License-Identifier: GPL-2.0
/*
 * lruscope walk: run drgn-scripts/walk.py on a vmcore or the live kernel and
 * show its snapshot in the TUI (LRU pages per memcg x node, lock words), as a
 * table, or as walk.py's JSON.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/commands.h"
#include "model/model.h"
#include "collector/walk/walk_import.h"
#include "ui/tui/tui.h"
#include "ui/text/walk_report.h"

#define WALK_PYTHON "/usr/bin/python3"	/* the python3 on PATH may lack drgn */
#define WALK_MAX_JSON (256u << 20)

struct walk_opts {
	const char *core, *vmlinux;
	const char *max_folios;
	bool json, page_owner, no_color;
};

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope walk [-c VMCORE -s VMLINUX] [--json] [options]\n"
		"\n"
		"Read a kernel's memory with drgn (drgn-scripts/walk.py) and show every\n"
		"memcg x node lruvec at one instant: the pages on each LRU list (the kernel's\n"
		"counters, checked by walking the lists), the lru_lock word (locked, pending,\n"
		"queue tail CPU), lru_check's invariant violations and the tasks holding a\n"
		"taken lock. On a terminal the result is the heatmap (cells: LRU pages; m\n"
		"switches; q quits), otherwise a table.\n"
		"\n"
		"Without -c it reads the running kernel through /proc/kcore: that needs root\n"
		"and a kernel with CONFIG_PROC_KCORE, and a vmlinux with debug info (drgn\n"
		"searches the usual places; -s names one). A vmcore needs the vmlinux of the\n"
		"kernel that wrote it.\n"
		"\n"
		"options:\n"
		"  -c, --core VMCORE      a vmcore instead of the live kernel\n"
		"  -s, --vmlinux VMLINUX  the kernel's debug info (vmlinux with DWARF)\n"
		"      --json             print walk.py's JSON object as is (docs/drgn.md)\n"
		"      --page-owner       also count the pages each memcg owns\n"
		"      --max-folios N     stop walking a list after N folios (default 1048576)\n"
		"      --no-color         no colours (also when NO_COLOR is set)\n"
		"  -h, --help             this text\n"
		"\n"
		"walk.py is found in $LRS_DRGN_SCRIPTS, else in ../drgn-scripts next to this\n"
		"binary (the build tree), else in ../share/lruscope/drgn-scripts (make\n"
		"install). It runs under " WALK_PYTHON " with drgn (Debian: python3-drgn).\n"
		"\n"
		"exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/* walk.py's directory into dir: $LRS_DRGN_SCRIPTS, the build tree, the install tree. */
static int scripts__find(char *dir, size_t len)
{
	const char *env = getenv("LRS_DRGN_SCRIPTS");
	char exe[PATH_MAX], path[PATH_MAX + 64];
	static const char *const rel[] = { "../drgn-scripts", "../share/lruscope/drgn-scripts" };
	ssize_t n;

	if (env && *env) {
		snprintf(path, sizeof(path), "%s/walk.py", env);
		if (!is_file(path)) {
			fprintf(stderr, "lruscope walk: LRS_DRGN_SCRIPTS=%s has no walk.py; "
					"point it at lruscope's drgn-scripts directory\n", env);
			return -ENOENT;
		}
		snprintf(dir, len, "%s", env);
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0) {
		fprintf(stderr, "lruscope walk: /proc/self/exe: %s; set LRS_DRGN_SCRIPTS to the "
				"drgn-scripts directory\n", strerror(errno));
		return -errno;
	}
	exe[n] = '\0';
	dirname(exe);
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/walk.py", exe, rel[i]);
		if (is_file(path) && snprintf(dir, len, "%s/%s", exe, rel[i]) < (int)len)
			return 0;
	}
	fprintf(stderr, "lruscope walk: walk.py not found in %s/../drgn-scripts or "
			"%s/../share/lruscope/drgn-scripts; set LRS_DRGN_SCRIPTS to lruscope's "
			"drgn-scripts directory\n", exe, exe);
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

/* python3 and drgn are there, else one line saying what to install. */
static int python__check(void)
{
	char *const argv[] = { WALK_PYTHON, "-c", "import drgn", NULL };

	if (access(WALK_PYTHON, X_OK)) {
		fprintf(stderr, "lruscope walk: %s is missing: install python3 and drgn "
				"(Debian: apt-get install python3-drgn)\n", WALK_PYTHON);
		return -ENOENT;
	}
	if (run_quiet(argv)) {
		fprintf(stderr, "lruscope walk: %s cannot import drgn: install it "
				"(Debian: apt-get install python3-drgn)\n", WALK_PYTHON);
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

/*
 * Run walk.py --json with its stderr passed through; its stdout into *json.
 * Returns 0, or LRS_EXIT_FAIL after saying why (walk.py's exit 1 has said so).
 */
static int walk__run(const struct walk_opts *o, const char *dir, char **json, size_t *len)
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
		return LRS_EXIT_FAIL;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "lruscope walk: fork: %s\n", strerror(errno));
		close(p[0]);
		close(p[1]);
		return LRS_EXIT_FAIL;
	}
	if (pid == 0) {
		dup2(p[1], STDOUT_FILENO);
		execv(argv[0], argv);
		fprintf(stderr, "lruscope walk: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	err = read_all(p[0], json, len);
	close(p[0]);
	if (err)
		kill(pid, SIGTERM);	/* the reader gave up: don't leave walk.py behind */
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			fprintf(stderr, "lruscope walk: waitpid: %s\n", strerror(errno));
			return LRS_EXIT_FAIL;
		}
	if (err) {
		fprintf(stderr, "lruscope walk: reading walk.py's output: %s\n", strerror(-err));
		return LRS_EXIT_FAIL;
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "lruscope walk: walk.py killed by signal %d\n", WTERMSIG(status));
		goto fail;
	}
	if (WEXITSTATUS(status) == 1)
		goto fail;	/* walk.py printed its one-line error on stderr */
	if (WEXITSTATUS(status)) {
		fprintf(stderr, "lruscope walk: walk.py exited with status %d\n", WEXITSTATUS(status));
		goto fail;
	}
	return 0;
fail:
	free(*json);
	*json = NULL;
	return LRS_EXIT_FAIL;
}

/* ---- a source of one snapshot: the TUI takes it once ------------------------ */

static int instant__take(struct lrs_source *src, struct lrs_snapshot **out)
{
	struct lrs_walk *walk = src->ctx;

	if (!walk->snap)
		return -ENODATA;
	*out = walk->snap;	/* the model owns it now */
	walk->snap = NULL;
	return 0;
}

static int walk__show(const struct walk_opts *o, struct lrs_walk *walk)
{
	struct lrs_source src = { .name = "drgn walk", .interval_s = 0, .take = instant__take,
				  .ctx = walk };
	struct lrs_tui_opts topts = { .stop = &lrs_stop, .no_color = o->no_color };
	char banner[512];
	struct lrs_model *model;
	int err;

	model = lrs_model__new(1);
	if (!model) {
		fprintf(stderr, "lruscope walk: out of memory for the model\n");
		return LRS_EXIT_FAIL;
	}
	model->sort = LRS_SORT_NAME;
	model->metric = LRS_METRIC_LRU_PAGES;
	snprintf(banner, sizeof(banner), "walk of %s: LRU pages per memcg x node and lock words "
		 "(drgn)%s", o->core ? o->core : "the live kernel (/proc/kcore)",
		 walk->violations_total ? "; lru_check found violations: see --json" : "");
	topts.banner = banner;
	err = lrs_tui__run(&src, model, &topts);
	lrs_model__free(model);
	return err && err != -ENODATA ? LRS_EXIT_FAIL : LRS_EXIT_OK;
}

int lrs_cmd_walk(int argc, char **argv)
{
	static const struct option long_opts[] = {
		{ "core", required_argument, NULL, 'c' },
		{ "vmlinux", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'J' },
		{ "page-owner", no_argument, NULL, 'P' },
		{ "max-folios", required_argument, NULL, 'M' },
		{ "no-color", no_argument, NULL, 'C' },
		{ "no-colour", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct walk_opts o = { 0 };
	struct lrs_walk *walk = NULL;
	char dir[PATH_MAX], err[512], *json = NULL, *end;
	size_t len = 0;
	int c, ret = LRS_EXIT_FAIL;

	optind = 1;
	while ((c = getopt_long(argc, argv, "c:s:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o.core = optarg;
			break;
		case 's':
			o.vmlinux = optarg;
			break;
		case 'J':
			o.json = true;
			break;
		case 'P':
			o.page_owner = true;
			break;
		case 'M':
			errno = 0;
			if (!*optarg || *optarg == '-' || strtoul(optarg, &end, 10) == 0 || *end || errno) {
				fprintf(stderr, "lruscope walk: --max-folios '%s': want a positive number\n",
					optarg);
				return LRS_EXIT_USAGE;
			}
			o.max_folios = optarg;
			break;
		case 'C':
			o.no_color = true;
			break;
		case 'h':
			help(stdout);
			return LRS_EXIT_OK;
		default:
			fprintf(stderr, "lruscope walk: see 'lruscope walk --help'\n");
			return LRS_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope walk: unexpected argument '%s' (a vmcore is given with -c)\n",
			argv[optind]);
		return LRS_EXIT_USAGE;
	}
	if (!o.core && access("/proc/kcore", F_OK) == 0 && access("/proc/kcore", R_OK)) {
		fprintf(stderr, "lruscope walk: reading the live kernel (/proc/kcore) needs root; "
				"or give a vmcore with -c VMCORE -s VMLINUX\n");
		return LRS_EXIT_FAIL;
	}
	if (scripts__find(dir, sizeof(dir)) || python__check())
		return LRS_EXIT_FAIL;
	lrs_signals__install();
	if (isatty(STDERR_FILENO))
		fprintf(stderr, "lruscope walk: walking %s...\n",
			o.core ? o.core : "the live kernel (/proc/kcore)");
	if (walk__run(&o, dir, &json, &len))
		return LRS_EXIT_FAIL;
	if (o.json) {
		if (fwrite(json, 1, len, stdout) != len || fflush(stdout)) {
			/* a reader that stopped early (| head) is not an error to report */
			if (errno != EPIPE)
				fprintf(stderr, "lruscope walk: writing the JSON: %s\n", strerror(errno));
			goto out;
		}
		ret = LRS_EXIT_OK;
		goto out;
	}
	if (lrs_walk__import(json, len, &walk, err, sizeof(err))) {
		fprintf(stderr, "lruscope walk: walk.py's output: %s\n", err);
		goto out;
	}
	if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO)) {
		if (getenv("NO_COLOR"))
			o.no_color = true;
		ret = walk__show(&o, walk);
		goto out;
	}
	if (lrs_walk_report__print(stdout, walk, o.core ? o.core : "the live kernel") ||
	    fflush(stdout)) {
		fprintf(stderr, "lruscope walk: writing the table: %s\n", strerror(errno));
		goto out;
	}
	ret = LRS_EXIT_OK;
out:
	lrs_walk__free(walk);
	free(json);
	return ret;
}
