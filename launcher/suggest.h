/* What cordon learn and cordon explain may propose: the root of the tool a
 * denied path belongs to, and the paths they never propose. */
#ifndef CORDON_LAUNCHER_SUGGEST_H
#define CORDON_LAUNCHER_SUGGEST_H

#include <stdbool.h>

#include "cordon/policy.h"

/* Why PATH (absolute) is never proposed: "/", $HOME, /root, a system
 * directory (and one level below /usr, /var, /run, /boot), anything under
 * /proc, /sys, /dev, a directory
 * every program shares (~/.config, ~/.cache, ~/.local), cordon's own config
 * (CONFIG, the file in use, may be NULL) or a credential store (hidden_paths
 * of P). NULL: it may be proposed. */
const char *suggest_never(const struct cordon_policy *p, const char *config, const char *path);

/* Why a read-write rule on PATH (absolute) is never proposed, beyond
 * suggest_never: anything under a system directory (/etc, /usr, /opt,
 * /var but /var/tmp, /boot, /root, ..., a login's /run/user), where programs outside
 * find their settings and code, and anything in the home but a cache
 * (~/.cache, ~/.npm, ~/.cargo/registry, ...): shell startup files, git's
 * and systemd's settings, editors' plugins, Python's user site all run
 * outside later. Anywhere: what is, contains or lies under a repository's
 * protected path (a .git component, a protected_paths name, a git
 * directory, a directory core.hooksPath names), a guard of P (dotfiles,
 * what runs from the home, cordon's config, credential stores), or the
 * home; and, outside the home, a directory holding more than cordon looks
 * through for those. A cache programs outside run code from as it is
 * there (suggest_code_cache). Outside the home, a prefix's library
 * directory (lib, lib64, libexec beside a bin, in a Homebrew Cellar), its
 * shell completions and functions (etc/bash_completion.d,
 * share/zsh, share/fish, ...), and a directory holding a shared object,
 * an executable file or such a directory.
 * NULL: it may be proposed. The reason may be a static buffer, valid until
 * the next call. */
const char *suggest_never_write(const struct cordon_policy *p, const char *path);

/* Why PATH (absolute) is, lies under or holds (*BENEATH) a cache programs
 * outside run code from as it is there: compiled code (~/.cache/go-build,
 * ~/.cache/nvim's byte-compiled Lua), environments and programs run from
 * it (~/.npm/_npx, ~/.cache/pre-commit), what zsh sources as it starts
 * (~/.cache/p10k-*, ~/.zcompdump*); those in ~/.cache also in
 * $XDG_CACHE_HOME. NULL: none. A static buffer, valid until the next call. */
const char *suggest_code_cache(const char *home, const char *path, bool *beneath);

/* Why a read rule on PATH is only shown, never written: it is or lies in
 * one of the user's own directories of HOME (Documents, Desktop,
 * Downloads, Pictures, ..., the XDG user directories, synced folders,
 * mail). NULL: none. */
const char *suggest_personal(const char *home, const char *path);

/* The root of the tool PATH (absolute) belongs to, malloc'd: ~/.X for a
 * path under a dot-directory of HOME (~/.config/X, ~/.cache/X,
 * ~/.local/share/X, ~/.local/bin for the shared ones), /opt/X, /usr/local/X;
 * *TOOL is then true. Else PATH's directory (PATH itself when it is one),
 * *TOOL false. */
char *suggest_root(const char *home, const char *path, bool *tool);

/* Why DIR must not be made writable: it holds programs that run outside the
 * session too (bin, sbin, shims, libexec, a PATH entry; with LOOK_INSIDE,
 * for a tool's root, also executable files or a bin directory in it). NULL:
 * none seen. */
const char *suggest_holds_programs(const char *dir, bool look_inside);

/* Whether PATH names a shared library (mapped executable). */
bool suggest_is_library(const char *path);

/* PATH as a config entry, malloc'd: "~/..." under HOME, else as is. */
char *suggest_entry(const char *home, const char *path);

#endif
