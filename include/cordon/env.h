/* cordon — the environment a sandboxed shell sees. */
#ifndef CORDON_ENV_H
#define CORDON_ENV_H

/* The loader's preload variable and the shim's file name on this platform. */
#ifdef __APPLE__
#define CORDON_PRELOAD_VAR "DYLD_INSERT_LIBRARIES"
#define CORDON_SHIM_NAME   "libcordon.dylib"
#else
#define CORDON_PRELOAD_VAR "LD_PRELOAD"
#define CORDON_SHIM_NAME   "libcordon.so"
#endif

#include <stdbool.h>

#include "cordon/strv.h"

#define CORDON_ENV_SESSION "CORDON_SESSION"
#define CORDON_ENV_SANDBOX "CORDON_SANDBOX"

/* Build the environment for a session from ENVP into OUT (appended):
 * - FILTER true: only names matching ALLOW (exact, or "PREFIX*"), plus TERM,
 *   COLORTERM, TERM_PROGRAM, TERM_PROGRAM_VERSION;
 * - FILTER false (enabled: false): everything;
 * either way without LD_PRELOAD, DYLD_INSERT_LIBRARIES, CORDON_CONFIG_FD and
 * any inherited CORDON_SESSION/CORDON_SANDBOX, then the markers
 * CORDON_SESSION=SESSION and CORDON_SANDBOX=1 (or 0 when SANDBOX is false).
 * Returns 0 or -ENOMEM. */
int cordon_env_build(char *const *envp, bool filter, const struct cordon_strv *allow,
		     const char *session, bool sandbox, struct cordon_strv *out);

/* With the network off: tell the package managers that retry for minutes
 * on a refused lookup (npm retries every error for 70 s) to work offline,
 * from their caches, and fail at once otherwise: npm_config_offline,
 * CARGO_NET_OFFLINE, GOPROXY=off, PIP_RETRIES=0, UV_OFFLINE,
 * YARN_ENABLE_OFFLINE_MODE, each unless OUT already sets it (a value the
 * user let through, such as a local GOPROXY, wins). Returns 0 or -ENOMEM. */
int cordon_env_offline(struct cordon_strv *out);

/* S is a variable name (letters, digits and _, not starting with a digit)
 * or a "PREFIX*" pattern: what allowed_env_vars, additional_env_vars and
 * --allow-env take. */
bool cordon_env_name_valid(const char *s);
/* PATH is spelled with a shell variable: it begins with "$NAME" (a name
 * in capitals, digits and "_", then "/" or the end) or holds "${"
 * anywhere. The path lists take no variables (only allowed_unix_sockets'
 * "$NAME" entries), so such a path would be taken as a name relative to
 * the project that does not exist, and do nothing; they refuse it. A "$"
 * further in ("/mnt/c/$Recycle.Bin", "Foo$1.class"), or one that begins
 * a name in other letters (irb's "$irbrc"), is a name's. */
bool cordon_path_spells_variable(const char *path);
/* NAME is one cordon_env_build removes whatever the lists say
 * (LD_PRELOAD, DYLD_INSERT_LIBRARIES, CORDON_CONFIG_FD): listing it would
 * pass nothing, so the lists refuse it. */
bool cordon_env_never_passed(const char *name);

/* Whether NAME matches an entry of ALLOW. */
bool cordon_env_allowed(const struct cordon_strv *allow, const char *name, size_t name_len);

/* Remove every entry of LD_PRELOAD naming LIB (a path or basename match of
 * "libcordon.so") from the value VAL. Returns a malloc'd string ("" when
 * nothing is left) or NULL on allocation failure. */
char *cordon_env_strip_preload(const char *val, const char *lib);

#endif
