/* cordon — repositories made or changed inside, looked at as a session
 * ends (shim/sweep.c, shim/gitrisk.c).
 *
 * The guards keep the repositories that exist when a session starts
 * read-only where git would find a program to run (.git/config, hooks).
 * A repository that did not exist then (git init, git clone, a nested
 * repository) cannot be guarded by a mount, and neither can one the
 * guards did not reach (a nested clone that is not a submodule). So when
 * the whole session is gone, the process that supervised it walks the
 * project for every .git the guards did not cover, and one that was made
 * or changed while the session ran and would now make git outside run a
 * program (a hook, core.fsmonitor, a filter, ...) is moved aside, whole,
 * to ".git.cordon-disarmed": git outside no longer finds it, nothing in
 * it is lost, and the user is told in one line what it would have run.
 * A protected file with no stand-in that the session made (.mcp.json) is
 * moved aside the same way. */
#ifndef CORDON_SWEEP_H
#define CORDON_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "cordon/policy.h"
#include "cordon/strv.h"

struct cordon_sweep {
	char *project; /* canonical; NULL: nothing to look at */
	/* The session's start, to the second (file systems that keep
	 * coarser times truncate them): a change at or after it may have been
	 * made inside. */
	struct timespec since;
	/* The read-only guards' paths: a .git one covers existed, and was
	 * kept out of the session's reach. */
	struct cordon_strv guarded;
	/* Protected names missing as the session started that no mount could
	 * guard (cordon_guard_plan.unguarded): one that exists as it ends was
	 * made meanwhile, and is moved aside too (a .git: the walk's). */
	struct cordon_strv names;
};

/* Whether a session under P is swept as it ends: sandboxed, with a
 * project, and a .git path among the protected ones. */
bool cordon_sweep_applies(const struct cordon_policy *p);
/* As the session is about to start: set S up for P (nothing to do when P
 * has no sandbox, no project, or protects no .git path). GUARDED is taken
 * over (its strings move into S). Returns 0 or -ENOMEM. */
int cordon_sweep_begin(const struct cordon_policy *p, struct cordon_strv *guarded,
		       struct cordon_sweep *s);
/* Take over NAMES (cordon_guard_plan.unguarded) for S. */
void cordon_sweep_names(struct cordon_sweep *s, struct cordon_strv *names);
/* As the session has ended (after every process of it is gone, where
 * that can be known): walk the project, move aside and say, on stderr.
 * Returns how many names were moved aside. */
int cordon_sweep_end(struct cordon_sweep *s);
void cordon_sweep_free(struct cordon_sweep *s);

/* What the git directory at DOTGIT (a ".git" directory, or the one a
 * ".git" file names) would run when git is used there: "its config sets
 * core.fsmonitor, and it has hooks (pre-commit)", or "" for nothing
 * (shim/gitrisk.c). */
void cordon_git_risks(const char *dotgit, char *out, size_t size);

#endif
