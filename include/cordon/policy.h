/* cordon — the resolved policy: what the shim enforces.
 *
 * A policy is a config resolved against one session: the OS default lists
 * filled in, "~" expanded, every path made absolute and canonical, paths that
 * do not exist dropped (kept in `skipped` for explain), the project and the
 * shell dotfiles added, and the config's apply_to matched against the kind of
 * session. It is what crosses exec on CORDON_CONFIG_FD (see wire.h). */
#ifndef CORDON_POLICY_H
#define CORDON_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cordon/config.h"
#include "cordon/error.h"
#include "cordon/strv.h"

enum cordon_access {
	CORDON_ACCESS_READ = 1u << 0,
	CORDON_ACCESS_WRITE = 1u << 1, /* write, create, remove, rename, truncate */
	CORDON_ACCESS_EXEC = 1u << 2,
};
#define CORDON_ACCESS_ALL (CORDON_ACCESS_READ | CORDON_ACCESS_WRITE | CORDON_ACCESS_EXEC)

enum cordon_os {
	CORDON_OS_LINUX,
	CORDON_OS_MACOS,
};
#ifdef __APPLE__
#define CORDON_OS_NATIVE CORDON_OS_MACOS
#else
#define CORDON_OS_NATIVE CORDON_OS_LINUX
/* The config key whose paths grant WANT (one CORDON_ACCESS_* bit): READ →
 * additional_read_only_paths, WRITE → additional_read_write_paths, EXEC →
 * additional_executable_paths. */
const char *cordon_config_key_for(unsigned want);

#endif

#define CORDON_SESSION_ID_LEN 16
/* A fresh random session id: CORDON_SESSION_ID_LEN hex digits and a NUL.
 * Returns 0 or -errno. */
int cordon_session_id(char out[CORDON_SESSION_ID_LEN + 1]);

struct cordon_rule {
	char *path;      /* absolute, canonical */
	unsigned access; /* mask of enum cordon_access */
	char *source;    /* the rule that granted it: "system_paths.executable",
			    "additional_read_only_paths", "--allow-read", "project", ... */
	bool prepared;   /* Linux: already in the Landlock ruleset the session
			    watcher built and passed along (cordon_sandbox_prepare) */
	/* A system directory shared with the programs outside (system_paths
	 * read_write: /tmp, /var/tmp, /run/user/UID): no socket, symbolic
	 * link or directory from elsewhere is made or moved in there, where
	 * outside clients look for their servers. Any other grant of the
	 * same path clears it. */
	bool shared;
	/* Linux: PATH was canonical as the policy was resolved (a rule of the
	 * user's or a preset's, whose way a session may have changed since:
	 * round 34 Q5), and is opened so, following no link: one laid on its
	 * way since is not followed, and the rule is not granted. */
	bool nofollow;
	/* The rule as the user wrote it (absolute), where its way passed a
	 * link (--allow-write R/lnk, lnk -> ~/.ssh), for messages; or NULL. */
	char *written;
};

/* A pathname unix socket outside the session that may be connected to
 * (allowed_unix_sockets, --allow-socket). */
struct cordon_socket {
	char *path;   /* absolute, canonical; a socket when the policy was resolved */
	char *source; /* "allowed_unix_sockets", "--allow-socket", with "($NAME)" when
			 it came from an environment variable */
};

/* A path kept out of reach of the rules that would grant it (Linux: by the
 * mounts of the session's own mount namespace, see shim/guard.c):
 * PROTECT  read-only even beneath a writable rule, and not replaceable by
 *          rename or unlink (protected_paths, the shell dotfiles, cordon's
 *          own config);
 * HIDE     unreadable even beneath a readable rule (hidden_paths). */
enum cordon_guard_kind {
	CORDON_GUARD_PROTECT = 1,
	CORDON_GUARD_HIDE = 2,
	/* With PROTECT: a directory made (mode 0700) when missing, where the
	 * session could otherwise make it and fill it (tmux's socket
	 * directory, D-Bus's service directory in the runtime directory). */
	CORDON_GUARD_MAKE = 4,
	/* With PROTECT: written with a trailing "/" in protected_paths
	 * (".vscode/", ".envrc/"): while it is missing, an empty directory
	 * stands in for it as a session runs, so that it exists to be kept
	 * read-only, removed after when still empty
	 * (shim/linux/placeholder.c): an editor's or an agent's settings, or
	 * a .envrc, made inside would be obeyed outside. */
	CORDON_GUARD_PLACEHOLDER = 8,
};

