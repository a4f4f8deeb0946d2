/* Guards kept while the session runs. A guard is a mount on one inode: a
 * program outside that saves a guarded file anew (writes a new file and
 * renames it over the old one: git config, sed -i, an editor's or an
 * agent's save) makes the kernel detach that mount in the session's
 * namespace, and a hidden path made outside after the session started has
 * none. A thread of the launcher watches their directories (inotify) and,
 * when such a name is made or moved in, mounts the guard again on what is
 * there now, from a child that enters the session's namespaces. What the
 * session did in between (a millisecond or so) the sweep judges as the
 * session ends (sweep.c, guard_lost), and says.
 *
 * The guards are listed LIST_AFTER_MS after the command started (with
 * each file's inode), and watched WATCH_AFTER_MS after, when what was
 * replaced meanwhile is put back first (a guard whose path is no mount
 * root any more where the session sees it: also one saved anew before
 * the listing): closing an inotify instance waits
 * for an SRCU grace period (~10 ms here), and a plan of the guards takes
 * a millisecond, which a command of a moment (an agent's `ls`) would
 * otherwise pay as it ends.
 *
 * A hidden name is followed down its way: from the nearest directory
 * that exists (or, where the session could make names on the way, from
 * the highest one it could not replace: cordon_hidden_way's top), each
 * directory on the way is watched as it appears, made inside or outside,
 * down to the name's own. A review made ~/.cache/huggingface inside after
 * the watch began, and read the token a login outside wrote there later.
 * Where the session could make names, a symbolic link it lays on the way
 * (or a FIFO, or a hard link of its own file, at the name) cannot be
 * covered by a mount, and a program outside saving the name would write
 * through it: it is moved aside at once, from this thread, outside the
 * sandbox, by descriptors held since before the session started
 * (cordon_hidden_way_disarm), and said as the session ends.
 *
 * The protected names missing as the session started that no mount could
 * guard (the sweep's names, but a .git) are watched the same way: one
 * made, or a link laid on its way, is moved aside at once
 * (cordon_sweep_disarm_now) and said, and an empty socket file stands in
 * for it until the session ends (held with the placeholders, pinned
 * read-only in the session's namespace: it cannot be made again there);
 * where none can be kept, one made again goes to
 * NAME.cordon-disarmed-again. A program outside can still read it in the
 * moment before the move (docs/internals.md, "Known gap"). */
#include "reguard.h"
#include "watchwait.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <linux/mount.h>
#include <linux/stat.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cordon/session.h"
#include "cordon/guard.h"
#include "cordon/strv.h"
#include "cordon/sweep.h"
#include "linux.h"
#include "util.h"

struct kept {
	char *path; /* as planned (canonical), or a hidden name not made yet */
	const char *name;
	/* The directories watched, from the top of its way (PATH's first
	 * END bytes; 0: "/") down to its own; -1: not watched now. */
	struct level {
		size_t end;
		int wd;
	} * lv;
	size_t levels;
	bool hide;
	/* A protected name missing as the session started that no mount
	 * could guard (the sweep's): made since, it is moved aside at once;
	 * MOVED times so far. */
	bool made;
	unsigned moved;
	dev_t dev; /* what was there as the command started (0: nothing) */
	ino_t ino;
	/* A way the session could lay a lure on (borrowed), or NULL. */
	struct cordon_hidden_way *way;
	/* A made name whose last part is a glob (lefthook's extends:
	 * lefthook-*.yml at the worktree's top): each match made since the
	 * session started is moved aside as it appears (one older is the
	 * user's, guarded as protected files are). DEEP: a directory part
	 * is one too (*\/hooks.yml); its way ends above the first, and the
	 * directories its globs match are watched as SUB (N_SUB; a
	 * directory of the session's moved in, with an older match in it,
	 * counts as made). */
	bool pattern, deep;
	int *sub;
	size_t n_sub, cap_sub;
	/* The matches moved aside so far (a pattern's), with the names they
	 * were moved to. */
	struct moved {
		dev_t dev;
		ino_t ino;
		char to[NAME_MAX + 1];
	} * gone;
	size_t n_gone, cap_gone;
	/* The names looked for above missing in one directory (the
	 * sweep's above), kept as one entry: its path is the first's, its
	 * way the directory's; ABOVE the set of them (cordon_found_above's
	 * indices). Each made since the start is moved aside, MOVED_EACH[K]
	 * times so far, as a name of its own is. */
	const cordon_above_set *above;
	unsigned *moved_each;
};

/* (IN_MASK_ADD: a directory watched for two reasons keeps both masks.) */
#define WATCHED        (IN_CREATE | IN_MOVED_TO | IN_ONLYDIR | IN_MASK_ADD)
#define ALLOW_WATCHED  (IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ONLYDIR | IN_MASK_ADD)
#define ALLOW_UP       6
#define MAX_LISTS      8

#define MAX_STAND_INS  8    /* for one name, in a session */
#define MAX_SUB        1024 /* directories watched for one deep pattern */
#define LIST_AFTER_MS  20
#define WATCH_AFTER_MS 150

static struct {
	const struct cordon_policy *p; /* until cordon_reguard_stop */
	struct cordon_hidden_ways *ways;
	const struct cordon_sweep *sweep;
	struct cordon_placeholders *standins;
	struct kept *v;
	size_t n, cap;
	int inotify, stop, mnt, user;
	pid_t command;
	pthread_t thread;
	bool running;
	bool marked; /* a watch was added (its instance's close then waits) */
	/* The allow lists of tools outside that run what a directory holds
	 * once the user allowed it (the policy's): direnv's directories, an
	 * entry a file each, and oh-my-zsh's dotenv lists, a directory a
	 * line (FILE, in DIR). Each watched at its directory or, missing, at
	 * the nearest directory above it (UP levels up). What they allowed so
	 * far: .envrc files, .env files. */
	struct allow_list {
		char *dir;
		const char *file;
		int wd;
		unsigned up;
	} lists[MAX_LISTS];
	size_t n_lists;
	struct cordon_strv allowed, omz_allowed;
	unsigned late_ms; /* test builds: CORDON_TEST_WATCH_LATE */
} g = {.inotify = -1, .stop = -1, .mnt = -1, .user = -1};

/* The watch could not be kept (the session used up the user's inotify
 * watches, which a directory on a hidden name's way needed): the session
 * ends rather than run on with a guard that cannot be put back. */
/* LINE (N bytes of a buffer of SIZE, from snprintf) said, and the
 * session ended: a guard the watch cannot keep. */
static void end_session(const char *line, int n, size_t size)
{
	if (n > 0)
		(void)!write(STDERR_FILENO, line, (size_t)n < size ? (size_t)n : size);
	if (g.command > 0)
		(void)kill(g.command, SIGKILL);
}

static void cannot_watch(const char *dir, int e)
{
	char line[PATH_MAX + 256];
	int n = snprintf(line, sizeof(line),
			 "cordon: cannot watch %s for the session's guards (%s: the user's inotify "
			 "watches are used up); session ended\n",
			 dir, strerror(e));
	end_session(line, n, sizeof(line));
}

/* The length of the directory PATH's first LEN bytes name is in (0:
 * "/"). */
static size_t up(const char *path, size_t len)
{
	while (len > 0 && path[len - 1] != '/')
		len--;
	return len > 1 ? len - 1 : 0;
}

/* The length of the longest of the sweep's roots PATH lies beneath, or 0. */
static size_t root_of(const char *path)
{
	size_t best = 0;
	for (size_t i = 0; g.sweep && i < g.sweep->roots.n; i++) {
		size_t n = strlen(g.sweep->roots.v[i]);
		if (n > best && n > 1 && strncmp(path, g.sweep->roots.v[i], n) == 0 &&
		    path[n] == '/')
			best = n;
	}
	return best;
}

