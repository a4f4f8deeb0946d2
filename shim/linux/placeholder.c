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
 * directory removed outside leaves the mounts on it in other namespaces).
 * A file git's config includes that is missing gets an empty file the
 * same way (git reads an empty one as no settings), removed as the last
 * session ends if it is still empty. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <stdint.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "cordon/session.h"
#include "linux.h"

#include "../sweep-fs.h"
#include "../util.h"

#define MARK "user.cordon.placeholder"

static bool marked(int fd)
{
	char v[2];
	return fgetxattr(fd, MARK, v, sizeof(v)) >= 0;
}

bool cordon_placeholder_marked(const char *path)
{
	char v[2];
	return getxattr(path, MARK, v, sizeof(v)) >= 0;
}

/* Root making one in a user's project: the project's owner's, so that the
 * user's editor outside can still fill it. */
static void owned_as_parent(int fd, int parent)
{
	struct stat st;
	if (geteuid() == 0 && fstat(parent, &st) == 0 && (st.st_uid != 0 || st.st_gid != 0))
		(void)!fchown(fd, st.st_uid, st.st_gid); /* best effort */
}

/* A shared lock on FD, waiting at most a second: an ending session holds
 * the exclusive one for a few calls only. Longer, a process holds it on
 * purpose: the session is refused rather than left waiting, or started
 * without the lock (its placeholder could then be removed under it). */
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

/* NAME in PARENT, a file (FILE) or a directory, made: its descriptor, or
 * -errno (-EEXIST: it is there). */