struct cordon_guard {
	char *path; /* absolute; not canonical: "/p/.git/hooks" stays what it names */
	unsigned kind;
	char *source; /* "protected_paths (default)", "hidden_paths", "cordon's config", ... */
	/* In cordon_policy.exposed: the rule that names the hidden path
	 * itself, so that it is not hidden ("--allow-read"); in
	 * cordon_policy.unreached: the nearest directory above it that exists,
	 * resolved; else NULL. */
	char *by;
	/* A hidden path that was protected too (hidden won): the kind it had
	 * as a protected one (CORDON_GUARD_PLACEHOLDER: a stand-in while it
	 * is missing), else 0. Not sent on the wire. */
	unsigned protected_too;
};

#define CORDON_OFF_RULES     1u /* --allow-read, --allow-write, --allow-exec */
#define CORDON_OFF_ENV       2u /* --allow-env */
#define CORDON_OFF_SOCKETS   4u /* --allow-socket */
#define CORDON_OFF_TOOLCHAIN 8u /* --toolchain */

struct cordon_policy {
	bool sandbox; /* restrictions apply (enabled and apply_to covers kind) */
	bool allow_network;
	/* Network by domain (cordon/domains.h): with allow_network, TCP leaves
	 * only through the proxy the supervisor runs, to ALLOWED_DOMAINS less
	 * DENIED_DOMAINS. Only the flag crosses the wire: the lists stay with
	 * the proxy, outside. */
	bool domains;
	unsigned proxy_port; /* the proxy's, on loopback, once started (macOS profile); 0: none */
	/* Linux: the launcher started the command in a mount namespace of its
	 * own (root: clone with CLONE_NEWNS), so that the command's executable
	 * is seen through that namespace's mounts; the shim sets it up there
	 * instead of unsharing one (mountns.c, the read-only view). */
	bool mountns_made;
	/* Linux, an ordinary user: asked to start the command in a user and
	 * mount namespace of its own (mapping only its uid and gid), holding
	 * CAP_SYS_ADMIN there across its exec for the shim, which drops it
	 * (where the system refuses the namespace, the command starts without
	 * it, and the shim falls back to unsharing one). */
	bool userns_made;
	struct cordon_strv allowed_domains;
	struct cordon_strv denied_domains;
	enum cordon_on_unsupported on_unsupported;
	/* The session gets a terminal of its own, relayed by the launcher
	 * (Linux, started by the launcher, share_terminal false): the
	 * user's terminal is then no rule of it. Not sent on the wire. */
	bool own_terminal;
	char *project; /* canonical; NULL: the session has no project */
	/* Why there is no project ("/home/me is your home directory"), when
	 * the current directory was not taken as one; else NULL. Not sent on
	 * the wire: the launcher says it once. */
	char *no_project;
	/* With the sandbox off: the widening flags given (CORDON_OFF_*), which
	 * change nothing then; the launcher says so (round 37c F5). */
	unsigned off_flags;
	char *home;    /* may be NULL */
	char *session; /* session id */
	struct cordon_rule *rules;
	size_t n_rules;
	size_t rules_cap; /* slots in rules, when grown by cordon_policy_add_rule (else 0) */
	struct cordon_strv env_allow; /* names and PREFIX* patterns */
	/* The .envrc files direnv allows (its allow list) that a write rule
	 * reaches: what those below a root's top load is protected
	 * (shim/guard.c). Read as the policy is resolved, with the user's
	 * environment, once a launch. */
	struct cordon_strv envrc_allowed;
	/* From direnv's config ([whitelist] in direnv.toml), the same way:
	 * the .envrc files it runs whatever they hold (exact), and the
	 * directories below which it runs any (prefix). */
	struct cordon_strv envrc_whitelisted, envrc_prefixes;
	/* The launcher's GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM and
	 * GIT_CONFIG_COUNT pairs ("NAME=VALUE"): the config git outside reads
	 * in the user's terminal, which the guards keep (the shim's own
	 * environment is the session's, filtered). */
	struct cordon_strv git_env;
	/* hidden_paths' patterns (~/.config/APP/Cookies, APP a "*"), absolute, as the
	 * hidden list takes them: the sieve keeps from every rule what they
	 * match later, not only what they matched as the policy was
	 * resolved (those are HIDE guards). */
	struct cordon_strv hidden_globs;
	/* direnv's allow list directories (existing or not): the launcher's
	 * watch reads an entry made there while the session runs (a
	 * `direnv allow` outside). Not sent on the wire. */
	struct cordon_strv direnv_allow_dirs;
	/* oh-my-zsh's dotenv allow lists (existing or not) and the name of
	 * the file its plugin exports (.env): the same, for a directory the
	 * user allows while the session runs; and the .env files the lists
	 * named as the policy was resolved (those it kept), from which the
	 * watch tells an entry made since. Not sent on the wire. */
	struct cordon_strv omz_dotenv_lists, omz_dotenv_kept;
	char *omz_dotenv_name;
	/* Linux: each directory where names looked for above
	 * (cordon_found_above) were missing as the policy was resolved and
	 * the session could make them, with those names: not guards (each
	 * would cost its path's resolving in every plan, 3 ms a launch for
	 * 117), not paths (228 of them, each copied and looked at three
	 * times: 0.7 ms), but a directory read once where the launcher's
	 * watch and the sweep look for them. Not sent on the wire. */
	struct cordon_above *above;
	size_t n_above;
	/* The shared directories a system_paths.read_write rule makes
	 * writable, sticky (/tmp, /var/tmp, /dev/shm), where the names looked
	 * for above are kept at the top: the sweep walks each below its top
	 * as it walks the project (a repository of the user's in /tmp/work
	 * is no one's project). Not sent on the wire. */
	struct cordon_strv shared;
	/* Where the user turned the plugin's question off
	 * (ZSH_DOTENV_PROMPT=false: it then exports the .env of every
	 * directory entered), or NULL: the launcher says it. Not sent on the
	 * wire. */
	char *omz_unasked;
	struct cordon_strv skipped; /* "path (source): reason"; not sent on the wire */
	/* Entries of allowed_unix_sockets and --allow-socket that allow no
	 * socket in this session ("ORIGIN: KEY: \"$NAME\": ..."): a variable
	 * unset or empty, a path that is no socket. Unlike a missing read
	 * path, the command's connect then fails with no sign of why, and
	 * none allowed later: the launcher says each, explain lists them.
	 * Not sent on the wire. */
	struct cordon_strv sockets_unapplied;
	/* "PATH\tWHY": a write rule's directory that another mount shows in a
	 * shared directory too, or that holds a mount of one ("is also
	 * /tmp/src", "holds PATH/sub, which is also /tmp/src"), made shared
	 * for it; the launcher says it. Not sent on the wire. */
	struct cordon_strv shared_mounts;
	struct cordon_socket *sockets; /* not sent on the wire: the supervisor, outside, */
	size_t n_sockets;              /* decides (Linux); the profile (macOS) */
	size_t sockets_cap;
	/* macOS: the session's own directory for unix sockets made inside (the
	 * profile lets them be connected to), or NULL. Not on Linux, where the
	 * supervisor asks whether the listener is held inside the session. */
	char *socket_dir;
	/* Linux: the sessions' temporary directory (TMPDIR,
	 * cordon_session_tmp_dir), or NULL. Not sent on the wire: its rule is. */
	char *tmp_dir;
	char *tmp_id; /* its identity (cordon_tmp_dir_make), for the registry */
	struct cordon_guard *guards;
	size_t n_guards;
	size_t guards_cap;
	/* (cordon_policy_add_guard's index of GUARDS by path: each slot the
	 * guard's index + 1, or 0; a power of two slots, or none yet.) */
	size_t *guard_slots;
	size_t n_guard_slots;
	/* The hidden paths a rule names itself, which are therefore not hidden
	 * (kind CORDON_GUARD_HIDE, BY set). Not sent on the wire: the launcher
	 * says them, explain shows them, and neither explain nor learn proposes
	 * anything more for them. */
	struct cordon_guard *exposed;
	size_t n_exposed;
	size_t exposed_cap;
	/* The hidden paths given no guard because they are missing and no rule
	 * reaches where they would be made (BY: that place). A rule added
	 * later that reaches one (cordon learn's proposal, the history file's)
	 * guards it then: cordon_policy_add_rule. Not sent on the wire. */
	struct cordon_guard *unreached;
	size_t n_unreached;
	size_t unreached_cap;
	/* Each rule as it was written (absolute, with a "." or ".." resolved),
	 * before rules of one path were merged: explain resolves every rule
	 * path, a run only some (the kernel resolves the rest). A hidden or
	 * protected path is given up only to a rule that names it as written,
	 * in both (a rule named through a link to ~/.ssh leaves it hidden:
	 * round 33f P7). Not sent on the wire. */
	struct cordon_rule *written;
	size_t n_written;
	size_t written_cap;
	/* Each one's absolute text, "." and ".." and all (WRITTEN's indices):
	 * the way the kernel walks, links and all. */
	struct cordon_strv written_raw;
	/* Rules not granted because their path leads through a link in a
	 * directory a session may write ("PATH (SOURCE): ..."): a session
	 * could have laid it, to lead the next one's rule elsewhere. The
	 * launcher says each; explain lists them. Not sent on the wire. */
	struct cordon_strv unfollowed;
	/* (While the rules are resolved: the user's and the presets', kept
	 * for the end, shim/policy.c.) */
	struct cordon_rules_later *later;
};

