/* The syscall filter's rules, in libseccomp terms. Used at build time by
 * seccomp-gen (which compiles them to BPF for the shim) and by the tests
 * (which check the embedded BPF against a fresh compile). The shim itself
 * never links libseccomp. */
#ifndef CORDON_SECCOMP_RULES_H
#define CORDON_SECCOMP_RULES_H

#include <seccomp.h>
#include <stdbool.h>

/* A filter context with every rule for the given network setting: the
 * terminal-injection ioctls and the dangerous-syscall blocklist always; with
 * the network off, every socket family but unix and netlink, and io_uring.
 * Returns NULL with *what naming the failing step and *errnum set. */
scmp_filter_ctx cordon_seccomp_rules(bool allow_network, const char **what, int *errnum);

#endif
