/* macOS enforcement: Seatbelt, applied by the launcher before exec (dyld
 * strips DYLD_* for SIP-protected binaries, so the shim cannot be the
 * enforcement point for /bin/zsh and friends), or by the DYLD shim in
 * standalone mode for non-system shells. The profile comes from the portable
 * generator (shim/sbpl.c); every path is a parameter. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/sandbox.h"
#include "cordon/sbpl.h"
#include "cordon/wire.h"
#include "macos.h"

const bool cordon_shim_enforces = false;

void cordon_macos_fp_paths(const char *session, uid_t uid, struct cordon_fp_paths *out)
{
	snprintf(out->dir, sizeof(out->dir), "/private/tmp/cordon-%u/fp-%s", (unsigned)uid,
		 session ? session : "none");
	snprintf(out->allow, sizeof(out->allow), "%s/allow", out->dir);
	snprintf(out->deny, sizeof(out->deny), "%s/deny", out->dir);
}

int cordon_macos_socket_dir(const char *session, char *out, size_t size)
{
	/* The first that exists, made canonical. confstr is asked only when
	 * $TMPDIR will not do: it may ask opendirectoryd for the user's UUID. */
	char canon[PATH_MAX];
	const char *env = getenv("TMPDIR");
	bool found = env && env[0] == '/' && realpath(env, canon);
	if (!found) {
		char user_tmp[PATH_MAX];
		size_t n = confstr(_CS_DARWIN_USER_TEMP_DIR, user_tmp, sizeof(user_tmp));
		found = n > 0 && n <= sizeof(user_tmp) && realpath(user_tmp, canon);
	}
	if (!found && !realpath("/private/tmp", canon))
		return -errno;
	int n = snprintf(out, size, "%s/cordon-%s", strcmp(canon, "/") == 0 ? "" : canon,
			 session ? session : "none");
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int cordon_macos_own_dir(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 07777) != 0700)
		return -EPERM;
	return 0;
}

int cordon_macos_in_session(pid_t pid, const struct cordon_fp_paths *fp)
{
	int flags = SANDBOX_FILTER_PATH | SANDBOX_CHECK_NO_REPORT;
	/* sandbox_check returns 0 when allowed, 1 when denied, -1 on error. */
	int allow =
		sandbox_check(pid, "file-read-data", (enum sandbox_filter_type)flags, fp->allow);
	int deny = sandbox_check(pid, "file-read-data", (enum sandbox_filter_type)flags, fp->deny);
	return allow == 0 && deny == 1;
}

void cordon_sandbox_probe(struct cordon_support *out)
{
	memset(out, 0, sizeof(*out));
	out->platform = "macos";
	/* Seatbelt is always there; report it through the Landlock slot as
	 * "fully capable" so the shared checks pass. */
	out->landlock_abi = 0;
	out->seccomp = false;
}

int cordon_sandbox_missing(const struct cordon_policy *policy, const struct cordon_support *sup,
			   char *buf, size_t size)
{
	(void)policy;
	(void)sup;
	if (size)
		buf[0] = '\0';
	return 0;
}

void cordon_sandbox_describe(const struct cordon_support *sup, char *buf, size_t size)
{
	(void)sup;
	snprintf(buf, size,
		 "files:     Seatbelt (sandbox_init_with_parameters): read, write, execute per "
		 "path\n"
		 "network:   Seatbelt: all of it, none, or by domain (only cordon's proxy)\n"
		 "sockets:   unix sockets: the allowed ones and the session's own directory\n"
		 "signals:   to itself and its children only\n"
		 "sessions:  a fingerprint in the profile, probed with sandbox_check\n"
		 "guards:    protected_paths and hidden_paths: deny rules in the profile\n");
}

static int already_sandboxed(void)
{
	/* With no operation, sandbox_check says whether PID has a sandbox. */
	return sandbox_check(getpid(), NULL, SANDBOX_FILTER_NONE) == 1;
}

bool cordon_sandbox_needs_supervisor(const struct cordon_support *sup)
{
	(void)sup;
	return false; /* the profile decides unix sockets */
}

