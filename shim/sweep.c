/* Repositories made or changed inside, looked at as a session ends (see
 * cordon/sweep.h). The walk and the moves run outside the sandbox, once
 * every process of the session is gone: nothing inside can swap a name
 * under them any more, so paths are enough; no link is followed into the
 * tree, and no file is opened but the ones gitrisk.c reads (regular files
 * only). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/stat.h>
#include <sys/syscall.h>
#endif

#include "cordon/guard.h"
#include "cordon/sweep.h"
#include "util.h"

#ifdef __APPLE__
#define CTIME(st) ((st).st_ctimespec)
#else
#define CTIME(st) ((st).st_ctim)
#endif

#define DISARMED ".cordon-disarmed" /* after ".git" */

bool cordon_sweep_applies(const struct cordon_policy *p)
{
	if (!p->sandbox || !p->project)
		return false;
	for (size_t i = 0; i < p->n_guards; i++)
		if ((p->guards[i].kind & CORDON_GUARD_PROTECT) &&
		    strstr(p->guards[i].path, "/.git/"))
			return true;
	return false;
}

int cordon_sweep_begin(const struct cordon_policy *p, struct cordon_strv *guarded,
		       struct cordon_sweep *s)
{
	memset(s, 0, sizeof(*s));
	if (!cordon_sweep_applies(p)) {
		cordon_strv_free(guarded);
		return 0;
	}
#ifdef CLOCK_REALTIME_COARSE
	/* The clock the kernel stamps files with. */
	clock_gettime(CLOCK_REALTIME_COARSE, &s->since);
#else
	clock_gettime(CLOCK_REALTIME, &s->since);
#endif
	/* To the second: file systems that keep times no finer (HFS+,
	 * ext3's small inodes) truncate them. */
	s->since.tv_nsec = 0;
	s->guarded = *guarded;
	*guarded = (struct cordon_strv){0};
	if (!(s->project = strdup(p->project))) {
		cordon_sweep_free(s);
		return -ENOMEM;
	}
	return 0;
}

void cordon_sweep_names(struct cordon_sweep *s, struct cordon_strv *names)
{
	cordon_strv_free(&s->names);
	s->names = *names;
	*names = (struct cordon_strv){0};
}

void cordon_sweep_free(struct cordon_sweep *s)
{
	free(s->project);
	cordon_strv_free(&s->guarded);
	cordon_strv_free(&s->names);
	memset(s, 0, sizeof(*s));
}

static bool after(const struct timespec *t, const struct timespec *since)
{
	return t->tv_sec > since->tv_sec ||
	       (t->tv_sec == since->tv_sec && t->tv_nsec >= since->tv_nsec);
}

/* PATH (a final link followed) changed since SINCE. */
static bool changed(const char *path, const struct timespec *since)
{
	struct stat st;
	return stat(path, &st) == 0 && after(&CTIME(st), since);
}

/* The .git entry at PATH itself was made since SINCE: a directory by its
 * birth time (its change time moves with every file git makes in it),
 * where the file system keeps one; anything else, or without a birth
 * time, by its change time (a rewritten .git file counts as made). */
static bool made(const char *path, const struct stat *st, const struct timespec *since)
{
	if (S_ISDIR(st->st_mode)) {
#ifdef __linux__
		struct statx sx;
		/* The system call: the launcher's libc may not wrap it (musl). */
		if (syscall(SYS_statx, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &sx) ==
			    0 &&
		    (sx.stx_mask & STATX_BTIME)) {
			struct timespec b = {(time_t)sx.stx_btime.tv_sec,
					     (long)sx.stx_btime.tv_nsec};
			return after(&b, since);
		}
#elif defined(__APPLE__)
		return after(&st->st_birthtimespec, since);
#endif
	}
	return after(&CTIME(*st), since);
}

/* Anything git reads in the git dir DIR to find a program changed since
 * SINCE: the config, the worktree's config, the commondir file, the hooks
 * directory and each hook. */
