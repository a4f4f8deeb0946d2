/* cordon check: what this machine can enforce. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "launcher.h"

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

	/* Session tracking: can a session cgroup be created here? */
	struct cordon_error err = {0};
	char *mount = NULL, *own = NULL, *leaf = NULL;
	char id[CORDON_SESSION_ID_LEN + 1];
	bool cgroup_ok = false;
	if (cordon_cgroup_locate(&mount, &own, &err) < 0) {
		printf("cgroup v2: unavailable (%s)\n", err.msg);
	} else {
		printf("cgroup v2: %s, this process in %s\n", mount, own);
		if (cordon_session_id(id) == 0 && cordon_cgroup_create(id, &leaf, &err) == 0) {
			cgroup_ok = true;
			rmdir(leaf);
		}
		printf("           session cgroups %s\n",
		       cgroup_ok ? "can be created" : "cannot be created here");
		if (!cgroup_ok)
			printf("           (%s)\n", err.msg);
	}
	printf("tracking:  %s\n", cgroup_ok ? "cgroup (cgroup.kill)"
					    : "subreaper supervisor (the command gets a new pid)");
	free(mount);
	free(own);
	free(leaf);

	/* The default policy: built-in config, the sandbox on, the network on. */
	struct cordon_policy def = {.sandbox = true, .allow_network = true};
	char missing[512];
	int n = cordon_sandbox_missing(&def, &sup, missing, sizeof(missing));
	if (n > 0) {
		printf("default policy: NOT fully enforceable here: missing %s\n", missing);
		return 1;
	}
	printf("default policy: fully enforceable\n");
	(void)a;
	return 0;
}
