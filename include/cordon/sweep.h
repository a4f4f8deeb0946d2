/* cordon — repositories made or changed inside, looked at as a session
 * ends (shim/sweep.c, shim/gitrisk.c).
 *
 * The guards keep the repositories that exist when a session starts
 * read-only where git would find a program to run (.git/config, hooks).
 * A repository that did not exist then (git init, git clone, a nested
 * repository) cannot be guarded by a mount, and neither can one the
 * guards did not reach (a nested clone that is not a submodule). So when
 * the whole session is gone, the process that supervised it walks the
 * project for every .git the guards did not cover, and one that was made
 * or changed while the session ran and would now make git outside run a
 * program (a hook, core.fsmonitor, a filter, ...) is moved aside, whole,
 * to ".git.cordon-disarmed": git outside no longer finds it, nothing in
 * it is lost, and the user is told in one line what it would have run.
 * A protected file with no stand-in that the session made (one listed
 * without the trailing "/") is moved aside the same way, and so is a link
 * (or FIFO, or hard link) at a hidden name, or on the way to one, where the
 * session could make it; a hidden name that appeared there is said. */
#ifndef CORDON_SWEEP_H
#define CORDON_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "cordon/guard.h"
#include "cordon/policy.h"
#include "cordon/strv.h"

/* The settings of a config that are not harmless, each its section
 * header and its line as written (git rewriting a config keeps the lines
 * it does not change): what a repository already set as a session
 * started. WHOLE: the config was read to its end (else nothing may be
 * taken from the list). */
struct cordon_git_entries {
	struct cordon_strv v;
	bool whole;
};

/* At most this many directories above the project are kept in a mark
 * (more: judged by their change times). */
#define CORDON_MARK_ABOVE 32