static int make_plain(int parent, const char *name, bool file)
{
	int fd;
	if (file)
		fd = openat(parent, name, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0644);
	else if (mkdirat(parent, name, 0755) < 0)
		return -errno;
	else if ((fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		(void)unlinkat(parent, name, AT_REMOVEDIR);
	return fd >= 0 ? fd : -errno;
}

/* NAME in PARENT removed while it is an empty file or directory. */
static void remove_empty(int parent, const char *name, bool file)
{
	struct stat st;
	if (!file)
		(void)unlinkat(parent, name, AT_REMOVEDIR);
	else if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		 st.st_size == 0)
		(void)unlinkat(parent, name, 0);
}

/* NAME made in PARENT already marked: made under a name of cordon's,
 * marked, then renamed into place where nothing is (38b F3: made in
 * place, a launcher killed before the mark left ".vscode", ".idea" and
 * ".envrc" empty and unmarked in the project, which every later session
 * took for the user's and kept). A killed launcher's leftover under that
 * name is removed (empty: another launch making one now then tries
 * again). Returns its descriptor, -EEXIST where NAME is there, or another
 * -errno (no room for the name, no rename without replacing). */
static int make_marked(int parent, const char *name, bool file)
{
	char tmp[NAME_MAX + 1];
	if (snprintf(tmp, sizeof(tmp), ".%s.cordon-standin", name) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	struct stat st;
	if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		remove_empty(parent, tmp, file); /* (a leftover, its name made since) */
		return -EEXIST;
	}
	for (int tries = 0; tries < 4; tries++) {
		int fd = make_plain(parent, tmp, file);
		if (fd == -EEXIST) {
			remove_empty(parent, tmp, file);
			/* Not an empty leftover (a session put something at the
			 * name, so that every later launch made NAME in place:
			 * round 40e F3): a name of this launch's own. */
			if (fstatat(parent, tmp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    snprintf(tmp, sizeof(tmp), ".%s.cordon-standin-%d", name,
				     (int)getpid()) >= (int)sizeof(tmp))
				return -ENAMETOOLONG;
			continue;
		}
		if (fd < 0)
			return fd;
		/* Without the mark (a file system with no user attributes),
		 * only this session removes it. */
		(void)fsetxattr(fd, MARK, "1", 1, 0);
		owned_as_parent(fd, parent);
		if (syscall(SYS_renameat2, parent, tmp, parent, name, RENAME_NOREPLACE) == 0)
			return fd;
		int e = errno;
		close(fd);
		remove_empty(parent, tmp, file);
		if (e != ENOENT)
			return -e;
	}
	return -EBUSY;
}

/* NAME in PARENT made when missing, then held: 0 with P filled, -1 when it
 * cannot be (not guarded then), or -EWOULDBLOCK. */
static int hold_one(int parent, const char *name, struct cordon_placeholder *p)
{
	for (int tries = 0; tries < 4; tries++) {
		int fd = make_marked(parent, name, p->file);
		if (fd < 0 && fd != -EEXIST) {
			fd = make_plain(parent, name, p->file);
			if (fd >= 0) {
				(void)fsetxattr(fd, MARK, "1", 1, 0);
				owned_as_parent(fd, parent);
			}
		}
		p->made = fd >= 0;
		if (fd == -EEXIST)
			fd = openat(parent, name,
				    p->file ? O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
						      O_CLOEXEC
					    : O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		else if (fd < 0)
			return -1;
		if (p->made)
			cordon_path_made();
		struct stat st;
		if (fd >= 0 && p->file && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
			close(fd); /* (not a file: the mount would not be one) */
			return -1;
		}
		if (fd < 0)
			return -1;
		int e = lock_shared(fd);
		if (e == 0 && fstat(fd, &st) == 0 && st.st_nlink > 0) {
			p->fd = fd;
			return 0;
		}
		close(fd);
		if (p->made)
			(void)unlinkat(parent, name, p->file ? 0 : AT_REMOVEDIR);
		if (e < 0)
			return e == -EWOULDBLOCK ? e : -1;
		/* Removed meanwhile by the session that held it last. */
	}
	return -1;
}

int cordon_placeholder_stand_in(int parent, const char *name, const char *path,
				struct cordon_placeholders *h)
{
	struct cordon_placeholder p = {.fd = -1, .parent = -1, .made = true, .stand_in = true};
	if (mknodat(parent, name, S_IFSOCK, 0) < 0)
		return -errno; /* EEXIST: made again meanwhile */
	cordon_path_made();
	int e = 0;
	struct cordon_placeholder *nv = realloc(h->v, (h->n + 1) * sizeof(*nv));
	if (!nv)
		e = -ENOMEM;
	else
		h->v = nv;
	if (e == 0 && (p.fd = openat(parent, name, O_PATH | O_NOFOLLOW | O_CLOEXEC)) < 0)
		e = -errno;
	if (e == 0 && (p.parent = fcntl(parent, F_DUPFD_CLOEXEC, 3)) < 0)
		e = -errno;
	if (e == 0 && !(p.path = strdup(path)))
		e = -ENOMEM;
	if (e < 0) {
		if (p.fd >= 0)
			close(p.fd);
		if (p.parent >= 0)
			close(p.parent);
		(void)unlinkat(parent, name, 0);
		return e;
	}
	h->v[h->n++] = p;
	return 0;
}

/* The parent directory of PATH (O_PATH), and its last name in *NAME. */
static int parent_of(const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	if (!slash || !slash[1])
		return -1;
	*name = slash + 1;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int cordon_placeholders_hold(const struct cordon_strv *paths, const struct cordon_strv *files,
			     struct cordon_placeholders *out, struct cordon_strv *unguarded,
			     struct cordon_error *err)
{
	memset(out, 0, sizeof(*out));
	size_t dirs = paths->n, all = dirs + (files ? files->n : 0);
	if (!all)
		return 0;
	out->v = calloc(all, sizeof(*out->v));
	if (!out->v)
		return cordon_err(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < all; i++) {
		struct cordon_placeholder p = {.fd = -1, .file = i >= dirs};
		const char *path = i < dirs ? paths->v[i] : files->v[i - dirs];
		const char *name = NULL;
		p.parent = parent_of(path, &name);
		int e = p.parent >= 0 ? hold_one(p.parent, name, &p) : -1;
		if (e == -EWOULDBLOCK) {
			close(p.parent);
			cordon_placeholders_release(out, true, NULL);
			return cordon_err(err, EWOULDBLOCK,
					  "%s: another process holds a lock on it (flock), so "
					  "cordon cannot keep it guarded; end that process",
					  path);
		}
		if (e == 0 && (p.path = strdup(path))) {
			out->v[out->n++] = p;
			continue;
		}
		if (p.fd >= 0)
			close(p.fd);
		if (p.parent >= 0)
			close(p.parent);
		/* Not guarded then: said when the session ends, if made. */
		if (cordon_strv_push_new(unguarded, path) < 0) {
			cordon_placeholders_release(out, true, NULL);
			return cordon_err(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* Whether P's descriptor is still what its name in its parent is. */
static bool still_there(const struct cordon_placeholder *p, const char *name)
{
	struct stat a, b;
	return fstat(p->fd, &a) == 0 && fstatat(p->parent, name, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* H forgotten, where DEFER of its directories were removed: the last
 * close of a removed directory frees its inode (about 60 us each here, and
 * 17 by default: a millisecond on the way out of every session), so a
 * child that holds copies of the descriptors until this process has let
 * go of its own pays for it, after this process has ended. */
static void forget_removed(struct cordon_placeholders *h, size_t defer)
{
	int hand = defer >= 4 ? cordon_close_later() : -1;
	cordon_placeholders_forget(h);
	if (hand >= 0)
		close(hand);
}

int cordon_close_later(void)
{
	int hand[2];
	if (pipe2(hand, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(hand[1]);
		while (read(hand[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	close(hand[0]);
	if (pid < 0) {
		close(hand[1]);
		return -1;
	}
	return hand[1];
}

/* P's directory, which the session made unsearchable or unwritable (a
 * chmod 0 on the project as it ended: 47d M1, the stand-in was left),
 * given its owner's write and search for the removal: the mode it had,
 * for parent_down, or -1 where nothing was changed. */
static int parent_up(const struct cordon_placeholder *p)
{
	struct stat st;
	mode_t want = S_IWUSR | S_IXUSR;
	if (geteuid() == 0 || fstat(p->parent, &st) < 0 || st.st_uid != geteuid() ||
	    (st.st_mode & want) == want ||
	    cordon_fs_chmod_held(p->parent, (st.st_mode & 07777) | want) < 0)
		return -1;
	return (int)(st.st_mode & 07777);
}

static void parent_down(const struct cordon_placeholder *p, int mode)
{
	if (mode >= 0)
		(void)cordon_fs_chmod_held(p->parent, (mode_t)mode);
}

static bool take_away_in(struct cordon_placeholder *p, const char *name,
			 struct cordon_strv *filled);

/* P, held alone now, still the one held and cordon's: removed while it
 * is empty (true for a directory removed), or left as the user's. */
static bool take_away(struct cordon_placeholder *p, const char *name, struct cordon_strv *filled)
{
	int mode = parent_up(p);
	bool removed = take_away_in(p, name, filled);
	parent_down(p, mode);
	return removed;
}

static bool take_away_in(struct cordon_placeholder *p, const char *name, struct cordon_strv *filled)
{
	if (!still_there(p, name) || !(p->made || marked(p->fd)))
		return false;
	/* A file: removed while it is empty (what is written into it in the
	 * moment between the look and the removal is lost with it: a save
	 * replaces the file, which keeps it). */
	struct stat st;
	if (p->file && fstat(p->fd, &st) == 0 && st.st_size == 0 &&
	    unlinkat(p->parent, name, 0) == 0)
		return false;
	if (!p->file && unlinkat(p->parent, name, AT_REMOVEDIR) == 0)
		return true;
	if (!p->file && errno != ENOTEMPTY && errno != EEXIST)
		return false;
	/* Something was put in it: the user's now. */
	(void)fremovexattr(p->fd, MARK);
	if (p->made && filled)
		(void)cordon_strv_push_new(filled, p->path); /* only less said */
	return false;
}

/* P, which another session still holds: one that session may be unable to
 * remove as it ends, where this one can. In a directory every user shares
 * (sticky), only its owner, the directory's, or root may: a stand-in root
 * made in /tmp for `--project /tmp` was left there whenever a user's
 * session beside it ended last. */
static bool left_to_us(const struct cordon_placeholder *p)
{
	struct stat dir, st;
	uid_t me = geteuid();
	return fstat(p->parent, &dir) == 0 && (dir.st_mode & S_ISVTX) && fstat(p->fd, &st) == 0 &&
	       (p->made || marked(p->fd)) && (me == 0 || st.st_uid == me || dir.st_uid == me);
}

/* The placeholders of H at LATER (N) removed once no session holds them,
 * by a process of their own that waits for the others to end, away from
 * the terminal (its output and its session: nothing waits for it), with
 * only their descriptors. */
static void take_away_later(struct cordon_placeholders *h, const size_t *later, size_t n)
{
	pid_t pid = fork();
	if (pid > 0) {
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		return;
	}
	if (pid < 0)
		return;
	if (fork() != 0)
		_exit(0);
	(void)setsid();
	/* As long as another session holds one (any user may, with a shared
	 * lock, for as long as they like: 46c F3), with no more than its
	 * removals need: root's, the right to remove in a sticky directory
	 * and to write in it, and no other. */
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	uint32_t need = 1U << CAP_FOWNER | 1U << CAP_DAC_OVERRIDE;
	struct __user_cap_data_struct caps[2] = {{need, need, 0}, {0, 0, 0}};
	if (geteuid() == 0)
		(void)syscall(SYS_capset, &hdr, caps);
	(void)prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	(void)prctl(PR_SET_NAME, "cordon-standins", 0, 0, 0);
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	for (int fd = 0; fd < 3 && null >= 0; fd++)
		(void)dup2(null, fd);
	int top = 2;
	for (size_t i = 0; i < n; i++) {
		const struct cordon_placeholder *p = &h->v[later[i]];
		top = p->fd > top ? p->fd : top;
		top = p->parent > top ? p->parent : top;
	}
	for (int fd = 3; fd <= top; fd++) {
		bool keep = false;
		for (size_t i = 0; i < n && !keep; i++)
			keep = fd == h->v[later[i]].fd || fd == h->v[later[i]].parent;
		if (!keep)
			(void)close(fd);
	}
	(void)syscall(SYS_close_range, (unsigned)top + 1, ~0U, 0);
	for (size_t i = 0; i < n; i++) { /* (in release's order) */
		struct cordon_placeholder *p = &h->v[later[i]];
		while (flock(p->fd, LOCK_EX) < 0 && errno == EINTR)
			;
		const char *slash = strrchr(p->path, '/');
		(void)take_away(p, slash ? slash + 1 : p->path, NULL);
	}
	_exit(0);
}

void cordon_placeholders_release(struct cordon_placeholders *h, bool ended,
				 struct cordon_strv *filled)
{
	size_t removed = 0, n_later = 0;
	size_t *later = ended && h->n ? calloc(h->n, sizeof(*later)) : NULL;
	/* Last held first: a file stand-in in a directory stand-in (an
	 * include in a missing .vscode) goes before its directory, which is
	 * then empty again (round 14: said as filled, and left). */
	for (size_t i = h->n; i-- > 0;) {
		struct cordon_placeholder *p = &h->v[i];
		if (!p->path)
			continue;
		const char *slash = strrchr(p->path, '/');
		const char *name = slash ? slash + 1 : p->path;
		/* A stand-in: gone with the session, ended or not (another
		 * session takes one for a missing name, and watches it). */
		if (p->stand_in) {
			int mode = parent_up(p);
			if (still_there(p, name))
				(void)unlinkat(p->parent, name, 0);
			parent_down(p, mode);
			continue;
		}
		/* Every process of the session gone, no other session holding
		 * it, still the one held, and cordon's. */
		if (!ended)
			continue;
		if (flock(p->fd, LOCK_EX | LOCK_NB) == 0)
			removed += take_away(p, name, filled);
		else if (errno == EWOULDBLOCK && later && left_to_us(p))
			later[n_later++] = i;
	}
	if (n_later)
		take_away_later(h, later, n_later);
	free(later);
	forget_removed(h, removed);
}

void cordon_placeholders_say(const struct cordon_strv *filled)
{
	for (size_t i = 0; i < filled->n; i++) {
		cordon_closing_line();
		fprintf(stderr,
			"cordon: %s, made empty for this session, is no longer empty (filled "
			"outside, or inside where it could not be kept read-only): review it "
			"before an editor, an agent or git outside obeys it\n",
			filled->v[i]);
	}
}

void cordon_placeholders_forget(struct cordon_placeholders *h)
{
	for (size_t i = 0; i < h->n; i++) {
		close(h->v[i].fd);
		close(h->v[i].parent);
		free(h->v[i].path);
	}
	free(h->v);
	memset(h, 0, sizeof(*h));
}
