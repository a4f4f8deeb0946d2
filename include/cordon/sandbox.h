/* cordon — applying a policy to the calling process (one interface; the
 * build picks shim/linux/ or shim/macos/). */
#ifndef CORDON_SANDBOX_H
#define CORDON_SANDBOX_H

#include <stdbool.h>

#include "cordon/error.h"
#include "cordon/policy.h"

/* What this kernel can enforce. */
struct cordon_support {
	int landlock_abi;     /* 0: no Landlock (err_landlock says why) */
	int landlock_errno;   /* errno of the version query when abi is 0 */
	bool seccomp;         /* seccomp filters available */
	bool notify;          /* seccomp user notification: the supervisor */
	const char *platform; /* "linux", "macos" */
};

void cordon_sandbox_probe(struct cordon_support *out);

/* Whether the preloaded shim can be the enforcement point for ordinary
 * (dynamically linked) commands: true on Linux. False on macOS, where dyld
 * strips DYLD_* from system binaries: the launcher always applies the
 * sandbox itself there, and also when the sandbox is off (the session's
 * fingerprint profile). */
extern const bool cordon_shim_enforces;

/* Whether PATH is the libcordon.so built with this program (Linux: an ELF
 * note carrying the build tree's token; see shim/linux/shim-note.h). 0 if
 * it is; -errno with ERR naming PATH and what it is instead (not an ELF
 * shared library for this machine, another library, a shim of another
 * build) otherwise. A library that is not the shim would load, or be
 * skipped by the loader, and the command run before any sandbox: the
 * caller must not preload it. Always 0 on macOS, which never preloads. */
int cordon_shim_check(const char *path, struct cordon_error *err);

/* The same check, on the file it leaves open (close-on-exec, above stdio):
 * its fd, or -errno with ERR. Linux: the command's loader maps the shim
 * through this fd (/proc/self/fd/./N), so the library checked is the one
 * that loads, whatever happens to PATH meanwhile (round 59g F1: a shim
 * replaced or renamed during the launch). */
int cordon_shim_open(const char *path, struct cordon_error *err);

/* Names of the enforcement features POLICY needs that SUP lacks, joined with
 * ", " into BUF (empty when everything is enforceable). Returns the count. */
int cordon_sandbox_missing(const struct cordon_policy *policy, const struct cordon_support *sup,
			   char *buf, size_t size);

/* What SUP lets cordon enforce, one "label: text" line per area (files,
 * network, scopes, syscalls, /proc), for `cordon check`. Written to BUF
 * (NUL-terminated, truncated to SIZE). */
void cordon_sandbox_describe(const struct cordon_support *sup, char *buf, size_t size);

/* Whether the session needs the supervisor on a kernel with SUP: always on
 * Linux (metadata, watches, System V IPC, calls on other processes, ptys
 * made inside; unix sockets too before Landlock ABI 9, whose RESOLVE_UNIX
 * right decides them in the kernel); never on macOS (Seatbelt's profile
 * decides). */
bool cordon_sandbox_needs_supervisor(const struct cordon_support *sup);
/* Whether the kernel itself decides unix sockets (Landlock ABI 9). */
bool cordon_sandbox_unix_in_kernel(const struct cordon_support *sup);

/* Whether this process runs inside a cordon session, judged by the kernel:
 * the session's filter answers cordon's mark (shim/linux/seccomp-mark.h),
 * an operation the kernel does not have, with an errno of its own; nothing
 * is ever loaded. A session started there (`cordon run` in a cordon
 * session) stacks its Landlock rules and its filter on the outer
 * session's, whose supervisor keeps judging what only a supervisor can (a
 * process has one at most). Linux only. */
bool cordon_sandbox_nested(void);

/* Whether a seccomp filter this process runs under refuses a listener
 * (EPERM for a request the kernel would find invalid: nothing is loaded),
 * so that no supervisor of cordon's could be attached: another sandbox's
 * filter, or (where not nested) a session of an older cordon, which had no
 * mark. Linux only. */
bool cordon_sandbox_listener_refused(void);

/* Whether the session's read-only view keeps PATH unwritten although a
 * write rule reaches it: on Linux, where a mount namespace can be made
 * (every mount read-only but the write rules' own copies), a name in /sys,
 * or in /dev but on a file system of its own there (/dev/shm); a device
 * node is written through the node, as its mode allows. macOS: false. */
bool cordon_sandbox_view_read_only(const char *path);
/* Inside another session (cordon_sandbox_nested), whether P's guards are
 * all kept by the outer session's (no mount can be made): 0, or -ENOTSUP
 * with ERR naming those that are not, whose paths go to UNKEPT (NULL: not
 * wanted). -ENOMEM. */
int cordon_sandbox_nested_guards(const struct cordon_policy *p, struct cordon_strv *unkept,
				 struct cordon_error *err);
/* Why a session by domain cannot start inside another one (Linux: refused
 * with it, exit 125; explain says the same). */
#define CORDON_NESTED_DOMAINS_REFUSED                                                              \
	"allowed_domains cannot be kept inside another cordon session (a process has one "         \
	"supervisor, the outer session's): start this session outside it, or use --no-network"

/* Restrict the calling process, irrevocably, to POLICY; every process it
 * starts inherits the restriction. No-op (0) when policy->sandbox is false.
 * Returns 0 when fully enforced; 1 when the kernel lacks something and
 * policy->on_unsupported is "warn" (ERR holds the warning, what could be
 * enforced is); -errno with ERR filled otherwise — the caller must then not
 * run anything.
 *
 * LISTENER: where the supervisor's end goes when the policy needs one (Linux,
 * see cordon_sandbox_needs_supervisor): the seccomp listener, close-on-exec,
 * which the caller hands to the session's supervisor and closes before
 * anything else runs (a copy left in the session would let it answer its own
 * calls). *LISTENER is -1 when no supervisor is needed. LISTENER NULL: the
 * caller has no supervisor; the calls it would judge (connect, sendmsg,
 * sendto with an address) then fail with ENOSYS. */
int cordon_sandbox_apply(const struct cordon_policy *policy, int *listener,
			 struct cordon_error *err);

/* cordon_sandbox_apply, with PREPARED (or -1): a Landlock ruleset that
 * cordon_sandbox_prepare built for POLICY in another process; the rules not
 * marked prepared are added to it here. Closes PREPARED. */
int cordon_sandbox_apply_prepared(const struct cordon_policy *policy, int prepared, int *listener,
				  struct cordon_error *err);

/* Linux: build POLICY's Landlock ruleset ahead, in the session watcher, and
 * mark the rules it holds as prepared: every rule but those under /proc or
 * that open into a procfs (the shim adds those, after its private /proc).
 * Returns the ruleset's fd, or -1 with no rule marked (sandbox off, no
 * Landlock, or an error: the shim then does it all and reports the error).
 * Elsewhere: -1. */
int cordon_sandbox_prepare(struct cordon_policy *policy);

#endif
