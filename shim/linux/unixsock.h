/* Internal: the unix-socket policy the supervisor applies (unixsock.c).
 *
 * A connect (or a send with an address) from inside reaches a pathname or
 * abstract unix socket only when
 *   - its listener is held by a process of this session (a server started
 *     inside: tmux, an ssh-agent, a database, a test server), or
 *   - it is one of the allowed sockets (allowed_unix_sockets, --allow-socket),
 *     compared by inode: the path the caller wrote, its symlinks, hard links
 *     and renamed parents gain nothing.
 * Everything else is refused with EACCES, even a socket under a read-write
 * rule (/tmp, /run/user/UID): a socket is a door to a process, not a file. */
#ifndef CORDON_UNIXSOCK_H
#define CORDON_UNIXSOCK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71 /* Linux 5.14: a socket's network namespace */
#endif

#include "cordon/error.h"
#include "cordon/policy.h"

/* An allowed socket, pinned when the session starts: the O_PATH fd keeps the
 * inode (and so its number) from being reused while the session lives. */
struct cordon_unix_pin {
	dev_t dev;
	ino_t ino;
	int fd;
};

#define CORDON_UNIX_CACHE 64

struct cordon_unix_policy {
	struct cordon_unix_pin *allowed;
	size_t n_allowed;
	/* Who is in the session: the cgroup directory, or (subreaper tracking)
	 * the pid whose descendants are the session. */
	char *cgroup;
	pid_t root;
	/* Socket files found to have a listener inside the session, pinned: a
	 * socket file is bound once, so the answer holds while the inode does. */
	pthread_mutex_t lock;
	struct cordon_unix_pin inside[CORDON_UNIX_CACHE];
	size_t n_inside, next_inside;
	/* The session's network namespace (netns.c): its socket diagnostics
	 * (one dump at a time, under diag_lock) and its cookie; -1 and 0
	 * without one. */
	int netns_diag;
	uint64_t netns_cookie;
	pthread_mutex_t diag_lock;
};

/* Pin P's allowed sockets into U. An allowed socket gone since the policy
 * was resolved is left out (only less is reachable). */
int cordon_unix_policy_init(struct cordon_unix_policy *u, const struct cordon_policy *p,
			    const char *cgroup, pid_t root, struct cordon_error *err);
void cordon_unix_policy_free(struct cordon_unix_policy *u);
/* The session lives in a network namespace of its own, which DIAG (a
 * NETLINK_SOCK_DIAG socket made there; taken, or -1) lists: its listeners
 * are looked for there too, and abstract names there only. */
void cordon_unix_policy_netns(struct cordon_unix_policy *u, int diag);

/* What the caller TID names with the pathname SUN_PATH (NUL-terminated),
 * resolved in its own view (its root and working directory; magic links
 * such as /proc/self/fd/N are refused, as "self" would be the supervisor):
 * an O_PATH fd on the socket (close-on-exec), or -errno as the kernel's
 * connect would fail (ENOENT, ENOTDIR, ECONNREFUSED for a file that is not
 * a socket, ...). */
int cordon_unix_open(pid_t tid, const char *sun_path);

/* The verdict on the socket PINNED (from cordon_unix_open): 0 allowed,
 * -EACCES refused, -ECONNREFUSED when no live listener is bound to it here
 * (nothing can be reached: answered without connecting). */
int cordon_unix_judge(struct cordon_unix_policy *u, int pinned);

/* The verdict on the abstract name NAME (LEN bytes after the leading NUL),
 * looked for in the session's network namespace where it has one (the
 * caller's socket must then be of it: cordon_unix_netns_cookie), else in
 * ours: 0 when its listener is held inside the session, -ECONNREFUSED when
 * no socket has that name, else -EPERM (what Landlock's scope answers). */
int cordon_unix_judge_abstract(struct cordon_unix_policy *u, const char *name, size_t len);

/* Every pid of the session U describes (malloc'd). */
int cordon_unix_session_pids(const struct cordon_unix_policy *u, pid_t **pids, size_t *n);

#endif
