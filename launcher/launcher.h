/* Internal interface of the `cordon` program: one function per subcommand,
 * plus the policy set-up they share. */
#ifndef CORDON_LAUNCHER_H
#define CORDON_LAUNCHER_H

#include "args.h"
#include "cordon/error.h"
#include "cordon/policy.h"

/* Load the config the arguments select and resolve it for this session into
 * P (kind, project, command-line additions). SESSION may be NULL. ORIGIN, if
 * not NULL, receives the config's file name (malloc'd). */
int launcher_policy(const struct cordon_args *a, const char *session, struct cordon_policy *p,
		    struct cordon_error *err, char **origin);

/* The user's home: $HOME if absolute, else the passwd entry. NULL if none. */
const char *launcher_home(void);

int cmd_run(const struct cordon_args *a);
int cmd_explain(const struct cordon_args *a);
int cmd_check(const struct cordon_args *a);
int cmd_list(const struct cordon_args *a);
int cmd_ps(const struct cordon_args *a);
int cmd_kill(const struct cordon_args *a);

/* Print "cordon: MSG" on stderr. */
void launcher_error(const struct cordon_error *err);

#endif
