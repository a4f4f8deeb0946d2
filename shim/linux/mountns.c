/* The session's mount namespace: a private /proc for a caller holding
 * CAP_SYS_ADMIN, and the guards' mounts (guard.h). An ordinary user gets
 * the namespace inside a user namespace of its own, mapping only its own
 * uid and gid; the capabilities that namespace gives are all dropped
 * before the sandbox is applied (drop_caps, keep nothing). The mounts are
 * made with the new mount API on file descriptors, so each lands on the
 * inode that was planned, whatever a path names a moment later. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <linux/mount.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <linux/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "cordon/sandbox.h"
#include "cordon/sweep.h"
#include "cordon/session.h"
#include "../redact.h"
#include "linux.h"
#include "util.h"

/* A group id the caller is not a member of, for procfs's hidepid exemption. */
static gid_t unused_gid(void)
{
	gid_t groups[256];
	int n = getgroups(256, groups);
	for (gid_t g = 65534; g > 60000; g--) {
		bool member = g == getgid() || g == getegid();
		for (int i = 0; i < n && !member; i++)
			member = groups[i] == g;
		if (!member)
			return g;
	}
	return 65534;
}

/* /proc, measured on this kernel with Landlock read on all of /proc:
 * - an ordinary user cannot open another process's environ, maps or mem
 *   (Landlock's ptrace rule), but can read its cmdline;
 * - a process holding CAP_SYS_ADMIN or CAP_PERFMON passes that rule for
 *   environ and maps: a root shell inside could read every outside process's
 *   environment.
 * So a caller with CAP_SYS_ADMIN gets a fresh procfs mounted with
 * hidepid=invisible and an exempt group it is not in: after the
 * capabilities are dropped, the kernel's ptrace check (now refused by
 * Landlock) hides every process outside the sandbox — /proc/<pid>, cmdline
 * included — while every process inside still sees itself and the session. */
static int private_proc(struct cordon_error *err)
{
	char opts[64];
	snprintf(opts, sizeof(opts), "hidepid=invisible,gid=%u", (unsigned)unused_gid());
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0)
		return cordon_err(err, errno, "/proc: mounting a private procfs (%s): %s", opts,
				  strerror(errno));
	return 0;
}

static int write_text(const char *path, const char *text)
{
	cleanup_close int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t n = strlen(text);
	return write(fd, text, n) == (ssize_t)n ? 0 : -errno;
}

static int enter_userns(struct cordon_error *err)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	/* Mapping uid 0 needs CAP_SETFCAP here (a root session has dropped
	 * it): known before, since a user namespace entered cannot be left,
	 * and one without a map would leave this process "nobody". */
	if (uid == 0 && cordon_effective_cap(CAP_SETFCAP) != 1)
		return cordon_err(
			err, ENOTSUP,
			"protected_paths and hidden_paths need a mount namespace, and the "
			"user namespace made for it cannot map uid 0 without CAP_SETFCAP");
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return cordon_err(
			err, ENOTSUP,
			"protected_paths and hidden_paths need a mount namespace, and this "
			"system refuses a user namespace to an ordinary user "
			"(unshare: %s)",
			strerror(errno));
	char map[64];
	int r = write_text("/proc/self/setgroups", "deny");
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	if (r >= 0)
		r = write_text("/proc/self/uid_map", map);
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	if (r >= 0)
		r = write_text("/proc/self/gid_map", map);
	if (r < 0) /* e.g. uid 0 without CAP_SETFCAP, which mapping root needs */
		return cordon_err(
			err, ENOTSUP,
			"protected_paths and hidden_paths need a mount namespace, and the "
			"user namespace made for it cannot map uid %u and gid %u (%s)",
			(unsigned)uid, (unsigned)gid, strerror(-r));
	return 0;
}

static long open_tree_fd(int dfd, const char *path, unsigned flags)
{
	return syscall(SYS_open_tree, dfd, path, flags | OPEN_TREE_CLOEXEC);
}

static int set_readonly(int fd)
{
	struct mount_attr a = {.attr_set = MOUNT_ATTR_RDONLY};
	return (int)syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH | AT_RECURSIVE, &a, sizeof(a));
}

static int attach(int from, int to)
{
	return (int)syscall(SYS_move_mount, from, "", to, "",
			    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
}

/* A new tmpfs, not attached anywhere: its root of mode MODE, at most
 * NR_INODES inodes (NULL: the kernel's default), mounted with ATTRS. Its
 * mount fd, or -errno. */
static int new_tmpfs(const char *mode, const char *nr_inodes, unsigned attrs)
{
	cleanup_close int fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0 || syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", mode, 0) < 0 ||
	    (nr_inodes &&
	     syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "nr_inodes", nr_inodes, 0) < 0) ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return -errno;
	int m = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, attrs);
	return m < 0 ? -errno : m;
}

/* An empty tmpfs holding "d" (a directory) and "f" (a file), both mode
 * 0: what a hidden path is covered with (and, made there as needed, the
 * copies of the shadow files and of the configs shim/redact.c leaves
 * the secrets out of: redacted_cover; 64 inodes hold them all, with the
 * configs' moved and passwd-home names). */
