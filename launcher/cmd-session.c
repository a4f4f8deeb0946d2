/* cordon list / ps / kill: live sessions, from the registry the watchers
 * keep (see cordon/session.h). */
#include <errno.h>
#include <limits.h>
#ifdef __APPLE__
#include <libproc.h>
#endif
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "launcher.h"
#include "util.h"

/* Whether session S, its watcher gone, still has processes in its cgroup
 * or (tracked without one) its user namespace: the watcher was killed
 * outright with its keeper, and nothing else will end them. */
static bool orphaned(const struct cordon_session_info *s)
{
	if (!s->cgroup[0])
		return cordon_userns_populated(s->userns);
	pid_t *pids = NULL;
	size_t n = 0;
	bool some = cordon_cgroup_pids(s->cgroup, &pids, &n, NULL) == 0 && n > 0;
	free(pids);
	return some;
}

/* Every process of session S: the cgroup's, or for a subreaper session the
 * supervisor's descendants (orphaned: its user namespace's). */
static int session_pids(const struct cordon_session_info *s, pid_t **pids, size_t *n, bool orphan,
			struct cordon_error *err)
{
	if (s->cgroup[0])
		return cordon_cgroup_pids(s->cgroup, pids, n, err);
	if (orphan)
		return cordon_userns_pids(s->userns, pids, n, err);
	size_t cap = 64, cnt = 0, next = 0;
	pid_t *out = malloc(cap * sizeof(*out));
	if (!out)
		return cordon_err(err, ENOMEM, "out of memory");
	out[cnt++] = s->watcher;
	while (next < cnt) {
		char path[64];
		pid_t parent = out[next++];
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", parent, parent);
		pid_t *kids = NULL;
		size_t nk = 0;
		if (cordon_read_pids(path, &kids, &nk) < 0)
			continue; /* it exited meanwhile */
		if (cnt + nk > cap) {
			while (cnt + nk > cap)
				cap *= 2;
			pid_t *nv = realloc(out, cap * sizeof(*out));
			if (!nv) {
				free(kids);
				free(out);
				return cordon_err(err, ENOMEM, "out of memory");
			}
			out = nv;
		}
		if (nk)
			memcpy(out + cnt, kids, nk * sizeof(*kids));
		cnt += nk;
		free(kids);
	}
	memmove(out, out + 1, (cnt - 1) * sizeof(*out)); /* not the supervisor itself */
	*pids = out;
	*n = cnt - 1;
	return 0;
}

/* Load session ID, dropping a record whose watcher is gone, unless the
 * session is orphaned (*ORPHAN set then; ORPHAN may be NULL). */
static int load(const char *id, struct cordon_session_info *s, bool *orphan,
		struct cordon_error *err)
{
	int r = cordon_registry_read(id, s, err);
	if (r < 0)
		return r;
	bool live = cordon_registry_live(s);
	bool o = !live && orphaned(s);
	if (orphan)
		*orphan = o;
	if (!live && !o) {
		/* Ended; a killed watcher also left its (empty) cgroup. The kernel
		 * removes only an empty one, and the record names only its own. */
		if (s->cgroup[0])
			(void)rmdir(s->cgroup);
		if (s->sockets[0])
			cordon_session_remove_socket_dir(s->sockets);
		cordon_registry_remove(id);
		return cordon_err(err, ESRCH, "%s: no such session (it has ended)", id);
	}
	return 0;
}

/* Inside a session the registry is out of reach (46b F6: list said a bare
 * "Permission denied", ps and kill "no such session" of the live one). */
static bool outside_only(const char *cmd)
{
	if (!cordon_sandbox_nested())
		return false;
	fprintf(stderr,
		"cordon: %s runs outside sessions only: inside one, the sessions' registry is "
		"out of reach\n",
		cmd);
	return true;
}

static void age(long long started, char *buf, size_t size)
{
	long long s = (long long)time(NULL) - started;
	if (s < 0)
		s = 0;
	if (s < 3600)
		snprintf(buf, size, "%lldm%02llds", s / 60, s % 60);
	else
		snprintf(buf, size, "%lldh%02lldm", s / 3600, (s % 3600) / 60);
}

