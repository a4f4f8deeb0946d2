/* cordon — the resolved policy as it crosses exec.
 *
 * Frame: a 4-byte little-endian payload length (checked against
 * CORDON_WIRE_MAX before anything is allocated), then the payload, binary,
 * integers little-endian, a string being a u32 length and its bytes:
 *   u8 version, u8 flags (1 sandbox, 2 allow_network, 4 on_unsupported warn,
 *   8 home present), str project ("": none), [str home], str session,
 *   u32 n, n x (u8 access rwx bits + 0x80 prepared, str path, str source),
 *   u32 n, n x str env name,
 *   u32 n, n x (u8 guard kind, str path, str source),
 *   then u32 n, n x str for each of envrc_allowed, envrc_whitelisted,
 *   envrc_prefixes, git_env and hidden_globs.
 * Both ends are the same build (the launcher finds the shim beside it), so
 * there is no negotiation: another version is refused. Decoding is strict:
 * every read is bounds-checked, unknown flag or access bits, NUL bytes in a
 * string, a relative path where an absolute one belongs and bytes after the
 * last field are errors. CORDON_CONFIG_FD names where the frame is: a socket
 * on which the session watcher sends it after the exec, with the Landlock
 * ruleset it built ahead (Linux, cgroup sessions), or a sealed memfd. (It was JSON: parsing it was ~85 us
 * of every launch, in the shell's first process.) */
#ifndef CORDON_WIRE_H
#define CORDON_WIRE_H

#include <stddef.h>

#include "cordon/error.h"
#include "cordon/policy.h"

#define CORDON_WIRE_VERSION  7
#define CORDON_WIRE_MAX      (1u << 22) /* 4 MiB */
#define CORDON_ENV_CONFIG_FD "CORDON_CONFIG_FD"

/* Serialize P into a malloc'd frame (*BUF, *LEN include the length prefix). */
int cordon_wire_encode(const struct cordon_policy *p, char **buf, size_t *len,
		       struct cordon_error *err);
/* Decode a whole frame of LEN bytes into OUT (freed on error). */
int cordon_wire_decode(const char *buf, size_t len, struct cordon_policy *out,
		       struct cordon_error *err);

/* Write P's frame to a new sealed memfd positioned at 0. The FD is NOT
 * close-on-exec: it is meant to cross exec. Returns the fd or -errno. */
int cordon_wire_to_memfd(const struct cordon_policy *p, struct cordon_error *err);
/* Read one frame from FD (pipe or memfd) and decode it. Does not close FD. */
int cordon_wire_read_fd(int fd, struct cordon_policy *out, struct cordon_error *err);
/* The same on the supervisor's channel (a socket), which may pass a
 * descriptor with the frame's first bytes (SCM_RIGHTS): *PASSED (close-on-
 * exec), or -1. It is the caller's, also when decoding fails. The channel
 * stays open after the frame (the hand-over, cordon_session_confirm). */
int cordon_wire_recv_fd(int fd, struct cordon_policy *out, int *passed, struct cordon_error *err);

/* Parse the value of CORDON_CONFIG_FD: a decimal fd number >= 3 (strtol with
 * end-pointer checks). Returns the fd or -EINVAL. */
int cordon_wire_parse_fd(const char *s);

#endif
