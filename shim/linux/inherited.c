/* The descriptors the command inherits (0-2, --pass-fd), moved into the
 * session's mount namespace.
 *
 * They were opened before that namespace existed, so they lie on the
 * host's mounts: a directory among them walked the host's tree past every
 * guard mount (openat(fd, ".git/hooks/post-checkout") wrote the hook that
 * the read-only bind refuses by path; a cover over a hidden file did not
 * cover it), and a terminal or a FIFO had its mode, owner and times changed
 * on the host's writable mount (chmod 666 /proc/self/fd/0: the user's
 * terminal, readable by anyone after; review 40c F1, F2). Each such
 * descriptor that has a path is opened again by that path inside the
 * namespace, checked to be the same file, and put at its number. A
 * directory that cannot be (hidden, or not there inside) refuses the
 * session; a device or FIFO that cannot stays, and the metadata calls go
 * to the supervisor (cordon_mountns_view_holds). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <linux/stat.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "linux.h"
#include "util.h"

struct ids {
	uint64_t *v;
	size_t n;
};

static int read_mounts(struct ids *ids);

/* The mounts of this namespace: the first field of each line of
 * /proc/self/mountinfo, read once (its mounts are all made by then:
 * the view, then the guards, in cordon_mountns_enter). */
static int own_mounts(struct ids *ids)
{
	static struct ids known;
	static int error;
	static bool read;
	if (!read) {
		read = true;
		error = read_mounts(&known);
	}
	*ids = known;
	return error;
}

static int read_mounts(struct ids *ids)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return -errno;
	char *line = NULL;
	size_t cap = 0, room = 0;
	int r = 0;
	while (getline(&line, &cap, f) > 0) {
		if (ids->n == room) {
			room = room ? room * 2 : 64;
			uint64_t *v = realloc(ids->v, room * sizeof(*v));
			if (!v) {
				r = -ENOMEM;
				break;
			}
			ids->v = v;
		}
		ids->v[ids->n++] = strtoull(line, NULL, 10);
	}
	free(line);
	(void)fclose(f); /* read only */
	return r;
}

/* Whether FD lies on one of IDS's mounts. */
static bool on_own(int fd, const struct ids *ids)
{
	struct statx sx;
	if (syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &sx) < 0 ||
	    !(sx.stx_mask & STATX_MNT_ID))
		return false;
	for (size_t i = 0; i < ids->n; i++)
		if (ids->v[i] == sx.stx_mnt_id)
			return true;
	return false;
}

/* A character device with no state of its own, opened again as it is:
 * /dev/null, /dev/zero, /dev/full, /dev/random, /dev/urandom, the
 * terminals (virtual consoles, /dev/tty, the pty slaves). Not a pty
 * master (a new pair), /dev/net/tun or /dev/fuse (a new, unattached
 * instance: round 40d F4), /dev/kmsg (a reader's place: 40g G5). */
static bool stateless_device(const struct stat *st)
{
	unsigned ma = major(st->st_rdev), mi = minor(st->st_rdev);
	bool memory = ma == 1 && (mi == 3 || mi == 5 || mi == 7 || mi == 8 || mi == 9);
	return S_ISCHR(st->st_mode) &&
	       (memory || ma == 4 || (ma == 5 && mi == 0) || (ma >= 136 && ma <= 143));
}

/* What is opened again, when FD (ST, at PATH) is not on this namespace's
 * mounts: a directory (its ".." walks the host's tree), a link or a socket
 * file (only an O_PATH descriptor has its path: fchmod through it changed
 * an outside server's socket, round 40d F3), a device with no state. A
 * FIFO is not (one opened again never hears its writer hang up: 40d F5),
 * nor another device: those keep the supervisor judging their metadata.
 * A regular file only where a guard keeps it read-only inside, under a
 * write rule (a protected hook on stdin, written through
 * /proc/self/fd/0 on the host's mount: 40d F2); elsewhere the view
 * judges it as it is (cordon_mountns_view_holds). */
