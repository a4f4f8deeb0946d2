/* cordon — finding and inspecting the command a session runs. */
#ifndef CORDON_EXEC_H
#define CORDON_EXEC_H

#include <stdbool.h>

/* Find CMD like execvp would, searching PATH_ENV (NULL: the default
 * "/usr/local/bin:/usr/bin:/bin"); a CMD with a '/' is taken as it is.
 * Returns 0 with *OUT malloc'd, -ENOENT when nothing is found, -EACCES when a
 * candidate exists but is not an executable regular file. */
int cordon_exec_find(const char *cmd, const char *path_env, char **out);

/* Whether the preloaded shim can be trusted to enter PATH before its code
 * runs. False for: statically linked ELF (no PT_INTERP), ELF of another class
 * or machine than ours, ELF whose loader is not the one the shim is built for
 * (CORDON_SHIM_LOADER: ld-linux for glibc), set-user/group-ID files and files with capabilities
 * (security.capability: the loader drops LD_PRELOAD), files we cannot read,
 * and scripts whose interpreter (followed up to 4 levels) is one of those;
 * and for every PATH when this process's real and effective ids differ
 * (every exec is then a secure one). For false, *WHY says which (static
 * string). */
bool cordon_exec_preloadable(const char *path, const char **why);

/* Whether TEST(CANON, ARG) holds for the canonical path of PATH or of an
 * interpreter its "#!" line names, followed up to 4 levels, or of the loader
 * (PT_INTERP) of the ELF program at its end, or of a name in a directory that
 * program's RPATH/RUNPATH has the loader search (or a library it names by
 * path), or for the directory of a symbolic link met on the way to any of
 * them (which could be swapped before the exec); also true when one of them
 * cannot be resolved, the chain goes deeper, or the loader's path is
 * relative. */
bool cordon_exec_chain_any(const char *path, bool (*test)(const char *canon, void *arg), void *arg);

#endif