struct cordon_rules_later;

/* Everything about the session that is not in the config file. */
struct cordon_context {
	const char *project; /* directory; must exist */
	/* PROJECT is the current directory, not one the user named (no
	 * --project): if it is $HOME, contains $HOME, or is a system directory
	 * (cordon_never_project), the session gets no project at all rather
	 * than all of it writable, and cordon_policy.no_project says why. A
	 * named project is taken as it is (only "/" and what is not a
	 * directory are refused). */
	bool project_from_cwd;
	const char *home; /* for "~"; NULL: "~" paths are skipped */
	/* The real uid's home in /etc/passwd (NULL: unknown). Where $HOME
	 * names another directory (a harness's, CI's, a per-tool home),
	 * hidden_paths' "~/..." entries are hidden there too: a rule reaching
	 * it (/, /home, /root) read root's real ~/.npmrc (round 37c F2). */
	const char *passwd_home;
	uid_t uid;     /* for /run/user/UID */
	unsigned kind; /* CORDON_KIND_TERMINAL or CORDON_KIND_TOOL */
	enum cordon_os os;
	const char *session;
	/* Command-line additions (--allow-exec/--allow-read/--allow-write), resolved
	 * against CWD, and --allow-env / --no-network. */
	struct cordon_strv extra[CORDON_CLASS_COUNT];
	struct cordon_strv extra_env;
	struct cordon_strv extra_sockets; /* --allow-socket */
	/* --toolchain NAME: presets added to the config's toolchains. */
	struct cordon_strv extra_toolchains;
	/* For "$NAME" socket entries: the environment the session starts from
	 * (NULL: such entries are skipped). */
	char *(*getenv_fn)(const char *);
	/* The XDG base directories earlier launches had, "VAR=PATH" each
	 * (cordon_sweep_known_xdg): guarded as this launch's are, where it
	 * lacks or changed the variable. NULL: none. */
	const struct cordon_strv *known_xdg;
	bool no_network;
	/* --allow-domain: added to allowed_domains (and the session is limited
	 * to domains, even when the config lists none). */
	struct cordon_strv extra_domains;
	const char *cwd; /* base for relative command-line paths; NULL: getcwd */
	/* Rule paths only expanded and made absolute (the project stays
	 * canonical): the kernel resolves their symlinks when the sandbox opens
	 * each one, and skips those that do not exist then. Landlock works on
	 * what a path opens to, so the rules are the same; resolving them here
	 * as well cost a launch ~60 readlinks. Never for Seatbelt, whose rules
	 * are paths, nor where rules are compared as text (explain, learn). */
	bool kernel_resolves;
	/* Make a preset's read-write paths that are missing (under the home,
	 * in a tool home that exists) before resolving: `cordon run` sets it;
	 * explain and check only show. See cordon_toolchain_make. */
	bool make_toolchain_dirs;
	/* The terminals the session starts on (ttyname of stdin, stdout and
	 * stderr; NULL-terminated, may be NULL): read-write, and no other of
	 * /dev/pts (Linux), so that nothing inside opens another terminal of
	 * the user's. Ptys made inside come from the supervisor (TIOCGPTPEER). */
	const char *const *ttys;
	/* None of stdin, stdout and stderr is a terminal (a launch's; explain
	 * and check say what their caller's would get): /dev/tty, the
	 * caller's controlling terminal, gets no rule of system_paths', so
	 * that nothing inside reads what is typed there, changes its modes
	 * or moves its foreground (round 59a F1). A rule of the user's naming
	 * it stands. */
	bool no_tty;
	/* The launcher starts the session (run, and what explain and check
	 * show of it): it can give it a terminal of its own (own_terminal),
	 * which standalone mode (the shim alone) cannot. */
	bool relays;
};

