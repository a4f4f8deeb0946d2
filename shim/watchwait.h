/* Internal: the watcher's wait and its one-line messages (see watchwait.c). */
#ifndef CORDON_WATCHWAIT_H
#define CORDON_WATCHWAIT_H

#include <stdbool.h>

#include "cordon/error.h"

/* Write one formatted line to stderr with a single write(2) (after
 * cordon_closing_line). */
__attribute__((format(printf, 1, 2))) void cordon_say(const char *fmt, ...);
/* The session's command is over: what cordon says from now on are its
 * closing lines, the first of which cordon_closing_line prefixes with an
 * SGR reset where stderr is a terminal. */
void cordon_say_after_session(void);
/* Whether the user's terminal is raw (a relayed session's, Linux: no
 * "\n" returns the carriage there): cordon's lines end in "\r\n" while it
 * is, and one said while the session runs begins on a line of its own. */
void cordon_lines_raw(bool raw);
/* The end of a line cordon writes now: "\n", or "\r\n" while raw. */
const char *cordon_line_end(void);

/* Wait until the session must end: PROC_FD readable (the command exited, or
 * on macOS `cordon kill`'s SIGTERM), TTY (may be -1) hung up, or the ack on
 * ACK_FD (may be -1) not confirmed within ACK_TIMEOUT_MS (said on stderr).
 * A refusal byte means the refusal is already said: wait at most 1 s more.
 * CONFIRMED(ARG) runs once, CORDON_CONFIRM_DELAY_MS after the ack, if the
 * session is still on: whatever the watcher has to do (list the session,
 * let go of its code pages) waits until the command is well under way, so
 * that it takes no CPU from the launcher, the shim, or a command that is
 * done in a moment (measured: listing at the ack itself cost a short command
 * ~0.1 ms here, the watcher preempting it on its CPU). EINTR only restarts
 * the wait. */
#define CORDON_CONFIRM_DELAY_MS 20
void cordon_wait_for_end(int proc_fd, int ack_fd, int tty, int ack_timeout_ms, const char *id,
			 void (*confirmed)(void *), void *arg);

/* A CONFIRMED for cordon_wait_for_end: list the session (a struct
 * cordon_session_info *) in the registry, or say why not. */
void cordon_list_session(void *info);

/* A dup of the first of stdin, stdout and stderr that is a terminal, else
 * the controlling terminal opened (close-on-exec, above 2), else -1: its
 * hang-up ends the session even if the command ignores SIGHUP. */
int cordon_tty_watch_fd(void);
/* The caller left SIGHUP ignored (nohup): the session is not to end when
 * the controlling terminal does (a terminal of its stdio still ends it). */
bool cordon_hangup_ignored(void);

struct cordon_session;
/* What every cordon_session_start does first, on either platform: no fds
 * yet, and the default ack timeout (5 s) unless one is set. */
void cordon_session_defaults(struct cordon_session *s);

#endif
