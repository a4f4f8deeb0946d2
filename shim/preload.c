/* libcordon.so — the preloaded shim.
 *
 * DO NOT EXPORT ANY SYMBOLS FROM THIS LIBRARY. It is loaded into foreign
 * programs (the user's shell); the version script hides everything, and the
 * only code here is the constructor.
 *
 * Before the program's main runs, the constructor:
 *   1. reads the policy from CORDON_CONFIG_FD, the channel to the launcher,
 *      which stays this session's parent and supervisor (launcher mode); or
 *      loads the config itself with the working directory as the project,
 *      filters the environment and forks: the original process becomes the
 *      supervisor, and the program goes on in the child (standalone mode:
 *      LD_PRELOAD in a terminal profile);
 *   2. applies the sandbox to this process (inherited by every descendant);
 *   3. hands the seccomp listener to the supervisor on the channel and waits
 *      until it is taken (the supervisor kills a session that never
 *      confirms), closes its own copy and the channel, then removes
 *      CORDON_CONFIG_FD and itself from LD_PRELOAD, so descendants inherit
 *      the sandbox without loading the shim again.
 * Any failure ends the process with status 125 before main: the program never
 * runs unsandboxed (unless the policy says on_unsupported: "warn"). */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cordon/config.h"
#include "cordon/env.h"
#include "cordon/policy.h"
#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "cordon/sweep.h"
#include "cordon/wire.h"
#include "util.h"
#ifdef __linux__
#include "linux/shim-note.h"

/* What tells the launcher this library is the shim built with it. */
CORDON_SHIM_NOTE;
#endif

extern char **environ;

/* The channel to the supervisor, or -1 (no supervisor). */
static int channel = -1;

/* Say why, tell the supervisor (if any) that the refusal is already
 * reported, and end before main with exit status 125. */