/* The built-in defaults. */
extern const char *const cordon_default_env[];
/* The OS default list for class C, with "/run/user/UID" filled in. */
int cordon_default_paths(enum cordon_os os, enum cordon_class c, uid_t uid,
			 struct cordon_strv *out);
/* The terminal on stdin, stdout or stderr of the calling process that is
 * a pty (/dev/pts/N), each once, into OUT (at most 3; NULL-terminated,
 * malloc'd strings). */
void cordon_session_ttys(char *out[4]);

/* Shell dotfiles under $HOME that are readable, never writable. */
extern const char *const cordon_dotfiles[];
/* What programs outside run or load from the home besides the dotfiles
 * ("~/..."): startup files of debuggers, editors and REPLs, toolchains'
 * program directories and the files a login sources from them, Python's
 * user site. Read-only where a rule makes them writable, unless a write
 * rule names one itself. */
extern const char *const cordon_home_code[];
/* shim/homes.c. ENTRY ("~/.config/...", "~/.local/share/...",
 * "~/.cache/...", "~/.local/state/...") where $XDG_CONFIG_HOME (and the
 * rest) moves it: pushed into OUT when CTX's variable is an absolute path
 * other than the usual one, and where CTX's known_xdg (earlier launches')
 * moved it, to a directory that is there. 0 or -ENOMEM. */
