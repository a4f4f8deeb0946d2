/* The gitlinks (submodule entries) of a repository's index. */
#ifndef CORDON_GITINDEX_H
#define CORDON_GITINDEX_H

/* Each gitlink's name (relative to the worktree) in GITDIR's index, and in
 * the shared index a split one names, to EACH; a negative value from it
 * stops. 0 (no index: none), EACH's value, or -errno (-EINVAL: not an
 * index git writes; what was read before stands). */
int cordon_git_index_gitlinks(const char *gitdir, int (*each)(const char *name, void *arg),
			      void *arg);

#endif
