/* cordon — sessions: every process a `cordon run` starts, tracked so that all
 * of them end with it.
 *
 * Linux: a cgroup v2 leaf named cordon-<id> below the caller's own cgroup,
 * killed with cgroup.kill (freeze + SIGKILL where that is missing). Where no
 * cgroup can be created, a subreaper supervisor (see cmd-run). */
#ifndef CORDON_SESSION_H
#define CORDON_SESSION_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cordon/error.h"

/* In cordon learn's supervisor record: the command runs sandboxed. */
#define CORDON_LEARN_STARTED "S\tstarted\n"

/* macOS's watcher: the confirmation byte on its ack pipe, or the refusal
 * (the launcher refused and has said why: no second message). */
#define CORDON_ACK_BYTE  'A'
#define CORDON_FAIL_BYTE 'F'

/* Find the cgroup2 mount (from /proc/self/mountinfo) and the caller's cgroup
 * (the "0::" line of /proc/self/cgroup). Both malloc'd. */
int cordon_cgroup_locate(char **mount, char **own, struct cordon_error *err);

/* Create the leaf for session ID below the caller's cgroup. *PATH is the
 * absolute directory (malloc'd). */
int cordon_cgroup_create(const char *id, char **path, struct cordon_error *err);

/* Move PID (0: the caller) into the cgroup at PATH.
 *
 * Sessions do not: the command is created inside (clone3 CLONE_INTO_CGROUP,
 * spawn.c). Measured (Linux 6.18): without the cgroup2 mount option
 * favordynmods, a move takes a global lock whose write side waits for an RCU
 * grace period unless another move happened within the last one: 10-30 ms
 * for the first launch after an idle moment, 0.03 ms back to back. */
int cordon_cgroup_enter(const char *path, pid_t pid, struct cordon_error *err);

/* The pids in the cgroup at PATH (malloc'd array). */
int cordon_cgroup_pids(const char *path, pid_t **pids, size_t *n, struct cordon_error *err);
/* The pids listed in FILE (cgroup.procs, /proc/PID/task/TID/children): decimal
 * numbers separated by white space, each checked with strtol. *PIDS is
 * malloc'd (NULL when empty). Returns 0 or -errno (the file's open error). */
int cordon_read_pids(const char *file, pid_t **pids, size_t *n);

/* Kill every process in the cgroup at PATH, wait until it is empty, and
 * remove it. cgroup.kill where the kernel has it (5.14+), else freeze, SIGKILL
 * each pid and thaw, until empty. */
int cordon_cgroup_destroy(const char *path, struct cordon_error *err);

/* Kill without waiting or removing (for `cordon kill`: the watcher cleans up).
 * Uses cgroup.kill, or cordon_cgroup_freeze_kill where the kernel lacks it. */
int cordon_cgroup_kill(const char *path, struct cordon_error *err);

/* Sessions tracked without a cgroup, found by their user namespace
 * (shim/linux/userns-track.c). The id of the user namespace of the process
 * behind PIDFD (NS_GET_ID), 0 where the kernel cannot say. */
uint64_t cordon_userns_id(int pidfd);
/* Whether a live process lives in user namespace ID or below it; whether
 * PID does; their pids (malloc'd); every one killed, until none is left
 * (3 s at most). */
bool cordon_userns_populated(uint64_t id);
bool cordon_userns_holds(pid_t pid, uint64_t id);
int cordon_userns_pids(uint64_t id, pid_t **pids, size_t *n, struct cordon_error *err);
int cordon_userns_kill(uint64_t id, struct cordon_error *err);

/* The pre-5.14 way: freeze the cgroup (nothing in it can fork), SIGKILL
 * every pid in it (fatal signals reach frozen tasks), thaw. One pass. */
int cordon_cgroup_freeze_kill(const char *path, struct cordon_error *err);

/* The registry of live sessions: one small file per session in a directory
 * the sandbox cannot write (root: /run/cordon; others:
 * $XDG_STATE_HOME/cordon/sessions or ~/.local/state/cordon/sessions). */
struct cordon_session_info {
	char id[40];
	pid_t shell;       /* the command */
	pid_t watcher;     /* the supervisor (the launcher) */
	pid_t keeper;      /* Linux: the command's parent (spawn.h), or 0 */
	long long started; /* unix seconds */
	char cgroup[4096]; /* empty: subreaper tracking */
	char project[4096];
	char sockets[4096]; /* the session's socket directory, or empty */
	/* Linux: which directory its view pins as the sessions' TMPDIR
	 * (cordon_tmp_dir_make's ID), or empty. */
	char tmpdir[4200];
	/* Linux: the id (NS_GET_ID) of the user namespace the command started
	 * in, or 0 (none made, as for root, or a kernel without the id). */
	uint64_t userns;
};

