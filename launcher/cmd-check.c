/* cordon check: what this machine can enforce. */
#include <stdio.h>
#include <string.h>

#include "cordon/sandbox.h"
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
