/* Internal: the session held still while its job is stopped (jobstop.c). */
#ifndef CORDON_JOBSTOP_H
#define CORDON_JOBSTOP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "ptyrelay.h"
#include "unixsock.h"

/* A process the hold stopped, and a pidfd for it (-1: none could be had). */
struct cordon_held {
	pid_t pid;
	int fd;
};

struct cordon_jobstop {
	int cgroup_fd;               /* the session's cgroup (O_PATH), or -1: subreaper tracking */
	bool frozen;                 /* hold froze the cgroup */
	struct cordon_held *stopped; /* (else) the processes stopped here */
	size_t n, cap;
	int cmd_fd; /* cordon_jobstop_follow: the command's pidfd, or -1 */
	/* The session's own terminal: the user's modes put back as we stop,
	 * raw again as we go on; or NULL. */
	struct cordon_relay *relay;
	/* cordon_jobstop_stop: the stop goes to our whole process group (an
	 * ancestor of ours is in it: cordon_jobstop_follow). */
	bool whole_group;
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
/* The launcher stops with its job: the session held, SIG (blocked in the
 * calling thread) raised and taken, and, once we go on (or at once where
 * the kernel dropped it: an orphaned group), released. */
/* We stop by SIG (a stop signal blocked in the calling thread, as the
 * launcher's are: signalfd), as the kernel would have stopped us, or our
 * whole process group (WHOLE_GROUP); back once we are continued. */
void cordon_jobstop_take(int sig, bool whole_group);
void cordon_jobstop_stop(struct cordon_jobstop *j, const struct cordon_unix_policy *u, int sig);
/* Bumped as the launcher begins to stop with its job and as it goes on:
 * a supervisor thread's judgement that spans a change of it is stale (the
 * foreground it read may be the user's shell's by then: round 59f F3). */
extern _Atomic unsigned long cordon_jobstop_era;
/* The command CMD stopped by SIG on its own (the keeper said so: bash's
 * suspend, kill -STOP $$, a program that raises SIGTSTP at itself only,
 * round 59h M1), where the user's shell, waiting for the launcher, would
 * never have the terminal back: the launcher stops as its job too
 * (SIGTSTP, or the SIGTTIN or SIGTTOU that stopped it), and as it goes
 * on (fg), so does the command, with the terminal (TTY) given back to the
 * command's group if that group had it. Nothing where the command no
 * longer stands stopped (a stop the hold made, or one over), where the
 * whole job is stopping anyway (a stop signal pending for us), or where
 * nothing could stop us (an orphaned group). Whether it stopped. */
bool cordon_jobstop_follow(struct cordon_jobstop *j, const struct cordon_unix_policy *u, pid_t cmd,
			   int tty, int sig);
/* Whether a stop signal at our process group stops it: the kernel drops
 * SIGTSTP, SIGTTIN and SIGTTOU where the group is orphaned. */
bool cordon_jobstop_group_stops(void);

#endif
