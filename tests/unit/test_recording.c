// SPDX-License-Identifier: GPL-2.0
/* The recording reader (files and streams) and writer, deltas, reports of a recording, folded output. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model/json/json_reader.h"
#include "collector/replay/recording.h"
#include "collector/replay/replay.h"
#include "ui/text/report.h"
#include "ui/view_loop.h"
#include "model/snapshot_diff.h"
#include "model/json/snapshot_json.h"
#include "support/synth.h"

/* ---- helpers ---------------------------------------------------------------- */

static char tmpdir[] = "/tmp/lrs-test-recording.XXXXXX";

static int setup_dir(void **state)
{
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) ? -1 : 0;
}

static char *path_of(const char *name)
{
	static char buf[4][256];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	return buf[k];
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* The snapshot as the one-line JSON the live report prints. */
static char *json_of(const struct lrs_snapshot *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	assert_non_null(m);
	assert_int_equal(lrs_snapshot__write_json(s, m), 0);
	fclose(m);
	return buf;
}

static const struct lrs_recording_header test_hdr = {
	.schema = LRS_SCHEMA_VERSION,
	.kernel = "6.18.0-synth",
	.host = "test",
	.interval_ns = 1000000000ULL,
};

/* Record n synthetic snapshots (t = 1..n s) of memcgs x nodes into path. */
static void record_synth(const char *path, size_t n, size_t memcgs, size_t nodes)
{
	struct lrs_recording_writer *w;
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(lrs_recording_writer__open(&w, f, lrs_zkind__from_name(path), &test_hdr),
			 0);
	for (size_t t = 1; t <= n; t++) {
		struct lrs_snapshot *s = lrs_synth__snapshot(memcgs, nodes, t * 1000000000ULL, 3);

		assert_non_null(s);
		assert_int_equal(lrs_recording_writer__write(w, s), 0);
		lrs_snapshot__free(s);
	}
	assert_int_equal(lrs_recording_writer__snapshots(w), n);
	assert_int_equal(lrs_recording_writer__close(w, NULL), 0);
	fclose(f);
}

/* Open path expecting failure; the message must contain want. */
static void expect_open_error(const char *path, size_t max_line, const char *want)
{
	struct lrs_recording *rec = NULL;
	char err[700];

	assert_int_not_equal(lrs_recording__open(&rec, path, max_line, err, sizeof(err)), 0);
	if (!strstr(err, want))
		fail_msg("error '%s' does not contain '%s'", err, want);
}

/* Read to the end: returns the error code; the message and count out. */
static int read_all(const char *path, size_t max_line, size_t *count, char *msg, size_t msg_len,
		    char *warn, size_t warn_len)
{
	struct lrs_recording *rec;
	struct lrs_snapshot *s;
	char err[700];
	int ret;

	*count = 0;
	ret = lrs_recording__open(&rec, path, max_line, err, sizeof(err));
	if (ret) {
		snprintf(msg, msg_len, "%s", err);
		return ret;
	}
	while (!(ret = lrs_recording__next(rec, &s))) {
		lrs_snapshot__free(s);
		(*count)++;
	}
	snprintf(msg, msg_len, "%s", ret == -ENODATA ? "" : lrs_recording__error(rec));
	snprintf(warn, warn_len, "%s", lrs_recording__warning(rec) ?: "");
	lrs_recording__close(rec);
	return ret;
}

/* ---- round trips ----------------------------------------------------------------- */

/* Full line -> decode -> full line: the same bytes. */
static void test_line_round_trip(void **state)
{
	struct lrs_snapshot *s = lrs_synth__snapshot(40, 3, 5000000000ULL, 9), *r;
	char *a, *b, err[400];

	assert_non_null(s);
	free(s->unavailable);
	s->unavailable = strdup("stacks: \"quoted\" and \\ and \n");
	s->spin_source.name = LRS_SPIN_SLOWPATH;
	s->spin_source.first_waiter = true;
	snprintf(s->spin_source.why, sizeof(s->spin_source.why), "test-and-set \"spinlocks\"");
	a = json_of(s);
	assert_non_null(strstr(a, "\"spin_source\":{\"name\":\"slowpath\",\"first_waiter\":true,"));
	assert_int_equal(lrs_snapshot__read_json(a, strlen(a), NULL, &r, err, sizeof(err)), 0);
	assert_int_equal(r->spin_source.name, LRS_SPIN_SLOWPATH);
	assert_true(r->spin_source.first_waiter);
	assert_string_equal(r->spin_source.why, "test-and-set \"spinlocks\"");
	b = json_of(r);
	assert_string_equal(a, b);
	free(a);
	free(b);
	lrs_snapshot__free(s);
	lrs_snapshot__free(r);
}

/*
 * writer -> reader -> writer: every snapshot read back prints exactly as the
 * one written, across keyframes, a memcg appearing, one disappearing and
 * counters that go backwards (a collector restart).
 */
static void round_trip(const char *name)
{
	const char *path = path_of(name);
	struct lrs_recording_writer *w;
	struct lrs_recording *rec;
	struct lrs_snapshot *in[12], *out;
	FILE *f = fopen(path, "wb");
	char err[700];
	size_t n = sizeof(in) / sizeof(in[0]);

	assert_non_null(f);
	for (size_t t = 0; t < n; t++) {
		/* memcg count changes at t = 4 and t = 8; t = 6 restarts from zero */
		size_t memcgs = t < 4 ? 20 : t < 8 ? 21 : 19;
		uint64_t t_ns = (t == 6 ? 1 : t + 1) * 1000000000ULL;

		in[t] = lrs_synth__snapshot(memcgs, 2, t_ns, 5);
		assert_non_null(in[t]);
		in[t]->t_ns = (t + 1) * 1000000000ULL;
		/* delta lines carry the spin source too */
		in[t]->spin_source.name = t < 5 ? LRS_SPIN_TRACEPOINT : LRS_SPIN_NONE;
		snprintf(in[t]->spin_source.why, sizeof(in[t]->spin_source.why), "line %zu", t);
		/* the task drops' causes, from line 3 on (none before: older recordings) */
		if (t >= 3) {
			in[t]->drops.task_nested = t, in[t]->drops.task_unmatched = 2 * t;
			in[t]->drops.task_no_room = 3, in[t]->drops.task_lost = t % 2;
			in[t]->drops.task = 3 * t + 3 + t % 2;
		}
	}
	/* a waiter leaves, a stack goes: the lists change shape between lines */
	in[2]->lruvecs[2].nr_waiters = 1;
	free(in[2]->lruvecs[2].waiters[1].memcg);
	free(in[2]->lruvecs[2].waiters[2].memcg);
	in[3]->lruvecs[4].nr_stacks = 0;
	in[3]->lruvecs[4].removed = true;
	assert_int_equal(lrs_recording_writer__open(&w, f, lrs_zkind__from_name(path), &test_hdr),
			 0);
	for (size_t t = 0; t < n; t++)
		assert_int_equal(lrs_recording_writer__write(w, in[t]), 0);
	assert_int_equal(lrs_recording_writer__close(w, NULL), 0);
	fclose(f);

	assert_int_equal(lrs_recording__open(&rec, path, 0, err, sizeof(err)), 0);
	assert_string_equal(lrs_recording__header(rec)->kernel, "6.18.0-synth");
	assert_string_equal(lrs_recording__header(rec)->host, "test");
	assert_true(lrs_recording__header(rec)->interval_ns == 1000000000ULL);
	for (size_t t = 0; t < n; t++) {
		char *a, *b;

		assert_int_equal(lrs_recording__next(rec, &out), 0);
		a = json_of(in[t]);
		b = json_of(out);
		if (strcmp(a, b))
			fail_msg("%s: snapshot %zu differs after the round trip", name, t);
		free(a);
		free(b);
		lrs_snapshot__free(out);
		lrs_snapshot__free(in[t]);
	}
	assert_int_equal(lrs_recording__next(rec, &out), -ENODATA);
	assert_null(lrs_recording__warning(rec));
	lrs_recording__close(rec);
}

static void test_round_trip_plain(void **state)
{
	round_trip("rt.jsonl");
}
static void test_round_trip_gzip(void **state)
{
	round_trip("rt.jsonl.gz");
}
static void test_round_trip_zstd(void **state)
{
	round_trip("rt.jsonl.zst");
}

/* Compression is found from the bytes, not the name. */
static void test_magic_not_name(void **state)
{
	size_t count;
	char msg[700], warn[700];

	record_synth(path_of("m.zst"), 3, 5, 1);
	assert_int_equal(rename(path_of("m.zst"), path_of("m.txt")), 0);
	assert_int_equal(read_all(path_of("m.txt"), 0, &count, msg, sizeof(msg), warn,
				  sizeof(warn)),
			 -ENODATA);
	assert_int_equal(count, 3);
	record_synth(path_of("m.gz"), 2, 5, 1);
	assert_int_equal(rename(path_of("m.gz"), path_of("m2.jsonl")), 0);
	assert_int_equal(read_all(path_of("m2.jsonl"), 0, &count, msg, sizeof(msg), warn,
				  sizeof(warn)),
			 -ENODATA);
	assert_int_equal(count, 2);
}

/* Delta lines leave out lruvecs that did not change. */
static void test_delta_leaves_out_unchanged(void **state)
{
	struct lrs_snapshot *a = lrs_synth__snapshot(10, 2, 2000000000ULL, 1);
	struct lrs_snapshot *b = lrs_snapshot__clone(a), *r;
	char *line = NULL, err[400];
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);

	b->t_ns += 1000000000ULL;
	b->lruvecs[1].counters.contended += 7;
	lrs_snapshot__write_json_delta(b, a, m);
	fclose(m);
	assert_non_null(strstr(line, "\"delta\":[\"lruvecs\",\"other_locks\",\"stacks\"]"));
	assert_non_null(strstr(line, "\"lruvecs\":[{\"memcg_id\":1,\"node\":1,\"contended\":7}]"));
	assert_non_null(strstr(line, "\"other_locks\":[]"));
	assert_int_equal(lrs_snapshot__read_json(line, len - 1, a, &r, err, sizeof(err)), 0);
	assert_true(r->lruvecs[1].counters.contended == a->lruvecs[1].counters.contended + 7);
	assert_true(lrs_lruvec__equal(&r->lruvecs[5], &a->lruvecs[5]));
	free(line);
	lrs_snapshot__free(a);
	lrs_snapshot__free(b);
	lrs_snapshot__free(r);
}

