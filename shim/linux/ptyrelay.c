/* A terminal of the session's own, relayed by the launcher (ptyrelay.h). */
#include "ptyrelay.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "jobstop.h"
#include "util.h"
#include "watchwait.h"

static bool foreground(const struct cordon_relay *t)
{
	return t->user >= 0 && tcgetpgrp(t->user) == getpgrp();
}

/* tcsetattr on the user's terminal with SIGTTOU blocked in this thread (a
 * launcher that has just lost the foreground is not stopped for it). */
static int set_modes(int fd, const struct termios *m)
{
	sigset_t ttou, was;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	pthread_sigmask(SIG_BLOCK, &ttou, &was);
	int r = tcsetattr(fd, TCSANOW, m);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return r;
}

/* Stdin is the user's terminal but stdout is not (`cordon run -- make |
 * tee log`, `... | less`): what the rest of the pipeline writes to the
 * terminal shares it with us, and relies on its output modes. */
static bool shared_out(const struct cordon_relay *t)
{
	return t->input && !(t->std & (1u << STDOUT_FILENO));
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Which terminal FD (ST) is. /dev/tty and /dev/console are one device
 * number for whichever terminal they led to as they were opened: by that
 * number alone, `cmd </dev/tty` (xargs -o, a script's exec </dev/tty)
 * took the user's terminal at fd 1 and 2 for another one, and handed the
 * command the user's own there, which a process of the session in a
 * session of its own read (what the user typed to the shell) and set the
 * modes of. TIOCGDEV says the terminal behind (the kernel's encoding of
 * its number, as st_rdev is encoded where it fails). */
static unsigned tty_key(int fd, const struct stat *st)
{
	unsigned dev;
	if (ioctl(fd, TIOCGDEV, &dev) == 0)
		return dev;
	unsigned ma = major(st->st_rdev), mi = minor(st->st_rdev);
	return (mi & 0xffu) | (ma << 8) | ((mi & ~0xffu) << 12);
}

/* Started in the background (`cordon run ... &`, fg later): the kernel's
 * defaults had the user's own keys (stty erase ^H, intr) and IUTF8 (a
 * backspace over UTF-8 in a line read) wrong. Taken from the user's terminal
 * where its line editor leaves them: not a key it turned off (zsh's turns
 * off ^Z, ^\ and ^V while it reads a line), nor its switches (ICANON,
 * ECHO, ICRNL, IXON). */
static void user_keys(struct termios *m, const struct termios *user)
{
	static const int keys[] = {VINTR,   VQUIT,    VERASE, VKILL, VEOF,  VSUSP,
				   VWERASE, VREPRINT, VSTART, VSTOP, VLNEXT};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (user->c_cc[keys[i]] != _POSIX_VDISABLE)
			m->c_cc[keys[i]] = user->c_cc[keys[i]];
	m->c_iflag = (m->c_iflag & ~(tcflag_t)IUTF8) | (user->c_iflag & IUTF8);
}

int cordon_relay_open(struct cordon_relay *t, struct cordon_error *err)
{
	t->user = t->master = t->slave = -1;
	t->std = 0;
	t->input = t->detach = t->raw = t->hung = t->user_gone = t->tostop = t->tostopped = false;
	t->in_len = t->in_off = t->in_pass = t->out_len = t->out_off = 0;
	t->pause_until = 0;
	t->sent_len = 0;
	t->sent_total = 0;
	t->name[0] = '\0';
	cordon_ttyfilter_init(&t->filter);
	int first = -1, via = -1;
	bool via_aux = false;
	unsigned key = 0;
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++) {
		struct stat st;
		if (!isatty(fd) || fstat(fd, &st) < 0)
			continue;
		if (first < 0) {
			first = fd;
			key = tty_key(fd, &st);
		}
		if (tty_key(fd, &st) != key)
			continue;
		t->std |= 1u << fd;
		/* (Opened again below, by a fd that is the terminal's own where
		 * one is: /dev/tty or /dev/console, major 5, would lead to
		 * whichever is ours by then.) */
		bool aux = major(st.st_rdev) == 5;
		if (via < 0 || (via_aux && !aux)) {
			via = fd;
			via_aux = aux;
		}
	}
	if (first < 0) {
		/* Only a controlling terminal (`cmd </dev/null >log` in a
		 * terminal): the command leaves its session, /dev/tty with it. */
		int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0) {
			close(fd);
			t->detach = true;
		}
		return 0;
	}
	t->detach = true;
	t->input = (t->std & 1u) != 0;
	/* A description of our own: non-blocking without changing the one
	 * the user's shell shares with us. */
	char self[32];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", via);
	int e = 0;
	struct stat ust;
	if ((t->user = open(self, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)) < 0)
		e = errno;
	if (t->user < 0 && e == EACCES && tcgetsid(via) >= 0) {
		/* A terminal we may use but not open by its name: another
		 * user's (su, runuser or sudo -u in a root's terminal; a pts
		 * node is 0620). It is our controlling terminal (TIOCGSID
		 * answers only for that one): /dev/tty opens it with no look
		 * at its node. */
		if ((t->user = open("/dev/tty", O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)) >= 0)
			e = 0;
	}
	if (!e && (fstat(t->user, &ust) < 0 || tty_key(t->user, &ust) != key))
		e = ENXIO; /* (/dev/tty led elsewhere by now) */
	if (!e && (t->master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0)
		e = errno;
	if (!e && (unlockpt(t->master) < 0 || ptsname_r(t->master, t->name, sizeof(t->name)) != 0))
		e = errno ? errno : EIO;
	if (!e) {
		/* The peer by the master itself (no path to look up again). */
		t->slave = ioctl(t->master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (t->slave < 0)
			t->slave = open(t->name, O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (t->slave < 0)
			e = errno;
	}
	if (!e && t->slave <= STDERR_FILENO) {
		int up = fcntl(t->slave, F_DUPFD_CLOEXEC, 3);
		close(t->slave);
		t->slave = up;
		if (up < 0)
			e = errno;
	}
	if (e) {
		close_fd(&t->user);
		close_fd(&t->master);
		close_fd(&t->slave);
		return cordon_err(err, e,
				  "cannot make the session a terminal of its own: %s (set "
				  "\"share_terminal\": true to give it yours)",
				  strerror(e));
	}
	/* Its modes: the user's where our job has the foreground (in the
	 * background, the line editor of the user's shell has set its own),
	 * else the kernel's defaults with the user's keys. Where the user's
	 * terminal keeps its output modes (go_raw), it turns "\n" into "\r\n"
	 * (once). */
	struct termios m, u;
	bool fg = foreground(t);
	if ((fg && tcgetattr(t->user, &m) == 0) || tcgetattr(t->slave, &m) == 0) {
		if (!fg && tcgetattr(t->user, &u) == 0)
			user_keys(&m, &u);
		if (!t->input || shared_out(t))
			m.c_oflag &= ~(tcflag_t)OPOST;
		(void)tcsetattr(t->slave, TCSANOW, &m);
	}
	struct winsize ws;
	if (ioctl(t->user, TIOCGWINSZ, &ws) == 0)
		(void)ioctl(t->master, TIOCSWINSZ, &ws);
	(void)fcntl(t->master, F_SETFL, fcntl(t->master, F_GETFL) | O_NONBLOCK);
	return 0;
}

/* Raw, where our job has the foreground and what the user types goes in. */
static void go_raw(struct cordon_relay *t)
{
	if (!t->input || t->raw || t->user_gone || !foreground(t))
		return;
	struct termios m;
	if (tcgetattr(t->user, &m) < 0)
		return;
	t->modes = m;
	cfmakeraw(&m);
	/* Raw for what is typed only, where others write to it as well (a
	 * pager or tee after us: their lines were left as stairs). */
	if (shared_out(t))
		m.c_oflag = t->modes.c_oflag;
	m.c_cc[VMIN] = 1;
	m.c_cc[VTIME] = 0;
	if (set_modes(t->user, &m) == 0) {
		t->raw = true;
		cordon_lines_raw(true);
	}
}

void cordon_relay_start(struct cordon_relay *t)
{
	close_fd(&t->slave);
	go_raw(t);
}

void cordon_relay_poll(const struct cordon_relay *t, struct pollfd p[2])
{
	p[0] = (struct pollfd){.fd = -1};
	p[1] = (struct pollfd){.fd = -1};
	if (t->master < 0)
		return;
	short user = 0, master = 0;
	if (t->raw && t->in_len == 0 && !t->pause_until)
		user |= POLLIN;
	if (t->out_len > 0 && !t->tostop)
		user |= POLLOUT;
	if (t->out_len == 0 && !t->hung)
		master |= POLLIN;
	if (t->in_off < t->in_pass && !t->hung)
		master |= POLLOUT;
	if (user && !t->user_gone)
		p[0] = (struct pollfd){.fd = t->user, .events = user};
	if (master)
		p[1] = (struct pollfd){.fd = t->master, .events = master};
}

/* BUF[*OFF, *LEN) written to FD as far as it takes it: what is left
 * stays where FD would block (EAGAIN), and all of it is done with (emptied)
 * otherwise. -1: FD failed (what was left is dropped). */
static int put(int fd, const char *buf, size_t *off, size_t *len)
{
	int r = 0;
	while (*off < *len) {
		ssize_t n = write(fd, buf + *off, *len - *off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0) {
			r = -1;
			break;
		}
		*off += (size_t)n;
	}
	*off = *len = 0;
	return r;
}

/* Whether what the session wrote may go to the user's terminal now. The
 * kernel stops a writer in the background of a terminal with TOSTOP (stty
 * tostop); we are not stopped, our SIGTTOU being blocked (signalfd: the
 * kernel takes a blocked one for ignored), and a session in the background
 * wrote over the user's shell all the same. So our group gets the SIGTTOU
 * the kernel would have sent it (run.c stops the job, the session held),
 * and OUT waits for the foreground; an orphaned group, which the kernel
 * answers with EIO, loses it. */
static bool out_allowed(struct cordon_relay *t)
{
	/* (-1: not our controlling terminal, which the kernel never judges;
	 * 0: no foreground group, nor then.) */
	pid_t fg = t->user >= 0 ? tcgetpgrp(t->user) : -1;
	struct termios m;
	if (fg <= 0 || fg == getpgrp() || tcgetattr(t->user, &m) < 0 || !(m.c_lflag & TOSTOP)) {
		t->tostop = false;
		return true;
	}
	/* (Being ended, kill %1's SIGTERM and SIGCONT: the kernel's writer
	 * would die with its output, not stop again; nor does the launcher
	 * stop twice as the session ends, bg having gone on after the first.) */
	sigset_t p;
	bool ending = sigpending(&p) == 0 && (sigismember(&p, SIGTERM) || sigismember(&p, SIGINT) ||
					      sigismember(&p, SIGHUP) || sigismember(&p, SIGQUIT) ||
					      sigismember(&p, SIGUSR1));
	if (!cordon_jobstop_group_stops() || ending || t->tostopped) {
		t->out_len = t->out_off = 0;
		return false;
	}
	if (!t->tostop)
		(void)kill(-getpgrp(), SIGTTOU);
	t->tostop = true;
	return false;
}

/* What is in OUT written to the user's terminal: hung up, what the
 * session writes goes nowhere. */
static void put_out(struct cordon_relay *t)
{
	if (t->out_len && !out_allowed(t))
		return;
	if (put(t->user, t->out, &t->out_off, &t->out_len) < 0)
		t->user_gone = true;
}

/* The last keys passed in, kept for give_back_typed. */
static void record_sent(struct cordon_relay *t, const char *p, size_t n)
{
	if (n >= sizeof(t->sent)) {
		memcpy(t->sent, p + n - sizeof(t->sent), sizeof(t->sent));
		t->sent_len = sizeof(t->sent);
	} else {
		size_t keep = t->sent_len + n > sizeof(t->sent) ? sizeof(t->sent) - n : t->sent_len;
		memmove(t->sent, t->sent + t->sent_len - keep, keep);
		memcpy(t->sent + keep, p, n);
		t->sent_len = keep + n;
	}
	t->sent_total += n;
}

static void put_in(struct cordon_relay *t)
{
	/* IN[in_off, in_pass) goes in; IN[in_pass, in_len) is held
	 * (pause_keys). */
	while (t->in_off < t->in_pass) {
		ssize_t n = write(t->master, t->in + t->in_off, t->in_pass - t->in_off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			t->in_off = t->in_pass; /* (dropped: the session's side is gone) */
			break;
		}
		record_sent(t, t->in + t->in_off, (size_t)n);
		t->in_off += (size_t)n;
	}
	if (t->in_off == t->in_len)
		t->in_off = t->in_len = t->in_pass = 0;
}

/* From the session's side into OUT: false when nothing more comes now. */
static bool take_out(struct cordon_relay *t)
{
	if (t->out_len || t->hung)
		return false;
	char raw[sizeof(t->out) - CORDON_TTYFILTER_HEAD - 8];
	ssize_t n = read(t->master, raw, sizeof(raw));
	if (n > 0) {
		/* (Raw: our job has the foreground, no need to ask.) */
		bool fg = t->raw || foreground(t);
		t->out_len = cordon_ttyfilter(&t->filter, raw, (size_t)n, t->out, fg);
		t->out_off = 0;
		return true;
	}
	/* EIO: no process holds the session's side any more. */
	if (n == 0 || (errno != EAGAIN && errno != EINTR))
		t->hung = true;
	return false;
}

/* A key that may end the command (the user's ^C, ^\, ^Z) in what was just
 * read: it goes in, and what follows it waits (held, and the user's
 * terminal not read) for PAUSE_MS, so that keys typed right after it
 * (^C, then the next command line) stay the shell's where the session
 * ends meanwhile: what the session's terminal took is lost with it. */
static void pause_keys(struct cordon_relay *t)
{
	const cc_t keys[] = {t->modes.c_cc[VINTR], t->modes.c_cc[VQUIT], t->modes.c_cc[VSUSP]};
	for (size_t i = t->in_off; i < t->in_len; i++)
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (keys[k] != _POSIX_VDISABLE && (cc_t)t->in[i] == keys[k]) {
				t->in_pass = i + 1;
				t->pause_until = cordon_now_ms() + CORDON_RELAY_PAUSE_MS;
				return;
			}
}

void cordon_relay_pump(struct cordon_relay *t, const struct pollfd p[2])
{
	if (t->master < 0)
		return;
	if (p[1].fd >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR)) && take_out(t))
		put_out(t);
	if (p[0].fd >= 0 && (p[0].revents & POLLOUT))
		put_out(t);
	if (p[0].fd >= 0 && (p[0].revents & POLLIN) && t->in_len == 0) {
		ssize_t n = read(t->user, t->in, sizeof(t->in));
		if (n > 0) {
			t->in_len = t->in_pass = (size_t)n;
			t->in_off = 0;
			pause_keys(t);
		} else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			/* EIO: our group lost the foreground (SIGTTIN is
			 * blocked here) without a stop; the new holder sets its
			 * own modes. A hang-up ends the session (run.c). */
			t->raw = false;
			cordon_lines_raw(false);
		}
	}
	/* (At once, not after the next poll: the session's side takes it, or
	 * POLLOUT says when.) */
	if (t->in_off < t->in_pass)
		put_in(t);
}

