/* Guards put back while the session runs (reguard.c). */
#ifndef CORDON_LINUX_REGUARD_H
#define CORDON_LINUX_REGUARD_H

#include <sys/types.h>

#include "cordon/error.h"
#include "cordon/guard.h"
#include "cordon/policy.h"
#include "cordon/sweep.h"

/* Before the command starts: the watch's inotify instance (the command
 * could use up the user's instances first). 0, or -errno with ERR: the
 * session must not start. */
int cordon_reguard_prepare(struct cordon_error *err);
/* Once COMMAND runs sandboxed in a mount namespace of its own: watch the
 * directories of the files P's guards keep read-only or hidden, and the
 * ways to the hidden names that do not exist yet (each directory on the
 * way as it appears); one made or moved in there (a save outside that
 * renamed a new file over a guarded one) gets its guard again at once.
 * On WAYS (cordon/guard.h; may be NULL), a lure the session lays is moved
 * aside at once, and noted there. SWEEP's names (cordon/sweep.h; may be
 * NULL), protected names no mount could guard, are watched the same way:
 * one made, or a link laid on its way, is moved aside at once and said,
 * and an empty socket file, held in STANDINS (may be NULL) and pinned in
 * the session's namespace, stands in for it until the session
 * ends, so that it cannot be made again meanwhile. 0, or -errno (nothing
 * watched then). */
int cordon_reguard_start(const struct cordon_policy *p, pid_t command,
			 struct cordon_hidden_ways *ways, const struct cordon_sweep *sweep,
			 struct cordon_placeholders *standins);
/* The watch ends (before the session's end is judged). */
void cordon_reguard_stop(void);

#endif
