/* Calls that name another process by pid (see pidcall.h). */
#include "pidcall.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <signal.h>
#include <termios.h>
#include <unistd.h>

#include "call.h"
#include "jobstop.h"
#include "cordon/session.h"

/* setpriority's and ioprio_set's "which" (linux/ioprio.h). */
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_WHO_PGRP    2
#define IOPRIO_WHO_USER    3

bool cordon_pidcall_is(const struct seccomp_data *d)
{
	switch (d->nr) {
	case SYS_prlimit64:
	case SYS_setpriority:
	case SYS_sched_setaffinity:
	case SYS_sched_setscheduler:
	case SYS_sched_setparam:
	case SYS_sched_setattr:
	case SYS_ioprio_set:
	case SYS_setpgid:
		return true;
	default:
		return false;
	}
}

static bool listed(const pid_t *pids, size_t n, pid_t pid)
{
	for (size_t i = 0; i < n; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

/* Whether the process (or thread) ID is in the session: never the keeper
 * (U->root, outside the sandbox), nor a pid that is not there. */
static bool member(const pid_t *pids, size_t n, pid_t root, pid_t id)
{
	pid_t tgid = id > 0 ? cordon_tgid_of(id) : -1;
	return tgid > 0 && tgid != root && listed(pids, n, tgid);
}

/* Whether a process in the process group PGRP is not the session's (never
 * the keeper, U's root); *ANY: the group has a process at all (it may be
 * empty: a foreground job that has just ended). */
static bool group_outsider(const pid_t *pids, size_t n, pid_t root, pid_t pgrp, bool *any)
{
	DIR *d = opendir("/proc");
	*any = false;
	if (!d)
		return true;
	bool outside = false;
	struct dirent *e;
	while (!outside && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || cordon_proc_stat_field((pid_t)pid, 5) != pgrp)
			continue;
		*any = true;
		outside = pid == root || !listed(pids, n, (pid_t)pid);
	}
	closedir(d);
	return outside;
}

/* Every process in the process group PGRP is in the session (and there is
 * one). */
static bool group_inside(const pid_t *pids, size_t n, pid_t root, pid_t pgrp)
{
	bool any;
	return !group_outsider(pids, n, root, pgrp, &any) && any;
}

int cordon_pidcall_judge(const struct cordon_unix_policy *u, pid_t tid,
			 const struct seccomp_data *d)
{
	/* The kernel takes these as ints: the low 32 bits. */
	int a0 = (int)d->args[0], a1 = (int)d->args[1];
	pid_t *pids = NULL;
	size_t n = 0;
	if (cordon_unix_session_pids(u, &pids, &n) < 0)
		return -EPERM;
	bool ok;
	switch (d->nr) {
	case SYS_setpriority:
	case SYS_ioprio_set: {
		bool prio = d->nr == SYS_setpriority;
		int process = prio ? PRIO_PROCESS : IOPRIO_WHO_PROCESS;
		int group = prio ? PRIO_PGRP : IOPRIO_WHO_PGRP;
		int user = prio ? PRIO_USER : IOPRIO_WHO_USER;
		if (a0 == process)
			ok = a1 == 0 || member(pids, n, u->root, a1);
		else if (a0 == group)
			ok = group_inside(pids, n, u->root,
					  a1 ? a1 : (pid_t)cordon_proc_stat_field(tid, 5));
		else if (a0 == user)
			ok = false; /* every process of a user: outside ones too */
		else {
			free(pids);
			return -EINVAL;
		}
		break;
	}
	case SYS_setpgid: {
		/* Into a group of its own (the pid it names), one whose every
		 * process is the session's, or back into the launcher's, where
		 * the session started (a shell rejoins it as it exits); which
		 * process it may move (itself, a child) is the kernel's to
		 * say. */
		pid_t target = a0 ? a0 : cordon_tgid_of(tid);
		ok = a1 == 0 || a1 == target || a1 == getpgrp() ||
		     group_inside(pids, n, u->root, a1);
		break;
	}
	default:
		ok = a0 == 0 || member(pids, n, u->root, a0);
		break;
	}
	free(pids);
	return ok ? 0 : -EPERM;
}

int cordon_pidcall_tty_pgrp(const struct cordon_unix_policy *u, struct cordon_call *c)
{
	const __u64 *a = c->req->data.args;
	/* The kernel asks that the group be in the caller's session. A
	 * session other than the launcher's was made inside (setsid: a tmux
	 * or script inside, with a pty of its own), and holds only the
	 * session's processes: whatever group the kernel takes there is the
	 * session's, whatever the caller's memory says by then. Decided on
	 * the caller's session alone, so the kernel goes on. */
	if (cordon_proc_stat_field(c->tid, 6) != getsid(0))
		return 1;
	unsigned long era = cordon_jobstop_era;
	pid_t pgrp;
	int e = cordon_call_peek(c, a[2], &pgrp, sizeof(pgrp));
	if (e < 0)
		return e;
	if (pgrp < 0)
		return -EINVAL;
	pid_t *pids = NULL;
	size_t n = 0;
	if (cordon_unix_session_pids(u, &pids, &n) < 0)
		return -EPERM;
	/* A group of the session's, or the one the session started in (the
	 * launcher's: a shell gives the terminal back to it as it exits). */
	bool ok = pgrp == getpgrp() || group_inside(pids, n, u->root, pgrp);
	int fd = ok ? cordon_call_take_fd(c, (int)a[0]) : -EPERM;
	/* And only from the session: never taken back from a group outside
	 * (round 59e F5: a child that ignored SIGTTOU took the foreground
	 * from the user's shell, once it had the job stopped, and read what
	 * was typed to the shell). */
	pid_t fg = fd >= 0 ? tcgetpgrp(fd) : -1;
	if (fd >= 0 && fg > 0 && fg != pgrp && fg != getpgrp() &&
	    group_outsider(pids, n, u->root, fg, &(bool){false})) {
		close(fd);
		fd = -EPERM;
	}
	free(pids);
	if (fd < 0)
		return fd;
	/* Done here, on the value judged (never read again from the caller's
	 * memory); SIGTTOU blocked on this thread, as a shell blocks it, so
	 * that a supervisor in a background group is not stopped. */
	sigset_t ttou, was;
	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	pthread_sigmask(SIG_BLOCK, &ttou, &was);
#ifdef CORDON_TEST_HOOKS
	/* Test builds: a look through /proc as long as a big session's. */
	const char *slow = getenv("CORDON_TEST_SLOW_TIOCSPGRP");
	if (slow && *slow)
		usleep((useconds_t)atoi(slow) * 1000);
#endif
	/* Judged on a foreground that is still the one read, in the same era:
	 * a launcher stopped with its job in the middle of the look above (a
	 * few ms to tens of ms) went on, at the user's bg, to hand the
	 * terminal to the session while the user's shell had it (round 59f
	 * F3). */
	int r = -EPERM;
	if (cordon_jobstop_era == era && tcgetpgrp(fd) == fg)
		r = ioctl(fd, TIOCSPGRP, &pgrp) < 0 ? -errno : 0;
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	close(fd);
	return r;
}
