/* The sweep's file system calls on macOS (see shim/sweep-fs.h). Not built
 * or tested here: written against the SDK's documentation. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sweep-fs.h"

bool cordon_fs_birth(const char *path, struct timespec *t)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return false;
	*t = st.st_birthtimespec;
	return true;
}

bool cordon_fs_fine_times(const char *path)
{
	(void)path;
	return false; /* (HFS+ keeps seconds; APFS is not told from it here) */
}

bool cordon_fs_multigrain(const char *path)
{
	(void)path;
	return false;
}

bool cordon_fs_same_ino(int fd)
{
	(void)fd;
	return false;
}

bool cordon_fs_stamp_now(const char *dir, struct timespec *t)
{
	(void)dir, (void)t;
	return false; /* (only looked for where cordon_fs_multigrain is true) */
}

int cordon_fs_open_beneath(int root, const char *rel)
{
	/* O_NOFOLLOW_ANY (macOS 11): no link anywhere on the way. A relative
	 * path without ".." stays beneath ROOT. */
	if (strstr(rel, ".."))
		return -EINVAL;
	int fd = openat(root, rel[0] ? rel : ".",
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW_ANY | O_NONBLOCK | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* No O_PATH: a directory the sweep cannot read stays unread, and is
 * named. */
int cordon_fs_hold_beneath(int root, const char *rel)
{
	(void)root;
	(void)rel;
	return -EOPNOTSUPP;
}

int cordon_fs_chmod_held(int fd, mode_t mode)
{
	(void)fd;
	(void)mode;
	return -EOPNOTSUPP;
}

int cordon_fs_open_held(int fd)
{
	(void)fd;
	return -EOPNOTSUPP;
}

int cordon_fs_list(int fd,
		   int (*each)(const char *name, unsigned char type, unsigned long long ino,
			       void *arg),
		   void *arg, char *buf, size_t size)
{
	(void)buf;
	(void)size;
	int copy = dup(fd);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	if (!d) {
		int e = -errno;
		if (copy >= 0)
			close(copy);
		return e;
	}
	int e = 0;
	for (struct dirent *de; e >= 0 && (de = readdir(d));)
		e = each(de->d_name, de->d_type, (unsigned long long)de->d_ino, arg);
	closedir(d);
	return e;
}

int cordon_fs_rename_new_to(int dir, const char *from, int to_dir, const char *to)
{
	return renameatx_np(dir, from, to_dir, to, RENAME_EXCL) < 0 ? -errno : 0;
}

int cordon_fs_rename_new(int dir, const char *from, const char *to)
{
	return cordon_fs_rename_new_to(dir, from, dir, to);
}

/* Not needed here: Seatbelt denies a hidden name by its path, so there is
 * no way to a hidden name to follow (cordon_hidden_ways_find). */
int cordon_fs_rename_swap(int dir, const char *from, const char *to)
{
	(void)dir;
	(void)from;
	(void)to;
	return -EOPNOTSUPP;
}
