// SPDX-License-Identifier: GPL-2.0
/* /metrics over libmicrohttpd: rendered pages shared by reference count. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

#include "ui/export/http.h"
#include "ui/text/exposition.h"

/* One rendered page, freed when the collector has replaced it and no scrape reads it. */
struct page {
	int refs; /* under lrs_http.lock */
	char *text;
	size_t len;
};

struct lrs_http {
	struct MHD_Daemon *daemon;
	pthread_mutex_t lock;
	struct page *pages[2]; /* by enum lrs_expo_format */
	struct lrs_http_stats stats;
};

struct page_ref {
	struct lrs_http *http;
	struct page *page;
};

static void page_put(struct lrs_http *http, struct page *p)
{
	bool last;

	if (!p)
		return;
	pthread_mutex_lock(&http->lock);
	last = --p->refs == 0;
	pthread_mutex_unlock(&http->lock);
	if (last) {
		free(p->text);
		free(p);
	}
}

static void page_ref_free(void *cls)
{
	struct page_ref *ref = cls;

	page_put(ref->http, ref->page);
	free(ref);
}

int lrs_http__parse_addr(const char *addr, struct sockaddr_storage *ss, size_t *len)
{
	char host[64];
	const char *colon, *h = addr;
	size_t hlen;
	char *end;
	unsigned long port;

	if (!addr)
		return -EINVAL;
	colon = strrchr(addr, ':');
	if (!colon || colon == addr)
		return -EINVAL;
	hlen = (size_t)(colon - addr);
	if (addr[0] == '[') {
		if (hlen < 3 || addr[hlen - 1] != ']')
			return -EINVAL;
		h = addr + 1;
		hlen -= 2;
	}
	if (hlen >= sizeof(host))
		return -EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = 0;
	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (errno || *end || !colon[1] || port == 0 || port > 65535)
		return -EINVAL;
	memset(ss, 0, sizeof(*ss));
	if (addr[0] == '[') {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)ss;

		if (inet_pton(AF_INET6, host, &s6->sin6_addr) != 1)
			return -EINVAL;
		s6->sin6_family = AF_INET6;
		s6->sin6_port = htons((uint16_t)port);
		*len = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)ss;

		if (inet_pton(AF_INET, host, &s4->sin_addr) != 1)
			return -EINVAL;
		s4->sin_family = AF_INET;
		s4->sin_port = htons((uint16_t)port);
		*len = sizeof(*s4);
	}
	return 0;
}