/* PATH's first N bytes into BUF (SIZE bytes), "/" for none: false when
 * they do not fit. */
static bool prefix(char *buf, size_t size, const char *path, size_t n)
{
	if (!n)
		path = "/", n = 1;
	if (n >= size)
		return false;
	memcpy(buf, path, n);
	buf[n] = '\0';
	return true;
}

/* Whether the directory PATH's first TOP bytes name stays where it is:
 * the session cannot write its parent (/tmp, /var/tmp: no rule reaches
 * /), so it cannot move it away or put another in its place. */
static bool stays(const char *path, size_t top)
{
	char parent[PATH_MAX];
	return prefix(parent, sizeof(parent), path, up(path, top)) && g.p &&
	       !(cordon_policy_access(g.p, parent, NULL) & CORDON_ACCESS_WRITE);
}

/* PATH, kept: HIDE, else MADE (a name that is moved aside when made),
 * else read-only; its way WAY (may be NULL). Its way starts at WAY's top,
 * else (a hidden name, a MADE one) at the nearest directory on it that
 * exists, else at its own directory. */
static int add(const char *path, bool hide, bool made, struct cordon_hidden_way *way)
{
	for (size_t i = 0; i < g.n; i++)
		if (strcmp(g.v[i].path, path) == 0)
			return 0;
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path || !slash[1])
		return 0;
	size_t parent = (size_t)(slash - path), top = parent;
	char buf[PATH_MAX];
	struct stat st;
	if (way) {
		top = way->top;
	} else if (hide || made) {
		while (top > 0 && (!prefix(buf, sizeof(buf), path, top) || stat(buf, &st) < 0 ||
				   !S_ISDIR(st.st_mode)))
			top = up(path, top);
		/* A made name's way, from the root of the sweep's it lies in
		 * (which the session cannot replace), else from above the
		 * nearest directory: a directory on the way that the session
		 * moves aside takes its watch along, and one moved into its
		 * place is seen only from its parent (a review swapped in a
		 * .config holding mise.toml, unseen until the session ended),
		 * or from the nearest if that stays where it is (/tmp). */
		size_t root = made ? root_of(path) : 0;
		if (made)
			top = root && root <= top ? root : stays(path, top) ? top : up(path, top);
	}
	/* A glob in a directory part below the top: the way ends at the
	 * directory above it. */
	size_t last = parent;
	const char *wild = (made || hide) && !way ? strpbrk(path + top + 1, "*?[") : NULL;
	bool deep = wild && (size_t)(wild - path) < parent;
	if (deep)
		last = up(path, (size_t)(wild - path));
	if (last < top)
		return 0;
	size_t levels = 1;
	for (size_t at = top + 1; at <= last; at++)
		levels += path[at] == '/';
	struct kept *nv = cordon_grow(g.v, &g.cap, g.n + 1, sizeof(*nv), 8);
	if (!nv)
		return -ENOMEM;
	g.v = nv;
	char *copy = strdup(path);
	struct level *lv = calloc(levels, sizeof(*lv));
	if (!copy || !lv) {
		free(copy);
		free(lv);
		return -ENOMEM;
	}
	for (size_t i = 0, at = top; i < levels; i++) {
		lv[i] = (struct level){at, -1};
		const char *next = strchr(path + at + 1, '/');
		at = next && (size_t)(next - path) < last ? (size_t)(next - path) : last;
	}
	/* (What a made name was is never asked: it was missing.) */
	bool there = !made && lstat(path, &st) == 0;
	g.v[g.n++] = (struct kept){copy,
				   copy + parent + 1,
				   lv,
				   levels,
				   hide,
				   made,
				   0,
				   there ? st.st_dev : 0,
				   there ? st.st_ino : 0,
				   way,
				   false,
				   deep,
				   NULL,
				   0,
				   0,
				   NULL,
				   0,
				   0,
				   NULL,
				   0};
	g.v[g.n - 1].pattern =
		deep || ((made || hide) && !way && strpbrk(g.v[g.n - 1].name, "*?[") != NULL);
	if (way) { /* as it started */
		g.v[g.n - 1].dev = (dev_t)way->dev;
		g.v[g.n - 1].ino = (ino_t)way->ino;
	}
	return 0;
}

static long open_tree_fd(int dfd, const char *path, unsigned flags)
{
	return syscall(SYS_open_tree, dfd, path, flags | OPEN_TREE_CLOEXEC);
}

/* A hidden shadow file as the launcher sees it, for put_back's copy. */
static int redact_from = -1;

/* In the child, in the session's namespaces: K's mount on what is at its
 * path now. Raw system calls only (the launcher has other threads). */