#define CORDON_ROOT_REGISTRY "/run/cordon"
#define CORDON_ROOT_STATE    "/var/lib/cordon"

int cordon_registry_dir(char **dir, struct cordon_error *err);
/* Where the sweep keeps its records and the notes of what sessions may
 * write, made if missing: what must outlast a reboot. Root's is
 * CORDON_ROOT_STATE (the registry, in /run, does not); others' is the
 * registry (and, in test builds, root's where CORDON_TEST_REGISTRY names
 * one). */
int cordon_state_dir(char **dir, struct cordon_error *err);
int cordon_registry_write(const struct cordon_session_info *s, struct cordon_error *err);
int cordon_registry_read(const char *id, struct cordon_session_info *s, struct cordon_error *err);
int cordon_registry_remove(const char *id);

/* Whether the session of record S still runs: its watcher alive, and
 * started no later than the session (a pid taken again by another process
 * looks alive: the safe way round). */
bool cordon_registry_live(const struct cordon_session_info *s);
/* FN called with ARG for each live session's record (cordon_registry_live)
 * until it returns true. Returns 1 when it did, 0 when it never did, or
 * -errno where the registry cannot be listed. */
int cordon_registry_each_live(bool (*fn)(const struct cordon_session_info *, void *), void *arg);
/* Whether a session of the user's other than EXCEPT (an id, or NULL) runs:
 * 1, 0, or -errno where the registry cannot be read, which callers must
 * take as "perhaps" (review 43e F1: a home that cannot be written hid
 * every session). */
int cordon_registry_any_live(const char *except);

/* Whether ID looks like a session id: lowercase hex digits, short enough
 * for cordon_session_info.id. */
bool cordon_session_id_valid(const char *id);

/* When process PID started, in unix seconds (its start in clock ticks
 * since boot and the boot's time, whole seconds: to a second or two), or
 * -1 where it is gone or not known (no procfs). */
long long cordon_proc_started(pid_t pid);

/* The state letter of process PID in /proc/PID/stat ('R', 'S', 'Z' for a
 * zombie, ...), or 0 where it cannot be read (no such process, no procfs). */
char cordon_proc_state(pid_t pid);
/* The same for thread TID of process PID (/proc/PID/task/TID/stat). */
char cordon_proc_task_state(pid_t pid, pid_t tid);
/* Whether process PID is in the cgroup CGROUP (a path: its last name, a
 * session's cordon-ID, in a line of /proc/PID/cgroup) or one below it. */
bool cordon_proc_in_cgroup(pid_t pid, const char *cgroup);
/* Numeric field FIELD of /proc/PID/stat (1-based as in proc(5): 4 is the
 * parent, 5 the process group), or -1. */
long cordon_proc_stat_field(pid_t pid, int field);
/* Ids of every registered session (malloc'd strings in a NULL-terminated array). */
int cordon_registry_list(char ***ids, size_t *n, struct cordon_error *err);

/* Before cordon's first line on stderr after a session's command (its
 * closing lines: what was put back, moved aside, refused): "\033[0m",
 * and the ASCII character set ("\033(B"), once, where stderr is a
 * terminal, so that attributes the session left on (conceal, black on
 * black, line drawing) do not hide them (round 59e F6). Nothing
 * into a file or pipe, or before the session's end. cordon_say does it
 * itself; whatever prints to stderr otherwise calls it first. */
void cordon_closing_line(void);
/* The same before a line cordon says while the session runs (a name moved
 * aside as it appears): where stderr is a terminal, always (round 60g L1:
 * the session's attributes hid the only line that said so). */
void cordon_line_while_running(void);

/* ---- the session's lifetime ---------------------------------------------- */

enum cordon_tracking {
	CORDON_TRACKING_AUTO = 0, /* cgroup, else subreaper */
	CORDON_TRACKING_CGROUP,
	CORDON_TRACKING_SUBREAPER,
};

struct cordon_session {
	char id[40];
	enum cordon_tracking mode; /* what is in use: CGROUP or SUBREAPER */
	char *cgroup;              /* CGROUP mode */
	int ack_timeout_ms;        /* how long the sandbox may take to confirm; 0: 5 s */
	int exec_errno;            /* set by cordon_session_run when exec itself failed */
	bool refused;              /* Linux: the shim refused the sandbox, and said why */
	/* Linux: as the session ends, wait until every process of it is gone
	 * (at most 10 s), and say in ENDED whether they are: what it left
	 * read-only may be removed only then (placeholders, guard.h). */
	bool wait_end;
	bool ended;
	/* macOS (the watcher of shim/macos/session.c): */
	int ack_fd;    /* write end for the confirmation, or -1 */
	int policy_fd; /* unused there: -1 */
};

struct cordon_policy;
struct cordon_hidden_ways;
struct cordon_sweep;
struct cordon_placeholders;

