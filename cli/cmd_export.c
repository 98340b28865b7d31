// SPDX-License-Identifier: GPL-2.0
/* lruscope export: a Prometheus exporter (HTTP /metrics and/or a node_exporter textfile). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "cli/collector_opts.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "cli/run.h"
#include "collector/live/live.h"
#include "ui/export/exporter.h"
#include "ui/export/http.h"
#include "ui/export/privileges.h"
#include "ui/export/textfile.h"

#define DEFAULT_LISTEN "127.0.0.1:9464"

enum { OPT_LISTEN = LRS_OPT_KEY_LONG, OPT_TEXTFILE, OPT_MAX_SERIES, OPT_TOP_LOCKS, OPT_USER };

static const struct lrs_opt opts[] = {
	{ "listen", OPT_LISTEN, 0, "ADDR:PORT",
	  "where to serve (default " DEFAULT_LISTEN ", loopback only; 0.0.0.0:9464 serves every "
	  "interface)",
	  .man = "Where to serve; default\n"
		 ".BR " DEFAULT_LISTEN " ,\n"
		 "loopback only.\n"
		 ".B 0.0.0.0:9464\n"
		 "or\n"
		 ".B [::]:9464\n"
		 "serves every interface.\n"
		 "An address that is not an IPv4 or bracketed IPv6 address with a port from 1 to\n"
		 "65535 is a usage error (status 2).\n" },
	{ "textfile", OPT_TEXTFILE, LRS_OPT_DIR, "DIR",
	  "write DIR/" LRS_TEXTFILE_NAME " every interval (write, then rename); alone, no HTTP is "
	  "served unless --listen is given too",
	  .man = "Also write\n"
		 ".IB DIR /" LRS_TEXTFILE_NAME "\n"
		 "every interval for node_exporter's textfile collector: a hidden temporary file,\n"
		 "then a rename, so a reader sees a whole page or the one before.\n"
		 "Given alone, no HTTP is served unless\n"
		 ".B \\-\\-listen\n"
		 "is given too, and privileges are kept.\n" },
	{ "interval", 'i', LRS_OPT_SHORT, "SECS", "how often the page is refreshed (default 5)" },
	{ "duration", 'd', LRS_OPT_SHORT, "SECS",
	  "stop after SECS (default: until Ctrl-C or SIGTERM)",
	  .man = "Stop after SECS, also when that is shorter than the interval (the last page is\n"
		 "then taken at SECS).\n" },
	{ "max-series", OPT_MAX_SERIES, 0, "N",
	  "series with a memcg label, at most (default 10000); memcgs beyond it are folded into "
	  "memcg=\"other\"",
	  .man = "Series with a memcg label, at most (default 10000, at least 100).\n"
		 "A memcg gets its page series when first seen, an lruvec its lock series when its\n"
		 "lock is first waited on, each only if they fit; otherwise they are summed into\n"
		 ".B memcg=\"other\"\n"
		 "of the node, for as long as the memcg exists.\n"
		 "Counters never step back: a removed memcg's series leave the page, and a folded\n"
		 "one's final counts stay in\n"
		 ".BR other .\n" },
	{ "top-locks", OPT_TOP_LOCKS, 0, "N", "other locks listed, by wait (default 20)",
	  .man = "Other locks listed by wait (default 20).\n" },
	{ "user", OPT_USER, LRS_OPT_USER, "USER",
	  "serve as USER (default nobody); 'root' keeps every privilege",
	  .man = "Serve as USER (default\n"
		 ".BR nobody );\n"
		 ".B root\n"
		 "keeps every privilege.\n" },
	{ "quiet", 'q', LRS_OPT_SHORT, NULL, "no line on stderr saying where it serves" },
	LRS_OPT_GROUP(lrs_opts_collector),
	LRS_OPT_GROUP(lrs_opts_help),
	{ 0 }
};

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope export [--listen ADDR:PORT] [--textfile DIR] [-i SECS] [options]\n\n"
		"Serve lruvec lock waits per memcg and NUMA node as Prometheus metrics at\n"
		"http://ADDR:PORT/metrics (the Prometheus text format, or OpenMetrics when the\n"
		"scraper asks for it), and/or write them to DIR/" LRS_TEXTFILE_NAME
		" for node_exporter's\n"
		"textfile collector. Loads BPF as root, then serves as --user with only CAP_BPF\n"
		"and CAP_PERFMON. docs/metrics.md lists every metric.\n\n");
	lrs_opts__write_help(f, opts);
	fprintf(f,
		"\nexport samples no stacks unless --stack-every is given;\n"
		"lruscope_lruvec_lock_sampled_wait_seconds_total{cause=...} needs them.\n"
		"With --holders: lruscope_lruvec_lock_imposed_seconds_total{holder_memcg=...}.\n\n"
		"exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

struct export_args {
	struct lrs_collector_opts copts;
	const char *listen;
	bool listen_given;
	const char *textfile;
	const char *user;
	double duration;
	unsigned int max_series, top_locks;
	bool quiet;
};

static int apply(void *ctx, int key, const char *value)
{
	struct export_args *a = ctx;
	struct sockaddr_storage ss;
	size_t len;

	switch (key) {
	case OPT_LISTEN:
		/* a bad address is a usage error, said before anything is loaded */
		if (lrs_http__parse_addr(value, &ss, &len)) {
			fprintf(stderr,
				"lruscope export: --listen '%s': want ADDR:PORT, an IPv4 or [IPv6] "
				"address and a port from 1 to 65535, as 127.0.0.1:9464 or "
				"[::1]:9464\n",
				value);
			return -EINVAL;
		}
		a->listen = value;
		a->listen_given = true;
		return 0;
	case OPT_TEXTFILE:
		a->textfile = value;
		return 0;
	case 'i':
		return lrs_cli__seconds("export", 'i', value, &a->copts.interval_s);
	case 'd':
		return lrs_cli__seconds("export", 'd', value, &a->duration);
	case OPT_MAX_SERIES:
		if (lrs_parse_uint(value, 100000000, &a->max_series) || a->max_series < 100) {
			fprintf(stderr,
				"lruscope export: --max-series '%s': want a number, at least 100\n",
				value);
			return -EINVAL;
		}
		return 0;
	case OPT_TOP_LOCKS:
		if (lrs_parse_uint(value, 10000, &a->top_locks)) {
			fprintf(stderr, "lruscope export: --top-locks '%s': want 0 to 10000\n",
				value);
			return -EINVAL;
		}
		return 0;
	case OPT_USER:
		a->user = value;
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	default:
		return lrs_cli__collector_option("export", key, value, &a->copts);
	}
}

