/* The file system calls the sweep (shim/sweep.c) needs that each system
 * does its own way: shim/linux/sweep-fs.c, shim/macos/sweep-fs.c. */
#ifndef CORDON_SWEEP_FS_H
#define CORDON_SWEEP_FS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* The flag a directory is opened with only to stand for it (one of mode 0
 * too): Linux's O_PATH; elsewhere a read (cordon_fs_chmod_held does
 * nothing there). */
#ifdef O_PATH
#define CORDON_O_HOLD O_PATH
#else
#define CORDON_O_HOLD O_RDONLY
#endif

/* PATH's birth time (a final link not followed) into *T: true, or false
 * where the file system keeps none. */
bool cordon_fs_birth(const char *path, struct timespec *t);

/* Whether the file system holding PATH stamps change times finer than the
 * second, from the clock CLOCK_REALTIME_COARSE reads (Linux: ext4 with
 * large inodes, XFS, btrfs, tmpfs, f2fs, bcachefs; never a network or FUSE
 * one, whose times another clock gives). */
bool cordon_fs_fine_times(const char *path);

/* Whether the file system holding PATH is one whose change times, on
 * Linux 6.13 on, are multigrain (ext4, XFS, btrfs, tmpfs): a change made
 * right after a look at the file gets a fine stamp, and no change after
 * that, on any such file system, gets an older one (the kernel keeps a
 * floor). Before 6.13 they are all stamped from the coarse clock. */
bool cordon_fs_multigrain(const char *path);

/* Whether the file system of the directory FD lists each entry with the
 * inode stat gives it (ext4, XFS, btrfs, tmpfs: not overlayfs, whose
 * merged directories may not; elsewhere, not known: false). */
bool cordon_fs_same_ino(int fd);

/* The change time the kernel gives a change made now, into *T: a file
 * made (unnamed) in the directory DIR, looked at, then written, and its
 * change time read back. No older than any change made before it, and
 * on a multigrain file system no newer than any change made after it on
 * one. False where it cannot be made. */
bool cordon_fs_stamp_now(const char *dir, struct timespec *t);

/* The directory REL (relative, "" for ROOT itself) beneath the directory
 * ROOT, opened for reading (O_CLOEXEC) without following a link anywhere
 * on the way: a descriptor, or -errno. */
int cordon_fs_open_beneath(int root, const char *rel);

/* The directory REL beneath ROOT, reached as cordon_fs_open_beneath
 * reaches it but opened only to stand for it (O_PATH: one of mode 0
 * too): a descriptor, or -errno (-EOPNOTSUPP where the system has none
 * such). The sweep changes a directory's mode through it, never by a
 * path, which a link swapped in would turn to a file outside. */
int cordon_fs_hold_beneath(int root, const char *rel);
/* The mode of the directory FD (cordon_fs_hold_beneath's) set to MODE: 0
 * or -errno. */
int cordon_fs_chmod_held(int fd, mode_t mode);
/* The directory FD (cordon_fs_hold_beneath's) opened for reading: a
 * descriptor, or -errno. */
int cordon_fs_open_held(int fd);

/* As a session ends: each directory on the way to PATH (not PATH itself;
 * with SELF, PATH too, for writing in it) that the session made
 * unreadable or unsearchable (a chmod 0 as it ended: 47d M1, a protected
 * file it made was then taken for absent, and later sessions kept it as
 * the user's) given its owner's read and search, where it is the user's
 * own and MAY (cordon_ways_up_begin's) says the session could change its
 * mode. True where one was. Nothing before cordon_ways_up_begin (which
 * keeps the first MAY and ARG given until cordon_ways_down); each one's
 * mode given back as it was by cordon_ways_down, deepest first. */
void cordon_ways_up_begin(bool (*may)(const char *dir, const void *arg), const void *arg);
bool cordon_way_up(const char *path, bool self);
void cordon_ways_down(void);

/* Each entry of the directory FD ("." and ".." too) to EACH, with its
 * d_type (DT_UNKNOWN where the file system does not say) and d_ino, until EACH
 * returns a negative errno, which is returned; BUF (SIZE bytes) holds the
 * entries read at a time. 0, or -errno. */
int cordon_fs_list(int fd,
		   int (*each)(const char *name, unsigned char type, unsigned long long ino,
			       void *arg),
		   void *arg, char *buf, size_t size);

/* Rename FROM to TO in the directory DIR, never over an existing TO:
 * 0 or -errno (EEXIST). */
int cordon_fs_rename_new(int dir, const char *from, const char *to);
/* The same, from the directory DIR to the directory TO_DIR. */
int cordon_fs_rename_new_to(int dir, const char *from, int to_dir, const char *to);
/* FROM and TO in the directory DIR swapped, both existing: 0 or -errno
 * (-EOPNOTSUPP where the system has no such call). */
int cordon_fs_rename_swap(int dir, const char *from, const char *to);

/* (Portable, shim/putback-tree.c.) The directory NAME in DIR opened
 * without following a link; one of the user's that its mode closes to its
 * owner (a session's chmod 000, 555) given u+rwx: a descriptor, or -1. */
int cordon_fs_open_own_dir(int dir, const char *name);
/* Every entry in the tree of the directory DIR (DEPTH deep already)
 * changed before SINCE; *BUDGET entries looked at at most (past it:
 * false). */
bool cordon_fs_tree_unchanged(int dir, const struct timespec *since, int depth, size_t *budget);
/* The directory SNAME in SRC (a hidden directory of the user's, moved
 * aside) put back at DNAME in DST itself, its inode, owner and mode kept,
 * once what in it changed at or after SINCE (a session's: a file or link
 * changed, a directory made since whole, and within a directory whose
 * tree changed, its changed entries so) is taken out into a directory
 * made anew, which then holds SNAME's name aside; counted in *KEPT; what
 * could not be judged (too deep, too many entries) goes aside too, in
 * *LEFT. How many entries went back (1 for an empty directory). */
int cordon_putback_tree(int src, const char *sname, int dst, const char *dname,
			const struct timespec *since, int *kept, int *left);

/* (Portable, shim/sweep.c.) NAME in the directory DIR moved aside: to
 * NAME.cordon-disarmed, or with a random tail where that is taken, never
 * over another name. The new name into TO. 0 or -errno. */
int cordon_fs_move_aside(int dir, const char *name, char *to, size_t size);

#endif
