// SPDX-License-Identifier: GPL-2.0
/* lruscope export: a Prometheus exporter (HTTP /metrics and/or a node_exporter textfile). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "cli/commands.h"
#include "collector/live/live.h"
#include "ui/export/exporter.h"
#include "ui/export/http.h"
#include "ui/export/privileges.h"
#include "ui/export/textfile.h"

#define DEFAULT_LISTEN "127.0.0.1:9464"

static void help(FILE *f)
{
	fprintf(f,
		"usage: lruscope export [--listen ADDR:PORT] [--textfile DIR] [-i SECS] [options]\n\n"
		"Serve lruvec lock waits per memcg and NUMA node as Prometheus metrics at\n"
		"http://ADDR:PORT/metrics (the Prometheus text format, or OpenMetrics when the\n"
		"scraper asks for it), and/or write them to DIR/" LRS_TEXTFILE_NAME " for node_exporter's\n"
		"textfile collector. Loads BPF as root, then serves as --user with only CAP_BPF\n"
		"and CAP_PERFMON. docs/metrics.md lists every metric.\n\n"
		"      --listen ADDR:PORT  where to serve (default " DEFAULT_LISTEN ", loopback only;\n"
		"                          0.0.0.0:9464 serves every interface)\n"
		"      --textfile DIR      write DIR/" LRS_TEXTFILE_NAME " every interval (write, then rename);\n"
		"                          alone, no HTTP is served unless --listen is given too\n"
		"  -i, --interval SECS     how often the page is refreshed (default 5)\n"
		"  -d, --duration SECS     stop after SECS (default: until Ctrl-C or SIGTERM)\n"
		"      --max-series N      series with a memcg label, at most (default 10000); memcgs\n"
		"                          beyond it are folded into memcg=\"other\"\n"
		"      --top-locks N       other locks listed, by wait (default 20)\n"
		"      --user USER         serve as USER (default nobody); 'root' keeps every privilege\n"
		"  -q, --quiet             no line on stderr saying where it serves\n"
		LRS_COLLECTOR_OPTS_HELP
		"                          (export samples no stacks unless --stack-every is given;\n"
		"                          lruscope_lruvec_lock_sampled_wait_seconds_total{cause=...}\n"
		"                          needs them)\n"
		"  -h, --help              this text\n\n"
		"With --holders: lruscope_lruvec_lock_imposed_seconds_total{holder_memcg=...}.\n\n"
		"exit status: 0 ok, 1 failure (a message says what), 2 usage error\n");
}

struct export_args {
	const char *listen;
	bool listen_given;
	const char *textfile;
	const char *user;
	double duration;
	unsigned int max_series, top_locks;
	bool quiet;
};

enum { OPT_LISTEN = 256, OPT_TEXTFILE, OPT_MAX_SERIES, OPT_TOP_LOCKS, OPT_USER };

/* 0 ok, 1 --help shown, -EINVAL usage error (said). */
static int parse(int argc, char **argv, struct export_args *a, struct lrs_collector_opts *copts)
{
	static const struct option long_opts[] = {
		{ "listen", required_argument, NULL, OPT_LISTEN },
		{ "textfile", required_argument, NULL, OPT_TEXTFILE },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "max-series", required_argument, NULL, OPT_MAX_SERIES },
		{ "top-locks", required_argument, NULL, OPT_TOP_LOCKS },
		{ "user", required_argument, NULL, OPT_USER },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		LRS_COLLECTOR_LONG_OPTS,
		{}
	};
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, ":i:d:qvh", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_LISTEN: {
			struct sockaddr_storage ss;
			size_t len;

			/* a bad address is a usage error, said before anything is loaded */
			if (lrs_http__parse_addr(optarg, &ss, &len)) {
				fprintf(stderr, "lruscope export: --listen '%s': want ADDR:PORT, an IPv4 "
						"or [IPv6] address and a port from 1 to 65535, as "
						"127.0.0.1:9464 or [::1]:9464\n", optarg);
				return -EINVAL;
			}
			a->listen = optarg;
			a->listen_given = true;
			break;
		}
		case OPT_TEXTFILE:
			a->textfile = optarg;
			break;
		case 'i':
			if (lrs_cli__seconds("export", 'i', optarg, &copts->interval_s))
				return -EINVAL;
			break;
		case 'd':
			if (lrs_cli__seconds("export", 'd', optarg, &a->duration))
				return -EINVAL;
			break;
		case OPT_MAX_SERIES:
			if (lrs_parse_uint(optarg, 100000000, &a->max_series) || a->max_series < 100) {
				fprintf(stderr, "lruscope export: --max-series '%s': want a number, at least 100\n",
					optarg);
				return -EINVAL;
			}
			break;
		case OPT_TOP_LOCKS:
			if (lrs_parse_uint(optarg, 10000, &a->top_locks)) {
				fprintf(stderr, "lruscope export: --top-locks '%s': want 0 to 10000\n", optarg);
				return -EINVAL;
			}
			break;
		case OPT_USER:
			a->user = optarg;
			break;
		case 'q':
			a->quiet = true;
			break;
		case 'h':
			help(stdout);
			return 1;
		default:
			ret = lrs_cli__collector_option("export", c, optarg, copts);
			if (ret > 0)
				break;
			if (!ret)
				lrs_cli__bad_option("export", c, argv);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "lruscope export: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

