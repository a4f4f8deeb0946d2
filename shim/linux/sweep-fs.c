/* The sweep's file system calls on Linux (see shim/sweep-fs.h): system
 * calls the launcher's libc may not wrap (musl), made directly. */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/stat.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../sweep-fs.h"
#include "sysnums.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE 2
#endif

bool cordon_fs_birth(const char *path, struct timespec *t)
{
	struct statx sx;
	if (syscall(SYS_statx, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) < 0 ||
	    !(sx.stx_mask & STATX_BTIME))
		return false;
	t->tv_sec = (time_t)sx.stx_btime.tv_sec;
	t->tv_nsec = (long)sx.stx_btime.tv_nsec;
	return true;
}

bool cordon_fs_fine_times(const char *path)
{
	struct statfs fs;
	if (statfs(path, &fs) < 0)
		return false;
	switch ((unsigned long)fs.f_type) {
	case 0xEF53UL:     /* ext2, ext3, ext4 */
	case 0x58465342UL: /* XFS */
	case 0x9123683EUL: /* btrfs */
	case 0x01021994UL: /* tmpfs */
	case 0xF2F52010UL: /* f2fs */
	case 0xCA451A4EUL: /* bcachefs */
		break;
	default:
		return false;
	}
	/* ext4's 128-byte inodes keep seconds only, and no birth time,
	 * which its larger ones keep with the nanoseconds. (A change time of
	 * a whole second alone tells nothing: /var/tmp unpacked from an
	 * image bears one, and sessions started in the second after another
	 * ended took its moves for their own: round 48a I2.) */
	struct statx sx;
	return syscall(SYS_statx, AT_FDCWD, path, 0, STATX_CTIME | STATX_BTIME, &sx) == 0 &&
	       (sx.stx_mask & STATX_CTIME) &&
	       (sx.stx_ctime.tv_nsec != 0 || (sx.stx_mask & STATX_BTIME));
}

/* Whether FS is one of Linux's own disk or memory file systems: ext4,
 * XFS, btrfs, tmpfs (multigrain from 6.13; each entry listed with its
 * stat inode). */
static bool native_fs(const struct statfs *fs)
{
	switch ((unsigned long)fs->f_type) {
	case 0xEF53UL:     /* ext2, ext3, ext4 */
	case 0x58465342UL: /* XFS */
	case 0x9123683EUL: /* btrfs */
	case 0x01021994UL: /* tmpfs */
		return true;
	default:
		return false;
	}
}

bool cordon_fs_multigrain(const char *path)
{
	struct statfs fs;
	return statfs(path, &fs) == 0 && native_fs(&fs);
}

bool cordon_fs_same_ino(int fd)
{
	struct statfs fs;
	return fstatfs(fd, &fs) == 0 && native_fs(&fs);
}

bool cordon_fs_stamp_now(const char *dir, struct timespec *t)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	struct stat st;
	/* (The look first: on a multigrain file system, the change after it
	 * is stamped finely, and moves the kernel's floor up to it.) */
	bool ok = fd >= 0 && fstat(fd, &st) == 0 && write(fd, "", 1) == 1 && fstat(fd, &st) == 0;
	if (fd >= 0)
		close(fd);
	if (ok)
		*t = st.st_ctim;
	return ok;
}

/* Where openat2 is refused (ENOSYS: a kernel before 5.6, or inside a
 * cordon session, whose filter refuses it), REL is walked one name at a
 * time, each opened O_NOFOLLOW as a directory: no link is followed and no
 * ".." taken, as RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS would have it. */
static int beneath_by_names(int root, const char *rel, int flags)
{
	char buf[4096];
	if (snprintf(buf, sizeof(buf), "%s", rel) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	int dir = root;
	char *save = NULL;
	char *name = strtok_r(buf, "/", &save);
	if (!name) {
		int fd = openat(root, ".", flags);
		return fd < 0 ? -errno : fd;
	}
	while (name) {
		char *next = strtok_r(NULL, "/", &save);
		if (strcmp(name, "..") == 0 || strcmp(name, ".") == 0) {
			if (dir != root)
				close(dir);
			return -EXDEV;
		}
		int fd = openat(dir, name,
				next ? O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC : flags);
		int e = errno;
		if (dir != root)
			close(dir);
		if (fd < 0)
			return -e;
		dir = fd;
		name = next;
	}
	return dir;
}

static int beneath(int root, const char *rel, int flags)
{
	struct open_how how = {
		.flags = (unsigned)flags,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd = syscall(SYS_openat2, root, rel[0] ? rel : ".", &how, sizeof(how));
	if (fd < 0 && errno == ENOSYS)
		return beneath_by_names(root, rel, flags);
	return fd < 0 ? -errno : (int)fd;
}

int cordon_fs_open_beneath(int root, const char *rel)
{
	return beneath(root, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
}

int cordon_fs_hold_beneath(int root, const char *rel)
{
	return beneath(root, rel, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int cordon_fs_chmod_held(int fd, mode_t mode)
{
	/* fchmodat2 (Linux 6.6) takes the descriptor itself; before it,
	 * its /proc/self/fd link, which leads to that very directory. */
	if (syscall(SYS_fchmodat2, fd, "", mode, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP)
		return -errno;
	char proc[40];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	return chmod(proc, mode) < 0 ? -errno : 0;
}

int cordon_fs_open_held(int fd)
{
	int d = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	return d < 0 ? -errno : d;
}

/* The kernel's record (getdents(2)): what getdents64 fills BUF with. */
struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

int cordon_fs_list(int fd,
		   int (*each)(const char *name, unsigned char type, unsigned long long ino,
			       void *arg),
		   void *arg, char *buf, size_t size)
{
	for (;;) {
		long got = syscall(SYS_getdents64, fd, buf, size);
		if (got < 0)
			return -errno;
		if (got == 0)
			return 0;
		for (long at = 0; at < got;) {
			const struct linux_dirent64 *de = (const void *)(buf + at);
			at += de->d_reclen;
			int e = each(de->d_name, de->d_type, de->d_ino, arg);
			if (e < 0)
				return e;
		}
	}
}

int cordon_fs_rename_new_to(int dir, const char *from, int to_dir, const char *to)
{
	return syscall(SYS_renameat2, dir, from, to_dir, to, RENAME_NOREPLACE) < 0 ? -errno : 0;
}

int cordon_fs_rename_new(int dir, const char *from, const char *to)
{
	return cordon_fs_rename_new_to(dir, from, dir, to);
}

int cordon_fs_rename_swap(int dir, const char *from, const char *to)
{
	return syscall(SYS_renameat2, dir, from, dir, to, RENAME_EXCHANGE) < 0 ? -errno : 0;
}
