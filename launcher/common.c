/* Policy set-up shared by `run` and `explain`. */
#include <errno.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cordon/config.h"
#include "cordon/session.h"
#include "cordon/sweep.h"
#include "launcher.h"
#include "util.h"

void launcher_error(const struct cordon_error *err)
{
	cordon_closing_line();
	fprintf(stderr, "cordon: %s\n", err->msg[0] ? err->msg : "unknown error");
}

void launcher_hold_terminal(void)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO))
		return;
	(void)fputs("cordon: the shell did not start; press Enter to close this terminal\n",
		    stderr);
	char c;
	ssize_t n;
	while ((n = read(STDIN_FILENO, &c, 1)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && (c == '\n' || c == '\r'))
			break;
}

/* The caller's /etc/passwd entry, read directly: the launcher is a static
 * binary on Linux, and glibc's NSS (getpwuid) would dlopen modules of the
 * glibc it was built with. A fallback for an unset $HOME or $SHELL, which
 * terminals and login sessions always set, and where hidden_paths are
 * hidden besides $HOME (round 37c F2). The strings live until exit. */
static const struct passwd *own_passwd(void)
{
	static struct passwd entry;
	static bool looked;
	if (!looked) {
		looked = true;
		(void)cordon_passwd_entry(getuid(), &entry.pw_dir, &entry.pw_shell);
	}
	return entry.pw_dir || entry.pw_shell ? &entry : NULL;
}

const char *launcher_passwd_home(void)
{
	const struct passwd *pw = own_passwd();
	return pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

const char *launcher_home(void)
{
	const char *h = getenv("HOME");
	return h && h[0] == '/' ? h : launcher_passwd_home();
}

const char *launcher_login_shell(void)
{
	const char *s = getenv("SHELL");
	if (s && s[0] == '/')
		return s;
	const struct passwd *pw = own_passwd();
	if (pw && pw->pw_shell && pw->pw_shell[0] == '/')
		return pw->pw_shell;
	return "/bin/sh";
}

/* IN (made absolute against the current directory) through one of this
 * process's descriptors: *OUT the path it leads to (1), or NULL (0: no
 * descriptor's name), or -EBADF (it leads to no path). */
static int past_descriptor(const char *in, char **out)
{
	*out = NULL;
	cleanup_free char *abs = NULL;
	int r = cordon_path_absolute(in, NULL, NULL, &abs);
	if (r < 0)
		return r == -ENOMEM ? r : 0;
	return cordon_path_past_descriptor(abs, out);
}

/* IN (not absolute) against the current directory, as open takes it
 * ("~" too: nothing expands it there): a fresh string, or NULL. */
static char *against_cwd(const char *in)
{
	cleanup_free char *cwd = getcwd(NULL, 0);
	return cwd ? cordon_join3(cwd, "/", in) : NULL;
}

int launcher_unpin_names(struct cordon_args *a, struct cordon_error *err)
{
	static const char *const vars[] = {"CORDON_CONFIG",  "HOME",          "XDG_CONFIG_HOME",
					   "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
					   "XDG_RUNTIME_DIR"};
	static char *config, *project;
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = getenv(vars[i]);
		cleanup_free char *real = NULL;
		/* (Only CORDON_CONFIG is taken relative to the current
		 * directory: a relative XDG one or HOME is not used.) */
		int r = v && (v[0] == '/' || (i == 0 && v[0])) ? past_descriptor(v, &real) : 0;
		if (r == -ENOMEM)
			return cordon_err(err, ENOMEM, "out of memory");
		if (r < 0)
			return cordon_err(err, EINVAL,
					  "%s=%s: names a descriptor of cordon's that leads to no "
					  "file or directory, which the session could not find "
					  "either; name it by its path",
					  vars[i], v);
		if (r == 1 && setenv(vars[i], real, 1) < 0)
			return cordon_err(err, errno, "%s: %s", vars[i], strerror(errno));
	}
	/* A config named relative to the current directory is read there, and
	 * guarded there too: by that directory's path from here on (round 50c
	 * F1: one guarded against the project was another file, and the one
	 * read was writable inside; 50e F3: "~c.json" and a "~/c.json" no
	 * shell expanded are read there too, never in the home). */
	const char *env_config = getenv("CORDON_CONFIG");
	cleanup_free char *env_abs = NULL;
	if (env_config && env_config[0] && env_config[0] != '/' &&
	    (!(env_abs = against_cwd(env_config)) || setenv("CORDON_CONFIG", env_abs, 1) < 0))
		return cordon_err(err, EINVAL,
				  "CORDON_CONFIG=%s: cannot make it absolute against the current "
				  "directory",
				  env_config);
	struct {
		const char **name;
		char **owned;
		const char *option;
	} named[] = {{&a->config, &config, "--config"}, {&a->project, &project, "--project"}};
	for (size_t i = 0; i < ARRAY_SIZE(named); i++) {
		char *real = NULL;
		int r = *named[i].name && **named[i].name ? past_descriptor(*named[i].name, &real)
							  : 0;
		if (r == -ENOMEM)
			return cordon_err(err, ENOMEM, "out of memory");
		if (r < 0)
			return cordon_err(err, EINVAL,
					  "%s %s: names a descriptor that leads to no file or "
					  "directory; name it by its path",
					  named[i].option, *named[i].name);
		if (r == 0 && i == 0 && *named[i].name && **named[i].name &&
		    **named[i].name != '/') {
			if (!(real = against_cwd(*named[i].name)))
				return cordon_err(
					err, EINVAL,
					"--config %s: cannot make it absolute against the "
					"current directory",
					*named[i].name);
			r = 1;
		}
		if (r == 1) {
			free(*named[i].owned);
			*named[i].owned = real;
			*named[i].name = real;
		}
	}
	/* A rule on a descriptor that leads to no path (/dev/stdout onto a
	 * pipe or a terminal) stays as written: the command has the same. */
	for (int c = 0; c < CORDON_CLASS_COUNT; c++)
		for (size_t i = 0; i < a->extra[c].n; i++) {
			char *real = NULL;
			int r = past_descriptor(a->extra[c].v[i], &real);
			if (r == -ENOMEM)
				return cordon_err(err, ENOMEM, "out of memory");
			if (r == 1) {
				free(a->extra[c].v[i]);
				a->extra[c].v[i] = real;
			}
		}
	return 0;
}

