/* Internal: the watcher's wait and its one-line messages (see watchwait.c). */
#ifndef CORDON_WATCHWAIT_H
#define CORDON_WATCHWAIT_H

#include "cordon/error.h"

/* Write one formatted line to stderr with a single write(2). */
__attribute__((format(printf, 1, 2))) void cordon_say(const char *fmt, ...);

/* Wait until the session must end: PROC_FD readable (the command exited, or
 * on macOS `cordon kill`'s SIGTERM), TTY (may be -1) hung up, or the ack on
 * ACK_FD (may be -1) not confirmed within ACK_TIMEOUT_MS (said on stderr).
 * A refusal byte means the refusal is already said: wait at most 1 s more.
 * EINTR only restarts the wait. */
void cordon_wait_for_end(int proc_fd, int ack_fd, int tty, int ack_timeout_ms, const char *id);

/* A dup of stdin (close-on-exec, above 2) when it is a terminal, else -1:
 * its hang-up ends the session even if the command ignores SIGHUP. */
int cordon_tty_watch_fd(void);

/* Fork a process the caller will never see as a child (fork, setsid, fork
 * again, the middle one exits and is reaped here). Returns 0 in the detached
 * process, 1 in the caller once it exists, or -errno (ERR filled). */
int cordon_fork_detached(struct cordon_error *err);

struct cordon_session;
/* What every cordon_session_begin does first, on either platform: no fds
 * yet, and the default ack timeout (5 s) unless one is set. */
void cordon_session_defaults(struct cordon_session *s);

#endif
