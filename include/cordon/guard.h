/* cordon — the guards (protected and hidden paths) as mounts.
 *
 * Landlock can only add access: a rule granting the project write access
 * cannot leave .git/hooks read-only, and one granting ~/.config read access
 * cannot leave ~/.config/gh unreadable. The session therefore gets its own
 * mount namespace (Linux) in which
 *   RO    a protected path is a read-only bind of itself: nothing inside
 *         writes it, and being a mount point it cannot be renamed, removed
 *         or replaced either (EBUSY);
 *   PIN   a directory above one is bound onto itself, so that it cannot be
 *         renamed away and rebuilt (.git above .git/hooks, when the project
 *         is writable);
 *   HIDE  a hidden path is covered by an empty read-only directory or file.
 * The plan is made from the policy and what is on disk when the session
 * starts; only what a rule would otherwise reach is mounted. */
#ifndef CORDON_GUARD_H
#define CORDON_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>

#include "cordon/error.h"
#include "cordon/policy.h"
#include "cordon/strv.h"

enum cordon_mount_op {
	CORDON_MOUNT_PIN,
	CORDON_MOUNT_RO,
	CORDON_MOUNT_HIDE,
};

struct cordon_mount {
	char *path; /* canonical mount point */
	enum cordon_mount_op op;
	bool dir;           /* HIDE: cover with a directory (else a file) */
	const char *source; /* the guard's source (borrowed from the policy, or
			     * the plan's sources) */
};

struct cordon_guard_plan {
	struct cordon_mount *v; /* parents before children */
	size_t n, cap;
	/* "path (source): why" for guards that need no mount or cannot have
	 * one: absent, not reachable by any rule. For explain. */
	struct cordon_strv notes;
	/* Said as the session starts, and by explain: hidden files with a
	 * second name (a hard link made before the session), which no mount
	 * on this one covers. */
	struct cordon_strv warnings;
	/* Set when a guard cannot be kept (a protected path that is a symbolic
	 * link in a writable directory): the one-line reason. */
	char *refuse;
	/* Protected names that do not exist and could be made inside, where no
	 * mount can guard them (a missing .envrc, .git, a git dir's commondir):
	 * the launcher looks at them again when the session ends. */
	struct cordon_strv unguarded;
	/* Linux: the placeholder guards (CORDON_GUARD_PLACEHOLDER) the session
	 * could make inside that are missing, and (cordon_guard_unguarded
	 * only) those that are a directory, another session's placeholder
	 * perhaps. cordon_placeholders_hold makes and holds them for the
	 * session. */
	struct cordon_strv placeholders;
	/* The same for files: a missing file git's config includes (git
	 * reads an empty one as no settings). */
	struct cordon_strv placeholder_files;
	/* cordon_guard_closed_dir's, or NULL. */
	char *closed;
	/* Sources made for the plan (what an .envrc loads: "…, loaded by
	 * F"), which its mounts and notes borrow. */
	struct cordon_strv sources;
};

/* Plan the mounts for P's guards. CREATE: make what a guard needs that is
 * missing and harmless to make (a git dir's hooks/ and info/, cordon's own
 * config directory), as the session is about to start; explain passes
 * false. Returns 0 or -ENOMEM. */
int cordon_guard_plan(const struct cordon_policy *p, bool create, struct cordon_guard_plan *out);
void cordon_guard_plan_free(struct cordon_guard_plan *plan);
/* Linux: the directory in which the session makes no new name, canonical
 * (malloc'd), or NULL (errno ENOMEM, or 0: none). It is the home, when a
 * write rule covers it (--project ~, "additional_read_write_paths": ["~"])
 * and no system_paths rule does (HOME=/tmp/x would close /tmp's top):
 * a missing shell dotfile made there would run at the next login outside,
 * and no mount can guard what does not exist. Landlock leaves that one
 * directory without the rights to make a name, and gives them back to each
 * directory in it (shim/linux/platform.c). macOS denies the missing
 * dotfiles by path instead. */
char *cordon_guard_closed_dir(const struct cordon_policy *p);
/* The files a hook manager's hook in the directory HOOKS runs what they
 * say of, in WORKTREE (where git runs the hooks): pre-commit's
 * .pre-commit-config.yaml (or the file its hook names with --config),
 * lefthook's, overcommit's. Appended to OUT; 0 or -ENOMEM. *DYNAMIC (when
 * not NULL) is set when a hook names its config with something to expand
 * (--config "$VAR"), which cannot be followed. */