static enum MHD_Result answer_text(struct MHD_Connection *conn, unsigned int code, const char *text)
{
	struct MHD_Response *resp =
		MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
	enum MHD_Result ret;

	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
	if (code == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(conn, code, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result answer_metrics(struct lrs_http *http, struct MHD_Connection *conn)
{
	enum lrs_expo_format fmt = lrs_expo__negotiate(
		MHD_lookup_connection_value(conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	struct page_ref *ref = malloc(sizeof(*ref));
	struct MHD_Response *resp;
	enum MHD_Result ret;

	if (!ref)
		return MHD_NO;
	pthread_mutex_lock(&http->lock);
	ref->http = http;
	ref->page = http->pages[fmt];
	if (ref->page)
		ref->page->refs++;
	http->stats.scrapes += ref->page != NULL;
	pthread_mutex_unlock(&http->lock);
	if (!ref->page) {
		free(ref);
		return answer_text(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
				   "lruscope: the first snapshot is not taken yet\n");
	}
	resp = MHD_create_response_from_buffer_with_free_callback_cls(
		ref->page->len, ref->page->text, page_ref_free, ref);
	if (!resp) {
		page_ref_free(ref);
		return MHD_NO;
	}
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, lrs_expo__content_type(fmt));
	ret = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
				  const char *method, const char *version, const char *upload_data,
				  size_t *upload_data_size, void **con_cls)
{
	struct lrs_http *http = cls;
	bool get = !strcmp(method, MHD_HTTP_METHOD_GET),
	     head = !strcmp(method, MHD_HTTP_METHOD_HEAD);
	unsigned int code = 0;
	const char *text = NULL;

	if (*upload_data_size) {
		*upload_data_size = 0; /* a body is read and ignored: nothing here takes one */
		return MHD_YES;
	}
	if (!get && !head) {
		code = MHD_HTTP_METHOD_NOT_ALLOWED;
		text = "lruscope: only GET and HEAD\n";
	} else if (!strcmp(url, "/metrics")) {
		return answer_metrics(http, conn);
	} else if (!strcmp(url, "/")) {
		return answer_text(
			conn, MHD_HTTP_OK,
			"lruscope exporter: lruvec lock waits per memcg and NUMA node at /metrics\n");
	} else {
		code = MHD_HTTP_NOT_FOUND;
		text = "lruscope: not found; the metrics are at /metrics\n";
	}
	pthread_mutex_lock(&http->lock);
	http->stats.rejected++;
	pthread_mutex_unlock(&http->lock);
	return answer_text(conn, code, text);
}

int lrs_http__start(const char *addr, struct lrs_http **out, char *err, size_t err_len)
{
	struct sockaddr_storage ss;
	size_t len;
	struct lrs_http *http;
	unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD;

	if (lrs_http__parse_addr(addr, &ss, &len)) {
		snprintf(err, err_len,
			 "--listen '%s': want ADDR:PORT, as 127.0.0.1:9464 or [::1]:9464", addr);
		return -EINVAL;
	}
	http = calloc(1, sizeof(*http));
	if (!http) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	pthread_mutex_init(&http->lock, NULL);
	if (ss.ss_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	errno = 0;
	http->daemon = MHD_start_daemon(
		flags, 0, NULL, NULL, on_request, http, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&ss, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned int)LRS_HTTP_MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned int)LRS_HTTP_IDLE_TIMEOUT_S, MHD_OPTION_LISTEN_BACKLOG_SIZE,
		(unsigned int)LRS_HTTP_MAX_CONNECTIONS, MHD_OPTION_END);
	if (!http->daemon) {
		int e = errno ? errno : EADDRINUSE;

		snprintf(err, err_len, "cannot listen on %s: %s%s", addr, strerror(e),
			 e == EADDRINUSE ? " (another exporter there? pick a port with --listen)" :
					   "");
		pthread_mutex_destroy(&http->lock);
		free(http);
		return -e;
	}
	*out = http;
	return 0;
}

static struct page *page_new(char *text, size_t len)
{
	struct page *p = malloc(sizeof(*p));

	if (!p)
		return NULL;
	p->refs = 1; /* the server's own */
	p->text = text;
	p->len = len;
	return p;
}

int lrs_http__publish(struct lrs_http *http, char *prometheus, size_t prometheus_len,
		      char *openmetrics, size_t openmetrics_len)
{
	struct page *fresh[2] = { page_new(prometheus, prometheus_len),
				  page_new(openmetrics, openmetrics_len) };
	struct page *old[2];

	if (!fresh[0] || !fresh[1]) {
		free(fresh[0]);
		free(fresh[1]);
		free(prometheus);
		free(openmetrics);
		return -ENOMEM;
	}
	pthread_mutex_lock(&http->lock);
	for (int i = 0; i < 2; i++) {
		old[i] = http->pages[i];
		http->pages[i] = fresh[i];
	}
	pthread_mutex_unlock(&http->lock);
	page_put(http, old[0]);
	page_put(http, old[1]);
	return 0;
}

void lrs_http__stats(struct lrs_http *http, struct lrs_http_stats *out)
{
	pthread_mutex_lock(&http->lock);
	*out = http->stats;
	pthread_mutex_unlock(&http->lock);
}

void lrs_http__stop(struct lrs_http *http)
{
	if (!http)
		return;
	/* joins the server's thread: every response, and its page reference, is gone after */
	MHD_stop_daemon(http->daemon);
	page_put(http, http->pages[0]);
	page_put(http, http->pages[1]);
	pthread_mutex_destroy(&http->lock);
	free(http);
}
