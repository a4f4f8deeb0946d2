/* Internal interface of the `cordon` program: one function per subcommand,
 * plus the policy set-up they share. */
#ifndef CORDON_LAUNCHER_H
#define CORDON_LAUNCHER_H

#include <stdio.h>

#include "args.h"
#include "cordon/error.h"
#include "cordon/policy.h"

/* Load the config the arguments select and resolve it for this session into
 * P (kind, project, command-line additions). SESSION may be NULL. ORIGIN, if
 * not NULL, receives the config's file name (malloc'd). ENFORCE: the policy
 * only goes to the sandbox (run), so on Linux the kernel may resolve rule
 * paths itself (see cordon_context.kernel_resolves); explain and learn show
 * and compare canonical paths. */
int launcher_policy(const struct cordon_args *a, const char *session, bool enforce,
		    struct cordon_policy *p, struct cordon_error *err, char **origin);

/* Every name the launch takes from its arguments and environment that goes
 * through one of cordon's own descriptors (--config /dev/fd/7,
 * XDG_CONFIG_HOME=/proc/self/fd/9, --allow-write /dev/fd/9): replaced by
 * the path it leads to. The session, which has not those descriptors,
 * found nothing at such a name, so cordon guarded nothing there: its
 * config, written inside, was obeyed by the next session (round 40b F1),
 * and a write rule was explained but not applied (F3). A config, project
 * or variable that leads to no path is refused. */
int launcher_unpin_names(struct cordon_args *a, struct cordon_error *err);

/* Absolute form of PATH ("~" expanded with HOME, may be NULL): canonical
 * if it exists, else its longest existing parent made canonical with the
 * rest appended. malloc'd, or NULL when out of memory. */
char *launcher_absolute(const char *path, const char *home);

/* Inside another session (nested): the outer session's socket directory
 * ($TMUX_TMPDIR, as it passed) read-write, where servers started inside
 * keep their sockets, and TMUX_TMPDIR set to it in ENV (NULL: explain,
 * only the rule). Returns 0 or -ENOMEM. */
int launcher_outer_sockets(struct cordon_policy *p, struct cordon_strv *env);
/* NAME=VALUE in ENV, in place of NAME where it passed the filter. Returns
 * 0 or -ENOMEM. */
int launcher_env_set(struct cordon_strv *env, const char *name, const char *value);
/* NAME's value in ENV, or NULL. */
const char *launcher_env_get(const struct cordon_strv *env, const char *name);

/* For each hidden path a rule of P names itself (so that it is not hidden
 * in this session), one line on stderr saying so. */
void launcher_say_exposed(const struct cordon_policy *p);
/* Each rule not granted because it leads through a link a session could
 * lay, in one line. */
void launcher_say_unfollowed(const struct cordon_policy *p);
/* Each allowed_unix_sockets or --allow-socket entry that allows no socket
 * (its variable unset or empty, no socket there), in one line. */
void launcher_say_sockets_unapplied(const struct cordon_policy *p);

/* When the user told oh-my-zsh's dotenv plugin not to ask before it
 * exports a .env (P->omz_unasked), one line on stderr saying what cordon
 * keeps for it. */
void launcher_say_omz_unasked(const struct cordon_policy *p);
/* Each write rule made shared because another mount shows its directory in
 * a shared one (policy.c share_mounted_in_shared), one line each. */
void launcher_say_shared_mounts(const struct cordon_policy *p);

/* When P is sandboxed without a project (the current directory is $HOME,
 * contains it, or is a system directory), say so on stderr in one line. */
void launcher_say_no_project(const struct cordon_policy *p);

/* With P's sandbox off, the widening flags given (P->off_flags), which
 * change nothing then, in one line on stderr (round 37c F5). */
void launcher_say_off_flags(const struct cordon_policy *p);

/* The user's home: $HOME if absolute, else the passwd entry. NULL if none. */
const char *launcher_home(void);
/* The passwd entry's home, whatever $HOME says. NULL if none. */
const char *launcher_passwd_home(void);
/* $SHELL if absolute, else the passwd entry's shell, else /bin/sh. */
const char *launcher_login_shell(void);

/* Keep shell history per project: make (0700) the project's directory under
 * $XDG_STATE_HOME/cordon/history (~/.local/state by default; "no-project"
 * when P has none), grant it read-write ("history"), and point the shells
 * at it in ENV: HISTFILE (bash, zsh; named after CMD's shell, else the
 * login shell), ZDOTDIR (a .zshenv that reads the user's own),
 * CORDON_HISTORY_DIR. What the shells keep and run (zsh's compinit dump,
 * CORDON_ZCOMPDUMP; fish's data directory, XDG_DATA_HOME when CMD is fish)
 * goes to the session's own directory, $XDG_STATE_HOME/cordon/shell/SESSION
 * (CORDON_SHELL_DIR), written by no other session: OWN, which
 * launcher_history_end removes as the session ends. ENV NULL (explain):
 * only the rules, nothing made. Returns 0 or a negative errno with ERR
 * filled. */
