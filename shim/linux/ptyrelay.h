/* Internal: a terminal of the session's own, which the launcher relays to
 * the user's (ptyrelay.c).
 *
 * A session that held the user's terminal could read it and set its modes
 * whenever it was not stopped, and the kernel's job control checks only a
 * process whose controlling terminal it is: a process in a session of its
 * own (setsid) that kept the terminal open read what the user typed to the
 * shell after the job was stopped or put in the background, and set echo
 * on under a password prompt (rounds 60g H2, H3, M1). With a terminal of
 * its own the session never holds the user's: the launcher, outside the
 * sandbox, copies what the user types in while its job has the foreground
 * of the user's terminal, and what the session writes out; stopped or in
 * the background, it copies nothing in, and nothing inside can reach the
 * user's terminal at all.
 *
 * Three cases, by what the launcher was given:
 * - stdin is the user's terminal: the command gets the session's terminal
 *   as its controlling terminal and at each of fd 0-2 that was the user's;
 *   the user's is raw while the job has its foreground, so the keys that
 *   make signals (^C, ^Z, ^\) reach the session's terminal, which makes
 *   them there (INPUT);
 * - stdout or stderr only (stdin a pipe or a file): those get the
 *   session's terminal, as a terminal that is no controlling one (a reader
 *   of /dev/tty inside finds none); the user's stays as it was, and the
 *   signals its keys make reach the launcher, which passes them on;
 * - none, but a controlling terminal: the command leaves its session
 *   (DETACH), so /dev/tty inside is no way to the user's either.
 *
 * What the session writes passes through ttyfilter.h on its way out: the
 * escape sequences that reach past the terminal (its clipboard, files of
 * the user's) are dropped, and questions whose answer the terminal types
 * where the job lacks the foreground (it would be typed into the shell). */
#ifndef CORDON_PTYRELAY_H
#define CORDON_PTYRELAY_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <termios.h>

#include "cordon/error.h"
#include "ttyfilter.h"

struct cordon_relay {
	int user;         /* the user's terminal, a description of our own (non-blocking), or -1 */
	int master;       /* the session's terminal, our side, or -1: no relay */
	int slave;        /* its other side, for the command until it has it, or -1 */
	unsigned std;     /* bit N: fd N (0-2) was the user's terminal */
	bool input;       /* stdin was: what the user types goes in (the first case above) */
	bool detach;      /* the command leaves the terminal's session (every case but none) */
	bool raw;         /* the user's terminal is raw (MODES: as we found it) */
	bool hung;        /* the session's side is closed everywhere (EIO) */
	bool user_gone;   /* the user's side failed (EIO: hung up) */
	long pause_until; /* CLOCK_MONOTONIC ms: keys after ^C held until then (0: none) */
	bool tostop;      /* OUT waits: our job is in the background of a TOSTOP terminal */
	bool tostopped;   /* no more stops for it, OUT dropped: stopped once at the end, or ended */
	struct termios modes;
	struct cordon_ttyfilter filter; /* what the session writes out (ttyfilter.h) */
	char name[32];                  /* the session's terminal, /dev/pts/N */
	size_t in_len, in_off, out_len, out_off;
	size_t in_pass;  /* IN up to here goes in now; the rest waits for PAUSE_UNTIL */
	size_t sent_len; /* the last keys passed in, in SENT */
	unsigned long long sent_total; /* every key passed in */
	char sent[4096];
	char in[4096], out[16384];
};

/* Set up T for a session started now: with a terminal of its own where fd
 * 0-2 include the user's terminal (T->master >= 0), or only DETACH where
 * the launcher has none of them but a controlling terminal, or nothing.
 * -errno where a terminal could not be made (said in ERR). */
int cordon_relay_open(struct cordon_relay *t, struct cordon_error *err);
/* Once the command has the slave: ours closed, and the relay begun. */
void cordon_relay_start(struct cordon_relay *t);
/* The poll entries for the relay (fd -1 where nothing is to be waited for). */
void cordon_relay_poll(const struct cordon_relay *t, struct pollfd p[2]);
/* What P (from cordon_relay_poll, polled) says is ready, copied. */
void cordon_relay_pump(struct cordon_relay *t, const struct pollfd p[2]);
/* How long keys after one that may end the command wait (ptyrelay.c
 * pause_keys). */
#define CORDON_RELAY_PAUSE_MS 250
/* Milliseconds until held keys go in (-1: none held); held keys whose
 * time has come are passed on here. */
int cordon_relay_timeout(struct cordon_relay *t);
/* Before the launcher stops with its job: the user's modes put back, and
 * keys held after ^Z given to the user's shell, which reads next. */
void cordon_relay_pause(struct cordon_relay *t);
/* As it goes on (SIGCONT), or may have come to the foreground: raw again
 * where its job has the user's terminal's foreground, the size copied. */
void cordon_relay_resume(struct cordon_relay *t);
/* The user's terminal changed its size (SIGWINCH): the session's too. */
void cordon_relay_resize(struct cordon_relay *t);
/* The command has ended: what the session wrote, copied out (briefly),
 * the user's modes put back, and every fd closed. */
void cordon_relay_end(struct cordon_relay *t);
#endif
