// SPDX-License-Identifier: GPL-2.0
/*
 * Our JSON parser (model/json/json_reader.c) against jansson and json-c on
 * the lines of a recording, and the whole decode path as a reference:
 *   bench_json [-r PASSES] FILE...      every mode on every FILE (plain .jsonl)
 *   bench_json -m MODE [-r PASSES] FILE one mode, one pass by default (callgrind)
 * Modes: read (getline alone: the floor), ours, jansson, json-c (parse into
 * the tree and free it), the same with "+walk" (and a visit of every value, as
 * a decoder would), and decode (lrs_recording__next: parse and fill the
 * snapshot). Each mode runs in its own child: its peak RSS is its own. Speeds
 * are the median pass, in CPU time; every line of a recording but the header is a snapshot.
 */
#include <errno.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "collector/replay/recording.h"
#include "model/json/json_reader.h"
#include "tests/bench/support/bench_jsonc.h"

struct pass {
	size_t lines, bytes;
	uint64_t sink; /* what the walks saw: keeps them from being optimised out */
};

struct mode {
	const char *name;
	int (*parse)(const char *line, size_t len, bool walk, struct pass *p);
	bool walk;
};

/* CPU time: on a shared machine the wall clock also counts the others' turns. */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- the parsers, each with a walk over every value ------------------------ */

static int parse__read(const char *line, size_t len, bool walk, struct pass *p)
{
	p->sink += (unsigned char)line[0];
	return 0;
}

static void ours__walk(const struct lrs_jval *v, struct pass *p)
{
	uint64_t u;

	switch (v->type) {
	case LRS_JNUM:
		if (!lrs_jval__u64(v, &u))
			p->sink += u;
		break;
	case LRS_JSTR:
		p->sink += v->u.str.len;
		break;
	case LRS_JARR:
		for (size_t i = 0; i < v->u.arr.len; i++)
			ours__walk(v->u.arr.items[i], p);
		break;
	case LRS_JOBJ:
		for (size_t i = 0; i < v->u.obj.len; i++) {
			p->sink += (unsigned char)v->u.obj.members[i].key[0];
			ours__walk(v->u.obj.members[i].val, p);
		}
		break;
	default:
		p->sink++;
	}
}

static int parse__ours(const char *line, size_t len, bool walk, struct pass *p)
{
	struct lrs_jdoc doc;
	char err[160];
	int ret = lrs_jdoc__parse(&doc, line, len, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "bench_json: ours: %s\n", err);
		return ret;
	}
	if (walk)
		ours__walk(doc.root, p);
	lrs_jdoc__free(&doc);
	return 0;
}

static void jansson__walk(json_t *v, struct pass *p)
{
	const char *key;
	json_t *item;
	size_t i;

	switch (json_typeof(v)) {
	case JSON_INTEGER:
		p->sink += (uint64_t)json_integer_value(v);
		break;
	case JSON_STRING:
		p->sink += json_string_length(v);
		break;
	case JSON_ARRAY:
		json_array_foreach(v, i, item) jansson__walk(item, p);
		break;
	case JSON_OBJECT:
		json_object_foreach(v, key, item)
		{
			p->sink += (unsigned char)key[0];
			jansson__walk(item, p);
		}
		break;
	default:
		p->sink++;
	}
}

static int parse__jansson(const char *line, size_t len, bool walk, struct pass *p)
{
	json_error_t err;
	json_t *root = json_loadb(line, len, 0, &err);

	if (!root) {
		fprintf(stderr, "bench_json: jansson: %s at byte %d\n", err.text, err.position);
		return -EINVAL;
	}
	if (walk)
		jansson__walk(root, p);
	json_decref(root);
	return 0;
}

static int parse__jsonc(const char *line, size_t len, bool walk, struct pass *p)
{
	return bench_jsonc__parse(line, len, walk, &p->sink);
}

static const struct mode modes[] = {
	{ "read", parse__read, false },	       { "ours", parse__ours, false },
	{ "jansson", parse__jansson, false },  { "json-c", parse__jsonc, false },
	{ "ours+walk", parse__ours, true },    { "jansson+walk", parse__jansson, true },
	{ "json-c+walk", parse__jsonc, true }, { "decode", NULL, false },
};

/* ---- one pass over a file ---------------------------------------------------- */

/* Every line through m, the header too. */
static int pass__lines(const struct mode *m, FILE *f, struct pass *p)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int err = 0;

	rewind(f);
	while (!err && (n = getline(&line, &cap, f)) > 0) {
		if (line[n - 1] == '\n')
			n--;
		err = m->parse(line, (size_t)n, m->walk, p);
		p->lines++;
		p->bytes += (size_t)n + 1;
	}
	free(line);
	return err;
}