int cordon_home_xdg(const char *entry, const char *home, const struct cordon_context *ctx,
		    struct cordon_strv *out);
/* Each entry of LIST, then where XDG moves it (cordon_home_xdg). */
int cordon_home_xdg_list(const char *const *list, const char *home,
			 const struct cordon_context *ctx, struct cordon_strv *out);
/* Where a tool's own variable moved the hidden_paths ENTRY ("~/.kube":
 * each absolute path of $KUBECONFIG): into PATHS, and a label for each
 * into WHY (may be NULL). 0 or -ENOMEM. */
int cordon_home_moved(const char *entry, char *(*getenv_fn)(const char *),
		      struct cordon_strv *paths, struct cordon_strv *why);
/* Whether ENTRY is a pattern (*, ?, [...]), and what PATTERN (absolute;
 * the directories pasted in before the entry's own text escaped:
 * cordon_glob_escape) matches now, with AS_WRITTEN (the same path
 * unescaped, may be NULL) where a name is that text, into OUT. 0 or
 * -ENOMEM. */
bool cordon_home_pattern(const char *entry);
int cordon_home_glob(const char *pattern, const char *as_written, struct cordon_strv *out);
/* LITERAL with "*", "?", "[" and "\" escaped (a home, a project, a
 * directory a variable names, put before a pattern's own text), into OUT
 * (SIZE bytes); false when it does not fit. */
bool cordon_glob_escape(const char *literal, char *out, size_t size);
/* The first N bytes of IN (or up to its end) without the escapes, into
 * OUT (SIZE bytes); false when they do not fit. */
bool cordon_glob_unescape(const char *in, size_t n, char *out, size_t size);
/* Whether the N bytes of a pattern's part PART hold no pattern (escapes
 * taken as fnmatch takes them). */
bool cordon_glob_literal_part(const char *part, size_t n);
/* How PATH (absolute) meets the pattern GLOB (absolute), part by part
 * (fnmatch, no FNM_PERIOD: "*" matches a name that starts with a dot):
 * NONE; ABOVE, each of PATH's parts matches and GLOB has more (a match
 * could lie beneath PATH); AT, PATH is a match; BELOW, PATH lies beneath
 * one. */
enum cordon_glob_meet { CORDON_GLOB_NONE, CORDON_GLOB_ABOVE, CORDON_GLOB_AT, CORDON_GLOB_BELOW };
enum cordon_glob_meet cordon_glob_meet(const char *glob, const char *path);
/* UID's entry in /etc/passwd, read directly (no NSS modules: loaded into
 * the program the shim is preloaded in, or into the static launcher, they
 * would be the wrong C library's): its home into *DIR and its shell into
 * *SHELL (may be NULL), each malloc'd or NULL. 0, or -ENOENT (none). */
int cordon_passwd_entry(uid_t uid, char **dir, char **shell);
/* UID's home from cordon_passwd_entry: malloc'd, or NULL (none, not
 * absolute, out of memory). */
