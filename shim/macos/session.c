/* macOS session tracking. There are no cgroups: every process of a session
 * carries the session's fingerprint in its Seatbelt profile (see
 * cordon/sbpl.h), which a process can neither remove nor change. A detached
 * watcher waits for the command with kqueue (EVFILT_PROC, NOTE_EXIT), for
 * the terminal to hang up, or for the ack to time out, then runs the
 * convergent loop (no blind killpg, see end_session): scan the user's processes
 * (sysctl KERN_PROC_UID), skip zombies, SIGKILL every process whose sandbox
 * matches the fingerprint, repeat until a scan finds none; and removes the
 * fingerprint directory and the session's socket directory (see
 * cordon_macos_socket_dir), which START makes beside it.
 *
 * Network by domain: the launcher becomes the command (exec in place), so
 * cordon's proxy (shim/proxy.c) runs in the watcher, which lives outside
 * the sandbox as long as the session does. The launcher makes its
 * listening socket (its port goes into the profile and the environment),
 * the watcher serves it, and says on a pipe that it does before the
 * launcher goes on.
 *
 * The cgroup interface of cordon/session.h does not exist here: those
 * functions fail with ENOTSUP (cordon check and ps say so). */
#include "cordon/session.h"
#include "cordon/policy.h"
#include "cordon/guard.h"
#include "cordon/sandbox.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/event.h>
#include <sys/stat.h>
#include <sys/sysctl.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "macos.h"
#include "proxy.h"
#include "util.h"
#include "watchwait.h"

static int unsupported(struct cordon_error *err)
{
	return cordon_err(err, ENOTSUP,
			  "cgroups: not on macOS (sessions use a sandbox fingerprint)");
}

int cordon_cgroup_locate(char **mount, char **own, struct cordon_error *err)
{
	(void)mount;
	(void)own;
	return unsupported(err);
}

int cordon_cgroup_create(const char *id, char **path, struct cordon_error *err)
{
	(void)id;
	(void)path;
	return unsupported(err);
}

int cordon_cgroup_enter(const char *path, pid_t pid, struct cordon_error *err)
{
	(void)path;
	(void)pid;
	return unsupported(err);
}

int cordon_cgroup_pids(const char *path, pid_t **pids, size_t *n, struct cordon_error *err)
{
	(void)path;
	(void)pids;
	(void)n;
	return unsupported(err);
}

int cordon_read_pids(const char *file, pid_t **pids, size_t *n)
{
	(void)file;
	(void)pids;
	(void)n;
	return -ENOTSUP;
}

int cordon_cgroup_destroy(const char *path, struct cordon_error *err)
{
	(void)path;
	return unsupported(err);
}

int cordon_cgroup_kill(const char *path, struct cordon_error *err)
{
	(void)path;
	return unsupported(err);
}

uint64_t cordon_userns_id(int pidfd)
{
	(void)pidfd;
	return 0;
}

bool cordon_userns_populated(uint64_t id)
{
	(void)id;
	return false;
}

bool cordon_userns_holds(pid_t pid, uint64_t id)
{
	(void)pid;
	(void)id;
	return false;
}

int cordon_userns_pids(uint64_t id, pid_t **pids, size_t *n, struct cordon_error *err)
{
	(void)id;
	(void)pids;
	(void)n;
	return unsupported(err);
}

int cordon_userns_kill(uint64_t id, struct cordon_error *err)
{
	(void)id;
	return unsupported(err);
}

int cordon_cgroup_freeze_kill(const char *path, struct cordon_error *err)
{
	(void)path;
	return unsupported(err);
}

/* The fingerprint files: a directory only the launcher writes (the profile
 * denies writes under it), an empty "allow" and an empty "deny" file. */
