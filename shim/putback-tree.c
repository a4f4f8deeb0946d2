/* A hidden directory put back entry by entry (see sweep-fs.h,
 * cordon_putback_tree). The sweep moves a directory aside whole (a bare
 * repository made of it, a .hg with a planted hgrc) and puts back the
 * hidden paths it held. A hidden path that is itself a directory was put
 * back whole: another session, which did not hide it, had edited a file
 * in it in place (the directory's change time kept), and the planted
 * hgrc or .git/config went back with it (round 57b F1); and a hidden
 * directory that was itself moved aside stayed whole at
 * NAME.cordon-disarmed, which no session hides (F2). Now only what is
 * unchanged since the sweep's start goes back; what a session wrote stays
 * aside. The user's directory itself goes back, what changed taken out of
 * it first (round 58b F1: made anew, it was not the inode the hiding
 * sessions had recorded, and the next move-aside left it whole).
 * Portable. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/stat.h>
#include <sys/syscall.h>
#endif

#include "cordon/strv.h"
#include "sweep-fs.h"

#ifdef __APPLE__
#define CTIME(st) ((st).st_ctimespec)
#else
#define CTIME(st) ((st).st_ctim)
#endif

#define TREE_DEPTH   64     /* deeper: left where it is */
#define TREE_ENTRIES 100000 /* looked at in one tree; past it, left */

static bool changed_since(const struct stat *st, const struct timespec *since)
{
	const struct timespec *t = &CTIME(*st);
	return t->tv_sec > since->tv_sec ||
	       (t->tv_sec == since->tv_sec && t->tv_nsec >= since->tv_nsec);
}

int cordon_fs_open_own_dir(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0 && errno == EACCES && fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	    fchmodat(dir, name, (st.st_mode & 07777) | S_IRWXU, 0) == 0)
		fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
	    (st.st_mode & S_IRWXU) != S_IRWXU)
		(void)fchmod(fd, (st.st_mode & 07777) | S_IRWXU);
	return fd;
}

/* The names in the directory DIR ("." and ".." not), into OUT: 0, or
 * -errno. (Read whole first: what is moved out as they are gone through
 * is not in the listing.) */
static int names_of(int dir, struct cordon_strv *out)
{
	int fd = dup(dir);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int e = -errno;
		if (fd >= 0)
			close(fd);
		return e;
	}
	rewinddir(d); /* (the offset is DIR's, which another listing moved) */
	int e = 0;
	for (struct dirent *de; e >= 0 && (de = readdir(d));)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			e = cordon_strv_push(out, de->d_name);
	closedir(d);
	return e;
}