struct cordon_sweep {
	char *project; /* canonical; NULL: nothing to look at */
	/* What is walked: the project, then each directory the user made
	 * writable besides it (cordon_policy_writable_root), then from
	 * N_OWN on the shared directories (cordon_policy.shared): walked
	 * below their top only (what is at the top, the names looked for
	 * above, is kept as those are), and no protected_paths there. */
	struct cordon_strv roots;
	size_t n_own;
	/* The session's start, to the second (file systems that keep
	 * coarser times truncate them): a change at or after it may have been
	 * made inside. */
	struct timespec since;
	struct timespec started; /* the same, to the nanosecond */
	/* The read-only guards' paths: a .git one covers existed, and was
	 * kept out of the session's reach. */
	struct cordon_strv guarded;
	/* Every path a rule let the session write (a remote's URL into one
	 * that is not a root names a repository no walk looks at), and every
	 * hidden one (names the sweep reads there are never shown). */
	struct cordon_strv writable, hidden;
	/* What each of HIDDEN was as the session started (same index; NULL
	 * out of memory: none known): only that is put back where a
	 * directory holding it is moved aside (round 54j F1). */
	struct cordon_sweep_id {
		/* lstat's device, inode and change time (seconds,
		 * nanoseconds), then stat's (through a link); inode 0:
		 * missing. The change time tells one changed since, or an
		 * inode number used again (round 56c F1). */
		unsigned long long l[4], s[4];
		/* Where it led then (realpath), where that is not the path
		 * itself; else NULL. */
		char *real;
	} * hidden_ids;
	/* (The walk's: the hidden paths of the other sessions in its root,
	 * or in one it lies in or holds, as their marks hold them: a killed
	 * one's it catches up with, a running one's it judges. Put back as
	 * HIDDEN's are; NULL: none.) */
	struct cordon_others_hidden {
		const char *top;
		bool read; /* LIST read (at its first question: most ends move nothing) */
		struct cordon_strv list;
		struct cordon_sweep_id *ids; /* LIST's, same index */
		size_t ids_cap;
	} * others_hidden;
	/* WRITABLE's paths as they resolve at the end, made at its first
	 * question (session_writable): mutable within a const sweep. */
	struct cordon_strv *writable_real;
	/* The policy's git_env (cordon_policy.git_env), read as it ends. */
	struct cordon_strv git_env;
	/* Protected names missing as the session started that no mount could
	 * guard (cordon_guard_plan.unguarded): one that exists as it ends was
	 * made meanwhile, and is moved aside too (a .git: the walk's). */
	struct cordon_strv names;
	/* The names looked for above missing as the session started
	 * (cordon_policy.above, copied): one that exists as it ends was made
	 * meanwhile, and is moved aside (a .git too: no walk looks there). */
	struct cordon_above *above;
	size_t n_above;
	/* The protected names at a root's top that an editor obeys in any
	 * directory it starts in (vim's .exrc with its 'exrc' option on): one
	 * made or changed in a directory below since the start is moved
	 * aside too; and those of two names there whose first is not a
	 * repository's (mise/config.toml, .config/mise: in a directory
	 * below, where the first lies below the top). */
	struct cordon_strv local;
	/* Those judged below a shared directory's top (add_shared_local). */
	struct cordon_strv shared_local;
	/* The guarded files of mise's config environments no setting named,
	 * taken for the user's as the session started (CORDON_MISE_FOUND):
	 * judged where a killed session's end is caught up with. */
	struct cordon_strv found_envs;
	/* The configs of the repositories the last walk of each root found,
	 * with the settings in them that would run something, as the session
	 * started: the user's own (husky's core.hooksPath), which a git
	 * command inside rewriting the file (git push -u) keeps as they were.
	 * Those alone do not count as it ends. */
	struct cordon_sweep_config {
		char *path;
		struct cordon_git_entries had;
	} * configs;
	size_t n_configs, configs_cap, configs_bytes;
	/* The files kept read-only (KIND 'r') or hidden ('h') as the session
	 * started, with their inodes. A program outside that saves one by
	 * writing a new copy and renaming it into place (git config, an
	 * editor) ends the mount that kept it, in every session already
	 * running: the session could change (read) the new one. And ('m')
	 * the files in the remotes/ and branches/ of each root's own
	 * repository then: the user's remotes. NLINK and CTIME as the
	 * session started: a kept file with another name is changed through
	 * that one, which no mount covers; ('t') such a file inside a kept
	 * directory (a hook with a hard link beside the project); ('c') a
	 * config file a later session reads by name, which this one may
	 * write (cordon_sweep_note_config); ('g') a directory kept
	 * read-only, which vouches for nothing below it once replaced (a
	 * stand-in another session removed, made again inside: 47a H1). */
	struct cordon_sweep_held {
		char *path;
		unsigned long long dev, ino;
		char kind;
		unsigned long long nlink;
		struct timespec ctime;
	} * held;
	size_t n_held, held_cap;
	/* The .config and mise directories at the tops mise's environments
	 * are judged in, as the session started (kind 'd'): one made or put
	 * there since brings files whose own change times are older. */
	struct cordon_sweep_held *mise_dirs;
	size_t n_mise_dirs, mise_dirs_cap;
	/* The ways to hidden names the session could make (guard.h), as it
	 * started: the watch moves aside the lures it lays on them while it
	 * runs (Linux: the launcher's, through cordon_launch.ways), and as it
	 * ends, a lure is moved aside and a name that appeared is said. */
	struct cordon_hidden_ways ways;
	/* (The walk's: judged from an earlier session's start, one whose
	 * sweep never ended.) */
	bool earlier;
	/* (The walk's: counts what it found to move aside and could not, a
	 * name swapped with a link meanwhile; the root is then not taken as
	 * looked at, and the next session judges it from this one's start.) */
	unsigned *unmoved;
	/* (The walk's, where EARLIER: the device and inode of its top's
	 * .config and mise as that session started, 0 where missing, from
	 * its mark; not KNOWN where the mark did not hold them.) */
	struct {
		unsigned long long id[2][2];
		bool known;
		/* And those of the directories above the project, as the
		 * mark's session started (hold_mise_dirs's for them, each with
		 * its path's hash: round 33f P1, 34 Q4); not ABOVE_KNOWN where
		 * the mark did not hold them. */
		unsigned long long above[CORDON_MARK_ABOVE][3]; /* path's hash, dev, ino */
		size_t n_above;
		bool above_known;
	} start_dirs;
	/* (How many of MISE_DIRS are the directories above the project's,
	 * first.) */
	size_t n_mise_above;
	bool swept; /* cordon_sweep_end ran */
	/* The held configs ('c') noted in the state directory for a later
	 * launch, should this session's launcher be killed (malloc'd, or
	 * NULL: none held). */
	char *held_note, *held_note2; /* (the second: uid_records_dir's) */
	/* The session's id (in its marks: a launcher killed with its keeper
	 * leaves processes that a later launch must find), or "". */
	char session[CORDON_SESSION_ID_LEN + 1];
	/* For a config first read by name while the session ran (not held):
	 * the paths it may write, those it kept read-only, and its start. */
	struct cordon_strv config_write, config_kept;
	struct timespec configs_since;
	/* The repositories whose index was read as the session started
	 * ("GITDIR\nWORKTREE\nIDENTITY\nREPLACE\nCACHES\nSEEN\nREFS": the
	 * index file's identity, a sum of its replace refs in hex, the
	 * identities of its commit-graph and multi-pack-index, the sums of the
	 * ids in its reflogs' tails, and its refs, one a line, or "!" not
	 * read), and their entries
	 * under a guarded path ("WORKTREE/NAME\nMODE OID"): see
	 * cordon_sweep_tracked_hold. */
	struct cordon_strv tracked_repos, tracked;
	/* Where they are kept for the sessions that start while this one
	 * runs (cordon_sweep_tracked_share): in each notes directory. */
	struct cordon_strv tracked_notes;
	/* The protected_paths' names relative to the root they are in
	 * (.irbrc, .vscode, mise/config.toml): an index entry of such a name
	 * counts in any repository kept so, as one under GUARDED does. */
	struct cordon_strv protected_names;
};

