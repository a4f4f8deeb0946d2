/* File metadata and watches, judged by the supervisor (see metadata.h). */
#include "metadata.h"
#include "resolve.h"
#include "sysnums.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <utime.h>

#include "linux.h"
#include "util.h"

/* Linux 6.6 and 6.13, the same number on every architecture; Debian 12's
 * headers know neither. */
#define SYS_FCHMODAT2     452
#define SYS_SETXATTRAT    463
#define SYS_REMOVEXATTRAT 466
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

struct xattr_args_k { /* the kernel's struct xattr_args */
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

/* ---- the rules ------------------------------------------------------------------ */

static int add_rule(struct cordon_meta_rule **v, size_t *n, const struct cordon_rule *r)
{
	struct cordon_meta_rule *nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	struct stat st;
	nv[*n].dir = stat(r->path, &st) == 0 && S_ISDIR(st.st_mode);
	if (!(nv[*n].path = strdup(r->path)))
		return -ENOMEM;
	(*n)++;
	return 0;
}

int cordon_meta_init(struct cordon_meta *m, const struct cordon_policy *p, struct cordon_error *err)
{
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct cordon_rule *r = &p->rules[i];
		if (((r->access & CORDON_ACCESS_WRITE) &&
		     add_rule(&m->write, &m->n_write, r) < 0) ||
		    ((r->access & CORDON_ACCESS_READ) && add_rule(&m->read, &m->n_read, r) < 0)) {
			cordon_meta_free(m);
			return cordon_err(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

void cordon_meta_free(struct cordon_meta *m)
{
	for (size_t i = 0; i < m->n_write; i++)
		free(m->write[i].path);
	for (size_t i = 0; i < m->n_read; i++)
		free(m->read[i].path);
	free(m->write);
	free(m->read);
	memset(m, 0, sizeof(*m));
}

/* Whether PATH is one of RULES' files, or beneath one of its directories
 * (the directory itself too when SELF). */
static bool covered(const struct cordon_meta_rule *rules, size_t n, const char *path, bool self)
{
	for (size_t i = 0; i < n; i++) {
		const char *r = rules[i].path;
		size_t len = strlen(r);
		if (strcmp(path, r) == 0) {
			if (!rules[i].dir || self)
				return true;
			continue;
		}
		if (rules[i].dir && strncmp(path, r, len) == 0 &&
		    (path[len] == '/' || (len == 1 && r[0] == '/')))
			return true;
	}
	return false;
}

/* ---- the calls -------------------------------------------------------------------- */

enum op { CHMOD, CHOWN, UTIMES, SETX, REMOVEX, WATCH };
enum times { NOW, TIMESPEC, TIMEVAL, UTIMBUF };

struct req {
	enum op op;
	bool by_fd;          /* the target is the fd FD (fchmod, ...) */
	int fd;              /* by_fd: the fd; else the directory fd, or AT_FDCWD */
	uint64_t path;       /* 0: none (utimensat's and futimesat's NULL: FD itself) */
	bool follow;         /* the last component, when a symlink */
	bool empty;          /* AT_EMPTY_PATH */
	uint64_t a, b, c, d; /* the call's own arguments, by op (see perform) */
	enum times times;
};

bool cordon_meta_is(const struct seccomp_data *d)
{
	switch (d->nr) {
#ifdef SYS_chmod
	case SYS_chmod:
	case SYS_chown:
	case SYS_lchown:
	case SYS_utime:
	case SYS_utimes:
	case SYS_futimesat:
#endif
	case SYS_fchmod:
	case SYS_fchmodat:
	case SYS_FCHMODAT2:
	case SYS_fchown:
	case SYS_fchownat:
	case SYS_utimensat:
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_fsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr:
	case SYS_fremovexattr:
	case SYS_SETXATTRAT:
	case SYS_REMOVEXATTRAT:
	case SYS_inotify_add_watch:
		return true;
	default:
		return false;
	}
}

/* *at flags: AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH, anything else EINVAL. */
static int at_flags(struct req *q, uint64_t flags)
{
	if (flags & ~(uint64_t)(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	q->follow = !(flags & AT_SYMLINK_NOFOLLOW);
	q->empty = flags & AT_EMPTY_PATH;
	return 0;
}

static int decode(const struct seccomp_data *d, struct req *q)
{
	const __u64 *a = d->args;
	*q = (struct req){.fd = AT_FDCWD, .follow = true};
	switch (d->nr) {
#ifdef SYS_chmod
	case SYS_chmod:
		*q = (struct req){
			.op = CHMOD, .fd = AT_FDCWD, .path = a[0], .follow = true, .a = a[1]};
		return 0;
	case SYS_chown:
	case SYS_lchown:
		*q = (struct req){.op = CHOWN,
				  .fd = AT_FDCWD,
				  .path = a[0],
				  .follow = d->nr == SYS_chown,
				  .a = a[1],
				  .b = a[2]};
		return 0;
	case SYS_utime:
	case SYS_utimes:
		*q = (struct req){.op = UTIMES,
				  .fd = AT_FDCWD,
				  .path = a[0],
				  .follow = true,
				  .a = a[1],
				  .times = d->nr == SYS_utime ? UTIMBUF : TIMEVAL};
		return 0;
	case SYS_futimesat:
		*q = (struct req){.op = UTIMES,
				  .fd = (int)a[0],
				  .path = a[1],
				  .follow = true,
				  .a = a[2],
				  .times = TIMEVAL};
		q->by_fd = !q->path;
		return 0;
#endif
	case SYS_fchmod:
		*q = (struct req){.op = CHMOD, .by_fd = true, .fd = (int)a[0], .a = a[1]};
		return 0;
	case SYS_fchmodat:
		*q = (struct req){
			.op = CHMOD, .fd = (int)a[0], .path = a[1], .follow = true, .a = a[2]};
		return 0;
	case SYS_FCHMODAT2:
		*q = (struct req){.op = CHMOD, .fd = (int)a[0], .path = a[1], .a = a[2]};
		return at_flags(q, a[3]);
	case SYS_fchown:
		*q = (struct req){
			.op = CHOWN, .by_fd = true, .fd = (int)a[0], .a = a[1], .b = a[2]};
		return 0;
	case SYS_fchownat:
		*q = (struct req){.op = CHOWN, .fd = (int)a[0], .path = a[1], .a = a[2], .b = a[3]};
		return at_flags(q, a[4]);
	case SYS_utimensat:
		*q = (struct req){
			.op = UTIMES, .fd = (int)a[0], .path = a[1], .a = a[2], .times = TIMESPEC};
		if (!q->path) { /* futimens */
			q->by_fd = true;
			return a[3] ? -EINVAL : 0;
		}
		return at_flags(q, a[3]);
	case SYS_setxattr:
	case SYS_lsetxattr:
		*q = (struct req){.op = SETX,
				  .fd = AT_FDCWD,
				  .path = a[0],
				  .follow = d->nr == SYS_setxattr,
				  .a = a[1],
				  .b = a[2],
				  .c = a[3],
				  .d = a[4]};
		return 0;
	case SYS_fsetxattr:
		*q = (struct req){.op = SETX,
				  .by_fd = true,
				  .fd = (int)a[0],
				  .a = a[1],
				  .b = a[2],
				  .c = a[3],
				  .d = a[4]};
		return 0;
	case SYS_removexattr:
	case SYS_lremovexattr:
		*q = (struct req){.op = REMOVEX,
				  .fd = AT_FDCWD,
				  .path = a[0],
				  .follow = d->nr == SYS_removexattr,
				  .a = a[1]};
		return 0;
	case SYS_fremovexattr:
		*q = (struct req){.op = REMOVEX, .by_fd = true, .fd = (int)a[0], .a = a[1]};
		return 0;
	case SYS_SETXATTRAT:
	case SYS_REMOVEXATTRAT:
		*q = (struct req){.op = d->nr == SYS_SETXATTRAT ? SETX : REMOVEX,
				  .fd = (int)a[0],
				  .path = a[1],
				  .a = a[3]};
		if (d->nr == SYS_SETXATTRAT) {
			if (a[5] != sizeof(struct xattr_args_k))
				return -EINVAL;
			q->d = ~0ULL; /* value, size and flags are in the struct at a[4] */
			q->b = a[4];
		}
		return at_flags(q, a[2]);
	case SYS_inotify_add_watch:
		*q = (struct req){.op = WATCH,
				  .fd = AT_FDCWD,
				  .path = a[1],
				  .follow = !(a[2] & IN_DONT_FOLLOW),
				  .a = a[0],
				  .b = a[2]};
		return 0;
	default:
		return -ENOSYS;
	}
}

/* Where the file Q names is looked up, as the caller sees it, taken before
 * the caller's credentials are (they need the supervisor's own rights):
 * *FD an fd of ours on the file itself (the caller's own open file, for
 * by_fd or AT_EMPTY_PATH), or *BASE the directory PATH is resolved from
 * (-1: absolute) and *ROOT the caller's root. 0 or -errno. */
static int find_base(struct cordon_call *c, const struct req *q, char *path, size_t size, int *fd,
		     int *base, int *root)
{
	*fd = *base = *root = -1;
	if (q->by_fd)
		return (*fd = cordon_call_take_fd(c, q->fd)) < 0 ? *fd : 0;
	if (!q->path)
		return -EFAULT;
	int r = cordon_call_string(c, q->path, path, size);
	if (r < 0)
		return r == -ENAMETOOLONG ? r : -EFAULT;
	if (!path[0]) {
		if (!q->empty)
			return -ENOENT;
		if (q->fd != AT_FDCWD)
			return (*fd = cordon_call_take_fd(c, q->fd)) < 0 ? *fd : 0;
	}
	if ((*root = cordon_call_dir(c, "root")) < 0)
		return *root;
	if (path[0] == '/')
		return 0;
	if (q->fd == AT_FDCWD) {
		if ((*base = cordon_call_dir(c, "cwd")) < 0)
			return *base;
	} else if ((*base = cordon_call_take_fd(c, q->fd)) < 0) {
		return *base;
	}
	if (!path[0]) { /* AT_EMPTY_PATH on the working directory */
		*fd = *base;
		*base = -1;
	}
	return 0;
}

/* PATH from BASE (or ROOT), as the caller sees it and with its
 * credentials (resolve.h): an O_PATH fd on the file, or -errno. */
static int walk(struct cordon_call *c, const struct req *q, int root, int base, const char *path)
{
	struct cordon_found f;
	int r = cordon_call_find(c, root, base, path, q->follow, &f);
	if (r < 0 || f.whole)
		return r < 0 ? r : f.dir;
	/* Its last component, every link on the way followed already (a
	 * trailing "/": a directory; never a link followed by the kernel,
	 * which would take our root). */
	size_t len = strlen(f.last);
	bool dir = len > 1 && f.last[len - 1] == '/';
	while (len > 1 && f.last[len - 1] == '/')
		f.last[--len] = '\0';
	if ((r = cordon_call_assume(c)) >= 0) {
		r = openat(f.dir, f.last[0] ? f.last : ".",
			   O_PATH | O_CLOEXEC | O_NOFOLLOW | (dir ? O_DIRECTORY : 0));
		r = r < 0 ? -errno : r;
		cordon_call_restore();
	}
	close(f.dir);
	return r;
}

int cordon_fd_path(int fd, const struct stat *st, char *path, size_t size)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, path, size - 1);
	if (n <= 0)
		return -1;
	path[n] = '\0';
	/* A pipe, a socket, an anonymous inode; an unlinked file ("PATH
	 * (deleted)"): nothing outside reaches it by a path. */
	return path[0] == '/' && (st->st_nlink != 0 || S_ISDIR(st->st_mode));
}

/* Whether the change (or watch) Q may touch the file FD is on. */
/* The id the kernel shows for an owner a mount's idmap leaves unmapped
 * (/proc/sys/fs/overflowuid, overflowgid), read once. */
static unsigned overflow_id(const char *file)
{
	FILE *f = fopen(file, "re");
	char text[16] = "";
	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		(void)fclose(f); /* read only */
	}
	char *end;
	unsigned long v = strtoul(text, &end, 10);
	return end != text && v > 0 && v < 4294967295ul ? (unsigned)v : 65534;
}

static int judge(const struct cordon_meta *m, const struct req *q, int fd)
{
	static unsigned over_uid, over_gid;
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	/* A file of another user where the mount's idmap leaves its owner
	 * unmapped (a root session's /tmp: mountns.c idmap_root) shows as the
	 * overflow id, and the kernel lets CAP_CHOWN give such a file to a
	 * mapped owner all the same (chown_ok): a root session took another
	 * user's files in /tmp so, and read and rewrote them (round 53g G1).
	 * Never its owner or group, then (nor a real nobody's, a rare cost). */
	if (q->op == CHOWN) {
		if (!over_uid) {
			over_uid = overflow_id("/proc/sys/fs/overflowuid");
			over_gid = overflow_id("/proc/sys/fs/overflowgid");
		}
		if (st.st_uid == over_uid || st.st_gid == over_gid)
			return -EPERM;
	}
	if (q->op == WATCH && (q->b & IN_ONLYDIR) && !S_ISDIR(st.st_mode))
		return -ENOTDIR;
	/* A device node is the host's (chmod 000 /dev/null): its times only. */
	if ((S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) && q->op != UTIMES && q->op != WATCH)
		return -EPERM;
	char path[4096];
	int named = cordon_fd_path(fd, &st, path, sizeof(path));
	if (named < 0)
		return -EACCES;
	if (!named)
		return 0;
	if (q->op == WATCH)
		return covered(m->read, m->n_read, path, true) ? 0 : -EACCES;
	return covered(m->write, m->n_write, path, q->op == UTIMES) ? 0 : -EPERM;
}

/* Extended attributes the session may set: its own (user.*) and the POSIX
 * ACLs; never security.* (file capabilities) or trusted.*. */
static bool xattr_name_ok(const char *name)
{
	return strncmp(name, "user.", 5) == 0 || strcmp(name, "system.posix_acl_access") == 0 ||
	       strcmp(name, "system.posix_acl_default") == 0;
}

static int read_times(struct cordon_call *c, const struct req *q, struct timespec ts[2], bool *now)
{
	*now = !q->a;
	if (*now)
		return 0;
	switch (q->times) {
	case TIMESPEC:
		return cordon_call_peek(c, q->a, ts, 2 * sizeof(*ts));
	case TIMEVAL: {
		struct timeval tv[2];
		int r = cordon_call_peek(c, q->a, tv, sizeof(tv));
		for (int i = 0; r == 0 && i < 2; i++) {
			if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
				return -EINVAL;
			ts[i] = (struct timespec){tv[i].tv_sec, tv[i].tv_usec * 1000};
		}
		return r;
	}
	case UTIMBUF: {
		struct utimbuf u;
		int r = cordon_call_peek(c, q->a, &u, sizeof(u));
		ts[0] = (struct timespec){u.actime, 0};
		ts[1] = (struct timespec){u.modtime, 0};
		return r;
	}
	case NOW:
	default:
		*now = true;
		return 0;
	}
}

/* setxattr on the file FD is on (by_fd: the caller's open file). */
static long set_xattr(const struct req *q, int fd, const char *name, const void *value, size_t size,
		      int flags)
{
	if (q->by_fd)
		return fsetxattr(fd, name, value, size, flags);
	struct xattr_args_k args = {(uint64_t)(uintptr_t)value, (uint32_t)size, (uint32_t)flags};
	long r = syscall(SYS_SETXATTRAT, fd, "", AT_EMPTY_PATH, name, &args, sizeof(args));
	/* Before Linux 6.13, and on an O_PATH fd (which setxattrat does not
	 * take): through the fd's link, which leads to the file itself. */
	if (r < 0 && (errno == ENOSYS || errno == EBADF)) {
		char link[64];
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		r = setxattr(link, name, value, size, flags);
	}
	return r;
}

static long remove_xattr(const struct req *q, int fd, const char *name)
{
	if (q->by_fd)
		return fremovexattr(fd, name);
	long r = syscall(SYS_REMOVEXATTRAT, fd, "", AT_EMPTY_PATH, name);
	if (r < 0 && (errno == ENOSYS || errno == EBADF)) {
		char link[64];
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		r = removexattr(link, name);
	}
	return r;
}

/* The call's arguments, read once from the caller. */
struct args {
	mode_t mode;
	struct timespec ts[2];
	bool now;
	char name[256];
	char *value;
	size_t size;
	int flags;
	int inotify; /* WATCH: our copy of the caller's inotify fd */
};

static int gather(struct cordon_call *c, const struct req *q, struct args *x)
{
	int r = 0;
	switch (q->op) {
	case CHMOD:
		x->mode = (mode_t)q->a & 07777;
		return x->mode & (S_ISUID | S_ISGID) ? -EPERM : 0; /* the filter's too */
	case UTIMES:
		return read_times(c, q, x->ts, &x->now);
	case SETX:
	case REMOVEX: {
		r = cordon_call_string(c, q->a, x->name, sizeof(x->name));
		if (r < 0)
			return r == -ENAMETOOLONG ? -ERANGE : r;
		if (!xattr_name_ok(x->name))
			return -EPERM;
		if (q->op == REMOVEX)
			return 0;
		uint64_t value = q->b, size = q->c, flags = q->d;
		if (q->d == ~0ULL) { /* setxattrat: a struct xattr_args */
			struct xattr_args_k args;
			if ((r = cordon_call_peek(c, q->b, &args, sizeof(args))) < 0)
				return r;
			value = args.value;
			size = args.size;
			flags = args.flags;
		}
		if (size > 65536)
			return -E2BIG;
		if (flags & ~(uint64_t)(XATTR_CREATE | XATTR_REPLACE))
			return -EINVAL;
		if (!(x->value = malloc(size ? size : 1)))
			return -ENOMEM;
		x->size = (size_t)size;
		x->flags = (int)flags;
		return size ? cordon_call_peek(c, value, x->value, x->size) : 0;
	}
	case WATCH:
		x->inotify = cordon_call_take_fd(c, (int)q->a);
		return x->inotify < 0 ? x->inotify : 0;
	case CHOWN:
	default:
		return 0;
	}
}

/* The call itself, on FD: 0 (or a watch descriptor), or -1 with errno. */
static long act(const struct req *q, const struct args *x, int fd)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	switch (q->op) {
	case CHMOD: {
		long r = q->by_fd ? fchmod(fd, x->mode)
				  : syscall(SYS_FCHMODAT2, fd, "", x->mode, AT_EMPTY_PATH);
		return r < 0 && errno == ENOSYS ? chmod(link, x->mode) : r;
	}
	case CHOWN:
		return q->by_fd ? fchown(fd, (uid_t)q->a, (gid_t)q->b)
				: fchownat(fd, "", (uid_t)q->a, (gid_t)q->b, AT_EMPTY_PATH);
	case UTIMES:
		return q->by_fd ? futimens(fd, x->now ? NULL : x->ts)
				: utimensat(fd, "", x->now ? NULL : x->ts, AT_EMPTY_PATH);
	case SETX:
		return set_xattr(q, fd, x->name, x->value, x->size, x->flags);
	case REMOVEX:
		return remove_xattr(q, fd, x->name);
	case WATCH:
		/* The link leads to the file found (a symlink itself when the
		 * caller asked for IN_DONT_FOLLOW). */
		return inotify_add_watch(x->inotify, link,
					 (uint32_t)q->b & ~(uint32_t)IN_DONT_FOLLOW);
	default:
		errno = ENOSYS;
		return -1;
	}
}

long cordon_meta_handle(const struct cordon_meta *m, struct cordon_call *c)
{
	struct req q;
	int r = decode(&c->req->data, &q);
	if (r < 0)
		return r;
	/* Everything read from the caller first, once; then, with its
	 * credentials, the file is found, judged and changed. */
	char path[4096];
	struct args x = {.inotify = -1};
	int fd = -1, base = -1, root = -1;
	long res = find_base(c, &q, path, sizeof(path), &fd, &base, &root);
	if (res >= 0)
		res = gather(c, &q, &x);
	if (res >= 0 && !cordon_call_waiting(c))
		res = -ESRCH;
	if (res >= 0 && fd < 0 && (fd = walk(c, &q, root, base, path)) < 0)
		res = fd;
	if (res >= 0 && (res = cordon_call_assume(c)) >= 0) {
		res = judge(m, &q, fd);
		if (res >= 0 && (res = act(&q, &x, fd)) < 0)
			res = -errno;
		cordon_call_restore();
	}
	free(x.value);
	if (x.inotify >= 0)
		close(x.inotify);
	if (fd >= 0)
		close(fd);
	if (base >= 0)
		close(base);
	if (root >= 0)
		close(root);
	return res;
}
