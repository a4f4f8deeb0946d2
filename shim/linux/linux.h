/* Internal interface between the Linux enforcement files. */
#ifndef CORDON_LINUX_H
#define CORDON_LINUX_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stdint.h>

#include "cordon/error.h"
#include "cordon/guard.h"
#include "cordon/policy.h"

/* Install the seccomp filter for POLICY in the calling process (after
 * PR_SET_NO_NEW_PRIVS): always the terminal-injection ioctls and the
 * dangerous-syscall blocklist; with the network off, every socket family but
 * unix and netlink, and io_uring. LISTENER not NULL: the supervised filter
 * (seccomp-rules.h), *LISTENER its listener (close-on-exec): the caller hands
 * it to the supervisor and closes its own copy before anything else runs.
 * UNIX_IN_KERNEL (Landlock ABI 9 decides unix sockets): the supervised filter
 * leaves connect and the sends alone. META_IN_KERNEL (the read-only view
 * holds): it leaves chmod, chown and utimes to the kernel. OWN_NETNS (the
 * process is in a network namespace of its own, loopback up: netns.c):
 * offline, internet sockets are the kernel's, made there. */
int cordon_seccomp_apply(const struct cordon_policy *policy, int *listener, bool unix_in_kernel,
			 bool meta_in_kernel, bool own_netns, struct cordon_error *err);
/* The supervised program cordon_seccomp_apply picks: by domain (DOMAINS,
 * which implies the network), else for ALLOW_NETWORK and UNIX_IN_KERNEL;
 * META_IN_KERNEL and OWN_NETNS as above. */
void cordon_seccomp_program_supervised(bool allow_network, bool unix_in_kernel, bool domains,
				       bool meta_in_kernel, bool own_netns, struct sock_fprog *out);

/* Whether the kernel has seccomp user notification (SECCOMP_RET_USER_NOTIF). */
bool cordon_seccomp_notify_available(void);

/* The BPF program cordon_seccomp_apply loads (compiled at build time from
 * seccomp-rules.c): SUPERVISED, the plain supervised one of
 * cordon_seccomp_program_supervised. */
void cordon_seccomp_program(bool allow_network, bool supervised, struct sock_fprog *out);

/* 0 when the calling process runs one thread, else -EBUSY with ERR: Landlock
 * and seccomp bind the calling thread, and a fork keeps only it (the others
 * would live on, unsandboxed, in the parent). */
int cordon_single_threaded(struct cordon_error *err);

/* The pages of this program's read-only segments let go (run.c): a
 * supervisor that waits for hours needs little of the code it ran. */
void cordon_drop_code_pages(void);

/* The capabilities a root session keeps (a mask of CAP_* bits); see
 * platform.c for each one's reason. */
uint64_t cordon_kept_caps(void);

/* Enter the session's mount namespace where one is needed: a caller with
 * CAP_SYS_ADMIN (SYSADMIN) always (a private /proc), an ordinary user when
 * a guard needs a mount, in a user namespace of its own (*USERNS set: its
 * capabilities must all be dropped). Then make the guards' mounts (guard.h).
 * -ENOTSUP when a guard cannot be kept (err says why). mountns.c */
/* Whether CAP is in this thread's effective set: 1, 0, or -errno. */
int cordon_effective_cap(int cap);

/* *VIEW: a root session started in its namespace (mountns_made) also got
 * the read-only view: every mount read-only but the paths a rule lets it
 * write, so that the kernel refuses chmod, chown and utimes elsewhere. */
int cordon_mountns_enter(const struct cordon_policy *p, bool sysadmin, bool *userns, bool *view,
			 struct cordon_error *err);
/* Whether PATH is one of the shadow files (/etc/shadow, /etc/gshadow and
 * their backups), or a tool's config shim/redact.c knows (cargo's,
 * hatch's, pdm's, go's env): hidden, they are covered by a copy without
 * the secrets (every password field blanked; a token's value), which the
 * session may read (su's account check reads the user's line, cargo its
 * registries), not by an empty file. */
bool cordon_mountns_redacted(const char *path);
/* FROM (the file at PATH: a shadow file, or such a config) copied to TO
 * with each line's password field, its second, made "*" (a config's:
 * cordon_redact_copy): 0 or -errno. Only read and write (the watch's
 * child calls it, in a process with other threads). */
int cordon_mountns_redact(const char *path, int from, int to);
/* Whether none of this process's open files leads through the host's
 * mounts to what the view keeps read-only: a directory (".." from it walks
 * the host's tree), or a file beneath no write rule (stdin from an outside
 * file, a --pass-fd). Else the supervisor keeps judging metadata. */
bool cordon_mountns_view_holds(const struct cordon_policy *p);
/* The descriptors the command inherits that have a path (directories,
 * devices, FIFOs), opened again by it in the session's mount namespace
 * (shim/linux/inherited.c): -errno where a directory cannot be. Whether
 * FD lies on one of this namespace's mounts. */
int cordon_inherited_rebase(const struct cordon_policy *p, struct cordon_error *err);
/* EACH(fd, its stat, ARG) for each descriptor of this process (KEPT_ONLY:
 * those an exec keeps, not close-on-exec) until one returns < 0: that,
 * 0, or -errno where /proc/self/fd cannot be read. */