/* How many members of the object root are named key: JSON readers keep one of duplicates. */
static size_t members_named(const struct lrs_jval *root, const char *key)
{
	size_t n = 0;

	assert_true(lrs_jval__is(root, LRS_JOBJ));
	for (size_t i = 0; i < root->u.obj.len; i++)
		n += !strcmp(root->u.obj.members[i].key, key);
	return n;
}

static void test_delta_keys_once(void **state)
{
	struct lrs_snapshot *a = lrs_synth__snapshot(4, 2, 2000000000ULL, 1);
	struct lrs_snapshot *b = lrs_snapshot__clone(a);
	char *line = NULL, err[200];
	struct lrs_jdoc doc;
	size_t len = 0;
	FILE *m = open_memstream(&line, &len);

	b->t_ns += 1000000000ULL;
	b->drops.task = 3;
	b->unavailable = strdup("stacks: test");
	lrs_snapshot__write_json_delta(b, a, m);
	fclose(m);
	assert_int_equal(lrs_jdoc__parse(&doc, line, len, err, sizeof(err)), 0);
	assert_non_null(lrs_jval__get(doc.root, "delta"));
	assert_int_equal(members_named(doc.root, "drops"), 1);
	assert_int_equal(members_named(doc.root, "unavailable"), 1);
	lrs_jdoc__free(&doc);
	free(line);
	lrs_snapshot__free(a);
	lrs_snapshot__free(b);
}

