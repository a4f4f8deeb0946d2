/* cordon run: resolve the policy, build the environment, and run the command
 * as a session with the shim preloaded (or, for targets the shim cannot
 * enter, with the sandbox applied before its exec). On Linux this process
 * stays the session's parent and supervisor and exits with the command's
 * status; on macOS the command is exec'd in place. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cordon/env.h"
#include "cordon/exec.h"
#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "cordon/wire.h"
#include "cordon/guard.h"
#include "cordon/sweep.h"
#include "cordon/toolchain.h"
#include "launcher.h"
#include "util.h"

extern char **environ;

static bool file_exists(const char *p)
{
	return access(p, R_OK) == 0;
}

/* CAND (malloc'd, taken) as the shim in *OUT, if it is the one built with
 * this launcher; else the one line saying what it is, LABEL before it. */
static int take_shim(char *cand, const char *label, char **out, struct cordon_error *err)
{
	if (!cand)
		return cordon_err(err, ENOMEM, "out of memory");
	struct cordon_error why = {0};
	int r = cordon_shim_check(cand, &why);
	if (r < 0) {
		free(cand);
		return cordon_err(err, -r, "%s%s; nothing was started", label, why.msg);
	}
	*out = cand;
	return 0;
}

/* The shim: $CORDON_SHIM, ../lib/libcordon.so next to us, the install
 * libdir; the first that exists, which must then be ours. */
int launcher_find_shim(char **out, struct cordon_error *err)
{
	const char *env = getenv("CORDON_SHIM");
	if (env && *env) {
		if (env[0] != '/' || !file_exists(env))
			return cordon_err(err, ENOENT,
					  "%s: CORDON_SHIM: not a readable absolute path", env);
		return take_shim(strdup(env), "CORDON_SHIM=", out, err);
	}
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			char *cand;
			if (asprintf(&cand, "%s/../lib/libcordon.so", self) < 0)
				return cordon_err(err, ENOMEM, "out of memory");
			char *canon = realpath(cand, NULL);
			free(cand);
			if (canon && file_exists(canon))
				return take_shim(canon, "", out, err);
			free(canon);
		}
	}
	if (file_exists(CORDON_INSTALL_LIBDIR "/libcordon.so"))
		return take_shim(strdup(CORDON_INSTALL_LIBDIR "/libcordon.so"), "", out, err);
	return cordon_err(err, ENOENT,
			  "libcordon.so not found (looked at $CORDON_SHIM, ../lib next to cordon, "
			  "%s)",
			  CORDON_INSTALL_LIBDIR);
}

/* Put the shim in LD_PRELOAD (before EXTRA, a library the shim leaves in
 * place for the descendants, if any). The policy goes on the channel the
 * session sets up (CORDON_CONFIG_FD). */
