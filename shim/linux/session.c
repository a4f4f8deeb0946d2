/* cgroup v2 session tracking and the session registry. */
#include "cordon/session.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <linux/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cordon/mounts.h"
#include "cordon/policy.h"
#include "cordon/strv.h"
#include "jsonutil.h"
#include "linux.h"
#include "util.h"

/* The first cgroup2 line of mountinfo: its mount point (field 5; after
 * " - " comes the file system type). */
static int find_mount(char **mount, struct cordon_error *err)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return cordon_err(err, errno, "/proc/self/mountinfo: %s", strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	int r = cordon_err(err, ENOENT, "no cgroup2 filesystem is mounted (/proc/self/mountinfo)");
	while (getline(&line, &cap, f) > 0) {
		char *sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "cgroup2 ", 8) != 0)
			continue;
		char *save = NULL, *tok = strtok_r(line, " ", &save);
		for (int i = 1; tok && i < 5; i++)
			tok = strtok_r(NULL, " ", &save);
		if (!tok)
			continue;
		cordon_mountinfo_unescape(tok);
		*mount = strdup(tok);
		r = *mount ? 0 : cordon_err(err, ENOMEM, "out of memory");
		break;
	}
	free(line);
	(void)fclose(f); /* read only */
	return r;
}

static int own_cgroup(char **own, struct cordon_error *err)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return cordon_err(err, errno, "/proc/self/cgroup: %s", strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	int r = cordon_err(err, ENOENT, "/proc/self/cgroup: no cgroup v2 (\"0::\") entry");
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (strncmp(line, "0::", 3) != 0)
			continue;
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		*own = strdup(line + 3);
		r = *own ? 0 : cordon_err(err, ENOMEM, "out of memory");
		break;
	}
	free(line);
	(void)fclose(f); /* read only */
	return r;
}

/* listmount(2) and statmount(2), Linux 6.8: the mounts of the caller's
 * namespace by id, in the order mountinfo lists them, and one mount's
 * superblock magic or mount point without formatting the whole table.
 * Declared here: the build machine's headers may predate them. */
#define SYS_statmount_nr 457 /* the same number on every architecture */
#define SYS_listmount_nr 458
#define LSMT_ROOT_ID     0xffffffffffffffffULL
#define SM_SB_BASIC      0x1U
#define SM_MNT_POINT     0x10U
#define CGROUP2_MAGIC    0x63677270ULL

struct mnt_req {
	uint32_t size; /* 24: the first version */
	uint32_t spare;
	uint64_t mnt_id;
	uint64_t param; /* statmount: what to fill; listmount: the last id seen */
};

struct mnt_stat {
	uint32_t size, spare1;
	uint64_t mask;
	uint32_t sb_dev_major, sb_dev_minor;
	uint64_t sb_magic;
	uint32_t sb_flags, fs_type;
	uint64_t mnt_id, mnt_parent_id;
	uint32_t mnt_id_old, mnt_parent_id_old;
	uint64_t mnt_attr, mnt_propagation, mnt_peer_group, mnt_master, propagate_from;
	uint32_t mnt_root, mnt_point; /* offsets into str */
	uint64_t spare2[50];
	char str[];
};

/* The first cgroup2 mount point by listmount/statmount: 1 if found, 0 if
 * there is none, -errno where the kernel (or a seccomp filter) does not
 * offer the calls. Reading mountinfo formats every mount (~35-80 us here,
 * with the hybrid layout's dozen cgroup v1 mounts); this asks ~15 us. */