/* ---- bad recordings ------------------------------------------------------------ */

static void test_truncated_last_line(void **state)
{
	const char *path = path_of("trunc.jsonl");
	size_t count;
	char msg[700], warn[700], *text;
	long size;
	FILE *f;

	record_synth(path, 4, 6, 1);
	f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	text = malloc((size_t)size);
	assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	/* cut the last line in half: header + 3 whole snapshots + half of line 5 */
	write_file(path, text, (size_t)size - 200);
	free(text);
	assert_int_equal(read_all(path, 0, &count, msg, sizeof(msg), warn, sizeof(warn)), -ENODATA);
	assert_int_equal(count, 3);
	assert_non_null(strstr(
		warn, "trunc.jsonl:5: the last line is cut short (was the recorder killed?)"));
}

static void test_error_messages(void **state)
{
	static const char header[] =
		"{\"lruscope_recording\":1,\"schema\":1,\"kernel\":\"k\",\"nodes\":[0],\"interval_ns\":1000000000}\n";
	static const char snap1[] =
		"{\"schema\":1,\"t_ns\":1,\"nodes\":[0],\"lruvecs\":[{\"memcg\":\"/\",\"memcg_id\":1,\"node\":0}]}\n";
	char text[2048], msg[700], warn[700];
	size_t count;

	/* corrupt JSON on line 3 of 4 */
	snprintf(text, sizeof(text), "%s%s%s%s", header, snap1,
		 "{\"schema\":1,\"t_ns\":2,\"lruvecs\":[}\n", snap1);
	write_file(path_of("mid.jsonl"), text, strlen(text));
	assert_int_equal(read_all(path_of("mid.jsonl"), 0, &count, msg, sizeof(msg), warn,
				  sizeof(warn)),
			 -EINVAL);
	assert_int_equal(count, 1);
	if (!strstr(msg, "mid.jsonl:3: not valid JSON (unexpected character at byte 33)"))
		fail_msg("message: %s", msg);

	/* valid JSON, wrong type, line 2 */
	snprintf(
		text, sizeof(text), "%s%s", header,
		"{\"schema\":1,\"t_ns\":1,\"lruvecs\":[{\"memcg_id\":1,\"node\":0,\"contended\":\"x\"}]}\n");
	write_file(path_of("type.jsonl"), text, strlen(text));
	assert_int_equal(read_all(path_of("type.jsonl"), 0, &count, msg, sizeof(msg), warn,
				  sizeof(warn)),
			 -EINVAL);
	if (!strstr(msg, "type.jsonl:2: \"contended\" is not a non-negative integer"))
		fail_msg("message: %s", msg);

	/* a delta for an lruvec the line before lacks */
	snprintf(
		text, sizeof(text), "%s%s%s", header, snap1,
		"{\"schema\":1,\"delta\":[\"lruvecs\"],\"t_ns\":2,\"lruvecs\":[{\"memcg_id\":9,\"node\":0}]}\n");
	write_file(path_of("delta.jsonl"), text, strlen(text));
	assert_int_equal(read_all(path_of("delta.jsonl"), 0, &count, msg, sizeof(msg), warn,
				  sizeof(warn)),
			 -EINVAL);
	assert_int_equal(count, 1);
	if (!strstr(msg,
		    "delta.jsonl:3: delta for lruvec memcg_id 9 node 0, which the line before does not have"))
		fail_msg("message: %s", msg);

	/* unknown schema major, in the header and on a line */
	snprintf(text, sizeof(text), "%s",
		 "{\"lruscope_recording\":1,\"schema\":2,\"kernel\":\"k\"}\n");
	write_file(path_of("v2.jsonl"), text, strlen(text));
	expect_open_error(
		path_of("v2.jsonl"), 0,
		"v2.jsonl:1: snapshot schema version 2, but this lruscope reads version 1 only");
	snprintf(text, sizeof(text), "%s%s", header, "{\"schema\":3,\"t_ns\":1,\"lruvecs\":[]}\n");
	write_file(path_of("v3.jsonl"), text, strlen(text));
	assert_int_equal(read_all(path_of("v3.jsonl"), 0, &count, msg, sizeof(msg), warn,
				  sizeof(warn)),
			 -EPROTONOSUPPORT);
	if (!strstr(msg,
		    "v3.jsonl:2: snapshot schema version 3, but this lruscope reads version 1 only"))
		fail_msg("message: %s", msg);
	snprintf(text, sizeof(text), "%s", "{\"lruscope_recording\":7,\"schema\":1}\n");
	write_file(path_of("r7.jsonl"), text, strlen(text));
	expect_open_error(path_of("r7.jsonl"), 0, "r7.jsonl:1: recording format version 7");

	/* not a recording at all */
	write_file(path_of("elf"), "\177ELF\2\1\1\0\0\0\n", 11);
	expect_open_error(path_of("elf"), 0, "elf:1: not an lruscope recording");
	write_file(path_of("other.json"), "{\"name\":\"x\"}\n", 13);
	expect_open_error(
		path_of("other.json"), 0,
		"other.json:1: not an lruscope recording (the header has no \"lruscope_recording\")");
	write_file(path_of("empty"), "", 0);
	expect_open_error(path_of("empty"), 0, "empty: empty: not an lruscope recording");
	expect_open_error(path_of("missing"), 0, "missing: cannot open: No such file or directory");
	/* gzip magic, then garbage */
	write_file(path_of("bad.gz"), "\x1f\x8b\x08\x00garbagegarbage", 18);
	expect_open_error(path_of("bad.gz"), 0, "bad.gz:1: corrupt compressed data");
}

