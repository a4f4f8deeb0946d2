/* The proxy's portable relay (see proxy.h): recv and send through one
 * 64 KiB buffer per direction, waiting in poll on the two non-blocking
 * sockets. macOS has no splice; Linux builds it with CORDON_PROXY_PORTABLE
 * (and tests it so), else linux/proxy-splice.c. The same loop as the
 * splice relay, with a buffer where that one has a pipe. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proxy.h"

#define BUF_SIZE (1 << 16)

#ifdef MSG_NOSIGNAL
#define SEND_FLAGS MSG_NOSIGNAL
#else
#define SEND_FLAGS 0 /* the sockets have SO_NOSIGPIPE (proxy.c) */
#endif

const char cordon_proxy_relay_kind[] = "poll";

struct way {
	int from, to;
	char *buf;
	size_t off, len; /* the bytes received and not yet sent: buf[off, off + len) */
	bool eof;        /* FROM said all; TO told once the buffer is empty */
	bool done;
};

static bool again(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
}

/* Move what can be moved on W without waiting; false on an error. */
static bool pump(struct way *w)
{
	for (;;) {
		if (!w->eof && w->len < BUF_SIZE) {
			if (w->off + w->len == BUF_SIZE) { /* room only before: move down */
				memmove(w->buf, w->buf + w->off, w->len);
				w->off = 0;
			}
			size_t end = w->off + w->len;
			ssize_t n = recv(w->from, w->buf + end, BUF_SIZE - end, 0);
			if (n == 0)
				w->eof = true;
			else if (n > 0)
				w->len += (size_t)n;
			else if (!again())
				return false;
		}
		if (w->len) {
			ssize_t n = send(w->to, w->buf + w->off, w->len, SEND_FLAGS);
			if (n > 0) {
				w->len -= (size_t)n;
				w->off = w->len ? w->off + (size_t)n : 0;
				continue;
			}
			if (n < 0 && !again())
				return false;
		}
		if (w->eof && !w->len && !w->done) {
			(void)shutdown(w->to, SHUT_WR);
			w->done = true;
		}
		return true;
	}
}

void cordon_proxy_relay(int client, int upstream)
{
	struct way w[2] = {{.from = client, .to = upstream}, {.from = upstream, .to = client}};
	for (int i = 0; i < 2; i++)
		if (!(w[i].buf = malloc(BUF_SIZE)))
			goto out;
	(void)fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK);
	(void)fcntl(upstream, F_SETFL, fcntl(upstream, F_GETFL) | O_NONBLOCK);
	while (!(w[0].done && w[1].done)) {
		if (!pump(&w[0]) || !pump(&w[1]))
			break;
		struct pollfd p[2] = {{.fd = client}, {.fd = upstream}};
		for (int i = 0; i < 2; i++) {
			short *from = &p[i].events, *to = &p[1 - i].events;
			if (!w[i].eof && w[i].len < BUF_SIZE)
				*from |= POLLIN;
			if (w[i].len)
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
	free(w[0].buf);
	free(w[1].buf);
}
