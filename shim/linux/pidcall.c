/* Calls that name another process by pid (see pidcall.h). */
#include "pidcall.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include "call.h"
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

/* Every process in the process group PGRP is in the session (and there is
 * one). */
static bool group_inside(const pid_t *pids, size_t n, pid_t root, pid_t pgrp)
{
	DIR *d = opendir("/proc");
	if (!d)
		return false;
	bool any = false, outside = false;
	struct dirent *e;
	while (!outside && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);
		if (*end || pid <= 0 || cordon_proc_stat_field((pid_t)pid, 5) != pgrp)
			continue;
		any = true;
		outside = pid == root || !listed(pids, n, (pid_t)pid);
	}
	closedir(d);
	return any && !outside;
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
	default:
		ok = a0 == 0 || member(pids, n, u->root, a0);
		break;
	}
	free(pids);
	return ok ? 0 : -EPERM;
}