__attribute__((noreturn)) static void die(const struct cordon_error *err)
{
	char line[sizeof(err->msg) + 16];
	int n = snprintf(line, sizeof(line), "cordon: %s\n", err->msg);
	if (n > 0)
		(void)!write(STDERR_FILENO, line,
			     (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	if (channel >= 0)
		cordon_session_refuse(channel);
	_exit(CORDON_EXIT_FAILURE);
}

static void warn(const struct cordon_error *err)
{
	char line[sizeof(err->msg) + 32];
	int n = snprintf(line, sizeof(line), "cordon: warning: %s\n", err->msg);
	if (n > 0)
		(void)!write(STDERR_FILENO, line,
			     (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

/* The environment is edited in place, in the array `environ` points to when
 * the constructor runs: that is the array main() receives as envp, and some
 * programs read only envp (bash does). Nor may we call setenv/unsetenv/getenv:
 * bash exports its own versions, which interpose libc's and ignore the
 * environment until the shell has initialised. */
static char *env_get(const char *name)
{
	size_t n = strlen(name);
	for (char **e = environ; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

/* The kernel's copy of the initial environment, [env_start, env_end): what
 * /proc/PID/environ shows to every process in the session, whatever the
 * environ array says later. exec lays the strings out back to back in envp
 * order, and before main nothing has replaced an entry yet, so the area is
 * the run of contiguous strings starting at environ[0]. (Reading env_start
 * and env_end from /proc/self/stat said the same and cost ~45 us of every
 * launch.) An entry outside the run, set by an earlier constructor, is on
 * the heap: it is not the kernel's copy, and it is never wiped. */
static char *env_start, *env_end;

static void env_area(void)
{
	if (!environ || !environ[0])
		return;
	char *end = environ[0];
	for (char **e = environ; *e && *e == end; e++)
		end += strlen(*e) + 1;
	env_start = environ[0];
	env_end = end;
}

/* A variable removed from the environment is also wiped from the initial
 * environment area, so that /proc/self/environ no longer shows it (the
 * secrets standalone mode filters out, the shim's own variables). */
static void wipe(char *entry)
{
	if (entry >= env_start && entry < env_end) {
		/* volatile: a wipe of memory nobody reads must not be optimised out */
		volatile char *v = entry;
		for (size_t i = 0, n = strnlen(entry, (size_t)(env_end - entry)); i < n; i++)
			v[i] = '\0';
	}
}

/* The name the loader mapped us by: /proc/self/fd/./N when the launcher
 * passed the shim it checked by fd (cordon_shim_open), else a path. */
static char own_name[PATH_MAX];

/* Learn own_name, and close the launcher's fd to us: the file is mapped,
 * and nothing the program starts may inherit it. */
static void forget_own_fd(void)
{
	Dl_info info;
	if (!dladdr((void *)&own_name, &info) || !info.dli_fname)
		return;
	snprintf(own_name, sizeof(own_name), "%s", info.dli_fname);
	static const char by_fd[] = "/proc/self/fd/./";
	if (strncmp(own_name, by_fd, sizeof(by_fd) - 1) != 0)
		return;
	char *end;
	long n = strtol(own_name + sizeof(by_fd) - 1, &end, 10);
	if (*end == '\0' && n > STDERR_FILENO && n < INT_MAX)
		close((int)n);
}

/* Remove CORDON_CONFIG_FD, and ourselves from LD_PRELOAD (keeping anything
 * else the user preloads): by our name, and by the name of any copy of the
 * shim. */
static int scrub_env(void)
{
	static const char preload[] = CORDON_PRELOAD_VAR "=";
	static const char fdvar[] = CORDON_ENV_CONFIG_FD "=";
	char **env = environ;
	size_t w = 0;
	for (size_t r = 0; env && env[r]; r++) {
		if (strncmp(env[r], fdvar, sizeof(fdvar) - 1) == 0) {
			wipe(env[r]);
			continue;
		}
		if (strncmp(env[r], preload, sizeof(preload) - 1) == 0) {
			char *rest =
				cordon_env_strip_preload(env[r] + sizeof(preload) - 1,
							 own_name[0] ? own_name : CORDON_SHIM_NAME);
			if (!rest)
				return -ENOMEM;
			if (!*rest) {
				free(rest);
				wipe(env[r]);
				continue;
			}
			char *entry;
			int n = asprintf(&entry, CORDON_PRELOAD_VAR "=%s", rest);
			free(rest);
			if (n < 0)
				return -ENOMEM;
			wipe(env[r]);
			env[w++] = entry; /* owned by the environment from now on */
			continue;
		}
		env[w++] = env[r];
	}
	if (env)
		env[w] = NULL;
	return 0;
}

/* *RULESET: the Landlock ruleset the supervisor built ahead, or -1. The
 * channel stays open for the hand-over. */
static int launcher_mode(const char *fdstr, struct cordon_policy *p, int *ruleset,
			 struct cordon_error *err)
{
	int fd = cordon_wire_parse_fd(fdstr);
	if (fd < 0)
		return cordon_err(err, EINVAL, CORDON_ENV_CONFIG_FD ": invalid value \"%s\"",
				  fdstr);
	/* Ours alone from here: no program started later inherits it. */
	(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
	channel = fd;
	return cordon_wire_recv_fd(fd, p, ruleset, err);
}

/* Replace the environment with the filtered one, in place (see above). The
 * filtered list is never longer than the original except for the two
 * markers; if the original has no room for them (every variable allowed and
 * nothing removed), the markers that do not fit are left out. */
static int filter_env(const struct cordon_policy *p)
{
	struct cordon_strv env = {0};
	if (cordon_env_build(environ, p->sandbox, &p->env_allow, p->session, p->sandbox, &env) < 0)
		return -ENOMEM;
	size_t room = 0;
	while (environ[room])
		room++;
	size_t n = env.n < room ? env.n : room;
	/* Every string was copied: wipe the originals that were dropped. */
	for (size_t i = 0; i < room; i++) {
		bool kept = false;
		for (size_t j = 0; j < n && !kept; j++)
			kept = strcmp(environ[i], env.v[j]) == 0;
		if (!kept)
			wipe(environ[i]);
	}
	for (size_t i = 0; i < n; i++)
		environ[i] = env.v[i]; /* the environment owns the strings */
	environ[n] = NULL;
	for (size_t i = n; i < env.n; i++)
		free(env.v[i]);
	free(env.v);
	return 0;
}

/* What cordon says here, a line (to the program's stderr, in one write). */
__attribute__((format(printf, 1, 2))) static void say_line(const char *fmt, ...)
{
	char line[PATH_MAX * 2 + 512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	(void)!write(STDERR_FILENO, line, (size_t)n);
}

static int standalone_mode(struct cordon_policy *p, struct cordon_error *err)
{
	/* As the launcher does: a config a session whose launcher was killed
	 * may have changed is judged before it is read (round 37e F3). */
	struct cordon_strv said = {0};
	const char *by_env = env_get("CORDON_CONFIG");
	int judged = cordon_sweep_judge_killed(by_env && *by_env ? by_env : NULL, &said, err);
	for (size_t i = 0; i < said.n; i++)
		say_line("%s", said.v[i]);
	cordon_strv_free(&said);
	if (judged < 0)
		return judged;
	struct cordon_config cfg;
	int r = cordon_config_load(NULL, env_get, &cfg, err);
	if (r < 0)
		return r;
	char session[CORDON_SESSION_ID_LEN + 1];
	if ((r = cordon_session_id(session)) < 0) {
		cordon_config_free(&cfg);
		return cordon_err(err, r, "getrandom: %s", strerror(-r));
	}
	const char *home = env_get("HOME");
	cleanup_free char *passwd_home = cordon_passwd_home(getuid());
	char *ttys[4];
	cordon_session_ttys(ttys);
	struct cordon_context ctx = {
		.ttys = (const char *const *)ttys,
		.project = ".",
		.project_from_cwd = true,
		.home = home && home[0] == '/' ? home : NULL,
		.passwd_home = passwd_home,
		.uid = getuid(),
		.kind = CORDON_KIND_TERMINAL,
		.os = CORDON_OS_NATIVE,
		.session = session,
		.getenv_fn = env_get,
	};
	struct cordon_strv known = {0};
	r = cordon_sweep_known_xdg(&known) < 0 ? cordon_err(err, ENOMEM, "out of memory") : 0;
	ctx.known_xdg = &known;
	if (r >= 0)
		r = cordon_policy_resolve(&cfg, &ctx, p, err);
	cordon_strv_free(&known);
	cordon_config_free(&cfg);
	for (size_t i = 0; ttys[i]; i++)
		free(ttys[i]);
	if (r < 0)
		return r;
	/* (Before the environment is filtered: it may go.) */
	const char *cfg_env = env_get("CORDON_CONFIG");
	cleanup_free char *named = cfg_env && *cfg_env ? strdup(cfg_env) : NULL;
	/* (And where this launch's XDG directories are: a later launch
	 * without them guards them too.) */
	if (p->sandbox)
		cordon_sweep_note_xdg(env_get);
	if (filter_env(p) < 0)
		return cordon_err(err, ENOMEM, "filtering the environment: out of memory");
	if (!p->sandbox)
		return 0;
	/* A config read by name is noted, as the launcher's is. */
	if (named)
		cordon_sweep_note_config(named);
	if (p->no_project) {
		/* Started in $HOME (a terminal profile usually is): the shell
		 * goes on, with nothing of the home writable. */
		say_line("cordon: %s; the session has no writable project — start the shell in a "
			 "project directory",
			 p->no_project);
	}
	/* A supervisor where the kernel needs one (Linux before Landlock ABI
	 * 9): this process becomes it, and the program goes on in a child. */
	struct cordon_support sup;
	cordon_sandbox_probe(&sup);
	if (sup.notify && cordon_sandbox_needs_supervisor(&sup))
		return cordon_session_supervise_fork(p, &channel, err);
	return 0;
}

__attribute__((constructor)) static void cordon_preload_init(void)
{
	struct cordon_error err = {0};
	struct cordon_policy p = {0};
	/* What is said here goes to the program's stderr, which may be a
	 * pipe closed early: a word lost there must not kill the program
	 * before the session confirms it (one process here: the ignore is
	 * the program's own again before its main). */
	struct sigaction pipe_was, ignore = {.sa_handler = SIG_IGN};
	bool pipe_saved = sigaction(SIGPIPE, &ignore, &pipe_was) == 0;
	env_area();
	forget_own_fd();
	const char *fdstr = env_get(CORDON_ENV_CONFIG_FD);
	int ruleset = -1;
	int r = fdstr ? launcher_mode(fdstr, &p, &ruleset, &err) : standalone_mode(&p, &err);
	if (r < 0)
		die(&err);
	int listener = -1;
	r = cordon_sandbox_apply_prepared(&p, ruleset, channel >= 0 ? &listener : NULL, &err);
	if (r < 0)
		die(&err);
	if (r > 0)
		warn(&err);
	/* The supervisor takes the listener; the program runs once it has. */
	if (channel >= 0) {
		if (cordon_session_confirm(channel, listener) < 0) {
			cordon_err(&err, EPIPE, "the session's supervisor is gone");
			close(channel);
			channel = -1;
			die(&err);
		}
		close(channel);
		channel = -1;
	}
	if (scrub_env() < 0) {
		cordon_err(&err, ENOMEM, "cleaning the environment: out of memory");
		die(&err);
	}
	cordon_policy_free(&p);
	if (pipe_saved)
		(void)sigaction(SIGPIPE, &pipe_was, NULL);
}
