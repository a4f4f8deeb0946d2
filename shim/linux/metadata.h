/* Internal: file metadata and watches, judged by the supervisor
 * (metadata.c).
 *
 * Landlock has no right for chmod, chown, utimes or extended attributes, and
 * none for inotify: from inside, chmod 777 ~/.ssh/id_ed25519 or a touch of
 * a file outside took effect, and a watch on an outside directory reported
 * the names created there. So these calls go to the supervisor, which
 *   - finds the file the caller names, once, in the caller's view (its
 *     root, working directory or directory fd; links followed as resolve.h
 *     says, an absolute one from the caller's root; /proc/self/fd/N as the
 *     caller's fd N; no other magic link), or takes the caller's fd;
 *   - lets a change of metadata through only strictly beneath a rule that
 *     grants write (or on a file a rule names), never on a device node
 *     (shared with the host) except its times, and never a set-id bit;
 *     extended attributes only in user.* and the POSIX ACLs;
 *   - lets a watch through only on what a rule lets the session read;
 *   - and then performs the call itself on the file it found (the kernel
 *     never re-reads the caller's path), with the caller's fd where the
 *     call names one, so that the result is the caller's own (an inotify
 *     watch descriptor in its instance).
 * An fd on nothing reachable by a path (a pipe, a socket, an unlinked file)
 * changes nothing outside, and is let through. */
#ifndef CORDON_METADATA_H
#define CORDON_METADATA_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>

#include "call.h"
#include "cordon/error.h"
#include "cordon/policy.h"

struct cordon_meta_rule {
	char *path; /* canonical */
	bool dir;
};

struct cordon_meta {
	struct cordon_meta_rule *write, *read;
	size_t n_write, n_read;
};

int cordon_meta_init(struct cordon_meta *m, const struct cordon_policy *p,
		     struct cordon_error *err);
void cordon_meta_free(struct cordon_meta *m);

/* Whether D is one of the calls judged here. */
bool cordon_meta_is(const struct seccomp_data *d);
/* Judge and perform C's call: its result, or -errno. */
long cordon_meta_handle(const struct cordon_meta *m, struct cordon_call *c);

#endif