int cordon_relay_timeout(struct cordon_relay *t)
{
	if (!t->pause_until)
		return -1;
	long left = t->pause_until - cordon_now_ms();
	if (left > 0)
		return (int)left;
	/* The session went on after the key: what was held goes in. */
	t->pause_until = 0;
	t->in_pass = t->in_len;
	if (t->in_off < t->in_pass)
		put_in(t);
	return -1;
}

/* P[0, N) typed into the user's terminal (TIOCSTI, on our controlling
 * terminal; where dev.tty.legacy_tiocsti is 0, only with CAP_SYS_ADMIN):
 * how many were. */
static size_t type_back(const struct cordon_relay *t, const char *p, size_t n)
{
	size_t i = 0;
	while (i < n && ioctl(t->user, TIOCSTI, &p[i]) == 0)
		i++;
	return i;
}

/* Keys held after ^Z (pause_keys) as the job stops: the user's shell reads
 * the terminal next, as it would have read them outside cordon (^Z, then
 * `bg` typed at once); held on, they went into the stopped session's
 * terminal and to the program at fg. Given back as in give_back_typed;
 * where TIOCSTI is refused, they stay held for the session. */
static void give_back_held(struct cordon_relay *t)
{
	if (!t->pause_until || !t->input || t->user_gone || !foreground(t))
		return;
	if (type_back(t, t->in + t->in_pass, t->in_len - t->in_pass) == 0)
		return;
	/* (What went back is the shell's; what TIOCSTI refused midway is
	 * lost rather than typed into the session out of order.) */
	t->in_len = t->in_pass;
	t->pause_until = 0;
	if (t->in_off == t->in_len)
		t->in_off = t->in_len = t->in_pass = 0;
}