static int prepare_preload(const char *shim, const char *extra, struct cordon_strv *env,
			   struct cordon_error *err)
{
	char *s1;
	if (asprintf(&s1, CORDON_PRELOAD_VAR "=%s%s%s", shim, extra ? ":" : "",
		     extra ? extra : "") < 0 ||
	    cordon_strv_push_take(env, s1) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	return 0;
}

/* The shim at PATH, checked on the fd it stays open on (its number is
 * above stdio), and in NAME what LD_PRELOAD says: /proc/self/fd/./N, so that
 * the command's loader maps the very file checked (a shim replaced or
 * renamed meanwhile, a package upgrade, is never the one loaded, nor is a
 * missing one skipped with the command left to run unsandboxed until the
 * confirmation times out: round 59g F1). PATH itself where /proc cannot
 * show the fd (then as before). Returns the fd, or -errno with ERR. */
static int open_shim(const char *path, char *name, size_t size, struct cordon_error *err)
{
	int fd = cordon_shim_open(path, err);
	if (fd < 0)
		return fd;
	struct stat by_fd, by_name;
	/* ("/./": a name no program that loads a library from memory gives
	 * dlopen, /proc/self/fd/N or /dev/fd/N. The loader matches names
	 * already loaded, and one that got fd N later was given the shim
	 * back: round 60f F6.) */
	snprintf(name, size, "/proc/self/fd/./%d", fd);
	if (stat(name, &by_name) < 0 || fstat(fd, &by_fd) < 0 || by_name.st_dev != by_fd.st_dev ||
	    by_name.st_ino != by_fd.st_ino)
		snprintf(name, size, "%s", path);
	return fd;
}

/* chdir into the project when --project moved it away from the cwd. */
static int enter_project(const struct cordon_policy *p, struct cordon_error *err)
{
	if (!p->project)
		return 0;
	cleanup_free char *cwd = getcwd(NULL, 0);
	size_t n = strlen(p->project);
	if (cwd && strncmp(cwd, p->project, n) == 0 && (cwd[n] == '\0' || cwd[n] == '/'))
		return 0;
	if (chdir(p->project) < 0)
		return cordon_err(err, errno, "%s: cannot enter project: %s", p->project,
				  strerror(errno));
	return 0;
}

/* Learn mode: the recorder library in LD_PRELOAD for every process (readable
 * and executable inside), the fd it records to, and the record's path with a
 * single-file write rule on it (only in learn mode, and only that file), for
 * the processes whose inherited fd was closed. */
static int prepare_learn(const struct run_learn *learn, struct cordon_policy *p,
			 struct cordon_strv *env, struct cordon_error *err)
{
	char *kv;
	if (p->sandbox &&
	    cordon_policy_add_rule(p, learn->lib, CORDON_ACCESS_READ | CORDON_ACCESS_EXEC,
				   "cordon learn") < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	if (p->sandbox &&
	    cordon_policy_add_rule(p, learn->file, CORDON_ACCESS_WRITE, "cordon learn") < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	if (asprintf(&kv, "CORDON_LEARN_FD=%d", learn->fd) < 0 ||
	    cordon_strv_push_take(env, kv) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	if (asprintf(&kv, "CORDON_LEARN_FILE=%s", learn->file) < 0 ||
	    cordon_strv_push_take(env, kv) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	return 0;
}

/* Whether P lets the file CANON (canonical) be executed: a rule with
 * execute on it or a directory above it. A run's rules are only made
 * absolute (the kernel resolves them): one that is a prefix of CANON names
 * real directories all the way, so it is exact; the others are resolved
 * only when that found nothing (a rule written through a symlink, /bin). */
static bool policy_executes(const struct cordon_policy *p, const char *canon)
{
	if (cordon_policy_access(p, canon, NULL) & CORDON_ACCESS_EXEC)
		return true;
	struct cordon_policy one = {0};
	for (size_t i = 0; i < p->n_rules; i++) {
		if (!(p->rules[i].access & CORDON_ACCESS_EXEC))
			continue;
		cleanup_free char *rc = realpath(p->rules[i].path, NULL);
		struct cordon_rule rule = {.path = rc, .access = CORDON_ACCESS_EXEC};
		one.rules = &rule;
		one.n_rules = 1;
		if (rc && cordon_policy_access(&one, canon, NULL))
			return true;
	}
	return false;
}

/* A command the policy gives no execute right would still start: in a
 * preloaded run its exec comes before the sandbox. Refused here instead,
 * with the line that allows it, and 125: nothing ran. */
static int refuse_unexecutable(const struct cordon_policy *p, const char *cmd, const char *path,
			       struct cordon_error *err)
{
	if (!p->sandbox)
		return 0;
	cleanup_free char *canon = realpath(path, NULL);
	if (!canon || policy_executes(p, canon))
		return 0; /* gone meanwhile: exec says so */
	/* Under a toolchain preset's directories: the preset is the line. */
	const char *preset = cordon_toolchain_for_path(path, p->home, getenv);
	if (!preset)
		preset = cordon_toolchain_for_path(canon, p->home, getenv);
	if (preset && !cordon_policy_hidden(p, canon))
		return cordon_err(err, EACCES,
				  "%s: not executable in this session (%s: no rule gives it "
				  "execute); to allow it, add to your config: \"toolchains\": "
				  "[\"%s\"] (or pass --toolchain %s)",
				  cmd, canon, preset, preset);
	cleanup_free char *dir = strdup(canon);
	if (!dir)
		return cordon_err(err, ENOMEM, "out of memory");
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	json_object *o = json_object_new_string(dir);
	const char *q =
		o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
	int r = cordon_err(err, EACCES,
			   "%s: not executable in this session (%s: no rule gives it execute); "
			   "to allow it, add to your config: \"additional_executable_paths\": [%s] "
			   "(or pass --allow-exec %s)",
			   cmd, canon, q ? q : "\"?\"", dir);
	json_object_put(o);
	return r;
}

/* What writable_here compares with: the policy, and its write rules
 * resolved (a run's rules are only absolute: a rule written through a link,
 * --allow-write ~/build leading elsewhere, names a canonical path other
 * than its own). */
struct writable {
	const struct cordon_policy *p;
	struct cordon_strv canon;
};

static int writable_init(const struct cordon_policy *p, struct writable *w)
{
	w->p = p;
	w->canon = (struct cordon_strv){0};
	for (size_t i = 0; i < p->n_rules; i++) {
		if (!(p->rules[i].access & CORDON_ACCESS_WRITE))
			continue;
		char *c = realpath(p->rules[i].path, NULL);
		if (c && strcmp(c, p->rules[i].path) != 0) {
			if (cordon_strv_push_take(&w->canon, c) < 0)
				return -ENOMEM;
		} else {
			free(c);
		}
	}
	return 0;
}

/* Whether the session, or an earlier one, could write the canonical
 * CANON: a program an earlier session built in its project, run from
 * another with --allow-exec there, ran its .preinit_array before the shim
 * (round 35d X1; the library it loads beside it too, 35e Y3: so also
 * where it is older than the note). Where there is no registry (nothing
 * is known), one in a directory this user could write
 * (cordon_sweep_layable). */
static bool writable_here(const char *canon, void *arg)
{
	const struct writable *w = arg;
	if (cordon_policy_access(w->p, canon, NULL) & CORDON_ACCESS_WRITE)
		return true;
	for (size_t i = 0; i < w->canon.n; i++)
		if (cordon_path_under(canon, w->canon.v[i]))
			return true;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", canon);
	char *slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = '\0';
	return cordon_sweep_layable(dir, NULL, NULL, 0);
}

#define LIMIT_FSIZE_MIN (64L << 20)
#define LIMIT_STACK_MIN (2L << 20)

static int limits_fit(struct cordon_error *err)
{
	struct rlimit fs, st;
	if (getrlimit(RLIMIT_FSIZE, &fs) == 0 && fs.rlim_cur != RLIM_INFINITY &&
	    fs.rlim_cur < (rlim_t)LIMIT_FSIZE_MIN)
		return cordon_err(
			err, EFBIG,
			"the file size limit (ulimit -f) is %llu bytes: cordon's records of "
			"the session would be cut short; raise it to %ld MiB or more",
			(unsigned long long)fs.rlim_cur, LIMIT_FSIZE_MIN >> 20);
	if (getrlimit(RLIMIT_STACK, &st) == 0 && st.rlim_cur != RLIM_INFINITY &&
	    st.rlim_cur < (rlim_t)LIMIT_STACK_MIN)
		return cordon_err(
			err, ENOMEM,
			"the stack size limit (ulimit -s) is %llu KiB: cordon needs %ld KiB "
			"or more",
			(unsigned long long)st.rlim_cur >> 10, LIMIT_STACK_MIN >> 10);
	return 0;
}

int cmd_run(const struct cordon_args *a)
{
	return cmd_run_learn(a, NULL);
}

int cmd_run_learn(const struct cordon_args *a, const struct run_learn *learn)
{
	struct cordon_error err = {0};
	struct cordon_policy p = {0};
	struct cordon_strv env = {0};
	struct cordon_session sess = {.ack_fd = -1, .policy_fd = -1};
	struct launcher_shell_dir shell_own = {.lock = -1};
	struct cordon_sweep sweep = {0};
	cleanup_free char *path = NULL;
	cleanup_free char *shim = NULL;
	int shim_fd = -1;              /* the shim, checked, open (Linux, preloaded) */
	char shim_name[PATH_MAX + 32]; /* what LD_PRELOAD names it by */
	char session[CORDON_SESSION_ID_LEN + 1];
	int r;

	/* Its stderr may be a pipe closed early (`cordon run -v … 2>&1 | grep
	 * -m1 …`): a word said there fails, where SIGPIPE would kill the
	 * launcher between making the session's cgroup and socket directory
	 * and arming the keeper that removes them, or before the command ran.
	 * The command gets back what its caller left it before its exec. */
	struct sigaction pipe_was, ignore = {.sa_handler = SIG_IGN};
	bool sigpipe_ignored =
		sigaction(SIGPIPE, &ignore, &pipe_was) == 0 && pipe_was.sa_handler == SIG_IGN;
	if ((r = cordon_session_id(session)) < 0) {
		cordon_err(&err, r, "getrandom: %s", strerror(-r));
		goto fail;
	}
	/* Limits under which the launcher would die unsaid halfway (round 59g
	 * F5: RLIMIT_FSIZE killed it with SIGXFSZ, leaving a record half
	 * written; a small stack, with SIGSEGV): refused first. */
	if (limits_fit(&err) < 0)
		goto fail;
	/* Every run is a session, sandboxed or not. */
	snprintf(sess.id, sizeof(sess.id), "%s", session);
	/* How long the shim may take to confirm (slow machines, tests). */
	const char *t = getenv("CORDON_ACK_TIMEOUT_MS");
	if (t && *t) {
		char *end;
		long v = strtol(t, &end, 10);
		if (*end || v < 1 || v > 600000) {
			cordon_err(&err, EINVAL,
				   "CORDON_ACK_TIMEOUT_MS: expected 1..600000, got \"%s\"", t);
			goto fail;
		}
		sess.ack_timeout_ms = (int)v;
	}
	/* Under a seccomp filter that refuses a supervisor's listener and is
	 * no cordon session's (another sandbox's, or a session of a cordon
	 * older than the mark): said first, in words, before anything of the
	 * launch fails for it (round 60f F5: a newer cordon inside an older
	 * one's session failed on the state directory, unexplained). */
	if (cordon_shim_enforces && !cordon_sandbox_nested() && cordon_sandbox_listener_refused()) {
		cordon_err(
			&err, EPERM,
			"a seccomp filter cordon runs under refuses the listener its supervisor "
			"needs, and it is no cordon session's (another sandbox's, or a session of "
			"an older cordon); refusing to start");
		goto fail;
	}
	if (launcher_policy(a, session, true, &p, &err, NULL) < 0)
		goto fail;
	/* A config read by name: a later session that may write it, and keeps
	 * another read-only, moves it aside as it ends if it changed (round
	 * 37c F1). */
	const char *named = a->config && *a->config ? a->config : getenv("CORDON_CONFIG");
	if (p.sandbox && named && *named)
		cordon_sweep_note_config(named);
	/* And where its XDG directories are: a later launch without the
	 * variables (an IDE's task, cron) guards them too (round 51e F2). */
	if (p.sandbox)
		cordon_sweep_note_xdg(getenv);
	launcher_say_no_project(&p);
	launcher_say_off_flags(&p);
	launcher_say_exposed(&p);
	launcher_say_unfollowed(&p);
	launcher_say_sockets_unapplied(&p);
	launcher_say_omz_unasked(&p);
	launcher_say_shared_mounts(&p);
	if (cordon_env_build(environ, p.sandbox, &p.env_allow, session, p.sandbox, &env) < 0 ||
	    (p.sandbox && !p.allow_network && cordon_env_offline(&env) < 0)) {
		cordon_err(&err, ENOMEM, "out of memory");
		goto fail;
	}
	if (learn && prepare_learn(learn, &p, &env, &err) < 0)
		goto fail;
	if (p.sandbox && cordon_sandbox_nested()) {
		/* Inside another session: servers keep their sockets in the
		 * outer session's directory. */
		if (launcher_outer_sockets(&p, &env) < 0) {
			cordon_err(&err, ENOMEM, "out of memory");
			goto fail;
		}
	} else if (p.sandbox) {
		/* Servers started inside put their sockets there (tmux), out of
		 * the way of the user's own outside. */
		char dir[PATH_MAX];
		if (cordon_session_socket_dir(session, dir, sizeof(dir)) == 0 &&
		    (!(p.socket_dir = strdup(dir)) ||
		     launcher_env_set(&env, "TMUX_TMPDIR", dir) < 0)) {
			cordon_err(&err, ENOMEM, "out of memory");
			goto fail;
		}
		/* And no socket in /tmp, where clients outside look for
		 * their servers (policy.c): the sessions' programs make
		 * theirs, and their temporary files, in a directory of the
		 * user's there. */
		uid_t owner = 0;
		int made = cordon_session_tmp_dir(&p, launcher_env_get(&env, "TMPDIR"), dir,
						  sizeof(dir), &owner);
		char unpinned[4200];
		int u = made == -EPERM ? cordon_tmp_dir_unpinned(dir, unpinned) : 0;
		if (u < 0 || (made == -EPERM && !(p.tmp_id = strdup(unpinned))))
			made = u < 0 ? u : -ENOMEM;
		if (made == -EPERM)
			/* (Another user's: no refusal, which any user could
			 * cause; the session just has no place for sockets.
			 * Its record says it pins none: 43e F2, a session made
			 * after the squat is gone meets it in the registry.) */
			fprintf(stderr,
				"cordon: %s is uid %u's, not yours: this session gets no TMPDIR of "
				"its own, and makes no socket in /tmp; have it removed (its owner "
				"or root can)\n",
				dir, (unsigned)owner);
		else if (made > 0 && (!(p.tmp_dir = strdup(dir)) ||
				      (made == 1 && launcher_env_set(&env, "TMPDIR", dir) < 0)))
			made = -ENOMEM;
		if (made < 0 && made != -EPERM) {
			cordon_err(&err, -made, "TMPDIR: the sessions' temporary directory: %s",
				   strerror(-made));
			goto fail;
		}
		/* Jupyter's runtime directory is hidden (a server's token there
		 * lets a session drive it: round 60h H2): a Jupyter started
		 * inside keeps its connection files in one of the session's
		 * own, where the user has named none (where /tmp is no shared
		 * directory of the session's, none: JUPYTER_RUNTIME_DIR is the
		 * user's to set). */
		char jupyter[PATH_MAX + 64];
		if (made > 0 && !launcher_env_get(&env, "JUPYTER_RUNTIME_DIR") &&
		    (size_t)snprintf(jupyter, sizeof(jupyter), "%s/jupyter-%s", dir, session) <
			    sizeof(jupyter) &&
		    launcher_env_set(&env, "JUPYTER_RUNTIME_DIR", jupyter) < 0) {
			cordon_err(&err, ENOMEM, "out of memory");
			goto fail;
		}
		/* node's compile cache (and yarn 1's v8-compile-cache, tsx's)
		 * would be kept in that TMPDIR, shared by the user's sessions,
		 * and an entry there is loaded without looking at its code
		 * (round 52d F2: one planted by a session ran at tsc in a later
		 * one, with a write rule the first lacked; 52e F1, F2): none is
		 * kept inside. */
		if (launcher_env_set(&env, "NODE_DISABLE_COMPILE_CACHE", "1") < 0 ||
		    launcher_env_set(&env, "DISABLE_V8_COMPILE_CACHE", "1") < 0 ||
		    launcher_env_set(&env, "TSX_DISABLE_CACHE", "1") < 0) {
			cordon_err(&err, ENOMEM, "out of memory");
			goto fail;
		}
	}

	char shell[PATH_MAX];
	char login_flag[] = "-l";
	snprintf(shell, sizeof(shell), "%s", launcher_login_shell());
	char *shell_argv[] = {shell, login_flag, NULL};
	char **argv = a->n_rest > 0 ? a->rest : shell_argv;
	r = cordon_exec_find(argv[0], launcher_env_get(&env, "PATH"), &path);
	if (r < 0) {
		fprintf(stderr, "cordon: %s: %s\n", argv[0],
			r == -ENOENT ? "command not found" : strerror(-r));
		r = r == -ENOENT ? CORDON_EXIT_NOTFOUND : CORDON_EXIT_NOEXEC;
		goto out;
	}
	if (a->project && enter_project(&p, &err) < 0)
		goto fail;
	if (learn && p.sandbox) {
		cleanup_free char *canon = realpath(path, NULL);
		if (canon && !policy_executes(&p, canon))
			(void)learn_allow_command(&p, canon, learn->sup_fd);
	}
	if (refuse_unexecutable(&p, argv[0], path, &err) < 0)
		goto fail;
	if (!learn && a->n_rest == 0 && isatty(STDERR_FILENO))
		launcher_toolchain_hint(a);
	launcher_git_tokens(&p);
	if (p.sandbox) {
		struct cordon_error herr = {0};
		if (launcher_history(&p, path, session, &env, &shell_own, &herr) < 0)
			fprintf(stderr, "cordon: %s; shell history is not kept in this session\n",
				herr.msg);
	}

	/* Decide who applies the sandbox: the shim in the command's first
	 * process, or the session before the command's exec. */
	bool preload = false;
	const char *why = "sandbox off (enabled is false, or apply_to does not cover this kind)";
	if (p.sandbox) {
		if (cordon_shim_enforces)
			preload = cordon_exec_preloadable(path, &why);
		else
			why = "the launcher applies the sandbox on this platform";
		/* Libraries the loader finds through these (an allowed variable)
		 * run their constructors before the shim's. */
		if (preload && (launcher_env_get(&env, "LD_LIBRARY_PATH") ||
				launcher_env_get(&env, "LD_AUDIT"))) {
			preload = false;
			why = "LD_LIBRARY_PATH or LD_AUDIT is passed: what the loader finds through it "
			      "would run before the shim";
		}
		/* The shim applies the sandbox in its constructor: the program's
		 * own .preinit_array, its loader and the constructors of its
		 * libraries run before that. One the session could have written
		 * (built in the project, put in /tmp), or its interpreter or
		 * loader, or one reached through a link the session could swap
		 * before the exec, gets the sandbox before its exec instead. */
		struct writable wr;
		if (writable_init(&p, &wr) < 0) {
			cordon_strv_free(&wr.canon);
			cordon_err(&err, ENOMEM, "out of memory");
			goto fail;
		}
		if (preload && cordon_exec_chain_any(path, writable_here, &wr)) {
			preload = false;
			why = "it, its #! interpreter or its loader, a library it loads (or a directory "
			      "the loader looks in for one), or a link on the way to one, lies where the "
			      "session (or an earlier one) can write, or it names an audit library, so "
			      "code of its own would run before the shim";
		}
		if (preload) {
			if (launcher_find_shim(&shim, &err) < 0 || !shim) {
				cordon_strv_free(&wr.canon);
				goto fail;
			}
			/* The build note is no secret: a library an earlier session
			 * planted where this one may write could carry it, and its
			 * constructor would run before any sandbox. */
			cleanup_free char *shim_canon = realpath(shim, NULL);
			if (strpbrk(shim, " :")) {
				preload = false; /* ld.so would split the path */
				why = "the shim's path contains a space or colon";
			} else if (!shim_canon || writable_here(shim_canon, &wr)) {
				preload = false;
				why = "the shim lies where the session (or an earlier one) can write, so a library planted "
				      "there would run before the sandbox";
			}
		}
		cordon_strv_free(&wr.canon);
	}
	if (preload) {
		if ((shim_fd = open_shim(shim, shim_name, sizeof(shim_name), &err)) < 0)
			goto fail;
		if (prepare_preload(shim_name, learn ? learn->lib : NULL, &env, &err) < 0)
			goto fail;
		if (a->verbose)
			fprintf(stderr, "cordon: session %s: %s, sandbox applied by %s\n", session,
				path, shim);
	} else {
		char *kv;
		if (learn && (asprintf(&kv, CORDON_PRELOAD_VAR "=%s", learn->lib) < 0 ||
			      cordon_strv_push_take(&env, kv) < 0)) {
			cordon_err(&err, ENOMEM, "out of memory");
			goto fail;
		}
		if (a->verbose)
			fprintf(stderr, "cordon: session %s: %s: %s%s\n", session, path, why,
				p.sandbox ? ", sandbox applied before exec" : "");
	}

	for (size_t i = 0; i < a->n_pass_fds; i++)
		if (fcntl(a->pass_fds[i], F_GETFD) < 0) {
			cordon_err(&err, EBADF, "--pass-fd %d: not an open file descriptor",
				   a->pass_fds[i]);
			goto fail;
		}
	struct cordon_launch launch = {
		.pass_fds = a->pass_fds,
		.n_pass_fds = a->n_pass_fds,
		.path = path,
		.argv = argv,
		.envp = env.v,
		.policy = &p,
		.preload = preload,
		.shim_fd = shim_fd,
		.learn_fd = learn ? learn->fd : -1,
		.learn_sup_fd = learn ? learn->sup_fd : -1,
		.verbose = a->verbose,
		.sigpipe_ignored = sigpipe_ignored,
	};
	int status = 0;
	struct cordon_placeholders held = {0};
	if (cordon_sweep_start(&p, &held, &sweep, &err) < 0)
		goto fail;
	launch.ways = &sweep.ways;
	launch.sweep = &sweep;
	launch.standins = &held;
	/* What is removed, or read, once the whole session is gone. */
	sess.wait_end = held.n > 0 || sweep.roots.n > 0 || sweep.names.n > 0 || sweep.n_above > 0 ||
			sweep.ways.n > 0;
	int ran = cordon_session_run(&sess, a->tracking, &launch, &status, &err);
	struct cordon_strv filled = {0};
	cordon_placeholders_release(&held, sess.ended, &filled);
	cordon_placeholders_say(&filled);
	cordon_strv_free(&filled);
	struct cordon_strv said = {0};
	if (sess.ended) /* (before the walk: it judges what git will find) */
		cordon_guard_restore_heads(&sweep, &said);
	cordon_sweep_end(&sweep, sess.ended, &said);
	for (size_t i = 0; i < said.n; i++) {
		cordon_closing_line();
		fprintf(stderr, "%s\n", said.v[i]);
	}
	cordon_strv_free(&said);
	if (ran < 0) {
		if (sess.exec_errno) {
			cordon_closing_line();
			fprintf(stderr, "cordon: %s: %s\n", argv[0], strerror(sess.exec_errno));
			r = sess.exec_errno == ENOENT ? CORDON_EXIT_NOTFOUND : CORDON_EXIT_NOEXEC;
			goto out;
		}
		goto fail;
	}
	r = status;
	/* An interactive shell the sandbox refused (46b F2: a tmux pane
	 * closed at once on a nested refusal, its reason unread). */
	if (sess.refused && !learn && a->n_rest == 0)
		launcher_hold_terminal();
	goto out;
fail:
	launcher_error(&err);
	if (!learn && a->n_rest == 0)
		launcher_hold_terminal(); /* an interactive shell that never started */
	r = CORDON_EXIT_FAILURE;
out:
	if (shim_fd >= 0)
		close(shim_fd);
	launcher_history_end(&shell_own);
	free(sess.cgroup);
	cordon_strv_free(&env);
	cordon_sweep_cancel(&sweep);
	cordon_policy_free(&p);
	return r;
}
