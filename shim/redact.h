/* cordon — tools' configs that hold a secret beside settings the tool
 * needs inside: covered by a copy without the secret (shim/redact.c). */
#ifndef CORDON_REDACT_H
#define CORDON_REDACT_H

#include <stdbool.h>

/* Whether PATH (absolute) is one of the configs whose secrets a copy
 * leaves out: cargo's (.cargo/config.toml, .cargo/config), hatch's and
 * pdm's (hatch/config.toml, pdm/config.toml), go's (go/env), by the last
 * two names of the path. */
bool cordon_redact_config(const char *path);

/* FROM (such a config) copied to TO with every value of a key named
 * token, auth or password (TOML's key = value, a dotted key's last part,
 * in an inline table too) made "", and a URL's user and password
 * ("https://me:pw@host/") left out: 0 or -errno. Read and write only, no
 * allocation (the watch's child calls it, in a process with other
 * threads). A line longer than 8 KiB is left out whole. */
int cordon_redact_copy(int from, int to);

/* Whether the copy of the file at PATH would differ from it (it holds a
 * secret): false where it cannot be read. */
bool cordon_redact_needed(const char *path);

#endif
