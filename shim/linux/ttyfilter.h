/* Internal: what a session writes to the user's terminal, filtered of the
 * escape sequences that reach past the terminal (ttyfilter.c).
 *
 * A terminal is more than a screen: some sequences make it read the
 * clipboard and type it back (OSC 52 with "?", kitty's OSC 5522), read or
 * write files of the user's (kitty's file transfer, OSC 5113; its
 * graphics protocol reading a path, APC G with t=f, t=t or t=s; iTerm2's
 * OSC 1337: downloads, uploads, its own clipboard), or pass anything on
 * to the terminal outside tmux unfiltered (DCS tmux;). Those are dropped.
 * And a terminal answers questions (the cursor's position, its name,
 * its colours, its settings) by typing the answer: where the session's
 * job does not have the user's terminal's foreground, the answer would be
 * typed into the user's shell, so questions are dropped then too.
 * Everything else passes unchanged, byte for byte; what is dropped is the
 * whole sequence. Sequences are found in their 7-bit form (ESC [, ESC ],
 * ESC P, ESC _, ESC ^, ESC X) and as UTF-8 encoded C1 controls (C2 9B
 * ...), as UTF-8 terminals read them; across reads; read as terminals
 * read them (a C0 control after an ESC or inside a string is done or
 * ignored, not an end). A string whose head does not show what it is
 * (a number, keys or parameters longer than the head) is dropped. */
#ifndef CORDON_TTYFILTER_H
#define CORDON_TTYFILTER_H

#include <stdbool.h>
#include <stddef.h>

#define CORDON_TTYFILTER_HEAD 256

struct cordon_ttyfilter {
	int state;
	unsigned char
		kind; /* the sequence's: '[' CSI, ']' OSC, 'P' DCS, '_' APC, '^' PM, 'X' SOS */
	bool esc;     /* in a string: an ESC came last (ST's first byte?) */
	bool c2;      /* in a string: a 0xC2 came last (C1 ST's first byte?) */
	bool tmux;    /* in tmux's passthrough, where ESC ESC is an ESC */
	size_t n;     /* bytes held in HEAD */
	char head[CORDON_TTYFILTER_HEAD];
};

/* Before the first call. */
void cordon_ttyfilter_init(struct cordon_ttyfilter *f);
/* IN[0, N) filtered into OUT (room for N + CORDON_TTYFILTER_HEAD + 4
 * bytes: what was held from before may come out now); FOREGROUND: the
 * session's job has the user's terminal's foreground, so that answers
 * reach the session. Returns the bytes put in OUT. */
size_t cordon_ttyfilter(struct cordon_ttyfilter *f, const char *in, size_t n, char *out,
			bool foreground);

#endif
