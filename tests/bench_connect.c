/* cordon-bench-connect MODE N: the cost of one connect, as the supervisor
 * sees it (scripts/bench runs it inside and outside cordon).
 *   inside PATH   a unix listener this process makes at PATH (the session's
 *                 own: the supervisor's in-session path, cached after the
 *                 first), N connects to it
 *   unix PATH     N connects to a listener somebody else made (outside: an
 *                 allowed socket)
 *   tcp PORT      N connects to 127.0.0.1:PORT
 * Prints the median and the 90th percentile of one socket+connect+close, in
 * microseconds. A thread accepts and closes what comes in. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static void *acceptor(void *arg)
{
	int l = *(int *)arg;
	for (;;) {
		int c = accept(l, NULL, NULL);
		if (c >= 0)
			close(c);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: cordon-bench-connect inside|unix PATH N | tcp PORT N\n");
		return 2;
	}
	int n = atoi(argv[3]);
	struct sockaddr_storage ss = {0};
	socklen_t len;
	int family = AF_UNIX;
	if (strcmp(argv[1], "tcp") == 0) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)atoi(argv[2]));
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*in);
		family = AF_INET;
	} else {
		struct sockaddr_un *un = (struct sockaddr_un *)&ss;
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof(un->sun_path), "%s", argv[2]);
		len = sizeof(*un);
	}
	if (strcmp(argv[1], "inside") == 0) {
		static int l;
		unlink(argv[2]);
		l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (l < 0 || bind(l, (struct sockaddr *)&ss, len) < 0 || listen(l, 512) < 0) {
			perror("listen");
			return 1;
		}
		pthread_t t;
		pthread_create(&t, NULL, acceptor, &l);
	}
	double *us = malloc((size_t)n * sizeof(*us));
	for (int i = 0; i < n; i++) {
		double a = bench_now_us();
		int s = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int r = connect(s, (struct sockaddr *)&ss, len);
		close(s);
		us[i] = bench_now_us() - a;
		if (r < 0) {
			fprintf(stderr, "connect %s: %s\n", argv[2], strerror(errno));
			return 1;
		}
	}
	qsort(us, (size_t)n, sizeof(*us), bench_cmp_double);
	printf("median %.1f us p90 %.1f us\n", us[n / 2], us[n * 9 / 10]);
	if (strcmp(argv[1], "inside") == 0)
		unlink(argv[2]);
	return 0;
}
