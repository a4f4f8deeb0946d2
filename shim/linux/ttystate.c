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

void cordon_ttystate_restore(struct cordon_ttystate *t)
{
	if (t->fd < 0)
		return;
	pid_t fg = tcgetpgrp(t->fd);
	bool ours = fg == getpgrp() || (fg > 0 && kill(-fg, 0) < 0 && errno == ESRCH);
	struct termios now;
	if (ours && tcgetattr(t->fd, &now) == 0 && memcmp(&now, &t->modes, sizeof(now)) != 0) {
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