static bool moved(const struct cordon_policy *p, int fd, const struct stat *st, const char *path)
{
	if (S_ISDIR(st->st_mode) || S_ISLNK(st->st_mode) || S_ISSOCK(st->st_mode))
		return true;
	if (S_ISCHR(st->st_mode))
		return stateless_device(st);
	if (!S_ISREG(st->st_mode) || !(cordon_policy_access(p, path, NULL) & CORDON_ACCESS_WRITE))
		return false;
	struct statvfs here, there;
	return fstatvfs(fd, &there) == 0 && !(there.f_flag & ST_RDONLY) &&
	       statvfs(path, &here) == 0 && (here.f_flag & ST_RDONLY);
}

/* FD (ST, at PATH) opened again by PATH here and put at its number, its
 * flags and offset kept: 0, or -1 where PATH here is not the same file
 * (or not as it was opened: for writing, where it is read-only here). */
static int reopen(int fd, const struct stat *st, const char *path)
{
	int fl = fcntl(fd, F_GETFL), fdfl = fcntl(fd, F_GETFD);
	if (fl < 0 || fdfl < 0)
		return -1;
	int how = O_CLOEXEC | O_NOFOLLOW | O_NOCTTY;
	if ((fl & O_PATH) || S_ISLNK(st->st_mode) || S_ISSOCK(st->st_mode))
		how |= O_PATH;
	else if (S_ISDIR(st->st_mode))
		how |= O_RDONLY | O_DIRECTORY;
	else
		how |= (fl & O_ACCMODE) | O_NONBLOCK;
	int nfd = open(path, how);
	struct stat now;
	bool same = nfd >= 0 && fstat(nfd, &now) == 0 && now.st_dev == st->st_dev &&
		    now.st_ino == st->st_ino && now.st_rdev == st->st_rdev;
	off_t at = S_ISREG(st->st_mode) ? lseek(fd, 0, SEEK_CUR) : -1;
	if (same && at > 0 && lseek(nfd, at, SEEK_SET) != at)
		same = false;
	if (same && dup3(nfd, fd, fdfl & FD_CLOEXEC ? O_CLOEXEC : 0) < 0)
		same = false;
	if (nfd >= 0)
		close(nfd);
	if (same && !(how & O_PATH) && !S_ISDIR(st->st_mode))
		(void)fcntl(fd, F_SETFL, fl); /* O_NONBLOCK as it was, O_APPEND */
	return same ? 0 : -1;
}

int cordon_each_fd(bool kept_only, int (*each)(int fd, const struct stat *st, void *arg), void *arg)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return -errno;
	int r = 0;
	for (struct dirent *e; r >= 0 && (e = readdir(d));) {
		char *end;
		long fd = strtol(e->d_name, &end, 10);
		struct stat st;
		if (end == e->d_name || *end || fd == dirfd(d) || fd > INT32_MAX ||
		    (kept_only && (fcntl((int)fd, F_GETFD) & FD_CLOEXEC)) ||
		    fstat((int)fd, &st) < 0)
			continue;
		r = each((int)fd, &st, arg);
	}
	closedir(d);
	return r;
}

struct judging {
	const struct cordon_policy *p;
	struct cordon_error *err;
	bool refused; /* (an error of the judging's, not of the listing) */
};