int cordon_each_fd(bool kept_only, int (*each)(int fd, const struct stat *st, void *arg),
		   void *arg);
bool cordon_inherited_on_own_mount(int fd);
/* After Landlock: each inherited regular file handed in for reading that
 * the session could write through /proc/self/fd and not by its name here
 * (a protected file by another name), opened again by its name, or the
 * session refused (-errno). */
int cordon_inherited_judge_files(struct cordon_error *err);
/* The path the file FD (whose fstat is ST) is reached by, into PATH (SIZE
 * bytes): 1; 0 when no path reaches it (a pipe, a socket, an anonymous
 * inode, an unlinked file); -1 when its link cannot be read. metadata.c */
struct stat;
int cordon_fd_path(int fd, const struct stat *st, char *path, size_t size);
/* Inside another session, which refuses every mount: 0 when each guard
 * P's plan would mount is already kept by the outer session's mounts (or,
 * hidden beneath read rules only, by the sieve), else -ENOTSUP with ERR
 * naming the first one that is not. */
int cordon_mountns_nested_check(const struct cordon_policy *p, struct cordon_strv *unkept,
				struct cordon_error *err);
/* Whether this process could make that namespace (a child tries); if not,
 * WHY says why. */
bool cordon_mountns_possible(bool sysadmin, char *why, size_t size);
/* Whether unshare(FLAGS) works here (a child tries); if not, WHY says why. */
bool cordon_unshare_possible(int flags, char *why, size_t size);
/* Whether this system can mount PATH idmapped as a root session gets it
 * (guard.h cordon_root_cut; if not, WHY says why). */
bool cordon_mountns_idmap_possible(const char *path, char *why, size_t size);

/* Add the Landlock rule of FD (opened from PATH) with ALLOWED to RULESET;
 * directory rights on a file fall back to the file rights alone. */
int cordon_landlock_add_fd_rule(int ruleset, int fd, const char *path, uint64_t allowed,
				struct cordon_error *err);
/* Opening PATH for a rule failed: 0 when it is gone since the policy was
 * resolved (no rule only means less access), else -errno with ERR. */
int cordon_landlock_open_failed(const char *path, struct cordon_error *err);
/* open(PATH, FLAGS); NOFOLLOW (cordon_rule.nofollow): following no link on
 * the way (ELOOP where one is). */
int cordon_open_rule_path(const char *path, int flags, bool nofollow);

/* RULE's rule, sieved (landlock-sieve.c), with ALLOWED (its Landlock rights). */
int cordon_sieve_add(int ruleset, const struct cordon_sieve *s, const struct cordon_rule *rule,
		     uint64_t allowed, struct cordon_error *err);

/* Landlock's RESOLVE_UNIX (ABI 9) decides unix sockets in the kernel. */
bool cordon_landlock_unix_in_kernel(int abi);
/* The Landlock rights a rule of ACCESS (cordon_access bits) gets at ABI, and
 * those an allowed socket gets (RESOLVE_UNIX at ABI 9, else none): no class
 * carries RESOLVE_UNIX. Exposed for the tests. */
uint64_t cordon_landlock_rights(int abi, unsigned access);
uint64_t cordon_landlock_socket_rights(int abi);

/* Remove the session cgroups beside PATH (cordon-<16 hex digits>, PATH's
 * own excepted) that are empty and at least MIN_AGE_S seconds old by their
 * modification time: the ones a watcher that was killed outright could not
 * remove. The age keeps clear of a launcher between its mkdir and its move
 * (microseconds apart); the kernel itself refuses to remove a cgroup with a
 * process in it. Returns how many were removed, or -errno. */
int cordon_cgroup_sweep(const char *path, int min_age_s);
/* The same for the socket directories beside OWN (cordon-<16 hex digits>,
 * OWN excepted): each of the caller's, empty, at least MIN_AGE_S seconds
 * old, that no process holds a flock on (a session's launcher and keeper
 * hold one on theirs to the end): the ones a launcher killed while it
 * started left (review 38b F3). Returns how many were removed. */
int cordon_socket_dirs_sweep(const char *own, int min_age_s);
/* renameat2's flag (linux/fs.h, which the C library's headers may lack). */
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
/* The mark (a user attribute) of a socket directory whose session holds
 * it: only those are swept. */
#define CORDON_SOCKETS_MARK "user.cordon.sockets"
/* The source of the rule that lets the session write its socket directory
 * (mountns.c finds the directory by it). */
#define CORDON_SOCKETS_SOURCE "session sockets"
/* The session's socket directory DIR made (0700), held with a shared
 * flock and marked, all before it appears at its name (made as
 * .NAME.new, then renamed): the descriptor holding it, or -errno. */
int cordon_socket_dir_make(const char *dir, struct cordon_error *err);
#define CORDON_SWEEP_AGE_S 60

/* A child that holds copies of this process's descriptors until it is
 * let go: the last close of some (an inotify instance waits for an SRCU
 * grace period; a removed directory frees its inode) is then paid by the
 * child, after this process has closed its own and gone on. The write
 * end of the pipe that lets it go (close it once this process's copies
 * are closed), or -1 where no child could be made. */
int cordon_close_later(void);

#endif
