/* Internal: how a session's processes are made (spawn.c).
 *
 *   launcher (supervisor) ── clone(CLONE_VM) ──> keeper ── clone3 ──> command
 *
 * The keeper is a small process between the supervisor and the command. It
 * is the command's parent and the session's child subreaper: every process
 * of the session that loses its parent comes to it, so the supervisor stays
 * an ancestor of each (Yama's ptrace_scope=1 lets only an ancestor read a
 * caller's memory or take its fds). It reaps, reports the command's exit
 * (and its stops) on the event pipe, and ends the session (every process, then its cgroup,
 * record, socket directory and System V objects) when told to, or on its own when the
 * supervisor dies (killed outright: the session must not outlive it).
 * Should the keeper die instead, the command dies by its parent-death
 * signal, the orphans come to the supervisor (a subreaper too), and the
 * supervisor ends the session.
 *
 * The keeper shares the launcher's memory (no copy of its pages on the
 * launch's path) and so uses raw system calls only, on a stack of its own:
 * errno and everything else of the C library is the launcher's. The command
 * is created with the fork semantics of clone3 (a copy), in the session's
 * cgroup (CLONE_INTO_CGROUP: no move, no wait on the cgroup lock), and
 * either execs at once (raw calls again) or, for a command the shim cannot
 * enter, first runs APPLY while the launcher waits (its copy of the memory
 * is then whole, and the C library usable). */
#ifndef CORDON_SPAWN_H
#define CORDON_SPAWN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <termios.h>

#include "sysvipc.h"

/* Messages on the event pipe (keeper -> supervisor). */
enum cordon_event {
	CORDON_EV_STARTED = 'C', /* value: the command's pid */
	CORDON_EV_FAILED = 'E',  /* value: errno of the clone */
	CORDON_EV_EXITED = 'X',  /* value: its status (code, or 128 + signal) */
	CORDON_EV_GONE = 'G',    /* every process of the session is reaped */
	CORDON_EV_STOPPED = 'S', /* value: the signal that stopped it (jobstop.h) */
};
struct cordon_event_msg {
	int32_t tag;
	int32_t value;
};

struct cordon_spawn {
	/* The command. */
	const char *path;
	char *const *argv;
	char *const *envp;
	/* The fds the command gets besides stdin, stdout and stderr (the policy
	 * channel, learn's log, --pass-fd's): they cross exec. Every other fd
	 * the launcher inherited or opened is closed before the exec: an fd
	 * leaked by whoever started cordon (an open outside file, a socket)
	 * would be a way out. -1: unused. */
	int keep[17];
	int hold; /* open in the command until its exec, not across it, or -1 */
	/* A session and process group of its own for the command (ptyrelay.h:
	 * it never shares the user's terminal's session); with TTY (>= 0), a
	 * terminal of its own, at each fd 0-2 whose bit is in TTY_STD, and, with
	 * TTY_CTTY, as its controlling terminal. */
	bool detach;
	int tty;
	unsigned tty_std;
	bool tty_ctty;
	/* The user's terminal (or -1), and, in the supervisor's memory, whether
	 * the relay has it raw and the modes to put back: a supervisor killed
	 * outright (SIGKILL) left it raw; the keeper, which shares that memory
	 * (not where it forks: KEEPER_FORKS), puts them back then. */
	int tty_user;
	const bool *tty_raw;
	const struct termios *tty_modes;
	bool sigpipe_ignored; /* the command keeps SIGPIPE ignored (else: its default) */
	/* NULL: exec at once. Else run in the command's process first, with
	 * the C library (the supervisor waits): non-zero means do not exec, and
	 * exit with that status. */
	int (*apply)(void *arg);
	void *apply_arg;
	int cgroup_fd; /* the session's cgroup (O_PATH directory), or -1 */
	/* The command starts in a mount namespace of its own (CLONE_NEWNS;
	 * root): its executable is then one of that namespace's files. */
	bool newns;
	/* With NEWNS, an ordinary user: in a user namespace too, mapping
	 * UID_MAP and GID_MAP ("ID ID 1"), CAP_SYS_ADMIN kept across the exec
	 * (ambient) for the shim's mounts. Without it if the system refuses. */
	bool newuser;
	char uid_map[32], gid_map[32];
	bool in_userns; /* the keeper's: whether the command's clone made one */
	/* Test builds (CORDON_TEST_HOOKS, CORDON_TEST_REFUSE_USERNS): the first
	 * clone with a user namespace fails, as where the system refuses one. */
	bool refuse_userns;
	/* Test builds (CORDON_TEST_LOOK_AWAY): the keeper looks away for
	 * 200 ms after the command starts, so a command that ends at once ends
	 * before the keeper blocks SIGCHLD (and the launcher, 400 ms: it is
	 * reaped before the launcher opens its pidfd). */
	bool look_away;
	/* What the keeper removes once the session is gone: the cgroup (NAME
	 * in the directory PARENT_FD) and the registry record (RECORD in
	 * REGISTRY_FD). -1/NULL: nothing. */
	int cgroup_parent_fd;
	const char *cgroup_name;
	int registry_fd;
	const char *record;
	const char *socket_dir; /* the session's socket directory, or NULL */
	/* That directory, open with a shared flock: held here until the end,
	 * so that another session's sweep of stale ones leaves it. -1: none. */
	int socket_lock_fd;
	/* The session's System V objects (shared with the supervisor), removed
	 * once the supervisor is gone too, or NULL. */
	struct cordon_ipc_set *ipc;
	int report_w; /* write end: errno of a failed exec */
	/* The keeper. */
	int event_w;   /* write end of the event pipe */
	int control_r; /* read end: closed by the supervisor to end the session */
	int parent_fd; /* a pidfd of the supervisor */
};

/* Start the keeper, which starts the command. *KEEPER_FD: a pidfd of the
 * keeper. Returns its pid or -errno. SP must stay untouched until the
 * keeper has reported CORDON_EV_STARTED (or EV_FAILED). */
pid_t cordon_spawn_keeper(struct cordon_spawn *sp, int *keeper_fd);

#endif
