/* The watcher (cgroup tracking) and the supervisor (subreaper fallback):
 * the processes outside the sandbox that end a session. */
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cordon/session.h"
#include "util.h"
#include "watchwait.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Keep only the fds the watcher needs (and stderr for its one message):
 * close_range over the gaps between them — a loop of close() over every
 * possible fd was a thousand syscalls on the launch's critical path. */
static void close_others(const int *keep_in, size_t n)
{
	int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
	int keep[8] = {0};
	size_t k = 0;
	for (size_t i = 0; i < n && k < ARRAY_SIZE(keep); i++)
		if (keep_in[i] > STDERR_FILENO)
			keep[k++] = keep_in[i];
	qsort(keep, k, sizeof(int), cmp_int);
	unsigned from = 3;
	for (size_t i = 0; i <= k; i++) {
		unsigned to = i < k ? (unsigned)keep[i] - 1 : ~0U;
		if (i < k && (unsigned)keep[i] < from)
			continue;
		if (from <= to && close_range(from, to, 0) < 0 && errno == ENOSYS)
			for (unsigned fd = from; fd <= to && fd < 1024; fd++)
				close((int)fd);
		if (i < k)
			from = (unsigned)keep[i] + 1;
	}
}

static int drop_segment_pages(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (info->dlpi_name && strstr(info->dlpi_name, "vdso"))
		return 0; /* the kernel's own mapping: leave it */
	long page = sysconf(_SC_PAGESIZE);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		/* Only segments never written: code and read-only data (RELRO lies
		 * in a writable segment and keeps its relocated pages). */
		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) || page <= 0)
			continue;
		uintptr_t start = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)(page - 1);
		uintptr_t end =
			(info->dlpi_addr + ph->p_vaddr + ph->p_memsz + (uintptr_t)page - 1) &
			~(uintptr_t)(page - 1);
		(void)madvise((void *)start, end - start, MADV_DONTNEED);
	}
	return 0;
}

/* The watcher waits for the whole session (hours) and needs almost none of
 * the code it has run: unmap the pages of every read-only segment it has
 * touched (libc's and its own; about 1 MiB, shared with other processes, but
 * counted in its RSS). They are demand-paged back from the page cache when
 * it wakes; nothing is lost. */
static void drop_code_pages(void)
{
	dl_iterate_phdr(drop_segment_pages, NULL);
}

static void ignore_job_signals(void)
{
	(void)signal(SIGHUP, SIG_IGN);
	(void)signal(SIGINT, SIG_IGN);
	(void)signal(SIGQUIT, SIG_IGN);
	(void)signal(SIGTSTP, SIG_IGN);
	(void)signal(SIGTTIN, SIG_IGN);
	(void)signal(SIGTTOU, SIG_IGN);
	(void)signal(SIGPIPE, SIG_IGN);
}

/* The watcher (never returns). It is forked before the launcher resolves
 * its policy: locating cgroup2 and creating the session's leaf (~120 us,
 * measured) then run on another CPU while the launcher works. It is never in
 * the session's cgroup itself, so the session's cgroup.kill cannot end it,
 * and a launch costs one migration, the launcher's own (a migration can wait
 * for an RCU grace period: see cordon_cgroup_enter).
 *
 * On SOCK it reports "R<path>" or "F<errno> <why>", then waits for the
 * project (for the registry), which the launcher sends once it has moved
 * itself in. End of file instead: the launcher gave up before entering (or
 * could not enter); the leaf is removed and that is all. */
