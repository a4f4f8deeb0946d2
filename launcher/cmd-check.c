/* cordon check: what this machine can enforce, on one screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/config.h"
#include "cordon/policy.h"
#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "launcher.h"
#include "util.h"

/* Session tracking: can a session cgroup be created here, and killed with
 * cgroup.kill? Prints its lines; returns whether cgroups work. */
static bool check_tracking(void)
{
	struct cordon_error err = {0};
	char *mount = NULL, *own = NULL, *leaf = NULL;
	char id[CORDON_SESSION_ID_LEN + 1];
	bool cgroup_ok = false, kill_file = false;
	if (cordon_cgroup_locate(&mount, &own, &err) < 0) {
		printf("cgroup v2: unavailable (%s)\n", err.msg);
	} else {
		printf("cgroup v2: %s, this process in %s\n", mount, own);
		if (cordon_session_id(id) == 0 && cordon_cgroup_create(id, &leaf, &err) == 0) {
			cgroup_ok = true;
			char kill_path[4096];
			snprintf(kill_path, sizeof(kill_path), "%s/cgroup.kill", leaf);
			struct stat st;
			kill_file = stat(kill_path, &st) == 0;
			rmdir(leaf);
		}
		if (cgroup_ok)
			printf("           session cgroups can be created; the command starts in "
			       "its own\n           (clone3 CLONE_INTO_CGROUP: no move, no wait)\n");
		else
			printf("           session cgroups cannot be created here (%s)\n", err.msg);
	}
	if (cgroup_ok)
		printf("tracking:  cgroup (%s)\n",
		       kill_file ? "cgroup.kill" : "freeze + kill: cgroup.kill needs Linux 5.14");
	else
		printf("tracking:  a subreaper keeper (a process that escapes to another "
		       "subreaper is not tracked)\n");
	free(mount);
	free(own);
	free(leaf);
	return cgroup_ok;
}

int cmd_check(const struct cordon_args *a)
{
	struct cordon_support sup;
	cordon_sandbox_probe(&sup);
	printf("platform:  %s\n", sup.platform);
	if (sup.landlock_abi > 0)
		printf("landlock:  ABI %d\n", sup.landlock_abi);
	else
		printf("landlock:  unavailable (%s)\n", strerror(sup.landlock_errno));
	printf("seccomp:   %s\n", sup.seccomp ? "available" : "unavailable");
	if (!cordon_sandbox_needs_supervisor(&sup))
		printf("sockets:   unix sockets decided by the sandbox profile\n");
	else if (!sup.notify)
		printf("sockets:   NOT mediated: no seccomp user notification (Linux 5.0; the "
		       "supervisor needs 5.6)\n");
	else if (cordon_sandbox_unix_in_kernel(&sup))
		printf("sockets:   unix sockets decided by Landlock (RESOLVE_UNIX): the session's "
		       "own and allowed_unix_sockets\n");
	else
		printf("sockets:   unix sockets only to the session's own and allowed_unix_sockets:\n"
		       "           cordon run stays the session's parent and supervises connect,\n"
		       "           sendmsg, sendmmsg and sendto with an address (seccomp user "
		       "notification)\n");
	if (sup.notify && cordon_sandbox_needs_supervisor(&sup))
		printf("objects:   chmod/chown/utimes/xattrs only under write rules (see guards),\n"
		       "           inotify (read rules), System V IPC, prlimit/renice/sched/ioprio,\n"
		       "           process groups, the foreground, ptys made inside (the session's "
		       "own);\n"
		       "           keyrings, fanotify, chattr, leases, sock_diag, process events "
		       "refused\n");
	bool nested = cordon_sandbox_nested();
	bool refused = !nested && cordon_sandbox_listener_refused();
	if (nested)
		printf("nested:    this shell is inside a cordon session: a session started here\n"
		       "           stacks its file and network rules on it; the outer supervisor\n"
		       "           keeps judging sockets, metadata and watches\n");
	else if (refused)
		printf("seccomp:   a filter this shell runs under (another sandbox's, or a session of\n"
		       "           an older cordon) refuses the listener cordon's supervisor needs\n");
	/* The shim a run here preloads: one that is not this build's stops
	 * every run of a dynamically linked command. */
	cleanup_free char *shim = NULL;
	struct cordon_error serr = {0};
	bool shim_ok = !cordon_shim_enforces || launcher_find_shim(&shim, &serr) >= 0;
	if (cordon_shim_enforces && shim_ok)
		printf("shim:      %s (built with this cordon)\n", shim);
	else if (cordon_shim_enforces)
		printf("shim:      NOT usable: %s\n", serr.msg);
	char what[2048];
	cordon_sandbox_describe(&sup, what, sizeof(what));
	(void)fputs(what, stdout);
	check_tracking();

	/* Which config a `cordon run` here would use, parsed as it would be:
	 * one that does not parse stops every session. */
	struct cordon_config cfg;
	struct cordon_error err = {0};
	bool cfg_ok = cordon_config_load(a->config, getenv, &cfg, &err) >= 0;
	/* (Parsed, but refused by every run that adds no --allow-domain.) */
	if (cfg_ok && cordon_policy_denied_alone(&cfg, CORDON_KIND_TERMINAL | CORDON_KIND_TOOL, 0,
						 &err) < 0) {
		cordon_config_free(&cfg);
		cfg_ok = false;
		printf("config:    refused: every `cordon run` without --allow-domain stops (exit "
		       "125); the error is below\n");
	} else if (cfg_ok) {
		printf("config:    %s\n",
		       cfg.file ? cfg.file : "none found: the built-in defaults");
	} else {
		printf("config:    does not parse: every `cordon run` stops (exit 125); the "
		       "error is below\n");
	}

	/* The default policy: built-in config, the sandbox on, the network on. */
	struct cordon_policy def = {.sandbox = true, .allow_network = true};
	char missing[512];
	int n = cordon_sandbox_missing(&def, &sup, missing, sizeof(missing));
	if (n > 0)
		printf("result:    the default policy is NOT fully enforceable here: missing %s\n",
		       missing);
	else if (refused)
		printf("result:    no session starts here: its supervisor cannot be attached "
		       "(above)\n");
	else if (!shim_ok)
		printf("result:    no session starts here until the shim is this build's (above)\n");
	else
		printf("result:    the default policy is fully enforceable here\n");
	if (cfg_ok) {
		/* Advice: what of the user's tools will not execute. */
		check_toolchains(a, &cfg);
		cordon_config_free(&cfg);
	}
	if (!cfg_ok) {
		(void)fflush(stdout);
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	return n > 0 || !shim_ok ? 1 : 0;
}
