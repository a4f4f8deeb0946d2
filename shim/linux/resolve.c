/* Paths found as the caller of a judged call sees them (see resolve.h). */
#include "resolve.h"
#include "sysnums.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux.h"
#include "util.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#define MAX_LINKS  40   /* the kernel's */
#define MAX_MAGIC  4    /* the caller's own magic links in one path, each a round */
#define MAGIC      4096 /* resolve() met one: not a return value of any call */
#define MAGIC_CWD  (-2)
#define MAGIC_ROOT (-3)

static bool same_place(int a, int b)
{
	struct statx x = {0}, y = {0};
	return syscall(SYS_statx, a, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID, &x) == 0 &&
	       syscall(SYS_statx, b, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID, &y) == 0 &&
	       x.stx_ino == y.stx_ino && x.stx_dev_major == y.stx_dev_major &&
	       x.stx_dev_minor == y.stx_dev_minor && x.stx_mnt_id == y.stx_mnt_id;
}

static bool on_proc(int fd)
{
	struct statfs fs;
	return fstatfs(fd, &fs) == 0 && fs.f_type == PROC_SUPER_MAGIC;
}

/* A link in the caller's procfs that the kernel would follow by magic
 * (fd/N, cwd, root, exe, ns/...): its text means nothing as a path. */