__attribute__((noreturn)) static void watcher_main(const struct cordon_session *s, pid_t shell,
						   int pidfd, int ack_fd, int sock, int tty)
{
	ignore_job_signals();
	struct cordon_error e = {0};
	char *cgroup = NULL;
	char report[PATH_MAX + sizeof(e.msg) + 16];
	int r = cordon_cgroup_create(s->id, &cgroup, &e);
	int n = r < 0 ? snprintf(report, sizeof(report), "F%d %s", -r, e.msg)
		      : snprintf(report, sizeof(report), "R%s", cgroup);
	(void)!send(sock, report, n > 0 && (size_t)n < sizeof(report) ? (size_t)n : 0,
		    MSG_NOSIGNAL);
	if (r < 0)
		_exit(0);
	char project[PATH_MAX];
	ssize_t got;
	do
		got = recv(sock, project, sizeof(project) - 1, 0);
	while (got < 0 && errno == EINTR);
	close(sock);
	if (got <= 0) {
		(void)cordon_cgroup_destroy(cgroup, &e);
		_exit(0);
	}
	project[got] = '\0';
	int keep[] = {pidfd, ack_fd, tty};
	close_others(keep, ARRAY_SIZE(keep));
	struct cordon_session_info info = {
		.shell = shell, .watcher = getpid(), .started = (long long)time(NULL)};
	snprintf(info.id, sizeof(info.id), "%s", s->id);
	snprintf(info.cgroup, sizeof(info.cgroup), "%s", cgroup);
	snprintf(info.project, sizeof(info.project), "%s", project);
	if (cordon_registry_write(&info, &e) < 0)
		cordon_say("cordon: session %s: not listed: %s\n", s->id, e.msg);
	drop_code_pages();
	/* Whatever ended it, everything in the session dies. */
	cordon_wait_for_end(pidfd, ack_fd, tty, s->ack_timeout_ms, s->id);
	if (cordon_cgroup_destroy(cgroup, &e) < 0)
		cordon_say("cordon: session %s: cleanup failed: %s\n", s->id, e.msg);
	cordon_registry_remove(s->id);
	_exit(0);
}

static int begin_cgroup(struct cordon_session *s, struct cordon_error *err)
{
	pid_t shell = getpid(); /* the command keeps this pid across exec */
	cleanup_close int pidfd = (int)syscall(SYS_pidfd_open, shell, 0);
	if (pidfd < 0)
		return cordon_err(err, errno, "pidfd_open: %s", strerror(errno));
	int ack[2], sv[2];
	if (pipe2(ack, O_CLOEXEC) < 0)
		return cordon_err(err, errno, "pipe: %s", strerror(errno));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
		int r = cordon_err(err, errno, "socketpair: %s", strerror(errno));
		close(ack[0]);
		close(ack[1]);
		return r;
	}
	int tty = cordon_tty_watch_fd();
	int r = cordon_fork_detached(err);
	if (r == 0) {
		close(ack[1]);
		close(sv[0]);
		watcher_main(s, shell, pidfd, ack[0], sv[1], tty);
	}
	close(ack[0]);
	close(sv[1]);
	if (tty >= 0)
		close(tty);
	if (r < 0) {
		close(ack[1]);
		close(sv[0]);
		return r;
	}
	s->ack_fd = ack[1];
	s->watcher_fd = sv[0];
	return 0;
}

/* The watcher's report; then in we go, and the watcher learns the project.
 * *ENTERED: the caller is in the leaf (a failure after that must not fall
 * back to a subreaper: the watcher removes the leaf, killing what is in it). */
static int join_cgroup(struct cordon_session *s, const char *project, bool *entered,
		       struct cordon_error *err)
{
	char report[PATH_MAX + sizeof(err->msg) + 16];
	ssize_t n;
	do
		n = recv(s->watcher_fd, report, sizeof(report) - 1, 0);
	while (n < 0 && errno == EINTR);
	int r;
	if (n > 1 && report[0] == 'R') {
		report[n] = '\0';
		r = cordon_cgroup_enter(report + 1, 0, err);
		*entered = r >= 0;
		if (r >= 0 && !(s->cgroup = strdup(report + 1)))
			r = cordon_err(err, ENOMEM, "out of memory");
		if (r >= 0 && send(s->watcher_fd, project, strlen(project), MSG_NOSIGNAL) < 0)
			r = cordon_err(err, errno, "session watcher: %s", strerror(errno));
	} else if (n > 1 && report[0] == 'F') {
		report[n] = '\0';
		char *why;
		long e = strtol(report + 1, &why, 10);
		r = cordon_err(err, e > 0 && e < 4096 ? (int)e : EIO, "%s",
			       *why == ' ' ? why + 1 : why);
	} else {
		r = cordon_err(err, EIO, "the session watcher ended before it reported");
	}
	close(s->watcher_fd); /* on failure: the watcher removes the leaf */
	s->watcher_fd = -1;
	if (r < 0) {
		close(s->ack_fd);
		s->ack_fd = -1;
		free(s->cgroup);
		s->cgroup = NULL;
		return r;
	}
	s->mode = CORDON_TRACKING_CGROUP;
	return 0;
}

