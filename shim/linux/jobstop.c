/* The session held still while its job is stopped (see jobstop.h). */
#include "jobstop.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <termios.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cordon/session.h"
#include "util.h"

static bool write_freeze(int cgroup_fd, const char *value)
{
	int fd = openat(cgroup_fd, "cgroup.freeze", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = write(fd, value, 1) == 1;
	close(fd);
	return ok;
}

/* Whether cgroup.events says "frozen 1". */
static bool frozen(int cgroup_fd)
{
	int fd = openat(cgroup_fd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, "frozen 1") != NULL;
}

/* Whether PID descends from ROOT (its parents up to it): a process of a
 * session tracked by its subreaper keeper, which every orphan of the
 * session comes to. */
static bool descends_from(pid_t pid, pid_t root)
{
	for (int depth = 0; depth < 4096 && pid > 1; depth++) {
		pid = (pid_t)cordon_proc_stat_field(pid, 4);
		if (pid == root)
			return true;
	}
	return false;
}

/* A pidfd for PID, a process of U's session as it is opened; -ESRCH where
 * it is gone or its pid now another's (between the listing and this: a
 * process outside would have been stopped, round 59h L2); -1 where no
 * pidfd can be had (too many open: signalled by pid, as before). The
 * pidfd is opened first, then PID judged, then the pidfd's process found
 * alive: so the process judged is the pidfd's. */
static int session_pidfd(const struct cordon_unix_policy *u, pid_t pid)
{
	int fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return errno == ESRCH ? -ESRCH : -1;
	bool inside;
	if (u->cgroup) {
		/* (Freezing failed: in the session's cgroup.) */
		inside = cordon_proc_in_cgroup(pid, u->cgroup);
	} else {
		inside = descends_from(pid, u->root);
	}
	if (!inside || syscall(SYS_pidfd_send_signal, fd, 0, NULL, 0) < 0) {
		close(fd);
		return -ESRCH;
	}
	return fd;
}

/* SIG to the process of FD (a pidfd), or by PID where it has none. */
static void signal_one(int fd, pid_t pid, int sig)
{
	if (fd >= 0)
		(void)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
	else
		(void)kill(pid, sig);
}

/* A process's state as the hold takes it: its main thread's, or where
 * that one ended (a zombie leader, pthread_exit) and a thread lives on,
 * 'R' while one of them is not stopped, 'T' once all are (round 60g H1:
 * such a process was skipped, and its thread read on). */
static char group_state(pid_t pid)
{
	char state = cordon_proc_state(pid);
	if (state != 'Z')
		return state;
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	if (!d)
		return state;
	char seen = 'Z';
	for (struct dirent *e; seen != 'R' && (e = readdir(d));) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		if (*end || tid <= 0)
			continue;
		char t = cordon_proc_task_state(pid, (pid_t)tid);
		if (t == 'T' || t == 't')
			seen = 'T';
		else if (t != 'Z' && t != 'X')
			seen = 'R';
	}
	closedir(d);
	return seen;
}

void cordon_jobstop_hold(struct cordon_jobstop *j, const struct cordon_unix_policy *u)
{
	j->stopped = NULL;
	j->n = j->cap = 0;
	j->frozen = j->cgroup_fd >= 0 && write_freeze(j->cgroup_fd, "1");
	if (j->frozen) {
		/* (A task in a read is woken to freeze: some milliseconds.) */
		for (int i = 0; i < 200 && !frozen(j->cgroup_fd); i++)
			nanosleep(&(struct timespec){0, 1000L * 1000L}, NULL);
		return;
	}
	/* Without a cgroup: every process stopped, and the session looked
	 * through again until none runs (round 59h H1: a process not yet
	 * stopped sent SIGCONT to a reader already stopped, whose read, begun
	 * again while the job had the terminal, went on after). Those that
	 * ran at the first look, or appeared since, are continued after; one
	 * the session's own job control had stopped stays so. */
	bool first = true;
	for (int round = 0; round < 1000; round++) {
		pid_t *pids = NULL;
		size_t n = 0;
		if (cordon_unix_session_pids(u, &pids, &n) < 0)
			break;
		bool all = true;
		for (size_t i = 0; i < n; i++) {
			char state = group_state(pids[i]);
			if (pids[i] == u->root || state == 0 || state == 'Z' || state == 'X')
				continue;
			bool stopped = state == 'T' || state == 't';
			if (stopped && !first)
				continue;
			size_t k = 0;
			while (k < j->n && j->stopped[k].pid != pids[i])
				k++;
			int fd = k < j->n ? j->stopped[k].fd : session_pidfd(u, pids[i]);
			if (fd == -ESRCH)
				continue; /* gone, or its pid another's by now */
			signal_one(fd, pids[i], SIGSTOP);
			if (stopped || k < j->n) {
				if (k == j->n && fd >= 0)
					close(fd);
				all = all && stopped;
				continue;
			}
			all = false;
			struct cordon_held *v =
				cordon_grow(j->stopped, &j->cap, j->n + 1, sizeof(*v), 16);
			if (!v) {
				if (fd >= 0)
					close(fd);
				continue;
			}
			j->stopped = v;
			j->stopped[j->n++] = (struct cordon_held){pids[i], fd};
		}
		free(pids);
		first = false;
		if (all)
			break;
		nanosleep(&(struct timespec){0, 1000L * 1000L}, NULL);
	}
}

