/* Shell history and shell state that survive a session: a directory per
 * project under $XDG_STATE_HOME/cordon/history (outside the project, apart
 * from the user's own history), read-write to the session, and the
 * environment that points bash, zsh and fish at it. Inside, the home and
 * the dotfiles are read-only, so without it bash silently saved nothing,
 * zsh and fish complained, and zsh's compinit printed 30 lines at every
 * start (it could not write ~/.zcompdump). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "cordon/sweep.h"
#include "launcher.h"
#include "util.h"

/* zsh reads $ZDOTDIR/.zshenv first: this one hands startup back to the
 * user's own files (~/.zshrc is read as always) and makes compinit keep its
 * dump in the session's own directory unless the caller names one (-d).
 * Plain compinit takes no variable for its dump file, and writes it next
 * to ~/.zshrc. compinit sources the dump: it is never in the project's
 * history directory, which every session of the project writes. A fresh
 * one starts from the user's own dump (~/.zcompdump, as trusted as
 * ~/.zshrc), which compinit checks and rebuilds when stale. In a session
 * inside another the outer session's dump is read-only: -w cannot tell
 * (Landlock is not in access(2)), and a failed write prints ~30 lines. */
static const char zshenv[] =
	"# Written by cordon at every session start; zsh in a cordon session reads it\n"
	"# first (ZDOTDIR points here). It hands startup back to your own files and\n"
	"# keeps compinit's dump in the session's own directory, $CORDON_ZCOMPDUMP.\n"
	"if [[ -n ${CORDON_USER_ZDOTDIR-} ]]; then\n"
	"\tZDOTDIR=$CORDON_USER_ZDOTDIR\n"
	"else\n"
	"\tunset ZDOTDIR\n"
	"fi\n"
	"unset CORDON_USER_ZDOTDIR\n"
	"compinit() {\n"
	"\tunfunction compinit\n"
	"\tautoload -Uz compinit\n"
	"\tlocal d=${CORDON_ZCOMPDUMP-}\n"
	"\tif [[ -z $d || ${@[(I)-d]} -ne 0 ]]; then\n"
	"\t\tcompinit \"$@\"\n"
	"\telif [[ -f $d ]] && ! { : >>$d } 2>/dev/null; then\n"
	"\t\tcompinit -C -d \"$d\" \"$@\"\n"
	"\telif ! { : >>$d } 2>/dev/null; then\n"
	"\t\tcompinit -D \"$@\"\n"
	"\telse\n"
	"\t\tif [[ ! -s $d && -f ${ZDOTDIR:-$HOME}/.zcompdump ]]; then\n"
	"\t\t\tcommand cp -- \"${ZDOTDIR:-$HOME}/.zcompdump\" \"$d\" 2>/dev/null\n"
	"\t\tfi\n"
	"\t\tcompinit -d \"$d\" \"$@\"\n"
	"\tfi\n"
	"}\n"
	"if [[ -r ${ZDOTDIR:-$HOME}/.zshenv ]]; then\n"
	"\tbuiltin source \"${ZDOTDIR:-$HOME}/.zshenv\"\n"
	"fi\n";

/* mkdir -p PATH, each directory made 0700 (the XDG base directory spec's
 * mode for $XDG_STATE_HOME; history is private). */
static int make_dirs(char *path)
{
	for (char *s = strchr(path + 1, '/');; s = strchr(s + 1, '/')) {
		if (s)
			*s = '\0';
		int r = mkdir(path, 0700);
		int e = errno;
		if (s)
			*s = '/';
		if (r < 0 && e != EEXIST)
			return -e;
		if (!s)
			return 0;
	}
}

/* PATH holds CONTENT, rewritten (through a temporary and a rename) when it
 * does not. */
