/* cordon — the user's configuration, as written in config.json.
 *
 * A config is parsed strictly: malformed JSON, trailing bytes, unknown keys,
 * a key repeated in one object, wrong types and bad enum values are errors
 * whose message names the file and the key ("<file>: <key>: expected ..."). Every key is optional; see
 * cordon_config_init() for the defaults. */
#ifndef CORDON_CONFIG_H
#define CORDON_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon/error.h"
#include "cordon/strv.h"

#define CORDON_CONFIG_MAX_BYTES ((size_t)1 << 20) /* larger files are refused */

/* The three path classes, shared by system_paths.* and additional_*_paths. */
enum cordon_class {
	CORDON_CLASS_EXEC = 0, /* read + execute */
	CORDON_CLASS_RO,       /* read */
	CORDON_CLASS_RW,       /* read + write + create + remove */
	CORDON_CLASS_COUNT
};

/* The kinds of session a config can apply to (a bitmask). */
enum cordon_kind {
	CORDON_KIND_TERMINAL = 1u << 0,
	CORDON_KIND_TOOL = 1u << 1,
};

enum cordon_on_unsupported {
	CORDON_UNSUPPORTED_REFUSE = 0,
	CORDON_UNSUPPORTED_WARN,
};

struct cordon_config {
	char *origin;      /* file it came from, or "(built-in defaults)" */
	char *file;        /* the file read (NULL: built-in defaults) */
	bool enabled;      /* default true */
	unsigned apply_to; /* mask of enum cordon_kind; default both */
	/* system_paths.*: has_system[c] false means "null: the OS default list". */
	bool has_system[CORDON_CLASS_COUNT];
	struct cordon_strv system[CORDON_CLASS_COUNT];
	struct cordon_strv additional[CORDON_CLASS_COUNT];
	bool allow_network; /* default true */
	/* allowed_domains (cordon/domains.h): has_domains false when unset (the
	 * network, if on, is the whole network); set, even to [], TCP leaves
	 * only through cordon's proxy, to these hosts. denied_domains wins. */
	bool has_domains;
	struct cordon_strv allowed_domains;
	struct cordon_strv denied_domains;
	bool has_env; /* false: the default allowlist */
	struct cordon_strv allowed_env;
	/* additional_env_vars: added to allowed_env or the default list. */
	struct cordon_strv additional_env;
	enum cordon_on_unsupported on_unsupported;
	/* share_terminal: true gives a session the user's terminal itself;
	 * default false: a terminal of its own, which the launcher relays
	 * (shim/linux/ptyrelay.h). */
	bool share_terminal;
	/* allowed_unix_sockets: paths ("~", relative to the project) or "$NAME"
	 * (the path in environment variable NAME when the session starts). */
	struct cordon_strv unix_sockets;
	/* protected_paths (relative to the project, "~" allowed): read-only
	 * inside even beneath a writable rule. has_protected false: the
	 * default list (cordon_default_protected). */
	struct cordon_strv protected_paths;
	/* hidden_paths: unreadable even beneath a readable rule, unless a rule
	 * names the path itself. has_hidden false: cordon_default_hidden. */
	struct cordon_strv hidden_paths;
	bool has_protected;
	bool has_hidden;
	/* additional_protected_paths, additional_hidden_paths: added to
	 * protected_paths and hidden_paths, or to their defaults (a list of
	 * one's own in protected_paths drops every default). */
	struct cordon_strv additional_protected;
	struct cordon_strv additional_hidden;
	/* toolchains: preset names, each one cordon_toolchain_known. */
	struct cordon_strv toolchains;
};

/* Set every key to its default. ORIGIN is copied. Returns 0 or -ENOMEM. */
int cordon_config_init(struct cordon_config *cfg, const char *origin);
void cordon_config_free(struct cordon_config *cfg);

/* Parse LEN bytes of JSON TEXT into CFG (initialised here; freed on error).
 * ORIGIN names the file in messages. */
int cordon_config_parse(const char *text, size_t len, const char *origin, struct cordon_config *cfg,
			struct cordon_error *err);

/* Read and parse the file at PATH (at most CORDON_CONFIG_MAX_BYTES). */
int cordon_config_load_file(const char *path, struct cordon_config *cfg, struct cordon_error *err);

/* Which config file applies, in order: EXPLICIT (--config), $CORDON_CONFIG,
 * $XDG_CONFIG_HOME/cordon/config.json, $HOME/.config/cordon/config.json.
 * Explicit and $CORDON_CONFIG must exist; the XDG files are used when they
 * exist (a symbolic link there whose file is missing is an error, not
 * "no config"). On success *PATH_OUT is a malloc'd path or NULL (built-in defaults).
 * GETENV lets tests and the shim supply their own environment lookup. */
int cordon_config_discover(const char *explicit_path, char *(*getenv_fn)(const char *),
			   char **path_out, struct cordon_error *err);

/* Discover and load in one step (defaults when no file applies). */
int cordon_config_load(const char *explicit_path, char *(*getenv_fn)(const char *),
		       struct cordon_config *cfg, struct cordon_error *err);

/* The object of ROOT (a parsed config file) that holds cordon's keys, into
 * *BLOCK (borrowed): 1, an editor settings file's terminal.sandbox block
 * (either spelling); 0, ROOT itself, a cordon config; -1, an editor
 * settings file without one (or with both spellings), *BLOCK NULL. */
struct json_object;
int cordon_config_block(struct json_object *root, struct json_object **block);

/* Every top-level key a config may have ("$schema" included), NULL-terminated. */
extern const char *const cordon_config_keys[];

/* Names used in messages and on the wire. */
const char *cordon_class_key(enum cordon_class c);       /* "executable", ... */
const char *cordon_class_extra_key(enum cordon_class c); /* "additional_..._paths" */

#endif