int cordon_hook_manager_files(const char *hooks, const char *worktree, struct cordon_strv *out,
			      bool *dynamic);
/* What lefthook's config FILE names for its hooks to read or run beside
 * itself (shim/lefthook.c): the configs `extends` merges (a glob: its
 * directory, or at the top what it matches now), the `rc` file its
 * commands source, the script directories `source_dir` and
 * `source_dir_local`; relative ones beneath WORKTREE. Appended to OUT;
 * 0 or -ENOMEM. */
int cordon_lefthook_refs(const char *file, const char *worktree, struct cordon_strv *out);
/* The sieve (Linux: shim/linux/landlock-sieve.c). Landlock only adds
 * access, and a rule on a directory covers what is made in it later: a
 * hidden path that appears outside while the session runs (made where it
 * was missing, removed and made again, replaced by a rename) was reachable
 * through the rule on its parent, whatever mount hid the old one. So a
 * rule that reaches a hidden path, or a write rule that reaches the closed
 * directory, is granted entry by entry: a directory on the way keeps only
 * the rights on the names in it, each entry beside the hidden ones gets
 * the rule's rights of its own, and a name made there later gets none.
 * Only where the session makes no names itself (a read-only rule, a
 * read-only mount, the closed directory and the way to it); elsewhere the
 * rule stays whole and the mount and the watch keep the hidden path. */
struct cordon_sieve {
	const char *closed;        /* borrowed; NULL: none */
	struct cordon_strv hidden; /* canonical directory, then the entry's own name (and
				      where that is a link, what it leads to, the same way);
				      sorted */
	/* The policy's hidden_globs, their parts before the first pattern
	 * canonical: what they match now is in HIDDEN, what they would
	 * match later too (a store an app makes in ~/.config/APP while the
	 * session runs, under "~/.config/x/Cookies" with x a "*"). */
	struct cordon_strv globs;
	/* Each glob's length before its first pattern: there a name as it
	 * is (canonical, no escapes), compared as a prefix. */
	size_t *glob_fixed;
	const struct cordon_policy *p; /* borrowed */
	char **rules; /* each rule's path canonical where that differs, else NULL */
};
/* What a root session's capabilities reach is cut down where the files are
 * not the session's to judge (Linux: mountns.c idmap_root mounts each
 * idmapped). A directory everyone shares (sticky, writable by all: /tmp,
 * /var/tmp; not /dev's) keeps ID 0 mapped: root is an owner there, no
 * more. /etc, where no rule lets the session write it or above it, keeps
 * ID 65534 only: root reads it as anyone does. */
struct cordon_root_cut {
	const char *path; /* borrowed */
	unsigned id;      /* the one uid and gid mapped */
	bool nofollow;    /* its rule's */
};
bool cordon_guard_shared_dir(const char *path, const struct stat *st);
/* Whether PATH lies strictly beneath (AT: or at) one of P's shared
 * directories that the session may write (rule.shared: /tmp), and beneath
 * (or at) no other write rule of P's, which would let it take sockets
 * there anyway. */
bool cordon_policy_in_shared(const struct cordon_policy *p, const char *path, bool at);
/* P's cuts into V (at most N): each rule that is a shared directory, /tmp,
 * /var/tmp, /run/lock and /run/screen where any rule reaches them, and
 * /etc as above. */
size_t cordon_guard_root_cuts(const struct cordon_policy *p, struct cordon_root_cut *v, size_t n);

/* Whether the sieve takes the hidden path PATH: not one in /proc (the
 * session's own) or /etc (kept by its cover and the watch alone). */
bool cordon_sieve_takes(const char *path);
/* From P's HIDE guards (those the sieve takes) and CLOSED
 * (cordon_guard_closed_dir's, borrowed). 0 or -ENOMEM. */
int cordon_sieve_init(const struct cordon_policy *p, const char *closed, struct cordon_sieve *s);
void cordon_sieve_free(struct cordon_sieve *s);
/* RULE's path as the sieve compares it: canonical. */
const char *cordon_sieve_rule_path(const struct cordon_sieve *s, const struct cordon_rule *rule);
/* Whether RULE is to be sieved rather than granted whole. */
bool cordon_sieve_needed(const struct cordon_sieve *s, const struct cordon_rule *rule);
/* Whether a hidden path lies strictly beneath DIR (or a pattern's match
 * could); whether a write rule (WRITES) on DIR reaches the closed
 * directory. */
bool cordon_sieve_hides_beneath(const struct cordon_sieve *s, const char *dir);
/* Whether PATH (canonical) is hidden: one of the hidden paths, or a match
 * of a pattern. */