static int make_fingerprint(const struct cordon_fp_paths *fp, struct cordon_error *err)
{
	char base[1024];
	snprintf(base, sizeof(base), "%s", fp->dir);
	char *slash = strrchr(base, '/');
	if (slash)
		*slash = '\0';
	if (mkdir(base, 0700) < 0 && errno != EEXIST)
		return cordon_err(err, errno, "%s: %s", base, strerror(errno));
	struct stat st;
	if (lstat(base, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != getuid())
		return cordon_err(err, EPERM, "%s: not a directory of yours", base);
	if (mkdir(fp->dir, 0700) < 0)
		return cordon_err(err, errno, "%s: %s", fp->dir, strerror(errno));
	const char *files[] = {fp->allow, fp->deny};
	for (size_t i = 0; i < 2; i++) {
		int fd = open(files[i], O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0)
			return cordon_err(err, errno, "%s: %s", files[i], strerror(errno));
		close(fd);
	}
	return 0;
}

static void remove_fingerprint(const struct cordon_fp_paths *fp)
{
	unlink(fp->allow);
	unlink(fp->deny);
	rmdir(fp->dir);
}

/* The session's socket directory DIR (cordon_macos_socket_dir): made here,
 * fresh (the id is random: an existing one is not ours to use), mode 0700
 * whatever the umask, owned by the caller. */
static int make_socket_dir(const char *dir, struct cordon_error *err)
{
	if (mkdir(dir, 0700) < 0)
		return cordon_err(err, errno, "%s: %s", dir, strerror(errno));
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return cordon_err(err, errno, "%s: %s", dir, strerror(errno));
	struct stat st;
	int e = 0;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (st.st_uid != getuid())
		e = EPERM;
	else if (fchmod(fd, 0700) < 0)
		e = errno;
	close(fd);
	if (e) {
		(void)rmdir(dir);
		return cordon_err(err, e, "%s: not a directory of yours: %s", dir, strerror(e));
	}
	return 0;
}

/* Remove DIR and everything in it (sockets, tmux's tmux-UID/, whatever the
 * session left), once no process of the session is left. fts(3) with
 * FTS_PHYSICAL never follows a symbolic link (one is removed, not what it
 * names), and without FTS_NOCHDIR it checks each directory it enters is the
 * one it listed; FTS_XDEV keeps it on DIR's file system. */
static void remove_socket_dir(const char *dir)
{
	char path[PATH_MAX];
	if (snprintf(path, sizeof(path), "%s", dir) >= (int)sizeof(path))
		return;
	char *const roots[] = {path, NULL};
	FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_XDEV, NULL);
	if (!fts)
		return;
	FTSENT *e;
	while ((e = fts_read(fts))) {
		switch (e->fts_info) {
		case FTS_D:
			(void)chmod(e->fts_accpath, 0700); /* so that it can be listed */
			break;
		case FTS_DP:
			(void)rmdir(e->fts_accpath);
			break;
		case FTS_DC:
		case FTS_DOT:
			break;
		default: /* files, sockets, links; what could not be stat'ed or read */
			if (unlink(e->fts_accpath) < 0)
				(void)rmdir(e->fts_accpath);
			break;
		}
	}
	fts_close(fts);
}

/* One scan of the user's processes; SIGKILL each live one in the session.
 * Returns how many were found (0: the session is empty), or -1 when the
 * process table could not be read. */
static int kill_matches(const struct cordon_fp_paths *fp, pid_t self)
{
	int mib[4] = {CTL_KERN, KERN_PROC, KERN_PROC_UID, (int)getuid()};
	size_t len = 0;
	if (sysctl(mib, 4, NULL, &len, NULL, 0) < 0)
		return -1;
	len += len / 4 + 16 * sizeof(struct kinfo_proc); /* it grows meanwhile */
	struct kinfo_proc *procs = malloc(len);
	if (!procs)
		return -1;
	if (sysctl(mib, 4, procs, &len, NULL, 0) < 0) {
		free(procs);
		return -1;
	}
	int found = 0;
	for (size_t i = 0; i < len / sizeof(struct kinfo_proc); i++) {
		pid_t pid = procs[i].kp_proc.p_pid;
		if (pid == self || pid <= 1 || procs[i].kp_proc.p_stat == SZOMB)
			continue;
		if (cordon_macos_in_session(pid, fp)) {
			kill(pid, SIGKILL);
			found++;
		}
	}
	free(procs);
	return found;
}

