/* cordon — toolchain presets: a named toolchain ("python", "rust", ...) as
 * the directories it needs, each with its class.
 *
 * A preset adds rules as if the user had written the paths in the
 * additional_*_paths lists: the tool's own tree executable (read + execute,
 * never writable: what is written there runs outside later), its download
 * cache read-write, and never a credential (hidden_paths still hide them;
 * a preset path at or under one is dropped). Tool homes that the tool
 * itself moves with an environment variable (CARGO_HOME, RUSTUP_HOME,
 * PYENV_ROOT, NVM_DIR, GOPATH, GOMODCACHE, GOCACHE, XDG_CACHE_HOME) follow
 * that variable when it is set to an absolute path. */
#ifndef CORDON_TOOLCHAIN_H
#define CORDON_TOOLCHAIN_H

#include <stdbool.h>

#include "cordon/config.h"

/* The preset names, NULL-terminated, in the order the docs list them. */
extern const char *const cordon_toolchain_names[];
/* "python, rust, node, go, local-bin": for messages. */
const char *cordon_toolchain_names_text(void);
/* Whether NAME is a preset. */
bool cordon_toolchain_known(const char *name);

/* One path a preset grants. */
struct cordon_toolchain_entry {
	const char *path; /* absolute ("~" expanded), not canonical */
	enum cordon_class cls;
	bool file; /* a read-write lock file, not a directory */
	/* The environment variable the path (or the tool home it is in) was
	 * taken from ("CARGO_HOME"), or NULL for the default. */
	const char *var;
	/* The tool home it lies in (CARGO_HOME's value), which must exist
	 * before a missing read-write entry is made; NULL: none (the entry
	 * stands on its own, like ~/.npm). */
	const char *tool_home;
};

/* Call FN for each path preset NAME grants for the user whose home is HOME
 * (NULL: entries under "~" are left out), GETENV_FN giving the environment
 * (NULL: the defaults only). Stops at FN's first negative return and
 * returns it; -EINVAL for an unknown NAME; -ENOMEM; else 0. */
int cordon_toolchain_each(const char *name, const char *home, char *(*getenv_fn)(const char *),
			  int (*fn)(const struct cordon_toolchain_entry *e, void *data),
			  void *data);

/* Make E's path when it is read-write and missing, lies under HOME (never
 * elsewhere), and its tool home exists (a ~/.cargo/registry is made only
 * where there is a ~/.cargo): directories with mkdir -p, 0700 for what is
 * made; lock files empty, 0600. DRY: only say whether it would be made.
 * Returns 1 when made (would be), 0 when not, -errno when making it
 * failed. */
int cordon_toolchain_make(const struct cordon_toolchain_entry *e, const char *home, bool dry);

/* The environment variables preset NAME lets through (NULL-terminated;
 * empty for an unknown name). */
const char *const *cordon_toolchain_env(const char *name);

/* The preset whose paths hold ABS_PATH (absolute; canonical or not), or
 * NULL. Used by `cordon check` (and for learn) to suggest a preset rather
 * than a list of directories. */
const char *cordon_toolchain_for_path(const char *abs_path, const char *home,
				      char *(*getenv_fn)(const char *));

#endif