static int find_mount_by_id(char **mount)
{
	union {
		struct mnt_stat s;
		char bytes[sizeof(struct mnt_stat) + PATH_MAX + 1];
	} st;
	uint64_t ids[64];
	struct mnt_req list = {.size = sizeof(list), .mnt_id = LSMT_ROOT_ID};
	for (;;) {
		long n = syscall(SYS_listmount_nr, &list, ids, ARRAY_SIZE(ids), 0);
		if (n < 0)
			return -errno;
		for (long i = 0; i < n; i++) {
			struct mnt_req q = {
				.size = sizeof(q), .mnt_id = ids[i], .param = SM_SB_BASIC};
			if (syscall(SYS_statmount_nr, &q, &st, sizeof(st), 0) < 0)
				continue; /* gone since it was listed */
			if (st.s.sb_magic != CGROUP2_MAGIC)
				continue;
			q.param = SM_MNT_POINT;
			if (syscall(SYS_statmount_nr, &q, &st, sizeof(st), 0) < 0)
				return -errno;
			if (!(st.s.mask & SM_MNT_POINT) ||
			    st.s.mnt_point >= sizeof(st.bytes) - sizeof(st.s))
				return -EIO;
			st.bytes[sizeof(st.bytes) - 1] = '\0';
			*mount = strdup(st.s.str + st.s.mnt_point);
			return *mount ? 1 : -ENOMEM;
		}
		if ((size_t)n < ARRAY_SIZE(ids))
			return 0;
		list.param = ids[n - 1]; /* the next page */
	}
}

int cordon_cgroup_locate(char **mount, char **own, struct cordon_error *err)
{
	int r = find_mount_by_id(mount);
	if (r == 0)
		return cordon_err(err, ENOENT, "no cgroup2 filesystem is mounted (listmount)");
	if (r == -ENOMEM)
		return cordon_err(err, ENOMEM, "out of memory");
	if (r < 0) /* no listmount here: the mount table as text */
		r = find_mount(mount, err);
	if (r < 0)
		return r;
	r = own_cgroup(own, err);
	if (r < 0) {
		free(*mount);
		*mount = NULL;
	}
	return r;
}

int cordon_cgroup_create(const char *id, char **path, struct cordon_error *err)
{
	cleanup_free char *mount = NULL, *own = NULL;
	int r = cordon_cgroup_locate(&mount, &own, err);
	if (r < 0 || !mount || !own)
		return r < 0 ? r : cordon_err(err, ENOENT, "no cgroup2 mount");
	/* A process in "/" of a nested namespace may see "/.." style paths; only
	 * plain absolute paths are used. */
	if (own[0] != '/' || strstr(own, "/.."))
		return cordon_err(err, EINVAL, "/proc/self/cgroup: unusable path \"%s\"", own);
	char *p;
	if (asprintf(&p, "%s%s/cordon-%s", mount, strcmp(own, "/") == 0 ? "" : own, id) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	if (mkdir(p, 0755) < 0) {
		r = cordon_err(err, errno, "%s: cannot create the session cgroup: %s", p,
			       strerror(errno));
		free(p);
		return r;
	}
	*path = p;
	return 0;
}

static int write_file_str(const char *dir, const char *name, const char *val,
			  struct cordon_error *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	cleanup_close int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return cordon_err(err, errno, "%s: %s", path, strerror(errno));
	size_t len = strlen(val);
	if (write(fd, val, len) != (ssize_t)len)
		return cordon_err(err, errno, "%s: writing \"%s\": %s", path, val, strerror(errno));
	return 0;
}

int cordon_cgroup_enter(const char *path, pid_t pid, struct cordon_error *err)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", pid ? (int)pid : 0);
	return write_file_str(path, "cgroup.procs", buf, err);
}

