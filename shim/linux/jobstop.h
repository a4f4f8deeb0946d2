/* Internal: the session held still while its job is stopped (jobstop.c). */
#ifndef CORDON_JOBSTOP_H
#define CORDON_JOBSTOP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "unixsock.h"

struct cordon_jobstop {
	int cgroup_fd;  /* the session's cgroup (O_PATH), or -1: subreaper tracking */
	bool frozen;    /* hold froze the cgroup */
	pid_t *stopped; /* (else) the processes stopped here */
	size_t n, cap;
};

/* Before the launcher stops with its job (^Z, or the kernel's SIGTTIN or
 * SIGTTOU to its process group): every process of the session held, the
 * cgroup frozen (or, without one, each process not stopped already sent
 * SIGSTOP), so that none goes on reading the terminal the user's shell
 * takes back (round 59f F2: a read begun while its group had the
 * foreground kept reading after the job was shown stopped; held, it is
 * interrupted, and begun again it is judged again). Waits (briefly) for
 * the freeze. */
void cordon_jobstop_hold(struct cordon_jobstop *j, const struct cordon_unix_policy *u);
/* As the launcher goes on: what hold held goes on too. */
void cordon_jobstop_release(struct cordon_jobstop *j);

#endif