int lrs_cmd_export(int argc, char **argv)
{
	struct export_args a = {
		.listen = DEFAULT_LISTEN, .user = "nobody", .max_series = 10000, .top_locks = 20,
	};
	struct lrs_collector_opts copts;
	struct lrs_export_opts eopts = { .version = LRS_VERSION };
	struct lrs_source *src = NULL;
	struct lrs_http *http = NULL;
	bool serve;
	char err[512] = "";
	int ret, status = LRS_EXIT_FAIL;

	lrs_collector_opts__defaults(&copts);
	copts.interval_s = 5;
	copts.stack_every = 0;	/* only the cause family uses stacks: none sampled, unless asked */
	copts.bpf_stats = true;	/* lruscope_bpf_run_seconds_total */
	ret = parse(argc, argv, &a, &copts);
	if (ret)
		return ret > 0 ? lrs_cli__stdout_done("export", "the help") : LRS_EXIT_USAGE;
	serve = a.listen_given || !a.textfile;

	/* everything a user can get wrong is said before BPF is loaded */
	if (a.textfile && lrs_textfile__check(a.textfile, err, sizeof(err))) {
		fprintf(stderr, "lruscope export: %s\n", err);
		return LRS_EXIT_FAIL;
	}
	lrs_signals__install();
	ret = lrs_collector__open(&copts, &src, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return LRS_EXIT_FAIL;
	}
	if (serve) {
		ret = lrs_http__start(a.listen, &http, err, sizeof(err));
		if (ret) {
			fprintf(stderr, "lruscope export: %s\n", err);
			goto out;
		}
		if (strcmp(a.user, "root") && geteuid() == 0) {
			ret = lrs_privileges__drop(a.user, err, sizeof(err));
			if (!ret && a.textfile)
				ret = lrs_textfile__check(a.textfile, err, sizeof(err));
			if (ret) {
				fprintf(stderr, "lruscope export: %s\n", err);
				goto out;
			}
		}
	}
	if (!a.quiet) {
		if (serve)
			fprintf(stderr, "lruscope export: serving http://%s/metrics", a.listen);
		else
			fprintf(stderr, "lruscope export: writing %s/%s", a.textfile, LRS_TEXTFILE_NAME);
		fprintf(stderr, " every %.3g s%s%s (Ctrl-C ends)\n", src->interval_s,
			serve && a.textfile ? " and " : "", serve && a.textfile ? a.textfile : "");
	}
	eopts.http = http;
	eopts.textfile_dir = a.textfile;
	eopts.max_series = a.max_series;
	eopts.top_locks = a.top_locks;
	eopts.holders = copts.holders;
	eopts.duration_s = a.duration;
	ret = lrs_export__run(src, &eopts, &lrs_stop, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "lruscope export: %s\n", err);
		goto out;
	}
	status = LRS_EXIT_OK;
out:
	lrs_http__stop(http);
	lrs_source__destroy(src);
	return status;
}
