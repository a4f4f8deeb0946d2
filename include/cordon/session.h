/* cordon — sessions: every process a `cordon run` starts, tracked so that all
 * of them end with it.
 *
 * Linux: a cgroup v2 leaf named cordon-<id> below the caller's own cgroup,
 * killed with cgroup.kill (freeze + SIGKILL where that is missing). Where no
 * cgroup can be created, a subreaper supervisor (see cmd-run). */
#ifndef CORDON_SESSION_H
#define CORDON_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "cordon/error.h"

#define CORDON_ENV_ACK_FD "CORDON_ACK_FD"
#define CORDON_ACK_BYTE   'A'
/* Written instead by a shim or launcher that refused and has said why: the
 * watcher ends the session without a second message. */
#define CORDON_FAIL_BYTE 'F'

/* Find the cgroup2 mount (from /proc/self/mountinfo) and the caller's cgroup
 * (the "0::" line of /proc/self/cgroup). Both malloc'd. */
int cordon_cgroup_locate(char **mount, char **own, struct cordon_error *err);

/* Create the leaf for session ID below the caller's cgroup. *PATH is the
 * absolute directory (malloc'd). */
int cordon_cgroup_create(const char *id, char **path, struct cordon_error *err);

/* Move PID (0: the caller) into the cgroup at PATH.
 *
 * Measured (Linux 6.18): without the cgroup2 mount option favordynmods, a
 * move takes a global lock whose write side waits for an RCU grace period
 * unless another move happened within the last one: 10-30 ms for the first
 * launch after an idle moment, 0.03 ms back to back. */
int cordon_cgroup_enter(const char *path, pid_t pid, struct cordon_error *err);

/* Whether the cgroup2 mount has favordynmods: 1, 0, or -1 (no cgroup2). */
int cordon_cgroup_favordynmods(void);

/* Time one move: a child process (forked here, ended before returning) is
 * moved into the empty cgroup at PATH; *MS is how long the write took. */
int cordon_cgroup_move_ms(const char *path, double *ms, struct cordon_error *err);

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

/* The pre-5.14 way: freeze the cgroup (nothing in it can fork), SIGKILL
 * every pid in it (fatal signals reach frozen tasks), thaw. One pass. */
int cordon_cgroup_freeze_kill(const char *path, struct cordon_error *err);

/* The registry of live sessions: one small file per session in a directory
 * the sandbox cannot write (root: /run/cordon; others:
 * $XDG_STATE_HOME/cordon/sessions or ~/.local/state/cordon/sessions). */
struct cordon_session_info {
	char id[40];
	pid_t shell;
	pid_t watcher;
	long long started; /* unix seconds */
	char cgroup[4096]; /* empty: subreaper tracking */
	char project[4096];
};

int cordon_registry_dir(char **dir, struct cordon_error *err);
int cordon_registry_write(const struct cordon_session_info *s, struct cordon_error *err);
int cordon_registry_read(const char *id, struct cordon_session_info *s, struct cordon_error *err);
int cordon_registry_remove(const char *id);

/* Whether ID looks like a session id: lowercase hex digits, short enough
 * for cordon_session_info.id. */
bool cordon_session_id_valid(const char *id);

/* The state letter of process PID in /proc/PID/stat ('R', 'S', 'Z' for a
 * zombie, ...), or 0 where it cannot be read (no such process, no procfs). */
char cordon_proc_state(pid_t pid);
/* Ids of every registered session (malloc'd strings in a NULL-terminated array). */
int cordon_registry_list(char ***ids, size_t *n, struct cordon_error *err);

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
	int ack_fd;                /* write end for the shim's confirmation, or -1 */
	int ack_timeout_ms;
	int policy_fd; /* CGROUP on Linux: the shell's end of the policy channel
			  (close-on-exec until passed), or -1 */
};

/* Start a session for the calling process (which is about to exec the
 * command), with S->id set and S->ack_timeout_ms set or 0 (the default, 5 s),
 * as late as possible before exec.
 *
 * CGROUP: START creates the session's leaf, starts the watcher outside it
 * (Linux: a child without an exit signal, which the command's wait() never
 * sees; macOS has no cgroup), then moves the caller in. The caller keeps its
 * pid; the watcher is never inside. Nothing waits for the watcher.
 *
 * SUBREAPER (no cgroup can be created, or asked for): START makes the caller
 * a supervisor with PR_SET_CHILD_SUBREAPER and returns in a forked child,
 * which goes on to exec; the supervisor never returns. The command's pid
 * differs.
 *
 * AUTO: CGROUP, and SUBREAPER where START could not set up the cgroup (it
 * leaves nothing behind when it fails).
 *
 * Either way, the watcher/supervisor kills every process of the session when
 * the command exits, when the terminal on stdin hangs up, or when no
 * confirmation byte arrives on the ack pipe within ack_timeout_ms; it lists
 * the session in the registry once the confirmation comes. S->ack_fd is the
 * pipe's write end: the shim writes CORDON_ACK_BYTE to it once the sandbox is
 * applied (CORDON_ACK_FD), or the caller does before exec when it applied the
 * sandbox itself (or none applies: enabled is false). A caller that gives up
 * after START calls cordon_session_fail. */
int cordon_session_start(struct cordon_session *s, enum cordon_tracking want, const char *project,
			 struct cordon_error *err);

/* Hand P to the watcher, which sends it to the shim on S->policy_fd after
 * the exec, with the Landlock ruleset built ahead on its own CPU (see
 * cordon_sandbox_prepare). Returns S->policy_fd (still close-on-exec) for
 * CORDON_CONFIG_FD, -ENOTSUP where there is no such channel (subreaper,
 * macOS: use cordon_wire_to_memfd), or -errno. */
struct cordon_policy;
int cordon_session_pass_policy(struct cordon_session *s, const struct cordon_policy *p,
			       struct cordon_error *err);

/* Confirm on S's ack pipe and close it (the caller applied the sandbox). */
void cordon_session_ack(struct cordon_session *s);
/* The launcher refused after the session started and has reported why: the
 * watcher ends the session quietly. Closes the ack fd. */
void cordon_session_fail(struct cordon_session *s);

#endif