/* The recording reader: header, then lrs_recording__next() into snapshots. */
static int pass__decode(const char *path, struct pass *p)
{
	struct lrs_recording *rec;
	struct lrs_snapshot *s;
	char err[600];
	int ret;

	if (lrs_recording__open(&rec, path, 0, err, sizeof(err))) {
		fprintf(stderr, "bench_json: %s\n", err);
		return -EINVAL;
	}
	p->lines++;
	while (!(ret = lrs_recording__next(rec, &s))) {
		p->sink += s->nr_lruvecs;
		lrs_snapshot__free(s);
		p->lines++;
	}
	if (ret != -ENODATA)
		fprintf(stderr, "bench_json: %s\n", lrs_recording__error(rec));
	lrs_recording__close(rec);
	return ret == -ENODATA ? 0 : ret;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * passes passes of m over path; prints snapshots/s and MB/s of the median
 * pass and, if rate, stores the snapshots/s there.
 */
static int mode__run(const struct mode *m, const char *path, int passes, double *rate)
{
	FILE *f = fopen(path, "rb");
	double secs[32];
	struct pass p = { 0 };
	int err = 0;

	if (!f) {
		fprintf(stderr, "bench_json: %s: %s\n", path, strerror(errno));
		return 1;
	}
	/*
	 * Alone in a process, a parse frees everything it took and glibc hands the
	 * heap top back to the kernel: the next line page-faults it in again, which
	 * then costs more than the parse. In lruscope the snapshots kept alive pin
	 * the heap: so does this, for every mode alike.
	 */
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	if (bench_jsonc__open(LRS_JSON_READ_MAX_DEPTH)) {
		fclose(f);
		return 1;
	}
	for (int i = 0; !err && i < passes; i++) {
		double start = now_s();

		p.lines = p.bytes = 0;
		err = m->parse ? pass__lines(m, f, &p) : pass__decode(path, &p);
		secs[i] = now_s() - start;
	}
	bench_jsonc__close();
	if (!m->parse) {
		fseek(f, 0, SEEK_END);
		p.bytes = (size_t)ftell(f);
	}
	fclose(f);
	if (err)
		return 1;
	qsort(secs, (size_t)passes, sizeof(secs[0]), cmp_dbl);
	if (rate)
		*rate = (double)(p.lines - 1) / secs[passes / 2];
	printf("  %-13s %9.1f snapshots/s %8.1f MB/s (median of %d: %.3f s, %zu lines, sink %llu)",
	       m->name, (double)(p.lines - 1) / secs[passes / 2],
	       (double)p.bytes / 1e6 / secs[passes / 2], passes, secs[passes / 2], p.lines,
	       (unsigned long long)(p.sink & 0xff));
	return 0;
}

/* m in a child of its own, so the peak RSS is m's alone; *rate is shared with it. */
static int mode__fork(const struct mode *m, const char *path, int passes, double *rate)
{
	struct rusage ru;
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (!pid) {
		int ret = mode__run(m, path, passes, rate);

		fflush(stdout);
		_exit(ret);
	}
	if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		printf("\n");
		fprintf(stderr, "bench_json: %s on %s failed\n", m->name, path);
		return 1;
	}
	printf(", peak RSS %.1f MB\n", (double)ru.ru_maxrss / 1024);
	return 0;
}

#define NR_MODES (sizeof(modes) / sizeof(modes[0]))

static size_t mode__find(const char *name)
{
	size_t i = 0;

	while (i < NR_MODES && strcmp(modes[i].name, name))
		i++;
	return i;
}

/* Ours against the faster library, parse alone and with the walk. */
static void ratio__print(const double *rates)
{
	for (int walk = 0; walk < 2; walk++) {
		const char *sfx = walk ? "+walk" : "";
		char name[32];
		double ours, jansson, jsonc;

		snprintf(name, sizeof(name), "ours%s", sfx);
		ours = rates[mode__find(name)];
		snprintf(name, sizeof(name), "jansson%s", sfx);
		jansson = rates[mode__find(name)];
		snprintf(name, sizeof(name), "json-c%s", sfx);
		jsonc = rates[mode__find(name)];
		if (ours <= 0 || jansson <= 0 || jsonc <= 0)
			continue;
		printf("  ours%s / %s%s: %.2fx\n", sfx, jansson > jsonc ? "jansson" : "json-c", sfx,
		       ours / (jansson > jsonc ? jansson : jsonc));
	}
}

int main(int argc, char **argv)
{
	const struct mode *only = NULL;
	int passes = 0, opt, rc = 0;
	double *rates;

	/* tests/bench/run.sh runs every bench binary bare: the script drives this one */
	if (argc == 1) {
		printf("bench_json: measured by tests/bench/json_bench.sh\n");
		return 0;
	}
	while ((opt = getopt(argc, argv, "m:r:")) != -1) {
		if (opt == 'm') {
			if (mode__find(optarg) == NR_MODES) {
				fprintf(stderr, "bench_json: no mode %s\n", optarg);
				return 2;
			}
			only = &modes[mode__find(optarg)];
		}
		if (opt == 'r')
			passes = atoi(optarg);
		if (opt == '?')
			return 2;
	}
	if (optind >= argc || passes < 0 || passes > 32) {
		fprintf(stderr, "usage: bench_json [-m MODE] [-r PASSES (1..32)] FILE...\n");
		return 2;
	}
	if (!passes)
		passes = only ? 1 : 5;
	rates = mmap(NULL, NR_MODES * sizeof(*rates), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (rates == MAP_FAILED) {
		fprintf(stderr, "bench_json: mmap: %s\n", strerror(errno));
		return 1;
	}
	for (int i = optind; i < argc; i++) {
		if (only) {
			rc |= mode__run(only, argv[i], passes, NULL);
			printf("\n");
			continue;
		}
		printf("%s\n", argv[i]);
		memset(rates, 0, NR_MODES * sizeof(*rates));
		for (size_t k = 0; k < NR_MODES; k++)
			rc |= mode__fork(&modes[k], argv[i], passes, &rates[k]);
		ratio__print(rates);
	}
	munmap(rates, NR_MODES * sizeof(*rates));
	return rc;
}