int cordon_read_pids(const char *file, pid_t **pids, size_t *n)
{
	cleanup_close int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	cleanup_free char *text = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			char *nt = realloc(text, cap + 1);
			if (!nt)
				return -ENOMEM;
			text = nt;
		}
		ssize_t r = read(fd, text + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		len += (size_t)r;
	}
	pid_t *out = NULL;
	size_t cnt = 0, room = 0;
	char *s = text;
	if (text)
		text[len] = '\0';
	while (s && *s) {
		char *end;
		errno = 0;
		long v = strtol(s, &end, 10);
		if (end == s)
			break;
		s = end;
		if (errno || v <= 0 || v > INT_MAX)
			continue;
		if (cnt == room) {
			room = room ? room * 2 : 64;
			pid_t *nv = realloc(out, room * sizeof(*nv));
			if (!nv) {
				free(out);
				return -ENOMEM;
			}
			out = nv;
		}
		out[cnt++] = (pid_t)v;
	}
	*pids = out;
	*n = cnt;
	return 0;
}

int cordon_cgroup_pids(const char *path, pid_t **pids, size_t *n, struct cordon_error *err)
{
	char file[PATH_MAX];
	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	int r = cordon_read_pids(file, pids, n);
	return r < 0 ? cordon_err(err, r, "%s: %s", file, strerror(-r)) : 0;
}

