/* System V IPC for the session (see sysvipc.h). */
#include "sysvipc.h"

#include <errno.h>
#include <stdio.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call.h"

/* The kernel's command numbers, some missing from older headers. */
#define CMD_IPC_64       0x0100
#define CMD_SHM_STAT     13
#define CMD_SHM_INFO     14
#define CMD_SHM_STAT_ANY 15
#define CMD_MSG_STAT     11
#define CMD_MSG_INFO     12
#define CMD_MSG_STAT_ANY 13
#define CMD_SEM_STAT     18
#define CMD_SEM_INFO     19
#define CMD_SEM_STAT_ANY 20

struct cordon_ipc_set *cordon_ipc_set_new(void)
{
	struct cordon_ipc_set *s =
		mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	/* Zeroed already, and a zeroed mutex is an initialized one (glibc's
	 * PTHREAD_MUTEX_INITIALIZER): nothing is touched until the session's
	 * first object. */
	return s == MAP_FAILED ? NULL : s;
}

static long ctl(int kind, int id, int cmd)
{
	switch (kind) {
	case CORDON_IPC_SHM:
		return syscall(SYS_shmctl, id, cmd, NULL);
	case CORDON_IPC_SEM:
		return syscall(SYS_semctl, id, 0, cmd, 0);
	case CORDON_IPC_MSG:
		return syscall(SYS_msgctl, id, cmd, NULL);
	default:
		errno = EINVAL;
		return -1;
	}
}

void cordon_ipc_remove_all(struct cordon_ipc_set *set)
{
	for (unsigned i = 0; set && i < set->n; i++) {
		if (set->v[i].kind)
			(void)ctl(set->v[i].kind, set->v[i].id, IPC_RMID);
		set->v[i].kind = 0;
	}
	if (set)
		set->n = 0;
}

/* Under the lock: the slot of (KIND, ID), or -1. */
static int find(const struct cordon_ipc_set *s, int kind, int id)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->v[i].kind == kind && s->v[i].id == id)
			return (int)i;
	return -1;
}

static bool recorded(struct cordon_ipc_set *s, int kind, int id)
{
	pthread_mutex_lock(&s->lock);
	bool r = find(s, kind, id) >= 0;
	pthread_mutex_unlock(&s->lock);
	return r;
}

static bool record(struct cordon_ipc_set *s, int kind, int id)
{
	pthread_mutex_lock(&s->lock);
	int slot = -1;
	for (unsigned i = 0; i < s->n && slot < 0; i++)
		if (!s->v[i].kind)
			slot = (int)i;
	if (slot < 0 && s->n < CORDON_IPC_MAX)
		slot = (int)s->n++;
	if (slot >= 0) {
		s->v[slot].id = id;
		s->v[slot].kind = kind;
	}
	pthread_mutex_unlock(&s->lock);
	return slot >= 0;
}

static void forget(struct cordon_ipc_set *s, int kind, int id)
{
	pthread_mutex_lock(&s->lock);
	int i = find(s, kind, id);
	if (i >= 0)
		s->v[i].kind = 0;
	pthread_mutex_unlock(&s->lock);
}

bool cordon_ipc_is(const struct seccomp_data *d)
{
	switch (d->nr) {
	case SYS_shmget:
	case SYS_shmat:
	case SYS_shmctl:
	case SYS_semget:
	case SYS_semop:
	case SYS_semtimedop:
	case SYS_semctl:
	case SYS_msgget:
	case SYS_msgsnd:
	case SYS_msgrcv:
	case SYS_msgctl:
		return true;
	default:
		return false;
	}
}

/* Whether TID is in this process's IPC namespace: 1 yes, 0 in another
 * (one it made), -errno when that cannot be told. A process the
 * supervisor may not look at (an ordinary user's, made non-dumpable by
 * the exec of a program it cannot read whose owner its user namespace
 * does not map) is not known to have one of its own (review 45a F1). */
static int same_namespace(pid_t tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/ns/ipc", (int)tid);
	struct stat theirs, ours;
	if (stat(path, &theirs) < 0 || stat("/proc/self/ns/ipc", &ours) < 0)
		return -errno;
	return theirs.st_ino == ours.st_ino && theirs.st_dev == ours.st_dev;
}

static long get_here(int kind, int key, long arg, int flags)
{
	switch (kind) {
	case CORDON_IPC_SHM:
		return syscall(SYS_shmget, key, (size_t)arg, flags);
	case CORDON_IPC_SEM:
		return syscall(SYS_semget, key, (int)arg, flags);
	default:
		return syscall(SYS_msgget, key, flags);
	}
}

/* The caller whose call is answered, for its credentials. */
static __thread struct cordon_call *caller;

/* get and ctl as the caller (its uid owns what it makes; its permissions,
 * not the supervisor's, decide). -1 with errno, as the calls. */