/* As the session starts: the entries of the index of the git dir GITDIR
 * (whose worktree is WORKTREE) that lie under S's guarded paths, kept
 * (shim/sweep-tracked.c; an index not read whole is not kept). 0 or
 * -ENOMEM. */
int cordon_sweep_tracked_hold(struct cordon_sweep *s, const char *gitdir, const char *worktree);
/* As it ends: each entry of those indexes under a guarded path that is
 * new or holds another object than as it started, said to SAID (git
 * checkout outside would write it over the protected file); an index
 * rewritten in a form not read, said. How many were said. */
int cordon_sweep_tracked_judge(const struct cordon_sweep *s, struct cordon_strv *said);
/* Once every root is held: what S holds of a repository that a session
 * still running, started earlier, held too is what that one held as it
 * started (what was made between the two starts is not the user's:
 * round 54h F3), and S's holds written for the sessions that start while
 * it runs. A killed launcher's note is taken so (it was never judged),
 * and removed once each of its repositories was. */
void cordon_sweep_tracked_share(struct cordon_sweep *s);
/* Once judged: S's note removed. */
void cordon_sweep_tracked_unshare(struct cordon_sweep *s);
/* (For sweep-tracked.c.) The directories cordon's notes are kept in,
 * each read and written (the sweep's records', the passwd home's, $HOME's
 * where XDG_STATE_HOME leads elsewhere), into DIRS (malloc'd, NULL where
 * none; free each); this process's start in clock ticks; whether the
 * process PID is alive and started at START. */
void cordon_sweep_notes_dirs(char *dirs[3]);
unsigned long long cordon_sweep_own_start(void);
bool cordon_sweep_running(pid_t pid, unsigned long long start);

/* Whether a session under P is swept as it ends: sandboxed, with a .git
 * path among the protected ones (in the project, or in a directory the
 * user made writable), or a shared directory it may write
 * (protected_paths not []). */
bool cordon_sweep_applies(const struct cordon_policy *p);
/* As the session is about to start: set S up for P (nothing to do where
 * cordon_sweep_applies does not hold). GUARDED is taken
 * over (its strings move into S). Returns 0 or -ENOMEM. */
int cordon_sweep_begin(const struct cordon_policy *p, struct cordon_strv *guarded,
		       struct cordon_sweep *s);
/* Take over NAMES (cordon_guard_plan.unguarded) for S. */
void cordon_sweep_names(struct cordon_sweep *s, struct cordon_strv *names);
/* While the session runs (Linux: the launcher's watch, reguard.c): PATH,
 * one of S's names (WAY_TO NULL), or a link laid on the way to the name
 * WAY_TO, made since the start: moved aside at once, as the session's end
 * would, and said to SAID ("cordon: ..."). AGAIN (one was moved aside
 * before, and said): to NAME.cordon-disarmed-again, over the one before,
 * unsaid (a session that makes it in a loop leaves two, not thousands).
 * 1 if it was moved; the name it was moved to (in the same directory)
 * into TO (TO_SIZE bytes; may be NULL). */