static int rebase_one(int fd, const struct stat *st, void *arg)
{
	struct judging *j = arg;
	const struct cordon_policy *p = j->p;
	char path[PATH_MAX];
	/* Only with a path (a pipe or a socket has none), on the host's
	 * mounts. */
	int named = cordon_fd_path(fd, st, path, sizeof(path));
	if (named == 0 || cordon_inherited_on_own_mount(fd))
		return 0;
	/* A path too long to read (round 40d F1: a directory past PATH_MAX
	 * walked the host's tree as if it had none). */
	bool move = named > 0 && moved(p, fd, st, path);
	bool redone = move && reopen(fd, st, path) == 0;
	bool guarded = !redone && move && S_ISREG(st->st_mode);
	/* (Output sent into one: `cordon run -- CMD >> .git/info/exclude`,
	 * round 40g G4.) */
	j->refused = guarded || (!redone && S_ISDIR(st->st_mode));
	if (guarded && (fcntl(fd, F_GETFL) & O_ACCMODE) != O_RDONLY)
		return cordon_err(j->err, EPERM,
				  "descriptor %d writes %s, which the session keeps read-only "
				  "(what is written there runs or is obeyed outside); the "
				  "session is refused: send its output there from outside "
				  "(cordon run -- CMD %s| cat >> FILE)",
				  fd, path, fd == 2 ? "2>&1 >/dev/null " : "");
	if (j->refused)
		return cordon_err(j->err, EPERM,
				  "descriptor %d (%s) leads to the host's files past the "
				  "session's guards, and cannot be opened again inside as it "
				  "was (hidden, read-only, or not there); the session is "
				  "refused",
				  fd, named > 0 ? path : "a path too long to read");
	return 0;
}

int cordon_inherited_rebase(const struct cordon_policy *p, struct cordon_error *err)
{
	/* Only what the command inherits (cordon's own are close-on-exec). */
	struct judging j = {.p = p, .err = err};
	int r = cordon_each_fd(true, rebase_one, &j);
	if (r < 0 && !j.refused)
		return cordon_err(err, -r, "the descriptors the command inherits: %s",
				  strerror(-r));
	return r;
}

static int judge_file(int fd, const struct stat *st, void *arg)
{
	struct judging *j = arg;
	char path[PATH_MAX], self[48];
	/* A regular file the caller handed in for reading (or O_PATH), still
	 * on the host's mount, with a name left. */
	int fl = S_ISREG(st->st_mode) && st->st_nlink > 0 ? fcntl(fd, F_GETFL) : -1;
	if (fl < 0 || ((fl & O_ACCMODE) != O_RDONLY && !(fl & O_PATH)) ||
	    cordon_inherited_on_own_mount(fd))
		return 0;
	/* Writable through the descriptor (opened again by /proc, where the
	 * host's mount and the sandbox just applied decide)? */
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	int w = open(self, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (w < 0)
		return 0;
	close(w);
	/* And by its name here, as the same file: nothing more. */
	int named = cordon_fd_path(fd, st, path, sizeof(path));
	int b = named > 0 ? open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)
			  : -1;
	struct stat now;
	bool same = b >= 0 && fstat(b, &now) == 0 && now.st_dev == st->st_dev &&
		    now.st_ino == st->st_ino;
	if (b >= 0)
		close(b);
	if (same)
		return 0;
	/* Not by its name (a guard keeps it read-only there, or the name is
	 * another way to it: a bind mount of the project, round 40g G1; a
	 * second name removed since, G2): opened again by that name,
	 * read-only as it was, or the session is refused. */
	j->refused = named <= 0 || reopen(fd, st, path) < 0;
	if (j->refused)
		return cordon_err(j->err, EPERM,
				  "descriptor %d (%s) is a file the session could write through "
				  "it, and not by its name here (kept read-only inside: a "
				  "protected path); hand it in by a name cordon keeps, or not at "
				  "all: the session is refused",
				  fd, named > 0 ? path : "its name is gone, or too long to read");
	return 0;
}

int cordon_inherited_judge_files(struct cordon_error *err)
{
	struct judging j = {.err = err};
	int r = cordon_each_fd(true, judge_file, &j);
	/* (No /proc: nothing reopens through it either.) */
	return r < 0 && !j.refused ? 0 : r;
}

bool cordon_inherited_on_own_mount(int fd)
{
	struct ids ids = {0};
	return own_mounts(&ids) == 0 && on_own(fd, &ids);
}
