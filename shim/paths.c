/* Path resolution: "~" expansion, absolute, canonical. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "util.h"

/* realpath() resolves /dev/fd to /proc/<our pid>/fd. Our pid is the shell's
 * (the launcher execs it), but a policy must not depend on it: map it back to
 * /proc/self so the rule means "the process itself" wherever it is applied. */
static int unpin_proc_self(char **path)
{
	char prefix[32];
	int n = snprintf(prefix, sizeof(prefix), "/proc/%d", (int)getpid());
	size_t len = (size_t)n;
	if (strncmp(*path, prefix, len) != 0 || ((*path)[len] != '/' && (*path)[len] != '\0'))
		return 0;
	char *out;
	if (asprintf(&out, "/proc/self%s", *path + len) < 0)
		return -ENOMEM;
	free(*path);
	*path = out;
	return 0;
}

int cordon_path_resolve(const char *in, const char *home, const char *base, char **out)
{
	cleanup_free char *abs = NULL;
	if (in[0] == '~' && (in[1] == '\0' || in[1] == '/')) {
		if (!home || home[0] != '/')
			return -ENOENT; /* no home: nothing to expand to */
		if (asprintf(&abs, "%s%s", home, in + 1) < 0)
			return -ENOMEM;
	} else if (in[0] == '/') {
		abs = strdup(in);
	} else {
		cleanup_free char *cwd = NULL;
		if (!base) {
			cwd = getcwd(NULL, 0);
			if (!cwd)
				return -errno;
			base = cwd;
		}
		if (asprintf(&abs, "%s/%s", base, in) < 0)
			return -ENOMEM;
	}
	if (!abs)
		return -ENOMEM;
	char *canon = realpath(abs, NULL);
	if (!canon)
		return -errno;
	int r = unpin_proc_self(&canon);
	if (r < 0) {
		free(canon);
		return r;
	}
	*out = canon;
	return 0;
}
