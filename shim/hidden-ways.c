/* The ways to hidden names the session could make (see cordon/guard.h):
 * found as the session is about to start, followed by the watch while it
 * runs (shim/linux/reguard.c) and by the sweep as it ends (shim/sweep.c).
 *
 * A review (round 2, "A") read `~/.cache/huggingface/token` that an outside
 * `huggingface-cli login` wrote while a session with a writable `~/.cache`
 * ran: the session made `~/.cache/huggingface` itself (the watch skipped a
 * name whose directory was missing), laid a symbolic link at the name (the
 * login wrote through it into the session's file), or made the file and
 * kept it open. Nothing here moves what was there as the session started,
 * nor a plain file or directory (the user's login may have made it): only
 * a lure the session laid, and only after looking at it again. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "sweep-fs.h"
#include "util.h"

#ifdef O_PATH
#define HOLD_FLAGS (O_PATH | O_DIRECTORY | O_CLOEXEC)
#else
#define HOLD_FLAGS (O_RDONLY | O_DIRECTORY | O_CLOEXEC)
#endif

/* What is needed to tell where the session makes names, the lengths of
 * the paths kept (the default hidden list is ~80 paths: this runs before
 * every launch). */
struct where {
	struct span {
		const char *s;
		size_t n;
	} write[64], read_only[64], closed;
	size_t n_write, n_read_only;
	bool all_write; /* (more write rules than kept: each is asked) */
	const struct cordon_policy *p;
};

/* Whether PATH's first LEN bytes name D or a path beneath it. */
static bool under(const char *path, size_t len, const struct span *d)
{
	if (d->n == 1 && d->s[0] == '/')
		return true;
	return len >= d->n && memcmp(path, d->s, d->n) == 0 && (len == d->n || path[d->n] == '/');
}

static void where_init(struct where *w, const struct cordon_policy *p, const char *closed,
		       const struct cordon_strv *read_only)
{
	memset(w, 0, sizeof(*w));
	w->p = p;
	for (size_t i = 0; i < p->n_rules; i++)
		if (p->rules[i].access & CORDON_ACCESS_WRITE) {
			if (w->n_write == ARRAY_SIZE(w->write))
				w->all_write = true;
			else
				w->write[w->n_write++] =
					(struct span){p->rules[i].path, strlen(p->rules[i].path)};
		}
	for (size_t i = 0; read_only && i < read_only->n && i < ARRAY_SIZE(w->read_only); i++)
		w->read_only[w->n_read_only++] =
			(struct span){read_only->v[i], strlen(read_only->v[i])};
	if (closed)
		w->closed = (struct span){closed, strlen(closed)};
}

/* Whether a write rule reaches PATH's first LEN bytes. */
static bool written(const struct where *w, const char *path, size_t len)
{
	if (w->all_write) {
		char buf[PATH_MAX];
		snprintf(buf, sizeof(buf), "%.*s", (int)len, len ? path : "/");
		return cordon_policy_access(w->p, buf, NULL) & CORDON_ACCESS_WRITE;
	}
	for (size_t i = 0; i < w->n_write; i++)
		if (under(path, len, &w->write[i]))
			return true;
	return false;
}

/* Whether the session can make a name in the directory PATH's first LEN
 * bytes name: a write rule reaches it, and neither the closed directory's
 * sieve (it, and the directories on the way to it, keep no right to make a
 * name) nor a read-only guard keeps it. */
static bool makes_names(const struct where *w, const char *path, size_t len)
{
	if (!written(w, path, len) ||
	    (w->closed.s && under(w->closed.s, w->closed.n, &(struct span){path, len ? len : 1})))
		return false;
	for (size_t i = 0; i < w->n_read_only; i++)
		if (under(path, len, &w->read_only[i]))
			return false;
	return true;
}

/* The first LEN bytes of PATH into BUF ("/" for none). */
static const char *prefix(const char *path, size_t len, char *buf, size_t size)
{
	snprintf(buf, size, "%.*s", (int)len, len ? path : "/");
	return buf;
}

/* Where the directory PATH's first LEN bytes name is in: the length of
 * its own directory (0: "/"). */
static size_t up(const char *path, size_t len)
{
	while (len > 0 && path[len - 1] != '/')
		len--;
	return len > 1 ? len - 1 : 0;
}

/* The directories looked at in one cordon_hidden_ways_find (most hidden
 * paths share the home and a few directories in it). */
struct seen {
	struct seen_dir {
		char *path;
		int err; /* lstat's errno, or 0 */
		mode_t mode;
	} v[64];
	size_t n;
};

