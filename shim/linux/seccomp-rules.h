/* The syscall filter's rules, in libseccomp terms. Used at build time by
 * seccomp-gen (which compiles them to BPF for the shim) and by the tests
 * (which check the embedded BPF against a fresh compile). The shim itself
 * never links libseccomp. */
#ifndef CORDON_SECCOMP_RULES_H
#define CORDON_SECCOMP_RULES_H

#include <seccomp.h>
#include <stdbool.h>

/* What a filter is built for (a mask). */
enum cordon_seccomp_flags {
	CORDON_SECCOMP_NETWORK = 1u << 0,    /* allow_network */
	CORDON_SECCOMP_SUPERVISED = 1u << 1, /* the calls the supervisor judges go to it */
	/* With SUPERVISED: unix sockets are Landlock's (ABI 9 RESOLVE_UNIX), so
	 * connect and the sends stay off the supervisor, online (offline it
	 * still judges internet sockets: one passed in from the host). */
	CORDON_SECCOMP_UNIX_IN_KERNEL = 1u << 2,
	/* With NETWORK and SUPERVISED: network by domain (allowed_domains). TCP
	 * sockets may be made, and every connect and addressed send goes to the
	 * supervisor (UNIX_IN_KERNEL or not), which lets one reach the proxy
	 * alone; other internet sockets go to it to be refused (and said once);
	 * every other family and netlink as offline. */
	CORDON_SECCOMP_DOMAINS = 1u << 3,
	/* With SUPERVISED: chmod, chown and utimes are the kernel's (the
	 * read-only view of mountns.c refuses them outside the write rules),
	 * with the set-id bits refused here as without a supervisor; extended
	 * attributes and watches still go to the supervisor. */
	CORDON_SECCOMP_META_IN_KERNEL = 1u << 4,
	/* With SUPERVISED, offline: the session lives in a network namespace
	 * of its own whose loopback is up (netns.c), where nothing else is:
	 * internet sockets are the kernel's, made there, and reach only that
	 * loopback (the supervisor refuses their connects and sends elsewhere,
	 * saying why, and any to a socket from outside). Servers on
	 * 127.0.0.1 inside, test suites', work offline too. */
	CORDON_SECCOMP_OWN_NETNS = 1u << 5,
};

/* A filter context with every rule for FLAGS: the terminal-injection ioctls
 * and the dangerous-syscall blocklist always; with the network off, every
 * socket family but unix and netlink, and io_uring. SUPERVISED: connect,
 * sendto with an address, sendmsg and sendmmsg notify the supervisor
 * (SECCOMP_RET_USER_NOTIF), and io_uring (whose requests connect and send
 * past this filter) is refused whatever the network setting; with the
 * network on, socket() for every family but unix (netlink's refused
 * protocols aside) notifies it too, which makes the socket in the host's
 * network namespace (the session has its own, netns.c).
 * Returns NULL with *what naming the failing step and *errnum set. */
scmp_filter_ctx cordon_seccomp_rules(unsigned flags, const char **what, int *errnum);

#include <linux/filter.h>
#include <stddef.h>
#define CORDON_SECCOMP_AHEAD_MAX 32
#if defined(__x86_64__)
/* The instructions seccomp-gen puts ahead of libseccomp's program (x86_64):
 * they refuse, with EPERM, the calls libseccomp 2.5 cannot place in the
 * 32-bit and x32 tables (setxattrat, removexattrat, file_setattr), and
 * otherwise fall through to what follows (jumps are relative: the program
 * after them is unchanged). Into OUT (CORDON_SECCOMP_AHEAD_MAX); how many. */
size_t cordon_seccomp_ahead(struct sock_filter *out);
#endif

#endif
