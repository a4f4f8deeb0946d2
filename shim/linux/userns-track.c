/* An ordinary user's session found again by its user namespace.
 *
 * Without a cgroup (an ordinary user without a delegated one) a session is
 * tracked by its keeper, a subreaper: with the launcher and the keeper
 * killed at once, its processes went to init and nothing named them. But
 * an ordinary user's command starts in a user namespace of its own (for
 * the mount namespace of protected_paths), and no process leaves a user
 * namespace: it can only make one below it. The kernel gives each
 * namespace an id that is never given again (NS_GET_ID, Linux 6.18; the
 * inode number, which is, would name another session's later); the
 * registry keeps the command's, taken before any code of its own ran, and
 * a process whose user namespace is that one or lies below it is the
 * session's. Where the kernel has no NS_GET_ID the id is 0, and such a
 * session is as before: not found once orphaned. */
#include "cordon/session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

#define NSIO                     0xb7
#define NS_GET_PARENT_NR         _IO(NSIO, 0x2)
#define NS_GET_ID_NR             _IOR(NSIO, 13, uint64_t)
#define PIDFD_GET_USER_NAMESPACE _IO(0xFF, 9)
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

static uint64_t ns_id(int nsfd)
{
	uint64_t id = 0;
	return ioctl(nsfd, NS_GET_ID_NR, &id) == 0 ? id : 0;
}

uint64_t cordon_userns_id(int pidfd)
{
	int ns = pidfd >= 0 ? ioctl(pidfd, PIDFD_GET_USER_NAMESPACE, 0) : -1;
	if (ns < 0)
		return 0;
	uint64_t id = ns_id(ns);
	close(ns);
	return id;
}

/* Whether the process behind PIDFD lives in user namespace ID or below it.
 * The walk up stops at the caller's own (NS_GET_PARENT refuses to go past
 * it) or at 32 levels (the kernel allows 32). */
static bool below_ns(int ns, uint64_t id)
{
	for (int depth = 0; ns >= 0 && depth < 33; depth++) {
		uint64_t here = ns_id(ns);
		if (here == id) {
			close(ns);
			return true;
		}
		int up = here ? ioctl(ns, NS_GET_PARENT_NR) : -1;
		close(ns);
		ns = up;
	}
	if (ns >= 0)
		close(ns);
	return false;
}

static bool below(int pidfd, uint64_t id)
{
	return below_ns(ioctl(pidfd, PIDFD_GET_USER_NAMESPACE, 0), id);
}

/* Process PID, whose leader has exited (state Z) while a thread of it
 * runs on (review 40a F1: such a process read as a zombie, and its pidfd
 * names no namespace): whether that thread lives in ID or below. Asked
 * through a pidfd of the thread (Linux 6.9), else its /proc entry. */
static bool thread_below(pid_t pid, uint64_t id)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	bool in = false;
	for (struct dirent *de; d && !in && (de = readdir(d));) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);
		if (*end || tid <= 0 || tid == pid || tid > INT32_MAX)
			continue;
		int fd = (int)syscall(SYS_pidfd_open, (pid_t)tid, PIDFD_THREAD);
		if (fd >= 0) {
			in = below(fd, id);
			close(fd);
			continue;
		}
		char path[96];
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/ns/user", (int)pid, tid);
		in = below_ns(open(path, O_RDONLY | O_CLOEXEC), id);
	}
	if (d)
		closedir(d);
	return in;
}

/* Whether ID may name a session's user namespace: not 0 (unknown) and
 * not the caller's own, below which every process it sees lives (a record
 * is a file: one naming that would end them all). */
static bool session_ns(uint64_t id)
{
	if (!id)
		return false;
	int own = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC);
	uint64_t mine = own >= 0 ? ns_id(own) : 0;
	if (own >= 0)
		close(own);
	return mine && id != mine;
}

bool cordon_userns_holds(pid_t pid, uint64_t id)
{
	int fd = session_ns(id) ? (int)syscall(SYS_pidfd_open, pid, 0) : -1;
	bool in = fd >= 0 && below(fd, id);
	if (fd >= 0)
		close(fd);
	return in;
}

/* PID, if it lives in user namespace ID or below it: EACH(pidfd, pid,
 * arg) called, and 1. The pidfd names one process: a pid given out again
 * between the listing and here is judged as the process it names now. */