int cmd_list(const struct cordon_args *a)
{
	(void)a;
	if (outside_only("list"))
		return CORDON_EXIT_FAILURE;
	struct cordon_error err = {0};
	char **ids;
	size_t n;
	if (cordon_registry_list(&ids, &n, &err) < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	printf("%-16s %8s %6s %8s %-9s %s\n", "SESSION", "PID", "PROCS", "AGE", "TRACKING",
	       "PROJECT");
	for (size_t i = 0; i < n; i++) {
		struct cordon_session_info s;
		struct cordon_error e = {0};
		bool orphan = false;
		if (load(ids[i], &s, &orphan, &e) == 0) {
			pid_t *pids = NULL;
			size_t np = 0;
			char buf[32];
			session_pids(&s, &pids, &np, orphan, &e);
			age(s.started, buf, sizeof(buf));
			const char *tracking = s.cgroup[0] ? "cgroup" : "subreaper";
			if (orphan)
				tracking = "orphaned";
			printf("%-16s %8d %6zu %8s %-9s %s\n", s.id, (int)s.shell, np, buf,
			       tracking, s.project[0] ? s.project : "-");
			free(pids);
		}
		free(ids[i]);
	}
	free(ids);
	return 0;
}

int cmd_ps(const struct cordon_args *a)
{
	if (outside_only("ps"))
		return CORDON_EXIT_FAILURE;
	struct cordon_error err = {0};
	struct cordon_session_info s;
	pid_t *pids = NULL;
	size_t n = 0;
	bool orphan = false;
	if (load(a->rest[0], &s, &orphan, &err) < 0 ||
	    session_pids(&s, &pids, &n, orphan, &err) < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	printf("%8s %s\n", "PID", "COMMAND");
	for (size_t i = 0; i < n; i++) {
		char path[64], cmd[4096] = "";
		snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pids[i]);
		FILE *f = fopen(path, "re");
		size_t len = f ? fread(cmd, 1, sizeof(cmd) - 1, f) : 0;
		if (f)
			(void)fclose(f); /* read only */
		for (size_t j = 0; j + 1 < len; j++)
			if (cmd[j] == '\0')
				cmd[j] = ' ';
		cmd[len] = '\0';
		/* (A session names its own processes: no control character of
		 * its reaches the user's terminal, round 54b F1.) */
		char shown[sizeof(cmd)];
		printf("%8d %s\n", (int)pids[i], cordon_printable(cmd, len, shown, sizeof(shown)));
	}
	free(pids);
	return 0;
}

/* Whether PID runs cordon: a session's supervisor, as its record says.
 * The record is a file a session with a writable home could have written;
 * SIGUSR1 ends any other process. */
static bool runs_cordon(pid_t pid)
{
	char exe[PATH_MAX];
#ifdef __APPLE__
	int n = proc_pidpath(pid, exe, sizeof(exe));
	if (n <= 0)
		return false;
	exe[n < (int)sizeof(exe) ? n : (int)sizeof(exe) - 1] = '\0';
#else
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
#endif
	char *deleted = strstr(exe, " (deleted)"); /* upgraded since it started */
	if (deleted && deleted[10] == '\0')
		*deleted = '\0';
	const char *base = strrchr(exe, '/');
	return base && strcmp(base + 1, "cordon") == 0;
}

int cmd_kill(const struct cordon_args *a)
{
	if (outside_only("kill"))
		return CORDON_EXIT_FAILURE;
	struct cordon_error err = {0};
	struct cordon_session_info s;
	bool orphan = false;
	if (load(a->rest[0], &s, &orphan, &err) < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	/* cgroup: kill the whole tree at once; the supervisor then sees the
	 * command gone and removes the cgroup. subreaper: the supervisor ends
	 * the session on SIGUSR1 (its keeper kills every descendant).
	 * Orphaned: no supervisor, so kill, wait for the cgroup to empty and
	 * remove it and the record here. */
	int r;
	if (orphan) {
		r = s.cgroup[0] ? cordon_cgroup_destroy(s.cgroup, &err)
				: cordon_userns_kill(s.userns, &err);
		if (r >= 0 && s.sockets[0])
			cordon_session_remove_socket_dir(s.sockets);
		if (r >= 0)
			cordon_registry_remove(s.id);
	} else if (s.cgroup[0]) {
		r = cordon_cgroup_kill(s.cgroup, &err);
	} else if (!runs_cordon(s.watcher)) {
		r = cordon_err(&err, EPERM,
			       "%s: its record names process %d as its supervisor, which is not "
			       "cordon: not signalled",
			       s.id, (int)s.watcher);
	} else {
		r = kill(s.watcher, SIGUSR1) < 0
			    ? cordon_err(&err, errno, "%s: %s", s.id, strerror(errno))
			    : 0;
	}
	if (r < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	return 0;
}
