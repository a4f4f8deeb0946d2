/* The watcher's wait, shared by the platforms: until the command exits
 * (PROC_FD readable: a pidfd on Linux, a kqueue with EVFILT_PROC/NOTE_EXIT
 * on macOS), the terminal hangs up, or the shim's ack does not come. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cordon/session.h"
#include "util.h"
#include "watchwait.h"

/* Whether an SGR reset is due before cordon's next line on stderr. */
static bool reset_due;

void cordon_say_after_session(void)
{
	__atomic_store_n(&reset_due, isatty(STDERR_FILENO) == 1, __ATOMIC_RELAXED);
}

static bool lines_raw;

void cordon_lines_raw(bool raw)
{
	__atomic_store_n(&lines_raw, raw, __ATOMIC_RELAXED);
}

const char *cordon_line_end(void)
{
	return __atomic_load_n(&lines_raw, __ATOMIC_RELAXED) ? "\r\n" : "\n";
}

/* SGR attributes off, and the ASCII set in G0 (a session's "\033(0" drew
 * cordon's lines as line-drawing glyphs: round 60g L1). */
static const char reset[] = "\033[0m\033(B";

void cordon_closing_line(void)
{
	if (__atomic_exchange_n(&reset_due, false, __ATOMIC_RELAXED))
		(void)!write(STDERR_FILENO, reset, sizeof(reset) - 1);
}

void cordon_line_while_running(void)
{
	if (isatty(STDERR_FILENO) == 1)
		(void)!write(STDERR_FILENO, reset, sizeof(reset) - 1);
	if (__atomic_load_n(&lines_raw, __ATOMIC_RELAXED))
		(void)!write(STDERR_FILENO, "\r\n", 2);
}

void cordon_say(const char *fmt, ...)
{
	cordon_closing_line();
	char line[1200];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(line) - 2 && line[n - 1] == '\n' &&
	    __atomic_load_n(&lines_raw, __ATOMIC_RELAXED)) {
		line[n - 1] = '\r';
		line[n++] = '\n';
		line[n] = '\0';
	}
	if (n > 0)
		(void)!write(STDERR_FILENO, line,
			     (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

void cordon_list_session(void *info)
{
	const struct cordon_session_info *s = info;
	struct cordon_error e = {0};
	if (cordon_registry_write(s, &e) < 0)
		cordon_say("cordon: session %s: not listed: %s\n", s->id, e.msg);
}

void cordon_wait_for_end(int pidfd, int ack_fd, int tty, int ack_timeout_ms, const char *id,
			 void (*confirmed)(void *), void *arg)
{
	long deadline = cordon_now_ms() + ack_timeout_ms;
	long confirm_at = -1; /* when to call CONFIRMED, once the ack has come */
	bool refused = false; /* the refusal is said; the command is exiting */
	for (;;) {
		struct pollfd p[3] = {{.fd = pidfd, .events = POLLIN},
				      {.fd = ack_fd, .events = POLLIN},
				      {.fd = tty, .events = 0}};
		int timeout = -1;
		if (ack_fd >= 0 || refused || confirm_at >= 0) {
			long left = (confirm_at >= 0 ? confirm_at : deadline) - cordon_now_ms();
			timeout = left > 0 ? (int)left : 0;
		}
		int n = poll(p, 3, timeout);
		if (n < 0 && errno == EINTR)
			continue;
		if (confirm_at >= 0 && cordon_now_ms() >= confirm_at) {
			confirm_at = -1;
			confirmed(arg);
		}
		if (p[0].revents)
			return;
		if (p[2].revents & (POLLHUP | POLLERR | POLLNVAL))
			return;
		if (refused && n == 0)
			return; /* it said it refused but did not exit: end it */
		if (ack_fd >= 0 && p[1].revents) {
			char c = 0;
			ssize_t r = read(ack_fd, &c, 1);
			if (r == 1 && (c == CORDON_ACK_BYTE || c == CORDON_FAIL_BYTE)) {
				close(ack_fd);
				ack_fd = -1;
				if (c == CORDON_ACK_BYTE)
					confirm_at = cordon_now_ms() + CORDON_CONFIRM_DELAY_MS;
				/* A refusal: let the process exit with its own status
				 * (the killing would replace 125), for at most a second. */
				if (c == CORDON_FAIL_BYTE) {
					refused = true;
					deadline = cordon_now_ms() + 1000;
				}
				continue;
			}
			/* Closed without confirming: the shim never ran. The command may
			 * have exited already; only its exit is not a failure to report. */
			struct pollfd q = {.fd = pidfd, .events = POLLIN};
			if (poll(&q, 1, 0) > 0)
				return;
			cordon_say(
				"cordon: session %s: the sandbox was not confirmed (the shim did not load); "
				"session killed\n",
				id);
			return;
		}
		if (ack_fd >= 0 && n == 0) {
			cordon_say(
				"cordon: session %s: the sandbox was not confirmed within %d ms; session "
				"killed\n",
				id, ack_timeout_ms);
			return;
		}
	}
}

bool cordon_hangup_ignored(void)
{
	struct sigaction was;
	return sigaction(SIGHUP, NULL, &was) == 0 && was.sa_handler == SIG_IGN;
}

int cordon_tty_watch_fd(void)
{
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (isatty(fd))
			return fcntl(fd, F_DUPFD_CLOEXEC, 3);
	/* None of them: the controlling terminal, whose closing ends the
	 * session as well (round 59a F3: `cordon run -- CMD </dev/null
	 * >log` in a tmux window outlived the window); but not where the
	 * caller chose otherwise (nohup: SIGHUP ignored, round 59d F1). */
	if (cordon_hangup_ignored())
		return -1;
	int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && fd <= STDERR_FILENO) {
		int up = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		close(fd);
		fd = up;
	}
	return fd;
}

void cordon_session_defaults(struct cordon_session *s)
{
	s->ack_fd = -1;
	s->policy_fd = -1;
	if (s->ack_timeout_ms <= 0)
		s->ack_timeout_ms = 5000;
}

/* The launcher's word to the watcher, on either platform: the sandbox is in
 * place (ACK) or it refused and has said why (FAIL). */
static void send_ack(struct cordon_session *s, char c)
{
	if (s->ack_fd >= 0) {
		(void)!write(s->ack_fd, &c, 1);
		close(s->ack_fd);
		s->ack_fd = -1;
	}
}

void cordon_session_ack(struct cordon_session *s)
{
	send_ack(s, CORDON_ACK_BYTE);
}

void cordon_session_fail(struct cordon_session *s)
{
	send_ack(s, CORDON_FAIL_BYTE);
}
