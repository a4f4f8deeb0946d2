/* cordon — what the home's startup and config files name as code
 * (shim/dotfile-refs.c). */
#ifndef CORDON_DOTFILE_REFS_H
#define CORDON_DOTFILE_REFS_H

#include <stddef.h>

/* Call FN(PATH, FILE, ARG) for each path the shells' startup files, ssh's,
 * git's, tmux's and vim's config files in HOME (and what those include or
 * source by name, sixteen levels down) name as code: what they source, run,
 * include or put on a search path (PATH, fpath, ZDOTDIR, runtimepath, ...).
 * PATH is "~/REST" or absolute; where a name holds a glob, the directory
 * before it. FILE is the file that names it, as "~/REST". GETENV_FN gives
 * XDG_CONFIG_HOME (NULL: the default). Stops at FN's first negative return
 * and returns it; else 0. A name built at run time ($DOTFILES/x, $(...)) is
 * not followed. */
int cordon_dotfile_refs(const char *home, char *(*getenv_fn)(const char *),
			int (*fn)(const char *path, const char *file, void *arg), void *arg);
/* The same for the config directory CONFIG_HOME alone (git/config,
 * fish/config.fish, ... there): one an earlier launch had as
 * XDG_CONFIG_HOME. */
int cordon_dotfile_refs_config(const char *home, const char *config_home,
			       int (*fn)(const char *path, const char *file, void *arg), void *arg);

/* Call FN(PATH, FILE, ARG) for each file the .envrc ENVRC (absolute)
 * loads or runs by name: what it sources (source_env, a directory's
 * .envrc, source_env_if_exists, source, .), the files dotenv and
 * dotenv_if_exists read (.env when none is named), the programs it runs
 * by a path, and what those source, sixteen levels down. A relative name is
 * taken beneath the directory of the file naming it, and PATH is then
 * absolute; "~/REST" (HOME's) or absolute otherwise. Not source_up's (a
 * parent's), nor what PATH_add puts on PATH. Into DYNAMIC (SIZE bytes;
 * may be NULL): the first name of a file it loads that is built at run
 * time (.envrc.$USER), which cannot be followed, or "". Stops at FN's
 * first negative return and returns it; else 0. */
int cordon_envrc_refs(const char *envrc, const char *home,
		      int (*fn)(const char *path, const char *file, void *arg), void *arg,
		      char *dynamic, size_t size);

/* The same for one line of shell TEXT (N bytes) run in the directory
 * BASE (lefthook's run:): the scripts it runs by a path or through an
 * interpreter, what it sources or reads (and what those source); relative
 * names beneath BASE. */
int cordon_shell_refs(const char *text, size_t n, const char *base,
		      int (*fn)(const char *path, const char *file, void *arg), void *arg);

/* Call FN(PATH, FILE, ARG) for each file the yarn rc file RC (absolute:
 * a .yarnrc.yml, or yarn 1's .yarnrc) names as code yarn runs: its
 * yarnPath (yarn-path), and the plugins' paths. A relative one is taken
 * beneath RC's directory (PATH is absolute). Into UNREAD (SIZE bytes; may
 * be NULL): the first line naming a yarnPath (or a plugin's path) in a
 * form not read (a quoted key, flow style, an anchor, ${VAR}), or "".
 * Stops at FN's first negative return and returns it; else 0. */
int cordon_yarnrc_refs(const char *rc, int (*fn)(const char *path, const char *file, void *arg),
		       void *arg, char *unread, size_t size);

#endif
