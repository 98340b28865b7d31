/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exporter's HTTP side (libmicrohttpd, its own thread): serves the page
 * the collector last published, at /metrics, in the format the scraper's
 * Accept asks for. A scrape only takes a reference to a rendered page, so
 * scrapes never wait for the collector nor the collector for them.
 */
#ifndef LRS_EXPORT_HTTP_H
#define LRS_EXPORT_HTTP_H

#include <stddef.h>
#include <stdint.h>

/* Bounds on the network side (docs/metrics.md says why these). */
#define LRS_HTTP_MAX_CONNECTIONS 256
#define LRS_HTTP_IDLE_TIMEOUT_S 10

struct lrs_http;

struct lrs_http_stats {
	uint64_t scrapes;  /* 200s on /metrics */
	uint64_t rejected; /* 4xx answers */
};

/*
 * Listen on addr ("127.0.0.1:9464", "[::1]:9464", "0.0.0.0:9464"). On
 * failure returns -errno and says what failed in err.
 */
int lrs_http__start(const char *addr, struct lrs_http **out, char *err, size_t err_len);
/*
 * Publish a new page in both formats; the server owns the buffers (malloc'd)
 * from now on, and frees each once no scrape uses it. -ENOMEM: both freed.
 */
int lrs_http__publish(struct lrs_http *http, char *prometheus, size_t prometheus_len,
		      char *openmetrics, size_t openmetrics_len);
void lrs_http__stats(struct lrs_http *http, struct lrs_http_stats *out);
void lrs_http__stop(struct lrs_http *http); /* accepts NULL */

/* Parse "HOST:PORT" / "[V6]:PORT"; -EINVAL when it is not one. */
struct sockaddr_storage;
int lrs_http__parse_addr(const char *addr, struct sockaddr_storage *ss, size_t *len);

#endif