int cordon_sweep_disarm_now(const struct cordon_sweep *s, const char *path, const char *way_to,
			    bool again, struct cordon_strv *said, char *to, size_t to_size);
/* PATH moved aside now, said as "cordon: HEAD PATH, WHY, so cordon moved
 * it to ...": 1 if it was. */
int cordon_sweep_disarm_why(const struct cordon_sweep *s, const char *path, const char *head,
			    const char *why, struct cordon_strv *said);
/* Whether LINK (lstat'ed into ST) is a link S's session could have laid:
 * changed since it started, in a directory a write rule of it reaches. */
struct stat;
bool cordon_sweep_laid(const struct cordon_sweep *s, const char *link, const struct stat *st);
/* Whether PATH is a .git entry in one of S's own roots (the project, a
 * directory the user made writable): among S's names, the walk's to judge
 * as the session ends (git init inside must work), not a name moved
 * aside. One elsewhere (/tmp/.git, looked for above at a shared
 * directory's top, which its walk does not judge) is moved aside as the
 * others are. */
bool cordon_sweep_git_entry(const struct cordon_sweep *s, const char *path);
/* Whether REL (relative) lies in what a package manager fills
 * (node_modules, a virtualenv, vendor/): the project's dependencies, not
 * where an editor or a tool is opened. */
bool cordon_sweep_in_dependencies(const char *rel);
/* The directory PATH is in, opened as the sweep opens it to move a name
 * aside (beneath the root it is in, no link the session could have laid
 * followed), or -errno. */
int cordon_sweep_parent(const struct cordon_sweep *s, const char *path);
/* The file stand-ins HELD holds (cordon_placeholders_hold), kept read-only
 * for the session as a guard's file is: what is in one as it ends was
 * written outside. */
void cordon_sweep_held(struct cordon_sweep *s, const struct cordon_placeholders *held);
/* What a session keeps as it starts, beside its mounts: the protected
 * names missing that no mount can guard and the repositories the guards
 * do not cover, for SWEEP to look at again as it ends (and the watch as
 * they appear); the stand-ins of the missing ones that have one, made and
 * held in HELD (inside another session, where no mount could keep them
 * read-only, those are names to look at instead). 0, or -errno with ERR
 * set. The launcher's and the preloaded supervisor's. */
/* PATH, a config file a session reads by name (--config, $CORDON_CONFIG),
 * noted in the state directory: a later session that may write it and
 * keeps another config read-only moves it aside as it ends if it changed
 * (round 37c F1). Nothing said on failure (best effort: the session's own
 * config is kept read-only all the same). */
void cordon_sweep_note_config(const char *path);
/* The XDG base directories (XDG_CONFIG_HOME, ...) GETENV_FN gives, where
 * set, noted in the state directory as "VAR=PATH": a later launch
 * started without them guards them too (cordon_context.known_xdg). Best
 * effort, as cordon_sweep_note_config. */
void cordon_sweep_note_xdg(char *(*getenv_fn)(const char *));
/* What cordon_sweep_note_xdg noted, "VAR=PATH" each, into OUT (from the
 * state directory a session cannot write only). 0, or -ENOMEM. */
int cordon_sweep_known_xdg(struct cordon_strv *out);
/* The configs held ('c') by sessions whose launcher was killed before its
 * end (kill -9, the OOM killer): each changed since is moved aside, as
 * that end would have, with a line pushed to SAID. A note stays while its
 * session is in the registry (orphaned processes may still write). Run by
 * every launch that reads a config, before it does (round 37e F3). An
 * ordinary user with no home directory of theirs keeps notes only where a
 * session may have planted one: nothing is moved then, the note stays,
 * and -EPERM refuses a launch that reads by name (NAMED, or NULL) a config
 * it says changed (round 38f M1). 0, or -EPERM with ERR set. */
int cordon_sweep_judge_killed(const char *named, struct cordon_strv *said,
			      struct cordon_error *err);