/* lstat(PATH), through SEEN: 0 with *MODE, or -errno. */
static int look(struct seen *seen, const char *path, mode_t *mode)
{
	for (size_t i = 0; i < seen->n; i++)
		if (strcmp(seen->v[i].path, path) == 0) {
			*mode = seen->v[i].mode;
			return -seen->v[i].err;
		}
	struct stat st;
	int err = lstat(path, &st) < 0 ? errno : 0;
	*mode = err ? 0 : st.st_mode;
	char *copy = seen->n < ARRAY_SIZE(seen->v) ? strdup(path) : NULL;
	if (copy)
		seen->v[seen->n++] = (struct seen_dir){copy, err, *mode};
	return -err;
}

static int way(const struct where *wh, const struct cordon_guard *g, struct seen *seen,
	       struct cordon_hidden_ways *out)
{
	const char *path = g->path;
	size_t n = strlen(path);
	char buf[PATH_MAX];
	const char *base = strrchr(path, '/');
	struct stat st;
	if (n >= sizeof(buf) || n < 2 ||
	    /* (A missing .ssh is made and hidden before the command starts:
	     * guard.c's hide.) */
	    (strcmp(base, "/.ssh") == 0 && lstat(path, &st) < 0))
		return 0;
	/* No directory above it where the session makes names, none on the
	 * way either: most hidden paths end here, with no system call. (A
	 * write rule that does not reach a directory reaches none above it.) */
	size_t at = up(path, n);
	while (at > 0 && written(wh, path, at) && !makes_names(wh, path, at))
		at = up(path, at);
	if (at == 0 || !written(wh, path, at))
		return 0;
	/* The nearest directory on the way that exists... */
	mode_t mode = 0;
	at = up(path, n);
	int e;
	while (at > 0 && (e = look(seen, prefix(path, at, buf, sizeof(buf)), &mode)) < 0) {
		if (e != -ENOENT)
			return 0; /* (not a directory: nothing can be made below) */
		at = up(path, at);
	}
	if (at == 0 || !(S_ISDIR(mode) || S_ISLNK(mode)))
		return 0;
	/* ...and above it, while the session could replace the one below
	 * (rename it away, make another). A link there stays the top. */
	size_t top = at;
	while (!S_ISLNK(mode)) {
		size_t above = up(path, top);
		if (above == 0 || !makes_names(wh, path, above) ||
		    look(seen, prefix(path, above, buf, sizeof(buf)), &mode) < 0)
			break;
		top = above;
	}
	if (top == at && !makes_names(wh, path, at))
		return 0; /* nothing can be made on the way inside */
	bool there = lstat(path, &st) == 0;
	unsigned long long dev = there ? (unsigned long long)st.st_dev : 0;
	unsigned long long ino = there ? (unsigned long long)st.st_ino : 0;
	struct cordon_hidden_way w = {
		.source = g->source, .top = top, .top_fd = -1, .dev = dev, .ino = ino};
	w.born_known = there && cordon_fs_birth(path, &w.born);
	for (size_t i = 0; i < out->n && w.top_fd < 0; i++)
		if (out->v[i].top == top && strncmp(out->v[i].path, path, top) == 0)
			w.top_fd = out->v[i].top_fd;
	if (w.top_fd < 0) {
		w.top_fd = open(prefix(path, top, buf, sizeof(buf)), HOLD_FLAGS);
		if (w.top_fd < 0)
			return errno == ENOMEM ? -ENOMEM : 0;
		w.owns_fd = true;
	}
	struct cordon_hidden_way *nv = cordon_grow(out->v, &out->cap, out->n + 1, sizeof(*nv), 8);
	if (nv)
		out->v = nv;
	if (!nv || !(w.path = strdup(path))) {
		if (w.owns_fd)
			close(w.top_fd);
		return -ENOMEM;
	}
	out->v[out->n++] = w;
	return 0;
}

static bool under_proc(const char *path)
{
	return strncmp(path, "/proc", 5) == 0 && (path[5] == '\0' || path[5] == '/');
}

/* PATH, missing, with a symbolic link on the way to it: where it would be
 * made (the nearest existing directory resolved, the rest appended); or
 * NULL (it exists, no link on the way, or out of memory). */
