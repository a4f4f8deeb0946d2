/* The session's own network namespace (Linux).
 *
 * An abstract unix socket has no file: its name lives in the network
 * namespace, where any process may bind one nobody holds yet (an X display
 * with no server) and any process may connect to it. Landlock's scope (ABI 6)
 * keeps the session's connects in; nothing keeps a client outside from
 * reaching a listener of the session's. So a supervised session lives in a
 * network namespace of its own: its unix sockets, made by its processes as
 * ever, are that namespace's, and an abstract name bound inside exists only
 * there. Pathname sockets are files and cross namespaces as before (the
 * supervisor judges them). The internet and netlink sockets of a session
 * online are made by the supervisor, in the host's namespace
 * (seccomp-rules.c host_families, supervisor.c do_socket): the network the
 * user allowed is the host's, loopback listeners included.
 *
 * Offline, nothing of the host's network is the session's: its internet
 * sockets are made here by the kernel, in this namespace, whose loopback
 * is up and which has nothing else (a test suite's server on 127.0.0.1
 * works; no host's listener, loopback ones included, is reached).
 *
 * The supervisor learns who listens inside from a socket-diagnostics
 * socket made here, in the new namespace, before the filter refuses that
 * family, and handed over with the seccomp listener (run.c). */
#include "netns.h"
#include "linux.h"

#include <errno.h>
#include <linux/netlink.h>
#include <net/if.h>
#include <linux/sock_diag.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static int diag = -1;
static bool entered;

/* The namespace's loopback up: offline, the session's internet sockets are
 * made there (seccomp-rules.c CORDON_SECCOMP_OWN_NETNS), and its servers on
 * 127.0.0.1 and ::1 are reached from inside, and from nowhere else. */
static int loopback_up(struct cordon_error *err)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	int r = s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) < 0 ? -errno : 0;
	ifr.ifr_flags |= IFF_UP;
	if (r == 0 && ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		r = -errno;
	if (s >= 0)
		close(s);
	return r < 0 ? cordon_err(err, -r, "a network namespace of its own: its loopback: %s",
				  strerror(-r))
		     : 0;
}

int cordon_netns_enter(bool loopback, struct cordon_error *err)
{
	if (unshare(CLONE_NEWNET) < 0)
		return cordon_err(err, errno, "a network namespace of its own: unshare: %s",
				  strerror(errno));
	entered = true;
	if (loopback) {
		int r = loopback_up(err);
		if (r < 0)
			return r;
	}
	/* Close-on-exec: the launcher takes its copy before the command runs. */
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return cordon_err(err, errno,
				  "a network namespace of its own: its socket diagnostics: %s",
				  strerror(errno));
	if (diag >= 0)
		close(diag);
	diag = fd;
	return 0;
}

/* An unbound unix socket that came in (stdin as one end of a socket pair,
 * a --pass-fd): autobound (review 44a F1-F3). */
static int settle_one(int fd, const struct stat *st, void *arg)
{
	struct cordon_error *err = arg;
	int domain = 0;
	socklen_t len = sizeof(domain);
	if (!S_ISSOCK(st->st_mode) || getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0 ||
	    domain != AF_UNIX)
		return 0;
	struct sockaddr_un un;
	len = sizeof(un);
	if (getsockname(fd, (struct sockaddr *)&un, &len) < 0 ||
	    len > offsetof(struct sockaddr_un, sun_path))
		return 0; /* bound already: its name is the one it has */
	un.sun_family = AF_UNIX;
	if (bind(fd, (struct sockaddr *)&un, offsetof(struct sockaddr_un, sun_path)) < 0 &&
	    errno != EINVAL /* bound meanwhile */)
		return cordon_err(err, errno,
				  "fd %d, a unix socket handed in: cannot give it a name of its "
				  "own (bind): %s",
				  fd, strerror(errno));
	return 0;
}

int cordon_netns_settle(struct cordon_error *err)
{
	int r = cordon_each_fd(false, settle_one, err);
	return r == -ENOENT ? 0 : r; /* (no /proc: nothing to list) */
}

bool cordon_netns_entered(void)
{
	return entered;
}

int cordon_netns_take_diag(void)
{
	int fd = diag;
	diag = -1;
	return fd;
}

bool cordon_netns_possible(bool sysadmin, char *why, size_t size)
{
	return cordon_unshare_possible(sysadmin ? CLONE_NEWNET : CLONE_NEWUSER | CLONE_NEWNET, why,
				       size);
}