/* The config found through XDG_CONFIG_HOME (no --config, no
 * CORDON_CONFIG), where a note says a session may have written: a session
 * whose XDG_CONFIG_HOME was another could have made it there, unguarded,
 * to turn the next one off (round 59g F2: {"enabled": false} in a
 * project's .config/cordon, read by a later launch pointed there, ran it
 * unsandboxed, unsaid). Refused. The home's own ~/.config/cordon every
 * session keeps read-only. */
static int config_planted(struct cordon_error *err)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (!xdg || xdg[0] != '/')
		return 0;
	cleanup_free char *dir = NULL, *found = NULL;
	if (asprintf(&dir, "%s/cordon", xdg) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	if (!(found = launcher_absolute(dir, NULL)))
		return 0;
	struct stat st;
	if (lstat(found, &st) < 0)
		return 0;
	const char *homes[] = {launcher_home(), launcher_passwd_home()};
	for (size_t i = 0; i < 2; i++) {
		cleanup_free char *own = NULL, *cown = NULL;
		if (homes[i] && asprintf(&own, "%s/.config/cordon", homes[i]) >= 0 &&
		    (cown = launcher_absolute(own, NULL)) && strcmp(cown, found) == 0)
			return 0;
	}
	char note[PATH_MAX + 64], shown[PATH_MAX + 8];
	if (cordon_sweep_noted(found, NULL, note, sizeof(note)) <= 0)
		return 0;
	return cordon_err(err, EPERM,
			  "%s lies where a session may write (cordon's note %s): a session could "
			  "have made the config there; move it out, or set XDG_CONFIG_HOME "
			  "elsewhere",
			  cordon_printable(found, SIZE_MAX, shown, sizeof(shown)), note);
}