static char *led_to(const char *path, struct cordon_path_cache *cache)
{
	char up[PATH_MAX];
	if (cordon_path_nearest_cached(cache, path, up, sizeof(up)) < 0 || strcmp(up, path) == 0)
		return NULL;
	cleanup_free char *canon = NULL;
	if (cordon_path_resolve_cached(up, NULL, NULL, cache, &canon) < 0)
		return NULL;
	size_t n = strlen(up);
	char *out = NULL;
	if (canon && strcmp(canon, up) != 0 && asprintf(&out, "%s%s", canon, path + n) < 0)
		out = NULL;
	return out;
}

int cordon_hidden_ways_find(const struct cordon_policy *p, const struct cordon_strv *read_only,
			    struct cordon_hidden_ways *out)
{
	memset(out, 0, sizeof(*out));
	/* macOS denies a hidden path by its name: nothing made there is read. */
	if (CORDON_OS_NATIVE != CORDON_OS_LINUX || !p->sandbox)
		return 0;
	errno = 0;
	cleanup_free char *closed = cordon_guard_closed_dir(p);
	if (!closed && errno == ENOMEM)
		return -ENOMEM;
	int e = 0;
	struct seen seen = {.n = 0};
	struct cordon_path_cache cache = {0}; /* the home's directories, resolved once */
	struct where wh;
	where_init(&wh, p, closed, read_only);
	for (size_t i = 0; e >= 0 && i < p->n_guards; i++) {
		const struct cordon_guard *g = &p->guards[i];
		if (!(g->kind & CORDON_GUARD_HIDE) || g->path[0] != '/' || under_proc(g->path))
			continue;
		/* Beneath a link into a writable tree (~/.dbt -> PROJ/dbt, a
		 * stow layout), the way is where the link leads (round 9 read
		 * a profiles.yml a login wrote there while the session ran). */
		cleanup_free char *led = led_to(g->path, &cache);
		struct cordon_guard at = *g;
		if (led)
			at.path = led;
		if (!written(&wh, at.path, strlen(at.path)) ||
		    !(cordon_policy_access(p, at.path, NULL) & CORDON_ACCESS_READ))
			continue;
		e = way(&wh, &at, &seen, out);
	}
	for (size_t i = 0; i < seen.n; i++)
		free(seen.v[i].path);
	cordon_path_cache_free(&cache);
	if (e < 0)
		cordon_hidden_ways_free(out);
	return e;
}