static void test_huge_line(void **state)
{
	const char *path = path_of("huge.jsonl");
	size_t n = LRS_RECORDING_MAX_LINE + 4096, count;
	char *text = malloc(n), msg[700], warn[700];
	static const char header[] = "{\"lruscope_recording\":1,\"schema\":1}\n";

	assert_non_null(text);
	memcpy(text, header, sizeof(header) - 1);
	memset(text + sizeof(header) - 1, ' ', n - sizeof(header) + 1);
	write_file(path, text, n);
	free(text);
	/* the real limit, 64 MiB, on a line that never ends */
	assert_int_equal(read_all(path, 0, &count, msg, sizeof(msg), warn, sizeof(warn)), -E2BIG);
	if (!strstr(msg, "huge.jsonl:2: a line longer than the limit of 67108864 bytes"))
		fail_msg("message: %s", msg);
	/* a small limit on the header line */
	expect_open_error(path, 16, "huge.jsonl:1: a line of 35 bytes, over the limit of 16");
}

/* A bare snapshot file ('report -f json' output) reads as a recording. */
static void test_headerless(void **state)
{
	struct lrs_snapshot *s = lrs_synth__snapshot(4, 1, 1000000000ULL, 1);
	char *a = json_of(s), msg[700], warn[700];
	size_t count;

	write_file(path_of("bare.json"), a, strlen(a));
	assert_int_equal(read_all(path_of("bare.json"), 0, &count, msg, sizeof(msg), warn,
				  sizeof(warn)),
			 -ENODATA);
	assert_int_equal(count, 1);
	free(a);
	lrs_snapshot__free(s);
}

