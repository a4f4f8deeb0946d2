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
 * -ENOMEM. */
int cordon_hidden_tracked(const struct cordon_strv *canon, const struct cordon_strv *named,
			  const struct cordon_strv *sources,
			  bool (*readable)(const char *gitdir, void *arg), void *arg,
			  struct cordon_strv *warnings);

#endif