void cordon_hidden_ways_free(struct cordon_hidden_ways *w)
{
	for (size_t i = 0; i < w->n; i++) {
		struct cordon_hidden_way *x = &w->v[i];
		if (x->owns_fd && x->top_fd >= 0)
			close(x->top_fd);
		free(x->path);
		free(x->moved_path);
		free(x->moved_what);
		free(x->moved_to);
	}
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/* The directory the entry at W's first LEN bytes is in, reached from W's
 * top without following a link (O_PATH), its name into NAME: a
 * descriptor, or -errno. */
static int dir_of(const struct cordon_hidden_way *w, size_t len, char *name, size_t size)
{
	size_t in = up(w->path, len);
	if (len <= w->top || len > strlen(w->path) || in < w->top || len - in - 1 >= size)
		return -EINVAL;
	char rel[PATH_MAX];
	snprintf(rel, sizeof(rel), "%.*s", (int)(in > w->top ? in - w->top - 1 : 0),
		 w->path + w->top + 1);
	snprintf(name, size, "%.*s", (int)(len - in - 1), w->path + in + 1);
	return cordon_fs_hold_beneath(w->top_fd, rel);
}

int cordon_hidden_way_stat(const struct cordon_hidden_way *w, size_t len, struct stat *st)
{
	char name[NAME_MAX + 1];
	cleanup_close int dir = dir_of(w, len, name, sizeof(name));
	if (dir < 0)
		return dir;
	return fstatat(dir, name, st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : 0;
}

bool cordon_hidden_way_lure(const struct cordon_hidden_way *w, bool at_name, const struct stat *st)
{
	if (at_name && (unsigned long long)st->st_dev == w->dev &&
	    (unsigned long long)st->st_ino == w->ino)
		return false; /* the user's own, as the session started */
	if (S_ISLNK(st->st_mode))
		return true;
	return at_name && (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode) || S_ISCHR(st->st_mode) ||
			   S_ISBLK(st->st_mode) || (S_ISREG(st->st_mode) && st->st_nlink > 1));
}

static void describe(int dir, const char *name, const struct stat *st, char *what, size_t size)
{
	char target[PATH_MAX], shown[PATH_MAX + 8];
	if (S_ISLNK(st->st_mode)) {
		ssize_t n = readlinkat(dir, name, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		snprintf(what, size, "a symbolic link to %s",
			 cordon_printable(target, SIZE_MAX, shown, sizeof(shown)));
	} else if (S_ISFIFO(st->st_mode)) {
		snprintf(what, size, "a FIFO");
	} else if (S_ISSOCK(st->st_mode)) {
		snprintf(what, size, "a socket");
	} else if (S_ISREG(st->st_mode)) {
		snprintf(what, size, "a file with another name (a hard link)");
	} else {
		snprintf(what, size, "a device");
	}
}

int cordon_hidden_way_disarm(const struct cordon_hidden_way *w, size_t len, bool drop, char *to,
			     size_t to_size, char *what, size_t what_size)
{
	char name[NAME_MAX + 1];
	cleanup_close int dir = dir_of(w, len, name, sizeof(name));
	if (dir < 0)
		return dir;
	bool at_name = len == strlen(w->path);
	struct stat before, after;
	if (fstatat(dir, name, &before, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!cordon_hidden_way_lure(w, at_name, &before))
		return 0;
	describe(dir, name, &before, what, what_size);
	int e = cordon_fs_move_aside(dir, name, to, to_size);
	if (e < 0)
		return e;
	/* Another entry put there between the look and the move (the
	 * session's link removed, the user's login saving its file that very
	 * moment) goes back; one laid at the name meanwhile is swapped out. */
	if (fstatat(dir, to, &after, AT_SYMLINK_NOFOLLOW) == 0 && after.st_dev == before.st_dev &&
	    after.st_ino == before.st_ino && cordon_hidden_way_lure(w, at_name, &after)) {
		if (drop &&
		    (S_ISLNK(after.st_mode) || S_ISFIFO(after.st_mode) || S_ISSOCK(after.st_mode)))
			(void)unlinkat(dir, to, 0);
		return 1;
	}
	if (cordon_fs_rename_new(dir, to, name) == -EEXIST)
		(void)cordon_fs_rename_swap(dir, to, name);
	return 0;
}

struct within {
	char *first, *what;
	size_t first_size, what_size;
	int moved, seen;
};

/* Each lure in the directory DIR (REL from the name, "" for it) moved
 * aside, and each directory in it walked, DEPTH levels more at most. */
static void disarm_in(int dir, const char *rel, int depth, struct within *in)
{
	DIR *d = fdopendir(dir);
	if (!d) {
		close(dir);
		return;
	}
	/* (The names first: moving one aside while reading would show it
	 * again under its new name.) */
	struct cordon_strv names = {0};
	struct dirent *e;
	while ((e = readdir(d)) && in->seen < 4096) {
		in->seen++;
		if (!cordon_dot_or_dotdot(e->d_name) && cordon_strv_push(&names, e->d_name) < 0)
			break;
	}
	for (size_t i = 0; i < names.n; i++) {
		const char *name = names.v[i];
		struct stat st;
		char path[PATH_MAX];
		if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    snprintf(path, sizeof(path), "%s%s%s", rel, rel[0] ? "/" : "", name) >=
			    (int)sizeof(path))
			continue;
		if (S_ISDIR(st.st_mode)) {
			int sub = depth > 0
					  ? openat(dirfd(d), name,
						   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
					  : -1;
			if (sub >= 0)
				disarm_in(sub, path, depth - 1, in);
			continue;
		}
		static const struct cordon_hidden_way none = {.path = NULL};
		char to[NAME_MAX + 32], what[PATH_MAX + 64];
		if (!cordon_hidden_way_lure(&none, true, &st))
			continue;
		describe(dirfd(d), name, &st, what, sizeof(what));
		if (cordon_fs_move_aside(dirfd(d), name, to, sizeof(to)) < 0)
			continue;
		if (in->moved++ == 0) {
			snprintf(in->first, in->first_size, "%s", path);
			snprintf(in->what, in->what_size, "%s", what);
		}
	}
	cordon_strv_free(&names);
	closedir(d);
}

int cordon_hidden_way_disarm_within(const struct cordon_hidden_way *w, char *first,
				    size_t first_size, char *what, size_t what_size)
{
	char name[NAME_MAX + 1];
	cleanup_close int dir = dir_of(w, strlen(w->path), name, sizeof(name));
	if (dir < 0)
		return dir;
	struct stat st;
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 ||
	    ((unsigned long long)st.st_dev == w->dev && (unsigned long long)st.st_ino == w->ino)) {
		close(fd);
		return 0; /* the user's own, as the session started */
	}
	struct within in = {first, what, first_size, what_size, 0, 0};
	disarm_in(fd, "", 16, &in);
	return in.moved;
}