static int put_back(const void *arg)
{
	const struct kept *k = arg;
	int to = open(k->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (to < 0 || fstat(to, &st) < 0 ||
	    !(S_ISREG(st.st_mode) || (k->hide && S_ISDIR(st.st_mode))))
		return 1; /* gone again, or a link: nothing to cover */
	int from = -1;
	if (k->hide) {
		int fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
		if (fs < 0 ||
		    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0700", 0) < 0 ||
		    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
			return 2;
		int m = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC,
				     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
		if (m < 0)
			return 2;
		if (S_ISDIR(st.st_mode)) {
			if (mkdirat(m, "d", 0) < 0)
				return 2;
		} else {
			bool copy = cordon_mountns_redacted(k->path);
			int f = openat(m, "f", O_CREAT | O_WRONLY | O_CLOEXEC, copy ? 0444 : 0);
			if (f < 0)
				return 2;
			/* A shadow file written anew outside (a passwd): its
			 * copy again, as the session started (mountns.c), from
			 * the file the launcher opened (inside, root reads
			 * /etc as anyone does). */
			int e = copy && redact_from >= 0
					? cordon_mountns_redact(k->path, redact_from, f)
					: 0;
			close(f);
			if (e < 0)
				return 2;
		}
		from = (int)open_tree_fd(m, S_ISDIR(st.st_mode) ? "d" : "f", OPEN_TREE_CLONE);
	} else {
		from = (int)open_tree_fd(to, "", OPEN_TREE_CLONE | AT_EMPTY_PATH);
		struct mount_attr a = {.attr_set = MOUNT_ATTR_RDONLY};
		if (from >= 0 &&
		    syscall(SYS_mount_setattr, from, "", AT_EMPTY_PATH, &a, sizeof(a)) < 0)
			return 3;
	}
	if (from < 0 || syscall(SYS_move_mount, from, "", to, "",
				MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		return 4;
	return 0;
}

/* FN(ARG) in a child that enters the session's namespaces: true if it
 * returned 0 there. */
static bool inside(int (*fn)(const void *), const void *arg)
{
	if (g.mnt < 0)
		return false;
	pid_t pid = fork();
	if (pid == 0) {
		if ((g.user >= 0 && setns(g.user, CLONE_NEWUSER) < 0) ||
		    setns(g.mnt, CLONE_NEWNS) < 0)
			_exit(5);
		_exit(fn(arg));
	}
	int st = -1;
	while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static void reguard(const struct kept *k)
{
	if (k->hide && cordon_mountns_redacted(k->path))
		redact_from = open(k->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	(void)inside(put_back, k);
	if (redact_from >= 0)
		close(redact_from);
	redact_from = -1;
}

static int list_made(void);
static int list_guards(const struct cordon_policy *p);

/* Whether PATH is a mount root where the session sees it (through the
 * command's root, in its mount namespace); true when that cannot be told
 * (the command gone: nothing to put back for). */
static bool mounted_inside(const char *path)
{
	char seen[PATH_MAX + 32];
	struct statx sx;
	if (snprintf(seen, sizeof(seen), "/proc/%d/root%s", (int)g.command, path) >=
		    (int)sizeof(seen) ||
	    syscall(SYS_statx, AT_FDCWD, seen, AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) < 0 ||
	    !(sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT))
		return true;
	return sx.stx_attributes & STATX_ATTR_MOUNT_ROOT;
}

/* The lure the session laid at K's first LEN bytes moved aside (K has a
 * way), and noted on the way for the sweep to say. */
static void disarm(struct kept *k, size_t len)
{
	char to[NAME_MAX + 32], what[PATH_MAX + 64];
	struct cordon_hidden_way *w = k->way;
	if (cordon_hidden_way_disarm(w, len, w->moved > 0, to, sizeof(to), what, sizeof(what)) != 1)
		return;
	if (w->moved++ == 0) {
		w->moved_path = strndup(k->path, len);
		w->moved_what = strdup(what);
		w->moved_to = strdup(to);
		if (!w->moved_path || !w->moved_what || !w->moved_to) {
			free(w->moved_path);
			free(w->moved_what);
			free(w->moved_to);
			w->moved_path = w->moved_what = w->moved_to = NULL;
			w->moved = 0; /* (the sweep finds the next one) */
		}
	}
}

/* A stand-in to pin: its path, what it is, and the length of the root
 * of the sweep's it lies in (0: none). */
struct stand {
	const char *path;
	dev_t dev;
	ino_t ino;
	size_t root;
};

/* In the child, in the session's namespaces: each directory between S's
 * root and its name bound onto itself with what is mounted beneath it,
 * where it is no mount root yet (a mount point is not renamed there): a
 * review swapped (RENAME_EXCHANGE) a .config holding a new mise.toml in
 * for the one holding the stand-in, thousands of times, and the stand-in
 * left with each. */
static void pin_way(const struct stand *s)
{
	char dir[PATH_MAX];
	const char *last = strrchr(s->path, '/');
	for (const char *c = s->path + s->root; s->root && c < last;) {
		const char *next = strchr(c + 1, '/');
		if (!next || next > last)
			break;
		snprintf(dir, sizeof(dir), "%.*s", (int)(next - s->path), s->path);
		c = next;
		struct statx sx;
		int to = open(dir, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
		if (to < 0)
			return;
		if (syscall(SYS_statx, to, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx) == 0 &&
		    (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
		    (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT)) {
			close(to);
			continue; /* pinned already (or a guard) */
		}
		int from =
			(int)open_tree_fd(to, "", OPEN_TREE_CLONE | AT_RECURSIVE | AT_EMPTY_PATH);
		if (from < 0 || syscall(SYS_move_mount, from, "", to, "",
					MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
			return;
		close(from);
		close(to);
	}
}

/* In the child, in the session's namespaces: the stand-in at S's path, if
 * it is still S's inode, bound onto itself (a mount point: not renamed nor
 * removed there, as guard.c pins links), and the directories on its way
 * pinned. */
static int pin_stand_in(const void *arg)
{
	const struct stand *s = arg;
	pin_way(s);
	int to = open(s->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (to < 0 || fstat(to, &st) < 0 || st.st_dev != s->dev || st.st_ino != s->ino ||
	    !S_ISSOCK(st.st_mode))
		return 1;
	int from = (int)open_tree_fd(to, "", OPEN_TREE_CLONE | AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW);
	/* Read-only: its mode is what tells it from a socket of a server's
	 * (a review chmod'ed one, and the next session took it for the user's). */
	struct mount_attr a = {.attr_set = MOUNT_ATTR_RDONLY};
	if (from < 0 || syscall(SYS_mount_setattr, from, "", AT_EMPTY_PATH, &a, sizeof(a)) < 0)
		return 3;
	return syscall(SYS_move_mount, from, "", to, "",
		       MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0
		       ? 4
		       : 0;
}

/* The stand-in at PATH (this session's, or another session's, which that
 * one pinned in its own namespace only) pinned in this session's too, if
 * it is not yet: no session can remove another's and make the name again
 * (two sessions taking turns could otherwise make it over and over). */
static void keep_stand_in(const char *path)
{
	struct stat st;
	if (lstat(path, &st) == 0 && !mounted_inside(path))
		(void)inside(pin_stand_in,
			     &(struct stand){path, st.st_dev, st.st_ino, root_of(path)});
}

/* PATH (K's name, or a link on its way), just moved aside: a stand-in
 * made in its place (cordon_is_stand_in: made again meanwhile, moved
 * aside again first), until the session ends, pinned inside, so that the
 * session cannot make it again while it runs. A socket file, not an empty
 * directory: the session could open a directory in the moment before it
 * is pinned, and fill it later through that descriptor; a socket file has
 * nothing to read or write, and git ignores it. Said into SAID. */
static void stand_in(struct kept *k, const char *path, unsigned *count, struct cordon_strv *said)
{
	if (!g.standins || !g.sweep)
		return;
	bool own = k->above || strcmp(path, k->path) == 0;
	int dir = cordon_sweep_parent(g.sweep, path), e = dir < 0 ? dir : -EEXIST;
	for (int tries = 0; tries < 4 && e == -EEXIST; tries++) {
		e = cordon_placeholder_stand_in(dir, strrchr(path, '/') + 1, path, g.standins);
		if (e == -EEXIST && cordon_is_stand_in(path))
			break; /* another session's, made first */
		if (e == -EEXIST && cordon_sweep_disarm_now(g.sweep, path, own ? NULL : k->path,
							    true, said, NULL, 0) == 1)
			(*count)++;
	}
	if (dir >= 0)
		close(dir);
	struct stat st;
	int fd = e < 0 ? -1 : g.standins->v[g.standins->n - 1].fd;
	if (fd < 0 || fstat(fd, &st) < 0)
		return;
	bool pinned =
		inside(pin_stand_in, &(struct stand){path, st.st_dev, st.st_ino, root_of(path)});
	/* Its mode changed in the moment before the pin (a chmod inside):
	 * back to 0, through our own descriptor of it. */
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (fstat(fd, &st) == 0 && (st.st_mode & 07777) != 0)
		(void)chmod(self, 0);
	char shown[PATH_MAX + 8], line[PATH_MAX * 2];
	cordon_printable(path, SIZE_MAX, shown, sizeof(shown));
	snprintf(line, sizeof(line),
		 "cordon: an empty socket file stands in for %s until this session ends "
		 "(nothing reads from it)%s",
		 shown,
		 pinned ? ", kept in place inside: the session cannot make it again meanwhile"
			: "");
	(void)cordon_strv_push(said, line);
}

/* PATH, K's name the session made, no mount could guard (K's own path),
 * or a link it laid on the way to it: moved aside now, as the session's
 * end would, and said at once (a program outside obeys it for as long as
 * it is there), and a stand-in made there; made again (no stand-in could
 * be kept), said once more. */
/* Each line of SAID written to the terminal, and SAID emptied. */
static void say_all(struct cordon_strv *said)
{
	if (said->n)
		cordon_line_while_running();
	for (size_t i = 0; i < said->n; i++) {
		char line[PATH_MAX * 3];
		int n = snprintf(line, sizeof(line), "%s%s", said->v[i], cordon_line_end());
		if (n > 0)
			(void)!write(STDERR_FILENO, line,
				     (size_t)n < sizeof(line) ? (size_t)n : sizeof(line));
	}
	cordon_strv_free(said);
}

/* PATH, made since the start, moved aside (a pattern's match: the name
 * it was moved to into TO, TO_SIZE bytes); COUNT: the times it was
 * before (K's, or its set member's). */
static void move_counted(struct kept *k, const char *path, unsigned *count, char *to,
			 size_t to_size)
{
	struct cordon_strv said = {0};
	bool own = k->pattern || k->above || strcmp(path, k->path) == 0;
	/* (A pattern's matches are names of their own: none is made again,
	 * and no stand-in is left, which would be a match lefthook outside
	 * then fails to read: round 26c.) */
	bool pattern = k->pattern && !k->above;
	int moved = g.sweep ? cordon_sweep_disarm_now(g.sweep, path, own ? NULL : k->path,
						      *count > 0 && !pattern, &said, to, to_size)
			    : 0;
	if (pattern) {
		say_all(&said);
		return;
	}
	if (moved == 1 && (*count)++ == 1) {
		char shown[PATH_MAX + 8], line[PATH_MAX * 3];
		cordon_printable(path, SIZE_MAX, shown, sizeof(shown));
		snprintf(line, sizeof(line),
			 "cordon: this session made %s again: cordon moves each one aside as it "
			 "appears, the last one to %s.cordon-disarmed-again",
			 shown, shown);
		(void)cordon_strv_push(&said, line);
	}
	/* From now on, a stand-in there (not pinned: the session removed
	 * it, each time again, a few times). */
	if (moved == 1 && *count <= MAX_STAND_INS)
		stand_in(k, path, count, &said);
	say_all(&said);
}

static void move_made(struct kept *k, const char *path, char *to, size_t to_size)
{
	move_counted(k, path, &k->moved, to, to_size);
}

/* PATH, member I of ARG's set, if it is there: made since the start
 * (each was missing), moved aside; another session's stand-in kept. */
static int member_made(const char *path, size_t i, void *arg)
{
	struct kept *k = arg;
	struct stat st;
	if (lstat(path, &st) < 0 || cordon_found_above_inert(cordon_found_above[i], st.st_mode))
		return 0;
	if (cordon_is_stand_in(path))
		keep_stand_in(path);
	else
		move_counted(k, path, &k->moved_each[i], NULL, 0);
	return 0;
}

/* K's set members there now (NAME NULL: its directory read once), or
 * NAME (an event's) if it is one. */
static void set_made(struct kept *k, const char *name)
{
	char dir[PATH_MAX], path[PATH_MAX];
	size_t dn = (size_t)(k->name - 1 - k->path);
	if (!prefix(dir, sizeof(dir), k->path, dn))
		return;
	if (!name) {
		(void)cordon_found_above_each(dir, k->above, member_made, k);
		return;
	}
	ssize_t i = cordon_found_above_index(name);
	if (i >= 0 && cordon_above_has(k->above, (size_t)i) &&
	    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) < sizeof(path))
		(void)member_made(path, (size_t)i, k);
}

#define MAX_GONE 4096 /* names remembered per pattern; past it, moved again */

/* Whether K moved the file ST, named NAME, aside already, to that name:
 * where the name it was moved to matches K's pattern too (lefthook-*
 * matches lefthook-x.cordon-disarmed), it would be moved again, and
 * again. Under another name it is a match again (the session renamed it
 * back, or to lefthook-y.yml: lefthook outside merged it). */
static bool moved_before(const struct kept *k, const struct stat *st, const char *name)
{
	for (size_t i = 0; i < k->n_gone; i++)
		if (k->gone[i].dev == st->st_dev && k->gone[i].ino == st->st_ino &&
		    strcmp(k->gone[i].to, name) == 0)
			return true;
	return false;
}

/* Whether a directory on the way from K's deep pattern's fixed part
 * down to its match AT was made or moved in since the session started
 * (mv stash/b evil, with an older hooks.yml in it: its own change time
 * stays old). */
static bool deep_moved_in(const struct kept *k, const char *at)
{
	char dir[PATH_MAX];
	struct stat st;
	size_t fixed = k->lv[k->levels - 1].end, end = strlen(at);
	while ((end = up(at, end)) > fixed)
		if (snprintf(dir, sizeof(dir), "%.*s", (int)end, at) < (int)sizeof(dir) &&
		    lstat(dir, &st) == 0 && cordon_sweep_laid(g.sweep, dir, &st))
			return true;
	return false;
}

/* The matches of K's pattern made since the session started, moved
 * aside: NAME's (an event's), or, NULL, each there now (made before the
 * watch began). */
#define MAX_COVERS 4096 /* matches of one hidden pattern covered in a session */

/* AT, a match of K's hidden pattern (K->hide): a file or directory no
 * mount covers where the session sees it, covered (58a F-B: one that
 * existed as the session started, renamed outside to a store's name,
 * kept the rule it had, and a store made where the session may write
 * had none); a link or FIFO laid there since the start moved aside (58a
 * F-D: a link to the project, through which an app outside writes its
 * logins where the session reads them). Past MAX_COVERS, the session
 * ends. */
static void cover_match(struct kept *k, const char *at)
{
	struct stat st;
	if (lstat(at, &st) < 0)
		return;
	if (S_ISLNK(st.st_mode) || S_ISFIFO(st.st_mode)) {
		char why[PATH_MAX + 160];
		struct cordon_strv said = {0};
		snprintf(why, sizeof(why),
			 "a %s laid while this session ran where the session could make it, "
			 "at a name the hidden pattern %s covers: a program outside saving it "
			 "would write through it",
			 S_ISLNK(st.st_mode) ? "symbolic link" : "FIFO", k->path);
		if (g.sweep && cordon_sweep_laid(g.sweep, at, &st))
			(void)cordon_sweep_disarm_why(g.sweep, at, "found", why, &said);
		say_all(&said);
		return;
	}
	if (!(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) ||
	    !(cordon_policy_access(g.p, at, NULL) & CORDON_ACCESS_READ) || mounted_inside(at))
		return;
	char path[PATH_MAX];
	if (k->moved++ >= MAX_COVERS) {
		if (k->moved == MAX_COVERS + 1)
			end_session(path,
				    snprintf(path, sizeof(path),
					     "cordon: more than %d matches of %s appeared while "
					     "this session ran; session ended\n",
					     MAX_COVERS, k->path),
				    sizeof(path));
		return;
	}
	struct kept match = *k;
	snprintf(path, sizeof(path), "%s", at);
	match.path = path;
	reguard(&match);
}

static void match_made(struct kept *k, const char *name)
{
	glob_t matches = {0};
	char path[PATH_MAX];
	const char *base = k->name;
	size_t dir = (size_t)(base - 1 - k->path);
	if (name) {
		if (fnmatch(base, name, 0) != 0 ||
		    (size_t)snprintf(path, sizeof(path), "%.*s/%s", (int)dir, k->path, name) >=
			    sizeof(path))
			return;
	} else if (glob(k->path, GLOB_NOSORT | GLOB_PERIOD, NULL, &matches) != 0) {
		return;
	}
	for (size_t i = 0; i < (name ? 1 : matches.gl_pathc); i++) {
		const char *at = name ? path : matches.gl_pathv[i];
		struct stat st;
		const char *base_at = strrchr(at, '/');
		if (!base_at || cordon_dot_or_dotdot(base_at + 1) || strstr(at, "/./") ||
		    strstr(at, "/../"))
			continue; /* (GLOB_PERIOD: * matches . and .. too) */
		if (k->hide) {
			cover_match(k, at);
			continue;
		}
		if (!g.sweep || lstat(at, &st) < 0 || cordon_is_stand_in(at) ||
		    moved_before(k, &st, base_at + 1) ||
		    !(cordon_sweep_laid(g.sweep, at, &st) ||
		      (k->deep && !cordon_strv_contains(&g.sweep->guarded, at) &&
		       deep_moved_in(k, at))))
			continue;
		/* Reached through a link on a glob's part (lnk -> stash/c):
		 * the file it leads to (lnk.cordon-disarmed would match * too,
		 * and lefthook follows it). */
		char real[PATH_MAX];
		const char *what =
			k->deep && realpath(at, real) && strcmp(real, at) != 0 ? real : at;
		if (lstat(what, &st) < 0)
			continue;
		char to[NAME_MAX + 1];
		move_made(k, what, to, sizeof(to));
		/* (Each name it was moved to: a hard link of it is moved
		 * aside under its own, and both are kept: round 28 F2 moved
		 * two such names in turn, fifteen times.) */
		struct moved *nv =
			to[0] && !moved_before(k, &st, to) && k->n_gone < MAX_GONE
				? cordon_grow(k->gone, &k->cap_gone, k->n_gone + 1, sizeof(*nv), 8)
				: NULL;
		if (nv) {
			k->gone = nv;
			k->gone[k->n_gone] = (struct moved){st.st_dev, st.st_ino, ""};
			snprintf(k->gone[k->n_gone++].to, sizeof(nv->to), "%s", to);
		}
	}
	if (!name)
		globfree(&matches);
}

/* K's deep pattern matches more directories than are watched: said. */
static void say_too_many(const struct kept *k)
{
	char shown[PATH_MAX + 8], line[PATH_MAX * 2];
	struct cordon_strv said = {0};
	cordon_printable(k->path, SIZE_MAX, shown, sizeof(shown));
	snprintf(line, sizeof(line),
		 k->hide ? "cordon: %s matches more than %d directories: a match renamed into the "
			   "others while the session runs is not hidden"
			 : "cordon: %s matches more than %d directories: a new match in the others "
			   "is moved aside as the session ends",
		 shown, MAX_SUB);
	(void)cordon_strv_push(&said, line);
	say_all(&said);
}

/* K's deep pattern: the directories each of its globs matches watched
 * (through links: lefthook follows them), and the matches made since
 * the session started moved aside. Said
 * once where there are more than MAX_SUB directories to watch. */
static void deep_look(struct kept *k)
{
	size_t fixed = k->lv[k->levels - 1].end, parent = (size_t)(k->name - 1 - k->path);
	char pre[PATH_MAX];
	for (size_t at = fixed + 1; at <= parent; at++) {
		if (at < parent && k->path[at] != '/')
			continue;
		glob_t m = {0};
		if (snprintf(pre, sizeof(pre), "%.*s", (int)at, k->path) >= (int)sizeof(pre) ||
		    glob(pre, GLOB_NOSORT | GLOB_PERIOD, NULL, &m) != 0)
			continue;
		for (size_t i = 0; i < m.gl_pathc; i++) {
			const char *d = m.gl_pathv[i], *base = strrchr(d, '/');
			struct stat st;
			if (!base || cordon_dot_or_dotdot(base + 1) || stat(d, &st) < 0 ||
			    !S_ISDIR(st.st_mode))
				continue;
			if (k->n_sub >= MAX_SUB) {
				if (k->n_sub++ == MAX_SUB)
					say_too_many(k);
				break;
			}
			int wd = inotify_add_watch(g.inotify, d, WATCHED);
			if (wd < 0 && (errno == ENOSPC || errno == ENOMEM)) {
				cannot_watch(d, errno); /* (as a guard's way: round 27d) */
				break;
			}
			if (wd < 0)
				continue;
			g.marked = true;
			bool known = false;
			for (size_t j = 0; j < k->n_sub && !known; j++)
				known = k->sub[j] == wd;
			int *nv = known ? k->sub
					: cordon_grow(k->sub, &k->cap_sub, k->n_sub + 1,
						      sizeof(*nv), 16);
			if (!nv)
				continue;
			k->sub = nv;
			if (!known)
				k->sub[k->n_sub++] = wd;
		}
		globfree(&m);
	}
	match_made(k, NULL);
}

/* K's way followed down from its top: each directory on it that exists
 * watched (the top as it was, a link of the user's there followed; below
 * it, none is followed), a lure on it moved aside, and K's guard put back
 * on what is at its path now. EVENT: something was made or moved in at
 * K's path or on its way; else (as the watch begins) only what is not as
 * the listing saw it, or a guard an outside save lifted. */
static void settle(struct kept *k, bool event)
{
	char dir[PATH_MAX];
	struct stat st;
	size_t i = 0;
	for (; i < k->levels; i++) {
		size_t end = k->lv[i].end;
		if (!prefix(dir, sizeof(dir), k->path, end))
			break;
		if (i > 0 && lstat(dir, &st) < 0)
			break;
		bool follow = i == 0;
		if (i > 0 && !S_ISDIR(st.st_mode)) {
			if (k->way && cordon_hidden_way_lure(k->way, false, &st))
				disarm(k, end);
			/* A link the session laid is moved aside; the user's
			 * own (~/.gradle -> PROJ/.gradle, as it was) is
			 * followed, and where it leads watched. */
			else if (k->made && S_ISLNK(st.st_mode) && g.sweep &&
				 cordon_sweep_laid(g.sweep, dir, &st))
				move_made(k, dir, NULL, 0);
			else if (k->made && cordon_is_stand_in(dir))
				keep_stand_in(dir);
			else if (k->made && S_ISLNK(st.st_mode))
				follow = true;
			if (!follow)
				break;
		}
		k->lv[i].wd =
			inotify_add_watch(g.inotify, dir, WATCHED | (follow ? 0 : IN_DONT_FOLLOW));
		if (k->lv[i].wd < 0 && (errno == ENOSPC || errno == ENOMEM)) {
			cannot_watch(dir, errno);
			/* What is there already goes now, not as the
			 * session's end is done (a review read its plant
			 * outside for 170 ms). */
			if (k->above)
				set_made(k, NULL);
			else if (k->made && lstat(k->path, &st) == 0 &&
				 !cordon_is_stand_in(k->path))
				move_made(k, k->path, NULL, 0);
			break;
		}
		if (k->lv[i].wd < 0)
			break;
		g.marked = true;
	}
	if (i < k->levels) {
		for (; i < k->levels; i++)
			k->lv[i].wd = -1;
		return; /* its directory is not there (yet) */
	}
	if (k->deep) {
		deep_look(k);
		return;
	}
	if (k->above) {
		set_made(k, NULL);
		return;
	}
	if (k->pattern) {
		match_made(k, NULL);
		return;
	}
	if (lstat(k->path, &st) < 0)
		return;
	if (k->made) {
		if (cordon_is_stand_in(k->path))
			keep_stand_in(k->path);
		else
			move_made(k, k->path, NULL, 0);
		return;
	}
	if (k->way && cordon_hidden_way_lure(k->way, true, &st)) {
		disarm(k, strlen(k->path));
		return;
	}
	if (event || st.st_dev != k->dev || st.st_ino != k->ino ||
	    (k->dev && !mounted_inside(k->path)))
		reguard(k);
}

/* An event for NAME in the directory watched as WD: each kept path it
 * is, or is on the way to, settled. */
static void seen(int wd, const char *name, bool dir)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < g.n; i++) {
		struct kept *k = &g.v[i];
		/* A deep pattern: anything made in the directory above its
		 * globs, or in one they match, looked at again (a hidden
		 * one's: a directory, or a name its last part matches; an
		 * app's journal made and removed at each write is neither). */
		bool sub = k->deep && k->lv[k->levels - 1].wd == wd;
		for (size_t j = 0; k->deep && !sub && j < k->n_sub; j++)
			sub = k->sub[j] == wd;
		if (sub) {
			if (!k->hide || dir || fnmatch(k->name, name, 0) == 0)
				deep_look(k);
			continue;
		}
		for (size_t l = 0; l < k->levels; l++) {
			if (k->lv[l].wd != wd)
				continue;
			const char *next = k->path + k->lv[l].end + 1;
			size_t len = l + 1 < k->levels ? k->lv[l + 1].end - k->lv[l].end - 1
						       : strlen(next);
			/* A set's member, or a match of a pattern, in its own
			 * directory. */
			if (k->above && l + 1 == k->levels) {
				set_made(k, name);
				break;
			}
			if (k->pattern && l + 1 == k->levels) {
				match_made(k, name);
				break;
			}
			if (len == n && strncmp(next, name, n) == 0) {
				settle(k, true);
				break;
			}
		}
	}
}

/* Milliseconds since T0. */
static long since_ms(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* The paths kept since the first BEFORE ones settled (watched, guarded),
 * and, where SAY, "cordon: HEAD PATH: TAIL" added to SAID, which is said. */
static void kept_from_now(size_t before, bool say, const char *head, const char *path,
			  const char *tail, struct cordon_strv *said)
{
	for (size_t i = before; i < g.n; i++)
		settle(&g.v[i], false);
	if (say) {
		char shown[PATH_MAX + 8], line[PATH_MAX * 2];
		cordon_printable(path, SIZE_MAX, shown, sizeof(shown));
		snprintf(line, sizeof(line), "cordon: %s %s: %s", head, shown, tail);
		(void)cordon_strv_push(said, line);
	}
	say_all(said);
}

/* direnv now allows ENVRC (a `direnv allow` outside while the session
 * runs): kept from now on as one allowed as the session started is, it
 * and what it loads read-only, a missing load moved aside as it appears.
 * A load the session (or a program outside) changed since the start
 * would run at direnv's next prompt: the .envrc is moved aside at once,
 * as the session's end would. */
static void keep_allowed(const char *envrc)
{
	struct cordon_policy q = *g.p; /* (shallow: read only) */
	q.envrc_allowed = g.allowed;
	struct cordon_guard_plan plan;
	size_t before = g.n;
	int e = cordon_guard_plan(&q, false, &plan);
	for (size_t i = 0; e >= 0 && i < plan.n; i++)
		if (!plan.v[i].dir && plan.v[i].op == CORDON_MOUNT_RO)
			e = add(plan.v[i].path, false, false, NULL);
	if (e >= 0)
		cordon_guard_plan_free(&plan);
	struct cordon_strv names = {0}, stand_ins = {0};
	if (e >= 0 && cordon_guard_unguarded(&q, &names, &stand_ins, NULL, NULL, NULL) >= 0)
		for (size_t i = 0; i < names.n; i++)
			if (!cordon_sweep_git_entry(g.sweep, names.v[i]))
				(void)add(names.v[i], false, true, NULL);
	cordon_strv_free(&names);
	cordon_strv_free(&stand_ins);
	struct cordon_strv said = {0};
	bool changed = false;
	for (size_t i = before; g.sweep && i < g.n && !changed; i++) {
		struct stat st;
		changed = !g.v[i].made && strcmp(g.v[i].path, envrc) != 0 &&
			  lstat(g.v[i].path, &st) == 0 &&
			  cordon_sweep_laid(g.sweep, g.v[i].path, &st);
	}
	if (changed)
		(void)cordon_sweep_disarm_why(
			g.sweep, envrc, "direnv now allows",
			"but a file it loads was changed while this session ran (by the session, "
			"or a program outside), and direnv outside would run it",
			&said);
	kept_from_now(before, !changed, "direnv now allows", envrc,
		      "it and what it loads are read-only in this session from now on", &said);
}

/* The entry NAME made in direnv's allow list directory L: kept, if it
 * names an .envrc a write rule reaches that was not allowed before. */
static void allow_entry_made(const struct allow_list *l, const char *name)
{
	char envrc[PATH_MAX];
	if (cordon_policy_direnv_entry(g.p, l->dir, name, envrc, sizeof(envrc)) != 1 ||
	    cordon_strv_contains(&g.allowed, envrc) || cordon_strv_push(&g.allowed, envrc) < 0)
		return;
	keep_allowed(envrc);
}

/* oh-my-zsh's dotenv plugin now exports ENV (the user answered "always"
 * in its directory while the session runs): kept from now on as one
 * allowed as the session started is, read-only, or moved aside as it
 * appears. One the session (or a program outside) wrote while it ran is
 * moved aside at once: the plugin exports it at the next cd there. */
static void keep_dotenv(const char *env)
{
	struct cordon_strv said = {0};
	struct stat st;
	size_t before = g.n;
	bool there = lstat(env, &st) == 0,
	     laid = there && g.sweep && cordon_sweep_laid(g.sweep, env, &st);
	if (laid)
		there = cordon_sweep_disarm_why(g.sweep, env,
						"oh-my-zsh's dotenv plugin now exports",
						"but it was written while this session ran (by the "
						"session, or a program outside)",
						&said) != 1;
	(void)add(env, false, !there, NULL);
	kept_from_now(before, !laid, "oh-my-zsh's dotenv plugin now exports", env,
		      "it is kept from changes in this session from now on", &said);
}

/* oh-my-zsh's dotenv list L (a directory a line) read again: each .env
 * of a directory in it a write rule reaches, not kept before, kept. */
static void omz_list_read(const struct allow_list *l)
{
	char path[PATH_MAX];
	struct cordon_strv envs = {0};
	snprintf(path, sizeof(path), "%s/%s", l->dir, l->file);
	(void)cordon_policy_omz_envs(g.p, path, &envs);
	for (size_t i = 0; i < envs.n; i++) {
		if (cordon_strv_contains(&g.omz_allowed, envs.v[i]) ||
		    cordon_strv_push(&g.omz_allowed, envs.v[i]) < 0)
			continue;
		keep_dotenv(envs.v[i]);
	}
	cordon_strv_free(&envs);
}

/* The allow list L watched at its directory, or the nearest above it
 * (ALLOW_UP levels at most) while it is missing; once it is there, what
 * it holds looked at (made before the watch reached it). */
static void watch_list(struct allow_list *l)
{
	char at[PATH_MAX];
	unsigned level = 0;
	/* (Again while the directory below the one watched appeared before
	 * the watch did: direnv allow makes ~/.local/share/direnv/allow at
	 * once, and one made meanwhile would never be seen, round 27's flaky
	 * test.) */
	for (int again = 0; again < ALLOW_UP * 4; again++) {
		size_t len = strlen(l->dir), below = 0;
		for (level = 0; level <= ALLOW_UP && len > 0;
		     level++, below = len, len = up(l->dir, len)) {
			snprintf(at, sizeof(at), "%.*s", (int)len, l->dir);
			int wd = inotify_add_watch(g.inotify, at, ALLOW_WATCHED);
			if (wd >= 0) {
				g.marked = true;
				l->wd = wd;
				l->up = level;
				break;
			}
			/* (The user's watches used up: as for a guard's way, the
			 * session ends rather than run on unwatched, round 27c.) */
			if (errno == ENOSPC || errno == ENOMEM) {
				cannot_watch(at, errno);
				return;
			}
		}
		if (level == 0 || level > ALLOW_UP || len == 0)
			break;
		struct stat st;
		snprintf(at, sizeof(at), "%.*s", (int)below, l->dir);
		if (stat(at, &st) < 0 || !S_ISDIR(st.st_mode))
			break;
	}
	if (level > 0)
		return;
	if (l->file) {
		omz_list_read(l);
		return;
	}
	DIR *d = opendir(l->dir);
	for (struct dirent *de; d && (de = readdir(d));)
		if (de->d_name[0] != '.')
			allow_entry_made(l, de->d_name);
	if (d)
		closedir(d);
}

/* An event for NAME in the directory watched as WD, if it is an allow
 * list's, or one above it while it is missing. */
static void allow_seen(int wd, const char *name)
{
	for (size_t i = 0; i < g.n_lists; i++) {
		struct allow_list *l = &g.lists[i];
		if (l->wd != wd)
			continue;
		if (l->up > 0)
			watch_list(l);
		else if (!l->file)
			allow_entry_made(l, name);
		else if (strcmp(name, l->file) == 0)
			omz_list_read(l);
	}
}

/* The policy's allow lists, watched; what they allowed as it was resolved,
 * known (the policy kept it). What they allow now is looked at as each is
 * watched: an entry made between the two (a watch the scheduler started
 * late on a busy machine) is kept then. Not read again here to learn
 * what the policy kept: that took such an entry for one kept, and its
 * .env stayed writable and exported. False where there is none to watch. */
static bool watch_lists(void)
{
	if (g.mnt < 0 || cordon_strv_copy(&g.allowed, &g.p->envrc_allowed) < 0 ||
	    cordon_strv_copy(&g.omz_allowed, &g.p->omz_dotenv_kept) < 0)
		return false;
	for (size_t i = 0; i < g.p->direnv_allow_dirs.n && g.n_lists < MAX_LISTS; i++) {
		char *dir = strdup(g.p->direnv_allow_dirs.v[i]);
		if (dir)
			g.lists[g.n_lists++] = (struct allow_list){dir, NULL, -1, 0};
	}
	for (size_t i = 0;
	     g.p->omz_dotenv_name && i < g.p->omz_dotenv_lists.n && g.n_lists < MAX_LISTS; i++) {
		const char *path = g.p->omz_dotenv_lists.v[i], *slash = strrchr(path, '/');
		char *dir = slash && slash > path ? strndup(path, (size_t)(slash - path)) : NULL;
		if (!dir)
			continue;
		g.lists[g.n_lists++] = (struct allow_list){dir, slash + 1, -1, 0};
	}
	for (size_t i = 0; i < g.n_lists; i++)
		watch_list(&g.lists[i]);
	return g.n_lists > 0;
}

static void *watch(void *arg)
{
	(void)arg;
	if (g.late_ms)
		(void)usleep(g.late_ms * 1000);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (g.inotify < 0 || list_made() < 0)
		return NULL;
	/* The names made are watched at once: a command of a moment makes
	 * its plant in its first milliseconds, and is over before the
	 * guards' listing. */
	for (size_t i = 0; i < g.n; i++)
		settle(&g.v[i], false);
	size_t made = g.n;
	bool allow = watch_lists();
	/* The guards: listed LIST_AFTER_MS after the start, watched
	 * WATCH_AFTER_MS after (a command of a moment ends before; what was
	 * saved outside meanwhile is still judged and said as it ends). */
	enum { LISTING, SETTLING, WATCHING } phase = g.mnt >= 0 ? LISTING : WATCHING;
	_Alignas(struct inotify_event) char buf[8192];
	struct pollfd p[2] = {{.fd = g.inotify, .events = POLLIN},
			      {.fd = g.stop, .events = POLLIN}};
	for (;;) {
		if (phase == WATCHING && g.n == 0 && !allow)
			break; /* nothing to keep */
		long wait = phase == WATCHING
				    ? -1
				    : (phase == LISTING ? LIST_AFTER_MS : WATCH_AFTER_MS) -
					      since_ms(&t0);
		int r = poll(p, 2, wait < 0 && phase != WATCHING ? 0 : (int)wait);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		if (r == 0 && phase == LISTING) {
			phase = list_guards(g.p) < 0 ? WATCHING : SETTLING;
			continue;
		}
		if (r == 0) {
			/* Made, or replaced, before the watch began: a guard a
			 * save outside lifted is no mount any more where the
			 * session sees it (even after a save before the
			 * listing, whose inode the listing took for the guarded
			 * one). */
			for (size_t i = made; i < g.n; i++)
				settle(&g.v[i], false);
			phase = WATCHING;
			/* (The plan just made ran after the launcher let go of
			 * its code pages as the session was listed: 480 KiB of
			 * the binary resident again, for a watch that waits.) */
			cordon_drop_code_pages();
			continue;
		}
		ssize_t n = read(g.inotify, buf, sizeof(buf));
		if (n <= 0)
			continue;
		for (char *at = buf; at < buf + n;) {
			const struct inotify_event *e = (const void *)at;
			at += sizeof(*e) + e->len;
			if (e->mask & IN_Q_OVERFLOW) { /* events lost: look at all */
				for (size_t i = 0; i < g.n; i++)
					settle(&g.v[i], false);
				for (size_t i = 0; allow && i < g.n_lists; i++)
					watch_list(&g.lists[i]);
			} else if (e->len) {
				allow_seen(e->wd, e->name);
				seen(e->wd, e->name, e->mask & IN_ISDIR);
			}
		}
	}
	return NULL;
}

/* The namespace NAME of PID, opened, when it is not this process's own;
 * -1 otherwise (or when it cannot be opened). */
static int other_ns(pid_t pid, const char *name)
{
	char path[64];
	struct stat mine, theirs;
	snprintf(path, sizeof(path), "/proc/%d/ns/%s", (int)pid, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/self/ns/%s", name);
	if (fd < 0 || fstat(fd, &theirs) < 0 || stat(path, &mine) < 0 ||
	    (mine.st_ino == theirs.st_ino && mine.st_dev == theirs.st_dev)) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

static void forget(void)
{
	for (size_t i = 0; i < g.n; i++) {
		free(g.v[i].path);
		free(g.v[i].lv);
		free(g.v[i].sub);
		free(g.v[i].gone);
		free(g.v[i].moved_each);
	}
	free(g.v);
	g.v = NULL;
	g.n = g.cap = 0;
	cordon_strv_free(&g.allowed);
	cordon_strv_free(&g.omz_allowed);
	for (size_t i = 0; i < g.n_lists; i++)
		free(g.lists[i].dir);
	g.n_lists = 0;
	/* (The inotify instance stays open: closing it waits for a grace
	 * period; the launcher's exit pays that once the session is over.) */
	int *fds[] = {&g.stop, &g.mnt, &g.user};
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
}

/* The ways the session could lay a lure on, the files P's guards keep
 * read-only, what they hide (a hidden directory moved aside outside takes
 * its cover along, and one made at its name has none: a dotfiles tool
 * remaking the directory ~/.ssh links to), and the hidden names a rule would let the session
 * read that do not exist yet (their directories too, perhaps). */
static int list_guards(const struct cordon_policy *p)
{
	int e = 0;
	for (size_t i = 0; g.ways && e >= 0 && i < g.ways->n; i++)
		e = add(g.ways->v[i].path, true, false, &g.ways->v[i]);
	struct cordon_guard_plan plan;
	if (e < 0 || (e = cordon_guard_plan(p, false, &plan)) < 0)
		return e;
	for (size_t i = 0; e >= 0 && i < plan.n; i++)
		if ((!plan.v[i].dir && plan.v[i].op == CORDON_MOUNT_RO) ||
		    plan.v[i].op == CORDON_MOUNT_HIDE)
			e = add(plan.v[i].path, plan.v[i].op == CORDON_MOUNT_HIDE, false, NULL);
	cordon_guard_plan_free(&plan);
	for (size_t i = 0; e >= 0 && i < p->n_guards; i++) {
		const struct cordon_guard *gd = &p->guards[i];
		struct stat st;
		if (gd->kind == CORDON_GUARD_HIDE && lstat(gd->path, &st) < 0 && errno == ENOENT &&
		    (cordon_policy_access(p, gd->path, NULL) & CORDON_ACCESS_READ))
			e = add(gd->path, true, false, NULL);
	}
	/* hidden_paths' patterns: a match renamed in, or made where the
	 * session may write, has a rule the sieve could not take away
	 * (cover_match). (Not one whose directories were escaped, a home
	 * at /home/a[1]: the way is followed by its text; the sieve keeps
	 * those from new names.) */
	for (size_t i = 0; e >= 0 && i < p->hidden_globs.n; i++)
		if (!strchr(p->hidden_globs.v[i], '\\'))
			e = add(p->hidden_globs.v[i], true, false, NULL);
	return e;
}

/* The names looked for above (the sweep's above: missing as the session
 * started), one entry a directory whose members they are (an entry a name
 * would be 228 by default, each with its own allocations and way). */
static int add_sets(void)
{
	char path[PATH_MAX];
	for (size_t i = 0; g.sweep && i < g.sweep->n_above; i++) {
		const struct cordon_above *a = &g.sweep->above[i];
		size_t first = 0;
		while (cordon_found_above[first] && !cordon_above_has(&a->missing, first))
			first++;
		if (!cordon_found_above[first] ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", a->dir,
				     cordon_found_above[first]) >= sizeof(path))
			continue;
		size_t before = g.n;
		int e = add(path, false, true, NULL);
		if (e < 0)
			return e;
		if (g.n == before)
			continue;
		struct kept *k = &g.v[g.n - 1];
		if (!(k->moved_each = calloc(CORDON_FOUND_ABOVE_MAX, sizeof(*k->moved_each))))
			return -ENOMEM;
		k->above = &a->missing;
	}
	return 0;
}

/* The files of mise's config environments no setting named (mise -E
 * NAME, or MISE_ENV=NAME, outside while the session runs) at the top of
 * each of the sweep's own roots, where mise.toml is protected: a pattern
 * each, whose matches made since the start are moved aside as they
 * appear (before, only as the session ended: judge_mise_envs_at in
 * sweep.c, which still judges those below the top). Listed after the
 * names: a named one (mise.local.toml, a MISE_ENV's missing file) is
 * moved and stood in for by its own entry first. */
static int add_mise_envs(void)
{
	static const char *const forms[] = {"mise.*.toml", ".mise.*.toml", ".config/mise.*.toml",
					    "mise/config.*.toml"};
	if (!g.sweep || !cordon_strv_contains(&g.sweep->local, "mise.toml"))
		return 0;
	int e = 0;
	for (size_t i = 0; e >= 0 && i < g.sweep->n_own && i < g.sweep->roots.n; i++)
		for (size_t k = 0; e >= 0 && k < sizeof(forms) / sizeof(*forms); k++) {
			const char *top = g.sweep->roots.v[i];
			char path[PATH_MAX];
			if ((size_t)snprintf(path, sizeof(path), "%s/%s",
					     strcmp(top, "/") ? top : "", forms[k]) < sizeof(path))
				e = add(path, false, true, NULL);
		}
	return e;
}

/* The names of the sweep's no mount could guard (listed first: one
 * made before the guards' listing is in their plan as if it were the
 * user's, and stays one made). A repository made inside is the sweep's
 * to judge as it ends: git init there must work. */
static int list_made(void)
{
	int e = add_sets();
	for (size_t i = 0; g.sweep && e >= 0 && i < g.sweep->names.n; i++)
		if (!cordon_sweep_git_entry(g.sweep, g.sweep->names.v[i]))
			e = add(g.sweep->names.v[i], false, true, NULL);
	return e < 0 ? e : add_mise_envs();
}

int cordon_reguard_prepare(struct cordon_error *err)
{
	/* Made before the command runs, which could otherwise use up the
	 * user's instances (128) first and leave the watch none. Closed at
	 * once when no watch was ever added. */
	if (g.inotify < 0 && (g.inotify = inotify_init1(IN_CLOEXEC | IN_NONBLOCK)) < 0)
		return cordon_err(
			err, errno,
			"no inotify instance for the watch that keeps the session's guards "
			"(inotify_init1: %s; fs.inotify.max_user_instances)",
			strerror(errno));
	return 0;
}

int cordon_reguard_start(const struct cordon_policy *p, pid_t command,
			 struct cordon_hidden_ways *ways, const struct cordon_sweep *sweep,
			 struct cordon_placeholders *standins)
{
#ifdef CORDON_TEST_HOOKS
	/* Test builds: the sweep's judging of what an outside save left
	 * unguarded, without the race against this watch. */
	const char *off = getenv("CORDON_TEST_NO_REGUARD");
	if (off && strcmp(off, "1") == 0)
		return 0;
	/* And CORDON_TEST_WATCH_LATE=MS: the watch begins MS late, as a
	 * busy machine's scheduler may run its thread (an allow list
	 * changed meanwhile). */
	const char *late = getenv("CORDON_TEST_WATCH_LATE");
	g.late_ms = late ? (unsigned)strtoul(late, NULL, 10) % 10000 : 0;
#endif
	if (g.running || !p->sandbox)
		return 0;
	/* No namespace of its own: no guard was mounted, and only the names
	 * made are watched. */
	g.mnt = other_ns(command, "mnt");
	if (g.mnt < 0 && !(sweep && (sweep->names.n || sweep->n_above)))
		return 0;
	g.user = g.mnt < 0 ? -1 : other_ns(command, "user");
	g.command = command;
	g.stop = eventfd(0, EFD_CLOEXEC);
	g.p = p;
	g.ways = ways;
	g.sweep = sweep;
	g.standins = standins;
	/* The watch makes the guards' plan (list_guards), which reads
	 * dotfiles and .envrc files sourcing one another 16 deep: a launcher
	 * built with musl gives a thread 128 KiB, which a review's chain of
	 * source_up overflowed (round 26c: the launcher died, SIGSEGV). Only
	 * what is touched is used. */
	pthread_attr_t attr;
	int made = g.stop < 0 ? -1 : pthread_attr_init(&attr);
	if (made == 0) {
		(void)pthread_attr_setstacksize(&attr, (size_t)4 << 20);
		made = pthread_create(&g.thread, &attr, watch, NULL);
		(void)pthread_attr_destroy(&attr);
	}
	if (made != 0) {
		int e = made > 0 ? -made : (errno ? -errno : -EAGAIN);
		forget();
		return e;
	}
	g.running = true;
	return 0;
}

void cordon_reguard_stop(void)
{
	if (!g.running) {
		if (g.inotify >= 0)
			close(g.inotify); /* prepared, never watched: no mark */
		g.inotify = -1;
		return;
	}
	uint64_t one = 1;
	(void)!write(g.stop, &one, sizeof(one));
	pthread_join(g.thread, NULL);
	g.running = false;
	g.p = NULL;
	g.ways = NULL;
	g.sweep = NULL;
	g.standins = NULL;
	forget();
	/* The inotify instance's last close waits for an SRCU grace period
	 * (10-15 ms here), and the launcher's exit would: a child that holds
	 * a copy until this process has let go of its own pays it. */
	if (g.inotify >= 0) {
		/* (No mark: no grace period to wait for.) */
		int hand = g.marked ? cordon_close_later() : -1;
		close(g.inotify);
		if (hand >= 0)
			close(hand);
	}
	g.inotify = -1;
	g.marked = false;
}