static long get(int kind, int key, long arg, int flags)
{
	int r = cordon_call_assume(caller);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	long id = get_here(kind, key, arg, flags);
	int e = errno;
	cordon_call_restore();
	errno = e;
	return id;
}

static long ctl_as_caller(int kind, int id, int cmd)
{
	int r = cordon_call_assume(caller);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	long k = ctl(kind, id, cmd);
	int e = errno;
	cordon_call_restore();
	errno = e;
	return k;
}

/* shmget, semget, msgget, performed here. */
static long do_get(struct cordon_ipc_set *s, int kind, int key, long arg, int flags)
{
	if (key != IPC_PRIVATE && !(flags & IPC_CREAT)) {
		long id = get(kind, key, arg, flags);
		if (id < 0)
			return -errno;
		return recorded(s, kind, (int)id) ? id : -ENOENT;
	}
	/* Creating (or IPC_PRIVATE, always new): made here with IPC_EXCL, so
	 * that an id back is an object of ours. */
	long id = get(kind, key, arg, flags | (key != IPC_PRIVATE ? IPC_EXCL : 0));
	if (id >= 0) {
		if (record(s, kind, (int)id))
			return id;
		(void)ctl_as_caller(kind, (int)id, IPC_RMID);
		return -ENOSPC;
	}
	if (errno != EEXIST || key == IPC_PRIVATE)
		return -errno;
	/* The key is taken: ours (hand it over, as the kernel would), or an
	 * object from outside (refused). */
	id = get(kind, key, arg, flags & ~(IPC_CREAT | IPC_EXCL));
	if (id < 0)
		return errno == ENOENT ? -EAGAIN : -errno; /* removed meanwhile */
	if (!recorded(s, kind, (int)id))
		return -EACCES;
	return flags & IPC_EXCL ? -EEXIST : id;
}

long cordon_ipc_handle(struct cordon_ipc_set *s, struct cordon_call *c, bool *go_on)
{
	const struct seccomp_data *d = &c->req->data;
	pid_t tid = c->tid;
	caller = c;
	*go_on = false;
	if (!s)
		return -EACCES;
	int same = same_namespace(tid);
	if (same < 0)
		return same == -ENOENT || same == -ESRCH ? -ESRCH : -EACCES;
	if (!same) {
		*go_on = true; /* its own namespace, made inside */
		return 0;
	}
	const __u64 *a = d->args;
	int kind, cmd = -1;
	switch (d->nr) {
	case SYS_shmget:
		return do_get(s, CORDON_IPC_SHM, (int)a[0], (long)a[1], (int)a[2]);
	case SYS_semget:
		return do_get(s, CORDON_IPC_SEM, (int)a[0], (long)a[1], (int)a[2]);
	case SYS_msgget:
		return do_get(s, CORDON_IPC_MSG, (int)a[0], 0, (int)a[1]);
	case SYS_shmctl:
		cmd = (int)a[1];
		/* fall through */
	case SYS_shmat:
		kind = CORDON_IPC_SHM;
		break;
	case SYS_semctl:
		cmd = (int)a[2];
		/* fall through */
	case SYS_semop:
	case SYS_semtimedop:
		kind = CORDON_IPC_SEM;
		break;
	case SYS_msgctl:
		cmd = (int)a[1];
		/* fall through */
	default: /* msgsnd, msgrcv */
		kind = CORDON_IPC_MSG;
		break;
	}
	if (cmd >= 0)
		cmd &= ~CMD_IPC_64;
	/* Limits and counts of the whole host's IPC: no object named. */
	if (cmd == IPC_INFO || (kind == CORDON_IPC_SHM && cmd == CMD_SHM_INFO) ||
	    (kind == CORDON_IPC_MSG && cmd == CMD_MSG_INFO) ||
	    (kind == CORDON_IPC_SEM && cmd == CMD_SEM_INFO)) {
		*go_on = true;
		return 0;
	}
	/* An index into every object of the host. */
	if ((kind == CORDON_IPC_SHM && (cmd == CMD_SHM_STAT || cmd == CMD_SHM_STAT_ANY)) ||
	    (kind == CORDON_IPC_MSG && (cmd == CMD_MSG_STAT || cmd == CMD_MSG_STAT_ANY)) ||
	    (kind == CORDON_IPC_SEM && (cmd == CMD_SEM_STAT || cmd == CMD_SEM_STAT_ANY)))
		return -EACCES;
	int id = (int)a[0];
	if (!recorded(s, kind, id))
		return -EACCES;
	if (cmd == IPC_RMID) {
		if (ctl_as_caller(kind, id, IPC_RMID) < 0)
			return -errno;
		forget(s, kind, id);
		return 0;
	}
	*go_on = true;
	return 0;
}
