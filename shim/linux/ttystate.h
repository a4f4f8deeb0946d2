/* Internal: the terminal's modes kept across a session (ttystate.c). */
#ifndef CORDON_TTYSTATE_H
#define CORDON_TTYSTATE_H

#include <stdbool.h>
#include <termios.h>

struct cordon_ttystate {
	int fd; /* the terminal (a copy of the first of stdin, stdout, stderr that is one), or -1 */
	struct termios modes;
};

/* As the session begins: the terminal's modes, where our process group
 * has it in the foreground (a job started in the background would save
 * the modes the shell's line editor had set meanwhile). */
void cordon_ttystate_save(struct cordon_ttystate *t);
/* As it ends: the modes saved put back where the session changed them
 * (round 59e F3: stty -isig -echo raw inside stayed on the user's
 * terminal), if the terminal's foreground is still our group or a group
 * with no process left (a session's own, killed with the command);
 * never at a job stop (the user's shell puts its own modes back then).
 * The copy is closed. */
void cordon_ttystate_restore(struct cordon_ttystate *t);

#endif
