/* The watcher (cgroup tracking) and the supervisor (subreaper fallback):
 * the processes outside the sandbox that end a session. */
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdbool.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "cordon/wire.h"
#include "linux.h"
#include "util.h"
#include "watchwait.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
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
		/* The raw syscall: musl has no close_range() wrapper. */
		if (from <= to && syscall(SYS_close_range, from, to, 0) < 0 && errno == ENOSYS)
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

/* What the watcher works from: filled in by the launcher before the clone,
 * except the frame, handed over before exec (cordon_session_pass_policy);
 * the watcher reads all of it only once the gate has closed (see
 * spawn_watcher), and the launcher never changes it after that. */
static struct watcher {
	char id[40];
	char cgroup[PATH_MAX];
	char project[PATH_MAX];
	pid_t shell;
	int ack_timeout_ms;
	long long started;
	int keep[3];               /* pidfd, ack (read end), tty */
	int ack_w, gate_r, gate_w; /* the launcher's ends, and the gate */
	int policy_w, policy_r;    /* the policy channel: the watcher's end, the shell's */
	char *frame;               /* the policy to send on it (never freed), or NULL */
	size_t frame_len;
	cpu_set_t cpus;  /* the launcher's CPUs */
	bool moved_away; /* kept off the launcher's own CPU */
} watcher;

#if defined(__SANITIZE_ADDRESS__)
#define CORDON_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CORDON_ASAN 1
#endif
#endif

#ifdef CORDON_ASAN
#define WATCHER_IS_A_COPY 1
#else
#define WATCHER_IS_A_COPY 0
/* The watcher's stack, for its whole life (the launcher's own stays the
 * launcher's until exec). Listing a session reaches 21 KiB (a session record
 * and the registry's two PATH_MAX buffers; measured by scanning the stack
 * afterwards): an earlier 16 KiB stack overflowed into the watcher's fields
 * below it. Pages never touched cost nothing. */
static _Alignas(16) char watcher_stack[256 * 1024];
#endif

/* The session is confirmed and under way: list it, and let go of the code. */
static void watcher_confirmed(void *arg)
{
	(void)arg;
	if (watcher.moved_away)
		(void)sched_setaffinity(0, sizeof(watcher.cpus), &watcher.cpus);
	struct cordon_session_info info = {
		.shell = watcher.shell, .watcher = getpid(), .started = watcher.started};
	snprintf(info.id, sizeof(info.id), "%s", watcher.id);
	snprintf(info.cgroup, sizeof(info.cgroup), "%s", watcher.cgroup);
	snprintf(info.project, sizeof(info.project), "%s", watcher.project);
	cordon_list_session(&info);
	drop_code_pages();
}

/* After the gate: if the launcher exec'd the shell with the policy channel
 * (not if it exited), build the Landlock ruleset here, on this CPU, while the
 * shell's dynamic loader runs, and send it with the frame (its rules marked
 * prepared). The shim then adds only what was left to it (~90 us of the
 * launch, in-process timestamps). Anything that goes wrong here only means
 * the plain frame: the shim does the rest and reports what fails. */