/* What a session runs. */
struct cordon_launch {
	const char *path; /* the command, as found on PATH */
	char **argv;
	char **envp; /* its environment: the filtered one, with LD_PRELOAD when PRELOAD */
	struct cordon_policy *policy;
	/* Linux: the shim enters the command and applies the policy in its first
	 * process; else (a statically linked command; macOS always) it is
	 * applied before exec. */
	bool preload;
	/* With PRELOAD (Linux): the shim, checked and open (cordon_shim_open);
	 * LD_PRELOAD names it as /proc/self/fd/./N, and it crosses the exec at
	 * that number. -1: LD_PRELOAD names its path. */
	int shim_fd;
	/* cordon learn's log, or -1: the command inherits it (what its own
	 * processes say they were refused: learn trusts none of it). */
	int learn_fd;
	/* cordon learn's other record, or -1: where the supervisor and the
	 * proxy note what they refused themselves ("s\tPATH", "n\tWHAT"), and
	 * the session notes CORDON_LEARN_STARTED once the command runs
	 * sandboxed. The command never holds it (not inherited, no name to
	 * open). */
	int learn_sup_fd;
	/* Inherited fds the command keeps (--pass-fd): every other fd above
	 * stderr is closed before its exec (Linux). */
	const int *pass_fds;
	size_t n_pass_fds;
	bool verbose; /* say on stderr how the session is tracked */
	/* SIGPIPE was ignored where the launcher was started: the command
	 * inherits that (the launcher ignores it itself, and else the command
	 * gets its default back before its exec). */
	bool sigpipe_ignored;
	/* Linux: the ways to hidden names the session could make (the
	 * sweep's, cordon/guard.h), or NULL: the launcher's watch moves aside
	 * the lures laid on them while the session runs, and notes them there. */
	struct cordon_hidden_ways *ways;
	/* Linux: the session's sweep (cordon/sweep.h), or NULL: a protected
	 * name missing at the start that no mount could guard (its names), made
	 * while the session runs, is moved aside by the watch as it appears. */
	const struct cordon_sweep *sweep;
	/* Linux: where the watch holds the stand-ins (socket files) it makes
	 * in the place of such a name once it moved one aside (released with
	 * the session's placeholders), or NULL. */
	struct cordon_placeholders *standins;
};

/* Run L as session S (S->id set, S->ack_timeout_ms set or 0) and wait for
 * its end.
 *
 * Linux: this process stays the session's parent and its supervisor. It
 * creates the session's cgroup (tracking CGROUP; AUTO: else SUBREAPER) and a
 * keeper process, which creates the command straight into the cgroup (see
 * shim/linux/spawn.h). The sandbox is confirmed on the policy channel (the
 * shim's CORDON_CONFIG_FD) within ack_timeout_ms, together with the seccomp
 * listener the supervisor answers on; without it, the session is killed.
 * Then it answers the session's calls (supervisor.h), forwards HUP, INT,
 * TERM and QUIT sent to it to the command, and ends the session (every
 * process killed, the cgroup removed) when the command exits, the terminal
 * on stdin hangs up, or the keeper dies. *STATUS is the command's exit
 * status (128 + N when signal N ended it).
 *
 * macOS: the sandbox is applied here and the command exec'd in place (a
 * watcher, see shim/macos/session.c): returns only on failure.
 *
 * Returns 0, or -errno with ERR when the command never ran, or ran
 * unconfirmed and was killed (then exit 125); S->exec_errno is set when the
 * exec itself failed (exit 127 for ENOENT, else 126). */
int cordon_session_run(struct cordon_session *s, enum cordon_tracking want,
		       const struct cordon_launch *l, int *status, struct cordon_error *err);

/* The session's own directory for unix sockets made inside, for ID:
 * PARENT/cordon-ID, PARENT the first of cordon_socket_parents (Linux);
 * under the user's temporary directory on macOS. The session makes it
 * (mode 0700, read-write inside, its parent read-only inside) and removes
 * it at its end; TMUX_TMPDIR points there, so that a tmux started inside
 * never meets a server outside on its default socket. */
int cordon_session_socket_dir(const char *id, char *out, size_t size);
/* The directories that hold this user's sessions' socket directories
 * (Linux): PARENTS[0] the one a session started now uses, PARENTS[1] the
 * other one an earlier session may have used (or ""), both kept read-only
 * inside, and both made at each launch where they can be. The runtime
 * directory the system made (/run/user/UID/cordon: the directory the
 * user's, in a /run/user only root may write),
 * else /tmp/cordon-UID, or for root /run/cordon-sockets. Never
 * $XDG_RUNTIME_DIR as such: the caller may set it to a directory in /tmp,
 * which a session could rename away with every session's in it (round
 * 41a F1). */
void cordon_socket_parents(char parents[2][PATH_MAX]);

