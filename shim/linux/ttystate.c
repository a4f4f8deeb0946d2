/* The terminal's modes kept across a session (see ttystate.h). */
#include "ttystate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

void cordon_ttystate_save(struct cordon_ttystate *t)
{
	t->fd = -1;
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		if (!isatty(fd))
			continue;
		if (tcgetpgrp(fd) == getpgrp() && tcgetattr(fd, &t->modes) == 0)
			t->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		return;
	}
}

/* Whether A and B set the same modes (field by field: the struct has
 * padding, which a byte compare would count). */
static bool same_modes(const struct termios *a, const struct termios *b)
{
	return a->c_iflag == b->c_iflag && a->c_oflag == b->c_oflag && a->c_cflag == b->c_cflag &&
	       a->c_lflag == b->c_lflag && memcmp(a->c_cc, b->c_cc, sizeof(a->c_cc)) == 0 &&
	       cfgetispeed(a) == cfgetispeed(b) && cfgetospeed(a) == cfgetospeed(b);
}

void cordon_ttystate_restore(struct cordon_ttystate *t)
{
	if (t->fd < 0)
		return;
	pid_t fg = tcgetpgrp(t->fd);
	bool ours = fg == getpgrp() || (fg > 0 && kill(-fg, 0) < 0 && errno == ESRCH);
	struct termios now;
	if (ours && tcgetattr(t->fd, &now) == 0 && !same_modes(&now, &t->modes)) {
		/* (A foreground group with no process left is not ours: the
		 * kernel would stop us for the change, SIGTTOU, were it not
		 * blocked.) */
		sigset_t ttou, was;
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		sigprocmask(SIG_BLOCK, &ttou, &was);
		(void)tcsetattr(t->fd, TCSANOW, &t->modes);
		sigprocmask(SIG_SETMASK, &was, NULL);
	}
	close(t->fd);
	t->fd = -1;
}