/* ---- reports of a recording, folded output ----------------------------------------- */

static void test_report_from_recording(void **state)
{
	const char *path = path_of("rep.jsonl.zst");
	struct lrs_snapshot *d, *first = lrs_synth__snapshot(30, 2, 1000000000ULL, 3);
	struct lrs_snapshot *last = lrs_synth__snapshot(30, 2, 20000000000ULL, 3);
	const struct lrs_lruvec *lv;

	record_synth(path, 20, 30, 2);
	assert_int_equal(lrs_report__from_recording(path, &d), 0);
	assert_true(d->interval_ns == 19000000000ULL);
	lv = lrs_snapshot__find_lruvec(d, 2, 0);
	assert_true(lv->counters.wait_ns ==
		    lrs_snapshot__find_lruvec(last, 2, 0)->counters.wait_ns -
			    lrs_snapshot__find_lruvec(first, 2, 0)->counters.wait_ns);
	lrs_snapshot__free(d);
	lrs_snapshot__free(first);
	lrs_snapshot__free(last);
	assert_int_not_equal(lrs_report__from_recording(path_of("nope"), &d), 0);
}

static void test_folded(void **state)
{
	struct lrs_snapshot *s = lrs_synth__snapshot(3, 1, 10000000000ULL, 1);
	struct lrs_report_opts opts = { .format = LRS_REPORT_FOLDED };
	char *out = NULL, line[1024];
	size_t len = 0;
	uint64_t sum = 0;
	FILE *m = open_memstream(&out, &len);

	/* a lock with no stack is a line of its own; ';' in a name never splits frames */
	free(s->lruvecs[0].memcg);
	s->lruvecs[0].memcg = strdup("/a;b");
	s->lruvecs[0].nr_stacks = 0;
	assert_int_equal(lrs_report__write(s, &opts, m), 0);
	fclose(m);
	/* memcg 1 (/lrs-s1) waits on stack 1: root frame first, lruvec as the leaf */
	assert_non_null(strstr(
		out, "ksys_read+0x6f;vfs_read+0x23d;filemap_read+0x14d;filemap_get_pages+0x2c1;"
		     "page_cache_ra_unbounded+0x110;filemap_add_folio+0x9e;folio_add_lru+0x5c;"
		     "folio_batch_move_lru+0x1a4;/lrs-s1@N0 "));
	snprintf(line, sizeof(line), "/a_b@N0 %llu\n",
		 (unsigned long long)s->lruvecs[0].counters.wait_ns);
	assert_non_null(strstr(out, line));
	/* the lruvec's stacks share exactly its wait */
	for (char *p = out; (p = strstr(p, "/lrs-s1@N0 ")); p++)
		sum += strtoull(p + strlen("/lrs-s1@N0 "), NULL, 10);
	assert_true(sum >= s->lruvecs[1].counters.wait_ns - 2 &&
		    sum <= s->lruvecs[1].counters.wait_ns + 2);
	assert_non_null(strstr(out, ";spinlock @ __remove_mapping "));
	free(out);
	lrs_snapshot__free(s);
}