static bool dir_changed(const char *dir, const struct timespec *since)
{
	static const char *const files[] = {"config", "config.worktree", "commondir", "hooks",
					    NULL};
	char path[PATH_MAX + 32];
	for (size_t i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (changed(path, since))
			return true;
	}
	snprintf(path, sizeof(path), "%s/hooks", dir);
	DIR *d = opendir(path);
	bool yes = false;
	int seen = 0;
	for (struct dirent *de; d && !yes && seen++ < 1024 && (de = readdir(d));) {
		struct stat st;
		yes = de->d_name[0] != '.' && fstatat(dirfd(d), de->d_name, &st, 0) == 0 &&
		      after(&CTIME(st), since);
	}
	if (d)
		closedir(d);
	return yes;
}

/* The repository whose .git is DOTGIT (ST: lstat) was made, or what git
 * reads in it to find a program was changed, since SINCE. */
static bool touched(const char *dotgit, const struct stat *st, const struct timespec *since,
		    bool *is_new)
{
	*is_new = made(dotgit, st, since);
	if (*is_new)
		return true;
	cleanup_free char *linked = NULL, *shared = NULL;
	const char *dir = dotgit;
	if (S_ISREG(st->st_mode)) {
		char base[PATH_MAX];
		snprintf(base, sizeof(base), "%s", dotgit);
		char *slash = strrchr(base, '/');
		if (slash)
			*slash = '\0';
		if (!(linked = cordon_git_link_file(dotgit, "gitdir: ", base)))
			return false;
		dir = linked;
	}
	if (dir_changed(dir, since))
		return true;
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/commondir", dir);
	return (shared = cordon_git_link_file(path, "", dir)) && dir_changed(shared, since);
}

/* Move FROM aside, under a name no program looks for (".git" becomes
 * ".git.cordon-disarmed"): TO.
 * 0 or -errno. */
static int move_aside(const char *from, char *to, size_t size)
{
	for (int k = 1; k < 100; k++) {
		if (k == 1)
			snprintf(to, size, "%s" DISARMED, from);
		else
			snprintf(to, size, "%s" DISARMED "-%d", from, k);
		struct stat st;
		/* Only outside processes run now, the user's: no one races. */
		if (lstat(to, &st) == 0)
			continue;
		if (errno != ENOENT)
			return -errno;
		return rename(from, to) < 0 ? -errno : 0;
	}
	return -EEXIST;
}

static bool is_guarded(const struct cordon_sweep *s, const char *dotgit)
{
	for (size_t i = 0; i < s->guarded.n; i++)
		if (cordon_path_under(s->guarded.v[i], dotgit))
			return true;
	return false;
}

static int judge(struct cordon_sweep *s, const char *dotgit)
{
	struct stat st;
	bool is_new;
	if (is_guarded(s, dotgit) || lstat(dotgit, &st) < 0 ||
	    !touched(dotgit, &st, &s->since, &is_new))
		return 0;
	char risks[1200], shown[PATH_MAX], to[PATH_MAX + 32];
	cordon_git_risks(dotgit, risks, sizeof(risks));
	cordon_printable(dotgit, SIZE_MAX, shown, sizeof(shown));
	const char *how = is_new ? "this session made the repository"
				 : "while this session ran, the repository";
	const char *did = is_new ? "" : " changed";
	if (!risks[0]) {
		if (is_new)
			fprintf(stderr,
				"cordon: %s %s: it has no hooks, and its config sets none of the keys "
				"cordon knows to run a program\n",
				how, shown);
		return 0;
	}
	int e = move_aside(dotgit, to, sizeof(to));
	if (e < 0) {
		fprintf(stderr,
			"cordon: %s %s%s, and %s: git outside runs them, and cordon could not move "
			"it aside (%s); review them before you use git there\n",
			how, shown, did, risks, strerror(-e));
		return 0;
	}
	char shown_to[PATH_MAX + 32];
	fprintf(stderr,
		"cordon: %s %s%s, and %s: git outside would run them, so cordon moved it to %s; "
		"review them, then move it back\n",
		how, shown, did, risks, cordon_printable(to, SIZE_MAX, shown_to, sizeof(shown_to)));
	return 1;
}

