/* Internal: calls that name another process by pid (pidcall.c).
 *
 * Signals are scoped by Landlock (ABI 6), ptrace and everything that asks
 * ptrace's permission (process_vm_*, pidfd_getfd, kcmp, move_pages) too. A
 * few setters ask only that the caller have the target's uid: prlimit (an
 * RLIMIT_CPU of 1 kills the target), setpriority, the sched_* setters and
 * ioprio_set. The filter lets through the calls on the caller itself (pid
 * 0) and sends the rest to the supervisor, which lets them go on only when
 * every process they name is in the session. Decided on registers only (the
 * pid), so the call goes on with CONTINUE; the window in which the named
 * process could die and its pid be handed to a process outside is the
 * supervisor's look at /proc, with the pid space to cycle through first. */
#ifndef CORDON_PIDCALL_H
#define CORDON_PIDCALL_H

#include <linux/seccomp.h>
#include <stdbool.h>

#include "unixsock.h"

/* Whether D (from the caller TID) is one of these calls. */
bool cordon_pidcall_is(const struct seccomp_data *d);
/* 0: every process D names is in the session U describes (go on); else
 * -EPERM, as the kernel answers a caller without the right. */
int cordon_pidcall_judge(const struct cordon_unix_policy *u, pid_t tid,
			 const struct seccomp_data *d);
/* ioctl(FD, TIOCSPGRP, &PGRP) from the caller of C: the group read once from
 * its memory, allowed when every process in it is the session's, or it is
 * the group the session started in (the launcher's), and the terminal's
 * foreground is the session's or the launcher's now (never taken from a
 * group outside), and then set here,
 * on the caller's fd, never by the kernel reading the caller's memory
 * again. The call's result: 0 or -errno; 1 where the caller's session is
 * not the launcher's (one made inside: every group in it is the
 * session's), and the kernel goes on. */
struct cordon_call;
int cordon_pidcall_tty_pgrp(const struct cordon_unix_policy *u, struct cordon_call *c);

#endif
