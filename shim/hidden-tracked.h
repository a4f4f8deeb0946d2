/* Internal: hidden files a git repository the session reads tracks
 * (hidden-tracked.c). */
#ifndef CORDON_HIDDEN_TRACKED_H
#define CORDON_HIDDEN_TRACKED_H

#include <stdbool.h>

#include "cordon/strv.h"

/* The hidden paths as they were found (each resolved, CANON[i], and as its
 * entry names it, NAMED[i], of SOURCES[i]): for each that lies in the
 * worktree of a git repository (a .git directory or file in a directory
 * above it) whose git dir READABLE(GITDIR, ARG) says the session reads,
 * and that the repository's index lists (the path, or a file beneath it),
 * a line into WARNINGS: its bytes are in the repository's objects, which
 * hiding a name does not hide (round 59c F1: a dotfiles repository as the
 * project, `git show HEAD:gh/hosts.yml`). Each index is read once. 0 or
 * -ENOMEM. The same for the bare repositories a home is commonly kept in
 * (~/.cfg and its like, yadm's, vcsh's: under HOME, NULL for none), whose
 * worktree is core.worktree or else HOME. */
int cordon_hidden_tracked(const struct cordon_strv *canon, const struct cordon_strv *named,
			  const struct cordon_strv *sources, const char *home,
			  bool (*readable)(const char *gitdir, void *arg), void *arg,
			  struct cordon_strv *warnings);

/* The bare repositories a home is commonly kept in (as above) whose
 * index lists one of HIDDEN (absolute, resolved) beneath its worktree:
 * each git dir into GITDIRS, the first such entry into ENTRIES. Not one
 * PROJECT lies in or holds, nor one whose worktree is PROJECT (git there
 * is the user's own work). 0 or -ENOMEM. */
/* Whether there is any such repository under HOME: the hidden paths are
 * resolved for cordon_hidden_bare only then. */
bool cordon_hidden_bare_there(const char *home);
int cordon_hidden_bare(const char *home, const char *project, const struct cordon_strv *hidden,
		       struct cordon_strv *gitdirs, struct cordon_strv *entries);

#endif