bool cordon_sieve_hidden(const struct cordon_sieve *s, const char *path);
bool cordon_sieve_toward_closed(const struct cordon_sieve *s, const char *dir, bool writes);

/* The ways to hidden names where the session could make an entry: a
 * hidden path (HIDE guard, but /proc's) a rule lets the session read, in a
 * directory, or beneath one, where it can make names (a write rule, not
 * the closed directory nor the way to it, not beneath a read-only guard).
 * No mount can cover what does not exist yet, nor a symbolic link (mount
 * follows it), and a program outside that saves the name later (a first
 * `huggingface-cli login`) writes through whatever it finds there: a link
 * the session laid to a file of its own, a FIFO it reads, a hard link of
 * its own file. Looked at as the session is about to start: the watch
 * (shim/linux/reguard.c) follows each way while it runs and the sweep
 * (shim/sweep.c) as it ends. */
struct cordon_hidden_way {
	char *path;         /* the hidden name, as the guard has it */
	const char *source; /* the guard's (borrowed from the policy) */
	/* strlen of the directory the way is followed from: the highest one
	 * on it the session could neither remove nor replace (or a symbolic
	 * link there as the session started), held open since then (O_PATH;
	 * a link on it followed as it was). Below it, nothing is a link yet. */
	size_t top;
	int top_fd;
	bool owns_fd;                /* (another way's with the same top, else) */
	unsigned long long dev, ino; /* what was at PATH as it started (0: nothing) */
	/* Its birth time, where the file system keeps one: a name removed and
	 * made again may get the same inode number (ext4 gives it back). */
	bool born_known;
	struct timespec born;
	/* What the watch moved aside while the session ran: how many times,
	 * and the first (the name or a directory on the way, what it was, and
	 * its new name). */
	unsigned moved;
	char *moved_path, *moved_what, *moved_to;
};
struct cordon_hidden_ways {
	struct cordon_hidden_way *v;
	size_t n, cap;
};
/* P's ways (none but on Linux, where a hidden name made inside is not
 * denied by its path), as things are now; READ_ONLY: the paths the guards
 * keep read-only (cordon_guard_unguarded's GUARDED). 0 or -ENOMEM. */
int cordon_hidden_ways_find(const struct cordon_policy *p, const struct cordon_strv *read_only,
			    struct cordon_hidden_ways *out);
void cordon_hidden_ways_free(struct cordon_hidden_ways *w);
/* What is at the first LEN bytes of W's path (a directory on the way, or
 * the hidden name itself), reached from W's top without following a link:
 * 0 with *ST, or -errno. */
int cordon_hidden_way_stat(const struct cordon_hidden_way *w, size_t len, struct stat *st);
/* Whether ST, found at W's name (AT_NAME) or on the way to it, is what the
 * session could have put there to send a program outside elsewhere, and
 * not what was there as the session started: a symbolic link; at the name
 * also a FIFO, a socket, a device, or a file with another name (a hard
 * link). */
bool cordon_hidden_way_lure(const struct cordon_hidden_way *w, bool at_name, const struct stat *st);
/* The entry at the first LEN bytes of W's path moved aside within its
 * directory (NAME.cordon-disarmed, never over another name) when it is a
 * lure (above), reached as cordon_hidden_way_stat reaches it. What was
 * moved is looked at again after the move: another entry swapped in
 * meanwhile (the user's own file, saved that instant) is put back. 1 when
 * moved (the new name into TO, what it was into WHAT: "a symbolic link
 * to T", printable), 0 when there was nothing to move, or -errno. DROP:
 * a link, FIFO or socket moved is then removed (one laid again and again:
 * the first is kept to look at). */
int cordon_hidden_way_disarm(const struct cordon_hidden_way *w, size_t len, bool drop, char *to,
			     size_t to_size, char *what, size_t what_size);
/* W's name, a directory that was not there as the session started (made
 * while it ran: the session may have laid lures in it while its cover was
 * not on yet, or through a descriptor it kept in it), walked without
 * following a link (16 levels, 4096 entries at most): each link, FIFO,
 * socket, device or file with another name in it moved aside, as the
 * session ends. How many (the first one's path, relative to the name,
 * into FIRST, and what it was into WHAT), or -errno. */
int cordon_hidden_way_disarm_within(const struct cordon_hidden_way *w, char *first,
				    size_t first_size, char *what, size_t what_size);

