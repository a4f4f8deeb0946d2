/* cordon — the resolved policy as it crosses exec.
 *
 * Frame: a 4-byte little-endian payload length, then that many bytes of JSON.
 * The length is checked against CORDON_WIRE_MAX before anything is allocated.
 * Decoding is as strict as config parsing: every key is required, no unknown
 * keys, every type checked. The launcher puts the frame in a sealed memfd
 * whose number it passes in CORDON_CONFIG_FD. */
#ifndef CORDON_WIRE_H
#define CORDON_WIRE_H

#include <stddef.h>

#include "cordon/error.h"
#include "cordon/policy.h"

#define CORDON_WIRE_VERSION  1
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

/* Parse the value of CORDON_CONFIG_FD: a decimal fd number >= 3 (strtol with
 * end-pointer checks). Returns the fd or -EINVAL. */
int cordon_wire_parse_fd(const char *s);

#endif
