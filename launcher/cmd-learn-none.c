/* cordon learn where the recorder library does not exist (macOS: dyld strips
 * DYLD_INSERT_LIBRARIES from system binaries, so most commands could not be
 * observed). */
#include <stdio.h>

#include "launcher.h"

int cmd_learn(const struct cordon_args *a)
{
	(void)a;
	fprintf(stderr,
		"cordon: learn: not available on this platform (use cordon explain PATH)\n");
	return CORDON_EXIT_FAILURE;
}

int learn_allow_command(struct cordon_policy *p, const char *canon, int fd)
{
	(void)p;
	(void)canon;
	(void)fd;
	return -1;
}