/* One entry NAME (its d_type TYPE) of the directory DIR (open as FD). */
static int visit(const char *dir, int fd, const char *name, unsigned char type,
		 struct cordon_strv *todo, struct cordon_strv *found)
{
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    strncmp(name, ".git" DISARMED, strlen(".git" DISARMED)) == 0)
		return 0;
	bool dotgit = strcmp(name, ".git") == 0;
	struct stat st;
	if (!dotgit && type == DT_UNKNOWN)
		type = fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode)
			       ? DT_DIR
			       : DT_REG;
	if (!dotgit && type != DT_DIR)
		return 0;
	char child[PATH_MAX];
	if ((size_t)snprintf(child, sizeof(child), "%s/%s", dir, name) >= sizeof(child))
		return 0; /* no one can use git there: getcwd fails */
	return cordon_strv_push(dotgit ? found : todo, child);
}

#ifdef __linux__
/* The entries, raw: a directory stream costs musl three more system calls
 * a directory, and a project may hold tens of thousands. */
struct dirent64_raw {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static int list(const char *dir, int fd, struct cordon_strv *todo, struct cordon_strv *found)
{
	static char buf[65536] __attribute__((aligned(8)));
	int e = 0;
	for (long got; e >= 0 && (got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0;)
		for (long at = 0; e >= 0 && at < got;) {
			const struct dirent64_raw *de = (const void *)(buf + at);
			at += de->reclen;
			e = visit(dir, fd, de->name, de->type, todo, found);
		}
	return e;
}
#else
static int list(const char *dir, int fd, struct cordon_strv *todo, struct cordon_strv *found)
{
	int e = 0, copy = dup(fd);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	if (!d && copy >= 0)
		close(copy);
	for (struct dirent *de; e >= 0 && d && (de = readdir(d));)
		e = visit(dir, fd, de->d_name, de->d_type, todo, found);
	if (d)
		closedir(d);
	return e;
}
#endif

/* Every .git under the project, without following a link, and without
 * going into a git dir (or one cordon moved aside). */
static int find_dotgits(const char *project, struct cordon_strv *found)
{
	struct cordon_strv todo = {0};
	int e = cordon_strv_push(&todo, project);
	while (e >= 0 && todo.n > 0) {
		char *dir = todo.v[--todo.n];
		todo.v[todo.n] = NULL;
		/* No O_CLOEXEC: musl adds a system call for it, and nothing is
		 * started now. */
		int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK);
		if (fd >= 0) {
			e = list(dir, fd, &todo, found);
			close(fd);
		}
		free(dir);
	}
	cordon_strv_free(&todo);
	return e;
}

/* A protected name that was missing as the session started, and that no
 * mount could guard: made since, it is moved aside. */
static int judge_name(const char *path)
{
	struct stat st;
	size_t n = strlen(path);
	if ((n >= 5 && strcmp(path + n - 5, "/.git") == 0) || lstat(path, &st) < 0)
		return 0;
	char shown[PATH_MAX], to[PATH_MAX + 32], shown_to[PATH_MAX + 32];
	cordon_printable(path, SIZE_MAX, shown, sizeof(shown));
	int e = move_aside(path, to, sizeof(to));
	if (e < 0) {
		fprintf(stderr,
			"cordon: this session made %s, which cordon cannot guard while a session "
			"runs, and cordon could not move it aside (%s): an agent, direnv or an "
			"editor outside may obey it; review it before they do\n",
			shown, strerror(-e));
		return 0;
	}
	fprintf(stderr,
		"cordon: this session made %s, which cordon cannot guard while a session runs "
		"and an agent, direnv or an editor outside would obey, so cordon moved it to %s; "
		"review it, then move it back\n",
		shown, cordon_printable(to, SIZE_MAX, shown_to, sizeof(shown_to)));
	return 1;
}

int cordon_sweep_end(struct cordon_sweep *s)
{
	int moved = 0;
	for (size_t i = 0; i < s->names.n; i++)
		moved += judge_name(s->names.v[i]);
	if (!s->project)
		return moved;
	struct cordon_strv found = {0};
	if (find_dotgits(s->project, &found) < 0)
		fprintf(stderr,
			"cordon: out of memory looking for the repositories this session "
			"made; review the .git directories in %s before you use git there\n",
			s->project);
	for (size_t i = 0; i < found.n; i++)
		moved += judge(s, found.v[i]);
	cordon_strv_free(&found);
	return moved;
}
