/* git's config files read as git reads them: one reader for every place
 * cordon looks into one (the guards' includes and core.hooksPath, the
 * .gitmodules paths, the end's judge of a repository's keys). */
#ifndef CORDON_GITCONFIG_H
#define CORDON_GITCONFIG_H

#include <stdbool.h>
#include <stddef.h>

/* One entry, as git hands it to its callbacks. */
struct cordon_gitcfg_entry {
	const char *section; /* lowercased, without its subsection: "remote" */
	const char *sub;     /* its subsection ("origin"), NULL for none */
	const char *key;     /* lowercased: "url" */
	const char *value;   /* as git reads it; NULL for a key with no "=" */
	/* As written: the header it is under ("[remote \"origin\"]", empty
	 * before any), and the entry from its key to its value's end (lines
	 * a final backslash carries on included). */
	const char *header;
	size_t header_len;
	const char *text;
	size_t text_len;
};

typedef int (*cordon_gitcfg_fn)(const struct cordon_gitcfg_entry *e, void *arg);

/* Each entry of the config TEXT (LEN bytes) to FN(E, ARG), in order, by
 * git's own rules (config.c: a key on its section's line, a subsection
 * after any blank, quotes anywhere in a value, \ escapes, a final \ that
 * carries a value on, # and ; comments, CRLF line ends, a byte-order
 * mark). 0 when git reads all of it; -EINVAL where git would refuse it
 * (FN had what came before, as git's callbacks have before it dies);
 * -ENOMEM; or the first negative FN returned. */
int cordon_gitcfg_parse(const char *text, size_t len, cordon_gitcfg_fn fn, void *arg);

/* The config FILE (a regular file; a final link followed) so: -ENOENT
 * when it is missing or no regular file, -EFBIG when it is longer than
 * CORDON_GIT_CONFIG_MAX (not read), else as cordon_gitcfg_parse. */
int cordon_gitcfg_read(const char *file, cordon_gitcfg_fn fn, void *arg);

/* The entries git takes from its environment (GIT_CONFIG_COUNT, and
 * GIT_CONFIG_KEY_N / GIT_CONFIG_VALUE_N: read after every file, so they
 * win) to FN(E, ARG), as cordon_gitcfg_parse hands a file's. 0, -EINVAL
 * where git would refuse them (a count that is no number, a pair
 * missing), or FN's negative return. */
int cordon_gitcfg_env(cordon_gitcfg_fn fn, void *arg);

/* The environment git reads config from (GIT_CONFIG_GLOBAL,
 * GIT_CONFIG_SYSTEM, GIT_CONFIG_COUNT and its pairs), as GETENV_FN has
 * it, into OUT as "NAME=VALUE": what the launcher hands the shim, whose
 * environment is the session's, filtered. 0 or -ENOMEM. */
struct cordon_strv;
int cordon_gitcfg_env_capture(char *(*getenv_fn)(const char *), struct cordon_strv *out);
/* From now on read those from KV (cordon_gitcfg_env_capture's; NULL: the
 * process's environment again). */
void cordon_gitcfg_env_from(const struct cordon_strv *kv);
/* NAME as the readers here take it (KV, or the environment). */
const char *cordon_gitcfg_getenv(const char *name);
/* The name, in KV, of each config directory an earlier launch had as
 * XDG_CONFIG_HOME (the policy puts one entry each): git outside, run with
 * it, reads its git/config as global config. */
#define CORDON_GITCFG_KNOWN_HOME "CORDON_KNOWN_CONFIG_HOME"
/* Each such directory in KV (none where the environment is read) into
 * OUT, once. 0 or -ENOMEM. */
int cordon_gitcfg_known_homes(struct cordon_strv *out);

/* A path VALUE as git takes an include's or core.hooksPath's (its
 * interpolate_path): "~" and "~/..." under HOME (NULL: none), "~user/..."
 * under that user's home, an absolute one as it is, a relative one under
 * BASE (NULL: not taken). Into OUT (SIZE bytes); false when git would take
 * none ("%(prefix)/", a user who does not exist) or it does not fit. */
bool cordon_gitcfg_path(const char *value, const char *home, const char *base, char *out,
			size_t size);

#endif