/* ---- streams ------------------------------------------------------------------ */

/* Write all of buf[0..len) to fd. */
static void write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		assert_true(n > 0);
		buf += n;
		len -= (size_t)n;
	}
}

/* Read snapshots until rec has none: they must follow on from *n; returns why it stopped. */
static int read_on(struct lrs_recording *rec, size_t *n)
{
	struct lrs_snapshot *s;
	int ret;

	while (!(ret = lrs_recording__next(rec, &s))) {
		assert_true(s->t_ns == (*n + 1) * 1000000000ULL);
		lrs_snapshot__free(s);
		(*n)++;
	}
	return ret;
}

/*
 * A recording read non-blocking from a pipe while it is written, 1000 bytes
 * at a time: each time, what has come is read, then -EAGAIN (no wait).
 */
static void stream_nonblocking(const char *name)
{
	const char *path = path_of(name);
	struct lrs_recording *rec;
	char *buf, err[700];
	size_t n = 0, len, at, agains = 0;
	int p[2];
	FILE *f, *r;

	alarm(60); /* a read that waits for the writer would hang here: fail instead */
	record_synth(path, 20, 4, 1);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(len);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, len, f), len);
	fclose(f);
	assert_int_equal(pipe(p), 0);
	r = fdopen(p[0], "rb");
	assert_non_null(r);
	/* the header and a few lines first: opening waits for the header */
	at = len / 5;
	assert_true(at < 60000); /* fits in the pipe */
	write_all(p[1], buf, at);
	assert_int_equal(lrs_recording__open_file(&rec, r, name, 0, err, sizeof(err)), 0);
	lrs_recording__set_nonblocking(rec, true);
	for (; at < len; at += 1000) {
		assert_int_equal(read_on(rec, &n), -EAGAIN);
		agains++;
		write_all(p[1], buf + at, len - at < 1000 ? len - at : 1000);
	}
	/* lines came while the stream was being written, not all at its end */
	if (!(n >= 10 && agains >= 3))
		fail_msg("%s: %zu of 20 lines before the end, %zu times nothing yet", name, n,
			 agains);
	close(p[1]);
	assert_int_equal(read_on(rec, &n), -ENODATA);
	assert_int_equal(n, 20);
	assert_null(lrs_recording__warning(rec)); /* the stream ended with its end mark */
	lrs_recording__close(rec);
	fclose(r);
	free(buf);
	alarm(0);
}