static size_t look_at(long pid, uint64_t id, void (*each)(int, pid_t, void *), void *arg)
{
	if (pid <= 0 || pid > INT32_MAX || pid == getpid())
		return 0;
	int fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
	if (fd < 0)
		return 0;
	char state = cordon_proc_state((pid_t)pid);
	bool in = state == 'Z' || state == 'X' ? thread_below((pid_t)pid, id) : below(fd, id);
	if (in && each)
		each(fd, (pid_t)pid, arg);
	close(fd);
	return in;
}

/* The pid the kernel gave out last (/proc/loadavg's last field), or -1. */
static long last_pid(void)
{
	char buf[128];
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	const char *sp = strrchr(buf, ' ');
	return sp ? strtol(sp + 1, NULL, 10) : -1;
}

/* EACH(pidfd, pid, arg) for every live process (not a zombie whose
 * threads are all gone) in user namespace ID or below it. Returns how
 * many. /proc lists pids in rising order: a process that forks and lets
 * its parent exit, faster than the listing moves (1,500 zombies init had
 * not reaped made each look 60-100 ms), stayed ahead of it to the end
 * (round 40f F3); so the pids given out since the listing passed its
 * highest, up to the last the kernel gave, are looked at until none is
 * new. */
static size_t each_in(uint64_t id, void (*each)(int, pid_t, void *), void *arg)
{
	if (!session_ns(id))
		return 0;
	DIR *d = opendir("/proc");
	size_t n = 0;
	long high = 0;
	for (struct dirent *de; d && (de = readdir(d));) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		if (*end)
			continue;
		n += look_at(pid, id, each, arg);
		high = pid > high ? pid : high;
	}
	if (d)
		closedir(d);
	for (int round = 0; round < 64; round++) {
		long last = last_pid();
		if (last < 0 || last == high)
			break;
		/* (Past the largest pid, the kernel starts again from 300.) */
		for (long pid = last > high ? high + 1 : 300; pid <= last; pid++)
			n += look_at(pid, id, each, arg);
		high = last;
	}
	return n;
}

struct collected {
	pid_t *pids;
	size_t n, cap;
	bool failed;
};

static void collect(int fd, pid_t pid, void *arg)
{
	(void)fd;
	struct collected *c = arg;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		pid_t *p = realloc(c->pids, cap * sizeof(*p));
		if (!p) {
			c->failed = true;
			return;
		}
		c->pids = p;
		c->cap = cap;
	}
	c->pids[c->n++] = pid;
}

int cordon_userns_pids(uint64_t id, pid_t **pids, size_t *n, struct cordon_error *err)
{
	struct collected c = {0};
	(void)each_in(id, collect, &c);
	if (c.failed) {
		free(c.pids);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	*pids = c.pids;
	*n = c.n;
	return 0;
}

/* How many looks at /proc find nothing before a session counts as gone,
 * 10 ms apart: a survivor that forks and lets its parent exit, again and
 * again, was missed by one (review 40a F3: its record dropped for good,
 * the kill loop ended early). */
#define EMPTY_LOOKS 5

static void pause_a_moment(void)
{
	nanosleep(&(struct timespec){0, 10L * 1000 * 1000}, NULL);
}

bool cordon_userns_populated(uint64_t id)
{
	for (int look = 0; look < EMPTY_LOOKS && session_ns(id); look++) {
		if (look)
			pause_a_moment();
		if (each_in(id, NULL, NULL) > 0)
			return true;
	}
	return false;
}

static void kill_one(int fd, pid_t pid, void *arg)
{
	(void)pid;
	(void)arg;
	(void)syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0);
}

/* Rounds of SIGKILL to every process found, until EMPTY_LOOKS looks in a
 * row find none: one that forked meanwhile is found in the next (a
 * process with SIGKILL pending forks no more). */
int cordon_userns_kill(uint64_t id, struct cordon_error *err)
{
	if (!session_ns(id))
		return cordon_err(err, ENOTSUP,
				  "the session's user namespace is not known (or is this one's)");
	for (int round = 0, empty = 0; round < 300; round++) {
		empty = each_in(id, kill_one, NULL) == 0 ? empty + 1 : 0;
		if (empty == EMPTY_LOOKS)
			return 0;
		pause_a_moment();
	}
	return cordon_err(err, EBUSY,
			  "the session's processes (user namespace %llu) still run after 3 s of "
			  "SIGKILL",
			  (unsigned long long)id);
}
