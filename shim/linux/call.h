/* Internal: one call the supervisor is answering (supervisor.c), and what
 * every handler uses to look at its caller. */
#ifndef CORDON_CALL_H
#define CORDON_CALL_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct cordon_call {
	const struct seccomp_notif *req;
	pid_t tid;
	int pidfd; /* the caller's (thread) pidfd, or -1 until needed */
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
/* The thread group (process) of TID, from /proc, or -1. */
pid_t cordon_tgid_of(pid_t tid);

#endif