bool cordon_sandbox_unix_in_kernel(const struct cordon_support *sup)
{
	(void)sup;
	return false; /* Seatbelt's profile, not a kernel right */
}

bool cordon_sandbox_view_read_only(const char *path)
{
	(void)path;
	return false;
}

bool cordon_sandbox_nested(void)
{
	return false; /* Seatbelt profiles stack; there is no supervisor to share */
}

bool cordon_sandbox_listener_refused(void)
{
	return false; /* no seccomp */
}

int cordon_sandbox_nested_guards(const struct cordon_policy *p, struct cordon_strv *unkept,
				 struct cordon_error *err)
{
	(void)p;
	(void)unkept;
	(void)err;
	return 0; /* never nested */
}

int cordon_sandbox_prepare(struct cordon_policy *p)
{
	(void)p;
	return -1;
}

int cordon_sandbox_apply_prepared(const struct cordon_policy *p, int prepared, int *listener,
				  struct cordon_error *err)
{
	if (prepared >= 0)
		close(prepared);
	return cordon_sandbox_apply(p, listener, err);
}

int cordon_sandbox_apply(const struct cordon_policy *p, int *listener, struct cordon_error *err)
{
	if (listener)
		*listener = -1; /* no supervisor on macOS */
	if (already_sandboxed())
		return cordon_err(
			err, EPERM,
			"this process is already in a macOS sandbox, and a sandbox cannot "
			"be applied twice: start cordon from an unsandboxed terminal");
	/* By domain, the proxy is the launcher's session's (session.c), which
	 * set its port: the shim alone (DYLD_INSERT_LIBRARIES) has none to
	 * start before the program's environment exists, as on Linux. */
	if (p->sandbox && p->allow_network && p->domains && !p->proxy_port)
		return cordon_err(err, ENOTSUP,
				  "allowed_domains needs the launcher: start the shell with "
				  "`cordon run` rather than DYLD_INSERT_LIBRARIES alone");
	struct cordon_fp_paths fpp;
	cordon_macos_fp_paths(p->session, getuid(), &fpp);
	struct cordon_fingerprint fp = {.dir = fpp.dir, .allow = fpp.allow, .deny = fpp.deny};
	/* The session's socket directory, which cordon_session_start made, when
	 * the caller has not named one: the profile lets the session bind and
	 * connect there. None when there is none (standalone, no session). */
	struct cordon_policy q = *p; /* shallow: only socket_dir differs, and q is not freed */
	char dir[PATH_MAX];
	if (p->sandbox && !p->socket_dir && p->session &&
	    cordon_macos_socket_dir(p->session, dir, sizeof(dir)) == 0) {
		int r = cordon_macos_own_dir(dir);
		if (r == 0)
			q.socket_dir = dir;
		else if (r != -ENOENT)
			return cordon_err(err, -r,
					  "%s: the session's socket directory is not a directory "
					  "of yours with mode 0700",
					  dir);
	}
	struct cordon_sbpl s;
	int r = cordon_sbpl_generate(&q, p->session ? &fp : NULL, &s, err);
	if (r < 0)
		return r;
	char *why = NULL;
	r = sandbox_init_with_parameters(s.profile, 0, (const char *const *)s.params, &why);
	if (r != 0) {
		r = cordon_err(err, EPERM, "the Seatbelt profile was refused: %s",
			       why ? why : "no reason given");
		if (why)
			sandbox_free_error(why);
	}
	cordon_sbpl_free(&s);
	return r;
}

/* The launcher never preloads on macOS (cordon_shim_enforces is false):
 * nothing to check. */
int cordon_shim_check(const char *path, struct cordon_error *err)
{
	(void)path;
	(void)err;
	return 0;
}

int cordon_shim_open(const char *path, struct cordon_error *err)
{
	(void)path;
	return cordon_err(err, ENOTSUP, "the shim is never preloaded on macOS");
}

/* The launcher never preloads on macOS (cordon_shim_enforces is false), so
 * the policy never travels on a memfd here; macOS has no memfd either. */
int cordon_wire_to_memfd(const struct cordon_policy *p, struct cordon_error *err)
{
	(void)p;
	return cordon_err(err, ENOTSUP, "the policy fd is not used on macOS");
}
