/* Internal: the session's own network namespace (netns.c). */
#ifndef CORDON_NETNS_H
#define CORDON_NETNS_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon/error.h"

/* Move this process into a network namespace of its own (it needs
 * CAP_SYS_ADMIN: root's, or its user namespace's), with its loopback up
 * when LOOPBACK (offline: the session's internet sockets are made there),
 * and make the socket diagnostics socket the supervisor reads it with. 0,
 * or -errno with ERR. */
int cordon_netns_enter(bool loopback, struct cordon_error *err);
/* Whether this process moved into one. */
bool cordon_netns_entered(void);
/* Each unix socket this process holds that has no name yet (handed in:
 * stdin as one end of a socket pair, a --pass-fd) autobound, before the
 * program runs: it was made in the host's network namespace, where a name
 * bound inside would be the host's (a datagram server outside clients
 * reach, a name an outside server then cannot take). Autobound, it has a
 * name of the kernel's choosing, which no client looks for, and no other.
 * 0, or -errno with ERR. */
int cordon_netns_settle(struct cordon_error *err);
/* That socket (close-on-exec), or -1: the caller closes it once handed
 * over. */
int cordon_netns_take_diag(void);
/* Whether this process could make one (a child tries; SYSADMIN: it holds
 * CAP_SYS_ADMIN, else in a user namespace of its own); if not, WHY says
 * why. */
bool cordon_netns_possible(bool sysadmin, char *why, size_t size);

#endif
