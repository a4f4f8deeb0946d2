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
 * aside. Portable. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static int putback_into(int src, const char *sname, int dst, const char *dname,
			const struct timespec *since, int depth, size_t *budget, int *kept,
			int *left);

static int putback(int src, int dst, const struct timespec *since, int depth, size_t *budget,
		   int *kept, int *left)
{
	struct cordon_strv names = {0};
	if (depth >= TREE_DEPTH || names_of(src, &names) < 0) {
		(*left)++;
		cordon_strv_free(&names);
		return 0;
	}
	int back = 0;
	for (size_t i = 0; i < names.n; i++) {
		const char *name = names.v[i];
		struct stat st;
		if (*budget == 0) {
			(*left)++;
			break;
		}
		(*budget)--;
		if (fstatat(src, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (!S_ISDIR(st.st_mode)) {
			if (changed_since(&st, since))
				(*kept)++; /* (a session's: stays aside) */
			else if (cordon_fs_rename_new_to(src, name, dst, name) == 0)
				back++;
			else
				(*left)++;
			continue;
		}
		/* A directory: whole where nothing in it changed (itself as it
		 * was), else made anew and its entries so. */
		size_t look = TREE_ENTRIES;
		int sub = openat(src, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		bool whole = !changed_since(&st, since) && sub >= 0 &&
			     cordon_fs_tree_unchanged(sub, since, depth + 1, &look);
		if (sub >= 0)
			close(sub);
		if (whole && cordon_fs_rename_new_to(src, name, dst, name) == 0) {
			back++;
			continue;
		}
		back += putback_into(src, name, dst, name, since, depth + 1, budget, kept, left);
	}
	cordon_strv_free(&names);
	return back;
}

/* The directory SNAME in SRC put back into DNAME in DST, made 0700 where
 * absent: see putback. */
static int putback_into(int src, const char *sname, int dst, const char *dname,
			const struct timespec *since, int depth, size_t *budget, int *kept,
			int *left)
{
	(void)mkdirat(dst, dname, 0700);
	int s = cordon_fs_open_own_dir(src, sname), d = cordon_fs_open_own_dir(dst, dname);
	int back = 0;
	if (s >= 0 && d >= 0)
		back = putback(s, d, since, depth, budget, kept, left);
	else
		(*left)++;
	if (s >= 0)
		close(s);
	if (d >= 0)
		close(d);
	return back;
}

int cordon_putback_tree(int src, const char *sname, int dst, const char *dname,
			const struct timespec *since, int *kept, int *left)
{
	size_t budget = TREE_ENTRIES;
	return putback_into(src, sname, dst, dname, since, 0, &budget, kept, left);
}
