/* cordon-bench-proxy: the cost of network by domain (scripts/bench).
 *   serve IP PORTFILE       a TCP server on IP (ephemeral port, written to
 *                           PORTFILE): each connection gets zeros until it
 *                           closes; runs until killed
 *   connect HOST PORT N     N connections set up, as a client sees them:
 *                           with HTTP_PROXY set, a CONNECT HOST:PORT through
 *                           it up to its 200; without, a direct connect to
 *                           HOST (an IPv4 address). Median and p90 in us.
 *   read HOST PORT BYTES    BYTES read over one such connection, in MB/s. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static void *feed(void *arg)
{
	int c = (int)(intptr_t)arg;
	static char zeros[1 << 16];
	while (send(c, zeros, sizeof(zeros), MSG_NOSIGNAL) > 0)
		;
	close(c);
	return NULL;
}

static int serve(const char *ip, const char *portfile)
{
	int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t len = sizeof(a);
	if (inet_pton(AF_INET, ip, &a.sin_addr) != 1 || bind(l, (struct sockaddr *)&a, len) < 0 ||
	    listen(l, 1024) < 0 || getsockname(l, (struct sockaddr *)&a, &len) < 0) {
		perror("serve");
		return 1;
	}
	FILE *f = fopen(portfile, "w");
	if (!f)
		return 1;
	fprintf(f, "%d\n", ntohs(a.sin_port));
	fclose(f);
	for (;;) {
		int c = accept(l, NULL, NULL);
		pthread_t t;
		if (c >= 0 && pthread_create(&t, NULL, feed, (void *)(intptr_t)c) == 0)
			pthread_detach(t);
		else if (c >= 0)
			close(c);
	}
}

/* A connection to HOST:PORT, through $HTTP_PROXY when set. -1 on failure. */
static int open_one(const char *host, int port)
{
	const char *proxy = getenv("HTTP_PROXY");
	struct sockaddr_in a = {.sin_family = AF_INET};
	if (proxy && strncmp(proxy, "http://", 7) == 0) {
		char ip[64];
		const char *colon = strrchr(proxy + 7, ':');
		if (!colon || (size_t)(colon - proxy - 7) >= sizeof(ip))
			return -1;
		snprintf(ip, sizeof(ip), "%.*s", (int)(colon - proxy - 7), proxy + 7);
		inet_pton(AF_INET, ip, &a.sin_addr);
		a.sin_port = htons((uint16_t)atoi(colon + 1));
	} else {
		proxy = NULL;
		inet_pton(AF_INET, host, &a.sin_addr);
		a.sin_port = htons((uint16_t)port);
	}
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
		if (s >= 0)
			close(s);
		return -1;
	}
	if (!proxy)
		return s;
	char req[512];
	int n = snprintf(req, sizeof(req), "CONNECT %s:%d HTTP/1.1\r\nHost: %s:%d\r\n\r\n", host,
			 port, host, port);
	if (send(s, req, (size_t)n, 0) != n) {
		close(s);
		return -1;
	}
	/* Up to the end of the answer's head, byte by byte (the tunnel's
	 * bytes come right after it). */
	char last[4] = {0};
	char c;
	while (memcmp(last, "\r\n\r\n", 4) != 0) {
		if (recv(s, &c, 1, 0) != 1) {
			close(s);
			return -1;
		}
		memmove(last, last + 1, 3);
		last[3] = c;
	}
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "serve") == 0)
		return serve(argv[2], argv[3]);
	if (argc != 5) {
		fprintf(stderr,
			"usage: cordon-bench-proxy serve IP PORTFILE | connect HOST PORT N | "
			"read HOST PORT BYTES\n");
		return 2;
	}
	int port = atoi(argv[3]);
	if (strcmp(argv[1], "connect") == 0) {
		int n = atoi(argv[4]);
		double *us = malloc((size_t)n * sizeof(*us));
		for (int i = 0; i < n; i++) {
			double t = bench_now_us();
			int s = open_one(argv[2], port);
			us[i] = bench_now_us() - t;
			if (s < 0) {
				fprintf(stderr, "connect %s:%d: %s\n", argv[2], port,
					strerror(errno));
				return 1;
			}
			close(s);
		}
		qsort(us, (size_t)n, sizeof(*us), bench_cmp_double);
		printf("median %.1f us p90 %.1f us\n", us[n / 2], us[n * 9 / 10]);
		free(us);
		return 0;
	}
	long long want = atoll(argv[4]), got = 0;
	static char buf[1 << 17];
	int s = open_one(argv[2], port);
	if (s < 0) {
		perror("connect");
		return 1;
	}
	double t = bench_now_us();
	while (got < want) {
		ssize_t r = recv(s, buf, sizeof(buf), 0);
		if (r <= 0) {
			perror("recv");
			return 1;
		}
		got += r;
	}
	t = bench_now_us() - t;
	close(s);
	printf("rate %.1f MB/s\n", (double)got / t);
	return 0;
}