int launcher_policy(const struct cordon_args *a, const char *session, bool enforce,
		    struct cordon_policy *p, struct cordon_error *err, char **origin)
{
	/* A config a session whose launcher was killed may have changed is
	 * judged before it is read (round 37e F3). */
	struct cordon_strv said = {0};
	const char *named = a->config && *a->config ? a->config : getenv("CORDON_CONFIG");
	int judged = cordon_sweep_judge_killed(named && *named ? named : NULL, &said, err);
	for (size_t i = 0; i < said.n; i++)
		fprintf(stderr, "%s\n", said.v[i]);
	cordon_strv_free(&said);
	if (judged < 0)
		return judged;
	if (!(named && *named) && (judged = config_planted(err)) < 0)
		return judged;
	struct cordon_config cfg;
	int r = cordon_config_load(a->config, getenv, &cfg, err);
	if (r < 0)
		return r;
	struct cordon_context ctx = {
		.project = a->project ? a->project : ".",
		.project_from_cwd = !a->project,
		.home = launcher_home(),
		.passwd_home = launcher_passwd_home(),
		.uid = getuid(),
		.kind = a->kind ? a->kind : CORDON_KIND_TERMINAL,
		.os = CORDON_OS_NATIVE,
		.session = session,
		.no_network = a->no_network,
		.kernel_resolves = enforce && CORDON_OS_NATIVE == CORDON_OS_LINUX,
		.relays = true,
	};
	char *ttys[4];
	cordon_session_ttys(ttys);
	ctx.ttys = (const char *const *)ttys;
	ctx.no_tty = enforce && !isatty(STDIN_FILENO) && !isatty(STDOUT_FILENO) &&
		     !isatty(STDERR_FILENO);
	for (int c = 0; c < CORDON_CLASS_COUNT; c++)
		ctx.extra[c] = a->extra[c];
	ctx.extra_env = a->extra_env;
	ctx.extra_sockets = a->extra_sockets;
	ctx.extra_toolchains = a->toolchains;
	ctx.make_toolchain_dirs = enforce;
	ctx.extra_domains = a->extra_domains;
	ctx.getenv_fn = getenv;
	struct cordon_strv known = {0};
	if (cordon_sweep_known_xdg(&known) < 0)
		r = cordon_err(err, ENOMEM, "out of memory");
	ctx.known_xdg = &known;
	if (r >= 0)
		r = cordon_policy_resolve(&cfg, &ctx, p, err);
	cordon_strv_free(&known);
	if (r >= 0 && origin)
		*origin = TAKE_PTR(cfg.origin);
	cordon_config_free(&cfg);
	for (size_t i = 0; ttys[i]; i++)
		free(ttys[i]);
	return r;
}

char *launcher_absolute(const char *path, const char *home)
{
	char *canon = NULL;
	if (cordon_path_resolve(path, home, NULL, &canon) == 0)
		return canon;
	cleanup_free char *dir = strdup(path);
	if (!dir)
		return NULL;
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return strdup(path);
	*slash = '\0';
	cleanup_free char *parent = launcher_absolute(dir, home);
	if (!parent)
		return NULL;
	char *out;
	if (asprintf(&out, "%s%s%s", parent, strcmp(parent, "/") ? "/" : "", slash + 1) < 0)
		return NULL;
	return out;
}

int launcher_outer_sockets(struct cordon_policy *p, struct cordon_strv *env)
{
	/* Where no new directory can be made beside the outer session's own:
	 * its supervisor judges every connect there. */
	const char *outer = getenv("TMUX_TMPDIR");
	struct stat st;
	if (!outer || outer[0] != '/' || stat(outer, &st) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	if (env && launcher_env_set(env, "TMUX_TMPDIR", outer) < 0)
		return -ENOMEM;
	int r = cordon_policy_add_rule(p, outer, CORDON_ACCESS_ALL, "the outer session's sockets");
	/* And its temporary directory (TMPDIR), where it made its sockets:
	 * the shared one above it takes none (cordon_session_tmp_dir). */
	const char *tmp = getenv("TMPDIR");
	if (r >= 0 && tmp && cordon_tmp_dir_name(tmp) && stat(tmp, &st) == 0 && S_ISDIR(st.st_mode))
		r = cordon_policy_add_rule(p, tmp, CORDON_ACCESS_ALL,
					   "the outer session's temporary directory");
	else
		tmp = NULL;
	/* (The environment's filter took TMPDIR out.) */
	if (r >= 0 && tmp && env && launcher_env_set(env, "TMPDIR", tmp) < 0)
		return -ENOMEM;
	return r;
}

int launcher_env_set(struct cordon_strv *env, const char *name, const char *value)
{
	char *kv;
	if (asprintf(&kv, "%s=%s", name, value) < 0)
		return -ENOMEM;
	size_t n = strlen(name);
	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], name, n) == 0 && env->v[i][n] == '=') {
			free(env->v[i]);
			env->v[i] = kv;
			return 0;
		}
	return cordon_strv_push_take(env, kv);
}

