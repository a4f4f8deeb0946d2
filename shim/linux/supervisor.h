/* Internal: the session's supervisor (supervisor.c), outside the sandbox.
 *
 * The supervised seccomp filter (seccomp-rules.h) sends connect, sendto
 * with an address, sendmsg and sendmmsg to it. For each it reads the
 * caller's arguments once, decides (the unix-socket policy of unixsock.h;
 * the network setting for IP), and performs the call itself on a copy of the
 * caller's socket (pidfd_getfd) with its own copy of the arguments: the
 * kernel never re-reads what was checked, and nothing is answered with
 * "continue". A call it cannot judge (memory unreadable, the caller gone) is
 * refused. Online, socket() for every family but unix comes to it too: the
 * session lives in a network namespace of its own (netns.c), and the
 * supervisor makes those sockets in the host's, as the caller, and places
 * them in the caller's fd table (decided on registers alone). */
#ifndef CORDON_SUPERVISOR_H
#define CORDON_SUPERVISOR_H

#include <netinet/in.h>
#include <stdbool.h>

#include "cordon/error.h"
#include "metadata.h"
#include "sysvipc.h"
#include "unixsock.h"

struct cordon_supervisor_config {
	int listener;       /* the seccomp listener; taken */
	bool allow_network; /* else IP destinations are refused */
	/* Network by domain: an IP destination must be PROXY exactly, on a TCP
	 * socket (proxy.h); every other is refused. */
	bool domains;
	struct sockaddr_in proxy;
	struct cordon_unix_policy *sockets; /* borrowed: lives as long as the process */
	int learn_fd;               /* -1, or where refused sockets are recorded ("s\tPATH\n") */
	struct cordon_ipc_set *ipc; /* the session's System V objects (sysvipc.h) */
	const struct cordon_meta *meta; /* the rules for metadata and watches */
};

/* Start the supervisor's threads (of this process, until it exits; at most
 * one supervisor per process), which wait for cordon_supervisor_start: done
 * ahead, while the command's loader runs. They keep the signal mask they
 * were started with (the caller's). */
int cordon_supervisor_prepare(struct cordon_error *err);
/* Start answering on CFG's listener. */
void cordon_supervisor_start(const struct cordon_supervisor_config *cfg);

#endif