static int empty_tree(struct cordon_error *err)
{
	int m = new_tmpfs("0700", "64", MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
	if (m < 0)
		return cordon_err(err, -m, "hidden_paths: making an empty tmpfs: %s", strerror(-m));
	int f = mkdirat(m, "d", 0) < 0 ? -1 : openat(m, "f", O_CREAT | O_WRONLY | O_CLOEXEC, 0);
	if (f < 0) {
		int e = errno;
		close(m);
		return cordon_err(err, e, "hidden_paths: filling the empty tmpfs: %s", strerror(e));
	}
	close(f);
	return m;
}

bool cordon_mountns_redacted(const char *path)
{
	static const char *const files[] = {"/etc/shadow", "/etc/shadow-", "/etc/gshadow",
					    "/etc/gshadow-"};
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
		if (strcmp(path, files[i]) == 0)
			return true;
	return cordon_redact_config(path);
}

int cordon_mountns_redact(const char *path, int from, int to)
{
	if (cordon_redact_config(path))
		return cordon_redact_copy(from, to);
	char in[4096], out[2 * sizeof(in)];
	int field = 0;
	ssize_t n;
	while ((n = read(from, in, sizeof(in))) > 0) {
		size_t o = 0;
		for (ssize_t i = 0; i < n; i++) {
			char c = in[i];
			if (field == 1 && c != ':' && c != '\n')
				continue; /* the password field */
			out[o++] = c;
			if (c == '\n')
				field = 0;
			else if (c == ':' && ++field == 1)
				out[o++] = '*';
		}
		for (size_t w = 0; w < o;) {
			ssize_t k = write(to, out + w, o - w);
			if (k <= 0)
				return k < 0 ? -errno : -EIO;
			w += (size_t)k;
		}
	}
	return n < 0 ? -errno : 0;
}

/* The cover of the hidden shadow file PATH: its copy as
 * cordon_mountns_redact makes it, in the tmpfs M (empty_tree's, under
 * PATH's own name there), as an unattached mount (its fd), or -errno.
 * What cannot be read (an ordinary user: it is root's) leaves it empty. */
static int redacted_cover(int m, const char *path)
{
	/* (A name of its own each: cargo's, hatch's and pdm's are all
	 * config.toml, and a copy already mounted is the same inode.) */
	static unsigned made;
	char name[32];
	snprintf(name, sizeof(name), "r%u", made++);
	/* (Readable by anyone: root reads /etc as anyone does, idmap_root.) */
	cleanup_close int out = openat(m, name, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0444);
	if (out < 0)
		return -errno;
	cleanup_close int in = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	int e = in < 0 ? 0 : cordon_mountns_redact(path, in, out);
	int from = e < 0 ? -1 : (int)open_tree_fd(m, name, OPEN_TREE_CLONE);
	return e < 0 ? e : from < 0 ? -errno : from;
}

static int mount_once(const struct cordon_mount *m, int *empty, struct cordon_error *err)
{
	cleanup_close int to = open(m->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	/* A server outside that ended since the plan took its socket with
	 * it: its name is free, as for one nobody listens on. */
	if (to < 0 && errno == ENOENT && strcmp(m->source, CORDON_GUARD_SERVERS) == 0)
		return 0;
	/* What a dotfile names, gone or beneath a cover since the plan: its
	 * cover (or nothing) keeps it. */
	if (to < 0 && (errno == ENOENT || errno == EACCES) &&
	    strncmp(m->source, CORDON_GUARD_NAMED, strlen(CORDON_GUARD_NAMED)) == 0)
		return 0;
	if (to < 0)
		return cordon_err(err, errno, "%s (%s): cannot open to keep it %s: %s", m->path,
				  m->source, cordon_mount_op_name(m->op), strerror(errno));
	cleanup_close int from = -1;
	if (m->op == CORDON_MOUNT_HIDE && !m->dir && cordon_mountns_redacted(m->path)) {
		if (*empty < 0 && (*empty = empty_tree(err)) < 0)
			return *empty;
		if ((from = redacted_cover(*empty, m->path)) < 0)
			return cordon_err(err, -from,
					  "%s (%s): cannot make its copy without the "
					  "password fields: %s",
					  m->path, m->source, strerror(-from));
	} else if (m->op == CORDON_MOUNT_HIDE) {
		if (*empty < 0 && (*empty = empty_tree(err)) < 0)
			return *empty;
		from = (int)open_tree_fd(*empty, m->dir ? "d" : "f", OPEN_TREE_CLONE);
	} else {
		from = (int)open_tree_fd(to, "", OPEN_TREE_CLONE | AT_EMPTY_PATH | AT_RECURSIVE);
	}
	if (from < 0 || (m->op != CORDON_MOUNT_PIN && set_readonly(from) < 0) ||
	    attach(from, to) < 0) {
		/* Removed after the open (the kernel mounts on no unlinked
		 * name): as above, a server that ended meanwhile (a test
		 * beside the suite's session refused it: 125). */
		if (errno == ENOENT && strcmp(m->source, CORDON_GUARD_SERVERS) == 0)
			return 0;
		return cordon_err(err, errno, "%s (%s): cannot keep it %s: %s", m->path, m->source,
				  cordon_mount_op_name(m->op), strerror(errno));
	}
	return 0;
}

/* mount_once, again where the file was missing, or replaced between its
 * open and the mount (the kernel mounts on no unlinked name): a program
 * outside that saves it anew, as useradd and passwd save /etc/shadow
 * (the old one moved to shadow- before the new one takes its name), left
 * a moment with none, and a session starting then was refused. A few
 * milliseconds: one that stays gone refuses the session still. */
static int mount_one(const struct cordon_mount *m, int *empty, struct cordon_error *err)
{
	int e = mount_once(m, empty, err);
	for (int tries = 0; e == -ENOENT && tries < 5; tries++) {
		usleep(1000);
		e = mount_once(m, empty, err);
	}
	return e;
}

/* Whether SOURCE is a guard of the home's own files (a dotfile, what runs
 * from the home, an agent's settings), not one of the project's
 * protected_paths, cordon's config, what a dotfile names, or a server's
 * socket directory (each said its own way, or not at all). */
static bool from_home(const char *source)
{
	return strncmp(source, "protected_paths", 15) != 0 &&
	       strcmp(source, "cordon's config") != 0 &&
	       strncmp(source, CORDON_GUARD_NAMED, strlen(CORDON_GUARD_NAMED)) != 0 &&
	       strcmp(source, CORDON_GUARD_SERVERS) != 0;
}

/* Whether PLAN's mount I lies beneath another of its read-only mounts
 * (parents come first): a directory kept read-only keeps what is in it,
 * whatever an editor outside does to it. */
static bool beneath_readonly(const struct cordon_guard_plan *plan, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (plan->v[j].op == CORDON_MOUNT_RO &&
		    cordon_path_under(plan->v[i].path, plan->v[j].path))
			return true;
	return false;
}

/* POSIX shared memory is files in /dev/shm: the host's are other
 * programs' (a database's, a browser's), read and written through the
 * default read-write rule. The session gets a /dev/shm of its own, a fresh
 * tmpfs (mode 1777, as the host's), shared by its processes and gone with
 * its namespace. Only where a rule grants /dev/shm and it is a directory. */
static int private_shm(const struct cordon_policy *p, struct cordon_error *err)
{
	struct stat st;
	if (!cordon_policy_access(p, "/dev/shm", NULL) || lstat("/dev/shm", &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return 0;
	cleanup_close int m = new_tmpfs("1777", NULL, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (m < 0)
		return cordon_err(err, -m, "/dev/shm: making the session's own tmpfs: %s",
				  strerror(-m));
	cleanup_close int to = open("/dev/shm", O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	if (to < 0 || attach(m, to) < 0)
		return cordon_err(err, errno, "/dev/shm: mounting the session's own tmpfs: %s",
				  strerror(errno));
	return 0;
}

/* The session's socket directory: its rule's (CORDON_SOCKETS_SOURCE), or NULL. */
static const char *socket_dir(const struct cordon_policy *p)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (strcmp(p->rules[i].source, CORDON_SOCKETS_SOURCE) == 0)
			return p->rules[i].path;
	return NULL;
}

/* The session's socket directory DIR lies in a directory of the user's
 * that holds every session's (cordon_socket_parents), in a tree the
 * session may write: that one is
 * kept read-only here, and the session's own read-write over it (a copy
 * taken before). Else one session could remove another live one's, or make
 * names in it, and cut off or stand in for the tmux server it started
 * (round 40h F2). Returns 0 or -errno. */
/* PATH, a directory (not a link), bound read-only over itself with what is
 * mounted beneath it: 0, or -1 with errno set. */
static int readonly_over(const char *path)
{
	cleanup_close int tree = (int)open_tree_fd(
		AT_FDCWD, path, OPEN_TREE_CLONE | AT_RECURSIVE | AT_SYMLINK_NOFOLLOW);
	cleanup_close int to = open(path, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	return tree < 0 || to < 0 || set_readonly(tree) < 0 || attach(tree, to) < 0 ? -1 : 0;
}

static int keep_socket_dirs(const char *dir, struct cordon_error *err)
{
	const char *slash = dir ? strrchr(dir, '/') : NULL;
	if (!slash || slash == dir)
		return 0;
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - dir), dir);
	cleanup_close int own =
		(int)open_tree_fd(AT_FDCWD, dir, OPEN_TREE_CLONE | AT_SYMLINK_NOFOLLOW);
	if (own < 0 || readonly_over(parent) < 0)
		return cordon_err(err, errno,
				  "%s: keeping the sessions' socket directory "
				  "read-only: %s",
				  parent, strerror(errno));
	cleanup_close int to_own = open(dir, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
	if (to_own < 0 || attach(own, to_own) < 0)
		return cordon_err(err, errno, "%s: the session's socket directory: %s", dir,
				  strerror(errno));
	/* The other place a session may have put its own (where the system
	 * had, or had not, made a runtime directory), read-only too, where
	 * it is the user's. */
	char parents[2][PATH_MAX];
	cordon_socket_parents(parents);
	for (int i = 0; i < 2; i++) {
		struct stat st;
		if (!parents[i][0] || strcmp(parents[i], parent) == 0 ||
		    lstat(parents[i], &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		if (readonly_over(parents[i]) < 0)
			return cordon_err(
				err, errno,
				"%s: keeping the sessions' socket directory read-only: %s",
				parents[i], strerror(errno));
	}
	return 0;
}

#ifndef MQUEUE_MAGIC
#define MQUEUE_MAGIC 0x19800202 /* linux/magic.h has it only from Linux 6.x */
#endif

/* ---- the read-only view ---------------------------------------------------------- */

/* Whether a write rule on PATH (whose stat is ST) gets a read-write mount
 * in the view. Not a device node (written through the node, which needs no
 * writable mount, while its mode is the host's), nothing in /proc (magic
 * links: the files they lead to keep their own mounts) or /sys, and in /dev
 * only a file system of its own (/dev/shm), not /dev and its nodes. */
static bool view_writable(const char *path, const struct stat *st)
{
	if (!S_ISDIR(st->st_mode) && !S_ISREG(st->st_mode))
		return false;
	if (cordon_path_under(path, "/proc") || cordon_path_under(path, "/sys"))
		return false;
	/* (A file system of its own: devtmpfs says TMPFS_MAGIC too, and a
	 * directory of /dev's own, /dev/net, got a writable copy of the
	 * host's /dev, where a root session made files: round 59d F5.) */
	struct statfs fs;
	struct stat dev;
	return !cordon_path_under(path, "/dev") ||
	       (S_ISDIR(st->st_mode) && statfs(path, &fs) == 0 &&
		(fs.f_type == TMPFS_MAGIC || fs.f_type == MQUEUE_MAGIC) &&
		strcmp(path, "/dev") != 0 && stat("/dev", &dev) == 0 && dev.st_dev != st->st_dev);
}

bool cordon_sandbox_view_read_only(const char *path)
{
	if (!cordon_path_under(path, "/sys") && !cordon_path_under(path, "/dev"))
		return false;
	struct stat st;
	char dir[PATH_MAX];
	bool there = lstat(path, &st) == 0;
	if (there && !S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return false; /* (a node: its mode decides) */
	/* (A file, or a name to make: its directory's mount.) */
	bool in_dir = !there || S_ISREG(st.st_mode);
	const char *slash = strrchr(path, '/');
	if (in_dir && (!slash ||
		       snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path),
				path) >= (int)sizeof(dir) ||
		       stat(dir, &st) < 0))
		return false;
	char why[128];
	return !view_writable(in_dir ? dir : path, &st) &&
	       cordon_mountns_possible(cordon_effective_cap(CAP_SYS_ADMIN) == 1, why, sizeof(why));
}

struct view_mount {
	const char *path;
	uint64_t mount; /* the id of the mount it is on (0: unknown) */
	int tree;       /* its copy, or -1 */
	bool nofollow;  /* its rule's (cordon_rule.nofollow) */
};

/* V's copy (its tree, recursive), opened as its rule is. */
static int view_tree(const struct view_mount *v)
{
	if (!v->nofollow)
		return (int)open_tree_fd(AT_FDCWD, v->path, OPEN_TREE_CLONE | AT_RECURSIVE);
	cleanup_close int fd = cordon_open_rule_path(v->path, O_PATH | O_CLOEXEC, true);
	return fd < 0 ? -1
		      : (int)open_tree_fd(fd, "", OPEN_TREE_CLONE | AT_RECURSIVE | AT_EMPTY_PATH);
}

/* The id of the mount PATH is on (statx, Linux 5.8), or 0. */
static uint64_t mount_id(const char *path)
{
	struct statx sx;
	if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_MNT_ID, &sx) < 0 ||
	    !(sx.stx_mask & STATX_MNT_ID))
		return 0;
	return sx.stx_mnt_id;
}

/* Whether V[I] lies beneath another of V on the same mount: that one's
 * copy holds it already, and a copy of its own would be a mount boundary
 * between the two (a rename from /tmp into a project in /tmp/p would fail
 * with EXDEV). */
static bool within_another(const struct view_mount *v, size_t n, size_t i)
{
	for (size_t k = 0; k < n && v[i].mount; k++)
		if (k != i && v[k].mount == v[i].mount && strcmp(v[k].path, v[i].path) != 0 &&
		    cordon_path_under(v[i].path, v[k].path))
			return true;
	return false;
}

static int by_length(const void *a, const void *b)
{
	size_t x = strlen(((const struct view_mount *)a)->path);
	size_t y = strlen(((const struct view_mount *)b)->path);
	return x < y ? -1 : x > y;
}

/* A user namespace mapping the uid and gid ID to themselves and nothing
 * else: its fd, or -errno. Made by a child, which unshares it and waits
 * while this process writes its maps (mapping 0 needs CAP_SETFCAP here). */
static int one_id_userns(unsigned id)
{
	int ready[2], go[2];
	if (pipe2(ready, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(go, O_CLOEXEC) < 0) {
		int e = -errno;
		close(ready[0]);
		close(ready[1]);
		return e;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(ready[0]);
		close(go[1]); /* (its end of the wait: the parent's close is the word) */
		char c = unshare(CLONE_NEWUSER) == 0 ? 'y' : 'n';
		if (write(ready[1], &c, 1) == 1)
			(void)!read(go[0], &c, 1);
		_exit(0);
	}
	close(ready[1]);
	close(go[0]);
	int fd = pid < 0 ? -errno : -EPERM;
	char c = 0, path[64], map[32];
	snprintf(map, sizeof(map), "%u %u 1\n", id, id);
	if (pid > 0 && read(ready[0], &c, 1) == 1 && c == 'y') {
		snprintf(path, sizeof(path), "/proc/%d/uid_map", (int)pid);
		fd = write_text(path, map);
		snprintf(path, sizeof(path), "/proc/%d/gid_map", (int)pid);
		if (fd >= 0)
			fd = write_text(path, map);
		snprintf(path, sizeof(path), "/proc/%d/ns/user", (int)pid);
		if (fd >= 0 && (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
			fd = -errno;
	}
	close(go[1]);
	close(ready[0]);
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	return fd;
}

/* What a root session's capabilities reach is taken down to what an owner
 * or anyone may do, where the files are not the session's to judge:
 * - a directory everyone shares (/tmp, /var/tmp): CAP_DAC_OVERRIDE and
 *   CAP_FOWNER pass every mode and the sticky bit, and the session read,
 *   rewrote or replaced the other users' files there (a Kerberos ticket,
 *   a script one of them runs, a tmux server's socket). Mapped: uid and
 *   gid 0 only. Root's own files work as before.
 * - /etc (where no rule lets the session write it or above it): the system's secrets
 *   (/etc/shadow, host keys, repository and VPN passwords) are root's and
 *   readable by root alone, and a list of names to hide could not keep a
 *   new one (a passwd outside renames a new /etc/shadow into place, round
 *   42b F1). Mapped: uid and gid 65534 only: root reads /etc as anyone
 *   does. sudo's /etc/sudo.conf, /etc/sudoers and /etc/sudoers.d are bound
 *   back as they are (sudo reads them as root and wants them root's), and the shadow
 *   files' covers are readable copies (redacted_cover).
 * The kernel grants no capability, and no owner's rights, on an inode
 * whose owner the mount's idmap does not map. Each such directory is
 * cloned with what is mounted in it (the guards' covers, a project's
 * binds: round 42a F1), idmapped as a whole and attached over itself. */
static const char *const sudo_files[] = {"/etc/sudo.conf", "/etc/sudoers", "/etc/sudoers.d"};
#define SUDO_FILES (sizeof(sudo_files) / sizeof(*sudo_files))

/* Whether a write rule of P lies at or beneath PATH (a project in it). */
static bool written_beneath(const struct cordon_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if ((p->rules[i].access & CORDON_ACCESS_WRITE) &&
		    cordon_path_under(p->rules[i].path, path))
			return true;
	return false;
}

/* In the shared directory DIR (idmapped, root's own mapped): each
 * directory at its top that is root's and shared itself (/tmp/.font-unix,
 * one an administrator made for a team) is kept read-only, as the X11 and
 * ICE ones are (policy.c): root owns it, so the idmap leaves it the
 * session's to rename, replace with its own holding a socket of its own,
 * or strip of its sticky bit for good (round 42a F2), while the files in
 * it are the other users'. Not one a write rule names or lies beneath (a
 * project there). 0 or -errno. */
static int keep_shared_within(const struct cordon_policy *p, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -errno;
	int e = 0;
	for (struct dirent *de; e == 0 && (de = readdir(d));) {
		struct stat st;
		char path[PATH_MAX];
		if (cordon_dot_or_dotdot(de->d_name) ||
		    (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_uid != 0 ||
		    !cordon_guard_shared_dir(dir, &st) ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path) ||
		    written_beneath(p, path))
			continue;
		cleanup_close int to =
			openat(dirfd(d), de->d_name, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
		cleanup_close int tree =
			to < 0 ? -1
			       : (int)open_tree_fd(to, "",
						   OPEN_TREE_CLONE | AT_RECURSIVE | AT_EMPTY_PATH);
		if (tree < 0 || set_readonly(tree) < 0 || attach(tree, to) < 0)
			e = errno == ENOENT ? 0 : -errno; /* (gone meanwhile: nothing to keep) */
	}
	closedir(d);
	return e;
}

/* A copy of what TO leads to, with what is mounted beneath it, idmapped as
 * a whole with the user namespace NS (not attached): its fd, or -errno. */
static int idmapped_tree(int to, int ns)
{
	int tree = (int)open_tree_fd(to, "", OPEN_TREE_CLONE | AT_RECURSIVE | AT_EMPTY_PATH);
	struct mount_attr a = {.attr_set = MOUNT_ATTR_IDMAP, .userns_fd = (uint64_t)ns};
	if (tree >= 0 &&
	    syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &a, sizeof(a)) < 0) {
		int e = -errno;
		close(tree);
		return e;
	}
	return tree < 0 ? -errno : tree;
}

/* V's directory idmapped with the user namespace NS, attached over itself
 * (and, for /etc, bound back as they are over it: sudo's files, and each
 * path beneath it a rule of P names, which the user meant the session to
 * read): 0 or -errno. */
static int cut_one(const struct cordon_policy *p, const struct cordon_root_cut *v, int ns)
{
	cleanup_close int to = cordon_open_rule_path(v->path, O_PATH | O_CLOEXEC, v->nofollow);
	if (to < 0)
		return -errno;
	cleanup_close int tree = idmapped_tree(to, ns);
	if (tree < 0)
		return tree;
	/* What is bound back, copied before the idmapped tree covers it. */
	size_t n = 0, cap = v->id ? SUDO_FILES + p->n_rules : 0;
	const char **names = cap ? calloc(cap, sizeof(*names)) : NULL;
	int *plain = cap ? calloc(cap, sizeof(*plain)) : NULL;
	if (cap && (!names || !plain)) {
		free(names);
		free(plain);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++) {
		const char *name = i < SUDO_FILES ? sudo_files[i] : p->rules[i - SUDO_FILES].path;
		if (i >= SUDO_FILES &&
		    (!cordon_path_under(name, v->path) || strcmp(name, v->path) == 0))
			continue;
		int fd = (int)open_tree_fd(AT_FDCWD, name, OPEN_TREE_CLONE | AT_RECURSIVE);
		if (fd >= 0)
			names[n] = name, plain[n++] = fd;
	}
	int e = attach(tree, to) < 0 ? -errno : 0;
	if (e == 0 && !v->id)
		e = keep_shared_within(p, v->path);
	for (size_t i = 0; i < n; i++) {
		cleanup_close int at = e < 0 ? -1 : open(names[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (at >= 0 && attach(plain[i], at) < 0)
			e = -errno;
		close(plain[i]);
	}
	free(names);
	free(plain);
	return e;
}

static int by_path_length(const void *a, const void *b)
{
	size_t x = strlen(((const struct cordon_root_cut *)a)->path);
	size_t y = strlen(((const struct cordon_root_cut *)b)->path);
	return x < y ? -1 : x > y;
}

static int idmap_root(const struct cordon_policy *p, struct cordon_error *err)
{
	struct cordon_root_cut v[16];
	size_t n = cordon_guard_root_cuts(p, v, 16);
	/* Outer ones first: an inner one (a project of mode 1777 in /tmp) is
	 * in the outer one's clone, idmapped with it, and cannot be again. */
	qsort(v, n, sizeof(*v), by_path_length);
	int ns[2] = {-1, -1}, e = 0;
	const char *at = NULL;
	size_t done = 0;
	for (size_t i = 0; i < n && e == 0; i++) {
		/* (Once each: not again beneath one already cut.) */
		bool again = false;
		for (size_t j = 0; j < i && !again; j++)
			again = cordon_path_under(v[i].path, v[j].path);
		if (again)
			continue;
		at = v[i].path;
		int *u = &ns[v[i].id != 0];
		if (*u < 0 && (*u = one_id_userns(v[i].id)) < 0)
			e = *u;
		else if ((e = cut_one(p, &v[i], *u)) == 0)
			done++;
	}
	for (size_t i = 0; i < 2; i++)
		if (ns[i] >= 0)
			close(ns[i]);
	/* The working directory may be in a mount now covered. */
	char cwd[PATH_MAX];
	if (done && getcwd(cwd, sizeof(cwd)) && chdir(cwd) < 0 && e == 0)
		e = -errno;
	if (e == 0)
		return 0;
	if (p->on_unsupported == CORDON_UNSUPPORTED_WARN) {
		fprintf(stderr,
			"cordon: warning: %s: this root session's capabilities reach every file "
			"there: this system cannot mount it idmapped (%s)\n",
			at, strerror(-e));
		return 0;
	}
	return cordon_err(
		err, ENOTSUP,
		"%s: a root session gets it idmapped, so that its capabilities do not "
		"reach the files there that are not its own, and this system cannot mount "
		"it so (%s); set \"on_unsupported\": \"warn\" to run without it",
		at, strerror(-e));
}

/* Every mount read-only, but for a copy of each path a rule lets the
 * session write, attached over it as it was (its guards' mounts inside
 * it, read-only, come with it). The kernel then refuses a change of
 * metadata outside those paths (EROFS) with no supervisor: chmod, chown
 * and utimes, which Landlock does not cover. Sound only when nothing in
 * this process leads to a file through the host's mounts: its executable
 * (the launcher started it in this namespace: mountns_made) and its open
 * files (cordon_mountns_view_holds). Returns 1 when made, 0 when not
 * possible here (the supervisor judges those calls then), -errno. */
static int readonly_view(const struct cordon_policy *p, struct cordon_error *err)
{
	struct view_mount *v = calloc(p->n_rules ? p->n_rules : 1, sizeof(*v));
	if (!v)
		return cordon_err(err, ENOMEM, "out of memory");
	/* The write rules that get a copy; a rule on / means no view. */
	size_t n = 0;
	bool none = false;
	for (size_t i = 0; i < p->n_rules && !none; i++) {
		const struct cordon_rule *rule = &p->rules[i];
		struct stat st;
		if (!(rule->access & CORDON_ACCESS_WRITE) || stat(rule->path, &st) < 0 ||
		    !view_writable(rule->path, &st))
			continue;
		none = strcmp(rule->path, "/") == 0;
		v[n++] = (struct view_mount){rule->path, mount_id(rule->path), -1, rule->nofollow};
	}
	/* The copies first: nothing has changed yet if the kernel refuses one
	 * (no view then, the supervisor judges). */
	for (size_t i = 0; i < n && !none; i++)
		if (!within_another(v, n, i) && (v[i].tree = view_tree(&v[i])) < 0)
			none = true;
	/* All or nothing (the kernel prepares every mount first): a refusal
	 * changes nothing either. */
	struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY};
	if (!none && syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &ro, sizeof(ro)) < 0)
		none = true;
	/* The outer copies first: an inner one lands on top of them. */
	int r = none ? 0 : 1;
	if (!none)
		qsort(v, n, sizeof(*v), by_length);
	for (size_t i = 0; i < n && r > 0; i++) {
		if (v[i].tree < 0)
			continue;
		cleanup_close int to =
			cordon_open_rule_path(v[i].path, O_PATH | O_CLOEXEC, v[i].nofollow);
		if (to < 0 || attach(v[i].tree, to) < 0)
			r = cordon_err(err, errno, "%s: attaching its read-write copy: %s",
				       v[i].path, strerror(errno));
	}
	for (size_t i = 0; i < n; i++)
		if (v[i].tree >= 0)
			close(v[i].tree);
	free(v);
	/* The working directory was the mount now covered. */
	char cwd[PATH_MAX];
	if (r > 0 && getcwd(cwd, sizeof(cwd)) && chdir(cwd) < 0)
		return cordon_err(err, errno, "%s: back into the working directory: %s", cwd,
				  strerror(errno));
	return r;
}

/* 0 where the view holds for FD (ST): -1 where not. */
static int view_holds_for(int fd, const struct stat *st, void *arg)
{
	const struct cordon_policy *p = *(const struct cordon_policy **)arg;
	char path[PATH_MAX];
	int named = cordon_fd_path(fd, st, path, sizeof(path));
	if (named == 0 || cordon_inherited_on_own_mount(fd))
		return 0; /* no path (a pipe, a socket), or opened here */
	/* On the host's mounts (inherited.c did not open it again here: a
	 * FIFO, a device with a state, a path too long to read): a directory
	 * leads anywhere by "..", anything else is changed on the mount it
	 * lies on (round 40c F1), but a file a rule lets the session write. */
	return named > 0 && S_ISREG(st->st_mode) &&
			       (cordon_policy_access(p, path, NULL) & CORDON_ACCESS_WRITE) != 0
		       ? 0
		       : -1;
}

bool cordon_mountns_view_holds(const struct cordon_policy *p)
{
	/* (Every descriptor: this process runs on after, as the command.) */
	return cordon_each_fd(false, view_holds_for, &p) == 0;
}

int cordon_mountns_enter(const struct cordon_policy *p, bool sysadmin, bool *userns, bool *view,
			 struct cordon_error *err)
{
	*userns = *view = false;
	/* An ordinary user's command started in its own user and mount
	 * namespace (userns_made), holding CAP_SYS_ADMIN there only: where the
	 * system refused them, it holds nothing and is where it was. */
	bool made = p->mountns_made && sysadmin;
	if (made && p->userns_made && getuid() != 0)
		sysadmin = false;
	struct cordon_guard_plan plan;
	if (cordon_guard_plan(p, true, &plan) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	int r = 0;
	if (plan.refuse) {
		r = cordon_err(err, ENOTSUP, "%s", plan.refuse);
		goto out;
	}
	if (p->sandbox && (r = cordon_sweep_refuse_heads_live(err)) < 0)
		goto out;
	const char *sockets = socket_dir(p);
	if (!sysadmin && !made && plan.n == 0 && !sockets)
		goto out;
	if (made) {
		/* the namespace is there */
	} else if (sysadmin) {
		if (unshare(CLONE_NEWNS) < 0) {
			r = cordon_err(err, errno, "unshare(CLONE_NEWNS): %s", strerror(errno));
			goto out;
		}
	} else if ((r = enter_userns(err)) < 0) {
		goto out;
	}
	*userns = !sysadmin;
	/* Slave: nothing mounted here propagates out. */
	if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) < 0) {
		r = cordon_err(err, errno, "making mounts private: %s", strerror(errno));
		goto out;
	}
	if (sysadmin && (r = private_proc(err)) < 0)
		goto out;
	int empty = -1;
	size_t named = 0;
	/* (Under --project ~ the home's own files are meant: not said.) */
	bool home_project = p->project && p->home && cordon_path_under(p->home, p->project);
	for (size_t i = 0; i < plan.n && r >= 0; i++) {
		r = mount_one(&plan.v[i], &empty, err);
		/* A file of the home's that lies in the project (XDG_CONFIG_HOME
		 * there), kept read-only: said, so that the failing write is not
		 * a mystery (round 11 saw only "Read-only file system"). */
		if (r >= 0 && plan.v[i].op == CORDON_MOUNT_RO && p->project && !home_project &&
		    cordon_path_under(plan.v[i].path, p->project) && from_home(plan.v[i].source) &&
		    !beneath_readonly(&plan, i))
			fprintf(stderr,
				"cordon: %s stays read-only in the project: it is where %s lie, "
				"and what is written there runs or is obeyed outside\n",
				plan.v[i].path,
				strcmp(plan.v[i].source, "dotfiles") == 0 ? "your dotfiles"
									  : plan.v[i].source);
		/* Kept read-only because a dotfile names it as code, in a tree
		 * the session may write (a project's src on PYTHONPATH): said,
		 * so that the failing write is not a mystery (round 9). */
		if (r >= 0 && plan.v[i].op == CORDON_MOUNT_RO &&
		    strncmp(plan.v[i].source, CORDON_GUARD_NAMED, strlen(CORDON_GUARD_NAMED)) ==
			    0 &&
		    !beneath_readonly(&plan, i) && named++ < 3)
			fprintf(stderr,
				"cordon: %s stays read-only: %s as code (what is written there "
				"runs outside); name it in --allow-write to write it\n",
				plan.v[i].path, plan.v[i].source);
		/* Carved out of a rule the user wrote: said, once, where it
		 * happens (not beneath another read-only guard: ~/.config in a
		 * writable home is one, and then no rule would have). */
		if (r >= 0 && plan.v[i].op == CORDON_MOUNT_RO &&
		    strcmp(plan.v[i].source, "cordon's config") == 0 && !beneath_readonly(&plan, i))
			fprintf(stderr,
				"cordon: %s stays read-only inside: it is cordon's own config, "
				"and a rule would make it writable%s\n",
				plan.v[i].path,
				plan.v[i].dir ? ""
					      : " (save it while no session runs: an editor's "
						"save replaces the file, and the session could "
						"write the new one before cordon guards it again)");
	}
	if (empty >= 0)
		close(empty);
	if (r >= 0 && named > 3)
		fprintf(stderr,
			"cordon: and %zu more a dotfile names stay read-only (cordon explain lists "
			"them)\n",
			named - 3);
	for (size_t i = 0; r >= 0 && i < plan.warnings.n; i++)
		fprintf(stderr, "cordon: warning: %s\n", plan.warnings.v[i]);
	if (r >= 0)
		r = private_shm(p, err);
	if (r >= 0 && sockets)
		r = keep_socket_dirs(sockets, err);
	if (r >= 0 && sysadmin && getuid() == 0)
		r = idmap_root(p, err);
	/* Started in this namespace: its metadata calls need no supervisor
	 * (one unshared here, after the exec, leaves the executable the
	 * host's). */
	if (r >= 0 && made) {
		int v = readonly_view(p, err);
		if (v < 0)
			r = v;
		*view = v > 0;
	}
	/* What the command inherits, opened again here where the guards are
	 * (after the view: a write rule's copy is what it then leads to). */
	if (r >= 0)
		r = cordon_inherited_rebase(p, err);
out:
	cordon_guard_plan_free(&plan);
	return r;
}

/* Whether PATH is the root of a mount here (and, RDONLY, a read-only one):
 * what the outer session's guards are. */
static bool outer_mount(const char *path, bool rdonly)
{
	struct statx stx;
	struct statvfs vfs;
	/* The system call: musl before 1.2.5 has no statx(). */
	if (syscall(SYS_statx, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &stx) < 0 ||
	    !(stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) ||
	    !(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT))
		return false;
	return !rdonly || (statvfs(path, &vfs) == 0 && (vfs.f_flag & ST_RDONLY));
}

/* Whether only read rules of P reach PATH: then the sieve hides it
 * (landlock-sieve.c) without a mount. */
static bool read_rules_only(const struct cordon_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if ((p->rules[i].access & CORDON_ACCESS_WRITE) &&
		    cordon_path_under(path, p->rules[i].path))
			return false;
	return true;
}

/* Whether the outer session keeps PATH from being written (DIR: nothing
 * can be made in it): a file is opened for writing, without truncating or
 * writing; in a directory a name is made, and removed at once, only where
 * the outer session lets it (and then the guard does not hold anyway). */
static bool outer_refuses_writes(const char *path, bool dir)
{
	/* A mode that refuses its own owner tells nothing: the owner can
	 * chmod it back (a review did, from an inner session, on a 0555
	 * file). */
	struct stat own;
	if (lstat(path, &own) == 0 && own.st_uid == geteuid() && geteuid() != 0 &&
	    !(own.st_mode & S_IWUSR))
		return false;
	if (!dir) {
		int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		return fd < 0 && (errno == EACCES || errno == EROFS || errno == EPERM);
	}
	char probe[PATH_MAX];
	if (snprintf(probe, sizeof(probe), "%s/.cordon-probe-%d", path, (int)getpid()) >=
	    (int)sizeof(probe))
		return false;
	if (mkdir(probe, 0700) == 0) {
		(void)rmdir(probe);
		return false;
	}
	return errno == EACCES || errno == EROFS || errno == EPERM;
}

/* Whether the file at PATH is a shadow file's copy as redacted_cover
 * makes it: every line's password field "*" (or none). */
static bool redacted_copy(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	bool blank = true;
	char *line = NULL;
	size_t cap = 0;
	while (blank && getline(&line, &cap, f) > 0) {
		const char *colon = strchr(line, ':');
		blank = !colon || (colon[1] == '*' && strchr(":\n", colon[2]) && colon[2]);
	}
	free(line);
	(void)fclose(f); /* read only */
	return blank;
}

/* Whether PATH is the outer session's cover of a hidden path: a mount root
 * of an empty tmpfs file or directory (not any mount: a FUSE or bind mount
 * the user made there shows what it holds). */
static bool outer_cover(const char *path)
{
	struct statfs fs;
	struct stat st;
	if (!outer_mount(path, false) || statfs(path, &fs) < 0 || fs.f_type != TMPFS_MAGIC ||
	    lstat(path, &st) < 0)
		return false;
	if (!S_ISDIR(st.st_mode))
		return S_ISREG(st.st_mode) &&
		       (st.st_size == 0 || (cordon_mountns_redacted(path) && redacted_copy(path)));
	DIR *d = opendir(path);
	if (!d)
		return errno == EACCES; /* mode 0, as the cover is made */
	bool empty = true;
	for (struct dirent *e; empty && (e = readdir(d));)
		empty = cordon_dot_or_dotdot(e->d_name);
	closedir(d);
	return empty;
}

/* Whether the outer session keeps PATH from being read. */
static bool outer_refuses_reads(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	return fd < 0 && (errno == EACCES || errno == EPERM);
}

/* Whether the outer session already keeps M as M's guard would. */
static bool held_outside(const struct cordon_policy *p, const struct cordon_mount *m)
{
	switch (m->op) {
	case CORDON_MOUNT_HIDE:
		return outer_cover(m->path) ||
		       (read_rules_only(p, m->path) && cordon_sieve_takes(m->path)) ||
		       outer_refuses_reads(m->path);
	case CORDON_MOUNT_RO:
		return outer_mount(m->path, true) || outer_refuses_writes(m->path, m->dir);
	case CORDON_MOUNT_PIN: {
		/* Not renamed away: a mount point, or in a directory nothing
		 * can be made or removed in. */
		char parent[PATH_MAX];
		snprintf(parent, sizeof(parent), "%s", m->path);
		char *slash = strrchr(parent, '/');
		if (slash)
			*(slash == parent ? slash + 1 : slash) = '\0';
		return outer_mount(m->path, false) || outer_refuses_writes(parent, true);
	}
	}
	return false;
}

int cordon_mountns_nested_check(const struct cordon_policy *p, struct cordon_strv *unkept,
				struct cordon_error *err)
{
	struct cordon_guard_plan plan;
	if (cordon_guard_plan(p, false, &plan) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	int r = plan.refuse ? cordon_err(err, ENOTSUP, "%s", plan.refuse) : 0;
	/* Each one named (three, then how many more): with "warn" the session
	 * runs without all of them (round 8: only the first was said). */
	char names[1024] = "";
	size_t n = 0, len = 0;
	const char *how = NULL;
	bool servers = true;
	for (size_t i = 0; i < plan.n && r >= 0; i++) {
		const struct cordon_mount *m = &plan.v[i];
		if (held_outside(p, m))
			continue;
		servers = servers && strcmp(m->source, CORDON_GUARD_SERVERS) == 0;
		if (unkept && cordon_strv_push_new(unkept, m->path) < 0) {
			r = cordon_err(err, ENOMEM, "out of memory");
			break;
		}
		const char *h = m->op == CORDON_MOUNT_HIDE ? "hidden"
				: m->op == CORDON_MOUNT_RO ? "read-only"
							   : "in place";
		how = !how || strcmp(how, h) == 0 ? h : "guarded";
		if (n++ < 3 && len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s (%s)",
						n > 1 ? ", " : "", m->path, m->source);
	}
	if (r >= 0 && n > 0) {
		char more[48] = "";
		if (n > 3)
			snprintf(more, sizeof(more), " and %zu more", n - 3);
		/* (46b F2: the usual one, the outer session's own tmux, where
		 * an ordinary user has no /run/user/UID and its socket
		 * directory lies in /tmp.) */
		r = cordon_err(err, ENOTSUP,
			       "%s%s cannot be kept %s inside another cordon session, whose "
			       "guards do not cover %s (no mount can be made here%s)",
			       names, more, how, n > 1 ? "them" : "it",
			       servers ? "; a server of the session around this one, its tmux "
					 "with no /run/user/UID, could be replaced from in here, "
					 "so start that server outside the session"
				       : "");
	}
	cordon_guard_plan_free(&plan);
	return r;
}

bool cordon_mountns_idmap_possible(const char *path, char *why, size_t size)
{
	/* (As idmap_root makes it: with what is mounted beneath, round 42d F4.) */
	int ns = one_id_userns(strcmp(path, "/etc") == 0 ? 65534 : 0);
	cleanup_close int to = ns < 0 ? -1 : open(path, O_PATH | O_CLOEXEC);
	int tree = ns < 0 ? ns : to < 0 ? -errno : idmapped_tree(to, ns);
	if (tree >= 0)
		close(tree);
	if (ns >= 0)
		close(ns);
	snprintf(why, size, "%s", tree < 0 ? strerror(-tree) : "");
	return tree >= 0;
}

bool cordon_mountns_possible(bool sysadmin, char *why, size_t size)
{
	if (!sysadmin && getuid() == 0 && cordon_effective_cap(CAP_SETFCAP) != 1) {
		snprintf(why, size, "uid 0 cannot be mapped without CAP_SETFCAP");
		return false;
	}
	return cordon_unshare_possible(sysadmin ? CLONE_NEWNS : CLONE_NEWUSER | CLONE_NEWNS, why,
				       size);
}

bool cordon_unshare_possible(int flags, char *why, size_t size)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(unshare(flags) < 0 ? (errno & 0x7f) : 0);
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		snprintf(why, size, "fork: %s", strerror(errno));
		return false;
	}
	int e = WIFEXITED(status) ? WEXITSTATUS(status) : EIO;
	snprintf(why, size, "%s", e ? strerror(e) : "");
	return e == 0;
}