/* The user's terminal as the job leaves it: the last of what the session
 * wrote, the user's modes. */
static void restore_user(struct cordon_relay *t)
{
	if (t->master < 0)
		return;
	if (t->out_len && !t->user_gone) {
		/* (Blocking for a moment: the last of a screen drawn before the
		 * stop.) */
		(void)fcntl(t->user, F_SETFL, fcntl(t->user, F_GETFL) & ~O_NONBLOCK);
		put_out(t);
		(void)fcntl(t->user, F_SETFL, fcntl(t->user, F_GETFL) | O_NONBLOCK);
	}
	if (t->raw) {
		(void)set_modes(t->user, &t->modes);
		t->raw = false;
		cordon_lines_raw(false);
	}
}

void cordon_relay_pause(struct cordon_relay *t)
{
	restore_user(t);
	if (t->master >= 0)
		give_back_held(t);
}

void cordon_relay_resize(struct cordon_relay *t)
{
	struct winsize ws;
	if (t->master >= 0 && ioctl(t->user, TIOCGWINSZ, &ws) == 0)
		(void)ioctl(t->master, TIOCSWINSZ, &ws);
}

void cordon_relay_resume(struct cordon_relay *t)
{
	if (t->master < 0)
		return;
	t->tostop = false; /* (bg: stopped again at the next write) */
	go_raw(t);
	cordon_relay_resize(t);
}