const char *launcher_env_get(const struct cordon_strv *env, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < env->n; i++)
		if (strncmp(env->v[i], name, n) == 0 && env->v[i][n] == '=')
			return env->v[i] + n + 1;
	return NULL;
}

void launcher_say_exposed(const struct cordon_policy *p)
{
	for (size_t i = 0; p->sandbox && i < p->n_exposed; i++)
		fprintf(stderr,
			"cordon: %s is in %s, but %s names it: not hidden in this session%s\n",
			p->exposed[i].path, p->exposed[i].source, p->exposed[i].by,
			/* (round 35d X4) */
			strcmp(p->exposed[i].source, "cordon's state") == 0
				? "; what a session writes there, later sessions trust (the "
				  "notes of what sessions may write, the sweep's records)"
				: "");
}

void launcher_say_unfollowed(const struct cordon_policy *p)
{
	for (size_t i = 0; p->sandbox && i < p->unfollowed.n; i++)
		fprintf(stderr, "cordon: %s\n", p->unfollowed.v[i]);
}

void launcher_say_sockets_unapplied(const struct cordon_policy *p)
{
	for (size_t i = 0; p->sandbox && i < p->sockets_unapplied.n; i++)
		fprintf(stderr, "cordon: warning: %s\n", p->sockets_unapplied.v[i]);
}

void launcher_say_shared_mounts(const struct cordon_policy *p)
{
	for (size_t i = 0; p->sandbox && i < p->shared_mounts.n; i++) {
		const char *line = p->shared_mounts.v[i], *tab = strchr(line, '\t');
		if (tab)
			fprintf(stderr,
				"cordon: %.*s %s (a bind mount), in a directory every user shares: "
				"no socket or symbolic link is made in it, and nothing is moved in "
				"from another directory (mount it from elsewhere)\n",
				(int)(tab - line), line, tab + 1);
	}
}

void launcher_say_omz_unasked(const struct cordon_policy *p)
{
	if (p->sandbox && p->omz_unasked && p->omz_dotenv_name)
		fprintf(stderr,
			"cordon: oh-my-zsh's dotenv plugin exports the %s of every directory you "
			"enter without asking (ZSH_DOTENV_PROMPT=false, in %s): the project's %s "
			"stays read-only in this session, and one it makes or changes in a "
			"subdirectory is moved aside as it ends\n",
			p->omz_dotenv_name, p->omz_unasked, p->omz_dotenv_name);
}

void launcher_say_off_flags(const struct cordon_policy *p)
{
	if (p->sandbox || !p->off_flags)
		return;
	char flags[128] = "";
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {{CORDON_OFF_RULES, "--allow-read/-write/-exec"},
		     {CORDON_OFF_ENV, "--allow-env"},
		     {CORDON_OFF_SOCKETS, "--allow-socket"},
		     {CORDON_OFF_TOOLCHAIN, "--toolchain"}};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (p->off_flags & names[i].bit)
			snprintf(flags + strlen(flags), sizeof(flags) - strlen(flags), "%s%s",
				 flags[0] ? ", " : "", names[i].name);
	fprintf(stderr,
		"cordon: %s: the sandbox is off for this session (enabled is false, or apply_to "
		"does not cover it), so there is nothing to widen: they change nothing\n",
		flags);
}

void launcher_say_no_project(const struct cordon_policy *p)
{
	if (p->sandbox && p->no_project)
		fprintf(stderr,
			"cordon: %s; the session has no writable project — start cordon in a "
			"project directory or pass --project DIR\n",
			p->no_project);
}

void launcher_print_config_line(FILE *f, const char *key, const char *path)
{
	json_object *o = json_object_new_string(path);
	const char *q =
		o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	fprintf(f, "\"%s\": [%s]", key, q ? q : "\"?\"");
	json_object_put(o);
}