int cordon_sweep_start(const struct cordon_policy *p, struct cordon_placeholders *held,
		       struct cordon_sweep *sweep, struct cordon_error *err);
/* As the session has ended (ENDED: every process of it was seen to end;
 * else that is said too): walk the project (and the other writable
 * roots), move aside, and push what is
 * to be said, a line each ("cordon: ..."), to SAID; then the modes
 * cordon_sweep_ways_up opened given back. Returns how many names were
 * moved aside. */
int cordon_sweep_end(struct cordon_sweep *s, bool ended, struct cordon_strv *said);
/* From now until S's end gives them back (cordon_sweep_end), each
 * directory of the user's that the session made unreadable, on the way to
 * what cordon looks at or puts back as the session ends, opened as it is
 * needed (cordon_way_up: 47d M1). Called before anything else is done at
 * the end: a module's HEAD put back, the names judged. */
void cordon_sweep_ways_up(const struct cordon_sweep *s);
/* In the session's first process, after its own guard plan: a refusal
 * (-EBUSY, said into ERR) where that plan passed over, as no git dir, a
 * submodule's git dir that a launcher still running kept (its note), its
 * own launcher's too: the launcher's plan and this one look at HEAD at
 * two moments, and a session toggling it could win between them (round
 * 48d F2). */
int cordon_sweep_refuse_heads_live(struct cordon_error *err);
void cordon_sweep_free(struct cordon_sweep *s);
/* cordon_sweep_free, and, when no sweep ran (the session never started),
 * the marks cordon_sweep_begin left for one (see shim/sweep.c) go too.
 * Not in a copy of the process that began it. */
void cordon_sweep_cancel(struct cordon_sweep *s);
/* The file the walk of PROJECT keeps for the next one, in cordon's state
 * directory (cordon_state_dir; malloc'd, or NULL). Beside it, that name with
 * CORDON_SWEEP_LOCK is the file its sweeps take turns on. */
char *cordon_sweep_record_path(const char *project);
#define CORDON_SWEEP_LOCK ".lock"
/* Whether a session may have written in PATH (canonical): it, or a
 * directory above it (but none above WITHIN, when given), was noted in
 * the registry as one a session could write (shim/sweep.c, note_written),
 * or has a sweep's record (a session's before the notes): 1, with that
 * entry's path into NOTE (SIZE bytes; may be NULL); 0; -ENOENT where
 * there is no registry (nothing is known). A few fstatat a level. */
int cordon_sweep_noted(const char *path, const char *within, char *note, size_t size);
/* The note that sessions may write DIR (note_written), removed from each
 * registry that has it: DIR, a session's own, is gone. */
void cordon_sweep_unnote(const char *dir);
/* cordon_sweep_noted, but where there is no registry (no home: nothing is
 * known of earlier sessions), whether this user could write DIR or a
 * directory above it (none above WITHIN), or make one writable (its
 * owner: round 36 F1, a session's chmod 555 hid what it laid). */
bool cordon_sweep_layable(const char *dir, const char *within, char *note, size_t size);

/* What git directories would make git run (shim/gitrisk.c). Each adds
 * to the list OUT ("core.fsmonitor, hooks (pre-commit)"), which is
 * empty when nothing would run. */
/* WHAT appended to the list OUT ("a, b"), once, printable. */
void cordon_git_risk_add(char *out, size_t size, const char *what);
/* The keys of the config file CONFIG that cordon does not know to be
 * harmless; "a config cordon cannot read" where git's syntax is not read
 * to its end (a missing file adds nothing). */
void cordon_git_config_risks(const char *config, char *out, size_t size);
void cordon_git_entries_free(struct cordon_git_entries *e);
/* cordon_git_config_risks, but a setting in KNOWN (may be NULL) adds no
 * risk; each setting that is not harmless into SEEN (may be NULL; set up
 * here). Whether the config was read to its end (or is missing). */
bool cordon_git_config_scan(const char *config, const struct cordon_git_entries *known,
			    struct cordon_git_entries *seen, char *out, size_t size);
