/* cordon — Seatbelt (macOS sandbox) profiles, generated from a policy.
 * Plain C, built and tested on every platform; only shim/macos/ applies it.
 *
 * Every path reaches the profile as a parameter: the text only ever says
 * (param "P3"), and the values go to sandbox_init_with_parameters as
 * "P3", "/the/path" pairs. Nothing from the policy is spliced into the
 * profile text, so no path can change its meaning. */
#ifndef CORDON_SBPL_H
#define CORDON_SBPL_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon/error.h"
#include "cordon/policy.h"

/* The session fingerprint: under a per-session directory DIR that nothing
 * inside may write, ALLOW is readable and DENY is not. A process whose
 * sandbox allows ALLOW and denies DENY belongs to the session. */
struct cordon_fingerprint {
	const char *dir;
	const char *allow;
	const char *deny;
};

struct cordon_sbpl {
	char *profile;   /* the SBPL text */
	char **params;   /* "NAME", "VALUE", ..., NULL: for sandbox_init_with_parameters */
	size_t n_params; /* number of NAME/VALUE pairs */
};

/* The profile for P: (deny default); process fork and exec of executable
 * paths; signals to itself and its children; the rules of P (read, write,
 * execute, canonical paths); the network only when P allows it; and the
 * fingerprint FP (may be NULL). When P->sandbox is false, a fingerprint-only
 * profile: (allow default) and the fingerprint's deny. Returns 0 or -errno.
 *
 * Unix sockets, with the network on or off: connect (and sendto with an
 * address) only to each of P->sockets (one path-literal rule each), under
 * P->socket_dir when set, and to the DNS resolver's socket
 * (/private/var/run/mDNSResponder) with the network on; bind only under
 * P->socket_dir, which the profile also makes readable and writable (no
 * symbolic or hard links in it). Nothing else. */
int cordon_sbpl_generate(const struct cordon_policy *p, const struct cordon_fingerprint *fp,
			 struct cordon_sbpl *out, struct cordon_error *err);
void cordon_sbpl_free(struct cordon_sbpl *s);

/* The macOS spelling of PATH: /tmp, /var and /etc live under /private.
 * Returns a malloc'd string or NULL. */
char *cordon_sbpl_canonical(const char *path);

#endif