/* Only the plan's `unguarded` names, its `placeholders` and its
 * `placeholder_files` (into FILES) (the protected guards alone are looked
 * at: what the launcher needs, at half the cost), and when GUARDED is not
 * NULL, the paths it keeps read-only; when REFUSE is not NULL, the plan's
 * `refuse` (malloc'd), or NULL. */
int cordon_guard_unguarded(const struct cordon_policy *p, struct cordon_strv *out,
			   struct cordon_strv *placeholders, struct cordon_strv *files,
			   struct cordon_strv *guarded, char **refuse);

/* The placeholders a session holds (shim/linux/placeholder.c). */
struct cordon_placeholder {
	char *path;
	int fd;        /* the directory (or file), flock(LOCK_SH) held for the session */
	int parent;    /* its parent directory (O_PATH) */
	bool made;     /* made by this session */
	bool file;     /* an empty file, not a directory */
	bool stand_in; /* a stand-in socket file (cordon_is_stand_in; fd O_PATH, no lock) */
};
struct cordon_placeholders {
	struct cordon_placeholder *v;
	size_t n;
};

/* Make each of PATHS that is missing (an empty directory, marked as
 * cordon's) and each of FILES (an empty file, marked so), and hold each
 * with a shared lock, so that no other session removes it while this one
 * runs. One that cannot be made is pushed to UNGUARDED (said when the
 * session ends). Returns 0, or -errno with ERR set: out of memory, or a
 * lock another process holds for longer than a second (then nothing is
 * held). */
int cordon_placeholders_hold(const struct cordon_strv *paths, const struct cordon_strv *files,
			     struct cordon_placeholders *out, struct cordon_strv *unguarded,
			     struct cordon_error *err);
/* Whether PATH is a stand-in, the socket file of mode 0 the watch
 * (reguard.c) puts at a protected name the session made once it moved
 * that aside: nothing can be read from it or written into it (open:
 * ENXIO), no one but root can connect to it, git ignores it, and no
 * program obeys it. Any such file is one (this session's or another's, or
 * one the session made, as harmless; a server's socket has a mode): taken
 * for a missing name by the guards' plan, left alone by the watch and the
 * sweep. */
bool cordon_is_stand_in(const char *path);
/* The same for what lstat gave (ST). */
bool cordon_is_stand_in_stat(const struct stat *st);
/* The HEAD of each submodule git dir the guards found in this process (as
 * the session started), made again with what it held where it is gone
 * now, said into SAID: the session is over. The directories on the way
 * that the session made unreadable are opened for it, and for SWEEP's end
 * after it (cordon_sweep_ways_up), which gives their modes back. */
struct cordon_sweep;
void cordon_guard_restore_heads(const struct cordon_sweep *sweep, struct cordon_strv *said);
/* The module git dir DIR's HEAD made again with TEXT (N bytes) where it
 * is gone or no file, said into SAID ("... was gone or no file ENDED"),
 * or said where it cannot be: 1 where it was put back, 0 where nothing
 * was needed (or DIR is gone), else -errno. */
int cordon_guard_put_head_back(const char *dir, const char *text, size_t n, const char *ended,
			       struct cordon_strv *said);
/* Whether the HEAD in DIR (AT: AT_FDCWD and a path, or a directory and
 * "") is one git takes: a link into refs/, "ref: refs/...", an object id
 * of HEXSZ hex digits (the superproject's: cordon_git_hexsz). */
bool cordon_guard_head_valid(int at, const char *dir, unsigned hexsz);
/* Whether git would take DIR (AT as for cordon_guard_head_valid) for a
 * git dir, as its is_git_directory: a HEAD it takes, and objects and refs
 * it can search in the common dir (its commondir's, or itself). */
bool cordon_guard_git_dir_as_git(int at, const char *dir, unsigned hexsz);
/* The hex digits of an object id in the repository whose git dir is
 * GITDIR: 64 where the config git reads for it (its common dir's) sets
 * extensions.objectformat to sha256, else 40. */
unsigned cordon_git_hexsz(const char *gitdir);
/* Whether NAME is one of git's own directories in a git dir (objects,
 * refs, hooks, modules, ...): any other one there may hold a submodule's
 * git dir (modules/d/X for a submodule named d/X, where d is one). */
bool cordon_git_own_dir(const char *name);
/* Whether this process's plan looked at DIR among the submodules' git
 * dirs and passed it over as none (its HEAD gone, say). */
bool cordon_guard_passed_over(const char *dir);
/* Whether DIR holds the rest of a git dir (cordon_guard_git_dir_but_head)
 * and its HEAD is gone or no regular file. */
