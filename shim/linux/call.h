/* Internal: one call the supervisor is answering (supervisor.c), and what
 * every handler uses to look at its caller. */
#ifndef CORDON_CALL_H
#define CORDON_CALL_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* The caller's credentials, from /proc/TID/status. */
struct cordon_creds {
	bool read;
	unsigned uid[4], gid[4]; /* real, effective, saved, filesystem */
	int n_groups;
	gid_t groups[256];
	unsigned long long cap_eff;
	pid_t ns_tgid, ns_tid; /* in its own pid namespace (what its /proc/self names) */
};

struct cordon_call {
	const struct seccomp_notif *req;
	pid_t tid;
	int pidfd; /* the caller's (thread) pidfd, or -1 until needed */
	struct cordon_creds creds;
};

/* Whether the caller still waits for this answer (its memory and fds are
 * still the ones the call was made with). */
bool cordon_call_waiting(const struct cordon_call *c);
/* LEN bytes at the caller's ADDR into BUF: 0, or -ESRCH/-EFAULT/-EACCES. */
int cordon_call_peek(const struct cordon_call *c, uint64_t addr, void *buf, size_t len);
/* The NUL-terminated string at ADDR into BUF (SIZE bytes at most, its NUL
 * included): 0, -ENAMETOOLONG, or as cordon_call_peek. */
int cordon_call_string(const struct cordon_call *c, uint64_t addr, char *buf, size_t size);
/* A copy of the caller's fd FD (close-on-exec), or -errno. */
int cordon_call_take_fd(struct cordon_call *c, int fd);
/* Perform what follows with the caller's credentials (uid, gids, groups,
 * effective capabilities), on this thread, until cordon_call_restore: what
 * the supervisor does for a caller must not be done with more than the
 * caller has (a root supervisor, a caller that dropped root). Nothing when
 * the supervisor itself is unprivileged: its caller has the same uid and no
 * more. The caller's memory and fds are read outside (they need the
 * supervisor's own rights). 0, or -errno (nothing to restore then). */
int cordon_call_assume(struct cordon_call *c);
void cordon_call_restore(void);
/* Read the caller's credentials and own pids now (from /proc/TID/status,
 * once a call), whether or not cordon_call_assume needs them. 0, or
 * -errno. */
int cordon_call_creds(struct cordon_call *c);
/* An O_PATH fd on the caller's WHICH ("root" or "cwd", as /proc shows
 * them), or -ESRCH (gone) / -EACCES. */
int cordon_call_dir(const struct cordon_call *c, const char *which);
/* The thread group (process) of TID, from /proc, or -1. */
pid_t cordon_tgid_of(pid_t tid);

#endif
