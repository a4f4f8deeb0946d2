/* Internal: the watcher's wait and its one-line messages (see watchwait.c). */
#ifndef CORDON_WATCHWAIT_H
#define CORDON_WATCHWAIT_H

/* Write one formatted line to stderr with a single write(2). */
__attribute__((format(printf, 1, 2))) void cordon_say(const char *fmt, ...);

/* Wait until the session must end: PROC_FD readable (the command exited, or
 * on macOS `cordon kill`'s SIGTERM), TTY (may be -1) hung up, or the ack on
 * ACK_FD (may be -1) not confirmed within ACK_TIMEOUT_MS (said on stderr).
 * A refusal byte means the refusal is already said: wait at most 1 s more.
 * EINTR only restarts the wait. */
void cordon_wait_for_end(int proc_fd, int ack_fd, int tty, int ack_timeout_ms, const char *id);

#endif