char *cordon_passwd_home(uid_t uid);

/* The defaults of protected_paths (relative to the project) and
 * hidden_paths ("~/..."). NULL-terminated. */
extern const char *const cordon_default_protected[];
extern const char *const cordon_default_hidden[];
/* The names a program run in a directory looks for in each directory
 * above it, and obeys there (CORDON_GUARD_ABOVE). NULL-terminated, sorted
 * by strcmp, CORDON_FOUND_ABOVE_MAX at most. */
extern const char *const cordon_found_above[];
#define CORDON_FOUND_ABOVE_MAX 128
/* A set of cordon_found_above's names: bit K for the Kth. */
typedef struct {
	uint64_t bits[CORDON_FOUND_ABOVE_MAX / 64];
} cordon_above_set;
static inline bool cordon_above_has(const cordon_above_set *s, size_t k)
{
	return (s->bits[k / 64] >> (k % 64)) & 1;
}
static inline void cordon_above_add(cordon_above_set *s, size_t k)
{
	s->bits[k / 64] |= (uint64_t)1 << (k % 64);
}
/* Which of cordon_found_above are entries of DIR now, into PRESENT
 * (cleared first; one read of the directory). 0, or -errno. */
int cordon_found_above_in(const char *dir, cordon_above_set *present);
/* Whether NAME, an entry of a directory whose own name is DIR ("": not
 * looked at), is a file of one of mise's config environments, as mise
 * names them: mise.ENV.toml or .mise.ENV.toml anywhere (.config's too),
 * config.ENV.toml in a directory "mise"; each with its .local form. ENV
 * into OUT (SIZE bytes; may be NULL): "" for mise.local.toml and the
 * like, which are no environment's. */
bool cordon_mise_env_file(const char *dir, const char *name, char *out, size_t size);
/* The end of the source of the guards on an environment no setting named
 * whose file was there as the session started (a session killed before
 * its end may have made it: the next one's end judges it then). */
#define CORDON_MISE_FOUND ", whose file was there"
/* NAME's index in cordon_found_above, or -1. */
ssize_t cordon_found_above_index(const char *name);
/* Whether NAME, one of cordon_found_above, of MODE is in a form no
 * program obeys, left where it is: a directory at .envrc (direnv and its
 * source_up read a file; an empty directory is the stand-in a session
 * keeps read-only at the top of a root, /tmp made writable by
 * --allow-write, which a session beside it took for one made). */
bool cordon_found_above_inert(const char *name, mode_t mode);
/* EACH(path, index, ARG) for each name of AMONG that is an entry of DIR
 * now (DIR read once; one it cannot read, mode 1733, gives each name of
 * AMONG). The sum of what EACH returned. */
int cordon_found_above_each(const char *dir, const cordon_above_set *among,
			    int (*each)(const char *path, size_t k, void *arg), void *arg);
/* A directory where names looked for above were missing: MISSING. */
struct cordon_above {
	char *dir;
	cordon_above_set missing;
};

/* Add a guard (copies PATH and SOURCE; a path already guarded keeps its
 * first entry). Returns 0 or -ENOMEM. */
int cordon_policy_add_guard(struct cordon_policy *p, const char *path, unsigned kind,
			    const char *source);
/* P's guard at PATH itself (as the guard names it), or NULL. */
const struct cordon_guard *cordon_policy_guard(const struct cordon_policy *p, const char *path);
/* The hidden_paths entry PATH (absolute) is, or is beneath, or NULL: a
 * credential store, which explain and learn never propose to allow. One a
 * rule exposes counts too (its BY is set then). */
const struct cordon_guard *cordon_policy_hidden(const struct cordon_policy *p, const char *path);
/* The hidden_paths entry that does not exist yet, and that no rule reaches
 * (cordon_policy.unreached), PATH is or is beneath, or NULL: a credential
 * store too, never proposed (review 45b F3: explain proposed a missing
 * ~/.ssh/id_ed25519). */
const struct cordon_guard *cordon_policy_hidden_unmade(const struct cordon_policy *p,
						       const char *path);

/* Why DIR (absolute, canonical) is never the project when it is only the
 * current directory: "is your home directory", "contains your home
 * directory", "is a system directory"; NULL when it may be. HOME may be
 * NULL. System directories are, at or under: /usr /etc /proc /sys /dev
 * /boot /bin /sbin /lib* /snap and /var/{lib,cache,log,spool,mail,backups}
 * (macOS: /System /Library /private/etc); exactly: / /var /opt /srv /run
 * /home /mnt /media /root (macOS: /Users /Volumes /private /private/var). */
