/* Internal interface of the macOS backend (shim/macos/). Apple's sandbox
 * entry points are not in a public header: they are declared here as libsystem
 * exports them (see also sandbox_init(3), deprecated but present). */
#ifndef CORDON_MACOS_H
#define CORDON_MACOS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cordon/sbpl.h"

enum sandbox_filter_type {
	SANDBOX_FILTER_NONE = 0,
	SANDBOX_FILTER_PATH = 1,
};
extern const enum sandbox_filter_type SANDBOX_CHECK_NO_REPORT;

int sandbox_init_with_parameters(const char *profile, uint64_t flags,
				 const char *const parameters[], char **errorbuf);
void sandbox_free_error(char *errorbuf);
int sandbox_check(pid_t pid, const char *operation, enum sandbox_filter_type type, ...);

/* The per-session fingerprint paths, derived from the session id and the
 * uid: DIR = /private/tmp/cordon-UID/fp-SESSION, with DIR/allow and
 * DIR/deny. The launcher creates them before applying the profile; the
 * watcher probes and removes them. Buffers are PATH_MAX bytes. */
struct cordon_fp_paths {
	char dir[1024], allow[1024], deny[1024];
};
void cordon_macos_fp_paths(const char *session, uid_t uid, struct cordon_fp_paths *out);

/* Whether PID's sandbox allows reading ALLOW and denies reading DENY: it
 * is in the session. */
int cordon_macos_in_session(pid_t pid, const struct cordon_fp_paths *fp);

/* The session's directory for unix sockets made inside (policy->socket_dir:
 * servers started in the session bind there, and the profile lets the
 * session connect to what is bound there): the user's temporary directory,
 * canonical, + "/cordon-SESSION". The temporary directory is the first that
 * exists of $TMPDIR (when absolute), confstr(_CS_DARWIN_USER_TEMP_DIR) and
 * /private/tmp, resolved with realpath(3) (/var/folders/... →
 * /private/var/folders/...):
 * the profile matches the paths the kernel resolves. Written to OUT (SIZE
 * bytes). Returns 0 or -errno. The same answer each time in one process, so
 * the launcher's session start (which makes it) and its sandbox (which
 * names it in the profile) agree.
 *
 * macOS keeps sun_path to 104 bytes; this name is ~80 for the usual $TMPDIR,
 * which leaves room for tmux's "tmux-UID/default" below it. */
int cordon_macos_socket_dir(const char *session, char *out, size_t size);

/* Whether PATH is a directory, not a symbolic link, owned by the caller,
 * with mode 0700: 0, -ENOENT when there is nothing there, else -EPERM (or
 * the lstat error). */
int cordon_macos_own_dir(const char *path);

#endif
