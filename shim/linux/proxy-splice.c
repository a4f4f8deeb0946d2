/* The proxy's relay on Linux (see proxy.h): splice through one pipe per
 * direction (64 KiB each), the bytes never copied to user space, waiting
 * in poll on the two non-blocking sockets. The portable relay is
 * shim/proxy-relay.c; CMake picks one. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proxy.h"

#define PIPE_SIZE (1 << 16)

const char cordon_proxy_relay_kind[] = "splice";

struct way {
	int from, to;
	int pipe[2];
	size_t queued; /* in the pipe */
	bool eof;      /* FROM said all; TO told once the pipe is empty */
	bool done;
};

/* Move what can be moved on W without waiting; false on an error. */
static bool pump(struct way *w)
{
	for (;;) {
		if (!w->eof && w->queued < PIPE_SIZE) {
			ssize_t n = splice(w->from, NULL, w->pipe[1], NULL, PIPE_SIZE - w->queued,
					   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n == 0)
				w->eof = true;
			else if (n > 0)
				w->queued += (size_t)n;
			else if (errno != EAGAIN && errno != EINTR)
				return false;
		}
		if (w->queued) {
			ssize_t n = splice(w->pipe[0], NULL, w->to, NULL, w->queued,
					   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
			if (n > 0) {
				w->queued -= (size_t)n;
				continue;
			}
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				return false;
		}
		if (w->eof && !w->queued && !w->done) {
			(void)shutdown(w->to, SHUT_WR);
			w->done = true;
		}
		return true;
	}
}

void cordon_proxy_relay(int client, int upstream)
{
	struct way w[2] = {{.from = client, .to = upstream, .pipe = {-1, -1}},
			   {.from = upstream, .to = client, .pipe = {-1, -1}}};
	for (int i = 0; i < 2; i++)
		if (pipe2(w[i].pipe, O_CLOEXEC | O_NONBLOCK) < 0)
			goto out;
	(void)fcntl(w[0].pipe[1], F_SETPIPE_SZ, PIPE_SIZE);
	(void)fcntl(w[1].pipe[1], F_SETPIPE_SZ, PIPE_SIZE);
	(void)fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK);
	(void)fcntl(upstream, F_SETFL, fcntl(upstream, F_GETFL) | O_NONBLOCK);
	while (!(w[0].done && w[1].done)) {
		if (!pump(&w[0]) || !pump(&w[1]))
			break;
		struct pollfd p[2] = {{.fd = client}, {.fd = upstream}};
		for (int i = 0; i < 2; i++) {
			short *from = &p[i].events, *to = &p[1 - i].events;
			if (!w[i].eof && w[i].queued < PIPE_SIZE)
				*from |= POLLIN;
			if (w[i].queued)
				*to |= POLLOUT;
		}
		if (!p[0].events && !p[1].events)
			break;
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if ((p[0].revents | p[1].revents) & (POLLERR | POLLNVAL))
			break;
	}
out:
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 2; k++)
			if (w[i].pipe[k] >= 0)
				close(w[i].pipe[k]);
}