/* The user's sessions' temporary directory (Linux): /tmp/cordon-tmp-UID,
 * when /tmp is a shared directory P makes writable (rule.shared), where a
 * session makes no socket or symbolic link, and moves nothing in. There
 * its programs get a place for all that (TMPDIR points there: ssh-agent's
 * socket, test suites', multiprocessing's), shared by the user's sessions
 * as /tmp is, and pinned in each one's view, whatever its own TMPDIR (a
 * mount point cannot be renamed): none moves it, with the sockets made
 * there, to where a client outside looks. Returns 1 with OUT set, 2 with
 * OUT set when the caller's TMPDIR (a directory apart, in no shared one)
 * stays, 0 when there is none, -EPERM when something not the user's
 * (OWNER's) holds the name, -errno. macOS: 0. */
int cordon_session_tmp_dir(const struct cordon_policy *p, const char *tmpdir, char *out,
			   size_t size, uid_t *owner);
/* Make it where missing (mode 0700), or say why it cannot be used; its
 * identity into ID ("DEVICE:INODE:BIRTH BASE PATH": a directory made again
 * at the name is another; BASE, the /tmp's "DEVICE:INODE", tells a
 * private /tmp's apart), for the registry. Returns 1 when the user's live
 * sessions all pin this very one, 0 when one of them pins another (it was
 * removed and made again while they ran: they could move this one, so
 * nothing may make sockets in it yet), 2 when it was made here and which
 * sessions run cannot be told (the same, to be safe), or -errno. */
int cordon_tmp_dir_make(const char *dir, char id[4200], struct cordon_error *err);
/* The registry's ID for a session that pins none at DIR (another user's
 * holds the name): "unpinned BASE PATH". 0 or -errno. macOS: 0, "". */
int cordon_tmp_dir_unpinned(const char *dir, char id[4200]);
/* Whether DIR is named as cordon_session_tmp_dir names them. */
bool cordon_tmp_dir_name(const char *dir);

/* Where cordon makes its private directories (Linux): $XDG_RUNTIME_DIR when
 * it is the user's own (a directory, mode 0700), else /tmp. */
const char *cordon_private_base(void);
/* Remove a socket directory a session left (its supervisor was killed):
 * PATH must be one cordon_session_socket_dir gives; links are never
 * followed. */
void cordon_session_remove_socket_dir(const char *path);

/* ---- the hand-over on the policy channel (Linux) --------------------------
 * The shim (or the launcher's child, for a command the shim cannot enter),
 * once the sandbox is in place, writes one message on the channel and waits
 * for CORDON_HANDOVER_OK before the command runs. */
#define CORDON_HANDOVER_LISTENER 'L' /* value: the seccomp listener's fd number */
#define CORDON_HANDOVER_NETNS    'N' /* value: the session's socket diagnostics (ahead of L) */
#define CORDON_HANDOVER_APPLIED  'A' /* no supervisor needed (sandbox off, ABI 9) */
#define CORDON_HANDOVER_FAILED   'F' /* refused, and said why on stderr */
#define CORDON_HANDOVER_OK       'K' /* the supervisor's answer */

/* Confirm on CHANNEL: hand over LISTENER (or -1: none is needed), wait for
 * the supervisor to take it, then close LISTENER. Returns 0, or -errno when
 * the supervisor is gone or said nothing (the caller must not run
 * anything). */
int cordon_session_confirm(int channel, int listener);
/* Say on CHANNEL that the sandbox was refused (the reason is printed). */
void cordon_session_refuse(int channel);

/* Standalone mode (the shim without a launcher, Linux): fork; the parent
 * becomes the session's supervisor and subreaper and never returns (it exits
 * with the child's status); the child returns 0 with *CHANNEL, on which it
 * confirms (cordon_session_confirm) once it has applied P. -errno: no fork
 * happened (nothing can be mediated). */
int cordon_session_supervise_fork(const struct cordon_policy *p, int *channel,
				  struct cordon_error *err);

/* ---- macOS: the watcher (shim/macos/session.c) ----------------------------
 * cordon_session_run there: START creates nothing on Linux's terms; it
 * starts a detached watcher that ends the session when the command exits,
 * the terminal hangs up or no confirmation arrives on S->ack_fd within
 * ack_timeout_ms. */
int cordon_session_start(struct cordon_session *s, enum cordon_tracking want, const char *project,
			 struct cordon_error *err);
/* Confirm on S's ack pipe and close it (the caller applied the sandbox). */
void cordon_session_ack(struct cordon_session *s);
/* The launcher refused after the session started and has reported why: the
 * watcher ends the session quietly. Closes the ack fd. */
void cordon_session_fail(struct cordon_session *s);

/* rm -rf PATH, never following a symbolic link. */
void cordon_remove_tree(const char *path);

#endif
