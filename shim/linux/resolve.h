/* Internal: a path of a judged call, found as its caller sees it
 * (resolve.c), for the supervisor's handlers that act on it themselves
 * (metadata.c).
 *
 * The supervisor's threads live in the host's mount namespace; the caller
 * may not (its guards are mounts in a namespace of its own). A walk from
 * the caller's root or working directory stays on the caller's mounts,
 * but the kernel resolves an absolute symbolic link met on the way from
 * the walking thread's own root: the host's, where no guard is (session
 * 23 set an extended attribute on a read-only .git/config that way,
 * through `ln -s $PWD/.git/config c`). So the path is walked here one
 * component at a time (O_PATH|O_NOFOLLOW), with the caller's credentials:
 *   - each symbolic link is read and its text walked in its place, an
 *     absolute one from the caller's root; at most 40, as the kernel;
 *   - ".." stops at the caller's root;
 *   - in the caller's procfs, "self" and "thread-self" are the caller (its
 *     pids in its own pid namespace), and its own fd/N, cwd and root magic
 *     links are its fd N (taken), working directory and root; any other
 *     magic link is refused (EACCES). */
#ifndef CORDON_RESOLVE_H
#define CORDON_RESOLVE_H

#include <limits.h>
#include <stdbool.h>

#include "call.h"

struct cordon_found {
	int dir;                 /* ours: the directory LAST is in, or (WHOLE) the file */
	char last[NAME_MAX + 2]; /* "" (the path was "/"), ".", "..", a name; a trailing "/" kept */
	bool whole;              /* the path ended at the caller's own magic link */
};

/* PATH of C, from START (borrowed; -1 or an
 * absolute PATH: ROOT, the caller's root, borrowed) up to its last
 * component; FOLLOW: a last component that is a symbolic link is followed
 * too. 0 (OUT->dir ours), or -errno. */
int cordon_call_find(struct cordon_call *c, int root, int start, const char *path, bool follow,
		     struct cordon_found *out);

#endif