static void test_stream_plain(void **state)
{
	stream_nonblocking("stream.jsonl");
}
static void test_stream_gzip(void **state)
{
	stream_nonblocking("stream.jsonl.gz");
}
static void test_stream_zstd(void **state)
{
	stream_nonblocking("stream.jsonl.zst");
}

/* ---- replay source ------------------------------------------------------------ */

static void test_replay_source(void **state)
{
	const char *path = path_of("replay.jsonl.gz");
	struct lrs_replay_opts opts = { .speed = 4, .once = true };
	struct lrs_model *model = lrs_model__new(16);
	struct lrs_view_loop lp = { 0 };
	struct lrs_view_state vs;
	struct lrs_source *src;
	struct lrs_snapshot *s;
	char err[700];
	size_t n = 0;

	record_synth(path, 70, 8, 2);
	assert_int_equal(lrs_replay__open(path, &opts, &src, err, sizeof(err)), 0);
	assert_true(src->interval_s == 0.25);
	assert_int_equal(lrs_replay__count(src), 70);
	while (!src->take(src, &s)) {
		assert_true(s->t_ns == (n + 1) * 1000000000ULL);
		lrs_snapshot__free(s);
		n++;
	}
	assert_int_equal(n, 70);
	/* the view loop pushes a seek's snapshot before and the one sought: rates at once */
	lrs_view_state__init(&vs);
	lrs_view_loop__init(&lp, src, model, &vs, 0);
	assert_true(lrs_view_loop__apply(&lp, NULL, LRS_ACT_SEEK_START, 1));
	assert_true(model->cur->t_ns == 2000000000ULL && model->prev->t_ns == 1000000000ULL);
	assert_true(model->lruvec_wait_ns > 0);
	assert_true(lrs_view_loop__apply(&lp, NULL, LRS_ACT_SEEK_END, 1));
	assert_true(model->cur->t_ns == 70000000000ULL);
	assert_true(lrs_view_loop__apply(&lp, NULL, LRS_ACT_STEP_BACK, 1));
	assert_true(model->cur->t_ns == 69000000000ULL); /* from checkpoint 64 */
	assert_true(lrs_view_loop__apply(&lp, NULL, LRS_ACT_STEP_FORWARD, 1));
	assert_true(model->cur->t_ns == 70000000000ULL);
	assert_true(lrs_view_loop__apply(&lp, NULL, LRS_ACT_SPEED_UP, 1));
	assert_true(src->interval_s == 0.125);
	assert_true(lrs_view_loop__apply(&lp, NULL, LRS_ACT_SPEED_DOWN, 1) &&
		    lrs_view_loop__apply(&lp, NULL, LRS_ACT_SPEED_DOWN, 1));
	assert_true(src->interval_s == 0.5);
	/* other keys are not the source's: it stays where it is */
	assert_false(lrs_view_loop__apply(&lp, NULL, LRS_ACT_UP, 1) & LRS_REACT_REFETCH);
	assert_non_null(strstr(src->name, "replay 2x 70/70"));
	lrs_source__destroy(src);
	lrs_model__free(model);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_round_trip),
		cmocka_unit_test(test_round_trip_plain),
		cmocka_unit_test(test_round_trip_gzip),
		cmocka_unit_test(test_round_trip_zstd),
		cmocka_unit_test(test_magic_not_name),
		cmocka_unit_test(test_delta_leaves_out_unchanged),
		cmocka_unit_test(test_delta_keys_once),
		cmocka_unit_test(test_truncated_last_line),
		cmocka_unit_test(test_error_messages),
		cmocka_unit_test(test_huge_line),
		cmocka_unit_test(test_headerless),
		cmocka_unit_test(test_report_from_recording),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_stream_plain),
		cmocka_unit_test(test_stream_gzip),
		cmocka_unit_test(test_stream_zstd),
		cmocka_unit_test(test_replay_source),
	};

	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