const char *cordon_never_project(const char *dir, const char *home);
/* R is a directory the user made writable besides the project
 * (additional_read_write_paths, --allow-write, or a repository above the
 * project a write rule reaches: CORDON_ROOT_ABOVE), not in the project,
 * neither the home nor a system directory: the protected paths are kept
 * in it, and the sweep walks it, as in the project. */
bool cordon_policy_writable_root(const struct cordon_policy *p, const struct cordon_rule *r);

/* A rule the user wrote (--allow-*, additional_*, a system_paths list of
 * the config's own), not a default's or a preset's. */
bool cordon_policy_users_rule(const struct cordon_rule *r);

/* Resolve CFG for CTX into OUT (zeroed first; freed on error). Refused:
 * a project that is / or not a directory, and a write rule on / (the
 * sandbox would allow everything). */
int cordon_policy_resolve(const struct cordon_config *cfg, const struct cordon_context *ctx,
			  struct cordon_policy *out, struct cordon_error *err);
void cordon_policy_free(struct cordon_policy *p);

/* CFG's denied_domains with no allowed_domains, the sandbox on and the
 * network on, for a session of KIND given no --allow-domain (EXTRA 0):
 * refused, into ERR (-EINVAL), as cordon_policy_resolve refuses it (the
 * proxy that refuses hosts runs only for an allowed list); else 0. */
int cordon_policy_denied_alone(const struct cordon_config *cfg, unsigned kind, size_t extra,
			       struct cordon_error *err);

/* Drop the guards whose path, or what it resolves to, is in PATHS (explain
 * inside another session, for those the outer one does not keep). */
void cordon_policy_drop_guards(struct cordon_policy *p, const struct cordon_strv *paths);

/* Add an allowed socket (copies PATH and SOURCE). Returns 0 or -ENOMEM. */
int cordon_policy_add_socket(struct cordon_policy *p, const char *path, const char *source);

/* Add a rule (copies PATH and SOURCE). A PATH already ruled (the same
 * string: with canonical paths, the same file) gets the union of the
 * accesses, and the source of the rule that grants the most. Returns 0 or
 * -ENOMEM. */
int cordon_policy_add_rule(struct cordon_policy *p, const char *path, unsigned access,
			   const char *source);

/* Access PATH (absolute, canonical) gets: the union of every rule on it or on
 * one of its parents. *WHY, if not NULL, is set to the rule granting the most
 * (the first of the longest match), or NULL. */
unsigned cordon_policy_access(const struct cordon_policy *p, const char *path,
			      const struct cordon_rule **why);

/* Whether PATH is DIR or beneath it (both absolute; "/" holds everything). */
bool cordon_path_under(const char *path, const char *dir);

/* The source of the guards on outside servers' socket directories in /tmp
 * (tmux's is made, mode 0700, when missing: shim/guard.c). */
#define CORDON_GUARD_SERVERS "outside servers' sockets"
/* The source of the rule on the sessions' TMPDIR (Linux:
 * cordon_session_tmp_dir). */
#define CORDON_TMPDIR_SOURCE "the session's temporary directory"
/* The source of the pins on write rules in a shared directory (guard.c
 * pin_in_shared). */
#define CORDON_GUARD_IN_SHARED "a place for sockets in a shared directory"
/* The source of the guards on what a login or the desktop runs from the
 * home (~/.local/bin, systemd user units, ...). */
#define CORDON_GUARD_HOME_CODE "what runs from the home"
/* The source of the guards on what a dotfile names as code (shim/
 * dotfile-refs.c), followed by the dotfile's name ("named by ~/.bashrc"). */
#define CORDON_GUARD_NAMED "named by "
/* The source of the guards on the names a program looks for in the
 * directories above where it runs (cordon_found_above), in a shared
 * directory a write rule reaches (/tmp) and in each of its directories
 * above the project. */
#define CORDON_GUARD_ABOVE "looked for above"
/* The source of the rule that makes a repository above the project, which
 * a write rule reaches, a root the user made writable. */
#define CORDON_ROOT_ABOVE "a repository above the project"

/* "rwx"-style text for an access mask ("r-x", "---"). BUF is at least 4 bytes. */
const char *cordon_access_str(unsigned access, char buf[4]);