/* Scan and kill until a scan finds nobody. No blind killpg: the command's
 * process group can be the host's own (a script that ran cordon), and the
 * shell's pid may already belong to someone else; only processes whose
 * sandbox carries the fingerprint are killed. */
static void end_session(const struct cordon_fp_paths *fp, const char *socket_dir)
{
	for (int round = 0; round < 10000; round++) {
		int n = kill_matches(fp, getpid());
		if (n == 0)
			break;
		usleep(n < 0 ? 10000 : 1000);
	}
	remove_fingerprint(fp);
	/* Last: nothing of the session is left to bind in it meanwhile. */
	remove_socket_dir(socket_dir);
}

/* Fork a process the caller will never see as a child: fork, setsid, fork
 * again; the middle one exits and is reaped here. Returns 0 in the detached
 * process, 1 in the caller once it exists, or -errno (ERR filled). */
static int fork_detached(struct cordon_error *err)
{
	pid_t mid = fork();
	if (mid < 0)
		return cordon_err(err, errno, "fork: %s", strerror(errno));
	if (mid == 0) {
		setsid();
		pid_t w = fork();
		if (w != 0)
			_exit(w < 0 ? 1 : 0);
		return 0;
	}
	int st = 0;
	while (waitpid(mid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return cordon_err(err, EAGAIN, "the session watcher could not be started");
	return 1;
}

/* Until the command exits (kqueue NOTE_EXIT), `cordon kill` sends SIGTERM
 * (ignored as a signal, seen by kqueue's EVFILT_SIGNAL), the terminal hangs
 * up, or the ack fails to come: the shared wait, on a kqueue. */
static void wait_for_end(pid_t shell, int ack_fd, int tty, int ack_timeout_ms,
			 struct cordon_session_info *list)
{
	int kq = kqueue();
	struct kevent ev[2];
	EV_SET(&ev[0], (uintptr_t)shell, EVFILT_PROC, EV_ADD | EV_ONESHOT, NOTE_EXIT, 0, NULL);
	EV_SET(&ev[1], (uintptr_t)SIGTERM, EVFILT_SIGNAL, EV_ADD, 0, 0, NULL);
	if (kq < 0 || kevent(kq, ev, 2, NULL, 0, NULL) < 0) {
		if (kq >= 0)
			close(kq);
		return; /* already gone (ESRCH), or no kqueue: end the session now */
	}
	cordon_wait_for_end(kq, ack_fd, tty, ack_timeout_ms, list->id, cordon_list_session, list);
	close(kq);
}

/* In the watcher, by domain: serve the proxy cordon_proxy_listen set up in
 * the launcher, and say on READY whether it runs (0 or an errno). */
static void serve_proxy(int ready)
{
	struct cordon_error e = {0};
	int code = cordon_proxy_serve(&e) < 0 ? (e.code ? e.code : EAGAIN) : 0;
	(void)cordon_write_full(ready, &code, sizeof(code));
	close(ready);
}

/* cordon_session_start; PROXY: the watcher also serves cordon's proxy
 * (cordon_proxy_listen was called), and this returns once it does. */
static int start(struct cordon_session *s, enum cordon_tracking want, const char *project,
		 bool proxy, struct cordon_error *err)
{
	cordon_session_defaults(s);
	if (want == CORDON_TRACKING_CGROUP)
		return cordon_err(err, ENOTSUP, "--tracking cgroup: not on macOS");
	struct cordon_fp_paths fp;
	cordon_macos_fp_paths(s->id, getuid(), &fp);
	char socket_dir[PATH_MAX];
	int r = cordon_macos_socket_dir(s->id, socket_dir, sizeof(socket_dir));
	if (r < 0)
		return cordon_err(err, -r, "the session's socket directory: %s", strerror(-r));
	r = make_fingerprint(&fp, err);
	if (r < 0)
		return r;
	r = make_socket_dir(socket_dir, err);
	if (r < 0) {
		remove_fingerprint(&fp);
		return r;
	}
	pid_t shell = getpid(); /* the command keeps this pid across exec */
	int ack[2];
	if (pipe(ack) < 0) {
		r = cordon_err(err, errno, "pipe: %s", strerror(errno));
		remove_fingerprint(&fp);
		remove_socket_dir(socket_dir);
		return r;
	}
	(void)fcntl(ack[0], F_SETFD, FD_CLOEXEC);
	(void)fcntl(ack[1], F_SETFD, FD_CLOEXEC);
	int ready[2] = {-1, -1}; /* by domain: the watcher's word that the proxy runs */
	if (proxy && pipe(ready) < 0) {
		r = cordon_err(err, errno, "pipe: %s", strerror(errno));
		close(ack[0]);
		close(ack[1]);
		remove_fingerprint(&fp);
		remove_socket_dir(socket_dir);
		return r;
	}
	for (int i = 0; proxy && i < 2; i++)
		(void)fcntl(ready[i], F_SETFD, FD_CLOEXEC);
	int tty = cordon_tty_watch_fd();
	r = fork_detached(err);
	if (r == 0) {
		(void)signal(SIGHUP, SIG_IGN);
		(void)signal(SIGINT, SIG_IGN);
		(void)signal(SIGPIPE, SIG_IGN);
		(void)signal(SIGTERM, SIG_IGN); /* cordon kill: seen through kqueue */
		close(ack[1]);
		if (proxy) {
			close(ready[0]);
			serve_proxy(ready[1]);
		}
		struct cordon_session_info info = {
			.shell = shell, .watcher = getpid(), .started = (long long)time(NULL)};
		snprintf(info.id, sizeof(info.id), "%s", s->id);
		snprintf(info.project, sizeof(info.project), "%s", project ? project : "");
		snprintf(info.sockets, sizeof(info.sockets), "%s", socket_dir);
		wait_for_end(shell, ack[0], tty, s->ack_timeout_ms, &info);
		end_session(&fp, socket_dir);
		cordon_registry_remove(s->id);
		_exit(0);
	}
	close(ack[0]);
	if (tty >= 0)
		close(tty);
	if (proxy)
		close(ready[1]);
	if (r < 0) {
		close(ack[1]);
		if (proxy)
			close(ready[0]);
		remove_fingerprint(&fp);
		remove_socket_dir(socket_dir);
		return r;
	}
	s->ack_fd = ack[1];
	s->mode = CORDON_TRACKING_SUBREAPER; /* "not a cgroup": listed without one */
	if (proxy) {
		int code = 0;
		int rr = cordon_read_full(ready[0], &code, sizeof(code));
		close(ready[0]);
		if (rr < 0 || code) {
			/* The watcher ends the session quietly, and removes what
			 * was made for it. */
			cordon_session_fail(s);
			code = code ? code : -rr;
			return cordon_err(err, code,
					  "starting cordon's proxy in the session's "
					  "watcher: %s",
					  strerror(code));
		}
	}
	return 0;
}

int cordon_session_start(struct cordon_session *s, enum cordon_tracking want, const char *project,
			 struct cordon_error *err)
{
	return start(s, want, project, false, err);
}

int cordon_session_socket_dir(const char *id, char *out, size_t size)
{
	return cordon_macos_socket_dir(id, out, size);
}

int cordon_session_tmp_dir(const struct cordon_policy *p, const char *tmpdir, char *out,
			   size_t size, uid_t *owner)
{
	/* TMPDIR is the user's own there (/var/folders/.../T). */
	(void)p, (void)tmpdir, (void)out, (void)size, (void)owner;
	return 0;
}

int cordon_tmp_dir_unpinned(const char *dir, char id[4200])
{
	(void)dir;
	id[0] = '\0';
	return 0;
}

int cordon_tmp_dir_make(const char *dir, char id[4200], struct cordon_error *err)
{
	(void)dir, (void)err;
	id[0] = '\0';
	return 1;
}

bool cordon_tmp_dir_name(const char *dir)
{
	(void)dir;
	return false;
}

void cordon_session_remove_socket_dir(const char *path)
{
	/* Only what the sessions make: .../cordon-<16 hex>. */
	const char *base = strrchr(path, '/');
	if (path[0] != '/' || !base || strncmp(base + 1, "cordon-", 7) != 0 ||
	    strlen(base + 8) != CORDON_SESSION_ID_LEN || !cordon_session_id_valid(base + 8))
		return;
	remove_socket_dir(path);
}

/* macOS keeps the exec in place: dyld strips DYLD_* from the system's
 * binaries, so the launcher applies the profile itself before exec (also
 * when the sandbox is off: the fingerprint), with the watcher started above
 * outside it. */
int cordon_session_run(struct cordon_session *s, enum cordon_tracking want,
		       const struct cordon_launch *l, int *status, struct cordon_error *err)
{
	(void)status; /* never returns on success */
	struct cordon_policy *p = l->policy;
	/* By domain (as on Linux: a sandbox, the network on, allowed_domains):
	 * the proxy's socket first, since its port goes into the profile and
	 * its address into the command's environment. */
	bool domains = p->sandbox && p->domains && p->allow_network;
	char **envp = l->envp;
	cleanup_free char **env = NULL;
	int r;
	if (domains) {
		struct sockaddr_in addr;
		if ((r = cordon_proxy_listen(p, l->learn_sup_fd, &addr, err)) < 0)
			return r;
		p->proxy_port = ntohs(addr.sin_port);
		if (!(env = cordon_proxy_environ(l->envp, &addr, 0))) {
			cordon_proxy_close();
			return cordon_err(err, ENOMEM, "out of memory");
		}
		envp = env;
	}
	r = start(s, want, p->project, domains, err);
	/* The watcher serves it now (or nothing does): not this process, which
	 * becomes the command. */
	cordon_proxy_close();
	if (r < 0)
		return r;
	if (domains && l->verbose)
		cordon_say("cordon: session %s: network by domain, through cordon's proxy on "
			   "127.0.0.1:%u\n",
			   s->id, p->proxy_port);
	r = cordon_sandbox_apply(p, NULL, err);
	if (r < 0) {
		cordon_session_fail(s);
		return r;
	}
	if (r > 0)
		fprintf(stderr, "cordon: warning: %s\n", err->msg);
	cordon_session_ack(s);
	if (!l->sigpipe_ignored)
		(void)signal(SIGPIPE, SIG_DFL); /* the launcher ignored it (cmd-run.c) */
	execve(l->path, l->argv, envp);
	s->exec_errno = errno;
	return cordon_err(err, s->exec_errno, "%s: %s", l->path, strerror(s->exec_errno));
}

bool cordon_placeholder_marked(const char *path)
{
	(void)path;
	return false;
}

/* Seatbelt refuses a missing protected path by name: no placeholders
 * (the guard plan lists none on macOS). */
int cordon_placeholders_hold(const struct cordon_strv *paths, const struct cordon_strv *files,
			     struct cordon_placeholders *out, struct cordon_strv *unguarded,
			     struct cordon_error *err)
{
	(void)paths;
	(void)files;
	(void)unguarded;
	(void)err;
	memset(out, 0, sizeof(*out));
	return 0;
}

void cordon_placeholders_release(struct cordon_placeholders *h, bool ended,
				 struct cordon_strv *filled)
{
	(void)h;
	(void)ended;
	(void)filled;
}

void cordon_placeholders_say(const struct cordon_strv *filled)
{
	(void)filled;
}

void cordon_placeholders_forget(struct cordon_placeholders *h)
{
	(void)h;
}