/* Whether the cgroup still has processes (cgroup.events "populated 0/1"). */
static int populated(int events_fd)
{
	char buf[256];
	ssize_t n = pread(events_fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	const char *p = strstr(buf, "populated ");
	return p ? p[10] == '1' : -EINVAL;
}

int cordon_cgroup_kill(const char *path, struct cordon_error *err)
{
	int r = write_file_str(path, "cgroup.kill", "1", err);
	return r == -ENOENT ? cordon_cgroup_freeze_kill(path, err) : r;
}

int cordon_cgroup_freeze_kill(const char *path, struct cordon_error *err)
{
	int r = write_file_str(path, "cgroup.freeze", "1", err);
	if (r < 0)
		return r;
	pid_t *pids = NULL;
	size_t n = 0;
	r = cordon_cgroup_pids(path, &pids, &n, err);
	if (r >= 0) {
		for (size_t i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		free(pids);
	}
	int t = write_file_str(path, "cgroup.freeze", "0", err);
	return r < 0 ? r : t;
}

int cordon_cgroup_destroy(const char *path, struct cordon_error *err)
{
	char events[PATH_MAX];
	snprintf(events, sizeof(events), "%s/cgroup.events", path);
	cleanup_close int fd = open(events, O_RDONLY | O_CLOEXEC);
	/* Gone already (cordon_cgroup_sweep, from another session's watcher):
	 * the kernel removes only an empty cgroup, so nothing is left to end. */
	if (fd < 0 && errno == ENOENT && access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	if (fd < 0)
		return cordon_err(err, errno, "%s: %s", events, strerror(errno));
	for (int round = 0;; round++) {
		int pop = populated(fd);
		if (pop < 0)
			return cordon_err(err, -pop, "%s: unreadable", events);
		if (!pop)
			break;
		/* cgroup.kill is one pass over the tree; repeating it covers the
		 * fallback loop (and anything that raced in). */
		if (round % 256 == 0) {
			int r = cordon_cgroup_kill(path, err);
			if (r < 0)
				return r;
		}
		/* The kernel notifies a change of cgroup.events with POLLPRI, but
		 * at most every ~12 ms (measured): re-check every millisecond so the
		 * session is gone as soon as the kernel is done. */
		struct pollfd p = {.fd = fd, .events = POLLPRI};
		poll(&p, 1, 1);
	}
	for (int i = 0; i < 1000; i++) {
		if (rmdir(path) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		usleep(100); /* exiting tasks leave the cgroup a moment after "populated 0" */
	}
	return cordon_err(err, errno, "%s: cannot remove: %s", path, strerror(errno));
}

/* A session cgroup's or socket directory's name: "cordon-" and the 16 hex
 * digits of a session id. */
static bool session_cgroup_name(const char *name)
{
	return strncmp(name, "cordon-", 7) == 0 && strlen(name) == 7 + 16 &&
	       cordon_session_id_valid(name + 7);
}

/* The directory PATH's last name (after SLASH) lies in, open for reading,
 * or NULL (errno set). */
static DIR *parent_of(const char *path, const char *slash)
{
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

int cordon_cgroup_sweep(const char *path, int min_age_s)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return -EINVAL;
	DIR *d = parent_of(path, slash);
	if (!d)
		return -errno;
	int fd = dirfd(d);
	time_t now = time(NULL);
	int removed = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		struct stat st;
		if (!session_cgroup_name(e->d_name) || strcmp(e->d_name, slash + 1) == 0 ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
		    now - st.st_mtime < min_age_s)
			continue;
		/* The kernel refuses (EBUSY) while a process or a child cgroup is
		 * in it: a live session is never touched. */
		if (unlinkat(fd, e->d_name, AT_REMOVEDIR) == 0)
			removed++;
	}
	closedir(d);
	return removed;
}

/* DIR's name while it is made: .NAME.new beside it, into OUT. */
static int socket_dir_temp(const char *dir, char *out, size_t size)
{
	const char *slash = strrchr(dir, '/');
	if (!slash)
		return -EINVAL;
	int n = snprintf(out, size, "%.*s/.%s.new", (int)(slash - dir), dir, slash + 1);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* The directory of the user's that holds the sessions' socket directories
 * (DIR's parent): made (0700) when missing, and refused unless it is a
 * directory of the caller's that no one else may enter. */
static int socket_parent_make(const char *dir, struct cordon_error *err)
{
	const char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return cordon_err(err, EINVAL, "%s: the session's socket directory: %s", dir,
				  strerror(EINVAL));
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - dir), dir);
	if (mkdir(parent, 0700) < 0 && errno != EEXIST)
		return cordon_err(err, errno, "%s: the sessions' socket directory: %s", parent,
				  strerror(errno));
	cleanup_close int fd = open(parent, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	/* Another user's, made first (its owner could reach the servers of
	 * every session in it), or one this user may not even enter (round
	 * 41a F3). */
	if ((fd >= 0 ? fstat(fd, &st) : lstat(parent, &st)) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid != geteuid())
		return cordon_err(err, EPERM,
				  "%s: the sessions' socket directory is uid %u's, not yours: "
				  "have it removed (its owner or root can)",
				  parent, (unsigned)st.st_uid);
	if (fd < 0)
		return cordon_err(err, errno, "%s: the sessions' socket directory: %s", parent,
				  errno == ELOOP || errno == ENOTDIR ? "not a directory"
								     : strerror(errno));
	if ((st.st_mode & 077) && fchmod(fd, 0700) < 0)
		return cordon_err(err, errno, "%s: the sessions' socket directory: chmod: %s",
				  parent, strerror(errno));
	return 0;
}

int cordon_socket_dir_make(const char *dir, struct cordon_error *err)
{
	char tmp[PATH_MAX];
	int r = socket_dir_temp(dir, tmp, sizeof(tmp));
	if (r < 0)
		return cordon_err(err, -r, "%s: the session's socket directory: %s", dir,
				  strerror(-r));
	if ((r = socket_parent_make(dir, err)) < 0)
		return r;
	/* And every place, where it can be made: all are read-only in this
	 * session's view then, whichever a later session chooses (review 41c
	 * F1: a session made /tmp/cordon-UID itself, made the runtime
	 * directory unfit, and held every later session's directory). Both,
	 * not "the other": a login since DIR was chosen swaps them (41d F1). */
	char parents[2][PATH_MAX];
	cordon_socket_parents(parents);
	for (int i = 0; i < 2; i++)
		if (parents[i][0])
			(void)mkdir(parents[i], 0700);
	/* Its name is random: one that exists was put there. */
	if (mkdir(tmp, 0700) < 0)
		return cordon_err(err, errno, "%s: the session's socket directory: %s", tmp,
				  strerror(errno));
	int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		(void)fsetxattr(fd, CORDON_SOCKETS_MARK, "1", 1, 0);
	if (fd < 0 || flock(fd, LOCK_SH) < 0 ||
	    syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, dir, RENAME_NOREPLACE) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		(void)rmdir(tmp);
		return cordon_err(err, e, "%s: making the session's socket directory: %s", dir,
				  strerror(e));
	}
	/* Marked before it is renamed: a launcher killed meanwhile leaves a
	 * .NAME.new, which the sweep takes; the sweep leaves an unmarked
	 * NAME (a session of an older cordon holds no lock: round 40h F1). */
	return fd;
}

int cordon_socket_dirs_sweep(const char *own, int min_age_s)
{
	const char *slash = strrchr(own, '/');
	if (!slash)
		return -EINVAL;
	DIR *d = parent_of(own, slash);
	if (!d)
		return -errno;
	int fd = dirfd(d);
	time_t now = time(NULL);
	int removed = 0;
	for (struct dirent *e; (e = readdir(d));) {
		struct stat st;
		/* NAME, or .NAME.new where a launcher was killed making it. */
		char name[64];
		size_t len = strlen(e->d_name);
		bool made = len > 5 && len < sizeof(name) && e->d_name[0] == '.' &&
			    strcmp(e->d_name + len - 4, ".new") == 0;
		snprintf(name, sizeof(name), "%.*s", made ? (int)len - 5 : (int)len,
			 e->d_name + made);
		if (!session_cgroup_name(name) || strcmp(e->d_name, slash + 1) == 0 ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
		    st.st_uid != geteuid() || now - st.st_mtime < min_age_s)
			continue;
		int dir = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		/* (Only an empty one goes: the kernel refuses the rest. Only a
		 * marked one: a session of an older cordon holds no lock on
		 * its own, and lost it to the sweep, round 40h F1.) */
		char v[2];
		if (dir >= 0 && (made || fgetxattr(dir, CORDON_SOCKETS_MARK, v, sizeof(v)) >= 0) &&
		    flock(dir, LOCK_EX | LOCK_NB) == 0 &&
		    unlinkat(fd, e->d_name, AT_REMOVEDIR) == 0)
			removed++;
		if (dir >= 0)
			close(dir);
	}
	closedir(d);
	return removed;
}

const char *cordon_private_base(void)
{
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	struct stat st;
	if (xdg && xdg[0] == '/' && stat(xdg, &st) == 0 && S_ISDIR(st.st_mode) &&
	    st.st_uid == geteuid() && (st.st_mode & 077) == 0)
		return xdg;
	return "/tmp";
}

void cordon_socket_parents(char parents[2][PATH_MAX])
{
	unsigned uid = (unsigned)geteuid();
#ifdef CORDON_TEST_HOOKS
	/* Test builds: CORDON_TEST_SOCKETS names it (a test's own, apart
	 * from the suite's other sessions). */
	const char *test = getenv("CORDON_TEST_SOCKETS");
	if (test && test[0] == '/') {
		snprintf(parents[0], PATH_MAX, "%s", test);
		parents[1][0] = '\0';
		return;
	}
#endif
	char runtime[64], fallback[64];
	snprintf(runtime, sizeof(runtime), "/run/user/%u", uid);
	if (uid == 0)
		snprintf(fallback, sizeof(fallback), "/run/cordon-sockets");
	else
		snprintf(fallback, sizeof(fallback), "/tmp/cordon-%u", uid);
	/* (Not by its mode, which a session may change: 41c F1.) */
	struct stat rt, up;
	bool system_made = lstat(runtime, &rt) == 0 && S_ISDIR(rt.st_mode) && rt.st_uid == uid &&
			   lstat("/run/user", &up) == 0 && S_ISDIR(up.st_mode) && up.st_uid == 0 &&
			   !(up.st_mode & 022);
	snprintf(parents[system_made ? 0 : 1], PATH_MAX, "%s/cordon", runtime);
	snprintf(parents[system_made ? 1 : 0], PATH_MAX, "%s", fallback);
}

int cordon_session_socket_dir(const char *id, char *out, size_t size)
{
	/* Never where every session may write (/tmp, or the runtime directory,
	 * read-write by default): one session would remove another's, and
	 * cut its tmux server off (round 40h F2). A directory of the user's
	 * there instead, which each session's view keeps read-only but for
	 * its own (mountns.c). */
	char parents[2][PATH_MAX];
	cordon_socket_parents(parents);
	int n = snprintf(out, size, "%s/cordon-%s", parents[0], id);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

#define TMP_PREFIX "cordon-tmp-"

/* Whether a shared directory P lets the session write holds PATH. */
static bool shared_writable(const struct cordon_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (p->rules[i].shared && (p->rules[i].access & CORDON_ACCESS_WRITE) &&
		    cordon_path_under(path, p->rules[i].path))
			return true;
	return false;
}

int cordon_session_tmp_dir(const struct cordon_policy *p, const char *tmpdir, char *out,
			   size_t size, uid_t *owner)
{
	/* Always in /tmp, whatever TMPDIR says: every session of the user
	 * must pin the one its others may make sockets in (review 43c F1: a
	 * session whose TMPDIR was elsewhere pinned nothing, and renamed the
	 * others'; F3: one in /var/tmp or the runtime directory was pinned in
	 * its own session only). */
	const char *base = "/tmp";
#ifdef CORDON_TEST_HOOKS
	/* Test builds: CORDON_TEST_TMPBASE names another (a test's own shared
	 * directory, apart from the suite's other sessions). */
	const char *test = getenv("CORDON_TEST_TMPBASE");
	if (test && test[0] == '/')
		base = test;
#endif
	cleanup_free char *canon = realpath(base, NULL);
	if (!canon)
		return errno == ENOMEM ? -ENOMEM : 0;
	if (!shared_writable(p, canon))
		return 0;
	int n = snprintf(out, size, "%s/" TMP_PREFIX "%u", canon, (unsigned)geteuid());
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	struct stat st;
	if (lstat(out, &st) == 0 && (!S_ISDIR(st.st_mode) || st.st_uid != geteuid())) {
		*owner = st.st_uid;
		return -EPERM;
	}
	/* TMPDIR pointed there, unless the caller's is a directory apart
	 * (not in a shared one, where nothing of the session's may bind). */
	cleanup_free char *own = tmpdir && tmpdir[0] == '/' ? realpath(tmpdir, NULL) : NULL;
	return own && !shared_writable(p, own) ? 2 : 1;
}

/* "MAJOR:MINOR:INODE" of the directory that holds DIR, into OUT: which /tmp
 * the name was seen in. A session in a private /tmp (a service's
 * PrivateTmp, a container, unshare) has a directory of that path too, but
 * in another /tmp, which cannot move this one (43e F3). 0 or -errno. */
static int base_of(const char *dir, char out[64])
{
	const char *slash = strrchr(dir, '/');
	if (!slash)
		return -EINVAL;
	char base[PATH_MAX];
	int n = snprintf(base, sizeof(base), "%.*s", slash == dir ? 1 : (int)(slash - dir), dir);
	if (n < 0 || (size_t)n >= sizeof(base))
		return -ENAMETOOLONG;
	struct statx stx;
	if (syscall(SYS_statx, AT_FDCWD, base, AT_SYMLINK_NOFOLLOW, STATX_INO, &stx) < 0)
		return -errno;
	snprintf(out, 64, "%u:%u:%llu", stx.stx_dev_major, stx.stx_dev_minor,
		 (unsigned long long)stx.stx_ino);
	return 0;
}

int cordon_tmp_dir_unpinned(const char *dir, char id[4200])
{
	char base[64];
	int r = base_of(dir, base);
	if (r < 0)
		return r;
	snprintf(id, 4200, "unpinned %s %s", base, dir);
	return 0;
}

/* Whether S pins another directory at ID's place (what follows its first
 * space: the /tmp it lies in, and its path) than ID's as the sessions'
 * TMPDIR (ARG: ID; "unpinned ..." pins none). */
static bool pins_another(const struct cordon_session_info *s, void *arg)
{
	const char *id = *(const char **)arg, *path = strchr(id, ' '),
		   *theirs = strchr(s->tmpdir, ' ');
	return path && theirs && strcmp(theirs, path) == 0 && strcmp(s->tmpdir, id) != 0;
}

/* Whether a live session of the user's pins another directory at ID's
 * path than ID's as their TMPDIR. No registry (a home that cannot be
 * written: 43e F1): not known, so true for a directory MADE here, which an
 * earlier session may not pin. */
static int pinned_elsewhere(const char *id, bool made)
{
	int r = cordon_registry_each_live(pins_another, &id);
	return r < 0 ? (made ? -1 : 0) : r == 1;
}

int cordon_tmp_dir_make(const char *dir, char id[4200], struct cordon_error *err)
{
	id[0] = '\0';
	bool made = mkdir(dir, 0700) == 0;
	if (!made && errno != EEXIST)
		return cordon_err(err, errno, "%s: the sessions' temporary directory: %s", dir,
				  strerror(errno));
	cleanup_close int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct statx stx;
	if (fd < 0 ||
	    syscall(SYS_statx, fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS | STATX_BTIME, &stx) < 0)
		return cordon_err(err, errno, "%s: the sessions' temporary directory: %s", dir,
				  errno == ELOOP || errno == ENOTDIR ? "not a directory"
								     : strerror(errno));
	/* Another user's, made since the launch looked (its owner could move
	 * it away, with the sockets made there). */
	if (stx.stx_uid != geteuid())
		return cordon_err(err, EPERM,
				  "%s: the sessions' temporary directory is uid %u's, not yours: "
				  "have it removed (its owner or root can)",
				  dir, (unsigned)stx.stx_uid);
	if ((stx.stx_mode & 077) && fchmod(fd, 0700) < 0)
		return cordon_err(err, errno, "%s: the sessions' temporary directory: chmod: %s",
				  dir, strerror(errno));
	char base[64];
	int r = base_of(dir, base);
	if (r < 0)
		return cordon_err(err, -r, "%s: the sessions' temporary directory: %s", dir,
				  strerror(-r));
	/* (Birth too where the file system keeps it: ext4 gives a removed
	 * directory's inode number to the next one made.) */
	snprintf(id, 4200, "%u:%u:%llu:%lld.%u %s %s", stx.stx_dev_major, stx.stx_dev_minor,
		 (unsigned long long)stx.stx_ino,
		 (stx.stx_mask & STATX_BTIME) ? (long long)stx.stx_btime.tv_sec : 0LL,
		 (stx.stx_mask & STATX_BTIME) ? stx.stx_btime.tv_nsec : 0U, base, dir);
	int elsewhere = pinned_elsewhere(id, made);
	return elsewhere < 0 ? 2 : elsewhere ? 0 : 1;
}

bool cordon_tmp_dir_name(const char *dir)
{
	const char *base = strrchr(dir, '/');
	size_t n = strlen(TMP_PREFIX);
	return dir[0] == '/' && base && strncmp(base + 1, TMP_PREFIX, n) == 0 && base[1 + n] &&
	       strspn(base + 1 + n, "0123456789") == strlen(base + 1 + n);
}

void cordon_session_remove_socket_dir(const char *path)
{
	/* Only what the sessions make: .../cordon-<16 hex>. */
	const char *base = strrchr(path, '/');
	if (path[0] != '/' || !base || strncmp(base + 1, "cordon-", 7) != 0 ||
	    strlen(base + 8) != CORDON_SESSION_ID_LEN || !cordon_session_id_valid(base + 8))
		return;
	cordon_remove_tree(path);
}