/* Expand "~" / "~/..." with HOME, make IN absolute against BASE, and
 * canonicalize it (realpath). Returns 0 with *OUT set, -ENOENT (or another
 * -errno) when it cannot be resolved; *OUT untouched on failure. */
int cordon_path_resolve(const char *in, const char *home, const char *base, char **out);

/* Directories already found to be real (not symlinks) while resolving one
 * batch of paths: each is asked about once, not once per path under it. */
struct cordon_path_cache {
	/* Sets of paths (open addressing; zeroed: empty): the directories
	 * found real, and the prefixes found missing (ENOENT: a path beneath
	 * one is missing too, without asking the kernel again; forgotten once
	 * cordon has made a directory since, cordon_path_made). */
	struct cordon_path_set {
		char **v;
		size_t *len; /* each one's length */
		size_t n, cap;
	} dirs, miss;
	unsigned gen;
};
void cordon_path_cache_free(struct cordon_path_cache *c);
/* PATH (absolute, canonical or not) was found a real directory, no
 * symbolic link, by a resolution through CACHE (NULL: none). */
bool cordon_path_cache_dir(const struct cordon_path_cache *c, const char *path);
/* PATH (absolute, with no link on its way) was found missing by such a
 * resolution, and cordon has made nothing since. */
bool cordon_path_cache_missing(struct cordon_path_cache *c, const char *path);
/* Said after cordon makes a directory: what path caches took for missing
 * is asked again. */
void cordon_path_made(void);

/* The nearest entry at or above PATH (absolute) that exists, a final link
 * not followed, into OUT (SIZE bytes), with its lstat in *ST: 0, or -errno
 * (-ENOENT where none does, -ENAMETOOLONG). */
int cordon_path_nearest(const char *path, char *out, size_t size, struct stat *st);
/* The same, without the lstat, asking the kernel only about what CACHE
 * does not tell. */
int cordon_path_nearest_cached(struct cordon_path_cache *c, const char *path, char *out,
			       size_t size);

/* Only the first steps of cordon_path_resolve: "~" expanded and IN made
 * absolute against BASE (a fresh string in *OUT); nothing is asked of the
 * kernel. -ENOENT where there is no home to expand or no absolute base. */
int cordon_path_absolute(const char *in, const char *home, const char *base, char **out);

/* PATH (absolute) has a "." or ".." among its names, or an empty one
 * (a "//"; a final "/" too): its text is not what it names. */
bool cordon_path_dotted(const char *path);
/* PATH (absolute) with its "." and ".." names and empty ones taken away
 * by their text, as if no name on the way were a link (malloc'd; NULL:
 * out of memory). */
char *cordon_path_lexical(const char *path);

/* PATH (absolute, "." and ".." taken away) names a descriptor:
 * /dev/std{in,out,err}, /dev/fd/N, /proc/{self,thread-self,PID}/fd/N (and
 * a task's), or lies below one. */
bool cordon_path_descriptor_name(const char *path);
/* PATH (absolute) through one of this process's descriptors (/dev/fd/9,
 * /proc/self/fd/9/cordon), or anything else in /proc, by its text or a
 * link on its way (/proc/self/root/dev/fd/9, a link to /dev/fd/9): the
 * file or directory it leads to now, by its path, into *OUT (malloc'd):
 * 1. 0 (*OUT NULL) where PATH meets no /proc; -EBADF where it leads to no
 * path outside /proc (a pipe, a closed descriptor, /proc/cpuinfo). */
int cordon_path_past_descriptor(const char *path, char **out);

/* cordon_path_resolve, remembering directories in CACHE (NULL: none). */
int cordon_path_resolve_cached(const char *in, const char *home, const char *base,
			       struct cordon_path_cache *cache, char **out);

/* The .envrc path direnv's allow list entry NAME in DIR (one of
 * P->direnv_allow_dirs) holds, into OUT (SIZE bytes): 1 where a write rule
 * of P reaches it (it can lie below a root), 0 where not, or where the
 * entry is no regular file. */
int cordon_policy_direnv_entry(const struct cordon_policy *p, const char *dir, const char *name,
			       char *out, size_t size);
/* The .env (P->omz_dotenv_name) of each directory oh-my-zsh's dotenv
 * allow list LIST names that a write rule of P reaches (as named or as
 * resolved), pushed to OUT once each: 0 or -ENOMEM. */
int cordon_policy_omz_envs(const struct cordon_policy *p, const char *list,
			   struct cordon_strv *out);

#endif