static int write_if_changed(const char *path, const char *content)
{
	size_t n = strlen(content);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		char buf[sizeof(zshenv) + 1];
		ssize_t got = read(fd, buf, sizeof(buf));
		close(fd);
		if (got == (ssize_t)n && memcmp(buf, content, n) == 0)
			return 0;
	}
	cleanup_free char *tmp = NULL;
	if (asprintf(&tmp, "%s.%ld", path, (long)getpid()) < 0)
		return -ENOMEM;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	bool ok = write(fd, content, n) == (ssize_t)n;
	int e = errno;
	if (close(fd) < 0 && ok) {
		ok = false;
		e = errno;
	}
	if (ok && rename(tmp, path) < 0) {
		ok = false;
		e = errno;
	}
	if (!ok) {
		unlink(tmp);
		return -(e ? e : EIO);
	}
	return 0;
}

/* The project's directory name: its last component (letters, digits, ".",
 * "_", "-"; the rest "_"; at most 32) and 12 hex digits of a 64-bit FNV-1a
 * hash of its canonical path, so two projects named alike stay apart. */
static int project_name(const char *project, char **out)
{
	if (!project)
		return (*out = strdup("no-project")) ? 0 : -ENOMEM;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (const char *c = project; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	const char *base = strrchr(project, '/');
	base = base && base[1] ? base + 1 : "root";
	char name[33];
	size_t n = 0;
	for (; n < sizeof(name) - 1 && base[n]; n++) {
		char c = base[n];
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		name[n] = (char)(keep ? c : '_');
	}
	name[n] = '\0';
	if (name[0] == '.')
		name[0] = '_'; /* not hidden */
	return asprintf(out, "%s-%012llx", name, (unsigned long long)(h >> 16)) < 0 ? -ENOMEM : 0;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Inside another session, whose state directory is read-only: the outer
 * session's history directory (CORDON_HISTORY_DIR, where it passed), the
 * one the user's history of this project already is in, and the outer
 * session's own directory (CORDON_SHELL_DIR), read-only: what the outer
 * session wrote there, this narrower one may run. */
static int nested_history(struct cordon_policy *p, const char *cmd, struct cordon_strv *env)
{
	const char *dir = getenv("CORDON_HISTORY_DIR");
	if (!dir || dir[0] != '/')
		return 0;
	if (!env)
		return cordon_policy_add_rule(p, dir, CORDON_ACCESS_ALL, "history");
	const char *shell = base_name(cmd);
	if (strcmp(shell, "bash") != 0 && strcmp(shell, "zsh") != 0 && strcmp(shell, "fish") != 0)
		shell = base_name(launcher_login_shell());
	const char *own = getenv("CORDON_SHELL_DIR");
	if (own && own[0] != '/')
		own = NULL;
	cleanup_free char *histfile = NULL;
	cleanup_free char *dump = NULL;
	if (asprintf(&histfile, "%s/%s_history", dir, shell) < 0 ||
	    launcher_env_set(env, "HISTFILE", histfile) < 0 ||
	    launcher_env_set(env, "CORDON_HISTORY_DIR", dir) < 0 ||
	    (own && (asprintf(&dump, "%s/zcompdump", own) < 0 ||
		     launcher_env_set(env, "CORDON_SHELL_DIR", own) < 0 ||
		     launcher_env_set(env, "CORDON_ZCOMPDUMP", dump) < 0 ||
		     (strcmp(base_name(cmd), "fish") == 0 &&
		      launcher_env_set(env, "XDG_DATA_HOME", own) < 0))) ||
	    cordon_policy_add_rule(p, dir, CORDON_ACCESS_ALL, "history") < 0)
		return -ENOMEM;
	/* fish's history file there, a hard link to the project's (or the
	 * outer fish's own since it rewrote it, which the outer launcher
	 * merges): written, as the project's may be. */
	cleanup_free char *fish = NULL;
	struct stat st;
	if (own && strcmp(base_name(cmd), "fish") == 0 &&
	    asprintf(&fish, "%s/fish/fish_history", own) >= 0 && lstat(fish, &st) == 0 &&
	    S_ISREG(st.st_mode) &&
	    cordon_policy_add_rule(p, fish, CORDON_ACCESS_READ | CORDON_ACCESS_WRITE, "history") <
		    0)
		return -ENOMEM;
	return 0;
}

/* PATH (the session's own directory) removed, and with it the
 * launch's note that a session may write it (shim/sweep.c): no link laid
 * there is left, and no later session is given that path (a random id),
 * so the note would only pile up, one per session. */
static void remove_own(const char *path)
{
	cleanup_free char *canon = realpath(path, NULL);
	cordon_remove_tree(path);
	struct stat st;
	if (lstat(path, &st) < 0 && errno == ENOENT && canon)
		cordon_sweep_unnote(canon);
}

/* The directories in TOP (STATE/cordon/shell) of sessions gone: no process
 * holds the lock of its launcher (killed before it removed its own), and
 * older than a minute (a launch between its mkdir and its flock); what
 * fish saved in one first merged into a directory of HISTORY
 * (STATE/cordon/history). */
static void sweep_shell_dirs(const char *top, const char *history)
{
	int fd = open(top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	time_t now = time(NULL);
	for (struct dirent *e; (e = readdir(d));) {
		char id[CORDON_SESSION_ID_LEN + 8];
		struct stat st;
		size_t n = strlen(e->d_name);
		/* A fish note (launcher/fish-history.c) whose directory is gone. */
		if (n == CORDON_SESSION_ID_LEN + 5 && strcmp(e->d_name + n - 5, ".fish") == 0) {
			snprintf(id, sizeof(id), "%.*s", (int)(n - 5), e->d_name);
			if (cordon_session_id_valid(id) &&
			    fstatat(dirfd(d), id, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
			    errno == ENOENT &&
			    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    now - st.st_mtime > 60)
				(void)unlinkat(dirfd(d), e->d_name, 0);
			continue;
		}
		if (!cordon_session_id_valid(e->d_name))
			continue;
		int sub = openat(dirfd(d), e->d_name,
				 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		cleanup_free char *path = NULL;
		if (fstat(sub, &st) == 0 && st.st_uid == geteuid() && now - st.st_mtime > 60 &&
		    flock(sub, LOCK_EX | LOCK_NB) == 0 &&
		    asprintf(&path, "%s/%s", top, e->d_name) > 0) {
			/* What its fish saved alone, first (round 39a L1). */
			snprintf(id, sizeof(id), "%s.fish", e->d_name);
			launcher_fish_note_end(dirfd(d), id, sub, history);
			remove_own(path);
			(void)unlinkat(dirfd(d), id, 0);
		}
		close(sub);
	}
	closedir(d);
}

void launcher_history_end(struct launcher_shell_dir *own)
{
	if (own->fish.hist && own->lock >= 0)
		launcher_fish_history_end(own->lock, &own->fish);
	if (own->fish_note)
		(void)unlink(own->fish_note);
	if (own->dir)
		remove_own(own->dir);
	if (own->lock >= 0)
		close(own->lock);
	free(own->dir);
	free(own->fish.hist);
	free(own->fish_note);
	own->fish = (struct launcher_fish){0};
	own->fish_note = NULL;
	own->dir = NULL;
	own->lock = -1;
}

/* TOP/SESSION made, this session's own (see launcher_history), locked for
 * as long as the launcher (or a process it forks) lives; for fish, its
 * data directory: fish/fish_history a link to the project's (fish writes
 * through it; launcher/fish-history.c), fish/generated_completions one to
 * the user's own, where fish outside made them (else fish makes this
 * session's). */
static int make_shell_dir(const char *top, const char *session, const char *hist, bool fish,
			  struct launcher_shell_dir *own)
{
	cleanup_free char *path = NULL;
	if (asprintf(&path, "%s/%s", top, session) < 0)
		return -ENOMEM;
	if (mkdir(path, 0700) < 0)
		return -errno;
	own->dir = TAKE_PTR(path);
	own->lock = open(own->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (own->lock < 0 || flock(own->lock, LOCK_EX | LOCK_NB) < 0)
		return -errno;
	if (!fish)
		return 0;
	cleanup_free char *hfish = NULL;
	cleanup_free char *ofish = NULL;
	cleanup_free char *link = NULL;
	cleanup_free char *target = NULL;
	if (asprintf(&hfish, "%s/fish", hist) < 0 || asprintf(&ofish, "%s/fish", own->dir) < 0 ||
	    asprintf(&link, "%s/fish_history", ofish) < 0 ||
	    asprintf(&target, "%s/fish_history", hfish) < 0)
		return -ENOMEM;
	if ((mkdir(hfish, 0700) < 0 && errno != EEXIST) || mkdir(ofish, 0700) < 0)
		return -errno;
	/* fish writes through a hard link to the project's file (its rewrite
	 * stays in this directory: launcher/fish-history.c), or through a
	 * symbolic one where no hard link can be made. Opened through no link:
	 * an earlier session may have laid one at fish/ (round 37d F5: the
	 * launcher, root perhaps, made the file where it led). */
	int hf = launcher_fish_history_open(hist);
	if (hf < 0)
		return hf;
	struct stat hs;
	long long from = fstat(hf, &hs) == 0 ? (long long)hs.st_size : 0;
	int r = launcher_fish_history_link(hf, ofish);
	close(hf);
	if (r < 0 && symlink(target, link) < 0)
		return -errno;
	if (r == 0) {
		own->fish = (struct launcher_fish){strdup(hist), from, (long long)time(NULL)};
		if (!own->fish.hist || asprintf(&own->fish_note, "%s.fish", own->dir) < 0)
			return -ENOMEM;
		/* (Best effort: without it only a killed launcher's session
		 * loses what fish saved after a rewrite.) */
		if (launcher_fish_note_write(own->fish_note, &own->fish) < 0) {
			free(own->fish_note);
			own->fish_note = NULL;
		}
	}
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = launcher_home();
	cleanup_free char *gen = NULL;
	cleanup_free char *glink = NULL;
	struct stat st;
	if (((xdg && xdg[0] == '/' && asprintf(&gen, "%s/fish/generated_completions", xdg) >= 0) ||
	     (home && asprintf(&gen, "%s/.local/share/fish/generated_completions", home) >= 0)) &&
	    stat(gen, &st) == 0 && S_ISDIR(st.st_mode) &&
	    asprintf(&glink, "%s/generated_completions", ofish) >= 0)
		(void)symlink(gen, glink);
	return 0;
}

/* STATE/SUB is a directory of this user's, reached through no link below
 * STATE: one a session planted (a link to where the next session would be
 * granted writing) is never taken. */
static bool own_dir(const char *state, const char *sub)
{
	cleanup_free char *cstate = realpath(state, NULL);
	cleanup_free char *path = NULL;
	if (!cstate || asprintf(&path, "%s/%s", state, sub) < 0)
		return false;
	cleanup_free char *cdir = realpath(path, NULL);
	struct stat st;
	size_t n = strlen(cstate);
	return cdir && lstat(cdir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       strncmp(cdir, cstate, n) == 0 && cdir[n] == '/' && strcmp(cdir + n + 1, sub) == 0;
}

/* Whether TOP (STATE/cordon, resolved) is not the one below the passwd
 * home, which every session keeps read-only, and a note says a session
 * may have written there or above (shim/sweep.c): another session,
 * started with another XDG_STATE_HOME, could plant in the shell's own
 * directory there what this session's zsh runs (round 37d F4). Said. */
static bool state_written_by_others(const char *top)
{
	const char *home = launcher_passwd_home();
	cleanup_free char *own = NULL, *cown = NULL;
	if (home && asprintf(&own, "%s/.local/state/cordon", home) >= 0)
		cown = launcher_absolute(own, NULL);
	char note[PATH_MAX + 64];
	if ((cown && strcmp(cown, top) == 0) ||
	    cordon_sweep_noted(top, NULL, note, sizeof(note)) <= 0)
		return false;
	char shown[PATH_MAX + 8];
	fprintf(stderr,
		"cordon: %s lies where a session may write (cordon's note %s): no shell history "
		"is kept there for this session; set XDG_STATE_HOME elsewhere, or unset it\n",
		cordon_printable(top, SIZE_MAX, shown, sizeof(shown)), note);
	return true;
}

int launcher_history(struct cordon_policy *p, const char *cmd, const char *session,
		     struct cordon_strv *env, struct launcher_shell_dir *own,
		     struct cordon_error *err)
{
	if (cordon_sandbox_nested())
		return nested_history(p, cmd, env) < 0 ? cordon_err(err, ENOMEM, "out of memory")
						       : 0;
	const char *home = launcher_home();
	const char *xdg = getenv("XDG_STATE_HOME");
	cleanup_free char *state = NULL;
	if (xdg && xdg[0] == '/') {
		if (!(state = strdup(xdg)))
			return cordon_err(err, ENOMEM, "out of memory");
	} else if (!home || asprintf(&state, "%s/.local/state", home) < 0) {
		return 0; /* no home: nowhere to keep it; the shells say so */
	}
	cleanup_free char *name = NULL;
	cleanup_free char *dir = NULL;
	cleanup_free char *zdot = NULL;
	cleanup_free char *zshenv_path = NULL;
	cleanup_free char *shells = NULL;
	if (project_name(p->project, &name) < 0 ||
	    asprintf(&dir, "%s/cordon/history/%s", state, name) < 0 ||
	    asprintf(&zdot, "%s/cordon/zsh", state) < 0 ||
	    asprintf(&shells, "%s/cordon/shell", state) < 0 ||
	    asprintf(&zshenv_path, "%s/.zshenv", zdot) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	if (!env) {
		/* explain: the rules a run adds, on the paths as they resolve
		 * now (made when the first session starts). */
		cleanup_free char *cdir = launcher_absolute(dir, NULL);
		cleanup_free char *czdot = launcher_absolute(zdot, NULL);
		if (!cdir || !czdot ||
		    cordon_policy_add_rule(p, cdir, CORDON_ACCESS_ALL, "history") < 0 ||
		    cordon_policy_add_rule(p, czdot, CORDON_ACCESS_READ, "history") < 0 ||
		    (cordon_sweep_applies(p) && cordon_strv_push_new(&p->shared, cdir) < 0))
			return cordon_err(err, ENOMEM, "out of memory");
		return 0;
	}
	/* Where the session may write cordon's state directory (a writable
	 * home), it stays read-only (policy.c): the shells keep their own
	 * history files in the home, as outside. */
	cleanup_free char *top = NULL;
	if (asprintf(&top, "%s/cordon", state) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	cleanup_free char *ctop = launcher_absolute(top, NULL);
	if (cordon_policy_access(p, ctop ? ctop : top, NULL) & CORDON_ACCESS_WRITE)
		return 0;
	if (state_written_by_others(ctop ? ctop : top))
		return 0;
	int r = make_dirs(dir);
	if (r < 0)
		return cordon_err(err, -r, "%s: cannot make the session's history directory: %s",
				  dir, strerror(-r));
	r = make_dirs(zdot);
	if (r >= 0)
		r = make_dirs(shells);
	const char *sub = dir + strlen(state) + 1;
	bool ours = own_dir(state, sub);
	bool zsh_ours = ours && own_dir(state, "cordon/zsh");
	if (r >= 0 && (!zsh_ours || !own_dir(state, "cordon/shell")))
		return cordon_err(err, ELOOP,
				  "%s: not a directory of cordon's own (a link, or another user's)",
				  !ours       ? dir
				  : !zsh_ours ? zdot
					      : shells);
	if (r >= 0)
		r = write_if_changed(zshenv_path, zshenv);
	if (r < 0)
		return cordon_err(err, -r, "%s: cannot write: %s", zshenv_path, strerror(-r));

	/* Which shell's history file: the command's when it is a shell, else
	 * the login shell's (what `bash` or `zsh` typed inside falls back on). */
	const char *shell = base_name(cmd);
	bool is_shell = strcmp(shell, "bash") == 0 || strcmp(shell, "zsh") == 0 ||
			strcmp(shell, "fish") == 0;
	if (!is_shell)
		shell = base_name(launcher_login_shell());
	cleanup_free char *histfile = NULL;
	if (asprintf(&histfile, "%s/%s_history", dir, shell) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	const char *user_zdotdir = launcher_env_get(env, "ZDOTDIR");
	if ((user_zdotdir && launcher_env_set(env, "CORDON_USER_ZDOTDIR", user_zdotdir) < 0) ||
	    launcher_env_set(env, "ZDOTDIR", zdot) < 0 ||
	    launcher_env_set(env, "HISTFILE", histfile) < 0 ||
	    launcher_env_set(env, "CORDON_HISTORY_DIR", dir) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	/* What the shells run of what they keep, zsh's compinit dump and
	 * fish's data directory (vendor_conf.d sourced at start, the
	 * vendor_*.d and generated_completions autoloaded), is kept in the
	 * session's own directory instead (round 37a F5): in the history
	 * directory one session's plant ran in the next session of the
	 * project, with that one's rights. No other session may write it
	 * (cordon's state is read-only inside, and it is granted to this
	 * session only) or find it before it exists (the session's id is
	 * random); it is removed as the session ends, or by a later launch
	 * when the launcher was killed. The old dump in the history directory
	 * is read by no one now. fish keeps its history in $XDG_DATA_HOME/fish
	 * and takes no other place: XDG_DATA_HOME is moved there for a session
	 * that starts fish, only (the other tools' data stays where it is). */
	cleanup_free char *histories = NULL;
	if (asprintf(&histories, "%s/cordon/history", state) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	sweep_shell_dirs(shells, histories);
	bool fish = strcmp(base_name(cmd), "fish") == 0;
	r = make_shell_dir(shells, session, dir, fish, own);
	if (r < 0) {
		launcher_history_end(own);
		return cordon_err(err, -r, "%s/%s: cannot make the session's own directory: %s",
				  shells, session, strerror(-r));
	}
	cleanup_free char *dump = NULL;
	if (asprintf(&dump, "%s/zcompdump", own->dir) < 0 ||
	    launcher_env_set(env, "CORDON_SHELL_DIR", own->dir) < 0 ||
	    launcher_env_set(env, "CORDON_ZCOMPDUMP", dump) < 0 ||
	    (fish && launcher_env_set(env, "XDG_DATA_HOME", own->dir) < 0))
		return cordon_err(err, ENOMEM, "out of memory");
	if (cordon_policy_add_rule(p, dir, CORDON_ACCESS_ALL, "history") < 0 ||
	    cordon_policy_add_rule(p, zdot, CORDON_ACCESS_READ, "history") < 0 ||
	    /* all, as the history directory: fish renames its history from
	     * here to there, which Landlock refuses (EXDEV) to a file that
	     * would gain a right on the way */
	    cordon_policy_add_rule(p, own->dir, CORDON_ACCESS_ALL,
				   "the session's own shell state") < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	/* Walked as the session ends, as /tmp is, where an end looks at all
	 * (round 51a F1: a git dir armed here, which no end walked, was
	 * reached by a link in the project, and git outside, run in it, ran
	 * its core.fsmonitor). */
	cleanup_free char *real = realpath(dir, NULL);
	if (cordon_sweep_applies(p) && cordon_strv_push_new(&p->shared, real ? real : dir) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	return 0;
}