struct launcher_shell_dir {
	char *dir; /* NULL: none made */
	int lock;  /* held while the session lives; -1 */
	struct launcher_fish {
		char *hist;      /* the project's history directory, or NULL */
		long long from;  /* its fish_history's size as the session started */
		long long since; /* the session's start (s) */
	} fish;
	char *fish_note; /* DIR.fish (launcher_fish_note_write), or NULL */
};
int launcher_history(struct cordon_policy *p, const char *cmd, const char *session,
		     struct cordon_strv *env, struct launcher_shell_dir *own,
		     struct cordon_error *err);
void launcher_history_end(struct launcher_shell_dir *own);
/* HIST/fish/fish_history (HIST: a project's history directory), made if
 * missing, opened read-write through no link; a regular file's fd, or
 * -errno. */
int launcher_fish_history_open(const char *hist);
/* The file HF hard-linked as FISH_DIR/fish_history; 0 or -errno. */
int launcher_fish_history_link(int hf, const char *fish_dir);
/* At the session's end: what fish saved in the session's own directory
 * (OWN_DIR, an fd) alone, appended to F's history; a line on stderr when
 * it cannot be. */
void launcher_fish_history_end(int own_dir, const struct launcher_fish *f);
/* F written to NOTE (made, not there before); 0 or -errno. */
int launcher_fish_note_write(const char *note, const struct launcher_fish *f);
/* The note NAME in the directory TOP read, and launcher_fish_history_end
 * run with it for the own directory OWN_DIR (a killed launcher's), where
 * it names a directory in HISTORY (the state directory's history). */
void launcher_fish_note_end(int top, const char *name, int own_dir, const char *history);

int cmd_run(const struct cordon_args *a);
/* cmd_run in learn mode: LIB (libcordon-learn.so) is preloaded into every
 * process and records denied accesses to FD. */
struct run_learn {
	const char *lib;
	int fd;           /* the record, O_WRONLY|O_APPEND: the command inherits it */
	const char *file; /* the record's path: the one file the session may write more */
	/* What learn may trust: the supervisor's and the proxy's own record of
	 * what they refused, and the launcher's; never the command's. */
	int sup_fd;
};
int cmd_run_learn(const struct cordon_args *a, const struct run_learn *learn);
int cmd_learn(const struct cordon_args *a);
/* Learn mode, CANON (the command, canonical) not executable under P: record
 * the denial on FD (the supervisor's record) and add the executable rule learn will propose for it,
 * so that this one run sees what the command does next. 0, or -1 when
 * nothing may be proposed (the command is then refused as in a run). */
int learn_allow_command(struct cordon_policy *p, const char *canon, int fd);
/* The shim's path: $CORDON_SHIM, ../lib/libcordon.so next to this program,
 * or the install libdir. *OUT is malloc'd. */
int launcher_find_shim(char **out, struct cordon_error *err);
int cmd_explain(const struct cordon_args *a);
int cmd_check(const struct cordon_args *a);
/* For cmd_check: the PATH entries and shell rc references (~/.bashrc, ...)
 * that will not execute under the policy A selects, one line each, and the
 * config line that fixes them (CFG: the config it came from, whose lists
 * the line extends). Prints nothing when everything executes. */
void check_toolchains(const struct cordon_args *a, const struct cordon_config *cfg);
/* For an interactive shell: one line on stderr naming the PATH entries and
 * rc-file references the policy of A does not let execute (the shell's rc files would say
 * "Permission denied" next), with the config line that fixes them; nothing
 * when all execute or none can be suggested. */
void launcher_toolchain_hint(const struct cordon_args *a);
/* One line on stderr for each git config the session of P reads (global,
 * the project's) that holds a credential: a password or token in a URL,
 * an Authorization header (launcher/git-tokens.c). */
struct cordon_policy;
void launcher_git_tokens(const struct cordon_policy *p);
int cmd_list(const struct cordon_args *a);
int cmd_ps(const struct cordon_args *a);
int cmd_kill(const struct cordon_args *a);

/* Print "cordon: MSG" on stderr. */
void launcher_error(const struct cordon_error *err);

/* A terminal whose shell could not start (a broken config, a refusal) would
 * close before its message can be read: tmux, an editor's panel. When both
 * stdin and stderr are a terminal, say so and wait for Enter (or the
 * terminal closing) before the caller exits. */
void launcher_hold_terminal(void);

/* Print `"KEY": ["PATH"]` with PATH as a JSON string (quotes, backslashes
 * and control characters escaped): a line to paste into a config. */
void launcher_print_config_line(FILE *f, const char *key, const char *path);

#endif