static bool magic_link(int dir, const char *name)
{
	struct open_how how = {.flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_MAGICLINKS};
	int fd = (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == ELOOP;
}

/* Whether ID is the caller's (its process's or its thread's, as its own
 * procfs numbers them). */
static bool own_id(const struct cordon_call *c, const char *p, const char *end)
{
	char *stop;
	long id = strtol(p, &stop, 10);
	return stop != p && stop == end && (id == c->creds.ns_tgid || id == c->creds.ns_tid);
}

/* The magic link NAME in DIR, when it is the caller's own: its fd number
 * (DIR its /proc/PID/fd or /proc/PID/task/TID/fd), MAGIC_CWD or
 * MAGIC_ROOT (DIR its /proc/PID or /proc/PID/task/TID); else -1. */
static int own_magic(const struct cordon_call *c, int dir, const char *name)
{
	struct stat st;
	char path[PATH_MAX];
	if (fstat(dir, &st) < 0 || cordon_fd_path(dir, &st, path, sizeof(path)) <= 0)
		return -1;
	char *slash = strrchr(path, '/');
	if (!slash)
		return -1;
	if (strcmp(slash, "/fd") == 0) {
		*slash = '\0';
		const char *p = strrchr(path, '/');
		if (!p || !own_id(c, p + 1, slash))
			return -1;
		char *end;
		long fd = strtol(name, &end, 10);
		return end != name && !*end && fd >= 0 && fd <= INT32_MAX ? (int)fd : -1;
	}
	if (!own_id(c, slash + 1, slash + strlen(slash)))
		return -1;
	return strcmp(name, "cwd") == 0 ? MAGIC_CWD : strcmp(name, "root") == 0 ? MAGIC_ROOT : -1;
}

/* PATH up to its last component, in the caller's view (from START, or
 * from ROOT when absolute and for absolute link text): *DIR an O_PATH fd
 * (ours) on the directory the last component is in, LAST its name (a
 * trailing "/" kept). FOLLOW: a last component that is a symbolic link is
 * followed too (and one with a trailing "/" always, as the kernel does).
 * 0, -errno, or MAGIC with *MAGIC_FD and REST set. */
static int resolve(const struct cordon_call *c, int root, int start, const char *path, bool follow,
		   int *dir, char last[NAME_MAX + 2], int *magic_fd, char rest[PATH_MAX])
{
	char buf[2 * PATH_MAX], link[PATH_MAX];
	int links = 0;
	size_t plen = strlen(path);
	if (plen >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, plen + 1);
	int cur = fcntl(path[0] == '/' || start < 0 ? root : start, F_DUPFD_CLOEXEC, 3);
	if (cur < 0)
		return -errno;
	char *p = buf;
	for (;;) {
		if (*p == '/') {
			int r = fcntl(root, F_DUPFD_CLOEXEC, 3);
			if (r < 0) {
				r = -errno;
				close(cur);
				return r;
			}
			close(cur);
			cur = r;
			while (*p == '/')
				p++;
		}
		char *e = p;
		while (*e && *e != '/')
			e++;
		size_t len = (size_t)(e - p);
		char *next = e;
		while (*next == '/')
			next++;
		bool lastc = !*next, slash = *e == '/';
		if (len == 0) { /* "/" or "" */
			*dir = cur;
			last[0] = '\0';
			return 0;
		}
		if (len > NAME_MAX) {
			close(cur);
			return -ENAMETOOLONG;
		}
		char name[NAME_MAX + 1];
		memcpy(name, p, len);
		name[len] = '\0';
		bool dots = strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
		if (lastc && (!(follow || slash) || dots)) {
			*dir = cur;
			snprintf(last, NAME_MAX + 2, "%s%s", name, slash ? "/" : "");
			return 0;
		}
		if (dots) {
			/* ".." stops at the caller's root; at its mount namespace's
			 * root mount the kernel stops it too. */
			if (name[1] && !same_place(cur, root)) {
				int up = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
				if (up < 0) {
					int r = -errno;
					close(cur);
					return r;
				}
				close(cur);
				cur = up;
			}
			p = next;
			continue;
		}
		int fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct stat st;
		if (fd < 0 || fstat(fd, &st) < 0) {
			int r = -errno;
			if (fd >= 0)
				close(fd);
			if (lastc && r == -ENOENT) { /* the name to make */
				*dir = cur;
				snprintf(last, NAME_MAX + 2, "%s%s", name, slash ? "/" : "");
				return 0;
			}
			close(cur);
			return r;
		}
		if (!S_ISLNK(st.st_mode)) {
			if (lastc) {
				close(fd);
				*dir = cur;
				snprintf(last, NAME_MAX + 2, "%s%s", name, slash ? "/" : "");
				return 0;
			}
			close(cur);
			if (!S_ISDIR(st.st_mode)) {
				close(fd);
				return -ENOTDIR;
			}
			cur = fd;
			p = next;
			continue;
		}
		/* A symbolic link: its text, read here, in place of its name. */
		ssize_t n = -1;
		bool proc = on_proc(cur);
		if (++links > MAX_LINKS) {
			close(fd);
			close(cur);
			return -ELOOP;
		}
		if (proc && strcmp(name, "self") == 0 && c->creds.ns_tgid > 0) {
			n = snprintf(link, sizeof(link), "%d", (int)c->creds.ns_tgid);
		} else if (proc && strcmp(name, "thread-self") == 0 && c->creds.ns_tid > 0) {
			n = snprintf(link, sizeof(link), "%d/task/%d", (int)c->creds.ns_tgid,
				     (int)c->creds.ns_tid);
		} else if (proc && magic_link(cur, name)) {
			int own = own_magic(c, cur, name);
			close(fd);
			close(cur);
			if (own == -1)
				return -EACCES; /* exe, ns, another's fd: not here */
			*magic_fd = own;
			snprintf(rest, PATH_MAX, "%s", next);
			return MAGIC;
		} else {
			n = readlinkat(fd, "", link, sizeof(link) - 1);
		}
		close(fd);
		if (n < 0 || (size_t)n >= sizeof(link)) {
			close(cur);
			return n < 0 ? -errno : -ENAMETOOLONG;
		}
		link[n] = '\0';
		char joined[2 * PATH_MAX];
		int m = snprintf(joined, sizeof(joined), "%s%s%s", link, *next || slash ? "/" : "",
				 next);
		if (m < 0 || (size_t)m >= sizeof(buf)) {
			close(cur);
			return -ENAMETOOLONG;
		}
		memcpy(buf, joined, (size_t)m + 1);
		p = buf;
	}
}

int cordon_call_find(struct cordon_call *c, int root, int start, const char *path, bool follow,
		     struct cordon_found *out)
{
	char now[PATH_MAX], rest[PATH_MAX];
	snprintf(now, sizeof(now), "%s", path);
	*out = (struct cordon_found){.dir = -1};
	int base = -1, r = cordon_call_creds(c); /* its own pids, for /proc/self */
	if (r < 0)
		return r;
	if (start >= 0 && (base = fcntl(start, F_DUPFD_CLOEXEC, 3)) < 0)
		return -errno;
	for (int magic = 0;; magic++) {
		int own = -1;
		if ((r = cordon_call_assume(c)) < 0)
			break;
		r = resolve(c, root, base, now, follow, &out->dir, out->last, &own, rest);
		cordon_call_restore();
		if (r != MAGIC)
			break;
		if (magic == MAX_MAGIC) {
			r = -ELOOP;
			break;
		}
		/* The caller's fd N (its cwd, its root) stands there: ours, with
		 * what follows; the file itself when nothing does. */
		int fd = own == MAGIC_CWD    ? cordon_call_dir(c, "cwd")
			 : own == MAGIC_ROOT ? cordon_call_dir(c, "root")
					     : cordon_call_take_fd(c, own);
		if (fd < 0) {
			r = fd == -EBADF ? -ENOENT : fd;
			break;
		}
		if (base >= 0)
			close(base);
		base = fd;
		if (!rest[0]) {
			out->dir = TAKE_FD(base);
			out->last[0] = '\0';
			out->whole = true;
			r = 0;
			break;
		}
		snprintf(now, sizeof(now), "%s", rest);
	}
	if (base >= 0)
		close(base);
	return r;
}