void cordon_jobstop_release(struct cordon_jobstop *j)
{
	if (j->frozen) {
		(void)write_freeze(j->cgroup_fd, "0");
		return;
	}
	/* (By pidfd: one that died meanwhile, its pid another process's by
	 * the user's fg, is continued no more: round 59h L2.) */
	for (size_t i = 0; i < j->n; i++) {
		signal_one(j->stopped[i].fd, j->stopped[i].pid, SIGCONT);
		if (j->stopped[i].fd >= 0)
			close(j->stopped[i].fd);
	}
	free(j->stopped);
	j->stopped = NULL;
	j->n = 0;
}

_Atomic unsigned long cordon_jobstop_era;

void cordon_jobstop_take(int sig, bool whole_group)
{
	sigset_t one;
	sigemptyset(&one);
	sigaddset(&one, sig);
	/* Raised at this thread, where it is blocked: pending until the
	 * unblock, then taken here (no other thread of ours takes it). Or
	 * sent to our whole group, as the terminal's ^Z would be: we stop as
	 * it reaches us. */
	if (whole_group)
		(void)kill(0, sig);
	else
		(void)raise(sig);
	pthread_sigmask(SIG_UNBLOCK, &one, NULL);
	pthread_sigmask(SIG_BLOCK, &one, NULL);
}

void cordon_jobstop_stop(struct cordon_jobstop *j, const struct cordon_unix_policy *u, int sig)
{
	/* (Before the hold's milliseconds: a foreground change judged
	 * across them is refused, pidcall.c.) */
	cordon_jobstop_era++;
	cordon_jobstop_hold(j, u);
	if (j->relay)
		cordon_relay_pause(j->relay);
	cordon_jobstop_take(sig, j->whole_group);
	cordon_jobstop_era++;
	if (j->relay)
		cordon_relay_resume(j->relay);
	cordon_jobstop_release(j);
}

/* Whether a stop signal sent to our process group stops it: the kernel
 * drops SIGTSTP, SIGTTIN and SIGTTOU where the group is orphaned (no
 * member's parent in another group of the same session, none to say fg).
 * Judged along our ancestors: the first one outside our group must be in
 * our session. *WHOLE: an ancestor shares our group (a shell's `sh -c
 * 'cordon …'`: its job is stopped only once the sh is too, round 60a
 * left a hang there), so the whole group is stopped. A process of the
 * session's that joined our group from an inner one is not counted (we
 * then leave the command stopped, as before). */
static bool group_stops(bool *whole)
{
	*whole = false;
	pid_t ours = getpgrp(), session = getsid(0);
	pid_t p = getppid();
	for (int depth = 0; p > 1 && depth < 64; depth++) {
		pid_t group = getpgid(p);
		if (group <= 0)
			return false;
		if (group != ours)
			return getsid(p) == session && session > 0;
		*whole = true;
		p = (pid_t)cordon_proc_stat_field(p, 4);
	}
	return false;
}

bool cordon_jobstop_group_stops(void)
{
	bool whole;
	return group_stops(&whole);
}

bool cordon_jobstop_follow(struct cordon_jobstop *j, const struct cordon_unix_policy *u, pid_t cmd,
			   int tty, int sig)
{
	/* A stop the hold made (SIGSTOP to each process, subreaper tracking)
	 * is said too, and is over by now: only a command still stopped a
	 * moment later counts (a SIGCONT just sent may not show in its state
	 * for some microseconds). */
	for (int look = 0; look < 2; look++) {
		if (cmd <= 0 || cordon_proc_state(cmd) != 'T')
			return false;
		if (look == 0)
			nanosleep(&(struct timespec){0, 10L * 1000L * 1000L}, NULL);
	}
	/* The job is stopping anyway (^Z: the terminal's SIGTSTP reached our
	 * group too): job_stop does it, once. */
	sigset_t pending;
	if (sigpending(&pending) == 0 &&
	    (sigismember(&pending, SIGTSTP) || sigismember(&pending, SIGTTIN) ||
	     sigismember(&pending, SIGTTOU)))
		return false;
	if (!group_stops(&j->whole_group))
		return false;
	/* A command in a group of its own had the terminal (an interactive
	 * shell: bash's suspend stops that group): it gets it back as it goes
	 * on, as a shell's fg would give it (sudo does the same); fg gave it
	 * to our group. */
	pid_t group = getpgid(cmd), fg = tty >= 0 ? tcgetpgrp(tty) : -1;
	bool give_back = group > 0 && fg == group && group != getpgrp();
	cordon_jobstop_stop(j, u, sig == SIGTTIN || sig == SIGTTOU ? sig : SIGTSTP);
	/* The command may have ended while the job was stopped (a timer's
	 * SIGKILL), its pid another process's by the user's fg: judged by its
	 * pidfd, so that nothing outside is given the terminal or continued
	 * (round 60g M2). A zombie keeps its pid and its group. */
	bool alive = j->cmd_fd >= 0 ? syscall(SYS_pidfd_send_signal, j->cmd_fd, 0, NULL, 0) == 0
				    : kill(cmd, 0) == 0;
	if (!alive)
		return true;
	/* (SIGTTOU is blocked here: a group in the background may set it.) */
	if (give_back && tcgetpgrp(tty) == getpgrp() && getpgid(cmd) == group)
		(void)tcsetpgrp(tty, group);
	if (group > 0 && group != getpgrp() && getpgid(cmd) == group)
		(void)kill(-group, SIGCONT);
	else
		signal_one(j->cmd_fd, cmd, SIGCONT);
	return true;
}