static void send_policy(void)
{
	struct pollfd gone = {.fd = watcher.keep[0], .events = POLLIN};
	if (!watcher.frame || poll(&gone, 1, 0) != 0)
		return;
	char *frame = watcher.frame, *marked = NULL;
	size_t len = watcher.frame_len;
	struct cordon_policy q = {0};
	struct cordon_error e;
	int ruleset = -1;
	if (cordon_wire_decode(frame, len, &q, &e) == 0 &&
	    (ruleset = cordon_sandbox_prepare(&q)) >= 0) {
		if (cordon_wire_encode(&q, &marked, &len, &e) == 0) {
			frame = marked;
		} else {
			close(ruleset);
			ruleset = -1;
			len = watcher.frame_len;
		}
	}
	cordon_policy_free(&q);
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct iovec iov = {.iov_base = frame, .iov_len = len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (ruleset >= 0) {
		memset(&c, 0, sizeof(c));
		m.msg_control = c.buf;
		m.msg_controllen = sizeof(c.buf);
		struct cmsghdr *h = CMSG_FIRSTHDR(&m);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(h), &ruleset, sizeof(int));
	}
	for (size_t off = 0; off < len;) {
		ssize_t n = sendmsg(watcher.policy_w, &m, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* the shell is gone: the pidfd says so next */
		off += (size_t)n;
		iov.iov_base = frame + off;
		iov.iov_len = len - off;
		m.msg_control = NULL; /* the ruleset went with the first bytes */
		m.msg_controllen = 0;
	}
	if (ruleset >= 0)
		close(ruleset);
	free(marked);
}

/* The watcher (never returns; see spawn_watcher for how it starts). It is
 * never in the session's cgroup, so the session's cgroup.kill cannot end it.
 * After the gate it sends the policy (on another CPU than the shell's), then
 * only waits until the session is confirmed and under way: it must not take
 * a CPU from the launcher and the shim on their way to the command's main. */
static int watcher_main(void *arg)
{
	(void)arg;
	/* Sharing the launcher's memory: only syscalls, which succeed (errno,
	 * in the launcher's thread area, is never written), on this stack. */
	ignore_job_signals();
	(void)setsid(); /* hang-ups come by TTY */
	close(watcher.ack_w);
	close(watcher.gate_w);
	if (watcher.policy_r >= 0)
		close(watcher.policy_r);
	struct pollfd gate = {.fd = watcher.gate_r, .events = POLLIN};
	while (poll(&gate, 1, -1) != 1)
		;
	/* The gate closed: the launcher has exec'd (or exited), and this memory
	 * is the watcher's alone. */
	close(watcher.gate_r);
	send_policy();
	if (watcher.policy_w >= 0)
		close(watcher.policy_w);
	close_others(watcher.keep, ARRAY_SIZE(watcher.keep));
	int *k = watcher.keep;
	/* Whatever ended it, everything in the session dies. */
	cordon_wait_for_end(k[0], k[1], k[2], watcher.ack_timeout_ms, watcher.id, watcher_confirmed,
			    NULL);
	struct cordon_error e = {0};
	if (cordon_cgroup_destroy(watcher.cgroup, &e) < 0)
		cordon_say("cordon: session %s: cleanup failed: %s\n", watcher.id, e.msg);
	cordon_registry_remove(watcher.id);
	/* Off every session's path now: clear what killed watchers left. */
	(void)cordon_cgroup_sweep(watcher.cgroup, CORDON_SWEEP_AGE_S);
	_exit(0);
}

/* The watcher is a child of the launcher, so of the command after exec,
 * started with clone(CLONE_VM) and no exit signal:
 * - No exit signal: a child whose exit signal is not SIGCHLD is invisible to
 *   wait(), waitpid(-1) and waitid(P_ALL) without __WALL/__WCLONE, so a shell
 *   or an init that reaps every child it has never sees it. It exits only
 *   after the command anyway; reparented then, it exits with SIGCHLD (the
 *   kernel resets the signal) and its new parent reaps it.
 * - CLONE_VM: it shares the launcher's memory until the launcher's exec, and
 *   keeps the old memory from then on. No page tables are copied and neither
 *   side takes a copy-on-write fault for each page it writes; the launcher's
 *   exec does not tear the old memory down either. Measured here, the double
 *   fork this replaces cost the launch ~150 us and a plain fork ~100 us.
 * Until the launcher execs or exits, the watcher runs on its own stack and
 * does nothing but syscalls (signal dispositions, setsid, close, poll) that
 * leave every shared byte alone; it then waits on GATE, a close-on-exec pipe
 * only the launcher holds open. When the gate hangs up, the launcher has
 * left the memory: exec switches to the new memory before it closes
 * close-on-exec fds, exit releases it before it closes fds. */
static pid_t spawn_watcher(void)
{
#ifdef CORDON_ASAN
	/* ASan cannot follow a process onto a stack of its own: in a sanitizer
	 * build the watcher is a copy (a fork without an exit signal) instead. */
	pid_t pid = (pid_t)syscall(SYS_clone, 0UL, 0UL, 0UL, 0UL, 0UL);
	if (pid == 0)
		watcher_main(NULL);
	return pid;
#else
	return (pid_t)clone(watcher_main, watcher_stack + sizeof(watcher_stack), CLONE_VM, NULL);
#endif
}

/* Create the leaf, start the watcher (outside it), then move in. Nothing
 * waits for the watcher. */
static int start_cgroup(struct cordon_session *s, const char *project, struct cordon_error *err)
{
	int r = cordon_cgroup_create(s->id, &s->cgroup, err);
	if (r < 0)
		return r;
	struct watcher *w = &watcher;
	snprintf(w->id, sizeof(w->id), "%s", s->id);
	snprintf(w->cgroup, sizeof(w->cgroup), "%s", s->cgroup);
	snprintf(w->project, sizeof(w->project), "%s", project);
	w->shell = getpid(); /* the command keeps this pid across exec */
	w->ack_timeout_ms = s->ack_timeout_ms;
	w->started = (long long)time(NULL);
	int ack[2] = {-1, -1}, gate[2] = {-1, -1}, chan[2] = {-1, -1};
	int pidfd = (int)syscall(SYS_pidfd_open, w->shell, 0);
	/* The policy channel needs the watcher to share this memory (the frame
	 * is handed over after the clone): not in a sanitizer build. */
	bool channel = !WATCHER_IS_A_COPY;
	if (pidfd < 0 || pipe2(ack, O_CLOEXEC) < 0 || pipe2(gate, O_CLOEXEC) < 0 ||
	    (channel && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, chan) < 0)) {
		r = cordon_err(err, errno, "%s: %s", pidfd < 0 ? "pidfd_open" : "pipe",
			       strerror(errno));
		goto undo;
	}
	w->policy_w = chan[1];
	w->policy_r = chan[0];
	w->frame = NULL;
	int tty = cordon_tty_watch_fd();
	w->keep[0] = pidfd;
	w->keep[1] = ack[0];
	w->keep[2] = tty;
	w->ack_w = ack[1];
	w->gate_r = gate[0];
	w->gate_w = gate[1];
	/* The watcher keeps off this CPU until the session is confirmed: the
	 * launcher and then the command's first process run here, and each
	 * time the watcher woke on it, it took the CPU from them (~25 us a
	 * launch, A/B). */
	cpu_set_t others;
	bool away = false;
	if (sched_getaffinity(0, sizeof(w->cpus), &w->cpus) == 0 && CPU_COUNT(&w->cpus) > 1) {
		int me = sched_getcpu();
		others = w->cpus;
		if (me >= 0 && me < CPU_SETSIZE)
			CPU_CLR(me, &others);
		away = CPU_COUNT(&others) > 0;
	}
	w->moved_away = away;
	pid_t child = spawn_watcher();
	if (child > 0 && away)
		(void)sched_setaffinity(child, sizeof(others), &others);
	if (child < 0)
		r = cordon_err(err, errno, "starting the session watcher: %s", strerror(errno));
	if (tty >= 0)
		close(tty);
	if (child > 0) {
		r = cordon_cgroup_enter(s->cgroup, 0, err);
		if (r >= 0) {
			close(ack[0]);
			close(gate[0]);
			if (chan[1] >= 0)
				close(chan[1]);
			close(pidfd);
			s->ack_fd = ack[1];
			s->policy_fd = chan[0];
			s->mode = CORDON_TRACKING_CGROUP;
			return 0; /* gate[1] closes at exec */
		}
		/* Not in: the watcher goes, and nothing is left behind. */
		kill(child, SIGKILL);
		while (waitpid(child, NULL, __WALL) < 0 && errno == EINTR)
			;
	}
undo:
	for (int i = 0; i < 2; i++) {
		if (ack[i] >= 0)
			close(ack[i]);
		if (gate[i] >= 0)
			close(gate[i]);
		if (chan[i] >= 0)
			close(chan[i]);
	}
	if (pidfd >= 0)
		close(pidfd);
	(void)rmdir(s->cgroup);
	free(s->cgroup);
	s->cgroup = NULL;
	return r;
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
	cordon_wait_for_end(pidfd, ack[0], tty, s->ack_timeout_ms, s->id, cordon_list_session,
			    &info);
	int st = 0;
	kill(child, SIGKILL);
	waitpid(child, &st, 0);
	kill_descendants();
	cordon_registry_remove(s->id);
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
}

int cordon_session_start(struct cordon_session *s, enum cordon_tracking want, const char *project,
			 struct cordon_error *err)
{
	cordon_session_defaults(s);
	if (want != CORDON_TRACKING_SUBREAPER) {
		int r = start_cgroup(s, project, err);
		if (r >= 0 || want == CORDON_TRACKING_CGROUP)
			return r; /* auto: else the subreaper */
	}
	return start_subreaper(s, project, err);
}

int cordon_session_pass_policy(struct cordon_session *s, const struct cordon_policy *p,
			       struct cordon_error *err)
{
	if (s->policy_fd < 0)
		return -ENOTSUP;
	char *buf;
	size_t len;
	int r = cordon_wire_encode(p, &buf, &len, err);
	if (r < 0)
		return r;
	/* The watcher's from the exec on (it reads it after the gate): never
	 * freed here. */
	watcher.frame = buf;
	watcher.frame_len = len;
	return s->policy_fd;
}
