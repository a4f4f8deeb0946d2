/* Internal interface of the macOS backend (shim/macos/). Apple's sandbox
 * entry points are not in a public header: they are declared here as libsystem
 * exports them (see also sandbox_init(3), deprecated but present). */
#ifndef CORDON_MACOS_H
#define CORDON_MACOS_H

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

#endif