bool cordon_guard_head_gone(const char *dir);
/* Whether DIR holds what a git dir holds but its HEAD (objects and refs,
 * or a commondir). */
bool cordon_guard_git_dir_but_head(const char *dir);
/* The Ith HEAD kept, its DIR, TEXT and N (where I is below the count):
 * how many were kept. For the note a launcher killed before its end
 * leaves, which a later launch puts them back from. */
size_t cordon_guard_heads(const char **dir, const char **text, size_t *n, size_t i);
/* Whether PATH is a placeholder cordon made (marked so: a session's,
 * running or not yet removed). False where there are none (macOS). */
bool cordon_placeholder_marked(const char *path);
/* Linux: a stand-in made at NAME in PARENT (PATH), pushed to H, and
 * removed with H's placeholders (whether or not the session was seen to
 * end). 0, or -errno (-EEXIST: something is there; nothing made then). */
int cordon_placeholder_stand_in(int parent, const char *name, const char *path,
				struct cordon_placeholders *h);
/* The session is over (ENDED: every process of it is gone; else nothing
 * is removed, and the next session sees to it): each placeholder no other
 * session holds, still empty and cordon's, is removed; the locks are let
 * go. One this session made that is no longer empty (filled outside, or
 * inside where it could not be kept read-only) is pushed to FILLED, when
 * given. */
void cordon_placeholders_release(struct cordon_placeholders *h, bool ended,
				 struct cordon_strv *filled);
/* FILLED said on stderr, a line each. */
void cordon_placeholders_say(const struct cordon_strv *filled);
/* A child's copies of the held descriptors, closed (the locks stay with
 * the holder's). */
void cordon_placeholders_forget(struct cordon_placeholders *h);

const char *cordon_mount_op_name(enum cordon_mount_op op);

/* What FILE holds (a regular file only: a session may have made it a
 * FIFO), as git reads it: all of it less "PREFIX" and the line ends at
 * its end (a newline within is part of the path), resolved against BASE
 * when relative, canonical (malloc'd); NULL when there is none or it does
 * not resolve. git's ".git" files ("gitdir: ") and commondir files (""). */
char *cordon_git_link_file(const char *file, const char *prefix, const char *base);
/* The files the git config FILE includes ([include] and [includeIf]
 * path, whatever the condition), and theirs, three levels down, as
 * absolute paths (relative ones against FILE's directory, "~/" against
 * HOME, which may be NULL), pushed to OUT once each. 0 or -ENOMEM. */
int cordon_git_includes(const char *file, const char *home, struct cordon_strv *out);
/* The files Mercurial's config FILE includes (%include), as absolute
 * paths into OUT, and theirs: 0 or -ENOMEM. */
int cordon_hg_includes(const char *file, const char *home, struct cordon_strv *out);
/* Each directory the git config files of the repository whose git dirs
 * are DIRS (its git dir, then a common dir) name as core.hooksPath, in
 * the order git reads them (the last one is the one git uses): the
 * system's and HOME's (NULL: none), then the repository's; relative ones
 * against its worktree BASE, "~/" against HOME; pushed to OUT. 0,
 * -ENOMEM, or -EFBIG when a config is longer than CORDON_GIT_CONFIG_MAX
 * (not read). */
#define CORDON_GIT_CONFIG_MAX (1 << 20) /* longer than any git config git writes */
int cordon_git_hooks_paths(const char *home, const struct cordon_strv *dirs, const char *base,
			   struct cordon_strv *out);
/* The two halves of cordon_git_hooks_paths: the values as the config
 * files hold them (the same for every worktree of a repository), and
 * those values resolved against BASE. */
int cordon_git_hooks_values(const char *home, const struct cordon_strv *dirs,
			    struct cordon_strv *out);
/* cordon_git_hooks_values in two parts, the first values first: the
 * system's and HOME's files' (the same for every repository), and DIRS'
 * own. */
int cordon_git_hooks_values_global(const char *home, struct cordon_strv *out);
int cordon_git_hooks_values_own(const char *home, const struct cordon_strv *dirs,
				struct cordon_strv *out);
int cordon_git_hooks_resolve(const char *home, const char *base, const struct cordon_strv *values,
			     struct cordon_strv *out);

/* The read-only or hidden mount of PLAN on PATH or above it (the deepest),
 * or NULL. */
const struct cordon_mount *
cordon_guard_plan_find(const struct cordon_guard_plan *plan,
		       const char *path); /* "read-only", "pinned", "hidden" */

#endif
