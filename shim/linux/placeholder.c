/* Placeholders (CORDON_GUARD_PLACEHOLDER, see guard.h). A protected
 * directory that is missing (".vscode/") is made empty before the session
 * starts, so that the session's mount namespace can keep it read-only:
 * nothing can guard a name that does not exist, and an editor's or an
 * agent's settings made inside would be obeyed outside. It is marked as
 * cordon's with an extended attribute and held with a shared flock while
 * the session runs; as the session ends, the last session holding it
 * removes it if it is still empty. A session that finds one (another
 * session's, or one left by a supervisor that was killed) holds it too, so
 * that it is never removed under a session that keeps it read-only (a
 * directory removed outside leaves the mounts on it in other namespaces). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cordon/guard.h"

#include "../util.h"

#define MARK "user.cordon.placeholder"

static bool marked(int fd)
{
	char v[2];
	return fgetxattr(fd, MARK, v, sizeof(v)) >= 0;
}

/* Whether FD is still what PATH names. */
static bool still_at(int fd, const char *path)
{
	struct stat a, b;
	return path && fstat(fd, &a) == 0 && lstat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* Root making one in a user's project: the project's owner's, so that the
 * user's editor outside can still fill it. */
static void owned_as_parent(int fd, const char *path)
{
	if (geteuid() != 0)
		return;
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", path);
	char *slash = strrchr(parent, '/');
	if (!slash)
		return;
	*(slash == parent ? slash + 1 : slash) = '\0';
	struct stat st;
	if (stat(parent, &st) == 0 && (st.st_uid != 0 || st.st_gid != 0))
		(void)!fchown(fd, st.st_uid, st.st_gid); /* best effort */
}

/* A shared lock on FD, waiting at most a second: an ending session holds
 * the exclusive one for a few calls only. Longer, a process holds it on
 * purpose (a session's own, which may open the directory to read): the
 * session is refused rather than left waiting or unguarded. */
static int lock_shared(int fd)
{
	for (int i = 0; i < 100; i++) {
		if (flock(fd, LOCK_SH | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -errno;
		usleep(10000);
	}
	return -EWOULDBLOCK;
}

/* PATH made when missing, then held: its descriptor, -1 when it cannot
 * be (not guarded then), or -EWOULDBLOCK. */
static int hold_one(const char *path, bool *made)
{
	for (int tries = 0; tries < 4; tries++) {
		*made = mkdir(path, 0755) == 0;
		if (!*made && errno != EEXIST)
			return -1;
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return -1;
		if (*made) {
			/* Without the mark (a file system with no user
			 * attributes), only this session removes it. */
			(void)fsetxattr(fd, MARK, "1", 1, 0);
			owned_as_parent(fd, path);
		}
		int e = lock_shared(fd);
		struct stat st;
		if (e == 0 && fstat(fd, &st) == 0 && st.st_nlink > 0)
			return fd;
		close(fd);
		if (e == -EWOULDBLOCK)
			return e;
		/* Removed meanwhile by the session that held it last. */
	}
	return -1;
}

int cordon_placeholders_hold(const struct cordon_strv *paths, struct cordon_placeholders *out,
			     struct cordon_strv *unguarded, struct cordon_error *err)
{
	memset(out, 0, sizeof(*out));
	if (!paths->n)
		return 0;
	out->v = calloc(paths->n, sizeof(*out->v));
	if (!out->v)
		return cordon_err(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < paths->n; i++) {
		bool made = false;
		int fd = hold_one(paths->v[i], &made);
		if (fd == -EWOULDBLOCK) {
			cordon_placeholders_release(out);
			return cordon_err(err, EWOULDBLOCK,
					  "%s: another process holds a lock on it (flock), so "
					  "cordon cannot keep it guarded; end that process",
					  paths->v[i]);
		}
		char *path = fd >= 0 ? strdup(paths->v[i]) : NULL;
		if (fd >= 0 && path) {
			out->v[out->n++] = (struct cordon_placeholder){path, fd, made};
			continue;
		}
		if (fd >= 0)
			close(fd);
		/* Not guarded then: said when the session ends, if made. */
		if (!cordon_strv_contains(unguarded, paths->v[i]) &&
		    cordon_strv_push(unguarded, paths->v[i]) < 0) {
			cordon_placeholders_release(out);
			return cordon_err(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

void cordon_placeholders_release(struct cordon_placeholders *h)
{
	for (size_t i = 0; i < h->n; i++) {
		struct cordon_placeholder *p = &h->v[i];
		/* No other session holds it, and it is still the one held. */
		if (flock(p->fd, LOCK_EX | LOCK_NB) == 0 && still_at(p->fd, p->path) &&
		    (p->made || marked(p->fd)) && rmdir(p->path) < 0 &&
		    (errno == ENOTEMPTY || errno == EEXIST))
			/* Filled outside while the session ran: the user's now. */
			(void)fremovexattr(p->fd, MARK);
	}
	cordon_placeholders_forget(h);
}

void cordon_placeholders_forget(struct cordon_placeholders *h)
{
	for (size_t i = 0; i < h->n; i++) {
		close(h->v[i].fd);
		free(h->v[i].path);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}
