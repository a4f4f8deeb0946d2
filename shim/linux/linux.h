/* Internal interface between the Linux enforcement files. */
#ifndef CORDON_LINUX_H
#define CORDON_LINUX_H

#include <linux/filter.h>
#include <stdbool.h>

#include "cordon/error.h"
#include "cordon/policy.h"

/* Install the seccomp filter for POLICY in the calling process (after
 * PR_SET_NO_NEW_PRIVS): always the terminal-injection ioctls and the
 * dangerous-syscall blocklist; with the network off, every socket family but
 * unix and netlink, and io_uring. */
int cordon_seccomp_apply(const struct cordon_policy *policy, struct cordon_error *err);

/* The BPF program cordon_seccomp_apply loads (compiled at build time from
 * seccomp-rules.c). */
void cordon_seccomp_program(bool allow_network, struct sock_fprog *out);

/* Remove the session cgroups beside PATH (cordon-<16 hex digits>, PATH's
 * own excepted) that are empty and at least MIN_AGE_S seconds old by their
 * modification time: the ones a watcher that was killed outright could not
 * remove. The age keeps clear of a launcher between its mkdir and its move
 * (microseconds apart); the kernel itself refuses to remove a cgroup with a
 * process in it. Returns how many were removed, or -errno. */
int cordon_cgroup_sweep(const char *path, int min_age_s);
#define CORDON_SWEEP_AGE_S 60

#endif