bool cordon_fs_tree_unchanged(int dir, const struct timespec *since, int depth, size_t *budget)
{
	struct cordon_strv names = {0};
	bool same = depth < TREE_DEPTH && names_of(dir, &names) >= 0;
	for (size_t i = 0; same && i < names.n; i++) {
		struct stat st;
		same = *budget > 0 && fstatat(dir, names.v[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		       !changed_since(&st, since);
		(*budget)--;
		if (same && S_ISDIR(st.st_mode)) {
			int sub = openat(dir, names.v[i],
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			same = sub >= 0 && cordon_fs_tree_unchanged(sub, since, depth + 1, budget);
			if (sub >= 0)
				close(sub);
		}
	}
	cordon_strv_free(&names);
	return same;
}

/* Whether NAME in DIR was made at or after SINCE (its birth time, where
 * the system keeps one): a directory a session made is taken aside whole,
 * never looked through (round 58b F2: one of 100,000 empty files, listed
 * before the user's key, spent the entries looked at, and the key stayed
 * aside). */
static bool made_since(int dir, const char *name, const struct timespec *since)
{
#ifdef __linux__
	struct statx sx;
	if (syscall(SYS_statx, dir, name, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) < 0 ||
	    !(sx.stx_mask & STATX_BTIME))
		return false;
	return sx.stx_btime.tv_sec > since->tv_sec ||
	       (sx.stx_btime.tv_sec == since->tv_sec &&
		(long)sx.stx_btime.tv_nsec >= since->tv_nsec);
#elif defined(__APPLE__)
	struct stat st;
	return fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       (st.st_birthtimespec.tv_sec > since->tv_sec ||
		(st.st_birthtimespec.tv_sec == since->tv_sec &&
		 st.st_birthtimespec.tv_nsec >= since->tv_nsec));
#else
	(void)dir, (void)name, (void)since;
	return false;
#endif
}

/* What in the directory DIR changed at or after SINCE moved into HOLDER
 * (a directory made anew aside): a file or link that changed, a directory
 * made since whole, and in a directory of the user's whose tree changed,
 * its changed entries so (into a directory of the same name made in
 * HOLDER, removed again where nothing went into it); the rest stays, with
 * DIR. Past TREE_DEPTH or the entries looked at, what is not looked at
 * goes aside too, counted in *LEFT. How many of DIR's entries stay. */
static int take_out(int dir, int holder, const struct timespec *since, int depth, size_t *budget,
		    int *kept, int *left)
{
	struct cordon_strv names = {0};
	if (names_of(dir, &names) < 0) {
		(*left)++;
		return 0;
	}
	int out = 0;
	for (size_t i = 0; i < names.n; i++) {
		const char *name = names.v[i];
		struct stat st;
		if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		bool is_dir = S_ISDIR(st.st_mode);
		if (!is_dir ? changed_since(&st, since) : made_since(dir, name, since)) {
			if (cordon_fs_rename_new_to(dir, name, holder, name) == 0)
				(*kept)++, out++; /* (a session's: aside) */
			else
				(*left)++;
			continue;
		}
		if (!is_dir)
			continue;
		size_t look = TREE_ENTRIES;
		int sub = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		bool same = sub >= 0 && cordon_fs_tree_unchanged(sub, since, depth + 1, &look);
		if (!same && sub >= 0 && (depth + 1 >= TREE_DEPTH || *budget == 0)) {
			/* (Too deep, or too much looked at: not judged, so
			 * aside whole.) */
			if (cordon_fs_rename_new_to(dir, name, holder, name) < 0)
				(*left)++;
			else
				out++;
			(*left)++;
		} else if (!same && sub >= 0) {
			(*budget)--;
			(void)mkdirat(holder, name, 0700);
			int h = openat(holder, name,
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (h >= 0) {
				take_out(sub, h, since, depth + 1, budget, kept, left);
				close(h);
				(void)unlinkat(holder, name, AT_REMOVEDIR); /* (where empty) */
			} else {
				(*left)++;
			}
		}
		if (sub >= 0)
			close(sub);
	}
	int stay = (int)names.n - out;
	cordon_strv_free(&names);
	return stay;
}

int cordon_putback_tree(int src, const char *sname, int dst, const char *dname,
			const struct timespec *since, int *kept, int *left)
{
	/* The user's directory itself goes back, once what changed in it
	 * is out: its inode, owner and mode kept (round 58b F1: made anew,
	 * it was no longer the inode the hiding sessions had recorded, and
	 * the next move-aside left it whole where no session hides it; F3: a
	 * root launch made the user's directories root's, 0700). What
	 * changed goes into a directory made anew, which then takes SNAME's
	 * name aside. */
	char hold[NAME_MAX + 1];
	if (snprintf(hold, sizeof(hold), "%.200s.cordon-held-%d", sname, (int)getpid()) >=
		    (int)sizeof(hold) ||
	    mkdirat(src, hold, 0700) < 0) {
		(*left)++;
		return 0;
	}
	int s = cordon_fs_open_own_dir(src, sname);
	int h = openat(src, hold, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	size_t budget = TREE_ENTRIES;
	int stay = s >= 0 && h >= 0 ? take_out(s, h, since, 0, &budget, kept, left) : 0;
	int back = 0;
	if (s >= 0 && h >= 0 && cordon_fs_rename_new_to(src, sname, dst, dname) == 0)
		back = stay > 0 ? stay : 1;
	else
		(*left)++;
	if (s >= 0)
		close(s);
	if (h >= 0)
		close(h);
	/* (Empty: gone; else it holds what changed, at the name the moved
	 * directory had.) */
	if (unlinkat(src, hold, AT_REMOVEDIR) < 0 && back)
		(void)cordon_fs_rename_new_to(src, hold, src, sname);
	return back;
}