/* Whether A and B (N bytes) are the same keys, a carriage return and a
 * newline taken as one (the session's terminal maps one to the other). */
static bool same_keys(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool eol_a = a[i] == '\r' || a[i] == '\n', eol_b = b[i] == '\r' || b[i] == '\n';
		if (a[i] != b[i] && !(eol_a && eol_b))
			return false;
	}
	return true;
}

/* How many of the last keys passed in wait unread in the session's
 * terminal, whole lines as the user typed them: 0 unless what waits there
 * (its line discipline's queue, made readable by turning canonical mode
 * off on a second fd of it) is exactly the last keys we passed (no key
 * edited, erased or changed by modes the session set: its erase and kill
 * keys made `false && touch X` into `touch X`, round 61c) and begins
 * where a line began. */
static size_t unread_lines(struct cordon_relay *t)
{
	int peer = ioctl(t->master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (peer < 0)
		return 0;
	char q[sizeof(t->sent)];
	ssize_t n = -1;
	struct termios m;
	if (tcgetattr(peer, &m) == 0) {
		m.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
		m.c_cc[VMIN] = 0;
		m.c_cc[VTIME] = 0;
		if (tcsetattr(peer, TCSANOW, &m) == 0)
			n = read(peer, q, sizeof(q));
	}
	close(peer);
	if (n <= 0 || (size_t)n > t->sent_len)
		return 0;
	size_t at = t->sent_len - (size_t)n;
	bool line_start = at ? t->sent[at - 1] == '\r' || t->sent[at - 1] == '\n'
			     : t->sent_total == t->sent_len;
	return line_start && same_keys(q, t->sent + at, (size_t)n) ? (size_t)n : 0;
}

/* Keys the user typed that nothing in the session read given back to the
 * user's terminal as the session ends, where the shell reads them next as
 * it would have without the relay (the next command line typed while the
 * last one ends): whole lines of ours waiting unread (unread_lines), then
 * those held after ^C (pause_keys). Only our own copy of the user's keys,
 * never what the session's terminal holds. TIOCSTI, on our controlling
 * terminal (where dev.tty.legacy_tiocsti is 0, only with CAP_SYS_ADMIN:
 * else lost, as with ssh). Only where our job has the foreground. */
static void give_back_typed(struct cordon_relay *t)
{
	if (!t->input || t->user_gone || !foreground(t))
		return;
	size_t lines = unread_lines(t);
	if (type_back(t, t->sent + t->sent_len - lines, lines) < lines)
		return;
	(void)type_back(t, t->in + t->in_off, t->in_len - t->in_off);
	t->in_len = t->in_off = t->in_pass = 0;
}

void cordon_relay_end(struct cordon_relay *t)
{
	if (t->master >= 0 && !t->user_gone) {
		/* What the command wrote last, and what its processes still
		 * write for a moment (they are ended next). */
		long start = cordon_now_ms();
		t->hung = false; /* (what was written since is read first) */
		for (;;) {
			if (cordon_now_ms() - start > 200 || t->user_gone)
				break;
			if (t->out_len && t->tostop) {
				/* In the background of a TOSTOP terminal (out_allowed),
				 * with nothing left to hold: we stop as the kernel
				 * stops such a writer (SIGTTOU, raised at this thread,
				 * where it is blocked), and write once in the
				 * foreground; once (bg, kill: dropped). */
				cordon_jobstop_take(SIGTTOU, false);
				t->tostop = false;
				t->tostopped = true;
				start = cordon_now_ms();
				continue;
			}
			if (t->out_len) {
				struct pollfd q = {.fd = t->user, .events = POLLOUT};
				(void)poll(&q, 1, 50);
				put_out(t);
				continue;
			}
			if (!take_out(t))
				break;
		}
	}
	restore_user(t);
	give_back_typed(t);
	close_fd(&t->slave);
	close_fd(&t->master);
	close_fd(&t->user);
}
