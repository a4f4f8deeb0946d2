/* The ways opened as a session ends (see sweep-fs.h, cordon_way_up). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep-fs.h"
#include "util.h"

/* (No cap: one past it left a module's HEAD unrestored, round 48a F1.) */
static struct {
	bool (*may)(const char *dir, const void *arg);
	const void *arg;
	struct way_up {
		int held;
		mode_t mode;
	} * v;
	size_t n, cap;
} ways;

void cordon_ways_up_begin(bool (*may)(const char *dir, const void *arg), const void *arg)
{
	if (ways.may)
		return;
	ways.may = may;
	ways.arg = arg;
}

/* DIR opened up to WANT (its owner's bits) where it is the user's own,
 * one the session could change the mode of, and lacks one of them. */
static bool dir_up(const char *dir, mode_t want)
{
	struct way_up *nv = cordon_grow(ways.v, &ways.cap, ways.n + 1, sizeof(*nv), 16);
	if (!nv)
		return false;
	ways.v = nv;
	int h = open(dir, CORDON_O_HOLD | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	bool up = h >= 0 && fstat(h, &st) == 0 && st.st_uid == geteuid() &&
		  (st.st_mode & want) != want && ways.may(dir, ways.arg) &&
		  cordon_fs_chmod_held(h, (st.st_mode & 07777) | want) == 0;
	if (up)
		ways.v[ways.n++] = (struct way_up){h, st.st_mode & 07777};
	else if (h >= 0)
		close(h);
	return up;
}

bool cordon_way_up(const char *path, bool self)
{
	char cur[PATH_MAX];
	if (!ways.may || (size_t)snprintf(cur, sizeof(cur), "%s", path) >= sizeof(cur) ||
	    cur[0] != '/')
		return false;
	bool opened = false;
	for (char *slash = strchr(cur + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		opened |= dir_up(cur, S_IRUSR | S_IXUSR);
		*slash = '/';
	}
	if (self)
		opened |= dir_up(cur, S_IRWXU);
	return opened;
}

void cordon_ways_down(void)
{
	while (ways.n > 0) {
		struct way_up *u = &ways.v[--ways.n];
		(void)cordon_fs_chmod_held(u->held, u->mode);
		close(u->held);
	}
	free(ways.v);
	ways.v = NULL;
	ways.cap = 0;
	ways.may = NULL;
	ways.arg = NULL;
}