/* Kill every descendant: with PR_SET_CHILD_SUBREAPER they all end up as our
 * children; kill and reap until none is left. */
static void kill_descendants(void)
{
	for (int round = 0; round < 10000; round++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
		pid_t *pids = NULL;
		size_t n = 0;
		int any = 0;
		if (cordon_read_pids(path, &pids, &n) == 0) {
			for (size_t i = 0; i < n; i++)
				kill(pids[i], SIGKILL);
			any = n > 0;
			free(pids);
		}
		while (waitpid(-1, NULL, WNOHANG) > 0)
			any = 1;
		if (!any && waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
			return;
		if (!any)
			usleep(1000);
	}
}

static volatile pid_t supervised;
static void on_term(int sig)
{
	(void)sig;
	if (supervised > 0)
		kill(supervised, SIGKILL);
}

static int start_subreaper(struct cordon_session *s, const char *project, struct cordon_error *err)
{
	/* The supervisor follows the command by pidfd; without one it could
	 * never see the command end, so refuse before anything starts. */
	int probe = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (probe < 0)
		return cordon_err(err, errno,
				  "pidfd_open: %s (Linux 5.3+ is needed to follow the command)",
				  strerror(errno));
	close(probe);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return cordon_err(err, errno, "PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	int ack[2];
	if (pipe2(ack, O_CLOEXEC) < 0)
		return cordon_err(err, errno, "pipe: %s", strerror(errno));
	pid_t child = fork();
	if (child < 0)
		return cordon_err(err, errno, "fork: %s", strerror(errno));
	if (child == 0) {
		prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
		close(ack[0]);
		s->ack_fd = ack[1];
		s->mode = CORDON_TRACKING_SUBREAPER;
		return 0; /* the child goes on to exec the command */
	}
	/* The supervisor. SIGTERM (cordon kill) ends the session: the handler
	 * kills the command, which the pidfd then reports. */
	close(ack[1]);
	ignore_job_signals();
	supervised = child;
	struct sigaction sa = {.sa_handler = on_term};
	sigaction(SIGTERM, &sa, NULL);
	int pidfd = (int)syscall(SYS_pidfd_open, child, 0);
	int tty = cordon_tty_watch_fd();
	struct cordon_session_info info = {
		.shell = child, .watcher = getpid(), .started = (long long)time(NULL)};
	snprintf(info.id, sizeof(info.id), "%s", s->id);
	snprintf(info.project, sizeof(info.project), "%s", project);
	cordon_registry_write(&info, NULL);
	cordon_wait_for_end(pidfd, ack[0], tty, s->ack_timeout_ms, s->id);
	int st = 0;
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	kill_descendants();
	cordon_registry_remove(s->id);
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

int cordon_session_begin(struct cordon_session *s, enum cordon_tracking want,
			 struct cordon_error *err)
{
	cordon_session_defaults(s);
	if (want == CORDON_TRACKING_SUBREAPER)
		return 0;
	int r = begin_cgroup(s, err);
	/* auto: no watcher now means the subreaper fallback at start */
	return want == CORDON_TRACKING_CGROUP ? r : 0;
}

int cordon_session_start(struct cordon_session *s, enum cordon_tracking want, const char *project,
			 struct cordon_error *err)
{
	if (want != CORDON_TRACKING_SUBREAPER && s->watcher_fd >= 0) {
		bool entered = false;
		int r = join_cgroup(s, project, &entered, err);
		if (r >= 0 || want == CORDON_TRACKING_CGROUP || entered)
			return r;
	} else if (want == CORDON_TRACKING_CGROUP) {
		return cordon_err(err, EINVAL, "session: cordon_session_begin was not called");
	}
	return start_subreaper(s, project, err);
}
