#include "cordon/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static int check_candidate(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || access(path, X_OK) < 0)
		return -EACCES;
	return 0;
}

int cordon_exec_find(const char *cmd, const char *path_env, char **out)
{
	if (!*cmd)
		return -ENOENT;
	if (strchr(cmd, '/')) {
		int r = check_candidate(cmd);
		if (r < 0)
			return r == -ENOENT || r == -ENOTDIR ? -ENOENT : -EACCES;
		return (*out = strdup(cmd)) ? 0 : -ENOMEM;
	}
	if (!path_env)
		path_env = "/usr/local/bin:/usr/bin:/bin";
	bool saw_eacces = false;
	const char *p = path_env;
	for (;;) {
		size_t len = strcspn(p, ":");
		char *cand;
		/* An empty entry means the current directory, as in execvp. */
		if (asprintf(&cand, "%.*s%s%s", (int)len, p, len ? "/" : "", cmd) < 0)
			return -ENOMEM;
		int r = check_candidate(cand);
		if (r == 0) {
			*out = cand;
			return 0;
		}
		free(cand);
		if (r == -EACCES)
			saw_eacces = true;
		if (!p[len])
			break;
		p += len + 1;
	}
	return saw_eacces ? -EACCES : -ENOENT;
}