/* The HTTP server on a->listen, then the privileges dropped to a->user: 0, or -1 (said). */
static int serve_start(const struct export_args *a, struct lrs_http **http)
{
	char err[512] = "";
	int ret;

	ret = lrs_http__start(a->listen, http, err, sizeof(err));
	if (!ret && strcmp(a->user, "root") && geteuid() == 0) {
		ret = lrs_privileges__drop(a->user, err, sizeof(err));
		/* the directory must stay writable to the user it now runs as */
		if (!ret && a->textfile)
			ret = lrs_textfile__check(a->textfile, err, sizeof(err));
	}
	if (ret) {
		fprintf(stderr, "lruscope export: %s\n", err);
		return -1;
	}
	return 0;
}

/* One line on stderr: where the page goes, how often. */
static void say_where(const struct export_args *a, bool serve, double interval_s)
{
	if (serve)
		fprintf(stderr, "lruscope export: serving http://%s/metrics", a->listen);
	else
		fprintf(stderr, "lruscope export: writing %s/%s", a->textfile, LRS_TEXTFILE_NAME);
	fprintf(stderr, " every %.3g s%s%s (Ctrl-C ends)\n", interval_s,
		serve && a->textfile ? " and " : "", serve && a->textfile ? a->textfile : "");
}

static int run(int argc, char **argv)
{
	struct export_args a = {
		.listen = DEFAULT_LISTEN,
		.user = "nobody",
		.max_series = 10000,
		.top_locks = 20,
	};
	struct lrs_source *src = NULL;
	struct lrs_http *http = NULL;
	bool serve;
	char err[512] = "";
	int status;

	lrs_collector_opts__defaults(&a.copts);
	a.copts.interval_s = 5;
	a.copts.stack_every = 0; /* only the cause family uses stacks: none sampled, unless asked */
	a.copts.bpf_stats = true; /* lruscope_bpf_run_seconds_total */
	if (lrs_opts__parse(&lrs_command_export, argc, argv, apply, &a, &status) < 0)
		return status;
	serve = a.listen_given || !a.textfile;

	/* everything a user can get wrong is said before BPF is loaded */
	if (a.textfile && lrs_textfile__check(a.textfile, err, sizeof(err))) {
		fprintf(stderr, "lruscope export: %s\n", err);
		return LRS_EXIT_FAIL;
	}
	if (lrs_cli__open_live("export", &a.copts, &src))
		return LRS_EXIT_FAIL;
	status = LRS_EXIT_FAIL;
	if (serve && serve_start(&a, &http))
		goto out;
	if (!a.quiet)
		say_where(&a, serve, src->interval_s);
	if (lrs_export__run(src,
			    &(struct lrs_export_opts){
				    .version = LRS_VERSION,
				    .http = http,
				    .textfile_dir = a.textfile,
				    .max_series = a.max_series,
				    .top_locks = a.top_locks,
				    .holders = a.copts.holders,
				    .duration_s = a.duration,
			    },
			    &lrs_stop, err, sizeof(err))) {
		fprintf(stderr, "lruscope export: %s\n", err);
		goto out;
	}
	status = LRS_EXIT_OK;
out:
	lrs_http__stop(http);
	lrs_source__destroy(src);
	return status;
}

const struct lrs_command lrs_command_export = {
	.name = "export",
	.synopsis =
		"export   [--listen ADDR:PORT] [--textfile DIR]   Prometheus metrics for fleets",
	.opts = opts,
	.help = help,
	.run = run,
};