/* cordon_git_config_scan (SEEN none), and a remote's URL that is a
 * repository on this machine (remote.*.url, pushurl; a branch's remote
 * given as a path), its path as written (relative, "~/", or after
 * "file://"), passed to LOCAL(PATH, ARG): a risk where it returns true,
 * whatever KNOWN holds (git push runs that repository's hooks). A URL of
 * a remote helper (HELPER::…, a scheme git has no transport of its own
 * for) is a setting that is not harmless. A core.worktree whose .git file
 * names the repository (harmless) goes to LOCAL too, its whole path: a
 * risk where it returns true (git status there goes into what it holds). */
bool cordon_git_config_judge(const char *config, const struct cordon_git_entries *known,
			     bool (*local)(const char *path, void *arg), void *arg, char *out,
			     size_t size);
/* The size of an object id in the repository whose config is CONFIG (its
 * extensions.objectformat): 32 for SHA-256, else 20. */
size_t cordon_git_hash_size(const char *config);
/* The config file git reads for the repository whose git dir is GITDIR
 * (the common dir's, a linked worktree's commondir naming it), into OUT
 * (SIZE bytes): whether it fit. */
bool cordon_git_common_config(const char *gitdir, char *out, size_t size);
/* PATH, an index entry's name, is one git's verify_path takes for an
 * entry of MODE (no "." or ".." part, no ".git" in any case or as NTFS
 * names it, not absolute, no empty part; a trailing slash for a directory
 * only); HFS: as on HFS+, which ignores some code points in names. */
bool cordon_git_path_ok(const char *path, unsigned mode, bool hfs);
/* The git index INDEX (versions 2 to 4, HASH_SIZE the repository's,
 * cordon_git_hash_size), every stream of entries git may read from it and
 * the shared index a split one names: a path cordon_git_path_ok refuses
 * (git restore . outside would write it), or an index cordon cannot read
 * (longer than 256 MiB, or not in git's format), is a risk. A missing one
 * adds nothing. */
void cordon_git_index_risks(const char *index, size_t hash_size, bool hfs, char *out, size_t size);
/* Each gitlink's name (a submodule's checkout, relative to the worktree)
 * in GITDIR's index, read as cordon_git_index_risks reads one (and the
 * shared index a split one names), to EACH; a negative value from it
 * stops. *GITMODULES: the index has an entry named .gitmodules. 0 (no
 * index: none), EACH's value, -ENOMEM, or -EINVAL where part of it could
 * not be read, or a gitlink has no name of its own (a split index's
 * replacement): what was read before stands. */
int cordon_git_index_gitlinks(const char *gitdir, int (*each)(const char *name, void *arg),
			      void *arg, bool *gitmodules);
/* Each entry of GITDIR's index with a name (and of the shared index a
 * split one names), with its mode and object id (HS bytes), to EACH; a
 * negative value from it stops. 0 (no index: none), EACH's value,
 * -ENOMEM, or -EINVAL where part of it could not be read or an entry has
 * no name (a split index's replacement). */
int cordon_git_index_entries(const char *gitdir,
			     int (*each)(const char *name, unsigned mode, const unsigned char *oid,
					 size_t hs, void *arg),
			     void *arg);
/* The hooks in the directory DIR, those for which ONLY(PATH, ARG) is
 * true (ONLY may be NULL). */
void cordon_git_hook_risks(const char *dir, bool (*only)(const char *path, const void *arg),
			   const void *arg, char *out, size_t size);
/* What git resumes when told to continue, outside: a rebase's or a
 * cherry-pick's todo list (exec lines run commands), the merge strategy
 * it uses (one not built in is run as the program git-merge-NAME), in a
 * file of its own or in sequencer/opts; and what git's prompt shows of a
 * rebase, its step and count (STEP: anything but a number runs in a
 * prompt that expands PS1, round 38a F2). An unreadable one counts too.
 * NAME: how the risk names FILE. */
enum cordon_git_todo { CORDON_GIT_TODO, CORDON_GIT_STRATEGY, CORDON_GIT_OPTS, CORDON_GIT_STEP };
void cordon_git_todo_risks(const char *file, const char *name, enum cordon_git_todo kind, char *out,
			   size_t size);
/* The git dir of the .git entry DOTGIT: the one a .git file names, or
 * DOTGIT itself (malloc'd; NULL when a .git file names none). */
char *cordon_git_dir_of(const char *dotgit);

#endif
