/* Repositories made or changed inside, looked at as a session ends (see
 * cordon/sweep.h). It runs outside the sandbox. Every directory of the
 * project is opened beneath the project without following a link (so
 * that a process of the session still alive, had one escaped the end,
 * could not turn the walk elsewhere), and a name is moved aside within
 * its own directory, never over another. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <strings.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cordon/gitconfig.h"
#include "cordon/guard.h"
#include "cordon/mounts.h"
#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "cordon/sha256.h"
#include "cordon/sweep.h"
#include "dotfile-refs.h"
#include "sweep-fs.h"
#include "jsonutil.h"
#include "util.h"
#include "watchwait.h"

#ifdef __APPLE__
#define CTIME(st) ((st).st_ctimespec)
#else
#define CTIME(st) ((st).st_ctim)
#endif

#define CACHE_MAGIC                                                                                \
	"cordon-sweep 6" /* 5: no h; 4: l for files only; 3: no l; 2: no D, T; 1: a bare \
			    git dir's subdirectories unrecorded */
#define DISARMED ".cordon-disarmed"
/* A directory sessions may write, noted in the registry (note_written). */
#define WROTE "wrote-"

bool cordon_sweep_applies(const struct cordon_policy *p)
{
	if (!p->sandbox)
		return false;
	if (p->shared.n)
		return true;
	for (size_t i = 0; i < p->n_guards; i++)
		if ((p->guards[i].kind & CORDON_GUARD_PROTECT) &&
		    strstr(p->guards[i].path, "/.git/"))
			return true;
	return false;
}

/* Now, by the clock the kernel stamps files with, to the second: file
 * systems that keep times no finer (HFS+, ext3's small inodes) truncate
 * them, so a change in this very second counts as after it. */
static void this_second(struct timespec *t)
{
#ifdef CLOCK_REALTIME_COARSE
	clock_gettime(CLOCK_REALTIME_COARSE, t);
#else
	clock_gettime(CLOCK_REALTIME, t);
#endif
	t->tv_nsec = 0;
}

static bool after(const struct timespec *t, const struct timespec *since)
{
	return t->tv_sec > since->tv_sec ||
	       (t->tv_sec == since->tv_sec && t->tv_nsec >= since->tv_nsec);
}

/* The earliest change time a change made from now on in S's roots can
 * bear, into S->since. Where each root's file system keeps fine times:
 * now by the coarse clock the kernel stamps files with (less one of its
 * ticks, to spare), so that a session started just after another does
 * not take the other's last changes for its own (its stand-in .git/commondir
 * in a repository beneath this one's project made the repository look
 * made by this session, which moved it aside for its hooks: round 8);
 * elsewhere this very second. Where every root's is multigrain, the
 * kernel's own stamp for a change made now, if later: a file changed
 * just before the start, and looked at (a chown after a stat), bears a
 * fine time up to a tick past the coarse clock, and the first walk took
 * the user's own files, saved as the session started, for its own. */
static void since_now(struct cordon_sweep *s)
{
	this_second(&s->since);
#ifdef CLOCK_REALTIME_COARSE
	bool fine = s->roots.n > 0, multigrain = fine;
	for (size_t i = 0; fine && i < s->roots.n; i++) {
		fine = cordon_fs_fine_times(s->roots.v[i]);
		multigrain = multigrain && cordon_fs_multigrain(s->roots.v[i]);
	}
	struct timespec now, res;
	if (!fine || clock_gettime(CLOCK_REALTIME_COARSE, &now) < 0 ||
	    clock_getres(CLOCK_REALTIME_COARSE, &res) < 0 || res.tv_sec > 0)
		return;
	now.tv_nsec -= res.tv_nsec;
	if (now.tv_nsec < 0) {
		now.tv_nsec += 1000000000L;
		now.tv_sec--;
	}
	s->since = now;
	cleanup_free char *dir = NULL;
	struct cordon_error err = {0};
	struct timespec stamp;
	/* (The stamp is taken where the records are: a multigrain file
	 * system of this machine's, never a file server's clock. Before 6.13
	 * it is the coarse clock's, no later than any change to come.) */
	if (multigrain && cordon_state_dir(&dir, &err) == 0 && dir && cordon_fs_multigrain(dir) &&
	    cordon_fs_stamp_now(dir, &stamp) && after(&stamp, &s->since))
		s->since = stamp;
#endif
}

/* ---- sweeps that did not end ----
 *
 * As a session starts, a mark is left beside each root's record, named
 * after the process that will sweep it (pid and start time), holding the
 * session's start; the sweep removes it once it has judged all. A mark
 * whose process is gone (killed, the machine restarted) is a sweep that
 * never ran, or never ended: the next sweep of that root judges from the
 * earliest such start, and removes it after. */

#define PENDING ".pending-"
/* Beside it, the record as the session started, a second name of its
 * file (records are replaced by a rename): the sweep compares with what
 * was there before the session, not with what another session's sweep
 * recorded meanwhile (round 27: a session started and ended while this
 * one ran recorded this one's plant as the user's, and this one then
 * found its digest unchanged). */
#define AT_START ".start-"

/* The start time of PID (clock ticks since boot) into *START, and
 * whether it is alive (a zombie is not). Without /proc: alive when it
 * can be signalled, and a start of 0. */
static bool alive(pid_t pid, unsigned long long *start)
{
	*start = 0;
#ifdef __linux__
	char path[40], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return !(kill(pid, 0) < 0 && errno == ESRCH);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] == 'Z' || p[2] == 'X')
		return false;
	/* Past the command's name: state is field 3, starttime field 22. */
	for (int field = 2; p && field < 22; field++)
		p = strchr(p + 1, ' ');
	if (p)
		*start = strtoull(p + 1, NULL, 10);
	return true;
#else
	return !(kill(pid, 0) < 0 && errno == ESRCH);
#endif
}

static unsigned long long start_of(pid_t pid)
{
	unsigned long long t;
	(void)alive(pid, &t);
	return t;
}

/* This process's start (start_of), read once: each root's mark and start
 * record are named after it, several times a root. Read again in a
 * process forked since. */
static unsigned long long own_start_time(void)
{
	static pid_t pid;
	static unsigned long long start;
	if (pid != getpid()) {
		pid = getpid();
		start = start_of(pid);
	}
	return start;
}

/* The mark the process PID (started at START) leaves for ROOT (malloc'd,
 * or NULL). */
static char *pending_path(const char *root, pid_t pid, unsigned long long start)
{
	cleanup_free char *record = cordon_sweep_record_path(root);
	char *path;
	if (!record || asprintf(&path, "%s" PENDING "%d-%llu", record, (int)pid, start) < 0)
		return NULL;
	return path;
}

/* The mark this process leaves for ROOT (malloc'd, or NULL). */
static char *own_mark(const char *root)
{
	return pending_path(root, getpid(), own_start_time());
}

/* The record of ROOT as this process's session started (malloc'd, or
 * NULL). */
static char *own_start(const char *root)
{
	cleanup_free char *record = cordon_sweep_record_path(root);
	char *path;
	if (!record ||
	    asprintf(&path, "%s" AT_START "%d-%llu", record, (int)getpid(), own_start_time()) < 0)
		return NULL;
	return path;
}

/* The six fields of a record's header at DATA (LEN bytes): MAGIC \0
 * project \0 seconds \0 device \0 inode \0 saved \0 (saved: when the
 * walk that wrote it was done, in ns), into FIELD; where the records
 * begin, or 0 where it is cut short. */
static size_t record_head(const char *data, size_t len, const char *field[6])
{
	size_t at = 0;
	for (int i = 0; i < 6; i++) {
		const char *nul = at < len ? memchr(data + at, '\0', len - at) : NULL;
		if (!nul)
			return 0;
		field[i] = data + at;
		at = (size_t)(nul - data) + 1;
	}
	return at;
}

/* Whether the record at PATH is one of ROOT (its header: the format,
 * the path, the directory's device and inode, a time not ahead of now),
 * which the end would read: one of another directory once at that path
 * (a clone made again there), or of an earlier format, is as none. ROOT
 * NULL: of the directory it names, which is copied into NAMED (SIZE
 * bytes). */
static bool record_of(const char *path, const char *root, char *named, size_t size)
{
	struct stat st;
	char head[PATH_MAX + 160];
	const char *field[6];
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, head, sizeof(head)) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0 || !record_head(head, (size_t)n, field))
		return false;
	if (!root) {
		root = field[1];
		if (snprintf(named, size, "%s", root) >= (int)size)
			return false;
	}
	long long t = strtoll(field[2], NULL, 10);
	return strcmp(field[0], CACHE_MAGIC) == 0 && strcmp(field[1], root) == 0 &&
	       stat(root, &st) == 0 &&
	       strtoull(field[3], NULL, 10) == (unsigned long long)st.st_dev &&
	       strtoull(field[4], NULL, 10) == (unsigned long long)st.st_ino && t > 0 &&
	       t <= (long long)time(NULL);
}

/* A record's header for TOP (ST), its walk started at AT (seconds), saved
 * at SAVED (ns), written to F. */
static void write_head(FILE *f, const char *top, long long at, const struct stat *st,
		       unsigned long long saved)
{
	fprintf(f, "%s%c%s%c%lld%c%llu%c%llu%c%llu%c", CACHE_MAGIC, 0, top, 0, at, 0,
		(unsigned long long)st->st_dev, 0, (unsigned long long)st->st_ino, 0, saved, 0);
}

/* (Below: the records of the roots below ROOT made one, into START.) */
static bool below_records(const char *root, const char *start);

/* ROOT's record kept as it is now, under this session's own name: 2
 * where there was one the end would read (round 28 F1d: one of an
 * earlier format, or of a directory once at that path, was read as
 * none there, and then nothing else held the session to another's
 * start), or one above it; 1 where only roots below it had one (what
 * that record knows is theirs alone); 0 where none. */
static int keep_start(const char *root)
{
	cleanup_free char *record = cordon_sweep_record_path(root);
	cleanup_free char *start = own_start(root);
	if (!record || !start)
		return 0;
	(void)unlink(start);
	if (link(record, start) == 0) {
		if (record_of(start, root, NULL, 0))
			return 2;
		(void)unlink(start);
	}
	/* None of its own (the first walk): that of the nearest directory
	 * above it that has one, for the part below ROOT (cache_load): it
	 * knows what was there as well (round 28b F3: a session in the
	 * project's parent staged a .exrc in node_modules and ended, and the
	 * project's first session moved the package into place). */
	char up[PATH_MAX];
	snprintf(up, sizeof(up), "%s", root);
	for (char *slash; (slash = strrchr(up, '/'));) {
		slash[slash == up] = '\0';
		cleanup_free char *above = cordon_sweep_record_path(up);
		if (above && link(above, start) == 0) {
			if (record_of(start, up, NULL, 0))
				return 2;
			(void)unlink(start);
		}
		if (slash == up)
			break;
	}
	/* Nor above: one made of those of the roots below it, each for its
	 * own part (round 28b F3: a session in a subdirectory staged a .exrc
	 * in node_modules and ended, and the parent's first session moved
	 * the package into place). */
	return below_records(root, start) ? 1 : 0;
}

/* A mark's most bytes: its start, root, top's directories, those above
 * the project (CORDON_MARK_ABOVE, each " HASH:DEV:INO") and the session. */
#define MARK_SIZE (PATH_MAX + 190 + CORDON_MARK_ABOVE * 63)

/* The directory NAME in TOP, lstat'ed into *ST: whether it is one (no
 * link). */
static bool top_dir(const char *top, const char *name, struct stat *st)
{
	char path[PATH_MAX + 32];
	return (size_t)snprintf(path, sizeof(path), "%s/%s", strcmp(top, "/") != 0 ? top : "",
				name) < sizeof(path) &&
	       lstat(path, st) == 0 && S_ISDIR(st->st_mode);
}

/* The directories id_of resolved last (most hidden paths share ~ or
 * ~/.config): their names, and where they lead. */
struct dirs_seen {
	struct cordon_strv dirs, real;
	/* The roots of the sessions with a mark (running, or killed) and
	 * this one's, each with the start it judges from (AT, same index):
	 * what lies below one and changed at or after its start a session may
	 * have made. The directories found so, and not. */
	struct cordon_strv roots, fresh, old;
	struct timespec *at;
	size_t at_cap;
};

/* Whether PATH, changed at CHANGED, lies strictly below the root of a
 * session in SEEN (a root itself is not the session's to make) that had
 * started by then. */
static bool session_may_have(const char *path, const struct timespec *changed,
			     const struct dirs_seen *seen)
{
	for (size_t i = 0; i < seen->roots.n; i++)
		if (strcmp(path, seen->roots.v[i]) != 0 &&
		    cordon_path_under(path, seen->roots.v[i]) && after(changed, &seen->at[i]))
			return true;
	return false;
}

/* Whether the directory DIR is one a session may have made or changed
 * (session_may_have). */
static bool fresh_dir(const char *dir, struct dirs_seen *seen)
{
	if (cordon_strv_contains(&seen->fresh, dir))
		return true;
	if (cordon_strv_contains(&seen->old, dir))
		return false;
	struct stat st;
	bool fresh = lstat(dir, &st) < 0 || session_may_have(dir, &CTIME(st), seen);
	(void)cordon_strv_push(fresh ? &seen->fresh : &seen->old, dir);
	return fresh;
}

/* Whether PATH (LST its lstat), what it leads to (REAL: where that is not
 * PATH; else NULL), or a directory on the way to either, is one a session
 * with a mark may have made: a session running as the hiding one started
 * (round 56a F1: one staged an hgrc at a name another hid, which recorded
 * it as the hidden file and had it put back). */
static char *real_of(const char *path, struct dirs_seen *seen);

static bool maybe_made(const char *path, const char *real, const struct stat *lst,
		       struct dirs_seen *seen)
{
	struct stat st;
	/* (By its name and by where it lies: a root is named canonically,
	 * a hidden path need not be.) */
	cleanup_free char *at = S_ISLNK(lst->st_mode) ? real_of(path, seen) : NULL;
	if (session_may_have(path, &CTIME(*lst), seen) ||
	    (!S_ISLNK(lst->st_mode) && real && session_may_have(real, &CTIME(*lst), seen)) ||
	    (at && session_may_have(at, &CTIME(*lst), seen)) ||
	    (S_ISLNK(lst->st_mode) &&
	     (stat(path, &st) < 0 || session_may_have(real ? real : path, &CTIME(st), seen))))
		return true;
	for (int k = 0; k < 2; k++) {
		char dir[PATH_MAX];
		if (k && !real)
			break;
		snprintf(dir, sizeof(dir), "%s", k ? real : path);
		for (char *slash = strrchr(dir, '/'); slash && slash != dir;
		     slash = strrchr(dir, '/')) {
			*slash = '\0';
			if (fresh_dir(dir, seen))
				return true;
		}
	}
	return false;
}

/* Where PATH, not a link itself, leads (malloc'd; NULL: nowhere, or out of
 * memory): its directory resolved once for all of SEEN's. (realpath()
 * for each of ~40 existing hidden paths cost a launch ~3 ms.) */
static char *real_of(const char *path, struct dirs_seen *seen)
{
	const char *slash = strrchr(path, '/');
	if (!slash || slash == path)
		return realpath(path, NULL);
	cleanup_free char *dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return NULL;
	const char *real = NULL;
	for (size_t i = seen->dirs.n; i-- > 0 && !real;)
		if (strcmp(seen->dirs.v[i], dir) == 0)
			real = seen->real.v[i];
	if (!real) {
		char *r = realpath(dir, NULL);
		if (!r)
			return NULL;
		if (cordon_strv_push(&seen->dirs, dir) < 0) {
			free(r);
			return NULL;
		}
		if (cordon_strv_push_take(&seen->real, r) < 0) {
			free(seen->dirs.v[--seen->dirs.n]); /* (the two kept the same length) */
			seen->dirs.v[seen->dirs.n] = NULL;
			return NULL;
		}
		real = r;
	}
	return cordon_join3(real, strcmp(real, "/") ? "/" : "", slash + 1);
}

/* ST's device, inode and change time into V. */
static void stat_id(const struct stat *st, unsigned long long v[4])
{
	v[0] = (unsigned long long)st->st_dev;
	v[1] = (unsigned long long)st->st_ino;
	v[2] = (unsigned long long)CTIME(*st).tv_sec;
	v[3] = (unsigned long long)CTIME(*st).tv_nsec;
}

/* What PATH is (lstat), and what it leads to (stat), into *ID; 0, 0 where
 * missing. */
static void id_of(const char *path, struct cordon_sweep_id *id, struct dirs_seen *seen)
{
	struct stat st;
	*id = (struct cordon_sweep_id){{0}, {0}, NULL};
	if (lstat(path, &st) != 0)
		return;
	stat_id(&st, id->l);
	bool link = S_ISLNK(st.st_mode);
	if (!link)
		memcpy(id->s, id->l, sizeof(id->s));
	else if (stat(path, &st) == 0)
		stat_id(&st, id->s);
	struct stat lst = st;
	if (link)
		(void)lstat(path, &lst);
	char *real = !id->s[1] ? NULL : link ? realpath(path, NULL) : real_of(path, seen);
	if (real && strcmp(real, path) != 0)
		id->real = real;
	else
		free(real);
	/* (Not trusted: known as missing, nothing put back.) */
	if (maybe_made(path, id->real, &lst, seen)) {
		free(id->real);
		*id = (struct cordon_sweep_id){{0}, {0}, NULL};
	}
}

static void ids_free(struct cordon_sweep_id *ids, size_t n)
{
	for (size_t i = 0; ids && i < n; i++)
		free(ids[i].real);
	free(ids);
}

/* ST is what ID names, as a link or as where one leads, unchanged since
 * (its change time the same: a file written since, or a new one given
 * the inode number again, is not). */
static bool is_id(const struct stat *st, const struct cordon_sweep_id *id)
{
	unsigned long long v[4];
	stat_id(st, v);
	return v[1] && (memcmp(v, id->l, sizeof(v)) == 0 || memcmp(v, id->s, sizeof(v)) == 0);
}

#define ID_TEXT 176 /* "#" and eight numbers, with their colons and NUL */

/* ID as the mark holds it, into AT (ID_TEXT and its real path's length
 * and one more): "#" and eight numbers, then a space and where it led,
 * with a NUL; the bytes written. */
static size_t id_text(const struct cordon_sweep_id *id, char *at)
{
	int n = snprintf(at, ID_TEXT, "#%llu:%llu:%llu:%llu:%llu:%llu:%llu:%llu", id->l[0],
			 id->l[1], id->l[2], id->l[3], id->s[0], id->s[1], id->s[2], id->s[3]);
	size_t len = n > 0 ? (size_t)n : 0;
	if (id->real) {
		at[len++] = ' ';
		memcpy(at + len, id->real, strlen(id->real));
		len += strlen(id->real);
	}
	at[len++] = '\0';
	return len;
}

/* A directory's path as the mark keeps it (FNV-1a). */
static unsigned long long dir_hash(const char *path)
{
	unsigned long long h = 14695981039346656037ULL;
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		h = (h ^ *c) * 1099511628211ULL;
	return h;
}

/* The mark: where this session's walk of ROOT judges from, to the
 * nanosecond, and ROOT (what other roots it lies in or holds); OWN (SINCE
 * is S's own start), its top's .config and mise, and in the project's,
 * the directories above it (S's). */
static void pending_mark(const struct cordon_sweep *s, const char *root,
			 const struct timespec *since, bool own)
{
	cleanup_free char *path = own_mark(root);
	int fd =
		path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
	if (fd < 0)
		return; /* (best effort: the sweep itself still runs) */
	/* (And the top's .config and mise: a killed session may have put
	 * another in place, with files of mise's environments in it. Not
	 * where SINCE is another session's start, OWN false: they are not
	 * as they were then (round 33d M1).) */
	unsigned long long id[2][2] = {{0}};
	static const char *const names[] = {".config", "mise"};
	for (size_t k = 0; own && k < 2; k++) {
		struct stat st;
		if (top_dir(root, names[k], &st))
			id[k][0] = (unsigned long long)st.st_dev,
			id[k][1] = (unsigned long long)st.st_ino;
	}
	char line[MARK_SIZE];
	int n = own ? snprintf(line, sizeof(line), "%lld.%09ld\n%s\nmise %llu:%llu %llu:%llu\n",
			       (long long)since->tv_sec, (long)since->tv_nsec, root, id[0][0],
			       id[0][1], id[1][0], id[1][1])
		    : snprintf(line, sizeof(line), "%lld.%09ld\n%s\n", (long long)since->tv_sec,
			       (long)since->tv_nsec, root);
	/* (And, in the project's, the directories above it as held: a
	 * killed session's change to one is then told from the user's own
	 * config there, round 33f P1.) */
	if (own && n > 0 && (size_t)n < sizeof(line) && s->project &&
	    strcmp(root, s->project) == 0 && s->n_mise_above <= CORDON_MARK_ABOVE) {
		n += snprintf(line + n, sizeof(line) - (size_t)n, "above");
		for (size_t i = 0; i < s->n_mise_above && (size_t)n < sizeof(line); i++)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " %llu:%llu:%llu",
				      dir_hash(s->mise_dirs[i].path), s->mise_dirs[i].dev,
				      s->mise_dirs[i].ino);
		if ((size_t)n < sizeof(line))
			n += snprintf(line + n, sizeof(line) - (size_t)n, "\n");
	}
	if (n > 0 && (size_t)n < sizeof(line) && s->session[0])
		n += snprintf(line + n, sizeof(line) - (size_t)n, "session %s\n", s->session);
	if (n > 0 && (size_t)n < sizeof(line))
		(void)cordon_write_full(fd, line, (size_t)n);
	/* Then, past a NUL, the session's hidden paths, each ending in
	 * one: a later launch that catches up with this session, should it be
	 * killed, puts them back where it moves a directory aside, as this
	 * one's end would (round 53c F1: that launch's own list named another
	 * HF_HOME, or the entry relative to another project). */
	/* (All of them: one named through a link outside ROOT may lead
	 * below it, round 53e F4; the put-back resolves each.) */
	/* (In one write: a mark is written for each root, and a write for
	 * each of ~300 paths cost the launch ~2 ms, round 54.) */
	/* (Each followed by what it was as the session started, "#" and
	 * four numbers: only that is put back, round 54j F1. An earlier
	 * version's reader passes over what does not start with a slash.) */
	size_t total = 1;
	for (size_t i = 0; i < s->hidden.n; i++)
		total += strlen(s->hidden.v[i]) + 1 + ID_TEXT +
			 (s->hidden_ids && s->hidden_ids[i].real ? strlen(s->hidden_ids[i].real) + 1
								 : 0);
	cleanup_free char *all =
		n > 0 && (size_t)n < sizeof(line) && s->hidden.n ? malloc(total) : NULL;
	if (all) {
		char *at = all;
		*at++ = '\0';
		for (size_t i = 0; i < s->hidden.n; i++) {
			size_t len = strlen(s->hidden.v[i]) + 1;
			memcpy(at, s->hidden.v[i], len);
			at += len;
			const struct cordon_sweep_id *hid =
				s->hidden_ids ? &s->hidden_ids[i] : NULL;
			if (hid)
				at += id_text(hid, at);
		}
		(void)cordon_write_full(fd, all, (size_t)(at - all));
	}
	close(fd);
}

#define MARK_HIDDEN_MAX (1u << 20) /* a mark's hidden paths past it are not read */

/* The hidden paths the mark at PATH holds (pending_mark), into OUT. */
static bool read_ids(const char **t, char end, unsigned long long *id, int n);

/* PATH pushed to V, with no identity yet in *IDS (same index, *CAP slots):
 * 0 or -ENOMEM. */
static int ids_push(struct cordon_strv *v, struct cordon_sweep_id **ids, size_t *cap,
		    const char *path)
{
	struct cordon_sweep_id *nv = cordon_grow(*ids, cap, v->n + 1, sizeof(*nv), 8);
	if (!nv)
		return -ENOMEM;
	*ids = nv;
	int e = cordon_strv_push(v, path);
	if (e >= 0)
		nv[v->n - 1] = (struct cordon_sweep_id){{0}, {0}, NULL};
	return e;
}

/* An identity as id_text wrote it ("#" and eight numbers, then where it
 * led, if at all) at P into *ID (not one already read): whether it was
 * one. */
static bool id_read(const char *p, struct cordon_sweep_id *id)
{
	const char *real = strchr(p, ' '), *t = p + 1;
	unsigned long long v[8];
	if (p[0] != '#' || id->real || !read_ids(&t, real ? ' ' : '\0', v, 8))
		return false;
	memcpy(id->l, v, sizeof(id->l));
	memcpy(id->s, v + 4, sizeof(id->s));
	if (real && real[1] == '/')
		id->real = strdup(real + 1); /* (out of memory: none) */
	return true;
}

static void mark_hidden(const char *path, struct cordon_others_hidden *out)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char *text = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
				     st.st_size <= MARK_HIDDEN_MAX
			     ? malloc((size_t)st.st_size + 1)
			     : NULL;
	ssize_t got = text ? read(fd, text, (size_t)st.st_size) : -1;
	if (fd >= 0)
		close(fd);
	if (got > 0) {
		text[got] = '\0';
		const char *p = memchr(text, '\0', (size_t)got), *end = text + got;
		/* (Each path's identity follows it; one without: unknown,
		 * nothing put back.) */
		for (p = p ? p + 1 : end; p < end; p += strlen(p) + 1) {
			if (p[0] == '#' && out->list.n)
				(void)id_read(p, &out->ids[out->list.n - 1]);
			else if (p[0] == '/' &&
				 ids_push(&out->list, &out->ids, &out->ids_cap, p) < 0)
				break;
		}
	}
	free(text);
}

/* A name beside a record: a mark (PENDING) or a start record
 * (AT_START), with what is known of the process it is named after. */
struct beside {
	const char *path;
	bool mark;
	bool mine; /* this process's */
	bool gone; /* the process is gone (a zombie too), or its pid another's now */
	/* A mark's: its start (0: unknown), and its root ("": unknown, a
	 * mark of an earlier version's, which held only the second). */
	struct timespec at;
	char root[PATH_MAX];
	/* Its top's .config and mise as it started (pending_mark). */
	unsigned long long dirs[2][2];
	bool has_dirs;
	/* The project's: the directories above it (path's hash, dev, ino). */
	unsigned long long above[CORDON_MARK_ABOVE][3];
	size_t n_above;
	bool has_above;
	char session[CORDON_SESSION_ID_LEN + 1]; /* its session's id, or "" */
};

/* N numbers "A:B[:C]" at *T, then END (' ' or '\n'): into ID, *T past
 * END. */
static bool read_ids(const char **t, char end, unsigned long long *id, int n)
{
	for (int part = 0; part < n; part++) {
		char *e;
		if (**t < '0' || **t > '9')
			return false;
		errno = 0;
		id[part] = strtoull(*t, &e, 10);
		if (errno == ERANGE || *e != (part + 1 < n ? ':' : end))
			return false;
		*t = e + 1;
	}
	return true;
}

/* "mise DEV:INO DEV:INO" (pending_mark's third line) at T into DIRS:
 * whether T held it. */
static bool read_dirs(const char *t, unsigned long long dirs[2][2])
{
	if (strncmp(t, "mise ", 5) != 0)
		return false;
	t += 5;
	return read_ids(&t, ' ', dirs[0], 2) && read_ids(&t, '\n', dirs[1], 2);
}

/* "above HASH:DEV:INO ...\n" (pending_mark's fourth line) at T into B. */
static bool read_above(const char *t, struct beside *b)
{
	if (strncmp(t, "above", 5) != 0)
		return false;
	t += 5;
	b->n_above = 0;
	if (*t == '\n')
		return true; /* (none above) */
	if (*t++ != ' ')
		return false;
	for (;;) {
		char end = t[strcspn(t, " \n")];
		if (b->n_above == CORDON_MARK_ABOVE || (end != ' ' && end != '\n') ||
		    !read_ids(&t, end, b->above[b->n_above++], 3))
			return false;
		if (end == '\n')
			return true;
	}
}

/* The mark at B->path read into B: its start (or, cut short, when it was
 * made) and its root (and its top's directories, read_dirs). */
static void read_mark(struct beside *b)
{
	int fd = open(b->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char text[MARK_SIZE];
	ssize_t got = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	text[got > 0 ? got : 0] = '\0';
	char *end = text;
	long long sec = got > 0 ? strtoll(text, &end, 10) : 0;
	long nsec = 0;
	if (end != text && *end == '.') {
		char *frac = end + 1;
		nsec = strtol(frac, &end, 10);
		if (end - frac != 9 || nsec < 0 || nsec > 999999999L)
			end = text; /* (not as written) */
	}
	struct stat st;
	if (end == text || *end != '\n') {
		sec = fd >= 0 && fstat(fd, &st) == 0 ? (long long)st.st_mtime : 0;
		nsec = 0;
		end = NULL;
	}
	b->at = (struct timespec){(time_t)sec, nsec};
	b->root[0] = '\0';
	char *nl = end ? strchr(end + 1, '\n') : NULL;
	if (nl && end[1] == '/' && (size_t)(nl - end - 1) < sizeof(b->root))
		snprintf(b->root, sizeof(b->root), "%.*s", (int)(nl - end - 1), end + 1);
	b->has_dirs = b->root[0] && read_dirs(nl + 1, b->dirs);
	const char *fourth = b->has_dirs ? strchr(nl + 1, '\n') : NULL;
	b->has_above = fourth && read_above(fourth + 1, b);
	const char *sess = strstr(text, "\nsession ");
	b->session[0] = '\0';
	if (sess && strlen(sess + 9) > CORDON_SESSION_ID_LEN &&
	    sess[9 + CORDON_SESSION_ID_LEN] == '\n') {
		memcpy(b->session, sess + 9, CORDON_SESSION_ID_LEN);
		b->session[CORDON_SESSION_ID_LEN] = '\0';
		if (!cordon_session_id_valid(b->session))
			b->session[0] = '\0';
	}
	if (fd >= 0)
		close(fd);
}

/* When the process PID started (seconds since the epoch), or -1. */
long long cordon_proc_started(pid_t pid)
{
	unsigned long long ticks;
	if (!alive(pid, &ticks))
		return -1;
	static long long boot = -1;
	if (boot < 0) {
		FILE *f = fopen("/proc/stat", "re");
		char line[256];
		while (f && fgets(line, sizeof(line), f))
			if (strncmp(line, "btime ", 6) == 0)
				boot = strtoll(line + 6, NULL, 10);
		if (f)
			(void)fclose(f); /* read only */
	}
	long hz = sysconf(_SC_CLK_TCK);
	return boot < 0 || hz <= 0 ? -1 : boot + (long long)(ticks / (unsigned long long)hz);
}

/* Whether S's keeper is still there: a process at its pid that started
 * by the session's start and is not in the session's cgroup (round 39c
 * F1: a survivor forked until a child of its own had the dead keeper's
 * pid, and no later session ended it). */
static bool keeper_alive(const struct cordon_session_info *s)
{
	long long t = s->keeper > 0 ? cordon_proc_started(s->keeper) : -1;
	if (t < 0 || t > s->started + 2)
		return false;
	if (!s->cgroup[0])
		return !cordon_userns_holds(s->keeper, s->userns);
	return !cordon_proc_in_cgroup(s->keeper, s->cgroup);
}

/* Whether the cgroup at PATH holds a process. */
static bool populated_now(const char *path)
{
	pid_t *pids = NULL;
	size_t n = 0;
	bool some = cordon_cgroup_pids(path, &pids, &n, NULL) == 0 && n > 0;
	free(pids);
	return some;
}

/* Whether session S has a process: in its cgroup, or (tracked without
 * one) in its user namespace or below it. */
static bool session_populated(const struct cordon_session_info *s)
{
	return s->cgroup[0] ? populated_now(s->cgroup) : cordon_userns_populated(s->userns);
}

/* WAIT milliseconds at most for the cgroup at PATH to be empty. */
static bool emptied(const char *path, int wait)
{
	for (int waited = 0; populated_now(path); waited += 10) {
		if (waited >= wait)
			return false;
		nanosleep(&(struct timespec){0, 10L * 1000 * 1000}, NULL);
	}
	return true;
}

/* The session ID, whose launcher is gone: 1 while it still has processes
 * (in the cgroup its record names or, tracked without one, in the user
 * namespace its record names: userns-track.c), 2 where its keeper is gone
 * too and root ended them now (the session's end, which the keeper would
 * have made: its record and socket directory go too), else 0. Decided
 * once a launch, and said then (round 39c F2: a launch asked several
 * times, each with its wait). */
static int session_survives(const char *id)
{
	static struct {
		char id[CORDON_SESSION_ID_LEN + 1];
		int result;
	} known[32];
	static size_t n_known;
	static bool waited;
	for (size_t i = 0; i < n_known; i++)
		if (strcmp(known[i].id, id) == 0)
			return known[i].result;
	struct cordon_session_info info;
	struct cordon_error ignored = {0};
	int result = 0;
	if (cordon_registry_read(id, &info, &ignored) == 0 && session_populated(&info)) {
		/* (Its keeper ends it as its launcher goes: a moment, waited
		 * for once a launch.) */
		bool keeper = keeper_alive(&info);
		if (keeper && !waited) {
			waited = true;
			for (int w = 0; w < 200 && keeper && session_populated(&info); w++) {
				nanosleep(&(struct timespec){0, 10L * 1000 * 1000}, NULL);
				keeper = keeper_alive(&info);
			}
		}
		if (!session_populated(&info))
			result = 0;
		/* (Ended by root only, whose registry and marks no session can
		 * write: an ordinary user's lie where XDG_STATE_HOME or HOME
		 * name, and a planted record could name another live session's
		 * cgroup or user namespace.) */
		else if (geteuid() != 0 || keeper || !info.cgroup[0] ||
			 cordon_cgroup_kill(info.cgroup, &ignored) < 0 ||
			 !emptied(info.cgroup, 2000))
			result = 1;
		else
			result = 2;
		if (result == 2) {
			(void)rmdir(info.cgroup);
			if (info.sockets[0])
				cordon_session_remove_socket_dir(info.sockets);
			cordon_registry_remove(id);
		}
		if (result)
			cordon_say(result == 2
					   ? "cordon: session %s (%s) lost its cordon and its "
					     "keeper (killed) while its processes ran: this "
					     "one ended them\n"
					   : "cordon: session %s (%s) lost its cordon (killed) and "
					     "its processes still run: what they change is judged "
					     "once they are gone; cordon kill %s ends them\n",
				   id, info.project[0] ? info.project : "-", id);
	}
	if (n_known < sizeof(known) / sizeof(known[0])) {
		snprintf(known[n_known].id, sizeof(known[n_known].id), "%s", id);
		known[n_known++].result = result;
	}
	return result;
}

/* EACH (with ARG) called for every mark and start record beside ROOT's
 * record; ROOT NULL: every mark in the registry, of any root. */
static void each_beside(const char *root, void (*each)(const struct beside *, void *), void *arg)
{
	cleanup_free char *record =
		cordon_sweep_record_path(root ? root : "/"); /* (NULL: its directory) */
	char *slash = record ? strrchr(record, '/') : NULL;
	if (!slash)
		return;
	*slash = '\0';
	const char *base = slash + 1;
	size_t pn = strlen(PENDING), sn = strlen(AT_START);
	DIR *d = opendir(record);
	for (struct dirent *de; d && (de = readdir(d));) {
		/* RECORD.pending-PID-START, RECORD.start-PID-START */
		const char *tail =
			root ? (strncmp(de->d_name, base, strlen(base)) == 0
					? de->d_name + strlen(base)
					: NULL)
			     : (strncmp(de->d_name, "sweep-", 6) == 0 ? strchr(de->d_name, '.')
								      : NULL);
		bool mark = tail && strncmp(tail, PENDING, pn) == 0;
		if (!tail || (!mark && (!root || strncmp(tail, AT_START, sn) != 0)))
			continue;
		char *end;
		long pid_l = strtol(tail + (mark ? pn : sn), &end, 10);
		if (pid_l <= 0 || pid_l > INT_MAX || *end != '-')
			continue;
		pid_t pid = (pid_t)pid_l;
		unsigned long long start = strtoull(end + 1, &end, 10);
		if (*end)
			continue;
		unsigned long long now_start;
		bool live = alive(pid, &now_start);
		char path[PATH_MAX + 300];
		snprintf(path, sizeof(path), "%s/%s", record, de->d_name);
		struct beside b = {.path = path, .mark = mark};
		b.mine = pid == getpid() && start == now_start;
		b.gone = !b.mine && (!live || start != now_start);
		if (mark)
			read_mark(&b);
		/* A launcher killed with its keeper (both by pid, or the OOM
		 * killer: they share memory) leaves the session's processes
		 * running: its mark stays a running session's while its cgroup
		 * holds one, so what they change later is judged (round 38b F1). */
		b.gone = b.gone && !(b.session[0] && session_survives(b.session) == 1);
		each(&b, arg);
	}
	if (d)
		closedir(d);
}

struct collect {
	struct timespec *since;
	struct timespec own; /* the session's own start */
	struct cordon_strv *done;
	bool killed;               /* a gone session's start is earlier than it */
	struct cordon_sweep *dirs; /* start_dirs: the mark's whose start SINCE is */
};

static void collect_one(const struct beside *b, void *arg)
{
	struct collect *c = arg;
	if (!b->mine && !b->gone)
		return; /* a session still running: its own sweep */
	/* (A record as a session started is removed with the marks.) This
	 * one's own mark holds where it judges from: earlier than its start
	 * where it found no record and another session ran (running_since). */
	/* (Of two with the same start, the one holding its directories:
	 * the other borrowed it, round 33f P3.) */
	bool tie = b->mark && b->at.tv_sec > 0 && b->at.tv_sec == c->since->tv_sec &&
		   b->at.tv_nsec == c->since->tv_nsec && b->has_dirs && !c->dirs->start_dirs.known;
	if (tie || (b->mark && b->at.tv_sec > 0 && !after(&b->at, c->since))) {
		*c->since = b->at;
		c->dirs->start_dirs.known = b->has_dirs;
		memcpy(c->dirs->start_dirs.id, b->dirs, sizeof(b->dirs));
		c->dirs->start_dirs.above_known = b->has_above;
		c->dirs->start_dirs.n_above = b->has_above ? b->n_above : 0;
		memcpy(c->dirs->start_dirs.above, b->above, sizeof(b->above));
	}
	c->killed =
		c->killed || (b->mark && b->gone && b->at.tv_sec > 0 && !after(&b->at, &c->own));
	(void)cordon_strv_push(c->done, b->path);
}

/* The marks of ROOT that are this process's or a gone one's, into DONE
 * (to remove once judged); the earliest start among them into
 * FROM->since (with its start_dirs): whether a gone one's was. */
static bool pending_collect(const char *root, struct cordon_sweep *from, struct cordon_strv *done)
{
	struct collect c = {&from->since, from->since, done, false, from};
	each_beside(root, collect_one, &c);
	return c.killed;
}

struct near_hidden {
	const char *root;
	struct cordon_others_hidden *out;
};

static void near_one(const struct beside *b, void *arg)
{
	struct near_hidden *n = arg;
	if (b->mark && !b->mine && b->root[0] &&
	    (cordon_path_under(b->root, n->root) || cordon_path_under(n->root, b->root)))
		mark_hidden(b->path, n->out);
}

/* The hidden paths of the other sessions whose marks lie in ROOT, or in
 * a root it lies in or holds, into OUT: killed ones (which a walk of ROOT
 * catches up with), and running ones (what it judges of theirs). */
static void hidden_near(const char *root, struct cordon_others_hidden *out)
{
	struct near_hidden n = {root, out};
	each_beside(NULL, near_one, &n);
}

static void others_free(struct cordon_others_hidden *o)
{
	ids_free(o->ids, o->list.n);
	cordon_strv_free(&o->list);
	o->ids = NULL;
	o->ids_cap = 0;
}

struct running {
	const char *root;
	const char *own; /* its record's name, after a slash */
	struct timespec *since;
};

static void earliest_running(const struct beside *b, void *arg)
{
	struct running *r = arg;
	if (!b->mark || b->mine || b->at.tv_sec <= 0 || after(&b->at, r->since))
		return;
	/* Another session's (running, or killed before its sweep: round 28b
	 * F2) in this root, or in a root this one lies in or holds (a mark of
	 * an earlier version's, with no root in it: only this root's). */
	const char *name = strrchr(b->path, '/');
	bool here = b->root[0]
			    ? strcmp(b->root, r->root) == 0
			    : name && strncmp(name, r->own, strlen(r->own)) == 0 &&
				      strncmp(name + strlen(r->own), PENDING, strlen(PENDING)) == 0;
	bool near = b->root[0] &&
		    (cordon_path_under(b->root, r->root) || cordon_path_under(r->root, b->root));
	if (here || near)
		*r->since = b->at;
}

/* ROOT had no record as this session started: what another session
 * running there made before this one started is not in one either, and
 * its own times are older than this start (round 27b F3a: the first
 * session in a project staged a .exrc in node_modules, which is not
 * judged, and ended; a second one, started before that end, moved the
 * package into place, and judged it from its own start). Such a session
 * judges from the earliest start of those running there, into *SINCE:
 * those in a root above or below it too (round 28 F1c), and those killed
 * before their sweep ran (F1b: a sweep that ended meanwhile took their
 * marks away). */
static void running_since(const char *root, struct timespec *since)
{
	cleanup_free char *record = cordon_sweep_record_path(root);
	const char *own = record ? strrchr(record, '/') : NULL;
	if (!own)
		return;
	struct running r = {root, own, since};
	each_beside(NULL, earliest_running, &r);
}

static void snapshot(struct cordon_sweep *s, const char *top);

/* PATH held as KIND, with ST (NULL: missing, inode 0) (see struct
 * cordon_sweep_held). Out of memory: not held, and not told. */
static void held_push(struct cordon_sweep *s, const char *path, char kind, const struct stat *st)
{
	struct cordon_sweep_held *nv =
		cordon_grow(s->held, &s->held_cap, s->n_held + 1, sizeof(*nv), 8);
	char *copy = nv ? strdup(path) : NULL;
	if (!copy)
		return;
	s->held = nv;
	s->held[s->n_held++] =
		(struct cordon_sweep_held){.path = copy,
					   .dev = st ? (unsigned long long)st->st_dev : 0,
					   .ino = st ? (unsigned long long)st->st_ino : 0,
					   .kind = kind,
					   .nlink = st ? (unsigned long long)st->st_nlink : 0,
					   .ctime = st ? CTIME(*st) : (struct timespec){0}};
}

/* PATH, a regular file guarded as KIND, kept with its inode (see struct
 * cordon_sweep_held); a directory kept read-only ('r') as 'g'. A
 * directory's mount stays while it does (renaming a new one over it needs
 * it empty), but not once another session removed it ('g'). */
static void hold(struct cordon_sweep *s, const char *path, char kind)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return;
	if (S_ISREG(st.st_mode))
		held_push(s, path, kind, &st);
	else if (kind == 'r' && S_ISDIR(st.st_mode))
		held_push(s, path, 'g', &st);
}

/* The files with a second name below DIR, a directory the guards keep
 * (.git/hooks, .vscode), DEPTH levels down, *BUDGET entries at most: held
 * as its kept files are, so that one written through its other name is
 * judged as the session ends (round 37d F3: a hook's hard link the user
 * made beside the project, written inside, ran at the next commit). One
 * name alone is kept by the mount, and is not held (a lstat each). */
static void hold_twice_below(struct cordon_sweep *s, const char *dir, int depth, int *budget)
{
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d)) && --*budget > 0;) {
		if (cordon_dot_or_dotdot(e->d_name))
			continue;
		cleanup_free char *path = NULL;
		struct stat st;
		if (asprintf(&path, "%s/%s", dir, e->d_name) < 0 || lstat(path, &st) < 0)
			continue;
		if (S_ISREG(st.st_mode) && st.st_nlink > 1)
			hold(s, path, 't');
		else if (S_ISDIR(st.st_mode) && depth > 1)
			hold_twice_below(s, path, depth - 1, budget);
	}
	if (d)
		closedir(d);
}

/* TOP's .config and mise, as they are (see cordon_sweep.mise_dirs). */
static void hold_mise_dirs(struct cordon_sweep *s, const char *top)
{
	static const char *const names[] = {".config", "mise", ".config/mise",
					    ".config/mise/conf.d"};
	for (size_t k = 0; k < sizeof(names) / sizeof(*names); k++) {
		struct stat st;
		if (!top_dir(top, names[k], &st))
			continue;
		struct cordon_sweep_held *nv = cordon_grow(s->mise_dirs, &s->mise_dirs_cap,
							   s->n_mise_dirs + 1, sizeof(*nv), 4);
		char *copy = NULL;
		if (nv && asprintf(&copy, "%s/%s", strcmp(top, "/") != 0 ? top : "", names[k]) < 0)
			copy = NULL;
		if (!copy)
			return; /* out of memory: judged whole */
		s->mise_dirs = nv;
		s->mise_dirs[s->n_mise_dirs++] =
			(struct cordon_sweep_held){.path = copy,
						   .dev = (unsigned long long)st.st_dev,
						   .ino = (unsigned long long)st.st_ino,
						   .kind = 'd'};
	}
}

/* The directory DIR, as ST, was there as the session started. */
static bool mise_dir_was(const struct cordon_sweep *s, const char *dir, const struct stat *st)
{
	for (size_t i = 0; i < s->n_mise_dirs; i++)
		if (strcmp(s->mise_dirs[i].path, dir) == 0)
			return s->mise_dirs[i].dev == (unsigned long long)st->st_dev &&
			       s->mise_dirs[i].ino == (unsigned long long)st->st_ino;
	return false;
}

/* G, a protected path: its name is one of the session's local names
 * (cordon_sweep.local) if it lies at a root's top, and either comes from
 * protected_paths (VS Code's .vscode, Claude Code's .claude, .mcp.json,
 * rustup's rust-toolchain.toml, mise's .mise.toml, .envrc: an editor, an
 * agent or a tool started in a subdirectory, or opened on it, obeys them
 * there too: round 10) or is one an editor obeys in whatever directory it
 * starts in. Vim (with 'exrc') runs .exrc and .vimrc there, without
 * asking; Neovim asks first (its trust list). */
static const char *const editors[] = {".exrc",   "_exrc",     ".vimrc", "_vimrc",
				      ".nvimrc", ".nvim.lua", NULL};

/* NAME (N bytes) is a name of two judged below a top: one whose first
 * is not a repository's (its own judge has .git/hooks, .hg/hgrc). */
static bool local_pair(const char *name, size_t n)
{
	const char *slash = memchr(name, '/', n);
	return slash && slash > name && slash + 1 < name + n &&
	       !memchr(slash + 1, '/', (size_t)(name + n - slash - 1)) &&
	       !((slash - name == 4 && strncasecmp(name, ".git", 4) == 0) ||
		 (slash - name == 3 && strncasecmp(name, ".hg", 3) == 0));
}

static int add_local(struct cordon_sweep *s, const struct cordon_guard *g)
{
	const char *path = g->path;
	const char *slash = strrchr(path, '/');
	if (!slash || !slash[1])
		return 0;
	bool local = strncmp(g->source, "protected_paths", 15) == 0;
	size_t sn = strlen(g->source), fn = strlen(CORDON_MISE_FOUND);
	if (local && sn > fn && strcmp(g->source + sn - fn, CORDON_MISE_FOUND) == 0 &&
	    cordon_strv_push(&s->found_envs, path) < 0)
		return -ENOMEM;
	for (size_t i = 0; !local && editors[i]; i++)
		local = strcmp(slash + 1, editors[i]) == 0;
	for (size_t k = 0; local && k < s->n_own; k++) {
		const char *root = s->roots.v[k];
		size_t rn = strlen(root);
		if (rn == (size_t)(slash - path) && strncmp(root, path, rn) == 0)
			return cordon_strv_push_new(&s->local, slash + 1);
		/* (mise/config.toml: judged where its directory lies below
		 * the top, is_local.) */
		if (strncmp(root, path, rn) == 0 && path[rn] == '/' &&
		    local_pair(path + rn + 1, strlen(path + rn + 1)))
			return cordon_strv_push_new(&s->local, path + rn + 1);
	}
	return 0;
}

/* G, a protected path from protected_paths at or below one of S's own
 * roots: its name there (.irbrc, .vscode), into S's protected_names: an
 * index entry of that name, in any repository the sweep keeps, is one
 * git checkout writes where a program obeys it (sweep-tracked.c; round
 * 53e F1, F2: one missing as the session started had no guard, and a
 * nested repository's .irbrc none either). */
static int add_protected_name(struct cordon_sweep *s, const struct cordon_guard *g)
{
	if (strncmp(g->source, "protected_paths", 15) != 0)
		return 0;
	for (size_t k = 0; k < s->n_own; k++) {
		const char *root = s->roots.v[k];
		size_t rn = strcmp(root, "/") ? strlen(root) : 0;
		if (strncmp(root, g->path, rn) == 0 && g->path[rn] == '/' && g->path[rn + 1])
			return cordon_strv_push_new(&s->protected_names, g->path + rn + 1);
	}
	return 0;
}

/* The local names judged below a shared directory's top (/tmp/work is
 * no one's project, and has no protected_paths of its own): S's own,
 * the editors', and the default protected_paths' names at a top (.envrc,
 * .vscode, .claude, mise.toml, ...). 0 or -ENOMEM. */
static int add_shared_local(struct cordon_sweep *s)
{
	int e = cordon_strv_copy(&s->shared_local, &s->local);
	for (size_t i = 0; e >= 0 && editors[i]; i++)
		e = cordon_strv_push_new(&s->shared_local, editors[i]);
	for (size_t i = 0; e >= 0 && cordon_default_protected[i]; i++) {
		const char *name = cordon_default_protected[i];
		size_t n = strcspn(name, "/"), len = strlen(name);
		if (len && name[len - 1] == '/')
			len--;
		if (n >= len || local_pair(name, len)) {
			cleanup_free char *top = strndup(name, n >= len ? n : len);
			e = top ? cordon_strv_push_new(&s->shared_local, top) : -ENOMEM;
		}
	}
	return e;
}

/* P's names looked for above, copied into S. 0 or -ENOMEM. */
static int copy_above(struct cordon_sweep *s, const struct cordon_policy *p)
{
	if (!p->n_above)
		return 0;
	if (!(s->above = calloc(p->n_above, sizeof(*s->above))))
		return -ENOMEM;
	for (size_t i = 0; i < p->n_above; i++, s->n_above++) {
		if (!(s->above[i] =
			      (struct cordon_above){strdup(p->above[i].dir), p->above[i].missing})
			     .dir)
			return -ENOMEM;
		hold_mise_dirs(s, s->above[i].dir);
	}
	return 0;
}

/* The directory the sweep's records and the notes are kept in
 * (cordon_sweep_record_path's), malloc'd; NULL: there is none (no
 * registry: no home). */
static char *records_dir(void);

unsigned long long cordon_sweep_own_start(void)
{
	return own_start_time();
}

bool cordon_sweep_running(pid_t pid, unsigned long long start)
{
	unsigned long long now;
	return alive(pid, &now) && (now == start || !now);
}

static char *records_dir(void)
{
	char *any = cordon_sweep_record_path("/");
	char *slash = any ? strrchr(any, '/') : NULL;
	if (!slash) {
		free(any);
		return NULL;
	}
	*slash = '\0';
	return any;
}

/* DIR and each directory above it made (0700 where missing). */
static int make_dirs_to(char *dir)
{
	for (char *p = strchr(dir + 1, '/');; p = strchr(p + 1, '/')) {
		if (p)
			*p = '\0';
		int e = mkdir(dir, 0700) < 0 && errno != EEXIST ? -errno : 0;
		if (p)
			*p = '/';
		if (e < 0)
			return e;
		if (!p)
			return 0;
	}
}

/* For an ordinary user whose passwd home is a directory of theirs, the
 * state directory below it (.local/state/cordon/sessions), where
 * records_dir follows XDG_STATE_HOME and HOME (malloc'd, made if
 * missing; NULL: none). The notes later
 * launches trust (what sessions may write, the configs read by name,
 * the held configs of a killed launcher) are kept there too and read from
 * both: a launch with another XDG_STATE_HOME or HOME (a terminal that
 * sets one, a harness that does not) saw none of them, followed a link an
 * earlier session laid, and read a config it changed (round 37c F3). */
static char *uid_records_dir_now(void);

/* NOW's answer, found once a process and user (*FOUND, for *UID): a
 * launch asks for each path it judges. A copy (malloc'd), or NULL. */
static char *found_once(char **found, uid_t *uid, char *(*now)(void))
{
	if (*uid != geteuid()) {
		free(*found);
		*found = now();
		*uid = geteuid();
	}
	return *found ? strdup(*found) : NULL;
}

static char *uid_records_dir(void)
{
	if (geteuid() == 0 || cordon_sandbox_nested())
		return NULL;
	static char *found;
	static uid_t found_uid = (uid_t)-1;
	return found_once(&found, &found_uid, uid_records_dir_now);
}

/* HOME's .local/state/cordon/sessions (malloc'd), made where missing,
 * where HOME is a directory of the user's and so is that; else NULL. */
static char *sessions_below(const char *home)
{
	struct stat st;
	char *dir = NULL;
	if (!home || home[0] != '/' || lstat(home, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || asprintf(&dir, "%s/.local/state/cordon/sessions", home) < 0)
		return NULL;
	if (make_dirs_to(dir) < 0 || lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid()) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* (Its own path even where XDG_STATE_HOME or HOME lead there too: that
 * one a session may flip to a link elsewhere between a comparison and the
 * write, round 39d G2. Then both are written, the same.) */
static char *uid_records_dir_now(void)
{
	cleanup_free char *home = cordon_passwd_home(geteuid());
	return sessions_below(home);
}

/* The directories the notes are kept in, into DIRS (malloc'd, NULL where
 * none): records_dir's, then uid_records_dir's. How many there are. */
static int notes_dirs(char *dirs[2])
{
	dirs[0] = records_dir();
	dirs[1] = uid_records_dir();
	return (dirs[0] != NULL) + (dirs[1] != NULL);
}

static void notes_dirs_free(char *dirs[2])
{
	free(dirs[0]);
	free(dirs[1]);
}

/* For an ordinary user whose XDG_STATE_HOME leads records_dir elsewhere,
 * the state directory below $HOME a launch without the variable uses
 * (malloc'd, made if missing; NULL where it is one of DIRS, or HOME is no
 * directory of the user's): the notes a later launch only gains by (what
 * sessions may write, and the XDG directories launches had) are made and
 * read there too. Round 52a F1 and F3: a user with no passwd home on disk
 * launched with XDG_STATE_HOME=~/dotfiles/state and without it, and each
 * launch found none of the other's notes. */
static char *home_records_dir_now(void);

static char *home_records_dir(char *const dirs[2])
{
	static char *found;
	static uid_t found_uid = (uid_t)-1;
	char *dir = found_once(&found, &found_uid, home_records_dir_now);
	for (int k = 0; dir && k < 2; k++)
		if (dirs[k] && strcmp(dirs[k], dir) == 0) {
			free(dir);
			return NULL;
		}
	return dir;
}

static char *home_records_dir_now(void)
{
	return geteuid() == 0 || cordon_sandbox_nested() ? NULL : sessions_below(getenv("HOME"));
}

void cordon_sweep_notes_dirs(char *dirs[3])
{
	notes_dirs(dirs);
	dirs[2] = home_records_dir(dirs);
}

/* DATA (LEN bytes) made the file NAME in the directory D whole: written
 * aside (NAME.tmp-PID), then renamed over it. 0, or -errno (nothing is
 * left aside). */
static int write_whole_at(int d, const char *name, const void *data, size_t len)
{
	char tmp[NAME_MAX + 32];
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp-%d", name, (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	int fd = openat(d, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	int w = cordon_write_full(fd, data, len);
	if (close(fd) < 0 && w >= 0)
		w = -errno;
	if (w >= 0 && renameat(d, tmp, d, name) < 0)
		w = -errno;
	if (w < 0)
		(void)unlinkat(d, tmp, 0);
	return w;
}

/* Each directory P lets the session write (resolved; not in /proc or
 * /dev) noted in the registry before the command runs, as WROTE-HASH
 * holding its path (made whole: written aside, then renamed), where it is
 * not yet: what a later launch's walk counts as a directory a session may
 * have laid a link in (cordon_sweep_noted). Apart from the
 * sweep's records: those are of its roots only (not a preset's ~/.npm,
 * 35c V2), not made where no sweep applies (V4), and saved as a session
 * ends, which a full disk fails (V1). Fails the launch where a note
 * cannot be made (the disk full, a read-only registry): a later session
 * would follow the links this one laid. Not inside another session (its
 * registry is out of reach, and the outer session noted more). */
static int note_written_in(const struct cordon_policy *p, const char *any,
			   struct cordon_error *err);

static int note_written(const struct cordon_policy *p, struct cordon_error *err)
{
	if (!p->sandbox || cordon_sandbox_nested())
		return 0;
	char *dirs[2];
	notes_dirs(dirs);
	/* (The uid's own as well, best effort: uid_records_dir.) */
	struct cordon_error ignored = {0};
	int e = dirs[0] ? note_written_in(p, dirs[0], err) : 0;
	if (e >= 0 && dirs[1])
		(void)note_written_in(p, dirs[1], &ignored);
	cleanup_free char *extra = e >= 0 ? home_records_dir(dirs) : NULL;
	if (extra)
		(void)note_written_in(p, extra, &ignored);
	notes_dirs_free(dirs);
	return e; /* (no registry, no home: none is kept at all) */
}

/* note_written, in the state directory ANY. */
static int note_written_in(const struct cordon_policy *p, const char *any, struct cordon_error *err)
{
	int d = open(any, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d < 0)
		return cordon_err(err, errno, "%s: %s", any, strerror(errno));
	int e = 0;
	for (size_t i = 0; e >= 0 && i < p->n_rules; i++) {
		const struct cordon_rule *r = &p->rules[i];
		if (!(r->access & CORDON_ACCESS_WRITE) || cordon_path_under(r->path, "/proc") ||
		    cordon_path_under(r->path, "/dev"))
			continue;
		char real[PATH_MAX], name[64];
		struct stat st;
		/* (A rule opened following no link is granted at its own path
		 * or not at all: that path, whatever lies there now. Followed,
		 * a link swapped in meanwhile would note where it leads, a
		 * directory no session could write: round 36c F4.) */
		if (r->nofollow && strlen(r->path) < sizeof(real))
			snprintf(real, sizeof(real), "%s", r->path);
		else if (!realpath(r->path, real) || stat(real, &st) < 0 || !S_ISDIR(st.st_mode))
			continue; /* (a file, or missing: no name is made in it) */
		const char *canon = real;
		while (canon[0] == '/' && canon[1] == '/')
			canon++; /* (realpath keeps HOME's //home/me: as the walk names it) */
		snprintf(name, sizeof(name), WROTE "%016llx", dir_hash(canon));
		if (faccessat(d, name, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			continue;
		int w = write_whole_at(d, name, canon, strlen(canon) + 1);
		int why = -w;
		if (w < 0) {
			e = cordon_err(err, why,
				       "%s/%s: cannot note that sessions may write %s (a later "
				       "session would follow a link this one lays there): %s",
				       any, name, canon, strerror(why));
		}
	}
	close(d);
	return e;
}

#define CONFIGS_NAME "configs"
#define CONFIGS_MAX  128

/* The entries of the list NAME in the state directory D (each NUL-ended,
 * the newest last) that start with FIRST, into OUT. 0, or -ENOMEM. */
static int list_read(int d, const char *name, char first, struct cordon_strv *out)
{
	int fd = openat(d, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char buf[CONFIGS_MAX * (PATH_MAX + 1)];
	size_t n = 0;
	ssize_t got;
	while (n < sizeof(buf) - 1 && (got = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += (size_t)got;
	close(fd);
	buf[n] = '\0';
	for (size_t at = 0; at < n; at += strlen(buf + at) + 1)
		if (buf[at] == first && cordon_strv_push_new(out, buf + at) < 0)
			return -ENOMEM;
	return 0;
}

/* The config files sessions read by name (--config, $CORDON_CONFIG), from
 * the state directory's "configs". One gone is kept (round 37e F2: its
 * directory moved away and made again, the config made anew was not
 * judged). */
static int configs_read(int d, struct cordon_strv *out)
{
	return list_read(d, CONFIGS_NAME, '/', out);
}

/* Of DIRS (notes_dirs), where the notes later launches act on (the
 * configs list, a killed launcher's held configs) are read from: an
 * ordinary user's below the passwd home (a directory of theirs), by its
 * own path, never one XDG_STATE_HOME or HOME name, even where that leads
 * there (round 39b F3: one flipped between a link to it and a directory
 * of planted notes passed a comparison of the two, then was read by its
 * name); root's, and a nested launch's, state directory. Where an
 * ordinary user has no such home, the state directory's, which may lie
 * where a session writes: *TRUSTED false. */
static const char *notes_read_dir(char *const dirs[2], bool *trusted)
{
	*trusted = dirs[1] || geteuid() == 0 || cordon_sandbox_nested();
	return dirs[1] ? dirs[1] : dirs[0];
}

/* The configs list into LIST (notes_read_dir's; each is written to
 * both): an entry planted in one XDG_STATE_HOME or HOME name, which may
 * lie where a session writes, had the files it named judged (round 38e
 * H1). */
static void configs_read_all(struct cordon_strv *list)
{
	char *dirs[2];
	notes_dirs(dirs);
	bool trusted;
	const char *from = notes_read_dir(dirs, &trusted);
	int d = from ? open(from, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (d >= 0) {
		(void)configs_read(d, list); /* (out of memory: what was read) */
		close(d);
	}
	notes_dirs_free(dirs);
}

/* NAME added to LIST, the list in D, rewritten whole and renamed into
 * place: the newest CONFIGS_MAX. */
static void list_add(int d, const char *file, struct cordon_strv *list, const char *name)
{
	if (cordon_strv_contains(list, name))
		return;
	size_t from = list->n >= CONFIGS_MAX ? list->n - CONFIGS_MAX + 1 : 0;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return;
	bool ok = true;
	for (size_t i = from; ok && i < list->n; i++)
		ok = fwrite(list->v[i], 1, strlen(list->v[i]) + 1, f) == strlen(list->v[i]) + 1;
	ok = ok && fwrite(name, 1, strlen(name) + 1, f) == strlen(name) + 1;
	if (fclose(f) == 0 && ok && text && write_whole_at(d, file, text, len) == 0)
		(void)cordon_strv_push(list, name);
	free(text);
}

static void configs_add(int d, struct cordon_strv *list, const char *name)
{
	list_add(d, CONFIGS_NAME, list, name);
}

void cordon_sweep_note_config(const char *path)
{
	/* As named (made absolute, not resolved) and where it leads: a link
	 * on the way repointed leads the name elsewhere (round 37e F1). */
	cleanup_free char *canon = realpath(path, NULL);
	cleanup_free char *named = NULL;
	char cwd[PATH_MAX];
	if (path[0] == '/') {
		named = cordon_path_lexical(path);
	} else if (getcwd(cwd, sizeof(cwd)) && asprintf(&named, "%s/%s", cwd, path) >= 0) {
		char *lex = cordon_path_lexical(named);
		free(named);
		named = lex;
	}
	char *dirs[2];
	notes_dirs(dirs);
	for (int k = 0; k < 2; k++) {
		struct cordon_strv list = {0};
		int d = dirs[k] ? open(dirs[k], O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		if (d >= 0 && configs_read(d, &list) >= 0) {
			if (named)
				configs_add(d, &list, named);
			if (canon)
				configs_add(d, &list, canon);
		}
		if (d >= 0)
			close(d);
		cordon_strv_free(&list);
	}
	notes_dirs_free(dirs);
}

/* The XDG base directories launches were started with ("XDG_CONFIG_HOME=
 * /home/u/dotfiles/config", each NUL-ended, the newest last), where the
 * user moved one: a launch started without the variable (an IDE's task,
 * cron) guards those too (round 51e F2: one started in ~/work, above the
 * config directory ~/work/dotfiles/config, wrote cordon/config.json and
 * git/config there, two levels below its project, where nothing it could
 * see told that directory for one). */
#define XDG_HOMES_NAME "xdg-homes"

/* Where the list is kept: notes_dirs', and below $HOME (which a launch
 * without XDG_STATE_HOME reads), into ALL (malloc'd, NULL where none).
 * Test builds: CORDON_TEST_XDG_HOMES names the one directory instead (a
 * test's own: root's list is the machine's, and a config directory a test
 * notes would be guarded in the suite's other sessions meanwhile). */
static void xdg_dirs(char *all[3])
{
	all[0] = all[1] = all[2] = NULL;
#ifdef CORDON_TEST_HOOKS
	const char *test = getenv("CORDON_TEST_XDG_HOMES");
	if (test && test[0] == '/') {
		all[0] = strdup(test);
		return;
	}
	/* (And root's is none without it: the suite's sessions that set
	 * XDG_CONFIG_HOME would note their worlds' there for all.) */
	if (geteuid() == 0)
		return;
#endif
	char *dirs[2];
	notes_dirs(dirs);
	all[2] = home_records_dir(dirs);
	all[0] = dirs[0];
	all[1] = dirs[1];
}

void cordon_sweep_note_xdg(char *(*getenv_fn)(const char *))
{
	static const char *const vars[] = {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
					   "XDG_CACHE_HOME"};
	struct cordon_strv add = {0};
	for (size_t i = 0; i < ARRAY_SIZE(vars); i++) {
		const char *v = getenv_fn ? getenv_fn(vars[i]) : NULL;
		cleanup_free char *plain = v && v[0] == '/' ? cordon_path_lexical(v) : NULL;
		char *entry = NULL;
		if (plain && strcmp(plain, "/") != 0 && strlen(plain) < PATH_MAX &&
		    (asprintf(&entry, "%s=%s", vars[i], plain) < 0 ||
		     cordon_strv_push_take(&add, entry) < 0))
			break;
	}
	char *all[3] = {NULL, NULL, NULL};
	if (add.n && !cordon_sandbox_nested())
		xdg_dirs(all);
	for (int k = 0; k < 3; k++) {
		struct cordon_strv list = {0};
		int d = all[k] ? open(all[k], O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		if (d >= 0 && list_read(d, XDG_HOMES_NAME, 'X', &list) >= 0)
			for (size_t i = 0; i < add.n; i++)
				list_add(d, XDG_HOMES_NAME, &list, add.v[i]);
		if (d >= 0)
			close(d);
		cordon_strv_free(&list);
		free(all[k]);
	}
	cordon_strv_free(&add);
}

/* The newest noted directories a launch guards, of each variable: each
 * costs it what the variable does (a CI's per-job XDG_CONFIG_HOME left
 * behind would otherwise add up). */
#define XDG_KNOWN_MAX 8

int cordon_sweep_known_xdg(struct cordon_strv *out)
{
	/* (Each list, trusted or not: one planted where a session writes
	 * only guards more.) */
	char *all[3];
	xdg_dirs(all);
	struct cordon_strv noted = {0};
	int e = 0;
	for (int k = 0; e >= 0 && k < 3; k++) {
		int d = all[k] ? open(all[k], O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		if (d >= 0) {
			e = list_read(d, XDG_HOMES_NAME, 'X', &noted);
			close(d);
		}
	}
	for (int k = 0; k < 3; k++)
		free(all[k]);
	/* Those still directories, the newest first, XDG_KNOWN_MAX a
	 * variable. */
	for (size_t i = noted.n; e >= 0 && i-- > 0;) {
		const char *v = strchr(noted.v[i], '=');
		size_t vn = v ? (size_t)(v - noted.v[i]) : 0, same = 0;
		for (size_t j = 0; v && j < out->n; j++)
			same += strncmp(out->v[j], noted.v[i], vn + 1) == 0;
		struct stat st;
		if (v && same < XDG_KNOWN_MAX && stat(v + 1, &st) == 0 && S_ISDIR(st.st_mode))
			e = cordon_strv_push_new(out, noted.v[i]);
	}
	cordon_strv_free(&noted);
	return e;
}

/* The config files later sessions read by name that P's session may write
 * and does not keep read-only itself (the one it read it keeps): held as
 * they are ('c'), judged as it ends (round 37c F1: a session started with
 * the default config rewrote the project's cordon.json, and the next
 * session read with it obeyed "enabled": false without a word). */
static void hold_configs(struct cordon_sweep *s, const struct cordon_policy *p,
			 const struct cordon_strv *guarded)
{
	/* (And what a config first read while it runs is judged by, as it
	 * ends: judge_late_configs.) */
	this_second(&s->configs_since);
	for (size_t i = 0; i < p->n_rules; i++)
		if (p->rules[i].access & CORDON_ACCESS_WRITE)
			(void)cordon_strv_push(&s->config_write, p->rules[i].path);
	for (size_t i = 0; i < guarded->n; i++)
		(void)cordon_strv_push(&s->config_kept, guarded->v[i]);
	struct cordon_strv list = {0};
	configs_read_all(&list);
	for (size_t i = 0; i < list.n; i++) {
		const char *c = list.v[i];
		bool kept = false;
		for (size_t j = 0; !kept && j < guarded->n; j++)
			kept = cordon_path_under(c, guarded->v[j]);
		if (kept || !(cordon_policy_access(p, c, NULL) & CORDON_ACCESS_WRITE))
			continue;
		/* What the name leads to, as a launch reading it would (a link
		 * repointed meanwhile leads elsewhere); missing (inode 0), one
		 * made meanwhile counts as changed. */
		struct stat st;
		held_push(s, c, 'c', stat(c, &st) == 0 ? &st : NULL);
	}
	cordon_strv_free(&list);
}

static int disarm(const struct cordon_sweep *s, const char *path, const char *head, const char *why,
		  struct cordon_strv *said);

/* A note of one session's held configs, beside the configs list:
 * CONFIGS_HELD PID-START, after the launcher that judges them. */
#define CONFIGS_HELD     CONFIGS_NAME ".held-"
#define CONFIGS_HELD_MAX (1024L * 1024)

/* Whether the config H held ('c') is not what the session found: another
 * file, or one changed (its ctime), or one made where there was none. */
static bool config_changed(const struct cordon_sweep_held *h)
{
	struct stat st, lst;
	/* (A name that leads nowhere now is a link laid or repointed there:
	 * to a file a later session makes, or /proc/self/cwd/x, round 38f
	 * H2.) */
	if (stat(h->path, &st) < 0)
		return lstat(h->path, &lst) == 0;
	return (unsigned long long)st.st_dev != h->dev || (unsigned long long)st.st_ino != h->ino ||
	       CTIME(st).tv_sec != h->ctime.tv_sec || CTIME(st).tv_nsec != h->ctime.tv_nsec;
}

/* TEXT (LEN bytes) written to DIR's note of this launcher's held configs
 * (written aside, then renamed), its path into *PATH (malloc'd). 0, or
 * -errno. */
static int write_held_note(const char *dir, const char *text, size_t len, char **path)
{
	char name[64];
	snprintf(name, sizeof(name), CONFIGS_HELD "%d-%llu", (int)getpid(), own_start_time());
	int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int e = d < 0 ? -errno : write_whole_at(d, name, text, len);
	if (d >= 0)
		close(d);
	if (e == 0 && asprintf(path, "%s/%s", dir, name) < 0)
		e = -ENOMEM; /* (written, and not removed as it ends: judged later) */
	if (e < 0)
		*path = NULL;
	return e;
}

/* S's held configs ('c'), with its session's id and the paths P lets it
 * write (each field NUL-ended: "s" ID, "t" SEC:NSEC its start, "w" PATH,
 * "k" PATH it keeps read-only, "c" PATH DEV:INO:SEC:NSEC, and "h" DIR
 * TEXT, a module git dir's HEAD as it started), noted in the
 * state directory before the command runs (written aside, then renamed;
 * in the uid's own too, best effort) and removed as it ends: a launcher killed before
 * then (kill -9, the OOM killer) never judges them, and a later launch
 * does (cordon_sweep_judge_killed; round 37e F3). Fails the launch where
 * it cannot be made: a later session would read the config unjudged. */
static int note_held_configs(struct cordon_sweep *s, const struct cordon_policy *p,
			     struct cordon_error *err)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_held; i++)
		n += s->held[i].kind == 'c';
	/* (Also where none is held: a config first read while it runs is
	 * judged by its change time, round 38d M2.) */
	char *dirs[2] = {NULL, NULL};
	const char *hd, *ht;
	size_t hn, heads = cordon_guard_heads(&hd, &ht, &hn, SIZE_MAX);
	if ((n || s->config_write.n || heads) && !cordon_sandbox_nested())
		notes_dirs(dirs);
	const char *dir = dirs[0];
	if (!dir) {
		notes_dirs_free(dirs);
		return 0; /* none to judge, inside another session, or no state directory */
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		notes_dirs_free(dirs);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	fprintf(f, "s%c%s%ct%c%llu:%llu%c", 0, p->session ? p->session : "", 0, 0,
		(unsigned long long)s->configs_since.tv_sec,
		(unsigned long long)s->configs_since.tv_nsec, 0);
	for (size_t i = 0; i < p->n_rules; i++)
		if (p->rules[i].access & CORDON_ACCESS_WRITE)
			fprintf(f, "w%c%s%c", 0, p->rules[i].path, 0);
	for (size_t i = 0; i < s->config_kept.n; i++)
		fprintf(f, "k%c%s%c", 0, s->config_kept.v[i], 0);
	for (size_t i = 0; i < s->n_held; i++) {
		const struct cordon_sweep_held *h = &s->held[i];
		if (h->kind == 'c')
			fprintf(f, "c%c%s%c%llu:%llu:%llu:%llu%c", 0, h->path, 0, h->dev, h->ino,
				(unsigned long long)h->ctime.tv_sec,
				(unsigned long long)h->ctime.tv_nsec, 0);
	}
	/* The module git dirs' HEADs, put back by a later launch where this
	 * one is killed before its end (47c P1 left). */
	for (size_t i = 0; i < heads && cordon_guard_heads(&hd, &ht, &hn, i); i++)
		fprintf(f, "h%c%s%c%.*s%c", 0, hd, 0, (int)hn, ht, 0);
	int e = fclose(f) == 0 && text ? 0 : -ENOMEM;
	if (e == 0)
		e = write_held_note(dir, text, len, &s->held_note);
	if (e < 0)
		cordon_err(err, -e,
			   "%s: cannot note the config files this session may write, or its "
			   "submodules' HEADs (were its launcher killed, a later session would "
			   "read the configs unjudged, or not guard the submodules): %s",
			   dir, strerror(-e));
	/* (And in the uid's own, best effort: uid_records_dir.) */
	if (e == 0 && dirs[1])
		(void)write_held_note(dirs[1], text, len, &s->held_note2);
	free(text);
	notes_dirs_free(dirs);
	return e;
}

static int judge_late_configs(const struct cordon_sweep *s, const char *head,
			      struct cordon_strv *said);
static bool late_changed(const struct cordon_sweep *s, const char *c);

/* Whether PATH is in LIST (the configs read by name) and is a file or a
 * link (one leading nowhere too: round 38f H2), not a directory: what a
 * killed launcher's note may have moved aside. */
static bool listed_config(const struct cordon_strv *list, const char *path)
{
	struct stat st;
	return cordon_strv_contains(list, path) && lstat(path, &st) == 0 &&
	       (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
}

/* A note read where a session may have planted it: an ordinary user with
 * no home directory of theirs (as /etc/passwd names it) keeps notes only
 * where XDG_STATE_HOME or HOME name, which may lie in a project. Acted
 * on, a planted one had the launch move any file of the user's aside
 * (round 38f M1); so nothing is moved, the note stays, and a launch that
 * reads by name a config it says changed is refused. */
struct untrusted {
	const char *note;        /* its path */
	struct timespec written; /* its change time, which no session sets */
	const char *named;       /* the config this launch reads by name */
	bool keep;               /* it names a changed config: kept */
	char *refuse;            /* the one this launch reads (malloc'd) */
};

/* PATH's directory resolved, and its last name (malloc'd): the name a
 * link laid at PATH does not change (round 39b F1: compared as text, a
 * config named through a linked directory, or /proc/self/cwd, was not
 * the one the note named once the session made it a link). */
static char *resolved_name(const char *path)
{
	cleanup_free char *copy = strdup(path);
	char *slash = copy ? strrchr(copy, '/') : NULL;
	const char *base = slash ? slash + 1 : copy;
	if (!copy || !*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return NULL;
	if (slash)
		*slash = '\0';
	cleanup_free char *dir = realpath(!slash ? "." : slash == copy ? "/" : copy, NULL);
	char *out;
	return dir && asprintf(&out, "%s/%s", strcmp(dir, "/") ? dir : "", base) >= 0 ? out : NULL;
}

/* Whether the config this launch reads by name (NAMED) is CONFIG: the
 * same name in the same directory, or leading to the same file. */
static bool same_config(const char *named, const char *config)
{
	cleanup_free char *a = resolved_name(named), *b = resolved_name(config);
	if (a && b && strcmp(a, b) == 0)
		return true;
	struct stat x, y;
	return stat(named, &x) == 0 && stat(config, &y) == 0 && x.st_dev == y.st_dev &&
	       x.st_ino == y.st_ino;
}

/* CONFIG is in U's note, changed since its session started (H: its held
 * identity, NULL for one first read while it ran). Counted where the file
 * at that name is another than the one held (through a directory renamed
 * into place or a link on the way repointed too: round 39d G1), or
 * changed after the note was written (before it no session of its ran:
 * round 39b F2, a planted note claiming a start of 0): then the note is
 * kept, and this launch refused if it reads CONFIG. */
static void untrusted_changed(struct untrusted *u, const char *config,
			      const struct cordon_sweep_held *h)
{
	struct stat st, lst;
	bool other = h && (stat(config, &st) < 0 || (unsigned long long)st.st_dev != h->dev ||
			   (unsigned long long)st.st_ino != h->ino);
	if (!other && !((lstat(config, &lst) == 0 && after(&CTIME(lst), &u->written)) ||
			(stat(config, &st) == 0 && after(&CTIME(st), &u->written))))
		return;
	u->keep = true;
	if (!u->refuse && u->named && same_config(u->named, config))
		u->refuse = strdup(config);
}

/* The record at *AT of a note's TEXT (LEN bytes, note_held_configs's:
 * a tag, then its NUL-ended fields, two for "c" and "h"): its TAG, its
 * fields F1 and F2 (NULL but for those; *N2 its length), *AT past it.
 * False at the end, or where the rest is no record. */
static bool note_record(const char *text, size_t len, size_t *at, char *tag, const char **f1,
			const char **f2, size_t *n2)
{
	const char *t = text + *at, *a = *at < len ? memchr(t, '\0', len - *at) : NULL;
	if (!a || a - t != 1 || (size_t)(++a - text) >= len)
		return false;
	const char *end = memchr(a, '\0', len - (size_t)(a - text));
	if (!end)
		return false;
	*at = (size_t)(end - text) + 1;
	*tag = *t;
	*f1 = a;
	*f2 = NULL;
	*n2 = 0;
	if (*t != 'c' && *t != 'h')
		return true;
	const char *end2 = *at < len ? memchr(text + *at, '\0', len - *at) : NULL;
	if (!end2)
		return false;
	*f2 = text + *at;
	*n2 = (size_t)(end2 - *f2);
	*at = (size_t)(end2 - text) + 1;
	return true;
}

/* The module git dirs whose HEAD a launcher kept, found by
 * cordon_sweep_judge_killed, each with why a session is refused over it:
 * - BLOCKED: a killed launcher's that could not be put back, or whose
 *   note may be a session's; cordon_sweep_start refuses a session whose
 *   write rules reach one (a launch elsewhere goes on);
 * - LIVE: each one a launcher still running kept (round 48b F2: a session
 *   started while the one that removed its HEAD ran did not guard it, and
 *   wrote its config). cordon_sweep_start refuses a session whose own plan
 *   passed one over for want of a HEAD (cordon_guard_passed_over): judged
 *   by what the plan itself saw, as a session toggling HEAD won the race
 *   between an earlier look and the plan (round 48c F1), and never for a
 *   directory the plan did not look at (round 48c F2: a planted note
 *   naming one in /tmp refused launches in every project). */
struct held_heads {
	struct cordon_strv dirs, why;
};
static struct held_heads heads_blocked, heads_live;

static void hold_head(struct held_heads *h, const char *dir, char *why)
{
	if (!why || cordon_strv_push(&h->dirs, dir) < 0 ||
	    cordon_strv_push_take(&h->why, why) < 0) {
		free(why);
		if (h->dirs.n > h->why.n) /* (kept in step) */
			free(h->dirs.v[--h->dirs.n]);
	}
}

static void block_head(const char *dir, char *why)
{
	hold_head(&heads_blocked, dir, why);
}

/* The HEADs a running launcher (PID) kept, from its note TEXT (LEN bytes)
 * at NOTE, into heads_live. */
static void heads_of_running(const char *text, size_t len, long pid, const char *note)
{
	char tag;
	const char *f1, *f2;
	size_t n2;
	for (size_t at = 0; note_record(text, len, &at, &tag, &f1, &f2, &n2);) {
		char shown[PATH_MAX + 8], shown2[PATH_MAX + 8], *why = NULL;
		if (tag != 'h' || f1[0] != '/')
			continue;
		if (asprintf(
			    &why,
			    "%s/HEAD, the HEAD of a submodule's git dir, is gone or no file while "
			    "the session that kept it still runs (its launcher's pid is %ld; its "
			    "note: %s): cordon cannot guard that submodule until it is back; end "
			    "that session (HEAD is put back as it ends), or put HEAD back outside, "
			    "then start again",
			    cordon_printable(f1, SIZE_MAX, shown, sizeof(shown)), pid,
			    cordon_printable(note, SIZE_MAX, shown2, sizeof(shown2))) < 0)
			why = NULL;
		hold_head(&heads_live, f1, why);
	}
}

/* A refusal where a write rule of P reaches a HEAD heads_blocked holds. */
static int refuse_heads_blocked(const struct cordon_policy *p, struct cordon_error *err)
{
	for (size_t i = 0; i < heads_blocked.dirs.n; i++)
		for (size_t k = 0; k < p->n_rules; k++)
			if ((p->rules[k].access & CORDON_ACCESS_WRITE) &&
			    cordon_path_under(heads_blocked.dirs.v[i], p->rules[k].path))
				return cordon_err(err, EBUSY, "%s", heads_blocked.why.v[i]);
	return 0;
}

/* A refusal where this process's plan passed over a directory heads_live
 * holds. */
static int refuse_heads_live(struct cordon_error *err)
{
	for (size_t i = 0; i < heads_live.dirs.n; i++)
		if (cordon_guard_passed_over(heads_live.dirs.v[i]))
			return cordon_err(err, EBUSY, "%s", heads_live.why.v[i]);
	return 0;
}

static bool may_chmod(const char *dir, const void *s);

/* DIR's HEAD, gone or no file, which a launcher killed before its end had
 * kept as TEXT (N bytes): put back (47c P1 left), the ways its session
 * shut opened where GONE's write rules reach (round 48b F3). True where
 * it was; else it is blocked (block_head) and the note kept: it could
 * not be, or the note may be a session's (U: never acted on, round 48b
 * F1: a session's planted note had the launch finish a git dir of its
 * own, which the guards then kept as the user's). */
static bool killed_head_back(const char *dir, const char *text, size_t n, const struct untrusted *u,
			     const struct cordon_sweep *gone, struct cordon_strv *said)
{
	char shown[PATH_MAX + 8], *why = NULL;
	cordon_printable(dir, SIZE_MAX, shown, sizeof(shown));
	if (u) {
		char note[PATH_MAX + 8];
		if (asprintf(
			    &why,
			    "%s/HEAD, the HEAD of a submodule's git dir, is gone or no file, and a "
			    "note (%s) says a session whose launcher was killed had kept it; with "
			    "no home directory of yours (as /etc/passwd names it) cordon cannot "
			    "tell that note from one a session planted, so it puts nothing back "
			    "and cannot guard the submodule: look at %s (without HEAD git takes "
			    "it for no repository), put HEAD back or remove it, then start again",
			    shown, cordon_printable(u->note, SIZE_MAX, note, sizeof(note)),
			    shown) < 0)
			why = NULL;
		block_head(dir, why);
		return false;
	}
	cordon_ways_up_begin(may_chmod, gone);
	int e = cordon_guard_put_head_back(dir, text, n,
					   "after a session whose launcher was killed", said);
	cordon_ways_down();
	if (e >= 0)
		return true;
	if (asprintf(&why,
		     "%s/HEAD, the HEAD of a submodule's git dir, is gone or no file after a "
		     "session whose launcher was killed, and cordon could not put it back (%s): "
		     "it cannot guard the submodule; put HEAD back outside, then start again",
		     shown, strerror(-e)) < 0)
		why = NULL;
	block_head(dir, why);
	return false;
}

/* The note TEXT (LEN bytes, note_held_configs's) of a session whose
 * launcher is gone judged: each config it held that changed is moved
 * aside, as its end would have. Its session's id into ID (SIZE bytes).
 * With U, a note a session may have planted: nothing moved, what it names
 * told to U. */
static void judge_held_note(const char *text, size_t len, char *id, size_t size,
			    struct untrusted *u, bool *unresolved, struct cordon_strv *said)
{
	static const char killed_head[] = "a session whose launcher was killed before its end "
					  "(or a program outside since) changed";
	struct cordon_sweep gone = {0};
	struct cordon_sweep_held h = {0};
	bool timed = false;
	id[0] = '\0';
	/* (What the note names is judged only where it is a config read by
	 * name, a regular file: round 38e H1.) */
	struct cordon_strv listed = {0};
	configs_read_all(&listed);
	char tag;
	const char *f1, *f2;
	size_t n2;
	for (size_t at = 0; note_record(text, len, &at, &tag, &f1, &f2, &n2);) {
		unsigned long long t2[2];
		const char *tf = f1;
		if (tag == 's') {
			snprintf(id, size, "%s", f1);
		} else if (tag == 't' && read_ids(&tf, '\0', t2, 2) && t2[1] <= 999999999ULL) {
			gone.configs_since = (struct timespec){(time_t)t2[0], (long)t2[1]};
			timed = true;
		} else if (tag == 'w') {
			(void)cordon_strv_push(&gone.writable, f1);
		} else if (tag == 'k') {
			(void)cordon_strv_push(&gone.config_kept, f1);
		} else if (tag == 'c' && f1[0] == '/') {
			unsigned long long id4[4];
			if (!read_ids(&f2, '\0', id4, 4) || id4[3] > 999999999ULL)
				break;
			h.path = (char *)(uintptr_t)f1;
			h.dev = id4[0];
			h.ino = id4[1];
			h.ctime = (struct timespec){(time_t)id4[2], (long)id4[3]};
			if (u && config_changed(&h) && listed_config(&listed, h.path))
				untrusted_changed(u, h.path, &h);
			else if (config_changed(&h) && listed_config(&listed, h.path))
				(void)disarm(
					&gone, h.path, killed_head,
					"a config file a later session reads by name (--config, "
					"CORDON_CONFIG), which that session did not keep read-only",
					said);
			held_push(&gone, h.path, 'c', NULL); /* (not judged again below) */
		} else if (tag == 'h' && f1[0] == '/') {
			if (n2 && cordon_guard_head_gone(f1) &&
			    !killed_head_back(f1, f2, n2, u, &gone, said))
				*unresolved = true;
		}
	}
	/* And those first read by name after it started (round 38d M2). */
	gone.config_write = gone.writable;
	if (timed && !u)
		(void)judge_late_configs(&gone, killed_head, said);
	for (size_t i = 0; timed && u && i < listed.n; i++)
		if (late_changed(&gone, listed.v[i]))
			untrusted_changed(u, listed.v[i], NULL);
	gone.config_write = (struct cordon_strv){0};
	cordon_sweep_free(&gone);
	cordon_strv_free(&listed);
}

static int judge_killed_in(const char *dir, const char *mirror, bool trusted, const char *named,
			   struct cordon_strv *said, struct cordon_error *err);

static void putbacks_finish(struct cordon_strv *said);

int cordon_sweep_judge_killed(const char *named, struct cordon_strv *said, struct cordon_error *err)
{
	/* (Before the session starts: a put-back cut short left the hidden
	 * files where it could read them.) */
	putbacks_finish(said);
	/* Only from the passwd home's, where there is one apart: the state
	 * directory XDG_STATE_HOME or HOME name may lie where a session
	 * writes, and a note planted there had a launch move any file of the
	 * user's aside, cordon's own notes too (round 38e H1). Each is made
	 * in both. An ordinary user with no such home has only that one
	 * (struct untrusted). */
	char *dirs[2];
	notes_dirs(dirs);
	bool trusted;
	const char *dir = notes_read_dir(dirs, &trusted);
	int r = judge_killed_in(dir, dir == dirs[1] ? dirs[0] : NULL, trusted, named, said, err);
	notes_dirs_free(dirs);
	return r;
}

/* Whether NAME in the directory DIR is a file write_whole_at left aside
 * (NAME.tmp-PID) when its launcher was killed while writing it (a minute
 * old, PID gone): then removed. Nothing else removes those. */
static bool left_aside(int dir, const char *name)
{
	const char *tail = strstr(name, ".tmp-");
	while (tail && strstr(tail + 1, ".tmp-"))
		tail = strstr(tail + 1, ".tmp-");
	char *end;
	long pid = tail ? strtol(tail + 5, &end, 10) : 0;
	unsigned long long start;
	struct stat st;
	if (pid <= 0 || pid > INT_MAX || *end || alive((pid_t)pid, &start) ||
	    fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
	    time(NULL) - st.st_mtime < 60)
		return false;
	return unlinkat(dir, name, 0) == 0;
}

/* cordon_sweep_judge_killed, for the notes in the state directory DIR
 * (acted on when TRUSTED); one done with goes from MIRROR too (its copy in
 * HOME's registry, never read: it stayed there for good). */
/* The note NAME (CONFIGS_HELD PID-START) in the directory D: its text
 * (malloc'd, NUL-ended, *LEN bytes; *ST its stat), its launcher's *PID,
 * and whether that one still runs (*LIVE). NULL where NAME is no such
 * note (one being written) or cannot be read. */
static char *held_note_read(int d, const char *name, long *pid, bool *live, struct stat *st,
			    size_t *len)
{
	char *end;
	*pid = strtol(name + strlen(CONFIGS_HELD), &end, 10);
	unsigned long long start = 0, now;
	if (*pid > 0 && *pid <= INT_MAX && *end == '-')
		start = strtoull(end + 1, &end, 10);
	*live = alive((pid_t)*pid, &now) && now == start;
	if (!start || *end)
		return NULL;
	int fd = openat(d, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char *text = fd >= 0 && fstat(fd, st) == 0 && S_ISREG(st->st_mode) &&
				     st->st_size <= CONFIGS_HELD_MAX
			     ? malloc((size_t)st->st_size + 1)
			     : NULL;
	ssize_t got = text ? read(fd, text, (size_t)st->st_size) : -1;
	if (fd >= 0)
		close(fd);
	if (got < 0) {
		free(text);
		return NULL;
	}
	text[got] = '\0';
	*len = (size_t)got;
	return text;
}

/* The HEADs a running launcher (PID) kept, from its note NAME in DIR
 * (TEXT, LEN bytes; may be NULL), into heads_live. */
static void live_heads_of(const char *dir, const char *name, const char *text, size_t len, long pid)
{
	char *at_note = NULL;
	if (text && asprintf(&at_note, "%s/%s", dir, name) >= 0)
		heads_of_running(text, len, pid, at_note);
	free(at_note);
}

int cordon_sweep_refuse_heads_live(struct cordon_error *err)
{
	char *dirs[2];
	notes_dirs(dirs);
	bool trusted;
	const char *dir = notes_read_dir(dirs, &trusted);
	DIR *d = dir ? opendir(dir) : NULL;
	for (struct dirent *de; d && (de = readdir(d));) {
		long pid;
		bool live;
		struct stat st;
		size_t len;
		if (strncmp(de->d_name, CONFIGS_HELD, strlen(CONFIGS_HELD)) != 0)
			continue;
		char *text = held_note_read(dirfd(d), de->d_name, &pid, &live, &st, &len);
		if (live)
			live_heads_of(dir, de->d_name, text, len, pid);
		free(text);
	}
	if (d)
		closedir(d);
	notes_dirs_free(dirs);
	return refuse_heads_live(err);
}

static int judge_killed_in(const char *dir, const char *mirror, bool trusted, const char *named,
			   struct cordon_strv *said, struct cordon_error *err)
{
	if (!dir)
		return 0;
	int r = 0;
	DIR *d = opendir(dir);
	cleanup_close int m = mirror ? open(mirror, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	size_t hn = strlen(CONFIGS_HELD);
	for (struct dirent *de; d && (de = readdir(d));) {
		if (left_aside(dirfd(d), de->d_name) || strncmp(de->d_name, CONFIGS_HELD, hn) != 0)
			continue;
		long pid;
		bool live;
		struct stat st;
		size_t len;
		char *text = held_note_read(dirfd(d), de->d_name, &pid, &live, &st, &len);
		/* Its launcher's still running: only the HEADs it kept, for
		 * cordon_sweep_start (round 48b F2). */
		if (live) {
			live_heads_of(dir, de->d_name, text, len, pid);
			free(text);
			continue;
		}
		if (!text)
			continue;
		char id[64] = "";
		cleanup_free char *note = NULL;
		bool unresolved = false;
		struct untrusted u = {.named = named, .written = CTIME(st)};
		if (trusted || asprintf(&note, "%s/%s", dir, de->d_name) >= 0) {
			u.note = note;
			judge_held_note(text, len, id, sizeof(id), trusted ? NULL : &u, &unresolved,
					said);
		}
		if (u.refuse && r == 0) {
			char shown[PATH_MAX + 8], shown2[PATH_MAX + 8];
			r = cordon_err(
				err, EPERM,
				"%s: a note (%s) says a session whose launcher was killed may have "
				"changed it; with no home directory of yours (as /etc/passwd names "
				"it) cordon cannot tell that note from one a session planted, so it "
				"moves nothing: check the config, then remove the note",
				cordon_printable(u.refuse, SIZE_MAX, shown, sizeof(shown)),
				cordon_printable(note, SIZE_MAX, shown2, sizeof(shown2)));
		}
		free(text);
		free(u.refuse);
		/* (A HEAD not put back: the note is judged again by the next
		 * launch.) */
		if (u.keep || unresolved)
			continue;
		/* Kept while the session is in the registry: the keeper ends it
		 * after its launcher, and a session orphaned (both killed at
		 * once) may write again. */
		struct cordon_session_info info;
		struct cordon_error ignored = {0};
		if ((!id[0] || cordon_registry_read(id, &info, &ignored) < 0) &&
		    unlinkat(dirfd(d), de->d_name, 0) == 0 && m >= 0)
			(void)unlinkat(m, de->d_name, 0);
	}
	if (d)
		closedir(d);
	return r;
}

int cordon_sweep_start(const struct cordon_policy *p, struct cordon_placeholders *held,
		       struct cordon_sweep *sweep, struct cordon_error *err)
{
	struct cordon_strv names = {0}, placeholders = {0}, files = {0}, guarded = {0};
	int r = p->sandbox ? refuse_heads_blocked(p, err) : 0;
	if (r < 0)
		return r;
	r = note_written(p, err);
	if (r < 0)
		return r;
	cleanup_free char *refuse = NULL;
	int planned = p->sandbox ? cordon_guard_unguarded(p, &names, &placeholders, &files,
							  &guarded, &refuse)
				 : -1;
	if (planned >= 0 && (r = refuse_heads_live(err)) < 0) {
		/* (Nothing made yet.) */
	} else if (planned >= 0 && refuse && p->on_unsupported != CORDON_UNSUPPORTED_WARN) {
		/* Refused here, before the session is started, made or swept
		 * (47b N2: the session refused as its sandbox was applied was
		 * swept as it ended, and the user's unreadable .git, which its
		 * guards could not see, was moved aside as one it made). */
		r = cordon_err(err, ENOTSUP, "%s", refuse);
	} else if (planned >= 0) {
		/* Inside another session no mount can be made: a stand-in could
		 * not be kept read-only, so the name is only looked at as the
		 * session ends, as one with no stand-in is. */
		bool nested = (placeholders.n || files.n) && cordon_sandbox_nested();
		struct stat st;
		for (size_t i = 0; nested && r >= 0 && i < placeholders.n; i++)
			if (lstat(placeholders.v[i], &st) < 0)
				r = cordon_strv_push(&names, placeholders.v[i]);
		for (size_t i = 0; nested && r >= 0 && i < files.n; i++)
			if (lstat(files.v[i], &st) < 0)
				r = cordon_strv_push(&names, files.v[i]);
		if (r < 0 || cordon_sweep_begin(p, &guarded, sweep) < 0)
			r = cordon_err(err, ENOMEM, "out of memory");
		else if ((r = note_held_configs(sweep, p, err)) >= 0 && !nested)
			r = cordon_placeholders_hold(&placeholders, &files, held, &names, err);
		cordon_sweep_names(sweep, &names);
		cordon_sweep_held(sweep, held);
	}
	cordon_strv_free(&names);
	cordon_strv_free(&guarded);
	cordon_strv_free(&placeholders);
	cordon_strv_free(&files);
	return r;
}

static void hidden_ids(struct cordon_sweep *s);

int cordon_sweep_begin(const struct cordon_policy *p, struct cordon_strv *guarded,
		       struct cordon_sweep *s)
{
	memset(s, 0, sizeof(*s));
	if (p->session && cordon_session_id_valid(p->session))
		snprintf(s->session, sizeof(s->session), "%s", p->session);
	/* (Looked at as it ends with or without a project, as what follows
	 * is.) */
	if (cordon_hidden_ways_find(p, guarded, &s->ways) < 0 || copy_above(s, p) < 0)
		return -ENOMEM;
	s->n_mise_above = s->n_mise_dirs;
	/* (Said at the end with or without a project.) A file saved anew
	 * where no rule of its own reaches it gets no access inside at all
	 * (the sieve, guard.h): a hidden one beneath read rules only, a
	 * protected one directly in the closed home. */
	cleanup_free char *closed = cordon_guard_closed_dir(p);
	for (size_t i = 0; p->sandbox && i < guarded->n; i++) {
		const char *slash = strrchr(guarded->v[i], '/');
		if (!closed || !slash || strlen(closed) != (size_t)(slash - guarded->v[i]) ||
		    strncmp(closed, guarded->v[i], strlen(closed)) != 0)
			hold(s, guarded->v[i], 'r');
	}
	/* (Each directory its own budget, four levels: round 37e F4, a
	 * ~/.config of 600 files used a shared one up before .git/hooks,
	 * and F5, .claude/skills/NAME/run.sh is three down.) */
	for (size_t i = 0; p->sandbox && i < guarded->n; i++) {
		struct stat st;
		int budget = 1024;
		if (lstat(guarded->v[i], &st) == 0 && S_ISDIR(st.st_mode))
			hold_twice_below(s, guarded->v[i], 4, &budget);
	}
	for (size_t i = 0; p->sandbox && i < p->n_guards; i++) {
		if (p->guards[i].kind != CORDON_GUARD_HIDE)
			continue;
		unsigned acc = cordon_policy_access(p, p->guards[i].path, NULL);
		if ((acc & CORDON_ACCESS_READ) && (acc & CORDON_ACCESS_WRITE))
			hold(s, p->guards[i].path, 'h');
	}
	if (p->sandbox)
		hold_configs(s, p, guarded);
	if (!cordon_sweep_applies(p)) {
		cordon_strv_free(guarded);
		return 0;
	}
	clock_gettime(CLOCK_REALTIME, &s->started);
	if (cordon_strv_copy(&s->git_env, &p->git_env) < 0) {
		cordon_strv_free(guarded);
		return -ENOMEM;
	}
	s->guarded = *guarded;
	*guarded = (struct cordon_strv){0};
	int e = 0;
	if (p->project)
		e = (s->project = strdup(p->project)) ? cordon_strv_push(&s->roots, p->project)
						      : -ENOMEM;
	for (size_t i = 0; e >= 0 && i < p->n_rules; i++)
		if (cordon_policy_writable_root(p, &p->rules[i]))
			e = cordon_strv_push_new(&s->roots, p->rules[i].path);
	s->n_own = s->roots.n;
	for (size_t i = 0; e >= 0 && i < p->shared.n; i++)
		e = cordon_strv_push_new(&s->roots, p->shared.v[i]);
	for (size_t i = 0; e >= 0 && i < p->n_rules; i++)
		if (p->rules[i].access & CORDON_ACCESS_WRITE) /* (one rule a path) */
			e = cordon_strv_push(&s->writable, p->rules[i].path);
	for (size_t i = 0; e >= 0 && i < p->n_guards; i++)
		if (p->guards[i].kind == CORDON_GUARD_HIDE) /* (one guard a path) */
			e = cordon_strv_push(&s->hidden, p->guards[i].path);
		else if ((e = add_local(s, &p->guards[i])) >= 0)
			e = add_protected_name(s, &p->guards[i]);
	if (e >= 0 && s->roots.n > s->n_own)
		e = add_shared_local(s);
	if (e < 0) {
		cordon_sweep_free(s);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->n_own; i++)
		hold_mise_dirs(s, s->roots.v[i]);
	since_now(s);
	hidden_ids(s);
	for (size_t i = 0; i < s->roots.n; i++) {
		/* (Its mark holds where its walk judges from, for the next
		 * sweep if this one never ends.) */
		struct timespec from = s->since;
		if (keep_start(s->roots.v[i]) < 2)
			running_since(s->roots.v[i], &from);
		pending_mark(s, s->roots.v[i], &from,
			     from.tv_sec == s->since.tv_sec && from.tv_nsec == s->since.tv_nsec);
		snapshot(s, s->roots.v[i]);
	}
	cordon_sweep_tracked_share(s);
	return 0;
}

/* ROOT, judged from AT, into SEEN's roots. */
static void seen_root(struct dirs_seen *seen, const char *root, const struct timespec *at)
{
	struct timespec *nv =
		cordon_grow(seen->at, &seen->at_cap, seen->roots.n + 1, sizeof(*nv), 8);
	if (!nv)
		return;
	seen->at = nv;
	if (cordon_strv_push(&seen->roots, root) >= 0)
		seen->at[seen->roots.n - 1] = *at;
}

static void trust_one(const struct beside *b, void *arg)
{
	/* (A mark of an earlier version's, with no root in it: its root
	 * unknown, its session is taken to have written anywhere.) */
	if (b->mark && !b->mine && b->at.tv_sec > 0)
		seen_root(arg, b->root[0] ? b->root : "/", &b->at);
}

/* What each of S's hidden paths is as it starts, into its hidden_ids:
 * none where a session with a mark (running, or killed) may have made it
 * since it started, or this one (maybe_made). */
static void hidden_ids(struct cordon_sweep *s)
{
	if (!s->hidden.n || !(s->hidden_ids = calloc(s->hidden.n, sizeof(*s->hidden_ids))))
		return; /* (out of memory: none known, nothing put back) */
	/* (Its own roots from its start to the nanosecond: a file of the
	 * user's written the moment before is the user's.) */
	struct dirs_seen seen = {0};
	for (size_t i = 0; i < s->roots.n; i++)
		seen_root(&seen, s->roots.v[i], &s->started);
	each_beside(NULL, trust_one, &seen);
	for (size_t i = 0; i < s->hidden.n; i++)
		id_of(s->hidden.v[i], &s->hidden_ids[i], &seen);
	cordon_strv_free(&seen.dirs);
	cordon_strv_free(&seen.real);
	cordon_strv_free(&seen.roots);
	cordon_strv_free(&seen.fresh);
	cordon_strv_free(&seen.old);
	free(seen.at);
}

void cordon_sweep_names(struct cordon_sweep *s, struct cordon_strv *names)
{
	cordon_strv_free(&s->names);
	s->names = *names;
	*names = (struct cordon_strv){0};
}

void cordon_sweep_held(struct cordon_sweep *s, const struct cordon_placeholders *held)
{
	for (size_t i = 0; i < held->n; i++)
		if (held->v[i].file && held->v[i].path &&
		    cordon_strv_push_new(&s->guarded, held->v[i].path) >= 0)
			hold(s, held->v[i].path, 'r');
}

void cordon_sweep_cancel(struct cordon_sweep *s)
{
	if (!s->swept && s->held_note)
		(void)unlink(s->held_note); /* (the session never ran) */
	if (!s->swept && s->held_note2)
		(void)unlink(s->held_note2);
	for (size_t i = 0; !s->swept && i < s->roots.n; i++) {
		cleanup_free char *mark = own_mark(s->roots.v[i]);
		if (mark)
			(void)unlink(mark);
	}
	cordon_sweep_free(s);
}

void cordon_sweep_free(struct cordon_sweep *s)
{
	for (size_t i = 0; i < s->n_held; i++)
		free(s->held[i].path);
	free(s->held);
	free(s->held_note);
	free(s->held_note2);
	cordon_strv_free(&s->config_write);
	cordon_strv_free(&s->config_kept);
	cordon_strv_free(&s->tracked_repos);
	cordon_strv_free(&s->tracked);
	cordon_strv_free(&s->tracked_notes);
	cordon_strv_free(&s->protected_names);
	for (size_t i = 0; i < s->n_configs; i++) {
		free(s->configs[i].path);
		cordon_git_entries_free(&s->configs[i].had);
	}
	free(s->configs);
	free(s->project);
	cordon_strv_free(&s->roots);
	cordon_strv_free(&s->guarded);
	cordon_strv_free(&s->writable);
	cordon_strv_free(&s->git_env);
	if (s->writable_real) {
		cordon_strv_free(s->writable_real);
		free(s->writable_real);
		s->writable_real = NULL;
	}
	ids_free(s->hidden_ids, s->hidden.n);
	s->hidden_ids = NULL;
	cordon_strv_free(&s->hidden);
	cordon_strv_free(&s->names);
	for (size_t i = 0; i < s->n_above; i++)
		free(s->above[i].dir);
	free(s->above);
	cordon_strv_free(&s->local);
	cordon_strv_free(&s->shared_local);
	cordon_strv_free(&s->found_envs);
	for (size_t i = 0; i < s->n_mise_dirs; i++)
		free(s->mise_dirs[i].path);
	free(s->mise_dirs);
	cordon_hidden_ways_free(&s->ways);
	memset(s, 0, sizeof(*s));
}

/* PATH cut to the directory it is in (one directly under / is left whole). */
static void to_parent(char *path)
{
	char *slash = strrchr(path, '/');
	if (slash && slash != path)
		*slash = '\0';
}

/* The directory DIR may have been moved into place since SINCE: it, or
 * the directory it is in, changed since (a rename moves the change time
 * of what it moves and of both directories, never of what the moved one
 * holds). */
static bool moved_in(const char *dir, const struct timespec *since)
{
	struct stat st;
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", dir);
	to_parent(parent);
	return lstat(dir, &st) < 0 || after(&CTIME(st), since) || lstat(parent, &st) < 0 ||
	       after(&CTIME(st), since);
}

/* PATH, or what a final link in it leads to, changed since SINCE. For a
 * link, the directory its target is in counts too: one swapped in by a
 * rename has a change time of its own moving, what it holds not. */
static bool changed(const char *path, const struct timespec *since)
{
	struct stat st;
	if (lstat(path, &st) < 0)
		return false;
	if (after(&CTIME(st), since))
		return true;
	if (!S_ISLNK(st.st_mode))
		return false;
	if (stat(path, &st) == 0 && after(&CTIME(st), since))
		return true;
	cleanup_free char *target = realpath(path, NULL);
	if (target)
		to_parent(target);
	return !target || (stat(target, &st) == 0 && after(&CTIME(st), since));
}

__attribute__((format(printf, 2, 3))) static void say(struct cordon_strv *said, const char *fmt,
						      ...)
{
	char *line;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n >= 0)
		(void)cordon_strv_push_take(said, line); /* out of memory: unsaid */
}

/* ---- the walk ---- */

/* What a git directory is to git (is_git_directory): HEAD, and objects
 * and refs, or a commondir that has them. */
enum { HAS_HEAD = 1, HAS_OBJECTS = 2, HAS_REFS = 4, HAS_COMMONDIR = 8 };

/* The walk's last result, kept for the next one (see cache_load): what
 * each directory held when it was listed. A record is a kind and a path
 * relative to the project: */
enum {
	REC_DIR = 'd',         /* a directory walked */
	REC_GIT_DIR = 'b',     /* a directory git takes for a git dir (in a .git: only its
				  modules/ and worktrees/ walked) */
	REC_DOTGIT = 'G',      /* a .git directory (only its modules/ and worktrees/) */
	REC_DOTGIT_FILE = 'g', /* a .git file, link, or anything else named .git */
	REC_UNREAD = 'x',      /* a directory it could not read: read again */
	REC_DEEP = 'p',        /* a directory walked, holding what lies past PATH_MAX, or a
				  HEAD git does not take for a git dir's yet: read
				  again (push_headed looks at that by descriptors) */
	REC_DISARMED = 'D',    /* a git dir a sweep moved aside, as REC_GIT_DIR */
	REC_MOVED = 'T',       /* its path and "/": the change time the move gave it, in ns
				  where the inode goes */
	REC_LOCAL = 'l',       /* one of the session's local names, below the top */
	REC_HG = 'h',          /* a Mercurial repository's .hg, below the top (not walked) */
	/* Only in a start record made of the records of roots below the top
	 * (keep_start): its path is one of them, all that such a record
	 * knows; elsewhere it is as none. */
	REC_COVERS = 'C',
	/* A link to a directory the session could write (look_link):
	 * looked at again by each walk, even where the listing it lies in is
	 * the last walk's. */
	REC_LINK = 'k',
	/* At a .git entry's path and "//" (no file's path: no record of a
	 * file in a .git directory takes its place): the git dir it led to,
	 * that one's common dir, its own core.worktree and the repositories
	 * its remotes name here (their paths, devices and inodes, hashed; 0:
	 * none), as judge_repo found them (judged_route). */
	REC_LEADS = 'L',
};

/* Records (a kind, 16 hex digits, the path) by path: slots of (path
 * hash, the first record of that path + 1), open addressing; with NEXT,
 * the next record of the same path (+ 1) for each. */
struct path_index {
	size_t n;       /* the records indexed */
	size_t mask;    /* slots - 1; 0: not made */
	size_t longest; /* the farthest a path lies from its hash's slot */
	uint32_t (*slot)[2];
	uint32_t *next;
	bool failed; /* out of memory, or flooded (PROBE_MAX): not made */
};

static void path_index_free(struct path_index *x)
{
	free(x->slot);
	free(x->next);
	*x = (struct path_index){0};
}

struct cache {
	char *data;        /* the file read; the records point into it */
	const char **recs; /* sorted by path (after the kind) */
	size_t n;
	struct timespec at; /* the walk's start, to the second */
	bool valid;
	/* There, but not read (past CACHE_MAX, or unreadable): a session
	 * could make it so (round 27b: 75,000 long names, 280 MB), and then
	 * nothing tells what was moved in; judged as with none, strictly. */
	bool unusable;
	off_t size;
	/* Saved before this session (or the earliest it judges from)
	 * started: what it says of a directory that has not changed since
	 * holds for the session. One saved after (another session's sweep,
	 * while this one ran) recorded what this session had moved in by then
	 * as if it had always been there; only what sweeps moved aside is
	 * taken from it. */
	bool current;
	/* REC_COVERS: where it holds anything (none: everywhere). */
	const char **covers;
	size_t n_covers;
	/* The records by path, made at the first cache_find (cache_index). */
	struct cache_index *index;
	bool borrowed; /* another cache's, freed with it */
};

/* A record index by path: a binary search of 1,000 records compared a
 * dozen paths with long common beginnings for each directory a walk
 * looked at, a fifth of the walk. */
struct cache_index {
	struct path_index by_path; /* made at the first cache_find */
	/* For reuse, made at its first (cache_tree): the bytes each path
	 * shares with the one before it, and where its last name starts.
	 * Going through a directory's records compared each path below it
	 * with the directory's and looked for a slash in the rest. */
	uint32_t *lcp, *last;
	bool tree_failed;
};

static void cache_free(struct cache *c)
{
	if (c->borrowed) {
		*c = (struct cache){0};
		return;
	}
	free(c->data);
	free(c->recs);
	free(c->covers);
	if (c->index) {
		path_index_free(&c->index->by_path);
		free(c->index->lcp);
		free(c->index->last);
	}
	free(c->index);
	*c = (struct cache){0};
}

/* Values read once a walk, where they are the same for every repository
 * judged (E: how reading them ended). */
struct once_values {
	struct cordon_strv v;
	int e;
	bool read;
};

struct walk {
	const struct cordon_sweep *s;
	const char *top; /* what is walked: the project, or another writable root */
	size_t top_len;  /* strlen(top) */
	int root;        /* it, opened */
	struct stat root_st;
	struct cordon_strv todo;  /* directories to list, relative */
	struct cordon_strv found; /* git dirs and .git entries, relative */
	struct cordon_strv local; /* the cordon_sweep.local names below the top, relative */
	struct cordon_strv hg;    /* the .hg directories below the top, relative, flagged */
	struct cordon_strv links; /* links to a directory the session could write (look_link) */
	/* Files written since the start below a .git's modules/ or
	 * worktrees/ that git reads as a .git file (look_gitfile), flagged. */
	struct cordon_strv gitfiles;
	bool boxed;              /* the directory listed lies there */
	struct cordon_strv shut; /* directories that could not be read, relative */
	size_t n_shut;
	struct cache cache; /* the last walk's, or not valid */
	/* The record as it is now, where CACHE is the one as the session
	 * started: what a sweep moved aside meanwhile (forget_inode). */
	struct cache latest;
	struct cordon_strv recs; /* this walk's, for the next */
	/* RECS by path, made at the first recs_at (judging, once the walk is
	 * done; those recorded later are looked at one by one). */
	struct path_index recs_ix;
	struct cordon_strv skip; /* the other roots below it, relative */
	/* The git dirs this sweep moved aside whole (relative), and where to:
	 * what the walk found in one, or on the way to it, is gone by the
	 * sweep's own hand, not changed under it (45b F1: a worktree's or
	 * submodule's git dir in a repository moved aside made every later
	 * walk "disturbed", and each moved the disarmed repository on again),
	 * and is judged where it lies now (relocated: 45e F1, a repository
	 * nested in a bare one moved aside went unjudged). */
	struct cordon_strv moved_from, moved_to;
	/* hexsz_at's last: the git dir it read, and its digits (0: none). */
	char hex_dir[PATH_MAX];
	unsigned hex;
	/* A shared directory (/tmp): walked below its top, where its own
	 * NAMES are judged (cordon_sweep.shared_local); else the session's. */
	bool shared;
	bool cache_at_start; /* CACHE is the record as the session started */
	/* FIRSTS made: the first names of NAMES' names of two ("mise" of
	 * mise/config.toml), once each (deep_in went through all of NAMES
	 * for each directory, a sixth of a walk of 20,000). */
	bool firsts_made;
	const struct cordon_strv *names;
	struct cordon_strv firsts;
	/* Something listed changed before it was looked at (gone, another
	 * put in its place: a session beside this one renaming or swapping
	 * directories in a loop hid the user's repository from the walk,
	 * round 30b N1): walked again, and past that, not taken as done. */
	bool disturbed;
	/* A directory listed changed while the walk went (its change time
	 * not before BEGAN, the coarse clock's: a change stamped in the tick
	 * the walk began in bears that tick): what was moved out of it may
	 * have gone into one listed before (catch_up). */
	bool stirred;
	struct timespec began;
	bool same_ino;                 /* the file system's d_ino is its st_ino */
	unsigned long long listed_ino; /* the directory being listed's, as its parent listed it */
	/* Directories made readable to be walked: each held by a descriptor
	 * (never named by a path again), with the mode to give back. */
	struct opened {
		int fd; /* (the first OPENED_HELD; else -1) */
		char *rel;
		dev_t dev;
		ino_t ino;
		mode_t mode;
	} * opened;
	size_t n_opened, opened_cap;
	size_t n_unopened; /* past OPENED_MAX */
	/* The directories at the top below which something too deep
	 * changed (the first three named, the rest counted). */
	struct cordon_strv too_deep;
	long deep_budget; /* entries changed_below may look at yet */
	/* The directories judge_link looked through (by inode, as the link
	 * was laid or not, and named as a first of two or not), and what it
	 * found. */
	struct link_seen {
		dev_t dev;
		ino_t ino;
		bool laid;
		const char *first; /* the link's name, where it is a first of two */
		bool holds;
	} * links_seen;
	size_t n_links_seen, links_seen_cap;
	struct cordon_strv memo;         /* see struct judge */
	struct once_values hooks_global; /* (see struct judge) */
	unsigned long long local_bytes;  /* what judge_local has read (look_local) */
	/* The directory being listed. */
	const char *rel;
	int fd;
	unsigned has;
	bool fresh;   /* it, or a directory above it, was made or moved in since */
	bool changed; /* its change time moved since the session started */
	bool deep;    /* a name of two (is_local) may be in it */
	bool dropped; /* something in it lies past PATH_MAX (REC_DEEP) */
	char *buf;
};

#define BUF_SIZE 65536

/* FLAG, then REL/NAME (NAME alone when REL is ""), pushed to V. A path
 * too long for git to be used in (getcwd fails past PATH_MAX, git with
 * it) is left out. 0 or
 * -ENOMEM. The flag of a directory to walk, or a .git found, says what is
 * above it: */
enum {
	ABOVE_OLD = '-',     /* nothing above it moved in or made since the start */
	ABOVE_CHANGED = 'c', /* its directory changed since (only used with no record) */
	ABOVE_NEW = 'n',     /* a directory above it was made or moved in since */
};

/* HEAD (HN bytes), then REL, and "/NAME" after a REL that is not ""
 * (NAME alone after one that is; with BARE, a "/" after REL for an empty
 * NAME too), malloc'd: asprintf's formatting, run twice a string by
 * musl, was most of a walk's time (round 30: 20,000 directories, several
 * strings each). */
static char *rel_joined(const char *head, size_t hn, const char *rel, const char *name, bool bare)
{
	size_t rn = strlen(rel), nn = name ? strlen(name) : 0;
	bool slash = rn && (nn || (bare && name));
	char *s = malloc(hn + rn + slash + nn + 1);
	if (!s)
		return NULL;
	memcpy(s, head, hn);
	memcpy(s + hn, rel, rn + 1);
	if (slash)
		s[hn + rn] = '/';
	memcpy(s + hn + rn + slash, name ? name : "", nn + 1);
	return s;
}

/* HEAD (HN bytes) and REL/NAME, pushed to V; left out where the path
 * would be too long to use (push_joined). */
/* NAME in the directory DIR, a directory (no link followed), opened to
 * be read: NULL, errno set, where it cannot be. */
static DIR *dir_at(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0) {
		int e = errno;
		close(fd);
		errno = e;
	}
	return d;
}

/* NAME in the directory FD, or anything below it (reached by
 * descriptors, past PATH_MAX), changed since SINCE; past *BUDGET entries
 * or DEEP_MAX levels, it may have. */
#define DEEP_MAX 256
static bool changed_below(int fd, const char *name, const struct timespec *since, long *budget,
			  int depth)
{
	struct stat st;
	if ((*budget)-- <= 0 || depth >= DEEP_MAX)
		return true;
	if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false; /* (gone) */
	if (after(&CTIME(st), since))
		return true;
	DIR *d = S_ISDIR(st.st_mode) ? dir_at(fd, name) : NULL;
	if (!d)
		return false; /* (not a directory, or one no one of the session's reads) */
	bool found = false;
	for (struct dirent *de; !found && (de = readdir(d));)
		found = !cordon_dot_or_dotdot(de->d_name) &&
			changed_below(dirfd(d), de->d_name, since, budget, depth + 1);
	closedir(d);
	return found;
}

static int push_headed(struct walk *w, struct cordon_strv *v, const char *head, size_t hn,
		       const char *rel, const char *name)
{
	/* (The head's first byte stands for the slash after the root.) */
	size_t tn = w->top_len ? w->top_len : strlen(w->top);
	if (tn + 1 + strlen(rel) + (rel[0] && name[0]) + strlen(name) >= PATH_MAX) {
		w->dropped = w->dropped || rel == w->rel;
		/* What lies there, past the longest path cordon moves by, is
		 * said where it (or anything below it) changed since the start
		 * (round 30 F2: a .exrc in a directory whose path is 4,090
		 * bytes long, which vim started there reads by its name; round
		 * 31 F7: one planted, by relative chdirs, in a directory deeper
		 * than PATH_MAX made before), by the directory at the top it
		 * lies in, once each. */
		cleanup_free char *at =
			rel == w->rel && name[0] ? strndup(rel, strcspn(rel, "/")) : NULL;
		if (at && !cordon_strv_contains(&w->too_deep, at) &&
		    (w->fresh || changed_below(w->fd, name, &w->s->since, &w->deep_budget, 0)))
			return cordon_strv_push(&w->too_deep, at);
		return 0;
	}
	return cordon_strv_push_take(v, rel_joined(head, hn, rel, name, false));
}

static int push_joined(struct walk *w, struct cordon_strv *v, char flag, const char *rel,
		       const char *name)
{
	return push_headed(w, v, &flag, 1, rel, name);
}

/* The record's parts: its kind, the inode, the path. */
#define REC_PATH(r) ((r) + 17)
static unsigned long long rec_ino(const char *r)
{
	/* (By hand: strtoull, twice a directory, was a twentieth of a walk.
	 * hex_head wrote it; a loaded record is checked, rec_head_ok.) */
	unsigned long long v = 0;
	for (int i = 1; i <= 16; i++) {
		char c = r[i];
		v = v << 4 | (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
	}
	return v;
}

/* R's 16 digits are hexadecimal, as hex_head writes them (musl's strspn
 * builds a table each call: a record of 1,000 entries loaded in 0.2 M
 * instructions more). */
static bool rec_head_ok(const char *r)
{
	for (int i = 1; i <= 16; i++)
		if (!((r[i] >= '0' && r[i] <= '9') || (r[i] >= 'a' && r[i] <= 'f')))
			return false;
	return true;
}

/* Record KIND and INO for REL (REL/NAME when NAME is not NULL) for the
 * next walk. */
/* C, then V in 16 hexadecimal digits, into HEAD (17 bytes, no NUL). */
static void hex_head(char head[17], char c, unsigned long long v)
{
	static const char digits[] = "0123456789abcdef";
	head[0] = c;
	for (int i = 16; i > 0; i--, v >>= 4)
		head[i] = digits[v & 15];
}

/* A directory to list, onto W's todo: FLAG, the inode the listing of
 * its directory gave (0: none known), and REL/NAME (push_joined's). */
static int push_todo(struct walk *w, char flag, const char *rel, const char *name,
		     unsigned long long ino)
{
	char head[17];
	hex_head(head, flag, ino);
	return push_headed(w, &w->todo, head, sizeof(head), rel, name);
}

static int record(struct walk *w, char kind, unsigned long long ino, const char *rel,
		  const char *name)
{
	char head[17];
	hex_head(head, kind, ino);
	/* (REC_MOVED's path ends in "/": NAME "".) */
	return cordon_strv_push_take(&w->recs, rel_joined(head, sizeof(head), rel, name, true));
}

/* REC_MOVED for the git dir REL, moved aside with the change time AT. */
static int record_moved(struct walk *w, const char *rel, const struct timespec *at)
{
	return record(w, REC_MOVED,
		      (unsigned long long)at->tv_sec * 1000000000ULL +
			      (unsigned long long)at->tv_nsec,
		      rel, "");
}

static uint32_t path_hash(const char *p);
#define PROBE_MAX 64

/* X made over the N records RECS (CHAIN: with NEXT); false where it
 * cannot be. Each path's slot holds its first record, as a binary search
 * of sorted records finds. */
static bool path_index_make(struct path_index *x, const char *const *recs, size_t n, bool chain)
{
	if (x->failed || n > UINT32_MAX / 4)
		return false;
	if (x->mask)
		return true;
	size_t slots = 16;
	while (slots < 2 * n)
		slots *= 2;
	x->slot = calloc(slots, sizeof(*x->slot));
	x->next = chain ? calloc(n + 1, sizeof(*x->next)) : NULL;
	if (!x->slot || (chain && !x->next))
		goto failed;
	x->mask = slots - 1;
	for (size_t i = 0; i < n; i++) {
		const char *path = REC_PATH(recs[i]);
		uint32_t h = path_hash(path);
		size_t at = h & x->mask, far = 0;
		while (x->slot[at][1] && (x->slot[at][0] != h ||
					  strcmp(REC_PATH(recs[x->slot[at][1] - 1]), path) != 0)) {
			at = (at + 1) & x->mask;
			if (++far > PROBE_MAX)
				goto failed;
		}
		if (x->slot[at][1]) { /* (another of that path) */
			if (chain) {
				x->next[i] = x->next[x->slot[at][1] - 1];
				x->next[x->slot[at][1] - 1] = (uint32_t)i + 1;
			}
			continue;
		}
		x->slot[at][0] = h;
		x->slot[at][1] = (uint32_t)i + 1;
		x->longest = far > x->longest ? far : x->longest;
	}
	x->n = n;
	return true;
failed:
	path_index_free(x);
	x->failed = true;
	return false;
}

/* The first of RECS (X's) at REL, or X's n. (Each path lies within
 * LONGEST of its hash's slot: past that, REL is none of them.) */
static size_t path_index_find(const struct path_index *x, const char *const *recs, const char *rel)
{
	uint32_t h = path_hash(rel);
	size_t at = h & x->mask;
	for (size_t far = 0; far <= x->longest && x->slot[at][1]; far++, at = (at + 1) & x->mask) {
		size_t i = x->slot[at][1] - 1;
		if (x->slot[at][0] == h && strcmp(REC_PATH(recs[i]), rel) == 0)
			return i;
	}
	return x->n;
}

/* W's own records sorted by path (the index by position goes with the
 * order it was made for). */
static void sort_records(void *array, size_t n);
static void sort_own(struct walk *w)
{
	path_index_free(&w->recs_ix);
	sort_records(w->recs.v, w->recs.n);
}

/* FN(record, ARG) on each of this walk's records at REL. Once per name
 * judged: going through them all each time made an end with 40,000
 * .vscode directories (empty, so kept, and judged at each end) take 11 s,
 * and held the root's lock past its wait (round 32b G1). */
static void recs_at(struct walk *w, const char *rel, void (*fn)(char *r, void *arg), void *arg)
{
	size_t from = 0;
	struct path_index *x = &w->recs_ix;
	const char *const *recs = (const char *const *)w->recs.v;
	/* (Made again once those recorded since are many: judging records
	 * two for each repository it moves aside, and 20,000 planted ones
	 * went through all those of the ones before, round 32c H1.) */
	if (x->mask && w->recs.n - x->n > x->n / 2 + 64)
		path_index_free(x);
	if (path_index_make(x, recs, w->recs.n, true)) {
		for (size_t k = path_index_find(x, recs, rel) + 1; k <= x->n && k;
		     k = x->next[k - 1])
			fn(w->recs.v[k - 1], arg);
		from = x->n; /* (recorded since) */
	}
	for (size_t i = from; i < w->recs.n; i++)
		if (strcmp(REC_PATH(w->recs.v[i]), rel) == 0)
			fn(w->recs.v[i], arg);
}

/* What this walk recorded at REL, moved aside just now, recorded with no
 * inode: one put back there (mv sub/.git.cordon-disarmed sub/.git, with
 * its hooks' old times) is new to the next walk, not the one it had seen
 * there (round 27c: a .git and a .hg moved back were kept, and ran). */
static void zero_inode(char *r, void *arg)
{
	(void)arg;
	memset(r + 1, '0', 16);
}

static void forget_inode(struct walk *w, const char *rel)
{
	recs_at(w, rel, zero_inode, NULL);
}

/* The flag for what is found in the directory being listed. */
static char below(const struct walk *w)
{
	if (w->fresh)
		return (char)ABOVE_NEW;
	return (char)(w->changed ? ABOVE_CHANGED : ABOVE_OLD);
}

/* Whether W's record, saved before the session started, tells what was
 * at REL then (one made of the records of roots below the top knows only
 * what lies below them: REC_COVERS). */
static bool current_at(const struct walk *w, const char *rel)
{
	const struct cache *c = &w->cache;
	if (!c->current || !c->n_covers)
		return c->current;
	for (size_t i = 0; i < c->n_covers; i++) {
		size_t n = strlen(c->covers[i]);
		if (strncmp(rel, c->covers[i], n) == 0 && (rel[n] == '\0' || rel[n] == '/'))
			return true;
	}
	return false;
}

/* The flag for a local name in the directory being listed: ABOVE_NEW
 * where it, or one above it, was made or moved in since the start, as
 * the record of the last walk before it tells (without one, every
 * directory that changed would be); its own change times stay as they
 * were (round 27 staged a .vscode in node_modules, which is not judged,
 * and a later session moved the package into place). */
static char local_above(const struct walk *w)
{
	/* (A record made of those of roots below the top: elsewhere, a
	 * directory that changed where its parent did counts as moved in, as
	 * with an unreadable record; a package another session staged in one
	 * root's node_modules could be moved anywhere: round 28b F3.) */
	bool strict = w->cache.unusable || (w->cache.current && w->cache.n_covers);
	return (char)(w->fresh && (strict || current_at(w, w->rel)) ? ABOVE_NEW : ABOVE_OLD);
}

/* NAME, in the directory being listed, is another root, walked as
 * such (the project, in a writable directory above it). */
static bool skipped(const struct walk *w, const char *name)
{
	size_t rn = strlen(w->rel);
	for (size_t i = 0; i < w->skip.n; i++) {
		const char *k = w->skip.v[i];
		if ((rn == 0 || (strncmp(k, w->rel, rn) == 0 && k[rn] == '/')) &&
		    strcmp(k + (rn ? rn + 1 : 0), name) == 0)
			return true;
	}
	return false;
}

/* Names are matched as a volume that ignores case matches them (macOS's
 * by default, a casefolded directory on Linux): git there takes .GIT for
 * .git, and Head for HEAD. Elsewhere that only judges a few more. */
/* Of the .git directory DOTGIT, only the git dirs git keeps in it are
 * walked: its submodules' and its linked worktrees' (whose worktree may
 * lie outside the project). */
static int push_kept(struct walk *w, const char *dotgit)
{
	static const char *const kept[] = {"modules", "worktrees", NULL};
	int e = 0;
	for (size_t i = 0; e >= 0 && kept[i]; i++)
		e = push_todo(w, below(w), dotgit, kept[i], 0);
	return e;
}

struct dotgit_push {
	struct walk *w;
	const char *dotgit;
	char flag;
	int e;
};

static int push_dotgit_one(const char *name, unsigned char type, unsigned long long ino, void *arg)
{
	struct dotgit_push *p = arg;
	if (p->e < 0 || cordon_dot_or_dotdot(name) || (type != DT_DIR && type != DT_UNKNOWN))
		return 0;
	/* (modules/ and worktrees/ as push_kept pushes them; one of unknown
	 * type is looked at by list_dir, which records what is no
	 * directory as gone.) */
	p->e = push_todo(p->w, p->flag, p->dotgit, name, type == DT_DIR ? ino : 0);
	return 0;
}

/* Every directory of the .git directory DOTGIT, walked: a git dir git
 * would use may lie anywhere in it, reached through a link or a .git file
 * laid in its modules/ (round 49f H1: .git/modules/q holding "gitdir:
 * ../foo" led git fetch to .git/foo; H3: to a git dir cordon had moved
 * aside into .git/cordon-disarmed/, its HEAD put back by a later
 * session). */
static int push_dotgit(struct walk *w, const char *dotgit)
{
	int fd = cordon_fs_open_beneath(w->root, dotgit);
	if (fd < 0) /* (list_dir says what it cannot read) */
		return fd == -ENOENT || fd == -ENOTDIR ? 0 : push_kept(w, dotgit);
	char *buf = malloc(16384);
	struct dotgit_push p = {w, dotgit, below(w), 0};
	int e = buf ? cordon_fs_list(fd, push_dotgit_one, &p, buf, 16384) : -ENOMEM;
	free(buf);
	close(fd);
	return e < 0 ? e : p.e;
}

static bool session_writable(const struct cordon_sweep *s, const char *dir);

/* The levels and entries a local name is read to (look_local), and what
 * a link to a directory the session could write leads to (holds_local). */
/* REL's last name ("" for the top). */
static const char *last_name(const char *rel)
{
	const char *slash = strrchr(rel, '/');
	return slash ? slash + 1 : rel;
}

/* N, a name of two whose first is DIR (DN bytes, not 0): its second,
 * else NULL. */
static const char *second_of(const char *n, const char *dir, size_t dn)
{
	return dn && n[0] == dir[0] && strncmp(n, dir, dn) == 0 && n[dn] == '/' ? n + dn + 1 : NULL;
}

/* A name of NAMES that is two (mise/config.toml, .config/mise: mise
 * reads both in every directory from where it runs up, round 30b N4) may
 * be in the directory REL, its first one being REL's last. */
static bool deep_in(const struct cordon_strv *names, const char *rel)
{
	const char *dir = last_name(rel);
	size_t dn = strlen(dir);
	for (size_t i = 0; i < names->n; i++)
		if (second_of(names->v[i], dir, dn))
			return true;
	return false;
}

/* NAME is a repository directory judged by its config alone, its store
 * not walked (judge_hg): Mercurial's .hg, Jujutsu's .jj. */
static bool vcs_dir(const char *name)
{
	return strcasecmp(name, ".hg") == 0 || strcmp(name, ".jj") == 0;
}

/* NAME, in the directory REL (where a name of two may be: DEEP), is one
 * of the local NAMES. */
static bool is_local(const struct cordon_strv *names, const char *rel, bool deep, const char *name)
{
	if (cordon_strv_contains(names, name))
		return true;
	const char *dir = last_name(rel);
	/* (The files of any of mise's config environments, where mise.toml
	 * is one: mise -E NAME, outside, reads mise.NAME.toml; config.NAME
	 * .toml where mise/config.toml may be.) */
	if (cordon_mise_env_file(deep ? dir : "", name, NULL, 0) &&
	    cordon_strv_contains(names, "mise.toml"))
		return true;
	for (size_t i = 0; deep && i < names->n; i++) {
		const char *second = second_of(names->v[i], dir, strlen(dir));
		if (second && strcmp(second, name) == 0)
			return true;
	}
	return false;
}

/* Whether a name of two may be in W's directory REL: of an own root,
 * only below its top, where the first lies below it (the top's are
 * protected_paths); of a shared one, which has none, anywhere. */
static bool deep_here(const struct walk *w, const char *rel)
{
	if (!w->shared && !strchr(rel, '/'))
		return false;
	if (!w->firsts_made)
		return deep_in(w->names, rel);
	const char *dir = last_name(rel);
	return dir[0] && cordon_strv_contains(&w->firsts, dir);
}

/* W's firsts made (where memory runs out, deep_in is asked). */
static void firsts_make(struct walk *w)
{
	for (size_t i = 0; i < w->names->n; i++) {
		const char *n = w->names->v[i], *slash = strchr(n, '/');
		if (!slash || slash == n)
			continue;
		cleanup_free char *first = strndup(n, (size_t)(slash - n));
		if (!first || (!cordon_strv_contains(&w->firsts, first) &&
			       cordon_strv_push(&w->firsts, first) < 0)) {
			cordon_strv_free(&w->firsts);
			return;
		}
	}
	w->firsts_made = true;
}

#define LOCAL_DEPTH    8
#define DEEP_BUDGET    (1L << 20)
#define LINK_SEEN_FROM 256 /* entries read for a link's directory to be kept */
#define LOCAL_BUDGET   16384

/* Whether the directory FD (owned) may hold one of the local NAMES, a
 * .git or a .hg: found within DEPTH levels more and *BUDGET entries, or
 * not looked through to its end (past them, or unreadable: round 28d put
 * the .exrc four levels down, and 26,854th of 40,000). With SINCE, only
 * one changed since then counts, and one not looked through only where
 * a directory in it changed since (*TOUCHED). */
static bool holds_local(const struct cordon_strv *names, const char *dir, int fd, int depth,
			int *budget, const struct timespec *since, bool bare, bool *touched)
{
	bool deep = deep_in(names, dir);
	struct stat st;
	if (since && fstat(fd, &st) == 0 && after(&CTIME(st), since))
		*touched = true;
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return !since || *touched;
	}
	bool found = false;
	for (struct dirent *de; !found && (de = readdir(d));) {
		if (cordon_dot_or_dotdot(de->d_name))
			continue;
		if ((*budget)-- <= 0) {
			found = !since || *touched; /* (more than was looked at) */
			break;
		}
		/* (A repository there too: git run in the link's name uses it;
		 * with BARE, where no end walks, a bare one by its HEAD, round
		 * 51g F1: a store armed in a toolchain's cache an old link of
		 * the user's leads to. Where a walk goes, the walk judges it.) */
		found = is_local(names, dir, deep, de->d_name) ||
			strcasecmp(de->d_name, ".git") == 0 || vcs_dir(de->d_name) ||
			(bare && strcasecmp(de->d_name, "HEAD") == 0);
		if (found && since)
			found = fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
				after(&CTIME(st), since);
		if (!found && (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN)) {
			int sub = openat(dirfd(d), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			/* (One deeper than DEPTH: not looked through.) */
			if (sub >= 0 && depth <= 0) {
				if (since && fstat(sub, &st) == 0 && after(&CTIME(st), since))
					*touched = true;
				found = !since || *touched;
				close(sub);
			} else if (sub >= 0) {
				found = holds_local(names, de->d_name, sub, depth - 1, budget,
						    since, bare, touched);
			}
		}
	}
	closedir(d);
	return found;
}

/* NAME, a link in the directory being listed, to a directory the session
 * could write: what lies there is reached by its own name, a package in
 * node_modules where nothing is judged too (round 28c F3: ln -s
 * node_modules/pkg lib, and vim in lib ran the .exrc staged there).
 * Recorded (REC_LINK), and kept for judge_link: one the session laid
 * since its start, whatever it leads to holds; an older one (laid by an
 * earlier session to a directory still empty, round 28d F3), for what
 * was made there since. */
/* Whether REL is, or lies below, a .git's modules/ or worktrees/: any
 * path there is a submodule's git dir by some name, which git fetch opens
 * as a .git file where it is a file (round 49f H1: .git/modules/q holding
 * "gitdir: ../foo" led git to .git/foo, which no walk goes into). */
static const char *box_end(const char *rel)
{
	for (const char *c = rel; c; c = strchr(c, '/')) {
		c += *c == '/';
		if (strncasecmp(c, ".git/modules", 12) == 0 && (!c[12] || c[12] == '/'))
			return c + 12;
		if (strncasecmp(c, ".git/worktrees", 14) == 0 && (!c[14] || c[14] == '/'))
			return c + 14;
	}
	return NULL;
}

static bool boxed_rel(const char *rel)
{
	return box_end(rel) != NULL;
}

/* NAME, a file in W's directory there: onto W's gitfiles where it was
 * made (or moved in) since the session started. judge_gitfile tells
 * whether it lies in a git dir (a file of git's) or not (none of git's:
 * written again by a later session, its directory's time would not
 * move). */
static int look_gitfile(struct walk *w, const char *name)
{
	struct stat st;
	if (fstatat(w->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode) ||
	    !after(&CTIME(st), &w->s->since))
		return 0;
	return push_joined(w, &w->gitfiles, ABOVE_NEW, w->rel, name);
}

static int look_link(struct walk *w, const char *name)
{
	struct stat lst, st;
	if (fstatat(w->fd, name, &lst, AT_SYMLINK_NOFOLLOW) < 0)
		return 0; /* (gone: what it led to is walked where it lies) */
	if (!S_ISLNK(lst.st_mode)) {
		w->disturbed = w->disturbed || S_ISDIR(lst.st_mode);
		return 0;
	}
	if (!w->names->n || fstatat(w->fd, name, &st, 0) < 0 || !S_ISDIR(st.st_mode))
		return 0;
	/* (Only where the session could have written: a link to a checkout
	 * of the user's elsewhere, with its .git, is theirs to use.) */
	char at[PATH_MAX * 2];
	snprintf(at, sizeof(at), "%s/%s%s%s", w->top, w->rel, w->rel[0] ? "/" : "", name);
	if (!session_writable(w->s, at))
		return 0;
	int e = record(w, REC_LINK, 0, w->rel, name);
	return e < 0 ? e : push_joined(w, &w->links, ABOVE_NEW, w->rel, name);
}

/* NAME is a HEAD the sweep moved aside (HEAD.cordon-disarmed, or
 * another name of it: HEAD.cordon-disarmed-2). */
static bool head_aside(const char *name)
{
	return strncasecmp(name, "HEAD" DISARMED, sizeof("HEAD" DISARMED) - 1) == 0;
}

static int visit(const char *name, unsigned char type, unsigned long long ino, void *arg)
{
	struct walk *w = arg;
	if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		return 0;
	/* (A HEAD the sweep moved aside counts: a repository it moved aside
	 * whole, which git outside no longer takes for one, is judged as
	 * one still, and so is what a session changes in it.) */
	if (strcasecmp(name, "HEAD") == 0 || head_aside(name))
		w->has |= HAS_HEAD;
	else if (strcasecmp(name, "objects") == 0)
		w->has |= HAS_OBJECTS;
	else if (strcasecmp(name, "refs") == 0)
		w->has |= HAS_REFS;
	else if (strcasecmp(name, "commondir") == 0)
		w->has |= HAS_COMMONDIR;
	bool dotgit = strcasecmp(name, ".git") == 0;
	struct stat st = {0};
	if (type == DT_UNKNOWN || dotgit) {
		if (fstatat(w->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return 0; /* gone */
		type = S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
	}
	if (!dotgit && type == DT_DIR && w->skip.n && skipped(w, name))
		return 0;
	/* (Mercurial's and Jujutsu's: its config judged, its store not
	 * walked; a link too, which hg follows: round 27b.) */
	if (!dotgit && w->rel[0] && (type == DT_DIR || type == DT_LNK) && vcs_dir(name)) {
		if (fstatat(w->fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return 0; /* gone */
		int e = push_joined(w, &w->hg, local_above(w), w->rel, name);
		return e < 0 ? e : record(w, REC_HG, (unsigned long long)st.st_ino, w->rel, name);
	}
	/* (A directory of them is not walked: judged whole.) */
	if (!dotgit && w->rel[0] && is_local(w->names, w->rel, w->deep, name)) {
		int e = push_joined(w, &w->local, local_above(w), w->rel, name);
		return e < 0 ? e : record(w, REC_LOCAL, 0, w->rel, name); /* (judge_local) */
	}
	if (!dotgit && type == DT_LNK)
		return look_link(w, name);
	if (!dotgit && type == DT_REG && w->boxed && w->changed)
		return look_gitfile(w, name);
	if (!dotgit)
		return type == DT_DIR ? push_todo(w, below(w), w->rel, name, ino) : 0;
	int e = push_joined(w, &w->found, below(w), w->rel, name);
	if (e >= 0)
		e = record(w, type == DT_DIR ? REC_DOTGIT : REC_DOTGIT_FILE,
			   (unsigned long long)st.st_ino, w->rel, name);
	if (e < 0 || type != DT_DIR)
		return e;
	char *at = rel_joined("", 0, w->rel, name, false);
	if (!at)
		return -ENOMEM;
	e = push_dotgit(w, at);
	free(at);
	return e;
}

/* Where REL's first ".git/" component ends (past ".git"), or NULL: REL
 * lies in a .git directory. */
static const char *dotgit_end(const char *rel)
{
	for (const char *c = rel;; c++) {
		if (strncasecmp(c, ".git/", 5) == 0)
			return c + 4;
		if (!(c = strchr(c, '/')))
			return NULL;
	}
}

/* REL lies in a .git directory: a git dir there is one git keeps (a
 * submodule's, a linked worktree's), and nothing else in it is a place
 * anyone runs git in. */
static bool in_dotgit(const char *rel)
{
	return dotgit_end(rel) != NULL;
}

/* Whether REL is, or lies in, what this sweep moved aside. */
static bool moved_away(const struct walk *w, const char *rel)
{
	for (size_t i = 0; i < w->moved_from.n; i++)
		if (cordon_path_under(rel, w->moved_from.v[i]))
			return true;
	return false;
}

/* FROM moved aside to TO by this sweep (both relative). Out of memory: the
 * walk is disturbed, and the next session looks again. */
static void note_moved(struct walk *w, const char *from, const char *to)
{
	size_t n = w->moved_from.n;
	if (cordon_strv_push(&w->moved_from, from) < 0) {
		w->disturbed = true;
	} else if (cordon_strv_push(&w->moved_to, to) < 0) {
		free(w->moved_from.v[n]);
		w->moved_from.v[n] = NULL;
		w->moved_from.n = n;
		w->disturbed = true;
	}
}

/* ITEM (a flag, then a relative path) where it lies now, when it lay in
 * what this sweep moved aside: malloc'd; else NULL (as it was, or out of
 * memory: then judged where it was, gone, and the walk is disturbed).
 * Each move applied once, in the order they were made: each was recorded
 * by a path that already followed those before it (a repository in a bare
 * one in a bare one, to any depth: review 45f F1 found a cap of 8). */
static char *relocated(const struct walk *w, const char *item)
{
	char *now = NULL;
	for (size_t i = 0; i < w->moved_from.n; i++) {
		const char *rel = (now ? now : item) + 1;
		if (!cordon_path_under(rel, w->moved_from.v[i]))
			continue;
		char *next = NULL;
		if (asprintf(&next, "%c%s%s", item[0], w->moved_to.v[i],
			     rel + strlen(w->moved_from.v[i])) < 0) {
			free(now);
			return NULL;
		}
		free(now);
		now = next;
	}
	return now;
}

/* A directory the walk could not read: said (the first few). */
static int shut(struct walk *w, const char *rel, int e)
{
	if (e == -ENOMEM)
		return e;
	if (e == -ENOENT || e == -ENOTDIR || e == -ELOOP) {
		/* (Listed a moment ago: not a git dir's modules/ or
		 * worktrees/, looked for, nor one the record knew.) */
		w->disturbed = w->disturbed || w->listed_ino;
		return 0;
	}
	/* Recorded as unread: the next walk reads it again. */
	if (record(w, REC_UNREAD, 0, rel, NULL) < 0)
		return -ENOMEM;
	/* A hidden path: unreadable to a sweep inside another session (whose
	 * guards hide it), and nothing of the session's is in it. */
	char full[PATH_MAX];
	snprintf(full, sizeof(full), "%s%s%s", w->top, rel[0] ? "/" : "", rel);
	for (size_t i = 0; i < w->s->hidden.n; i++)
		if (cordon_path_under(full, w->s->hidden.v[i]))
			return 0;
	/* Another user's that the session, run as this one, could neither
	 * list nor write in: in a shared directory (/tmp/systemd-private-*),
	 * passed over (every user's session would say root's there); in a
	 * project (`--project /tmp`: a user's said every other user's
	 * directory there), only one it could not go through either: one it
	 * may, 0711, may hold a directory it could write (46c F2). (One it may
	 * write, a drop directory of mode 1733, is said: the session could
	 * make a directory of its own there, which no walk reaches: round 30
	 * F4; at every session's end, as what changed in a directory the user
	 * made there before does not show on it: round 31 F4.) */
	struct stat st;
	if ((lstat(full, &st) < 0 || st.st_uid != geteuid()) && access(full, W_OK) < 0 &&
	    (w->shared || access(full, X_OK) < 0))
		return 0;
	return w->n_shut++ < 3 ? cordon_strv_push(&w->shut, rel[0] ? rel : ".") : 0;
}

/* List the directory REL: its subdirectories to do, its .git entries
 * found. A git dir itself is found too: a bare-looking one is walked
 * on, one in a .git (a module's, a worktree's) only into its modules/
 * and worktrees/. */
static int reuse(struct walk *w, const char *rel, size_t at, const struct stat *st);
static size_t cache_at(const struct cache *c, const char *rel);
static const char *cached(const struct walk *w, const char *rel);
static bool cached_ino(const struct walk *w, const char *rel, unsigned long long *ino);
static bool cached_disarmed(const struct walk *w, const char *rel, unsigned long long ino,
			    struct timespec *moved);
static bool disarmed_in(const struct cache *c, const char *rel, unsigned long long ino,
			struct timespec *moved);

/* The directory REL (ST), reached under FLAG: made or moved in since the
 * session started? Made: its birth time. Moved in: its change time moved,
 * and the last walk saw another directory at its path, or none (without
 * a record: its parent changed too). A directory whose files change keeps
 * its inode. */
static bool arrived(const struct walk *w, const char *rel, const struct stat *st, char flag)
{
	const struct timespec *since = &w->s->since;
	char path[PATH_MAX + 8];
	struct timespec born;
	/* Made since changes it too. */
	if (!after(&CTIME(*st), since))
		return false;
	snprintf(path, sizeof(path), "%s/%s", w->top, rel);
	if (cordon_fs_birth(path, &born) && after(&born, since))
		return true;
	unsigned long long ino;
	if (current_at(w, rel))
		return !cached_ino(w, rel, &ino) || ino != (unsigned long long)st->st_ino;
	return flag == ABOVE_CHANGED;
}

/* Past it, the rest is said in one line that names the root (round 30
 * F3: 256, each a descriptor held, and 300 decoys made unreadable hid
 * the user's repository, made 0311, behind "... and 42 more"). */
#define OPENED_MAX 65536
/* Of them, held by a descriptor, which follows the directory wherever a
 * session moves it meanwhile; past it, found again by its path, and only
 * as the very directory. */
#define OPENED_HELD 256

/* REL, a directory of the user's own made unreadable inside (chmod 0,
 * 0311): the sweep, running as its owner, reads it all the same, and
 * leaves it as it was (root reads it anyway). Its mode is changed through
 * a descriptor that stands for it, opened beneath the root without a link
 * on the way: by a path, a link another session swapped in meanwhile made
 * the sweep change the mode of a file outside (a private key, 0600 to
 * 0377). It is given back once all is judged (what is below it is
 * reached through it), through that descriptor, kept (past OPENED_HELD,
 * opened again the same way, to the very directory: its device and
 * inode). A descriptor for reading it, or -errno (-EACCES: as it was). */
static int open_up(struct walk *w, const char *rel)
{
	if (w->n_opened >= OPENED_MAX) {
		w->n_unopened++;
		return -EACCES;
	}
	struct opened *nv = cordon_grow(w->opened, &w->opened_cap, w->n_opened + 1, sizeof(*nv), 8);
	if (!nv)
		return -ENOMEM;
	w->opened = nv;
	char *copy = strdup(rel);
	int held = copy ? cordon_fs_hold_beneath(w->root, rel) : -ENOMEM;
	if (held < 0) {
		free(copy);
		return held == -EOPNOTSUPP ? -EACCES : held;
	}
	struct stat st;
	if (fstat(held, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    cordon_fs_chmod_held(held, (st.st_mode & 07777) | S_IRUSR | S_IXUSR) < 0) {
		close(held);
		free(copy);
		return -EACCES;
	}
	bool keep = w->n_opened < OPENED_HELD;
	w->opened[w->n_opened++] =
		(struct opened){keep ? held : -1, copy, st.st_dev, st.st_ino, st.st_mode & 07777};
	int fd = cordon_fs_open_held(held);
	if (!keep)
		close(held);
	return fd;
}

/* The root TOP of the user's own made unreadable (a session's chmod 0 or
 * 0311 on its project as it ended escaped its own sweep: 47c P3, the
 * repository it made and added to the index then ran at git status
 * outside, and later sessions guarded it as the user's submodule), opened
 * as open_up opens one below it: its owner's read and search given for
 * the walk, HELD and MODE kept for top_down. -1 with errno set where it
 * is not. */
static int open_top_up(const char *top, int *held, mode_t *mode)
{
	int h = open(top, CORDON_O_HOLD | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (h < 0 || fstat(h, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    cordon_fs_chmod_held(h, (st.st_mode & 07777) | S_IRUSR | S_IXUSR) < 0) {
		if (h >= 0)
			close(h);
		errno = EACCES;
		return -1;
	}
	int fd = cordon_fs_open_held(h);
	if (fd < 0) {
		(void)cordon_fs_chmod_held(h, st.st_mode & 07777);
		close(h);
		errno = -fd;
		return -1;
	}
	*held = h;
	*mode = st.st_mode & 07777;
	return fd;
}

/* The root's mode open_top_up changed (HELD, or -1), given back. */
static void top_down(int held, mode_t mode)
{
	if (held < 0)
		return;
	(void)cordon_fs_chmod_held(held, mode);
	close(held);
}

/* The modes open_up changed, given back, deepest first. */
static void close_up(struct walk *w)
{
	for (size_t i = w->n_opened; i-- > 0;) {
		const struct opened *o = &w->opened[i];
		int held = o->fd >= 0 ? o->fd : cordon_fs_hold_beneath(w->root, o->rel);
		struct stat st;
		if (held >= 0 && fstat(held, &st) == 0 && st.st_dev == o->dev &&
		    st.st_ino == o->ino)
			(void)cordon_fs_chmod_held(held, o->mode);
		if (held >= 0)
			close(held);
		free(o->rel);
	}
	free(w->opened);
}

/* Whether REL's HEAD, which the walk matched in any case, is one git
 * takes (cordon_guard_head_valid); one named otherwise than HEAD (Head,
 * which a volume that ignores case gives git) is taken as it is. */
static bool head_as_git(const struct walk *w, const char *rel, unsigned hexsz)
{
	char path[PATH_MAX + 8];
	struct stat st;
	snprintf(path, sizeof(path), "%s%sHEAD", rel, *rel ? "/" : "");
	if (fstatat(w->root, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT;
	return cordon_guard_head_valid(w->root, rel, hexsz);
}

/* The hex digits of an object id where REL lies: the superproject's, whose
 * .git it lies in (a sha256 one's module git dir, round 49a F3), or its
 * own. */
static unsigned hexsz_at(struct walk *w, const char *rel)
{
	char gitdir[PATH_MAX];
	const char *end = dotgit_end(rel);
	snprintf(gitdir, sizeof(gitdir), "%.*s", end ? (int)(end - rel) : (int)strlen(rel), rel);
	/* (Once a walk for the modules of one .git: its config is guarded.
	 * One past a path: the longer, which takes fewer for git dirs.) */
	char at[PATH_MAX * 2];
	if (w->hex && strcmp(gitdir, w->hex_dir) == 0)
		return w->hex;
	if ((size_t)snprintf(at, sizeof(at), "%s/%s", w->top, gitdir) >= PATH_MAX)
		return 64;
	w->hex = cordon_git_hexsz(at);
	snprintf(w->hex_dir, sizeof(w->hex_dir), "%s", gitdir);
	return w->hex;
}

static int list_dir(struct walk *w, const char *rel, char flag)
{
	struct stat st;
	if (fstatat(w->root, rel[0] ? rel : ".", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return shut(w, rel, -errno);
	/* (Another directory put in the place of the one listed.) */
	if (w->listed_ino && w->same_ino && st.st_dev == w->root_st.st_dev &&
	    (unsigned long long)st.st_ino != w->listed_ino)
		w->disturbed = true;
	w->fresh = rel[0] && (flag == ABOVE_NEW || arrived(w, rel, &st, flag));
	w->changed = after(&CTIME(st), &w->s->since);
	/* (Not the top, listed first: what left it before went where the
	 * walk had not been; the stand-ins cordon takes away at the project's
	 * top as the session ends stirred every walk, 15 ms a launch in a
	 * project of 20,000 directories.) */
	w->stirred = w->stirred || (rel[0] && after(&CTIME(st), &w->began));
	/* Unchanged since the last walk read it (its change time is older
	 * than that walk's start): it holds the same names, so the last
	 * walk's record of it stands. */
	size_t at = current_at(w, rel) ? cache_at(&w->cache, rel) : w->cache.n;
	const char *rec = at < w->cache.n ? w->cache.recs[at] : NULL;
	char kind = '\0';
	if (rec && (rec[0] == REC_DIR || rec[0] == REC_GIT_DIR))
		kind = rec[0];
	/* (The very directory the record saw there: one moved in with its
	 * parent keeps its own old change time, and its listing was taken
	 * for the one it replaced, round 28c: `mv a a.old; mv b a`, then
	 * a/src/lib/.exrc, with b/src/lib unknown to the record, was never
	 * walked.) */
	/* (Nor one whose entries may lie past PATH_MAX: a record an older
	 * cordon wrote has it as REC_DIR, round 31b G4.) */
	if ((w->top_len ? w->top_len : strlen(w->top)) + strlen(rel) + NAME_MAX + 2 >= PATH_MAX)
		kind = '\0';
	/* (Nor a git dir in a .git: what is listed below it depends on what
	 * is in it, and the record keeps only that it was one. A session made
	 * .git/modules/d look like one, the next filled d/X, and the walk,
	 * from the record, never went into d: round 49a F1.) */
	if (kind == REC_GIT_DIR && in_dotgit(rel))
		kind = '\0';
	if (kind && S_ISDIR(st.st_mode) && st.st_dev == w->root_st.st_dev && !w->fresh &&
	    rec_ino(rec) == (unsigned long long)st.st_ino && !after(&CTIME(st), &w->cache.at))
		return reuse(w, rel, at, &st);
	int fd = cordon_fs_open_beneath(w->root, rel);
	if (fd == -EACCES && S_ISDIR(st.st_mode) && st.st_uid == geteuid())
		fd = open_up(w, rel);
	if (fd < 0)
		return shut(w, rel, fd);
	size_t todo_before = w->todo.n;
	w->rel = rel;
	w->fd = fd;
	w->boxed = boxed_rel(rel);
	w->has = 0;
	w->dropped = false;
	w->deep = deep_here(w, rel);
	int e = cordon_fs_list(fd, visit, w, w->buf, BUF_SIZE);
	close(fd);
	if (e < 0)
		return shut(w, rel, e);
	/* (A HEAD git takes, as the guards ask: round 48d F1, a session gave
	 * .git/modules/d a HEAD git rejects, and the walk took d for a git
	 * dir and never went into its d/X.) */
	unsigned hexsz = (w->has & HAS_HEAD) ? hexsz_at(w, rel) : 40;
	bool git_dir = (w->has & HAS_HEAD) &&
		       ((w->has & HAS_COMMONDIR) ||
			(w->has & (HAS_OBJECTS | HAS_REFS)) == (HAS_OBJECTS | HAS_REFS)) &&
		       head_as_git(w, rel, hexsz);
	/* (A root that is one, a bare repository made writable, is judged
	 * too. One with a HEAD is listed again at each walk: a HEAD written in
	 * place, which changes nothing in its directory, may make it a git
	 * dir, judged_became.) */
	if (!git_dir)
		return record(w, w->dropped || (w->has & HAS_HEAD) ? REC_DEEP : REC_DIR,
			      (unsigned long long)st.st_ino, rel, NULL);
	/* It is judged whole, as git would use it. */
	e = push_joined(w, &w->found, flag, rel, "");
	struct timespec moved;
	bool disarmed = cached_disarmed(w, rel, (unsigned long long)st.st_ino, &moved);
	if (e >= 0)
		e = record(w, disarmed ? REC_DISARMED : REC_GIT_DIR, (unsigned long long)st.st_ino,
			   rel, NULL);
	if (e >= 0 && disarmed)
		e = record_moved(w, rel, &moved);
	if (e < 0 || !in_dotgit(rel))
		return e; /* a bare one: git may be run in any directory below */
	/* Below a git dir in a .git, every directory: git's fetch opens
	 * .git/modules/NAME by any name a .gitmodules gives, with no look at
	 * what lies above it (round 49d G1: a git dir at modules/d/X/objects/
	 * foo, a submodule named so, ran at git fetch outside; 48d F1, 48e F1,
	 * 49a F2 hid one below a directory of git's own name too). modules/
	 * and worktrees/ are push_kept's. */
	size_t kept = todo_before;
	for (size_t i = todo_before; i < w->todo.n; i++) {
		const char *name = last_name(w->todo.v[i]);
		if (strcmp(name, "modules") == 0 || strcmp(name, "worktrees") == 0)
			free(w->todo.v[i]);
		else
			w->todo.v[kept++] = w->todo.v[i];
	}
	for (size_t i = kept; i < w->todo.n; i++)
		w->todo.v[i] = NULL;
	w->todo.n = kept;
	return push_kept(w, rel);
}

/* ---- the last walk's record ---- */

static int by_path(const void *a, const void *b)
{
	return strcmp(REC_PATH(*(const char *const *)a), REC_PATH(*(const char *const *)b));
}

/* The N records of ARRAY (char pointers) sorted by path: nothing to do
 * when they are in order already (a record saved sorted, read back),
 * else a merge sort of the pointers (musl's qsort moves each element with
 * a call to memcpy: a third of the time of a walk of 20,000 directories,
 * round 30). */
static void sort_records(void *array, size_t n)
{
	const char **v = array;
	size_t i = 1;
	while (i < n && strcmp(REC_PATH(v[i - 1]), REC_PATH(v[i])) <= 0)
		i++;
	if (i >= n)
		return;
	const char **tmp = malloc(n * sizeof(*tmp));
	if (!tmp) {
		qsort(v, n, sizeof(*v), by_path);
		return;
	}
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t a = lo, b = mid, k = lo;
			while (a < mid && b < hi)
				tmp[k++] = strcmp(REC_PATH(v[a]), REC_PATH(v[b])) <= 0 ? v[a++]
										       : v[b++];
			while (a < mid)
				tmp[k++] = v[a++];
			while (b < hi)
				tmp[k++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(tmp);
}

/* The first record whose path is not below KEY in sort order. */
static size_t lower_bound(const char *const *recs, size_t n, const char *key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(REC_PATH(recs[mid]), key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Past so many slots from its hash's, a record gives the index up: the
 * names are the session's, and a session made 131,072 directories whose
 * paths share one hash of an unseeded FNV-1a, which made the index's
 * making and each look-up go through them all: every later session's
 * end took 112 s (round 32 F1). With a key drawn per process, and this
 * bound behind it, the binary search is the worst. */
static uint32_t path_hash(const char *p)
{
#ifdef CORDON_TEST_HOOKS
	/* Test builds: every path one hash, as a flooding session's. */
	static int same = -1;
	if (same < 0)
		same = getenv("CORDON_TEST_PATH_HASH") &&
		       !strcmp(getenv("CORDON_TEST_PATH_HASH"), "same");
	if (same)
		return 7;
#endif
	static uint64_t key;
	while (!key && getrandom(&key, sizeof(key), GRND_NONBLOCK) != (ssize_t)sizeof(key))
		key = (uint64_t)(uintptr_t)&key ^ (uint64_t)getpid() << 32; /* (no entropy yet) */
	uint64_t h = 14695981039346656037ULL ^ key;                         /* FNV-1a 64, keyed */
	for (; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ULL ^ key;
	return (uint32_t)(h ^ (h >> 32));
}

/* The first record of C at REL in sort order, its index, or C's n. */
static size_t cache_at(const struct cache *c, const char *rel)
{
	if (!c->valid)
		return c->n;
	if (c->index && path_index_make(&c->index->by_path, c->recs, c->n, false))
		return path_index_find(&c->index->by_path, c->recs, rel);
	size_t i = lower_bound(c->recs, c->n, rel);
	return i < c->n && strcmp(REC_PATH(c->recs[i]), rel) == 0 ? i : c->n;
}

static const char *cache_find(const struct cache *c, const char *rel)
{
	size_t i = cache_at(c, rel);
	return i < c->n ? c->recs[i] : NULL;
}

/* C's lcp and last made (cache_index). False where they cannot be. */
static bool cache_tree(const struct cache *c)
{
	struct cache_index *x = c->index;
	if (!x || x->tree_failed || !c->valid)
		return false;
	if (x->lcp)
		return true;
	x->lcp = malloc((c->n + 1) * sizeof(*x->lcp));
	x->last = malloc((c->n + 1) * sizeof(*x->last));
	if (!x->lcp || !x->last) {
		free(x->lcp);
		free(x->last);
		x->lcp = x->last = NULL;
		x->tree_failed = true;
		return false;
	}
	for (size_t i = 0; i < c->n; i++) {
		const char *p = REC_PATH(c->recs[i]), *q = i ? REC_PATH(c->recs[i - 1]) : "";
		uint32_t k = 0, last = 0;
		while (p[k] && p[k] == q[k])
			k++;
		x->lcp[i] = k;
		for (uint32_t j = 0; p[j]; j++)
			if (p[j] == '/')
				last = j + 1;
		x->last[i] = last;
	}
	return true;
}

/* The first of C's records (sorted) not below PREFIX, the path of the
 * directory recorded at J and a slash: searched from J onwards (its
 * entries mostly come right after it). */
static size_t first_below(const struct cache *c, size_t j, const char *prefix)
{
	if (!prefix[0])
		return 0;
	size_t a = j + 1, b = a, step = 1; /* (J's path sorts before PREFIX) */
	while (b < c->n && strcmp(REC_PATH(c->recs[b]), prefix) < 0) {
		a = b + 1;
		b = a + step;
		step *= 2;
	}
	if (b > c->n)
		b = c->n;
	return a + lower_bound(c->recs + a, b - a, prefix);
}

static const char *cached(const struct walk *w, const char *rel)
{
	return cache_find(&w->cache, rel);
}

/* Whether a sweep that ended while this session ran moved aside the
 * repository it had recorded at REL (its entry there with no inode): one
 * there now was put back, or replaced, since (round 27d: a session
 * started before another's plant moved back the .git that one's sweep
 * moved aside, and its own start record knew that very inode). */
static bool moved_aside_since(const struct walk *w, const char *rel)
{
	const char *r = cache_find(&w->latest, rel), *was = cached(w, rel);
	/* (Known at REL as the session started: one the user put back
	 * before it, as the sweep's line tells them to, is theirs.) */
	return r && was && rec_ino(was) != 0 &&
	       (r[0] == REC_DOTGIT || r[0] == REC_DOTGIT_FILE || r[0] == REC_GIT_DIR ||
		r[0] == REC_HG) &&
	       rec_ino(r) == 0;
}

/* REL, the inode INO, is a git dir a sweep moved aside (and the last
 * walk, in C, still found there), with the change time the move gave it
 * into *MOVED. */
static bool disarmed_in(const struct cache *c, const char *rel, unsigned long long ino,
			struct timespec *moved)
{
	const char *r = cache_find(c, rel);
	if (!r || r[0] != REC_DISARMED || rec_ino(r) != ino)
		return false;
	cleanup_free char *key = rel_joined("", 0, rel, "", true);
	if (!key || !(r = cache_find(c, key)) || r[0] != REC_MOVED)
		return false;
	unsigned long long ns = rec_ino(r);
	moved->tv_sec = (time_t)(ns / 1000000000ULL);
	moved->tv_nsec = (long)(ns % 1000000000ULL);
	return true;
}

/* ... in the record as the session started, or in the one a sweep that
 * ended since saved (round 30b N5: three sessions ending together each
 * moved the one before's .git.cordon-disarmed on, to
 * .git.cordon-disarmed.cordon-disarmed, and blamed themselves; their
 * sweeps take turns now, sweep_lock). */
static bool cached_disarmed(const struct walk *w, const char *rel, unsigned long long ino,
			    struct timespec *moved)
{
	return disarmed_in(&w->cache, rel, ino, moved) || disarmed_in(&w->latest, rel, ino, moved);
}

/* The inode the last walk saw at REL. */
static bool cached_ino(const struct walk *w, const char *rel, unsigned long long *ino)
{
	const char *r = cached(w, rel);
	if (r)
		*ino = rec_ino(r);
	return r != NULL;
}

/* REL (ST), unchanged: what the last walk found in it, again (its record
 * the cache's AT). */
static int reuse(struct walk *w, const char *rel, size_t at, const struct stat *st)
{
	char kind = w->cache.recs[at][0];
	int e = record(w, kind, (unsigned long long)st->st_ino, rel, NULL);
	if (e >= 0 && kind == REC_GIT_DIR) {
		e = push_joined(w, &w->found, (char)(w->fresh ? ABOVE_NEW : ABOVE_OLD), rel, "");
		if (e >= 0 && in_dotgit(rel))
			return push_kept(w, rel);
	}
	const struct cache *c = &w->cache;
	cleanup_free char *prefix = e >= 0 ? rel_joined("", 0, rel, "", true) : NULL;
	if (!prefix)
		return -ENOMEM;
	size_t pn = strlen(prefix);
	bool deep = deep_here(w, rel);
	bool tree = cache_tree(c);
	size_t lo = tree ? first_below(c, at, prefix) : lower_bound(c->recs, c->n, prefix);
	for (size_t i = lo; e >= 0 && i < c->n; i++) {
		const char *r = c->recs[i], *path = REC_PATH(r);
		/* (Sorted: one shares PREFIX where the one before it, which did,
		 * shares as much with it.) */
		if (tree && i > lo ? c->index->lcp[i] < pn : strncmp(path, prefix, pn) != 0)
			break;
		if (!path[pn] || (tree ? c->index->last[i] != pn : strchr(path + pn, '/') != NULL))
			continue; /* REL itself, or deeper */
		switch (r[0]) {
		case REC_DIR:
		case REC_DEEP:
		case REC_GIT_DIR:
		case REC_DISARMED: /* (read again: its REC_MOVED goes with it) */
		case REC_UNREAD:
			e = push_todo(w, below(w), path, "", 0);
			break;
		case REC_LINK: /* (what it leads to is looked at again) */
			e = push_joined(w, &w->links, ABOVE_NEW, path, "");
			if (e >= 0)
				e = record(w, REC_LINK, 0, path, NULL);
			break;
		case REC_HG:
			e = push_joined(w, &w->hg, local_above(w), path, "");
			if (e >= 0)
				e = record(w, REC_HG, rec_ino(r), path, NULL);
			break;
		case REC_LOCAL: /* (while its name is one: protected_paths may change) */
			if (!is_local(w->names, rel, deep, path + pn))
				break;
			e = push_joined(w, &w->local, local_above(w), path, "");
			if (e >= 0)
				e = record(w, REC_LOCAL, 0, path, NULL);
			break;
		case REC_DOTGIT:
		case REC_DOTGIT_FILE:
			e = push_joined(w, &w->found, below(w), path, "");
			if (e >= 0)
				e = record(w, r[0], rec_ino(r), path, NULL);
			if (e >= 0 && r[0] == REC_DOTGIT)
				e = push_dotgit(w, path);
			break;
		default:
			break;
		}
	}
	return e;
}

char *cordon_sweep_record_path(const char *project)
{
	/* (Made once a process and user: a sweep names several records
	 * a root, each a mkdir -p of three directories otherwise.) */
	static char *dir;
	static uid_t made_for = (uid_t)-1;
	if (!dir || made_for != geteuid()) {
		struct cordon_error err = {0};
		free(dir);
		dir = NULL;
		if (cordon_state_dir(&dir, &err) < 0 || !dir)
			return NULL;
		made_for = geteuid();
	}
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (const char *p = project; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	char *path;
	return asprintf(&path, "%s/sweep-%016llx", dir, (unsigned long long)h) < 0 ? NULL : path;
}

/* Whether the entry NAME of the registry D holds AT: a note's text
 * (AT \0), or a record's header ("cordon-sweep N" \0 AT \0 ...). */
static bool entry_names(int d, const char *name, const char *at, bool note)
{
	char head[PATH_MAX + 32];
	int fd = openat(d, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, head, sizeof(head) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	head[n] = '\0';
	const char *root = head;
	if (!note) {
		size_t m = strlen(head);
		if (strncmp(head, "cordon-sweep ", 13) != 0 || (ssize_t)m + 1 >= n)
			return false;
		root = head + m + 1;
	}
	size_t len = strlen(at);
	return (size_t)(head + n - root) > len && memcmp(root, at, len + 1) == 0;
}

static int noted_in(const char *any, const char *path, const char *within, char *note, size_t size);

int cordon_sweep_noted(const char *path, const char *within, char *note, size_t size)
{
	char *dirs[2];
	notes_dirs(dirs);
	char *all[3] = {dirs[0], dirs[1], home_records_dir(dirs)};
	int found = -ENOENT;
	for (int k = 0; k < 3 && found <= 0; k++) {
		int f = all[k] ? noted_in(all[k], path, within, note, size) : -ENOENT;
		if (f >= 0)
			found = f;
	}
	free(all[2]);
	notes_dirs_free(dirs);
	return found;
}

void cordon_sweep_unnote(const char *dir)
{
	char *dirs[2];
	notes_dirs(dirs);
	char name[64];
	snprintf(name, sizeof(name), WROTE "%016llx", dir_hash(dir));
	/* From each registry, where the note was made in each (46b F5:
	 * only the first lost it, and with HOME apart from the passwd home
	 * every session left one in the passwd home's for good). */
	char *all[3] = {dirs[0], dirs[1], home_records_dir(dirs)};
	for (int k = 0; k < 3; k++) {
		int d = all[k] ? open(all[k], O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		struct stat st;
		if (d >= 0 && fstatat(d, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && entry_names(d, name, dir, true))
			(void)unlinkat(d, name, 0);
		if (d >= 0)
			close(d);
	}
	free(all[2]);
	notes_dirs_free(dirs);
}

/* cordon_sweep_noted, in the state directory ANY. */
static int noted_in(const char *any, const char *path, const char *within, char *note, size_t size)
{
	int d = open(any, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d < 0)
		return -ENOENT;
	char at[PATH_MAX];
	while (path[0] == '/' && path[1] == '/')
		path++;
	if (snprintf(at, sizeof(at), "%s", path) >= (int)sizeof(at)) {
		close(d);
		return 0;
	}
	int found = 0;
	while (!found && !(within && !cordon_path_under(at, within))) {
		char name[64];
		struct stat st;
		snprintf(name, sizeof(name), WROTE "%016llx", dir_hash(at));
		/* (Or a sweep's record, of a session before the notes.) */
		cleanup_free char *record = cordon_sweep_record_path(at);
		const char *base = record ? strrchr(record, '/') : NULL;
		bool by_note = fstatat(d, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			       S_ISREG(st.st_mode) && entry_names(d, name, at, true);
		found = by_note || (base && fstatat(d, base + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				    S_ISREG(st.st_mode) && entry_names(d, base + 1, at, false));
		if (found && note)
			snprintf(note, size, "%s/%s", any, by_note ? name : base + 1);
		char *up = strrchr(at, '/');
		if (!up || (up == at && !at[1]))
			break;
		up[up == at] = '\0';
	}
	close(d);
	return found;
}

bool cordon_sweep_layable(const char *dir, const char *within, char *note, size_t size)
{
	int k = cordon_sweep_noted(dir, within, note, size);
	if (k >= 0)
		return k > 0;
	char at[PATH_MAX];
	if (snprintf(at, sizeof(at), "%s", dir) >= (int)sizeof(at))
		return true;
	for (;;) {
		struct stat st;
		if (within && !cordon_path_under(at, within))
			return false;
		if (access(at, W_OK) == 0 || (lstat(at, &st) == 0 && st.st_uid == geteuid()))
			return true;
		char *up = strrchr(at, '/');
		if (!up || (up == at && !at[1]))
			return false;
		up[up == at] = '\0';
	}
}

#define CACHE_MAX (256u << 20)

/* The last walk's record of W's project, if there is one for this very
 * directory (its path, device and inode) from a time not ahead of now;
 * SORTED: by path, to be looked up in (the snapshot only goes through
 * it). */
static void cache_load(struct walk *w, const char *path, bool sorted)
{
	struct cache *c = &w->cache;
	int fd = path ? open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) : -1;
	struct stat st;
	size_t max = CACHE_MAX;
#ifdef CORDON_TEST_HOOKS
	/* Test builds: a record past a small bound, as a session could make
	 * one past CACHE_MAX. */
	const char *test_max = getenv("CORDON_TEST_RECORD_MAX");
	if (test_max && *test_max)
		max = (size_t)strtoull(test_max, NULL, 10);
#endif
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (size_t)st.st_size > max || !(c->data = malloc((size_t)st.st_size + 1))) {
		c->unusable = fd >= 0 || (errno != ENOENT && path);
		c->size = fd >= 0 && fstat(fd, &st) == 0 ? st.st_size : 0;
		if (fd >= 0)
			close(fd);
		return;
	}
	size_t size = (size_t)st.st_size;
	int e = cordon_read_full(fd, c->data, size);
	close(fd);
	if (e < 0) {
		c->unusable = true;
		return;
	}
	c->data[size] = '\0';
	const char *field[6];
	size_t at = record_head(c->data, size, field);
	if (!at)
		return;
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	c->at.tv_sec = (time_t)strtoll(field[2], NULL, 10);
	/* Or one of a directory above the top (keep_start's, where the top
	 * had none), of which only what lies below the top is taken, as if
	 * the top's own. */
	struct stat above = w->root_st;
	const char *below = NULL;
	if (strcmp(field[1], w->top) != 0) {
		if (!cordon_path_under(w->top, field[1]) || stat(field[1], &above) < 0)
			return;
		below = w->top + strlen(field[1]) + (strcmp(field[1], "/") != 0);
	}
	if (strcmp(field[0], CACHE_MAGIC) != 0 ||
	    strtoull(field[3], NULL, 10) != (unsigned long long)above.st_dev ||
	    strtoull(field[4], NULL, 10) != (unsigned long long)above.st_ino || c->at.tv_sec <= 0 ||
	    c->at.tv_sec > now.tv_sec)
		return;
	size_t n = 0, bn = below ? strlen(below) : 0;
	for (size_t i = at; i < size; i++)
		n += c->data[i] == '\0';
	if (!(c->recs = calloc(n + 1, sizeof(*c->recs))))
		return;
	while (at < size) {
		char *r = c->data + at;
		at += strlen(r) + 1;
		/* (A kind, 16 hex digits: rec_ino's.) */
		if (!r[0] || at > size + 1 || strlen(r) < 17 || !rec_head_ok(r))
			continue;
		if (r[0] == REC_COVERS) {
			const char **nv = realloc(c->covers, (c->n_covers + 1) * sizeof(*nv));
			if (!nv)
				return;
			c->covers = nv;
			c->covers[c->n_covers++] = r + 17;
			continue;
		}
		if (below) { /* BELOW itself is the top, "", and BELOW/x is x */
			char *at_path = r + 17;
			if (strncmp(at_path, below, bn) != 0 || (at_path[bn] && at_path[bn] != '/'))
				continue;
			char *rest = at_path + bn + (at_path[bn] == '/');
			memmove(at_path, rest, strlen(rest) + 1);
		}
		c->recs[c->n++] = r;
	}
	if (sorted) { /* (to be looked up in) */
		sort_records(c->recs, c->n);
		c->index = calloc(1, sizeof(*c->index)); /* (none: searched) */
	}
	c->valid = true;
	/* Saved before this session started (or the earliest it judges
	 * from, to the second). */
	unsigned long long saved = strtoull(field[5], NULL, 10);
	const struct timespec *from = w->s->earlier ? &w->s->since : &w->s->started;
	c->current = saved > 0 && saved < (unsigned long long)from->tv_sec * 1000000000ULL +
						  (unsigned long long)from->tv_nsec;
}

/* This walk's record, for the next, written whole or not at all. AT: when
 * this walk started, to the second. */
static void cache_save(struct walk *w, const char *path, const struct timespec *at)
{
	sort_own(w);
	cleanup_free char *tmp = NULL;
	if (!path || asprintf(&tmp, "%s.%d.tmp", path, (int)getpid()) < 0)
		return;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	struct timespec done;
	clock_gettime(CLOCK_REALTIME, &done);
	write_head(f, w->top, (long long)at->tv_sec, &w->root_st,
		   (unsigned long long)done.tv_sec * 1000000000ULL +
			   (unsigned long long)done.tv_nsec);
	for (size_t i = 0; i < w->recs.n; i++)
		(void)fwrite(w->recs.v[i], 1, strlen(w->recs.v[i]) + 1, f);
	if (fclose(f) != 0 || rename(tmp, path) < 0)
		unlink(tmp);
}

/* The records of the roots below ROOT in the registry, those that are
 * what their header says (record_of), written as one record of ROOT into
 * START: each one's entries beneath its root's path, and that path as
 * REC_COVERS (all the record knows). Its walk's start is 1 (nothing is
 * taken as unchanged since), and it was saved as the newest of them was.
 * Whether one was made. */
static bool below_records(const char *root, const char *start)
{
	cleanup_free char *any = cordon_sweep_record_path(root);
	char *slash = any ? strrchr(any, '/') : NULL;
	struct stat rst;
	if (!slash || stat(root, &rst) < 0)
		return false;
	*slash = '\0';
	DIR *d = opendir(any);
	struct cordon_strv found = {0};
	for (struct dirent *de; d && (de = readdir(d));) {
		/* sweep-HASH alone: not a mark, a start record, a temporary */
		if (strncmp(de->d_name, "sweep-", 6) != 0 || strchr(de->d_name, '.'))
			continue;
		char path[PATH_MAX + 300], top[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", any, de->d_name);
		if (record_of(path, NULL, top, sizeof(top)) && strcmp(top, root) != 0 &&
		    cordon_path_under(top, root) && cordon_strv_push(&found, path) < 0)
			break;
	}
	if (d)
		closedir(d);
	bool made = false;
	cleanup_free char *tmp = found.n ? cordon_join3(start, ".tmp", "") : NULL;
	int fd = tmp ? open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fd >= 0 && !f)
		close(fd);
	unsigned long long saved = 0;
	struct cordon_strv recs = {0};
	size_t total = 0;
	for (size_t i = 0; f && i < found.n; i++) {
		size_t len = 0;
		/* (All of them within what one record may be: the start record
		 * made of them is one, round 28c F5.) */
		cleanup_free char *data =
			total < CACHE_MAX / 2 ? cordon_read_regular(found.v[i], CACHE_MAX / 2, &len)
					      : NULL;
		total += len;
		if (total > CACHE_MAX / 2)
			break;
		const char *field[6];
		size_t at = data ? record_head(data, len, field) : 0;
		if (!at)
			continue;
		unsigned long long s = strtoull(field[5], NULL, 10);
		saved = s > saved ? s : saved;
		const char *rel = field[1] + strlen(root) + (strcmp(root, "/") != 0);
		char *cover = NULL;
		if (asprintf(&cover, "%c%016llx%s", REC_COVERS, 0ULL, rel) < 0 ||
		    cordon_strv_push_take(&recs, cover) < 0)
			break;
		while (at < len) {
			const char *r = data + at;
			at += strlen(r) + 1;
			char *joined = NULL;
			if (strlen(r) < 17 || r[0] == REC_COVERS)
				continue;
			if (asprintf(&joined, "%.17s%s%s%s", r, rel, r[17] ? "/" : "", r + 17) <
				    0 ||
			    cordon_strv_push_take(&recs, joined) < 0)
				break;
		}
	}
	if (f && recs.n) {
		sort_records(recs.v, recs.n);
		write_head(f, root, 1, &rst, saved);
		for (size_t i = 0; i < recs.n; i++)
			fprintf(f, "%s%c", recs.v[i], 0);
	}
	if (f && fclose(f) == 0 && recs.n && rename(tmp, start) == 0)
		made = true;
	else if (tmp)
		(void)unlink(tmp);
	cordon_strv_free(&recs);
	cordon_strv_free(&found);
	return made;
}

/* ---- what the repositories had as the session started ---- */

#define SNAPSHOT_MAX   4096        /* configs; past it, the rest count as before */
#define SNAPSHOT_BYTES (16u << 20) /* and their settings' text */

/* The settings DIR/NAME has that would run something, kept in S. */
static void had(struct cordon_sweep *s, const char *dir, const char *name)
{
	char path[PATH_MAX + 32];
	/* (A guarded one too: see guard_lost.) */
	if (s->n_configs >= SNAPSHOT_MAX || s->configs_bytes > SNAPSHOT_BYTES ||
	    snprintf(path, sizeof(path), "%s/%s", dir, name) >= PATH_MAX)
		return;
	for (size_t i = 0; i < s->n_configs; i++)
		if (strcmp(s->configs[i].path, path) == 0)
			return;
	char ignored[64] = "";
	struct cordon_git_entries e;
	(void)cordon_git_config_scan(path, NULL, &e, ignored, sizeof(ignored));
	for (size_t i = 0; i < e.v.n; i++)
		s->configs_bytes += strlen(e.v.v[i]) + 1;
	if (s->configs_bytes > SNAPSHOT_BYTES)
		e.whole = false;
	struct cordon_sweep_config *nv =
		e.whole && e.v.n
			? cordon_grow(s->configs, &s->configs_cap, s->n_configs + 1, sizeof(*nv), 8)
			: NULL;
	char *copy = nv ? strdup(path) : NULL;
	if (!copy) { /* none, or out of memory: all of it counts */
		cordon_git_entries_free(&e);
		return;
	}
	s->configs = nv;
	s->configs[s->n_configs++] = (struct cordon_sweep_config){copy, e};
}

#define REMOTES_MAX 1024 /* files in remotes/ or branches/ read; past it, a risk */

/* The files in the remotes/ and branches/ of the git dir DIR, held
 * ('m'): the user's own remotes, as the session starts. */
static void hold_remotes(struct cordon_sweep *s, const char *dir)
{
	static const char *const kinds[] = {"remotes", "branches"};
	for (size_t k = 0; k < 2; k++) {
		char path[PATH_MAX + 300];
		snprintf(path, sizeof(path), "%s/%s", dir, kinds[k]);
		DIR *d = opendir(path);
		int n = 0;
		for (struct dirent *de; d && n < REMOTES_MAX && (de = readdir(d)); n++) {
			snprintf(path, sizeof(path), "%s/%s/%s", dir, kinds[k], de->d_name);
			if (de->d_name[0] != '.')
				hold(s, path, 'm');
		}
		if (d)
			closedir(d);
	}
}

/* As the session starts: what the configs of the repositories the last
 * walk of TOP found set (its record lists them; none without one). */
static void snapshot(struct cordon_sweep *s, const char *top)
{
	struct walk w = {.s = s, .top = top};
	int fd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	bool ok = fstat(fd, &w.root_st) == 0;
	close(fd);
	cleanup_free char *record = ok ? cordon_sweep_record_path(top) : NULL;
	if (record)
		cache_load(&w, record, false);
	/* The root's own repository, record or not (its config is the one a
	 * program outside most often rewrites: see guard_lost), then those
	 * the last walk found. */
	for (size_t i = 0; i == 0 || (w.cache.valid && i <= w.cache.n); i++) {
		const char *r = i ? w.cache.recs[i - 1] : NULL, *rel = r ? REC_PATH(r) : ".git";
		if (r && (strcmp(rel, ".git") == 0 ||
			  (r[0] != REC_DOTGIT && r[0] != REC_DOTGIT_FILE && r[0] != REC_GIT_DIR)))
			continue;
		char path[PATH_MAX + 8];
		snprintf(path, sizeof(path), rel[0] ? "%s/%s" : "%s", top, rel);
		/* As judge_repo finds them. */
		cleanup_free char *dir = cordon_git_dir_of(path);
		if (!dir)
			continue;
		had(s, dir, "config");
		had(s, dir, "config.worktree");
		char f[PATH_MAX + 16];
		snprintf(f, sizeof(f), "%s/commondir", dir);
		cleanup_free char *shared = cordon_git_link_file(f, "", dir);
		if (shared)
			had(s, shared, "config");
		if (i == 0)
			hold_remotes(s, shared ? shared : dir);
		/* (A repository whose worktree holds the .git found: not a
		 * bare one's, nor one kept in .git/modules.) */
		size_t pn = strlen(path);
		if (pn > 5 && strcmp(path + pn - 5, "/.git") == 0) {
			path[pn - 5] = '\0';
			(void)cordon_sweep_tracked_hold(s, dir, path);
		}
	}
	cache_free(&w.cache);
}

/* What the config PATH had as the session started, if that was kept. */
static const struct cordon_git_entries *had_at(const struct cordon_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->n_configs; i++)
		if (strcmp(s->configs[i].path, path) == 0)
			return &s->configs[i].had;
	return NULL;
}

/* Every git dir and .git entry beneath the root, into W->found: no link
 * is followed, and no .git is walked but its modules/ and worktrees/ (the
 * git dirs git keeps there), the project's own .git's too. */
/* The directories to do, listed. */
static int walk_todo(struct walk *w)
{
	int e = 0;
	while (e >= 0 && w->todo.n > 0) {
		char *entry = w->todo.v[--w->todo.n];
		w->todo.v[w->todo.n] = NULL;
		w->listed_ino = rec_ino(entry); /* (push_todo's head is a record's) */
		e = list_dir(w, entry + 17, entry[0]);
		free(entry);
	}
	return e;
}

/* Each directory the walk has recorded, when it changed after the walk
 * began, is listed again, and what is in it that the walk has not
 * recorded is visited as the walk would have: a directory moved, while
 * the walk went, from where it had not been into one it had listed (a
 * rename timed by an inotify watch: round 30b N1's other form) was
 * missed, as if deleted, and its plant hidden for good. Nothing to do
 * where nothing listed changed meanwhile (walk.stirred); past CATCH_UPS
 * passes that each found more, the walk is disturbed. */
#define CATCH_UPS 3

struct catch_up {
	struct walk *w;
	size_t n;  /* the walk's records, sorted, looked up in */
	int found; /* what was visited */
};

static int visit(const char *name, unsigned char type, unsigned long long ino, void *arg);

static int catch_visit(const char *name, unsigned char type, unsigned long long ino, void *arg)
{
	struct catch_up *c = arg;
	struct walk *w = c->w;
	if (cordon_dot_or_dotdot(name))
		return 0;
	cleanup_free char *key = rel_joined("", 0, w->rel, name, false);
	if (!key)
		return -ENOMEM;
	const char *const *recs = (const char *const *)w->recs.v;
	size_t i = lower_bound(recs, c->n, key);
	if (i < c->n && strcmp(REC_PATH(recs[i]), key) == 0)
		return 0;
	size_t before = w->todo.n + w->found.n + w->local.n + w->hg.n + w->links.n;
	int e = visit(name, type, ino, w);
	c->found += e >= 0 && w->todo.n + w->found.n + w->local.n + w->hg.n + w->links.n > before;
	return e;
}

static int catch_up(struct walk *w)
{
	for (int pass = 0; w->stirred && !w->disturbed; pass++) {
		if (pass == CATCH_UPS) {
			w->disturbed = true;
			return 0;
		}
		sort_own(w);
		struct catch_up c = {.w = w, .n = w->recs.n};
		for (size_t i = 0; i < c.n; i++) {
			const char *r = w->recs.v[i], *rel = REC_PATH(r);
			struct stat st;
			/* (In a .git, only what git keeps is walked.) */
			if ((r[0] != REC_DIR && r[0] != REC_DEEP && r[0] != REC_GIT_DIR &&
			     r[0] != REC_DISARMED) ||
			    in_dotgit(rel) ||
			    fstatat(w->root, rel[0] ? rel : ".", &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISDIR(st.st_mode) || !after(&CTIME(st), &w->began))
				continue;
			int fd = cordon_fs_open_beneath(w->root, rel);
			if (fd < 0)
				continue;
			w->rel = rel;
			w->fd = fd;
			w->has = 0;
			w->boxed = boxed_rel(rel);
			w->fresh = rel[0] && arrived(w, rel, &st, ABOVE_CHANGED);
			w->changed = true;
			w->deep = deep_here(w, rel);
			int e = cordon_fs_list(fd, catch_visit, &c, w->buf, BUF_SIZE);
			close(fd);
			if (e == -ENOMEM)
				return e;
		}
		if (!c.found)
			return 0;
		w->stirred = false;
		int e = walk_todo(w);
		if (e < 0)
			return e;
		w->stirred = true; /* (once more: nothing else came meanwhile) */
	}
	return 0;
}

static int walk(struct walk *w)
{
#ifdef CLOCK_REALTIME_COARSE
	/* (The clock the file system's coarse times come from: a change
	 * after this is never dated before it.) */
	clock_gettime(CLOCK_REALTIME_COARSE, &w->began);
#else
	clock_gettime(CLOCK_REALTIME, &w->began);
#endif
	int e = push_todo(w, ABOVE_OLD, "", "", 0);
	if (e >= 0)
		e = walk_todo(w);
	return e < 0 ? e : catch_up(w);
}

/* ---- judging what was found ---- */

struct judge {
	const struct cordon_sweep *s;
	bool all; /* the repository is new here: all it holds counts */
	/* Its worktree (a relative remote URL is git's there), or NULL. */
	const char *base;
	/* Large configs read already, "DEV:INO:CTIME\n" then their risks:
	 * thousands of .git files naming one config of a MiB are read once. */
	struct cordon_strv *memo;
	/* The core.hooksPath values of the system's and the home's configs:
	 * read once a walk, not once a repository (round 32c H2). */
	struct once_values *hooks_global;
	/* The git dir lies below a .git's modules/ or worktrees/, where a
	 * submodule's name leads git fetch to any file in it. */
	bool boxed;
};

#define MEMO_FROM (64u << 10) /* configs this long are remembered */
#define MEMO_MAX  64          /* the last so many (a plant repeats one) */

/* ENTRY (taken) into MEMO, the oldest let go past MEMO_MAX. */
static void remember(struct cordon_strv *memo, char *entry)
{
	if (memo->n >= MEMO_MAX) {
		free(memo->v[0]);
		memmove(memo->v, memo->v + 1, (memo->n - 1) * sizeof(*memo->v));
		memo->v[--memo->n] = NULL;
	}
	(void)cordon_strv_push_take(memo, entry); /* out of memory: read again */
}

/* The values MEMO keeps under KEY (a line each, after the key), or NULL. */
static const char *memo_find(const struct cordon_strv *memo, const char *key)
{
	size_t kn = strlen(key);
	for (size_t i = 0; i < memo->n; i++)
		if (strncmp(memo->v[i], key, kn) == 0)
			return memo->v[i] + kn;
	return NULL;
}

/* HELD's lines (memo_find's) pushed to OUT. 0 or -ENOMEM. */
static int memo_values(const char *held, struct cordon_strv *out)
{
	int e = 0;
	for (const char *v = held; e >= 0 && *v;) {
		size_t n = strcspn(v, "\n");
		cleanup_free char *one = strndup(v, n);
		e = one ? cordon_strv_push(out, one) : -ENOMEM;
		v += n + (v[n] == '\n');
	}
	return e;
}

/* VALUES kept in MEMO under KEY (one line ending in a newline); not when a
 * value holds a newline itself, or memory runs out (then read again). */
static void memo_keep(struct cordon_strv *memo, const char *key, const struct cordon_strv *values)
{
	size_t len = strlen(key) + 1;
	for (size_t i = 0; i < values->n; i++) {
		if (strchr(values->v[i], '\n'))
			return;
		len += strlen(values->v[i]) + 1;
	}
	char *entry = malloc(len);
	if (!entry)
		return;
	size_t at = strlen(key);
	memcpy(entry, key, at);
	for (size_t i = 0; i < values->n; i++) {
		size_t vn = strlen(values->v[i]);
		memcpy(entry + at, values->v[i], vn);
		at += vn;
		entry[at++] = '\n';
	}
	entry[at] = '\0';
	remember(memo, entry);
}

/* Each of the list RISKS ("a, b") added to OUT. */
static void add_each(char *out, size_t size, const char *risks)
{
	while (*risks) {
		size_t n = strcspn(risks, ",");
		char one[300];
		snprintf(one, sizeof(one), "%.*s", (int)n, risks);
		cordon_git_risk_add(out, size, one);
		risks += n;
		risks += strspn(risks, ", ");
	}
}

/* PATH, read to judge it, lies where the names in it are never shown
 * (what a link, a .git file or a config leads to outside every root, or
 * in a hidden path: a planted .git/hooks -> ~/.password-store listed the
 * accounts on stderr): "WHAT outside the project" or "WHAT in a path
 * cordon hides" into BUF (SIZE bytes), else NULL. */
static const char *withheld(const struct cordon_sweep *s, const char *path, const char *what,
			    char *buf, size_t size)
{
	cleanup_free char *real = realpath(path, NULL);
	if (!real)
		return NULL; /* (nothing read there) */
	for (size_t i = 0; i < s->hidden.n; i++)
		if (cordon_path_under(real, s->hidden.v[i])) {
			snprintf(buf, size, "%s in a path cordon hides", what);
			return buf;
		}
	for (size_t i = 0; i < s->roots.n; i++)
		if (cordon_path_under(real, s->roots.v[i]))
			return NULL;
	snprintf(buf, size, "%s outside the project", what);
	return buf;
}

/* A rule let the session write PATH. */
static bool writable(const struct cordon_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->writable.n; i++)
		if (cordon_path_under(path, s->writable.v[i]))
			return true;
	return false;
}

/* PATH as the guards name it, into OUT (PATH_MAX bytes): its directory
 * canonical, its last name (a link too) as it is. False when its
 * directory does not resolve. */
static bool canon_dir(const char *path, char *out)
{
	const char *slash = strrchr(path, '/');
	cleanup_free char *dir =
		slash && slash != path ? strndup(path, (size_t)(slash - path)) : NULL;
	cleanup_free char *in = dir ? realpath(dir, NULL) : NULL;
	return in && snprintf(out, PATH_MAX, "%s%s", in, slash) < PATH_MAX;
}

/* The path PATH (canonical where it exists, a missing rest added as
 * written) lies inside a .git, which no walk looks into but for the git
 * dirs kept in modules/ and worktrees/, or is a place a rule let the
 * session write that is not walked (the runtime directory): a repository
 * there may hold what the session planted, unjudged. A rest with ".."
 * counts. */
static bool unjudged(const struct cordon_sweep *s, const char *path)
{
	char have[PATH_MAX];
	if (strlen(path) >= sizeof(have))
		return true;
	memcpy(have, path, strlen(path) + 1);
	cleanup_free char *real = NULL;
	char *rest = NULL;
	while (!(real = realpath(have, NULL))) {
		char *slash = strrchr(have, '/');
		if (errno != ENOENT || !slash || slash == have)
			return true;
		if (rest)
			rest[-1] = '/';
		*slash = '\0';
		rest = slash + 1;
	}
	char full[PATH_MAX * 2];
	snprintf(full, sizeof(full), "%s%s%s", real, rest ? "/" : "", rest ? rest : "");
	for (const char *c = full; c && *c;) { /* a ".." not resolved */
		c += *c == '/';
		if (strncmp(c, "..", 2) == 0 && (c[2] == '/' || c[2] == '\0'))
			return true;
		c = strchr(c, '/');
	}
	for (size_t i = 0; i < s->roots.n; i++) {
		const char *top = s->roots.v[i];
		if (!cordon_path_under(full, top))
			continue;
		/* A ".git" with more below it. */
		for (const char *c = full + strlen(top); (c = strchr(c, '/'));) {
			c++;
			if (strncasecmp(c, ".git/", 5) == 0 && c[5])
				return true;
		}
		return false;
	}
	return writable(s, full);
}

/* What url_local judges with: the repository, and whether its worktree
 * was (a relative URL), so that a config's risks are remembered apart
 * from it when not. */
struct url_judge {
	const struct judge *j;
	bool relative;
};

/* PATH, a remote's URL that names a repository on this machine, as
 * written in a config of the repository U judges: git push there runs its
 * hooks (receive-pack, in whichever of PATH/.git, PATH, PATH.git/.git or
 * PATH.git it finds). One that may hold what a session planted, unjudged
 * (see unjudged), is a risk; one elsewhere in a root is judged by the
 * walk itself. */
/* PATH, a local URL as written, made absolute into ABS (PATH_MAX bytes):
 * "~/" the home, relative to BASE (a worktree, may be NULL). False where
 * it cannot be (~user, or relative with no BASE); *RELATIVE set where it
 * is relative (may be NULL). */
static bool url_abs(const char *path, const char *base, char abs[PATH_MAX], bool *relative)
{
	const char *home = getenv("HOME");
	if (path[0] == '~' && path[1] == '/' && home) {
		snprintf(abs, PATH_MAX, "%s%s", home, path + 1);
	} else if (path[0] == '/') {
		snprintf(abs, PATH_MAX, "%s", path);
	} else {
		if (relative)
			*relative = true;
		if (path[0] == '~' || !base)
			return false;
		snprintf(abs, PATH_MAX, "%s/%s", base, path);
	}
	return true;
}

static bool url_local(const char *path, void *arg)
{
	struct url_judge *u = arg;
	char abs[PATH_MAX];
	if (!url_abs(path, u->j->base, abs, &u->relative))
		return true; /* ~user, or relative to a worktree cordon does not know */
	static const char *const tails[] = {"/.git", "", ".git/.git", ".git"};
	for (size_t i = 0; i < 4; i++) {
		char c[PATH_MAX + 16];
		if (snprintf(c, sizeof(c), "%s%s", abs, tails[i]) >= PATH_MAX ||
		    unjudged(u->j->s, c))
			return true;
	}
	return false;
}

/* The risks of the config PATH (see config_risks), its names shown. */
static void config_risks_of(const struct judge *j, const char *path, char *out, size_t size)
{
	struct url_judge u = {.j = j};
	const struct cordon_git_entries *had = j->all || j->s->earlier ? NULL : had_at(j->s, path);
	struct stat st;
	if (had || !j->memo || stat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < MEMO_FROM || (j->base && strchr(j->base, '\n'))) {
		(void)cordon_git_config_judge(path, had, url_local, &u, out, size);
		return;
	}
	/* Keyed by the file, and by the worktree too where a relative URL
	 * was judged against it. */
	char key[96];
	int kn = snprintf(key, sizeof(key), "%llu:%llu:%lld.%09ld", (unsigned long long)st.st_dev,
			  (unsigned long long)st.st_ino, (long long)CTIME(st).tv_sec,
			  (long)CTIME(st).tv_nsec);
	cleanup_free char *key_base = NULL;
	if (asprintf(&key_base, "%s:%s\n", key, j->base ? j->base : "") < 0) {
		(void)cordon_git_config_judge(path, NULL, url_local, &u, out, size);
		return;
	}
	snprintf(key + kn, sizeof(key) - (size_t)kn, "\n");
	for (size_t i = 0; i < j->memo->n; i++) {
		const char *m = j->memo->v[i];
		if (strncmp(m, key, strlen(key)) == 0 ||
		    strncmp(m, key_base, strlen(key_base)) == 0) {
			add_each(out, size, strchr(m, '\n') + 1);
			return;
		}
	}
	char risks[1200] = "";
	(void)cordon_git_config_judge(path, NULL, url_local, &u, risks, sizeof(risks));
	char *entry;
	if (asprintf(&entry, "%s%s", u.relative ? key_base : key, risks) >= 0)
		remember(j->memo, entry);
	add_each(out, size, risks);
}

/* The risks of the config PATH, once for each large config. In a
 * repository that was there as the session started, what its config
 * already set then is not a risk of this session's (never when judged
 * from an earlier session's start: that one may have set it). One outside
 * the roots, or in a hidden path, is a risk without its keys named. */
static void config_risks(const struct judge *j, const char *path, char *out, size_t size)
{
	char what[80];
	if (!withheld(j->s, path, "a config", what, sizeof(what))) {
		config_risks_of(j, path, out, size);
		return;
	}
	char risks[1200] = "";
	config_risks_of(j, path, risks, sizeof(risks));
	if (risks[0])
		cordon_git_risk_add(out, size, what);
}

static bool guarded_as(const struct cordon_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->guarded.n; i++)
		if (cordon_path_under(path, s->guarded.v[i]))
			return true;
	return false;
}

static bool replaced(const struct cordon_sweep_held *h);

/* Whether a directory the guards kept, at or above PATH, is another now
 * than as the session started: its mount went with the one it replaced
 * (another session's stand-in removed as that one ended, made again
 * inside: 47a H1, a submodule's .git planted in it and left as guarded). */
static bool dir_guard_lost(const struct cordon_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->n_held; i++)
		if (s->held[i].kind == 'g' && cordon_path_under(path, s->held[i].path) &&
		    replaced(&s->held[i]))
			return true;
	return false;
}

/* Whether the guards kept PATH read-only: it, or where it leads (the
 * guards keep what a link leads to, and keep the link in place: a
 * .git/hooks -> ../.githooks). */
static bool is_guarded(const struct cordon_sweep *s, const char *path)
{
	if (dir_guard_lost(s, path))
		return false;
	if (guarded_as(s, path))
		return true;
	cleanup_free char *canon = realpath(path, NULL);
	return canon && strcmp(canon, path) != 0 && guarded_as(s, canon);
}

/* Whether the directory PATH holds a git dir whose config the guards
 * kept (a submodule's of the user's). */
static bool holds_guarded(const struct cordon_sweep *s, const char *path)
{
	size_t n = strlen(path);
	for (size_t i = 0; i < s->guarded.n; i++) {
		const char *g = s->guarded.v[i], *slash = strrchr(g, '/');
		if (strncmp(g, path, n) == 0 && g[n] == '/' && slash && slash > g + n &&
		    strcmp(slash, "/config") == 0 && !dir_guard_lost(s, g))
			return true;
	}
	return false;
}

/* H's path holds another file now than as the session started. */
static bool replaced(const struct cordon_sweep_held *h)
{
	struct stat st;
	return lstat(h->path, &st) == 0 &&
	       ((unsigned long long)st.st_dev != h->dev || (unsigned long long)st.st_ino != h->ino);
}

/* H's file, still in place, has a name besides H's path, or had as the
 * session started: the mount keeps one name read-only, and what is
 * written through another lands in it all the same (round 37a F4: a
 * session wrote a core.fsmonitor through notes.txt, a hard link an
 * earlier one had made of .git/config). The count now too: a session
 * can make no link to a file its guard keeps (another mount), but a
 * program outside can. */
static bool named_twice(const struct cordon_sweep_held *h)
{
	struct stat st;
	return (h->kind == 'r' || h->kind == 't') && !replaced(h) &&
	       (h->nlink > 1 || (lstat(h->path, &st) == 0 && st.st_nlink > 1));
}

/* PATH was a file the guards kept, and is now another (the mount that
 * kept it ended when it was replaced outside), or has another name: its
 * guard did not hold. */
static bool guard_lost(const struct cordon_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->n_held; i++)
		if (s->held[i].kind == 'r' && strcmp(s->held[i].path, path) == 0)
			return replaced(&s->held[i]) || named_twice(&s->held[i]);
	return false;
}

/* PATH is a file the guards kept that has another name (named_twice). */
static bool held_twice(const struct cordon_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->n_held; i++)
		if (s->held[i].kind == 'r' && strcmp(s->held[i].path, path) == 0)
			return named_twice(&s->held[i]);
	return false;
}

/* PATH counts toward a repository's risks: not kept read-only by the
 * guards (or no longer: guard_lost), and new with the repository or
 * changed since the session started. */
static bool counts(const char *path, const void *arg)
{
	const struct judge *j = arg;
	/* (Changed first: a few lstat calls, where is_guarded resolves the
	 * whole path, a readlink a directory on its way with musl; round 32c
	 * H2: every disarmed repository is judged again at each end.) */
	return (j->all || changed(path, &j->s->since)) &&
	       (!is_guarded(j->s, path) || guard_lost(j->s, path));
}

/* What a git dir would make git run: the whole list, and the files git
 * writes itself that hold part of it (config.worktree, what a rebase
 * resumes), which alone can be moved aside from a repository the guards
 * keep. */
struct risks {
	char all[1200];
	struct cordon_strv files; /* each a file with a risk, */
	struct cordon_strv why;   /* and its risks */
	bool other;               /* a risk held elsewhere */
	bool guarded;             /* the repository's config is guarded */
};

/* The risks added to R since it held BEFORE bytes: those of PATH (a file
 * that can be moved aside alone), or of something else (NULL). */
static void held_by(struct risks *r, size_t before, const char *path)
{
	const char *added = r->all + before;
	if (!*added)
		return;
	added += strspn(added, ", ");
	if (!path || cordon_strv_push(&r->files, path) < 0 || cordon_strv_push(&r->why, added) < 0)
		r->other = true;
}

static void hook_risks(const struct judge *there, const char *dir, char *out, size_t size);

/* The hooks in the directory core.hooksPath names for the repository
 * whose git dirs are DIRS and whose worktree is BASE (or the git dir, for
 * a bare one), into R. */
/* cordon_git_hooks_paths, its config files read once for each
 * repository (thousands of .git files may name one git dir). */
static int hooks_paths(const struct judge *j, const struct cordon_strv *dirs, const char *base,
		       struct cordon_strv *out)
{
	const char *home = getenv("HOME");
	cleanup_free char *key = NULL;
	const char *d1 = dirs->n > 1 ? dirs->v[1] : "";
	/* (A key is one line: a git dir with a newline in its path is read
	 * each time.) */
	if (!j->memo || strchr(dirs->v[0], '\n') || strchr(d1, '\n') ||
	    asprintf(&key, "hooks:%s|%s\n", dirs->v[0], d1) < 0)
		return cordon_git_hooks_paths(home, dirs, base, out);
	struct cordon_strv values = {0};
	const char *held = memo_find(j->memo, key);
	int e;
	if (held) {
		e = memo_values(held, &values);
	} else {
		struct once_values *g = j->hooks_global;
		if (g && !g->read) {
			g->e = cordon_git_hooks_values_global(home, &g->v);
			g->read = true;
		}
		e = g ? g->e : cordon_git_hooks_values_global(home, &values);
		for (size_t i = 0; g && e >= 0 && i < g->v.n; i++)
			e = cordon_strv_push(&values, g->v.v[i]);
		if (e >= 0)
			e = cordon_git_hooks_values_own(home, dirs, &values);
		if (e >= 0)
			memo_keep(j->memo, key, &values);
	}
	if (e >= 0)
		e = cordon_git_hooks_resolve(home, base, &values, out);
	cordon_strv_free(&values);
	return e;
}

/* The config or config.worktree of any of DIRS counts under J. */
static bool configs_count(const struct judge *j, const struct cordon_strv *dirs)
{
	static const char *const names[] = {"config", "config.worktree"};
	for (size_t i = 0; i < dirs->n; i++)
		for (size_t k = 0; k < 2; k++) {
			char config[PATH_MAX + 32];
			snprintf(config, sizeof(config), "%s/%s", dirs->v[i], names[k]);
			if (counts(config, j))
				return true;
		}
	return false;
}

static void hooks_path_risks(const struct judge *j, const struct cordon_strv *dirs,
			     const char *base, struct risks *r)
{
	struct cordon_strv paths = {0};
	/* One it cannot read (past CORDON_GIT_CONFIG_MAX) counts when the
	 * repository's config does: new, or changed since. (One the user
	 * made that long outside is left be; on the project's own, the
	 * guards refuse the launch.) */
	if (hooks_paths(j, dirs, base, &paths) < 0 && configs_count(j, dirs)) {
		r->other = true;
		cordon_git_risk_add(r->all, sizeof(r->all), "a config cordon cannot read");
	}
	/* Each one named (which one git ends with depends on where an
	 * include stands); husky's .husky/_ runs what is in .husky. */
	size_t before = strlen(r->all);
	for (size_t i = 0; i < paths.n; i++) {
		char *hp = paths.v[i];
		size_t n = strlen(hp);
		for (int k = 0; k < 2; k++) {
			struct judge there = *j;
			there.all = j->all || counts(hp, j);
			hook_risks(&there, hp, r->all, sizeof(r->all));
			if (n <= 2 || strcmp(hp + n - 2, "/_") != 0)
				break;
			hp[n - 2] = '\0';
		}
	}
	held_by(r, before, NULL);
	cordon_strv_free(&paths);
}

/* cordon_git_hook_risks of DIR (ONLY: counts under THERE), into OUT,
 * where the guards do not keep DIR; the hooks' names left out where they
 * are withheld. */
static void hook_risks(const struct judge *there, const char *dir, char *out, size_t size)
{
	char what[80], risks[600] = "";
	/* (Whether anything counts first: at a later end, in a repository
	 * unchanged, nothing does, and neither is_guarded nor withheld
	 * resolves DIR; round 32c H2. Where something does, read again.) */
	cordon_git_hook_risks(dir, counts, there, risks, sizeof(risks));
	if (!risks[0] || is_guarded(there->s, dir))
		return;
	risks[0] = '\0';
	if (!withheld(there->s, dir, "hooks in a directory", what, sizeof(what))) {
		cordon_git_hook_risks(dir, counts, there, out, size);
		return;
	}
	cordon_git_hook_risks(dir, counts, there, risks, sizeof(risks));
	if (risks[0])
		cordon_git_risk_add(out, size, what);
}

/* What the configs of the git dirs DIR and SHARED (may be NULL) include
 * ([include], [includeIf] whatever its condition, as the guards follow
 * them): each included file that counts under J is judged whole, into R.
 * An include of an old line reached a file of the worktree the session
 * could rewrite at will (a nested repository's include.path =
 * ../.gitconfig, then core.fsmonitor in it). */
static void other_name_risk(const struct judge *j, const char *path, const char *name,
			    struct risks *r);

static void include_risks(const struct judge *j, const char *dir, const char *shared,
			  struct risks *r)
{
	struct cordon_strv top = {0}, inc = {0};
	static const char *const names[] = {"config", "config.worktree"};
	int e = 0;
	for (size_t k = 0; e >= 0 && k < 3; k++) {
		char f[PATH_MAX + 32];
		if (k == 2 && !shared)
			break;
		snprintf(f, sizeof(f), "%s/%s", k == 2 ? shared : dir, names[k % 2]);
		e = cordon_strv_push(&top, f);
	}
	/* Read once for each git dir (thousands of .git files may name one
	 * whose config is large), as hooks_paths is. */
	cleanup_free char *key = NULL;
	const char *held = NULL;
	if (e >= 0 && j->memo && !strchr(dir, '\n') && !(shared && strchr(shared, '\n')) &&
	    asprintf(&key, "includes:%s|%s\n", dir, shared ? shared : "") >= 0)
		held = memo_find(j->memo, key);
	if (e >= 0 && held)
		e = memo_values(held, &inc);
	for (size_t k = 0; e >= 0 && !held && k < top.n; k++)
		e = cordon_git_includes(top.v[k], getenv("HOME"), &inc);
	if (e >= 0 && !held && key)
		memo_keep(j->memo, key, &inc);
	if (e < 0) {
		r->other = true;
		cordon_git_risk_add(r->all, sizeof(r->all), "a config cordon cannot read");
	}
	struct judge whole = *j;
	whole.all = true;
	for (size_t k = 0; k < top.n; k++) { /* (an include of itself) */
		char path[PATH_MAX];
		char *c = canon_dir(top.v[k], path) ? strdup(path) : NULL;
		if (c) {
			free(top.v[k]);
			top.v[k] = c;
		}
	}
	for (size_t i = 0; e >= 0 && i < inc.n; i++) {
		/* As the guards name it; only where a session could have
		 * written it (one elsewhere is the user's own). */
		char path[PATH_MAX];
		if (!canon_dir(inc.v[i], path) || cordon_strv_contains(&top, path) ||
		    !writable(j->s, path))
			continue;
		size_t before = strlen(r->all);
		if (counts(path, j))
			config_risks(&whole, path, r->all, sizeof(r->all));
		held_by(r, before, path);
		/* (Kept read-only in the sessions after, as the config is.) */
		const char *name = strrchr(path, '/');
		other_name_risk(j, path, name ? name + 1 : path, r);
	}
	cordon_strv_free(&top);
	cordon_strv_free(&inc);
}

/* PATH is a file held as the user's ('m') and still the same. */
static bool held_as_was(const struct cordon_sweep *s, const char *path)
{
	for (size_t i = 0; i < s->n_held; i++)
		if (s->held[i].kind == 'm' && strcmp(s->held[i].path, path) == 0)
			return !replaced(&s->held[i]);
	return false;
}

/* The remotes git keeps in files of their own, remotes/NAME and
 * branches/NAME in the common dir CD, which it reads for a name its
 * config defines no URL for (git push with no origin in the config):
 * each one made or changed since the session started counts (git push to
 * a repository planted anywhere runs its hooks), into R, each a file that
 * can be moved aside alone. In a directory that changed, every file
 * counts but those the user had (held_as_was). */
static void legacy_remotes(const struct judge *j, const char *cd, struct risks *r)
{
	static const char *const kinds[] = {"remotes", "branches"};
	for (size_t k = 0; k < 2; k++) {
		char dir[PATH_MAX + 16], what[PATH_MAX + 64], hidden[80];
		snprintf(dir, sizeof(dir), "%s/%s", cd, kinds[k]);
		struct stat st;
		if (lstat(dir, &st) < 0)
			continue;
		size_t before = strlen(r->all);
		if (!S_ISDIR(st.st_mode)) { /* a link, or a file */
			if (counts(dir, j)) {
				snprintf(what, sizeof(what), "%s (not a directory)", kinds[k]);
				cordon_git_risk_add(r->all, sizeof(r->all), what);
			}
			held_by(r, before, dir);
			continue;
		}
		bool all = counts(dir, j);
		const char *shown = withheld(j->s, dir, kinds[k], hidden, sizeof(hidden));
		DIR *d = opendir(dir);
		if (!d && all) {
			snprintf(what, sizeof(what), "%s cordon cannot read", kinds[k]);
			cordon_git_risk_add(r->all, sizeof(r->all), what);
			held_by(r, before, NULL);
		}
		int n = 0;
		for (struct dirent *de; d && (de = readdir(d));) {
			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			if (++n > REMOTES_MAX) {
				snprintf(what, sizeof(what), "more %s than cordon reads", kinds[k]);
				cordon_git_risk_add(r->all, sizeof(r->all), what);
				held_by(r, before, NULL);
				break;
			}
			char path[PATH_MAX + 300];
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (!counts(path, j) && !(all && !held_as_was(j->s, path)))
				continue;
			before = strlen(r->all);
			if (!shown)
				snprintf(what, sizeof(what), "a remote in %s/%s", kinds[k],
					 de->d_name);
			cordon_git_risk_add(r->all, sizeof(r->all), shown ? shown : what);
			held_by(r, before, path);
		}
		if (d)
			closedir(d);
	}
}

#ifdef __APPLE__
#define HFS true /* git's core.protectHFS: on by default there */
#else
#define HFS false
#endif

/* The index of the git dir DIR (each worktree has its own), whose common
 * dir is CD: judged when it, or a shared index beside it (a split
 * index's), changed since the session started, into R (it alone can be
 * moved aside: git works without one). */
static void index_risks(const struct judge *j, const char *dir, const char *cd, struct risks *r)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/index", dir);
	struct stat st;
	if (lstat(path, &st) < 0 && errno == ENOENT)
		return; /* (git reads no shared index without it) */
	bool judge = counts(path, j);
	DIR *d = judge ? NULL : opendir(dir);
	for (struct dirent *de; d && !judge && (de = readdir(d));) {
		char shared[PATH_MAX + 300];
		snprintf(shared, sizeof(shared), "%s/%s", dir, de->d_name);
		judge = strncmp(de->d_name, "sharedindex.", 12) == 0 && counts(shared, j);
	}
	if (d)
		closedir(d);
	if (!judge)
		return;
	char config[PATH_MAX + 32], risks[600] = "", what[80];
	snprintf(config, sizeof(config), "%s/config", cd);
	cordon_git_index_risks(path, cordon_git_hash_size(config), HFS, risks, sizeof(risks));
	if (!risks[0])
		return;
	size_t before = strlen(r->all);
	if (withheld(j->s, path, "an index", what, sizeof(what)))
		cordon_git_risk_add(r->all, sizeof(r->all), what);
	else
		add_each(r->all, sizeof(r->all), risks);
	held_by(r, before, path);
}

/* The risks of the git dir DIR that count under J, into R; BASE: the
 * directory core.hooksPath is relative to (NULL: unknown, not looked
 * at). */
/* PATH, a file of a git dir new to the session (J's ALL) that the guards
 * keep read-only in the sessions after, with another name: their mount
 * keeps this one, and what a later session writes through the other is
 * git's all the same (round 37a F4: ln .git/config notes.txt, then a
 * core.fsmonitor appended to notes.txt in the next session). A risk, held
 * elsewhere: the repository is moved aside whole. NAME: as said. */
static void other_name_risk(const struct judge *j, const char *path, const char *name,
			    struct risks *r)
{
	struct stat st;
	if (!j->all || lstat(path, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink < 2)
		return;
	char risk[NAME_MAX + 96];
	snprintf(risk, sizeof(risk), "%s with %ju names, which a later session could write", name,
		 (uintmax_t)st.st_nlink);
	size_t before = strlen(r->all);
	cordon_git_risk_add(r->all, sizeof(r->all), risk);
	held_by(r, before, NULL);
}

/* other_name_risk for what the guards keep of the git dir DIR: its
 * config and lazygit.yml, and each file in its hooks/ and info/. */
static void other_names_risks(const struct judge *j, const char *dir, struct risks *r)
{
	if (!j->all)
		return;
	/* (config.worktree too: git reads it where extensions.worktreeConfig
	 * is set; round 37d F6.) */
	static const char *const files[] = {"config", "config.worktree", "lazygit.yml"};
	static const char *const dirs[] = {"hooks", "info"};
	char path[PATH_MAX + NAME_MAX + 32], name[NAME_MAX + 16];
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		other_name_risk(j, path, files[i], r);
	}
	for (size_t i = 0; i < sizeof(dirs) / sizeof(*dirs); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		DIR *d = opendir(path);
		/* (A few files each: git init's samples, exclude.) */
		for (struct dirent *de; d && (de = readdir(d));) {
			if (cordon_dot_or_dotdot(de->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s", dir, dirs[i], de->d_name);
			snprintf(name, sizeof(name), "%s/%s", dirs[i], de->d_name);
			other_name_risk(j, path, name, r);
		}
		if (d)
			closedir(d);
	}
}

/* How deep links_below looks in a git dir; how many entries it lists
 * there, and in one directory changed since the session started. */
#define GIT_LINKS_DEPTH  64
#define GIT_LINKS_BUDGET (1L << 22)
#define GIT_LINKS_DIR    (1L << 16)

/* PATH in a git dir (named from its TOP bytes on), a risk ("WHAT at
 * PATH TAIL"), moved aside alone, into R. */
static void git_dir_risk(char *path, size_t top, const char *what, const char *tail,
			 struct risks *r)
{
	char line[PATH_MAX + 128];
	size_t before = strlen(r->all);
	snprintf(line, sizeof(line), "%s at %s%s", what, path + top + 1, tail);
	cordon_git_risk_add(r->all, sizeof(r->all), line);
	held_by(r, before, path);
}

/* The symbolic links laid in the directory FD of a git dir (at PATH, PN
 * bytes) since the session started (all of them where J->all), each a
 * risk moved aside alone, into R (named from the git dir's TOP bytes on);
 * the directories below it, DEPTH levels and *BUDGET entries in all. One
 * unchanged since, with no directory in it (st_nlink 2: the objects'
 * fan-out), is not listed. Where the look stops short (round 38c: a
 * directory made unreadable, chmod 100, that git still writes in by
 * name; one deeper than DEPTH), what it did not look through is a risk
 * too, where it changed since; so is one changed since (SINCE_DIR) with
 * more than GIT_LINKS_DIR entries, and the rest is looked through (round
 * 38d H2: a directory filled with a million files stopped the look, and a
 * link laid in logs/ after it stayed). The whole budget spent: the whole
 * repository counts. */
static bool moved_by_this(const struct stat *st);

/* Whether NAME in the directory DIR begins as a .git file does, which git
 * follows where it looks for a git dir ("gitdir: "). */
static bool gitfile_at(int dir, const char *name)
{
	char head[8];
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	bool is = fd >= 0 && read(fd, head, sizeof(head)) == (ssize_t)sizeof(head) &&
		  memcmp(head, "gitdir: ", sizeof(head)) == 0;
	if (fd >= 0)
		close(fd);
	return is;
}

static void links_below(const struct judge *j, int fd, char *path, size_t pn, size_t top, int depth,
			long *budget, bool since_dir, struct risks *r)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	long here = 0, per_dir = GIT_LINKS_DIR;
#ifdef CORDON_TEST_HOOKS
	/* Test builds: a small bound, not 65,536 files made each run. */
	const char *test_max = getenv("CORDON_TEST_GIT_LINKS_DIR");
	if (test_max && *test_max)
		per_dir = strtol(test_max, NULL, 10);
#endif
	for (struct dirent *de; (de = readdir(d));) {
		if (*budget <= 0) {
			if (*budget == 0) {
				r->other = true;
				cordon_git_risk_add(r->all, sizeof(r->all),
						    "more entries than cordon looks through");
			}
			*budget = -1; /* (said once: the directories above stop too) */
			break;
		}
		--*budget;
		if (since_dir && ++here > per_dir) {
			path[pn] = '\0';
			git_dir_risk(path, top, "more entries than cordon looks through", "", r);
			break;
		}
		if (cordon_dot_or_dotdot(de->d_name) ||
		    (size_t)snprintf(path + pn, PATH_MAX + 32 - pn, "/%s", de->d_name) >=
			    PATH_MAX + 32 - pn)
			continue;
		struct stat st;
		if ((de->d_type != DT_LNK && de->d_type != DT_DIR && de->d_type != DT_FIFO &&
		     de->d_type != DT_UNKNOWN && !(j->boxed && de->d_type == DT_REG)) ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		bool since = (j->all || after(&CTIME(st), &j->s->since)) && !moved_by_this(&st);
		if (S_ISREG(st.st_mode) && j->boxed && since && !is_guarded(j->s, path) &&
		    gitfile_at(dirfd(d), de->d_name)) {
			/* (Rewritten in place: its directory's time does not
			 * move, round 49f.) */
			git_dir_risk(
				path, top, "a .git file (\"gitdir: ...\")",
				", where a submodule's name leads git fetch outside to the git dir "
				"it names",
				r);
		} else if (S_ISLNK(st.st_mode) && since && !is_guarded(j->s, path)) {
			git_dir_risk(path, top, "a symbolic link",
				     ", which git outside writes through", r);
		} else if (S_ISFIFO(st.st_mode) && since && !is_guarded(j->s, path)) {
			/* (COMMIT_EDITMSG made one: git commit outside waits on it
			 * for ever, round 38d.) */
			git_dir_risk(path, top, "a FIFO", ", which git outside would wait on", r);
		} else if (S_ISDIR(st.st_mode) &&
			   (since || st.st_nlink != 2
				    ? !is_guarded(j->s, path)
				    /* (A leaf unchanged, gone into only for the files
				     * in it: a link on its way was laid since, and
				     * said; no realpath of each.) */
				    : j->boxed && !guarded_as(j->s, path))) {
			int sub = depth > 0
					  ? openat(dirfd(d), de->d_name,
						   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
					  : -ELOOP;
			if (sub >= 0)
				links_below(j, sub, path, pn + strlen(path + pn), top, depth - 1,
					    budget, since, r);
			/* (Below modules/, whatever its times: a chain moved
			 * there keeps its own, and a .git file past it was
			 * written in place, round 49g K1.) */
			else if ((since || j->boxed) && depth <= 0)
				git_dir_risk(path, top, "a directory deeper than cordon looks", "",
					     r);
			else if (since && errno != ENOENT)
				git_dir_risk(path, top, "a directory cordon cannot read", "", r);
		}
	}
	path[pn] = '\0';
	closedir(d);
}

/* The git dir DIR opened to be listed. One of this user's made unreadable
 * (chmod 300 .git: git outside still opens files in it by name, round 38d
 * H1) is given its owner's read and search for the open, then its mode
 * back: the descriptor lists it all the same. -errno where it cannot be. */
static int open_git_dir(const struct cordon_sweep *s, const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 || errno != EACCES)
		return fd >= 0 ? fd : -errno;
	/* (Through a descriptor of that very directory, no link followed: a
	 * session swapping it with a link meanwhile would have the mode of
	 * what the link leads to changed, round 38e M1.) */
	int at = open(dir, CORDON_O_HOLD | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	char self[64];
	if (at < 0)
		return -EACCES;
	snprintf(self, sizeof(self), "/proc/self/fd/%d", at);
	/* (Only one the session could have made so, where it may write: a
	 * .git file's gitdir: line names any directory, round 38f L1; and
	 * none whose set-id or sticky bits a chmod back could drop, L2.) */
	if (fstat(at, &st) < 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 07000) || !session_writable(s, dir) ||
	    chmod(self, (st.st_mode & 07777) | S_IRUSR | S_IXUSR) < 0) {
		close(at);
		return -EACCES;
	}
	fd = open(self, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int e = fd >= 0 ? 0 : -errno;
	(void)chmod(self, st.st_mode & 07777);
	close(at);
	return fd >= 0 ? fd : e;
}

/* Symbolic links laid in the git dir DIR (its subdirectories too) since
 * the session started: git outside writes through them where it writes
 * by name, and appends or truncates (a reflog line to logs/HEAD or
 * logs/refs/stash, COMMIT_EDITMSG from MERGE_MSG, FETCH_HEAD), so a link
 * to ~/.bashrc had the user's next git stash put a line of the session's
 * there, and one to a name in /etc/profile.d that did not exist had
 * root's git make it (round 38a F1). git makes none there itself. Each is
 * moved aside alone (a link of the user's, made before, is left). A git
 * dir that cannot be listed at all counts whole. */
static void links_in_git_dir(const struct judge *j, const char *dir, struct risks *r)
{
	char path[PATH_MAX + 32];
	/* (Only where the session could have laid one: a .git file's gitdir:
	 * line names any directory, /etc too, round 38f L1.) */
	if ((size_t)snprintf(path, sizeof(path), "%s", dir) >= sizeof(path) ||
	    !session_writable(j->s, dir))
		return;
	int fd = open_git_dir(j->s, dir);
	if (fd == -ENOENT)
		return;
	if (fd < 0) {
		r->other = true;
		cordon_git_risk_add(r->all, sizeof(r->all), "a git dir cordon cannot list");
		return;
	}
	long budget = GIT_LINKS_BUDGET;
	struct judge in = *j;
	in.boxed = strstr(dir, "/.git/modules/") || strstr(dir, "/.git/worktrees/");
	links_below(&in, fd, path, strlen(path), strlen(path), GIT_LINKS_DEPTH, &budget, false, r);
}

static void risks_of(const struct judge *j, const char *dir, const char *base, struct risks *r)
{
	char path[PATH_MAX + 32];
	size_t before = strlen(r->all);
	/* git reads its files relative to the worktree; cordon by their whole
	 * path, which the kernel refuses past PATH_MAX. */
	if (strlen(dir) + 64 >= PATH_MAX) {
		r->other = true;
		cordon_git_risk_add(r->all, sizeof(r->all), "a path too long for cordon to read");
		return;
	}
	snprintf(path, sizeof(path), "%s/config", dir);
	if (counts(path, j))
		config_risks(j, path, r->all, sizeof(r->all));
	/* (One whose guard was lost is moved aside alone, as config.worktree
	 * is: the guards keep the rest of the repository.) */
	held_by(r, before, guard_lost(j->s, path) ? path : NULL);
	before = strlen(r->all);
	snprintf(path, sizeof(path), "%s/config.worktree", dir);
	if (counts(path, j))
		config_risks(j, path, r->all, sizeof(r->all));
	held_by(r, before, path);
	/* What git resumes (rebase --continue, cherry-pick --continue). */
	static const struct {
		const char *name;
		enum cordon_git_todo kind;
	} todos[] = {{"rebase-merge/git-rebase-todo", CORDON_GIT_TODO},
		     {"sequencer/todo", CORDON_GIT_TODO},
		     {"rebase-merge/strategy", CORDON_GIT_STRATEGY},
		     {"sequencer/opts", CORDON_GIT_OPTS},
		     /* (What git's prompt shows: round 38a F2.) */
		     {"rebase-merge/msgnum", CORDON_GIT_STEP},
		     {"rebase-merge/end", CORDON_GIT_STEP},
		     {"rebase-apply/next", CORDON_GIT_STEP},
		     {"rebase-apply/last", CORDON_GIT_STEP}};
	for (size_t i = 0; i < sizeof(todos) / sizeof(todos[0]); i++) {
		before = strlen(r->all);
		/* Its directory too: one moved into place whole (made in one
		 * session, renamed to rebase-merge in the next) has a change
		 * time of its own moving. */
		snprintf(path, sizeof(path), "%s/%s", dir, todos[i].name);
		*strrchr(path, '/') = '\0';
		bool moved = counts(path, j);
		/* (A strategy's options, beside it: each counts with the
		 * other, written in another session.) */
		if (todos[i].kind == CORDON_GIT_STRATEGY) {
			snprintf(path, sizeof(path), "%s/rebase-merge/strategy_opts", dir);
			moved = moved || counts(path, j);
		}
		snprintf(path, sizeof(path), "%s/%s", dir, todos[i].name);
		if (moved || counts(path, j))
			cordon_git_todo_risks(path, todos[i].name, todos[i].kind, r->all,
					      sizeof(r->all));
		held_by(r, before, path);
	}
	links_in_git_dir(j, dir, r);
	before = strlen(r->all);
	snprintf(path, sizeof(path), "%s/commondir", dir);
	cleanup_free char *shared = cordon_git_link_file(path, "", dir);
	/* "." (git's meaning without one; the guards write it): this very
	 * git dir, judged above. */
	cleanup_free char *self = shared ? realpath(dir, NULL) : NULL;
	cleanup_free char *common = self ? realpath(shared, NULL) : NULL;
	bool to_self = common && strcmp(common, self) == 0;
	if (to_self) {
		free(shared);
		shared = NULL;
	}
	struct stat st;
	if (!shared && !to_self && lstat(path, &st) == 0 && counts(path, j))
		cordon_git_risk_add(r->all, sizeof(r->all), "a commondir cordon cannot follow");
	struct judge there = *j;
	/* All of the dir a commondir names counts when it may have been moved
	 * into place (what it holds keeps its change times then). */
	there.all = j->all || (shared && moved_in(shared, &j->s->since));
	snprintf(path, sizeof(path), "%s/config", shared ? shared : dir);
	/* (Asked at the end, where there is a risk: H2.) */
	char config[PATH_MAX + 32];
	snprintf(config, sizeof(config), "%s", path);
	if (shared && counts(path, &there))
		config_risks(&there, path, r->all, sizeof(r->all));
	snprintf(path, sizeof(path), "%s/hooks", shared ? shared : dir);
	/* A hooks directory replaced, or one hook more or less: each hook
	 * in it counts. */
	there.all = there.all || counts(path, &there);
	hook_risks(&there, path, r->all, sizeof(r->all));
	held_by(r, before, NULL);
	/* A hook manager's file in the worktree (pre-commit's config): its
	 * hook runs what the file says. Moved aside alone from a repository
	 * the guards keep. */
	if (base) {
		struct cordon_strv files = {0};
		if (cordon_hook_manager_files(path, base, &files, NULL) < 0) {
			r->other = true;
			cordon_git_risk_add(r->all, sizeof(r->all), "hooks cordon cannot read");
		}
		for (size_t i = 0; i < files.n; i++) {
			struct stat fst;
			if (lstat(files.v[i], &fst) < 0 || !counts(files.v[i], j))
				continue;
			before = strlen(r->all);
			const char *name = strrchr(files.v[i], '/');
			char risk[NAME_MAX + 64];
			snprintf(risk, sizeof(risk), "%s, which a hook runs", name ? name + 1 : "");
			cordon_git_risk_add(r->all, sizeof(r->all), risk);
			held_by(r, before, files.v[i]);
		}
		cordon_strv_free(&files);
	}
	other_names_risks(j, dir, r);
	if (shared)
		other_names_risks(&there, shared, r);
	struct judge in_common = *j;
	in_common.all = j->all || (shared && moved_in(shared, &j->s->since));
	include_risks(j, dir, shared, r);
	legacy_remotes(&in_common, shared ? shared : dir, r);
	index_risks(j, dir, shared ? shared : dir, r);
	if (base) {
		struct cordon_strv dirs = {0};
		if (cordon_strv_push(&dirs, shared ? shared : dir) < 0 ||
		    (shared && cordon_strv_push(&dirs, dir) < 0)) {
			r->other = true;
			cordon_git_risk_add(r->all, sizeof(r->all), "hooks cordon cannot read");
		} else {
			hooks_path_risks(j, &dirs, base, r);
		}
		cordon_strv_free(&dirs);
	}
	r->guarded = r->all[0] && is_guarded(j->s, config);
}

/* NAME in DIR moved to TO_DIR, named STEM.cordon-disarmed (another tail
 * where that is taken), the name into TO (SIZE bytes): 0 or -errno. */
static int move_to(int dir, const char *name, int to_dir, const char *stem, char *to, size_t size)
{
	int e = -EEXIST;
	for (int k = 0; k < 8 && e == -EEXIST; k++) {
		uint32_t tail = 0;
		if (k > 0 && getrandom(&tail, sizeof(tail), 0) != (ssize_t)sizeof(tail))
			return -EIO;
		if (k == 0)
			snprintf(to, size, "%s" DISARMED, stem);
		else
			snprintf(to, size, "%s" DISARMED "-%08x", stem, (unsigned)tail);
		if (strlen(to) > NAME_MAX) /* a long name: a short one of cordon's */
			snprintf(to, size, "cordon-disarmed-%08x", (unsigned)tail);
		e = cordon_fs_rename_new_to(dir, name, to_dir, to);
	}
	return e;
}

int cordon_fs_move_aside(int dir, const char *name, char *to, size_t size)
{
	return move_to(dir, name, dir, name, to, size);
}

/* The directory PATH is in, opened: beneath the root it is in (no link
 * followed on the way), else as it is named (a protected name in the
 * home, which the session could not have replaced by a link). -errno on
 * failure. */
static int parent_in(const struct cordon_sweep *s, const char *dir, char *link, size_t size);

/* LINK (SIZE bytes, may be NULL): on -ELOOP, the link on the way that the
 * session could have laid. */
static int parent_of(const struct cordon_sweep *s, const char *path, char *link, size_t size)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return -EINVAL;
	cleanup_free char *dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	return parent_in(s, dir, link, size);
}

/* Whether the directory DIR (no link on its way) is one a write rule of
 * the session reaches: a link in it may be the session's. */
static bool session_writable(const struct cordon_sweep *s, const char *dir)
{
	/* (The rules as the end resolved them once, where it did:
	 * writable_resolve.) */
	const struct cordon_strv *rules = s->writable_real;
	cleanup_free char *real = realpath(dir, NULL);
	for (size_t i = 0; i < s->writable.n; i++) {
		cleanup_free char *now =
			rules && i < rules->n ? NULL : realpath(s->writable.v[i], NULL);
		const char *rule = rules && i < rules->n ? rules->v[i]
				   : now                 ? now
							 : s->writable.v[i];
		if (cordon_path_under(real ? real : dir, rule))
			return true;
	}
	return false;
}

/* S's write rules resolved once for its end (session_writable): each
 * was resolved again for every directory asked about, a third of a
 * launch's system calls in a project of 30 repositories. Best effort
 * (out of memory: resolved each time). */
static void writable_resolve(struct cordon_sweep *s)
{
	struct cordon_strv *rules = s->writable_real ? NULL : calloc(1, sizeof(*rules));
	for (size_t i = 0; rules && i < s->writable.n; i++) {
		char *rule = realpath(s->writable.v[i], NULL);
		if (cordon_strv_push_take(rules, rule ? rule : strdup(s->writable.v[i])) < 0)
			break;
	}
	if (rules && rules->n == s->writable.n)
		s->writable_real = rules;
	else if (rules) {
		cordon_strv_free(rules);
		free(rules);
	}
}

/* DIR with each link on its way followed, as long as none lies in a
 * directory the session could write (a link it laid, or re-pointed, would
 * have cordon move something else aside: round 11 had ~/go -> PROJ/go,
 * and PROJ/go made a link to ~/.local, rename ~/.local/bin). Into OUT
 * (SIZE bytes); -ELOOP where one could be the session's. */
static int resolve_unwritten(const struct cordon_sweep *s, const char *dir, char *out, size_t size,
			     char *link, size_t link_size)
{
	char cur[PATH_MAX];
	if ((size_t)snprintf(cur, sizeof(cur), "%s", dir) >= sizeof(cur) || cur[0] != '/')
		return -EINVAL;
	for (int hops = 0; hops < 40; hops++) { /* the kernel's limit */
		bool followed = false;
		for (char *slash = strchr(cur + 1, '/');; slash = strchr(slash + 1, '/')) {
			if (slash)
				*slash = '\0';
			struct stat st;
			if (lstat(cur, &st) < 0)
				return -errno;
			if (S_ISLNK(st.st_mode)) {
				char *last = strrchr(cur, '/');
				char parent[PATH_MAX], target[PATH_MAX], next[PATH_MAX * 3];
				snprintf(parent, sizeof(parent), "%.*s",
					 last == cur ? 1 : (int)(last - cur), cur);
				ssize_t n = readlink(cur, target, sizeof(target) - 1);
				if (n <= 0 || session_writable(s, parent)) {
					if (link)
						snprintf(link, link_size, "%s", cur);
					return -ELOOP;
				}
				target[n] = '\0';
				int m = snprintf(next, sizeof(next), "%s%s%s%s%s",
						 target[0] == '/' ? "" : parent,
						 target[0] == '/' ? "" : "/", target,
						 slash ? "/" : "", slash ? slash + 1 : "");
				if (m < 0 || (size_t)m >= sizeof(cur))
					return -ENAMETOOLONG;
				memcpy(cur, next, (size_t)m + 1);
				followed = true;
				break;
			}
			if (!slash)
				break;
			*slash = '/';
		}
		if (!followed)
			return (size_t)snprintf(out, size, "%s", cur) < size ? 0 : -ENAMETOOLONG;
	}
	return -ELOOP;
}

/* parent_of's DIR: beneath the root it is in, with no link followed on
 * the way; elsewhere (a protected name in the home) where it leads, each
 * link on the way followed only if the session could not have laid it
 * (~/.cache -> PROJ/.cache, a CI layout: round 10's move of ~/.cache/pip
 * failed, "Not a directory"), then opened with no link followed. */
static int parent_in(const struct cordon_sweep *s, const char *dir, char *link, size_t size)
{
	char real[PATH_MAX] = ""; /* (clang-analyzer does not see snprintf fill it) */
	int e = resolve_unwritten(s, dir[0] ? dir : "/", real, sizeof(real), link, size);
	if (e < 0)
		return e;
	const char *top = "/";
	for (size_t i = 0; i < s->roots.n; i++) {
		size_t tn = strlen(s->roots.v[i]);
		if (strncmp(real, s->roots.v[i], tn) == 0 && (real[tn] == '/' || real[tn] == '\0'))
			top = s->roots.v[i];
	}
	size_t tn = strcmp(top, "/") == 0 ? 0 : strlen(top);
	int root = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return -errno;
	const char *rel = real + tn;
	while (*rel == '/')
		rel++;
	int fd = cordon_fs_open_beneath(root, rel);
	/* (One the session may write but not list, mode 1733: held, which
	 * is enough to rename in it: round 29c F2.) */
	if (fd == -EACCES)
		fd = cordon_fs_hold_beneath(root, rel);
	close(root);
	return fd;
}

/* Move PATH aside and say so: "HEAD PATH, WHY, so cordon moved it to
 * ...". 1 if it was moved, else 0. */
static int disarm_to(const struct cordon_sweep *s, const char *path, const char *head,
		     const char *why, struct cordon_strv *said, char *moved, size_t size);

static int disarm(const struct cordon_sweep *s, const char *path, const char *head, const char *why,
		  struct cordon_strv *said)
{
	return disarm_to(s, path, head, why, said, NULL, 0);
}

/* disarm_to, the line ending in TAIL (what the user does next). */
static int disarm_said(const struct cordon_sweep *s, const char *path, const char *head,
		       const char *why, const char *tail, struct cordon_strv *said, char *moved,
		       size_t size);

/* disarm, the name it was moved to into MOVED (SIZE bytes; may be
 * NULL). */
static int disarm_to(const struct cordon_sweep *s, const char *path, const char *head,
		     const char *why, struct cordon_strv *said, char *moved, size_t size)
{
	return disarm_said(s, path, head, why, "review it, then move it back", said, moved, size);
}

/* Whether this process (the session's user, as the session ran) could
 * write NAME in the directory DIR, or anything below it, within DEPTH
 * levels and *BUDGET entries (past them: it could): its own, or writable
 * (where a link leads, followed). */
static bool could_write_in(int dir, const char *name, int depth, int *budget)
{
	struct stat st;
	if ((*budget)-- <= 0 || fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    st.st_uid == geteuid() || faccessat(dir, name, W_OK, AT_EACCESS) == 0)
		return true;
	if (S_ISLNK(st.st_mode) && fstatat(dir, name, &st, 0) == 0 && st.st_uid == geteuid())
		return true;
	if (!S_ISDIR(st.st_mode))
		return false;
	DIR *d = dir_at(dir, name);
	if (!d) {
		/* (One it cannot list but may enter (0711): a name it knows in
		 * it, writable, it could write; round 31 F3. One it cannot
		 * enter, it could not.) */
		return errno != EACCES || faccessat(dir, name, X_OK, AT_EACCESS) == 0;
	}
	bool can = depth <= 0;
	for (struct dirent *de; !can && (de = readdir(d));)
		can = !cordon_dot_or_dotdot(de->d_name) &&
		      could_write_in(dirfd(d), de->d_name, depth - 1, budget);
	closedir(d);
	return can;
}

/* NAME in the directory DIR, that a move aside was refused (ERR), is
 * another user's that the session, run as an ordinary user, could
 * neither have put there (DIR is not writable) nor written in: someone
 * else changed it while the session ran (round 30b N5: root's repository
 * in /tmp, named at the end of an ordinary user's session as what it
 * changed). */
static bool not_the_session_s(int dir, const char *name, int err)
{
	if ((err != -EACCES && err != -EPERM) || geteuid() == 0)
		return false;
	int budget = 4096;
	struct stat st;
	return fstat(dir, &st) == 0 && st.st_uid != geteuid() &&
	       faccessat(dir, ".", W_OK, AT_EACCESS) < 0 && !could_write_in(dir, name, 8, &budget);
}

/* ---- what could not be moved aside ----------------------------------------
 * A name the sweep found to move aside and could not (a race had swapped
 * it with a link; round 41b F1: a top .exrc the watch and the end both
 * failed to move) is noted in the state directory's "unmoved": its device,
 * inode and modification time (not its change time: the immutable flag
 * the suite's test stands in with changes that), and its path. The next
 * session's end moves each aside that is still that file, where a rule of
 * its own lets it write (it could remove it anyway), and notes the others
 * again for a session where they lie. Else the name was, at the next
 * start, there as if it were the user's, and no later session judged it. */
static bool may_chmod(const char *dir, const void *s)
{
	return session_writable(s, dir);
}

void cordon_sweep_ways_up(const struct cordon_sweep *s)
{
	cordon_ways_up_begin(may_chmod, s);
}

static void note_unlooked(const char *path);

/* PATH, which the session may have made, looked at as it ends (ST
 * filled): 0 where it is there, the way to it opened up (cordon_way_up);
 * -1 where it
 * is not or, said and noted for the next session there, where cordon
 * cannot tell. */
static int look_made(const char *path, struct stat *st, struct cordon_strv *said)
{
	if (lstat(path, st) < 0 && errno != EACCES && errno != EPERM)
		return -1; /* (ENOENT, ENOTDIR: not there) */
	(void)cordon_way_up(path, false);
	if (lstat(path, st) == 0)
		return 0;
	if (errno != EACCES && errno != EPERM)
		return -1;
	char shown[PATH_MAX + 8];
	say(said,
	    "cordon: cordon cannot look at %s (%s), which this session may have made and a "
	    "program outside would obey: review it before that runs; the next session there "
	    "looks again",
	    cordon_printable(path, SIZE_MAX, shown, sizeof(shown)), strerror(errno));
	note_unlooked(path);
	return -1;
}

static char *unmoved_note(void)
{
	char *dir = NULL, *note = NULL;
	struct cordon_error err = {0};
	if (cordon_state_dir(&dir, &err) == 0 && dir && asprintf(&note, "%s/unmoved", dir) < 0)
		note = NULL;
	free(dir);
	return note;
}

/* LINE (with its NUL) added to NOTE (unmoved_note's): one write, whole
 * among other sessions'. */
static void note_line(const char *note, const char *line, size_t len)
{
	cleanup_close int fd =
		open(note, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		(void)cordon_write_full(fd, line, len + 1);
}

/* PATH, which cordon could not look at as the session ended (look_made),
 * noted (with the time, for the reader): the next session there that can
 * look moves it aside. */
static void note_unlooked(const char *path)
{
	struct timespec now;
	char *line = NULL;
	clock_gettime(CLOCK_REALTIME, &now);
	int n = asprintf(&line, "0 0 %lld.%09ld %s", (long long)now.tv_sec, now.tv_nsec, path);
	cleanup_free char *note = n > 0 ? unmoved_note() : NULL;
	if (note)
		note_line(note, line, (size_t)n);
	free(line);
}

static void note_unmoved(const char *path)
{
	struct stat st;
	char *line = NULL;
	int n = lstat(path, &st) == 0
			? asprintf(&line, "%llu %llu %lld.%09ld %s", (unsigned long long)st.st_dev,
				   (unsigned long long)st.st_ino, (long long)st.st_mtim.tv_sec,
				   st.st_mtim.tv_nsec, path)
			: -1;
	cleanup_free char *note = n > 0 ? unmoved_note() : NULL;
	if (note)
		note_line(note, line, (size_t)n);
	free(line);
}

static int disarm_said(const struct cordon_sweep *s, const char *path, const char *head,
		       const char *why, const char *tail, struct cordon_strv *said, char *moved,
		       size_t size);

/* The names earlier sessions could not move aside (note_unmoved), or look
 * at (note_unlooked: the device and inode 0), tried again: how many were
 * moved. */
static int retry_unmoved(const struct cordon_sweep *s, struct cordon_strv *said)
{
	cleanup_free char *note = unmoved_note();
	cleanup_free char *claimed = NULL;
	if (!note || asprintf(&claimed, "%s.%d", note, (int)getpid()) < 0 ||
	    rename(note, claimed) < 0)
		return 0;
	size_t len = 0;
	cleanup_free char *text = NULL;
	if (cordon_read_file(claimed, (size_t)1 << 20, &text, &len, NULL) < 0)
		text = NULL;
	(void)unlink(claimed);
	if (!text)
		return 0;
	int moved = 0;
	for (size_t at = 0; at < len; at += strlen(text + at) + 1) {
		/* DEV INO SEC.NSEC PATH */
		char *end;
		unsigned long long dev = strtoull(text + at, &end, 10);
		unsigned long long ino = *end == ' ' ? strtoull(end + 1, &end, 10) : 0;
		long long sec = *end == ' ' ? strtoll(end + 1, &end, 10) : 0;
		long nsec = *end == '.' ? strtol(end + 1, &end, 10) : 0;
		if (*end != ' ' || end[1] != '/')
			continue;
		const char *path = end + 1;
		bool ours = false;
		for (size_t i = 0; i < s->writable.n && !ours; i++)
			ours = cordon_path_under(path, s->writable.v[i]);
		/* Another directory's: left for a session there (review 41c F2:
		 * a session in another project dropped it). */
		if (!ours) {
			note_line(note, text + at, strlen(text + at));
			continue;
		}
		struct stat st;
		int e = lstat(path, &st) < 0 ? errno : 0;
		if (e == EACCES || e == EPERM) {
			(void)cordon_way_up(path, false);
			e = lstat(path, &st) < 0 ? errno : 0;
		}
		if (e == EACCES || e == EPERM) { /* still hidden: kept for the next */
			note_line(note, text + at, strlen(text + at));
			continue;
		}
		/* (One cordon could not look at: moved aside whatever its times,
		 * which a chmod outside changes: round 48a F2.) */
		bool unlooked = dev == 0 && ino == 0;
		if (e || (!unlooked && (st.st_dev != dev || st.st_ino != ino ||
					st.st_mtim.tv_sec != sec || st.st_mtim.tv_nsec != nsec)))
			continue;
		moved += disarm_said(
			s, path, "an earlier session made",
			unlooked ? "which cordon could not look at as that session ended"
				 : "which cordon could not move aside as that session ended",
			"review it, then move it back", said, NULL, 0);
	}
	return moved;
}

/* What this process moved aside, as the move left it (device, inode and
 * change time): a repository reached twice in one end (by .git/modules,
 * then by its checkout's .git file) had its link moved aside judged again
 * as one laid since the start, and moved on (packed-refs.cordon-disarmed.
 * cordon-disarmed). Another file in the same inode bears another change
 * time. */
struct moved_here {
	dev_t dev;
	ino_t ino;
	struct timespec ctime;
};
static struct moved_here *moved_here;
static size_t n_moved_here, moved_here_cap;

static void note_moved_here(const char *path, const char *to)
{
	char now[PATH_MAX + NAME_MAX + 40];
	const char *slash = strrchr(path, '/');
	struct stat st;
	if (!slash ||
	    (size_t)snprintf(now, sizeof(now), "%.*s/%s", (int)(slash - path), path, to) >=
		    sizeof(now) ||
	    lstat(now, &st) < 0)
		return;
	struct moved_here *nv =
		cordon_grow(moved_here, &moved_here_cap, n_moved_here + 1, sizeof(*nv), 8);
	if (!nv)
		return;
	moved_here = nv;
	moved_here[n_moved_here++] = (struct moved_here){st.st_dev, st.st_ino, CTIME(st)};
}

static bool moved_by_this(const struct stat *st)
{
	for (size_t i = 0; i < n_moved_here; i++)
		if (moved_here[i].dev == st->st_dev && moved_here[i].ino == st->st_ino &&
		    moved_here[i].ctime.tv_sec == CTIME(*st).tv_sec &&
		    moved_here[i].ctime.tv_nsec == CTIME(*st).tv_nsec)
			return true;
	return false;
}

/* The hidden paths S keeps at or below the directory PATH, relative to
 * it, into RESTS (PATH itself: ""), by their names and where they led as
 * the session hiding them started (not where they lead now: round 54j F1,
 * a link on a name's way laid anew led it into a directory of old files
 * moved into place), with what each was then into IDS (same index; one
 * hidden by two sessions is there twice). */
struct rests {
	struct cordon_strv v;
	struct cordon_sweep_id *ids;
	size_t cap;
};

static int hidden_rests(const struct cordon_sweep *s, const char *path, struct rests *rests)
{
	cleanup_free char *real = realpath(path, NULL);
	int e = 0;
	struct cordon_others_hidden *o = s->others_hidden;
	if (o && !o->read) {
		hidden_near(o->top, o);
		o->read = true;
	}
	size_t n_others = o ? o->list.n : 0;
	static const struct cordon_sweep_id unknown = {{0}, {0}, NULL};
	for (size_t i = 0; e >= 0 && i < s->hidden.n + n_others; i++) {
		bool own = i < s->hidden.n;
		const char *h = own ? s->hidden.v[i] : o->list.v[i - s->hidden.n];
		const struct cordon_sweep_id *id = !own            ? &o->ids[i - s->hidden.n]
						   : s->hidden_ids ? &s->hidden_ids[i]
								   : &unknown;
		const char *from = path;
		if (!cordon_path_under(h, path)) {
			if (!real || !id->real || !cordon_path_under(id->real, real))
				continue;
			h = id->real;
			from = real;
		}
		size_t n = strcmp(from, "/") ? strlen(from) : 0;
		e = ids_push(&rests->v, &rests->ids, &rests->cap, h[n] ? h + n + 1 : "");
		if (e >= 0)
			rests->ids[rests->v.n - 1] = *id; /* (REAL not its own) */
	}
	return e;
}

static void rests_free(struct rests *r)
{
	cordon_strv_free(&r->v);
	free(r->ids);
}

/* PART in SRC, the I'th of RESTS as put_back_hidden reaches it (SLASH:
 * past a link on the way, where the rest of it was cut off; else NULL),
 * is what a session hiding that name found there as it started: as a
 * link, or where it leads. */
static bool as_hidden(int src, char *part, char *slash, const struct rests *rests, size_t i,
		      const struct timespec *since)
{
	struct stat st;
	if (slash)
		*slash = '/'; /* (through the link: where it leads now) */
	int r = fstatat(src, part, &st, slash ? 0 : AT_SYMLINK_NOFOLLOW);
	/* Through a link on the way, what it leads to is put back with it:
	 * the directory it leads to, and each on the way from there to the
	 * file, unchanged since SINCE (round 56e F1: a link an earlier session
	 * laid led, once the file was moved behind it, to a directory holding
	 * the genuine hgrc and a planted hgrc-not-shared). */
	for (char *cut = slash; r == 0 && cut; cut = strchr(cut + 1, '/')) {
		struct stat dst;
		*cut = '\0';
		if (fstatat(src, part, &dst, 0) < 0 || after(&CTIME(dst), since))
			r = -1;
		*cut = '/';
	}
	if (slash)
		*slash = '\0';
	for (size_t j = 0; r == 0 && j < rests->v.n; j++)
		if (strcmp(rests->v.v[j], rests->v.v[i]) == 0 && is_id(&st, &rests->ids[j]))
			return true;
	return false;
}

/* ST (of the I'th of RESTS) is the inode a session hiding that name
 * found there as it started: a directory whose entries changed since
 * (its own change time moved) is still the user's, and what in it did
 * not change goes back (cordon_putback_tree). */
static bool same_inode(const struct stat *st, const struct rests *rests, size_t i)
{
	for (size_t j = 0; j < rests->v.n; j++) {
		const struct cordon_sweep_id *id = &rests->ids[j];
		if (strcmp(rests->v.v[j], rests->v.v[i]) == 0 && st->st_ino &&
		    (((unsigned long long)st->st_dev == id->l[0] &&
		      (unsigned long long)st->st_ino == id->l[1]) ||
		     ((unsigned long long)st->st_dev == id->s[0] &&
		      (unsigned long long)st->st_ino == id->s[1])))
			return true;
	}
	return false;
}

/* The hidden paths RESTS (hidden_rests') that lay in NAME, a directory of
 * DIR just moved aside to TO, put back at their names, in directories made
 * anew on their way (0700): moved with it, they lay at a name no later
 * session hides (round 52b F1: ~/.pulumi made a bare repository, its
 * credentials.json went to ~/.pulumi.cordon-disarmed/, which the next
 * session with --project ~ read). Opened without following a link, and
 * opened up where a mode of the session's closes them (round 52c F1: a
 * chmod 000 made the put-back fail). Not one changed at or after SINCE
 * (the sweep's start): a session wrote it, and a hidden name it reaches
 * through a link of its own would carry it back into the directory just
 * moved aside (round 54h F1: another session's hidden path led, through
 * a link, to a planted .hg/hgrc, which went back in a .hg made anew); nor
 * one that is not what its hidden name held as the session that hides it
 * started (round 54j F1: a directory of old files moved into place, whose
 * change times the move kept). It stays in TO, counted in *KEPT. A hidden
 * directory goes back entry by entry, what changed since SINCE staying in
 * TO (cordon_putback_tree: round 57b F1, a file in it edited in place by a
 * session that did not hide it, the directory's own change time kept); so
 * does the moved one itself where it is hidden and SELF (its lstat before
 * the move; NULL: not known) the inode the hiding session found (F2: left
 * whole at TO, which no session hides). Into *LEFT how many could not be
 * put back; how many were. */
static int put_back_hidden(int dir, const char *name, const char *to, const struct rests *rests,
			   const struct timespec *since, const struct stat *self, int *left,
			   int *kept)
{
	int back = 0;
	*left = 0;
	*kept = 0;
	for (size_t i = 0; i < rests->v.n; i++) {
		char rest[PATH_MAX];
		snprintf(rest, sizeof(rest), "%s", rests->v.v[i]);
		if (!rest[0]) {
			if (!self || !S_ISDIR(self->st_mode) || !same_inode(self, rests, i))
				continue; /* (not the user's: it stays aside whole) */
			back += cordon_putback_tree(dir, to, dir, name, since, kept, left);
			continue;
		}
		(void)mkdirat(dir, name, 0700);
		int src = cordon_fs_open_own_dir(dir, to), src_err = src < 0 ? errno : 0;
		int dst = cordon_fs_open_own_dir(dir, name);
		char *part = rest, *slash = NULL;
		struct stat st;
		while (src >= 0 && dst >= 0 && (slash = strchr(part, '/'))) {
			*slash = '\0';
			/* A link on the way (the user's: the session could not
			 * move one on a hidden path's way) goes back as it is, and
			 * the name leads where it led (round 52g F1: left in the
			 * moved directory, the hidden name led nowhere, and the
			 * next session read the file where the link had led). */
			if (fstatat(src, part, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				break;
			(void)mkdirat(dst, part, 0700);
			int s2 = cordon_fs_open_own_dir(src, part);
			src_err = s2 < 0 ? errno : 0;
			int d2 = cordon_fs_open_own_dir(dst, part);
			close(src);
			close(dst);
			src = s2;
			dst = d2;
			part = slash + 1;
		}
		/* (Left behind: one still there, or a way to it that could not
		 * be opened; not one the moved directory never held.) */
		size_t look = 100000;
		int sub = -1;
		bool is_dir = src >= 0 && dst >= 0 && !slash &&
			      fstatat(src, part, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			      S_ISDIR(st.st_mode);
		bool whole = is_dir && !after(&CTIME(st), since) &&
			     as_hidden(src, part, slash, rests, i, since) &&
			     (sub = openat(src, part,
					   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0 &&
			     cordon_fs_tree_unchanged(sub, since, 0, &look);
		if (sub >= 0)
			close(sub);
		if (is_dir && !whole) {
			/* (A directory of the user's, something in it changed:
			 * entry by entry.) */
			if (same_inode(&st, rests, i))
				back += cordon_putback_tree(src, part, dst, part, since, kept,
							    left);
			else
				(*kept)++;
		} else if (src >= 0 && dst >= 0 &&
			   fstatat(src, part, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			   (after(&CTIME(st), since) ||
			    !as_hidden(src, part, slash, rests, i, since)))
			(*kept)++;
		else if (src >= 0 && dst >= 0 && cordon_fs_rename_new_to(src, part, dst, part) == 0)
			back++;
		else if (src >= 0 ? fstatat(src, part, &st, AT_SYMLINK_NOFOLLOW) == 0
				  : src_err != ENOENT)
			(*left)++;
		if (src >= 0)
			close(src);
		if (dst >= 0)
			close(dst);
	}
	return back;
}

/* ---- a put-back cut short ----
 *
 * Between moving a directory aside and putting back the hidden files it
 * held, a launcher killed (kill -9, the OOM killer) left them in
 * NAME.cordon-disarmed, where any session that reads the directory reads
 * them (round 54h F2). Before the move, a record of them is written
 * beside the sweep's records; it goes once they are back. A launch (or an
 * end) that finds one whose process is gone puts them back. */

#define PUTBACK       "putback-"
#define PUTBACK_MAGIC "cordon-putback 1"

/* The record of this process's put-back into the directory DIR (at
 * DIR_PATH) of RESTS, in NAME, by a sweep judging from SINCE, written: its
 * path (malloc'd), or NULL (none written: the put-back goes on without).
 * Once NAME is moved aside, where to is added ("@TO"). */
static char *putback_note(int dir, const char *dir_path, const char *name,
			  const struct rests *rests, const struct timespec *since)
{
	static unsigned seq;
	struct stat st;
	cleanup_free char *rd = fstat(dir, &st) == 0 ? records_dir() : NULL;
	char *path = NULL;
	if (!rd || asprintf(&path, "%s/" PUTBACK "%d-%llu-%u", rd, (int)getpid(), own_start_time(),
			    seq++) < 0)
		return NULL;
	char head[PATH_MAX + NAME_MAX + 128];
	int n = snprintf(head, sizeof(head), PUTBACK_MAGIC "%c%s%c%llu:%llu%c%s%c%lld:%ld%c", '\0',
			 dir_path, '\0', (unsigned long long)st.st_dev,
			 (unsigned long long)st.st_ino, '\0', name, '\0', (long long)since->tv_sec,
			 (long)since->tv_nsec, '\0');
	size_t total = n > 0 ? (size_t)n : 0, cap = 0;
	char *all = NULL;
	bool ok = n > 0 && (size_t)n < sizeof(head) && cordon_reserve(&all, &cap, total, 4096);
	if (ok)
		memcpy(all, head, total);
	for (size_t i = 0; ok && i < rests->v.n; i++) {
		size_t len = strlen(rests->v.v[i]) + 1;
		const struct cordon_sweep_id *id = &rests->ids[i];
		ok = cordon_reserve(&all, &cap, total + len + ID_TEXT + 1, 4096);
		if (!ok || !id->l[1])
			continue; /* ("": the moved directory itself, hidden) */
		memcpy(all + total, rests->v.v[i], len);
		total += len;
		struct cordon_sweep_id bare = *id;
		bare.real = NULL; /* (put back by the name it has here) */
		total += id_text(&bare, all + total);
	}
	int fd = ok ? open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600) : -1;
	ok = fd >= 0 && cordon_write_full(fd, all, total) == 0;
	if (fd >= 0)
		close(fd);
	free(all);
	if (!ok) {
		if (fd >= 0)
			(void)unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

/* The put-back the record FILE (in the directory D) tells of, whose
 * process is gone, done: what the directory moved aside holds that is
 * still what the record names is put back, a line pushed to SAID. */
static void putback_finish(const char *rd, int d, const char *file, struct cordon_strv *said)
{
	struct stat st;
	size_t got = 0;
	cleanup_free char *path = cordon_join3(rd, "/", file);
	char *text = path ? cordon_read_regular(path, MARK_HIDDEN_MAX, &got) : NULL;
	const char *f[5] = {NULL, NULL, NULL, NULL, NULL};
	const char *end = text && got ? text + got : NULL, *p = text, *to = NULL;
	for (int i = 0; end && i < 5 && p < end; i++, p += strlen(p) + 1)
		f[i] = p;
	unsigned long long id[2], when[2];
	const char *t = f[2], *w = f[4];
	bool ok = f[4] && strcmp(text, PUTBACK_MAGIC) == 0 && read_ids(&t, '\0', id, 2) &&
		  f[3][0] && !strchr(f[3], '/') && read_ids(&w, '\0', when, 2);
	/* (Judged from the sweep's start, as its own put-back would have
	 * been: round 56a F2.) */
	struct timespec since = {ok ? (time_t)when[0] : 0, ok ? (long)when[1] : 0};
	struct rests rests = {0};
	for (; ok && p < end; p += strlen(p) + 1) {
		if (p[0] == '@') {
			to = p + 1;
			continue;
		}
		if (p[0] == '#' && rests.v.n)
			(void)id_read(p, &rests.ids[rests.v.n - 1]);
		else if (ids_push(&rests.v, &rests.ids, &rests.cap, p) < 0)
			break;
	}
	int dir = ok ? open(f[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	ok = dir >= 0 && fstat(dir, &st) == 0 && (unsigned long long)st.st_dev == id[0] &&
	     (unsigned long long)st.st_ino == id[1];
	/* Where it was moved: each NAME.cordon-disarmed... holding one of
	 * them (a long name's: cordon-disarmed-...). */
	int listed = ok ? dup(dir) : -1;
	DIR *listing = listed >= 0 ? fdopendir(listed) : NULL;
	if (!listing && listed >= 0)
		close(listed);
	int back = 0, left = 0;
	size_t nn = f[3] ? strlen(f[3]) : 0;
	for (struct dirent *de; listing && (de = readdir(listing));) {
		/* (The one it was moved to; where that was not added, any it
		 * may have been.) */
		if (to ? strcmp(de->d_name, to) != 0
		       : !((strncmp(de->d_name, f[3], nn) == 0 &&
			    strncmp(de->d_name + nn, DISARMED, strlen(DISARMED)) == 0) ||
			   strncmp(de->d_name, "cordon-disarmed-", 16) == 0))
			continue;
		int from = openat(dir, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat self;
		bool holds = false, is_self = from >= 0 && fstat(from, &self) == 0;
		for (size_t i = 0; from >= 0 && !holds && i < rests.v.n; i++) {
			struct stat rst;
			/* (The moved directory itself hidden: the same inode,
			 * whose change time the move moved; round 57b F2.) */
			holds = rests.v.v[i][0]
					? (fstatat(from, rests.v.v[i], &rst, AT_SYMLINK_NOFOLLOW) ==
						   0 &&
					   is_id(&rst, &rests.ids[i])) ||
						  (fstatat(from, rests.v.v[i], &rst, 0) == 0 &&
						   is_id(&rst, &rests.ids[i]))
					: is_self && same_inode(&self, &rests, i);
		}
		if (from >= 0)
			close(from);
		int l = 0, k = 0;
		if (holds)
			back += put_back_hidden(dir, f[3], de->d_name, &rests, &since,
						is_self ? &self : NULL, &l, &k);
		left += l + k;
	}
	if (listing)
		closedir(listing);
	if (dir >= 0)
		close(dir);
	char shown[PATH_MAX + 8], name[NAME_MAX + 8];
	if (back)
		say(said,
		    "cordon: a session's end was cut short (killed?) as it put back the hidden files "
		    "%s/%s held: cordon put %d back at their names now%s",
		    cordon_printable(f[1], SIZE_MAX, shown, sizeof(shown)),
		    cordon_printable(f[3], SIZE_MAX, name, sizeof(name)), back,
		    left ? "; some could not be, and lie in the directory moved aside: move them "
			   "back"
			 : "");
	rests_free(&rests);
	free(text);
	(void)unlinkat(d, file, 0);
}

/* Each put-back whose launcher is gone, done (putback_finish). */
static void putbacks_finish(struct cordon_strv *said)
{
	cleanup_free char *rd = records_dir();
	DIR *d = rd ? opendir(rd) : NULL;
	for (struct dirent *de; d && (de = readdir(d));) {
		char *e;
		if (strncmp(de->d_name, PUTBACK, strlen(PUTBACK)) != 0)
			continue;
		long pid = strtol(de->d_name + strlen(PUTBACK), &e, 10);
		unsigned long long start = *e == '-' ? strtoull(e + 1, &e, 10) : 0, now;
		if (pid <= 0 || pid > INT_MAX || *e != '-' ||
		    (alive((pid_t)pid, &now) && (now == start || !now)))
			continue; /* (under way) */
		putback_finish(rd, dirfd(d), de->d_name, said);
	}
	if (d)
		closedir(d);
}

static int disarm_said(const struct cordon_sweep *s, const char *path, const char *head,
		       const char *why, const char *tail, struct cordon_strv *said, char *moved,
		       size_t size)
{
	char shown[PATH_MAX + 8], to[NAME_MAX + 32], shown_to[NAME_MAX + 32], link[PATH_MAX] = "";
	cordon_printable(path, SIZE_MAX, shown, sizeof(shown));
	int dir = parent_of(s, path, link, sizeof(link)), e = dir;
	/* A link on the way the session could have laid (PROJ/.gradle, that
	 * ~/.gradle leads to, made a link to a directory of the session's
	 * holding init.d: round 12): that link is moved aside instead, which
	 * takes the name away from the tools outside. */
	if (e == -ELOOP && link[0] && strcmp(link, path) != 0) {
		char line[PATH_MAX * 2 + 64];
		snprintf(line, sizeof(line), "%s %s, reached through the link", head, shown);
		return disarm_said(s, link, line, why, tail, said, moved, size);
	}
	/* (What it holds that the session's guards hid: kept where it is.) */
	struct rests rests = {0};
	struct stat pst;
	bool self = dir >= 0 && lstat(path, &pst) == 0 && S_ISDIR(pst.st_mode);
	if (self)
		(void)hidden_rests(s, path, &rests); /* (out of memory: those found) */
	int back = 0, left = 0, kept = 0;
	cleanup_free char *note = NULL;
	if (dir >= 0 && rests.v.n) {
		cleanup_free char *dir_path = strndup(path, (size_t)(strrchr(path, '/') - path));
		note = dir_path ? putback_note(dir, dir_path[0] ? dir_path : "/",
					       strrchr(path, '/') + 1, &rests, &s->since)
				: NULL;
	}
	if (dir >= 0) {
		e = cordon_fs_move_aside(dir, strrchr(path, '/') + 1, to, sizeof(to));
		/* A directory of the user's made read-only inside (chmod 555):
		 * writable for the move (and what is put back), then as it
		 * was. */
		struct stat st;
		bool opened = (e == -EACCES || e == -EPERM) && fstat(dir, &st) == 0 &&
			      st.st_uid == geteuid() &&
			      fchmod(dir, (st.st_mode & 07777) | S_IWUSR | S_IXUSR) == 0;
		if (opened)
			e = cordon_fs_move_aside(dir, strrchr(path, '/') + 1, to, sizeof(to));
		if (e >= 0 && note) {
			int nfd = open(note, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
			char *at = nfd >= 0 ? cordon_join3("@", to, "") : NULL;
			if (at)
				(void)cordon_write_full(nfd, at, strlen(at) + 1);
			free(at);
			if (nfd >= 0)
				close(nfd);
		}
#ifdef CORDON_TEST_HOOKS
		/* (Test builds: a kill between the move and the put-back.) */
		const char *pause = getenv("CORDON_TEST_PUTBACK_PAUSE");
		int pfd = e >= 0 && rests.v.n && pause
				  ? open(pause, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)
				  : -1;
		if (pfd >= 0) {
			close(pfd);
			sleep(60);
		}
#endif
		if (e >= 0 && rests.v.n)
			back = put_back_hidden(dir, strrchr(path, '/') + 1, to, &rests, &s->since,
					       self ? &pst : NULL, &left, &kept);
		if (note)
			(void)unlink(note);
		if (opened)
			(void)fchmod(dir,
				     st.st_mode & 07777); /* as it was; failing, left writable */
		/* (Judged through the directory the move was refused in.) */
		bool theirs = e < 0 && not_the_session_s(dir, strrchr(path, '/') + 1, e);
		close(dir);
		if (theirs) {
			rests_free(&rests);
			return 0;
		}
	}
	rests_free(&rests);
	if (e == -ENOENT)
		return 0; /* gone meanwhile (another session's watch moved it) */
	if (e < 0) {
		say(said,
		    "cordon: %s %s, %s, and cordon could not move it aside (%s): review it before "
		    "that runs",
		    head, shown, why, strerror(-e));
		if (s->unmoved)
			(*s->unmoved)++;
		note_unmoved(path);
		return 0;
	}
	if (moved)
		snprintf(moved, size, "%s", to);
	note_moved_here(path, to);
	int dn = (int)(strrchr(shown, '/') - shown);
	say(said, "cordon: %s %s, %s, so cordon moved it to %.*s/%s: %s%s", head, shown, why, dn,
	    shown, cordon_printable(to, SIZE_MAX, shown_to, sizeof(shown_to)), tail,
	    back ? " (the hidden files it held stay at their names, in a directory of that name "
		   "made anew)"
		 : "");
	if (kept)
		say(said,
		    "cordon: %d file(s) at hidden names in %s are not what was there as the session "
		    "started, or changed while it ran (a session may have put them there): they stay "
		    "in %.*s/%s; review them, then move them back",
		    kept, shown, dn, shown, shown_to);
	if (left)
		say(said,
		    "cordon: %d hidden file(s) %s held could not be put back at their names: they "
		    "lie in %.*s/%s now, where a later session that reaches it can read them; move "
		    "them back",
		    left, shown, dn, shown, shown_to);
	return 1;
}

/* REL, found by the walk, is gone as it is judged: true (and W is
 * disturbed) where the directory it lies in is no longer one beneath the
 * root (a session beside this one swapping it with a link in a loop:
 * what the walk found there cannot be judged by its path, round 30b
 * N1); not inside a .git, which the sweep itself may have moved aside
 * with what it holds. */
static bool vanished(struct walk *w, const char *rel)
{
	const char *slash = strrchr(rel, '/');
	if (!slash || in_dotgit(rel) || moved_away(w, rel))
		return false;
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - rel), rel);
	int fd = cordon_fs_hold_beneath(w->root, parent);
	if (fd >= 0) {
		close(fd);
		return false;
	}
	if (fd == -ENOENT || fd == -ENOTDIR || fd == -ELOOP)
		w->disturbed = true;
	return w->disturbed;
}

/* REL, found by the walk, is gone as it comes to be judged: as vanished
 * where its directory is, and where that is still there too, outside a
 * .git (which the sweep moves aside with what it holds): under load, the
 * inotify-timed racer of a_repository_moved_into_a_walked_directory_is_
 * judged moved the repository after the whole walk, from where it had
 * been found into a directory already walked, and it was taken for
 * deleted (1 run of 6 full suites). Disturbed, the next session judges
 * from this one's start, and finds it there. */
static void gone(struct walk *w, const char *rel)
{
	struct stat st;
	if (moved_away(w, rel))
		return;
	if (!in_dotgit(rel) && fstatat(w->root, rel, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT)
		w->disturbed = true;
	else
		(void)vanished(w, rel);
}

/* The git dir or .git entry REL: made or changed inside, and would make
 * git run a program? Then moved aside. 1 if it was. */
/* PATH's path relative to W's top where it lies below a .git's modules/
 * or worktrees/ (where a submodule's name, or a worktree's, leads through
 * it), else NULL. */
static const char *in_containers(const struct walk *w, const char *path)
{
	size_t tn = w->top_len ? w->top_len : strlen(w->top);
	if (strncmp(path, w->top, tn) != 0 || path[tn] != '/')
		return NULL;
	const char *rel = path + tn + 1, *end = box_end(rel);
	return end && *end == '/' ? rel : NULL;
}

/* REL (PATH), a git dir git keeps in a .git (a submodule's, below
 * modules/; a linked worktree's), moved out of it into the .git's
 * cordon-disarmed/, named by where it was ('!' for each '/'), and its
 * HEAD moved aside in it: no git dir to git, and where no submodule's
 * name leads (round 49d G2: modules/e/Z.cordon-disarmed was the git dir
 * of a submodule named so, which git fetch and git submodule update
 * outside used as it was). Said into SAID with HEAD (who did what) and
 * WHY; its new path, relative, into OUT. 1, or -errno (nothing moved). */
static int disarm_out(struct walk *w, const char *rel, const char *path, const char *head,
		      const char *why, bool git_dir, struct cordon_strv *said, char *out,
		      size_t size)
{
	const char *end = dotgit_end(rel), *slash = strrchr(rel, '/');
	if (!end)
		return -EINVAL;
	size_t dn = (size_t)(end - rel);
	char dotgit[PATH_MAX], parent[PATH_MAX], flat[NAME_MAX + 1];
	snprintf(dotgit, sizeof(dotgit), "%.*s", (int)dn, rel);
	snprintf(parent, sizeof(parent), "%.*s", (int)(slash - rel), rel);
	snprintf(flat, sizeof(flat), "%s", rel + dn + 1);
	for (char *f = flat; (f = strchr(f, '/'));)
		*f = '!';
	int from = cordon_fs_open_beneath(w->root, parent), git = -1, to = -1, e;
	if (from < 0)
		return from;
	if ((git = cordon_fs_open_beneath(w->root, dotgit)) < 0) {
		close(from);
		return git;
	}
	/* (One the session laid there that is no directory, or one it made
	 * that cordon cannot write in, mode 500: moved aside, and a new one
	 * made; round 49e N5.) */
	char name[NAME_MAX + 32], aside[NAME_MAX + 32];
	e = -ENOENT;
	for (int k = 0; k < 2 && e < 0; k++) {
		if (k > 0 && cordon_fs_move_aside(git, "cordon-disarmed", aside, sizeof(aside)) < 0)
			break;
		if (mkdirat(git, "cordon-disarmed", 0700) < 0 && errno != EEXIST)
			continue;
		to = openat(git, "cordon-disarmed",
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		e = to < 0 ? -errno : move_to(from, slash + 1, to, flat, name, sizeof(name));
		if (e < 0 && to >= 0) {
			close(to);
			to = -1;
		}
	}
	/* Where it cannot go out, beside it: its HEAD aside all the same. */
	bool beside = e < 0 && (e = cordon_fs_move_aside(from, slash + 1, name, sizeof(name))) >= 0;
	if (e >= 0) {
		int in = beside ? from : to;
		int moved =
			git_dir ? openat(in, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
				: -1;
		char head_to[NAME_MAX + 32] = "";
		/* (A HEAD.cordon-disarmed laid there already: another name,
		 * round 49e N1.) */
		if (moved >= 0 && cordon_fs_move_aside(moved, "HEAD", head_to, sizeof(head_to)) < 0)
			head_to[0] = '\0';
		if (moved >= 0)
			close(moved);
		if ((size_t)(beside ? snprintf(out, size, "%s/%s", parent, name)
				    : snprintf(out, size, "%s/cordon-disarmed/%s", dotgit, name)) >=
		    size)
			out[0] = '\0'; /* (no path to note it by: judged again) */
		char shown[PATH_MAX + 8], shown_to[PATH_MAX + NAME_MAX + 40], at[PATH_MAX * 2],
			tail[NAME_MAX + 128];
		snprintf(at, sizeof(at), "%s/%s", w->top, out);
		if (!git_dir)
			snprintf(tail, sizeof(tail), ": look at it, then remove it");
		else if (head_to[0])
			snprintf(tail, sizeof(tail),
				 ", its HEAD to %s in it: review it, then move both back", head_to);
		else
			snprintf(tail, sizeof(tail),
				 ", but not its HEAD: review it before git runs there, then remove "
				 "it");
		say(said, "cordon: %s %s, %s, so cordon moved it to %s%s%s", head,
		    cordon_printable(path, SIZE_MAX, shown, sizeof(shown)), why,
		    cordon_printable(at, SIZE_MAX, shown_to, sizeof(shown_to)),
		    beside ? "" : ", where no submodule's name leads", tail);
	}
	if (to >= 0)
		close(to);
	close(git);
	close(from);
	return e < 0 ? e : 1;
}

/* Whether the git dir the .git file or link PATH leads to now is one the
 * guards kept: its config, hooks and commondir (and a config.worktree
 * there) each the very one they kept, by its own name and no link
 * (round 49i I1: a config linked to the superproject's, kept, passed, and
 * a commondir it named, armed in the history directory, ran). */
static bool kept_where_it_leads(const struct cordon_sweep *s, const char *path)
{
	cleanup_free char *dir = cordon_git_dir_of(path);
	static const char *const names[] = {"config", "hooks", "commondir", "config.worktree"};
	for (size_t i = 0; dir && i < sizeof(names) / sizeof(names[0]); i++) {
		char at[PATH_MAX + 32];
		struct stat st;
		if ((size_t)snprintf(at, sizeof(at), "%s/%s", dir, names[i]) >= sizeof(at))
			return false;
		bool there = lstat(at, &st) == 0;
		if (there && S_ISLNK(st.st_mode))
			return false;
		/* (config and hooks kept; the others kept, or not there) */
		if ((i < 2 || there) && (!guarded_as(s, at) || dir_guard_lost(s, at)))
			return false;
	}
	return dir != NULL;
}

/* The directory PATH, named by where it is and which it is (its path,
 * device and inode, hashed alike in every process: round 50d N1 had a
 * keyed hash differ at each end), or 0 where there is none. */
static unsigned long long dir_identity(const char *path)
{
	cleanup_free char *real = path ? realpath(path, NULL) : NULL;
	struct stat st;
	if (!real || stat(real, &st) < 0)
		return 0;
	unsigned long long h = 0xcbf29ce484222325ULL; /* FNV-1a */
	for (const char *c = real; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
	return (h ^ (unsigned long long)st.st_ino ^
		((unsigned long long)st.st_dev * 0x9e3779b97f4a7c15ULL)) |
	       1;
}

/* ID with MORE mixed in. */
static unsigned long long mix_identity(unsigned long long id, unsigned long long more)
{
	return ((id ^ (more << 17 | more >> 47)) * 0x9e3779b97f4a7c15ULL) | 1;
}

/* The identities of the repositories a config's remotes name on this
 * machine (cordon_git_config_judge's LOCAL), mixed into ID; nothing is
 * taken for a risk here. */
struct remotes_seen {
	const char *base; /* what a relative one is taken against */
	unsigned long long id;
};

static bool remote_seen(const char *path, void *arg)
{
	struct remotes_seen *seen = arg;
	char abs[PATH_MAX];
	if (url_abs(path, seen->base, abs, NULL))
		seen->id = mix_identity(seen->id, dir_identity(abs));
	return false;
}

/* The .git entry REL (PATH) leads to another git dir than it did as the
 * session started, or its git dir to another common dir, by the record
 * then (a link on the way laid again, a directory there renamed: round
 * 50a F2 had a store armed in the history directory in one session, and
 * reached through a link swapped in the next, its files all older than
 * that session; 50d: the commondir of a git dir that stayed led through
 * such a link). A record that could not be read tells nothing: it
 * leads elsewhere then (50d F1: a session made it too large to read).
 * What it leads to now is noted for the next walk. DIR: the git dir
 * PATH leads to (cordon_git_dir_of), or NULL. */
static bool judged_route(struct walk *w, const char *rel, const char *path, const char *dir)
{
	unsigned long long id = dir_identity(dir);
	char common[PATH_MAX + 16];
	cleanup_free char *shared =
		id && (size_t)snprintf(common, sizeof(common), "%s/commondir", dir) < sizeof(common)
			? cordon_git_link_file(common, "", dir)
			: NULL;
	if (shared)
		id = mix_identity(id, dir_identity(shared));
	/* And the repositories its remotes name here, where git push runs
	 * hooks (round 50f F1: a remote through a link in the history
	 * directory, laid again by a later session to a repository armed in
	 * an earlier one; the config, unchanged, was not judged again). */
	char config[PATH_MAX + 16];
	size_t pn = strlen(path);
	cleanup_free char *base = pn >= 5 && strcmp(path + pn - 5, "/.git") == 0
					  ? strndup(path, pn - 5)
					  : strdup(path);
	struct remotes_seen seen = {.base = base, .id = id};
	char scratch[1200] = "";
	if (id && base && cordon_git_common_config(dir, config, sizeof(config)))
		(void)cordon_git_config_judge(config, NULL, remote_seen, &seen, scratch,
					      sizeof(scratch));
	id = seen.id;
	if (record(w, REC_LEADS, id, rel, "/") < 0 || w->cache.unusable)
		return true; /* (none for the next, or none from the last: all judged) */
	cleanup_free char *key = rel_joined("", 0, rel, "/", false);
	const char *r = key && current_at(w, rel) ? cache_find(&w->cache, key) : NULL;
	return r && r[0] == REC_LEADS && rec_ino(r) != id;
}

/* The directory REL (PATH, ST), a git dir now, was none as the session
 * started, by the record then, and what made it one may have changed
 * since: its HEAD (written in place), or a name made in it (objects, refs,
 * a commondir). All of it is new to git then, whatever its times (round
 * 50: a bare repository planted with a HEAD git rejected, its core.pager
 * armed, was made a git dir by a later session rewriting the HEAD, and
 * git log there ran the pager). */
static bool judged_became(const struct walk *w, const char *rel, const char *path,
			  const struct stat *st, const struct timespec *since)
{
	const char *r = current_at(w, rel) ? cached(w, rel) : NULL;
	if (!r || (r[0] != REC_DIR && r[0] != REC_DEEP))
		return false;
	char head[PATH_MAX + 16], common[PATH_MAX + 16];
	if ((size_t)snprintf(head, sizeof(head), "%s/HEAD", path) >= sizeof(head) ||
	    (size_t)snprintf(common, sizeof(common), "%s/commondir", path) >= sizeof(common))
		return true; /* (none cordon can look at: all of it counts) */
	cleanup_free char *shared = cordon_git_link_file(common, "", path);
	return after(&CTIME(*st), since) || changed(head, since) ||
	       (shared && moved_in(shared, since));
}

/* The git dir PATH has a HEAD again beside the one a sweep moved aside
 * (HEAD.cordon-disarmed): a repository moved aside made live once more,
 * whose config is as the session found it (round 51c F2: cp
 * HEAD.cordon-disarmed HEAD, and a link to it; git status there ran its
 * core.fsmonitor). All of it counts. */
static bool revived(const char *path)
{
	char head[PATH_MAX + 16];
	struct stat st;
	if ((size_t)snprintf(head, sizeof(head), "%s/HEAD", path) >= sizeof(head) ||
	    lstat(head, &st) < 0)
		return false;
	DIR *d = opendir(path);
	bool aside = false;
	for (struct dirent *de; d && !aside && (de = readdir(d));)
		aside = head_aside(de->d_name);
	if (d)
		closedir(d);
	return aside;
}

static int judge_repo(struct walk *w, const char *found, struct cordon_strv *said)
{
	struct cordon_sweep from = *w->s;
	const struct cordon_sweep *s = &from;
	const char *rel = found + 1;
	char path[PATH_MAX + 8];
	snprintf(path, sizeof(path), rel[0] ? "%s/%s" : "%s", w->top, rel);
	struct stat st;
	/* (A .git file or link the guards kept, as it leads now: a link on
	 * the way its gitdir: line names, laid again, leads it elsewhere,
	 * round 49h H1, and the git dir there is judged.) */
	bool there = lstat(path, &st) == 0;
	cleanup_free char *dir = there ? cordon_git_dir_of(path) : NULL;
	bool re_pointed = there && judged_route(w, rel, path, dir);
	bool guarded_route = is_guarded(s, path);
	if (guarded_route && (!there || S_ISDIR(st.st_mode) || kept_where_it_leads(s, path)))
		return 0;
	if (lstat(path, &st) < 0) {
		gone(w, rel);
		return 0;
	}
	/* One a sweep moved aside was judged then: what changed in it before
	 * (in the second a session started just after, say) is not judged
	 * again, what changed since is. The move set its change time, and
	 * each name made in it since moves it on. */
	struct timespec moved_at = {0};
	bool disarmed = S_ISDIR(st.st_mode) &&
			cached_disarmed(w, rel, (unsigned long long)st.st_ino, &moved_at);
	/* (Strictly after the move: the plant it moved may bear the very
	 * same coarse time.) */
	if (disarmed && ++moved_at.tv_nsec >= 1000000000L) {
		moved_at.tv_sec++;
		moved_at.tv_nsec = 0;
	}
	if (disarmed && after(&moved_at, &from.since))
		from.since = moved_at;
	/* New here: made or moved in since the session started (see
	 * arrived), itself or a directory above it; a .git file or link,
	 * written since. */
	bool made = !disarmed && (found[0] == ABOVE_NEW || moved_aside_since(w, rel) ||
				  (S_ISDIR(st.st_mode) ? arrived(w, rel, &st, found[0])
						       : after(&CTIME(st), &s->since)));
	/* One whose config the guards keep was there as the session started
	 * (its change time moves with the stand-ins the session makes in
	 * it), and what leads to it is guarded too. */
	char config[PATH_MAX + 16];
	bool kept = (made || !S_ISDIR(st.st_mode)) && dir && /* (else unused: H2) */
		    snprintf(config, sizeof(config), "%s/config", dir) > 0 && is_guarded(s, config);
	/* A .git file or link written since, or one the guards kept that
	 * leads elsewhere now: the way to the git dir is new, and what lies
	 * there counts whatever its times (round 50a F2: a store armed in an
	 * earlier session, reached through a link laid again in this one).
	 * To a git dir the guards keep, what they keep does not count: the
	 * rest does (round 50a F1: a new worktree of the project's own git
	 * dir, whose relative core.hooksPath leads to hooks an earlier
	 * session wrote in it). */
	bool new_route = (!S_ISDIR(st.st_mode) && (made || guarded_route)) || re_pointed ||
			 (S_ISDIR(st.st_mode) && !made &&
			  (judged_became(w, rel, path, &st, &s->since) || revived(path)));
	made = made && !kept;
	/* All it holds counts when it is new, and when the git dir a .git
	 * file or link names may have been moved into place. */
	struct judge j = {.s = s,
			  .memo = &w->memo,
			  .hooks_global = &w->hooks_global,
			  .all = new_route ||
				 (!kept && (made || (!S_ISDIR(st.st_mode) &&
						     (!dir || moved_in(dir, &s->since)))))};
	/* core.hooksPath is relative to the worktree, or to a bare git dir;
	 * the worktree of a git dir kept in a .git is found by its own
	 * .git file. */
	size_t pn = strlen(path);
	cleanup_free char *base = NULL;
	if (pn >= 5 && strcasecmp(path + pn - 5, "/.git") == 0)
		base = strndup(path, pn - 5);
	else if (!in_dotgit(rel))
		base = strdup(path);
	j.base = base;
	struct risks r = {.all = ""};
	/* (A .git file written or led elsewhere since, naming nothing cordon
	 * finds: yet. A git dir another root's walk moves aside may be there
	 * next, at its new name.) */
	if (dir)
		risks_of(&j, dir, base, &r);
	else if (made || re_pointed)
		cordon_git_risk_add(r.all, sizeof(r.all), "a .git file cordon cannot follow");
	int moved = 0;
	char why[1400], shown[PATH_MAX + 8];
	/* Moved aside by another session's end while this one ran: what
	 * changed in it since this one started, before that move too, is
	 * said (round 31 F2: a hook planted before the move went unnamed;
	 * the other's line named only its own change), with what changed
	 * after, if it is moved on (round 31b G3); alone, not moved on. The
	 * other session may have made it: this one cannot tell (G7). */
	bool both = false; /* (what the other session changed is in the line too: 31c I1) */
	/* (Only one the record as this session started did not have: with a
	 * start taken coarsely, every session in the second after a move took
	 * it for one meanwhile, and said so again each time: 46d N2.) */
	unsigned long long ino_now = (unsigned long long)st.st_ino;
	struct timespec ignored;
	bool meanwhile =
		disarmed && !(w->cache_at_start && disarmed_in(&w->cache, rel, ino_now, &ignored));
	if (meanwhile && dir && after(&moved_at, &w->s->since)) {
		struct judge own = j;
		own.s = w->s;
		own.all = false;
		struct risks before = {.all = ""};
		risks_of(&own, dir, base, &before);
		if (before.all[0] && r.all[0]) {
			add_each(r.all, sizeof(r.all), before.all);
			both = true;
		} else if (before.all[0])
			say(said,
			    "cordon: while %s ran, the repository %s was changed (by it, or by the "
			    "session whose end moved it aside meanwhile), where git outside would "
			    "run programs (%s): review all of it before you move it back",
			    w->s->earlier ? "a session" : "this session",
			    cordon_printable(path, SIZE_MAX, shown, sizeof(shown)), before.all);
		cordon_strv_free(&before.files);
		cordon_strv_free(&before.why);
	}
	if (!r.all[0]) {
		/* (A git dir kept in a .git: a submodule's or a linked
		 * worktree's, said with the worktree it belongs to.) */
		if (made && !in_dotgit(rel) && !w->shared)
			say(said,
			    "cordon: %s made the repository %s: it has no hooks, and its "
			    "config sets only keys cordon knows to run nothing",
			    s->earlier ? "a session" : "this session",
			    cordon_printable(path, SIZE_MAX, shown, sizeof(shown)));
	} else if (r.guarded && !r.other) {
		/* The guards keep the repository; only files git writes itself
		 * are moved aside, and the repository stays usable. */
		for (size_t i = 0; i < r.files.n; i++) {
			const char *head = s->earlier ? "while a session ran, it wrote"
						      : "while this session ran, it wrote";
			const char *name = strrchr(r.files.v[i], '/');
			struct stat lst;
			/* (One below a .git's modules/ or worktrees/ leads a
			 * submodule's name through it: moved out of them.) */
			const char *link_rel = in_containers(w, r.files.v[i]);
			char out[PATH_MAX + NAME_MAX + 40];
			if (link_rel && lstat(r.files.v[i], &lst) == 0 &&
			    (S_ISLNK(lst.st_mode) ||
			     (S_ISREG(lst.st_mode) && gitfile_at(AT_FDCWD, r.files.v[i]))) &&
			    disarm_out(w, link_rel, r.files.v[i], head, r.why.v[i], false, said,
				       out, sizeof(out)) > 0) {
				moved++;
				continue;
			}
			if (lstat(r.files.v[i], &lst) == 0 && S_ISLNK(lst.st_mode)) {
				/* (Not to be moved back either: round 38a F1.) */
				moved += disarm_said(
					s, r.files.v[i], head, r.why.v[i],
					"git makes the file anew; look at where the link "
					"leads, then remove it",
					said, NULL, 0);
				continue;
			}
			if (name && strcmp(name, "/index") == 0) {
				/* (Not to be moved back: git makes a new one.) */
				moved += disarm_said(s, r.files.v[i], head, r.why.v[i],
						     "git works without one (git reset there "
						     "makes a new one from HEAD)",
						     said, NULL, 0);
				continue;
			}
			snprintf(why, sizeof(why), "where git outside would run programs (%s)%s",
				 r.why.v[i],
				 held_twice(s, r.files.v[i])
					 ? ", through another name it has (a hard link), which "
					   "cordon's guard on this one does not cover"
					 : "");
			moved += disarm(s, r.files.v[i], head, why, said);
		}
	} else {
		snprintf(why, sizeof(why), "where git outside would run programs (%s)", r.all);
		char to[NAME_MAX + 32];
		/* A bare repository laid in a root's top, or in a directory
		 * holding the project (round 29c F3: the sweep moved the whole
		 * monorepo aside, the project in it), or one holding the git dir
		 * of a submodule of the user's (48d F4: a session gave
		 * .git/modules/d a HEAD and a commondir, and the user's d/X went
		 * aside with it, and git cloned it anew): its HEAD is moved aside
		 * instead, which leaves git no repository there. */
		char head[PATH_MAX + 16];
		bool bare = base && strcmp(base, path) == 0; /* (its worktree itself) */
		bool whole =
			!(S_ISDIR(st.st_mode) &&
			  ((bare &&
			    (!rel[0] || (s->project && cordon_path_under(s->project, path)))) ||
			   holds_guarded(s, path)) &&
			  (size_t)snprintf(head, sizeof(head), "%s/HEAD", path) < sizeof(head));
		const char *what =
			made   ? (s->earlier ? "a session made the repository"
					     : "this session made the repository")
			: both ? (s->earlier
					  ? "while a session ran, it (or the session whose end moved "
					    "it aside meanwhile) changed the repository"
					  : "while this session ran, it (or the session whose end "
					    "moved it aside meanwhile) changed the repository")
			       : (s->earlier ? "while a session ran, it changed the repository"
					     : "while this session ran, it changed the repository");
		char whose[256];
		snprintf(whose, sizeof(whose), "%s%s", what, whole ? "" : " whose HEAD is");
		char out[PATH_MAX + NAME_MAX + 40];
		bool outside =
			whole && S_ISDIR(st.st_mode) && in_dotgit(rel) &&
			disarm_out(w, rel, path, whose, why, true, said, out, sizeof(out)) > 0;
		/* One moved beside itself loses its HEAD too, as one moved out
		 * of a .git does: else X.cordon-disarmed is a live git dir,
		 * which a link laid later leads git to (round 51a F2). */
		char head_to[NAME_MAX + 32] = "", tail[NAME_MAX + 96];
		int in = whole && !outside && S_ISDIR(st.st_mode)
				 ? cordon_fs_open_beneath(w->root, rel[0] ? rel : ".")
				 : -1;
		if (in >= 0 && cordon_fs_move_aside(in, "HEAD", head_to, sizeof(head_to)) < 0)
			head_to[0] = '\0';
		if (in >= 0)
			close(in);
		snprintf(tail, sizeof(tail), "review it, then move it back%s%s%s",
			 head_to[0] ? " and its " : "", head_to[0] ? head_to : "",
			 head_to[0] ? " in it back to HEAD" : "");
		moved = outside ? 1
				: disarm_said(s, whole ? path : head, whose, why, tail, said, to,
					      sizeof(to));
		(void)vanished(w, rel); /* (moved from under the move: its link instead) */
		if (moved)
			forget_inode(w, rel);
		if (outside && out[0])
			note_moved(w, rel, out); /* (not walked there: out of modules/) */
		/* Recorded under its new name, with the change time the move
		 * gave it: the next walk judges only what changed after. */
		const char *slash = strrchr(rel, '/');
		cleanup_free char *to_rel = NULL;
		struct stat now;
		char top_path[PATH_MAX + NAME_MAX + 8];
		if (moved && !outside && whole && S_ISDIR(st.st_mode) &&
		    asprintf(&to_rel, "%.*s%s%s", slash ? (int)(slash - rel) : 0, rel,
			     slash ? "/" : "", to) >= 0 &&
		    snprintf(top_path, sizeof(top_path), "%s/%s", w->top, to_rel) <
			    (int)sizeof(top_path) &&
		    lstat(top_path, &now) == 0 && now.st_ino == st.st_ino) {
			note_moved(w, rel, to_rel);
			/* (Else judged again.) */
			if (record(w, REC_DISARMED, (unsigned long long)st.st_ino, to_rel, NULL) >=
			    0)
				(void)!record_moved(w, to_rel, &CTIME(now));
		}
	}
	cordon_strv_free(&r.files);
	cordon_strv_free(&r.why);
	return moved;
}

/* Whether REL, below a .git's modules/ or worktrees/, lies in a git dir
 * there (a file of git's own). */
static bool in_boxed_git_dir(struct walk *w, const char *rel)
{
	char up[PATH_MAX];
	snprintf(up, sizeof(up), "%s", rel);
	for (char *slash; (slash = strrchr(up, '/'));) {
		*slash = '\0';
		const char *last = last_name(up);
		if (strcasecmp(last, "modules") == 0 || strcasecmp(last, "worktrees") == 0) {
			const char *before = up + strlen(up) - strlen(last);
			if (before - up >= 5 && strncasecmp(before - 5, ".git/", 5) == 0)
				return false; /* (the box itself) */
		}
		if (cordon_guard_git_dir_as_git(w->root, up, hexsz_at(w, up)))
			return true;
	}
	return false;
}

/* REL, a file made since the session started below a .git's modules/ or
 * worktrees/ (look_gitfile): one git reads as a .git file, or one in no
 * git dir there (where git keeps none: a later session writing it again
 * would go unseen), is moved out of them (in place where it cannot be).
 * 1 if it was. */
static int judge_gitfile(struct walk *w, const char *rel, struct cordon_strv *said)
{
	char path[PATH_MAX * 2], out[PATH_MAX + NAME_MAX + 40];
	struct stat st;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", w->top, rel) >= PATH_MAX ||
	    fstatat(w->root, rel, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
		return 0;
	const char *slash = strrchr(rel, '/');
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - rel) : 0, rel);
	int dir = cordon_fs_open_beneath(w->root, parent);
	bool gitfile = dir >= 0 && gitfile_at(dir, slash ? slash + 1 : rel);
	if (dir >= 0)
		close(dir);
	if (!gitfile && in_boxed_git_dir(w, rel))
		return 0;
	const char *head = w->s->earlier ? "while a session ran, it wrote"
					 : "while this session ran, it wrote";
	const char *why =
		gitfile ? "a .git file (\"gitdir: ...\") where a submodule's name leads "
			  "git outside to the git dir it names"
			: "a file where git keeps only git dirs, which a submodule's name "
			  "leads git to";
	if (disarm_out(w, rel, path, head, why, false, said, out, sizeof(out)) > 0)
		return 1;
	return disarm_said(w->s, path, head, why, "look at it, then remove it", said, NULL, 0);
}

/* A protected name missing as the session started, that no mount could
 * guard: made since, it is moved aside. 1 if it was. */
static int judge_name(const struct cordon_sweep *s, const char *path, struct cordon_strv *said,
		      char *to, size_t to_size)
{
	struct stat st;
	if (cordon_sweep_git_entry(s, path) || lstat(path, &st) < 0 || cordon_is_stand_in(path))
		return 0;
	/* One of the names looked for above, out of the session's own roots
	 * (/tmp/.git). */
	bool above = cordon_found_above_index(strrchr(path, '/') + 1) >= 0;
	for (size_t i = 0; above && i < s->n_own; i++)
		above = !cordon_path_under(path, s->roots.v[i]);
	/* (Who made it cannot be told: a program outside that makes the name
	 * while the session runs has it moved too, round 26d's lefthook file
	 * saved outside; said so.) */
	return disarm_to(s, path, "this session (or a program outside, while it ran) made",
			 above ? "which a program run in a directory below it, outside, would "
				 "look for and obey"
			       : "which cordon cannot guard while a session runs and an agent, "
				 "direnv or an editor outside would obey",
			 said, to, to_size);
}

int cordon_sweep_parent(const struct cordon_sweep *s, const char *path)
{
	return parent_of(s, path, NULL, 0);
}

bool cordon_sweep_laid(const struct cordon_sweep *s, const char *link, const struct stat *st)
{
	char parent[PATH_MAX];
	const char *slash = strrchr(link, '/');
	if (!slash)
		return false;
	snprintf(parent, sizeof(parent), "%.*s", slash == link ? 1 : (int)(slash - link), link);
	return after(&CTIME(*st), &s->started) && session_writable(s, parent);
}

bool cordon_sweep_git_entry(const struct cordon_sweep *s, const char *path)
{
	size_t n = strlen(path);
	if (n < 5 || strcasecmp(path + n - 5, "/.git") != 0)
		return false;
	for (size_t i = 0; s && i < s->n_own; i++)
		if (cordon_path_under(path, s->roots.v[i]))
			return true;
	return false;
}

/* PATH made again: moved to NAME.cordon-disarmed-again, over the one
 * made before it (the first one is kept apart, and said): 1 if it was. */
static int disarm_again(const struct cordon_sweep *s, const char *path)
{
	char to[NAME_MAX + 32];
	const char *name = strrchr(path, '/') + 1;
	int dir = parent_of(s, path, NULL, 0);
	if (dir < 0)
		return 0;
	int e = -ENAMETOOLONG;
	if ((size_t)snprintf(to, sizeof(to), "%s" DISARMED "-again", name) <= NAME_MAX)
		e = renameat(dir, name, dir, to) < 0 ? -errno : 0;
	if (e < 0 && e != -ENOENT) /* (a directory there, or a long name) */
		e = cordon_fs_move_aside(dir, name, to, sizeof(to));
	close(dir);
	return e == 0;
}

int cordon_sweep_disarm_now(const struct cordon_sweep *s, const char *path, const char *way_to,
			    bool again, struct cordon_strv *said, char *to, size_t to_size)
{
	struct stat st;
	if (to && to_size)
		to[0] = '\0';
	if (cordon_is_stand_in(path))
		return 0; /* a session's stand-in (another watch was first) */
	if (again && lstat(path, &st) == 0 && disarm_again(s, path))
		return 1;
	if (!way_to)
		return judge_name(s, path, said, to, to_size);
	char shown[PATH_MAX + 8], head[PATH_MAX + 64];
	cordon_printable(way_to, SIZE_MAX, shown, sizeof(shown));
	snprintf(head, sizeof(head), "this session made, on the way to %s, the link", shown);
	return disarm(s, path, head,
		      "which cordon cannot guard while a session runs and an agent, direnv or an "
		      "editor outside would obey",
		      said);
}

int cordon_sweep_disarm_why(const struct cordon_sweep *s, const char *path, const char *head,
			    const char *why, struct cordon_strv *said)
{
	return disarm(s, path, head, why, said);
}

/* What a local name holds, looked at as the walk records it and as the
 * sweep judges it: the newest change time in it, and a digest of its
 * names, kinds, link targets and contents: a SHA-256 of each entry, those
 * sorted (the order of a directory's entries does not count), and a
 * SHA-256 of them all, of which the record keeps 64 bits. (It was a sum
 * of FNV-1a hashes until round 30 F5: a session padded a .claude it
 * filled with four empty files whose names it computed in seconds, and
 * the sum came out as the empty directory's recorded before.) A session
 * would need a second SHA-256 preimage to keep what it wrote under a
 * digest recorded before it started. A directory is read level by
 * level (a big .claude/skills listed first cannot hide a settings.json
 * changed beside it: round 11), a link to a directory into what it leads
 * to (.claude/hooks -> ../../tools/hooks, written there: round 13), to
 * LOCAL_DEPTH levels, LOCAL_BUDGET entries and LOCAL_BYTES bytes of
 * contents. What lies past them is not seen: the name is then "partial",
 * and judged changed (round 13 edited a file past its first MiB, keeping
 * its size, and the digest let it stay). */
#define LOCAL_BYTES (64ULL << 20)
/* And all of a root's local names together: a session that laid a
 * thousand links to one large file made the end of the session read 64
 * MiB for each (round 14: over two minutes). */
#define LOCAL_BYTES_ALL (256ULL << 20)

struct local_look {
	struct timespec newest;
	/* The entries' digests (look_local's own), then all of them; a
	 * folded look's chained in (fold_look). */
	unsigned char (*entries)[CORDON_SHA256_SIZE];
	size_t n_entries, entries_cap;
	unsigned char sum[CORDON_SHA256_SIZE];
	unsigned long long digest; /* SUM's first 64 bits (0: none) */
	unsigned long long bytes;  /* contents read so far */
	unsigned long long *spent; /* by all the root's local names so far */
	bool partial;              /* something in it was not seen */
};

/* The size of REL (ST) and what it holds, within L's budget, into C. */
static void hash_file(int root, const char *rel, int nofollow, const struct stat *st,
		      struct cordon_sha256 *c, struct local_look *l)
{
	cordon_sha256_update(c, &st->st_size, sizeof(st->st_size));
	int fd = openat(root, rel, O_RDONLY | nofollow | O_NONBLOCK | O_CLOEXEC);
	char buf[65536];
	ssize_t n = 0;
	while (fd >= 0) {
		/* Past a budget, one byte more tells whether there was more. */
		bool room = l->bytes < LOCAL_BYTES && *l->spent < LOCAL_BYTES_ALL;
		if ((n = read(fd, buf, room ? sizeof(buf) : 1)) <= 0)
			break;
		if (!room) {
			l->partial = true;
			break;
		}
		cordon_sha256_update(c, buf, (size_t)n);
		l->bytes += (unsigned long long)n;
		*l->spent += (unsigned long long)n;
	}
	if (fd < 0 || n < 0)
		l->partial = true; /* unread, or read only in part */
	if (fd >= 0)
		close(fd);
}

/* REL (beneath ROOT; ST its lstat) into L: its change time, and its
 * name, kind and what it holds into the digest. True when it is a link
 * to a directory, whose entries are to be looked at too. */
static bool look_one(int root, const char *rel, const struct stat *st, struct local_look *l)
{
	bool into = false;
	if (after(&CTIME(*st), &l->newest))
		l->newest = CTIME(*st);
	struct cordon_sha256 c;
	cordon_sha256_init(&c);
	cordon_sha256_update(&c, rel, strlen(rel) + 1);
	unsigned kind = (unsigned)(st->st_mode & S_IFMT);
	cordon_sha256_update(&c, &kind, sizeof(kind));
	if (S_ISLNK(st->st_mode)) {
		char target[PATH_MAX];
		ssize_t n = readlinkat(root, rel, target, sizeof(target));
		cordon_sha256_update(&c, target, n > 0 ? (size_t)n : 0);
		/* What it leads to (tasks.json -> ../../shared/tasks.json,
		 * written there: round 12): its change time, and a file's
		 * bytes. */
		struct stat to;
		if (fstatat(root, rel, &to, 0) == 0) {
			if (after(&CTIME(to), &l->newest))
				l->newest = CTIME(to);
			if (S_ISREG(to.st_mode))
				hash_file(root, rel, 0, &to, &c, l);
			into = S_ISDIR(to.st_mode);
		}
	} else if (S_ISREG(st->st_mode)) {
		hash_file(root, rel, O_NOFOLLOW, st, &c, l);
	}
	unsigned char(*nv)[CORDON_SHA256_SIZE] =
		cordon_grow(l->entries, &l->entries_cap, l->n_entries + 1, sizeof(*nv), 16);
	if (!nv) {
		l->partial = true; /* (out of memory: judged as changed) */
		return into;
	}
	l->entries = nv;
	cordon_sha256_final(&c, l->entries[l->n_entries++]);
	return into;
}

static int by_digest(const void *a, const void *b)
{
	return memcmp(a, b, CORDON_SHA256_SIZE);
}

/* L's DIGEST, of its SUM. */
static void sum_digest(struct local_look *l)
{
	l->digest = 0;
	for (int i = 0; i < 8; i++)
		l->digest = l->digest << 8 | l->sum[i];
	l->digest += !l->digest; /* (0 is none) */
}

/* L's SUM and DIGEST, of its entries' digests sorted; those freed. */
static void settle_look(struct local_look *l)
{
	if (l->n_entries)
		qsort(l->entries, l->n_entries, sizeof(*l->entries), by_digest);
	struct cordon_sha256 c;
	cordon_sha256_init(&c);
	for (size_t i = 0; i < l->n_entries; i++)
		cordon_sha256_update(&c, l->entries[i], sizeof(*l->entries));
	cordon_sha256_final(&c, l->sum);
	free(l->entries);
	l->entries = NULL;
	l->n_entries = l->entries_cap = 0;
	sum_digest(l);
}

/* T, a look at a file L's name loads, chained into L's SUM and DIGEST
 * (in the order the loads come: the .envrc's own, read into SUM). */
static void fold_look(struct local_look *l, const struct local_look *t)
{
	struct cordon_sha256 c;
	cordon_sha256_init(&c);
	cordon_sha256_update(&c, l->sum, sizeof(l->sum));
	cordon_sha256_update(&c, t->sum, sizeof(t->sum));
	cordon_sha256_final(&c, l->sum);
	sum_digest(l);
}

/* REL beneath ROOT, a local name: L filled; false when it is gone. Only
 * read: the links in it are followed (what they lead to is what a tool
 * started there reads), within the budgets. */
static bool look_entries(int root, const char *rel, struct local_look *l, unsigned long long *spent)
{
	struct stat st;
	*l = (struct local_look){.spent = spent};
	if (fstatat(root, rel, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	if (!look_one(root, rel, &st, l) && !S_ISDIR(st.st_mode))
		return true;
	struct cordon_strv level = {0};
	if (cordon_strv_push(&level, rel) < 0) {
		l->partial = true;
		return true;
	}
	int left = LOCAL_BUDGET;
	for (int depth = 0; level.n; depth++) {
		if (depth == LOCAL_DEPTH || left <= 0) {
			l->partial = true; /* directories left unread */
			break;
		}
		struct cordon_strv next = {0};
		for (size_t i = 0; i < level.n; i++) {
			int fd = openat(root, level.v[i],
					O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
			DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
			if (!d && fd >= 0)
				close(fd);
			if (!d)
				l->partial = true;
			for (struct dirent *e; d && (e = readdir(d));) {
				char sub[PATH_MAX * 2];
				if (cordon_dot_or_dotdot(e->d_name))
					continue;
				if (left-- <= 0 || snprintf(sub, sizeof(sub), "%s/%s", level.v[i],
							    e->d_name) >= PATH_MAX) {
					l->partial = true;
					break;
				}
				if (fstatat(root, sub, &st, AT_SYMLINK_NOFOLLOW) < 0)
					continue;
				if ((look_one(root, sub, &st, l) || S_ISDIR(st.st_mode)) &&
				    cordon_strv_push(&next, sub) < 0)
					l->partial = true;
			}
			if (d)
				closedir(d);
		}
		cordon_strv_free(&level);
		level = next;
	}
	cordon_strv_free(&level);
	return true;
}

static bool look_local(int root, const char *rel, struct local_look *l, unsigned long long *spent)
{
	bool there = look_entries(root, rel, l, spent);
	settle_look(l);
	return there;
}

/* The digest the last walk recorded for the local name REL, or 0. */
static unsigned long long recorded_digest(const struct walk *w, const char *rel)
{
	const struct cache *c = &w->cache;
	/* (Only one recorded before the session started: what another
	 * session's sweep recorded meanwhile may be this one's plant.) */
	size_t i = c->current ? lower_bound(c->recs, c->n, rel) : c->n;
	return i < c->n && c->recs[i][0] == REC_LOCAL && strcmp(REC_PATH(c->recs[i]), rel) == 0
		       ? rec_ino(c->recs[i])
		       : 0;
}

bool cordon_sweep_in_dependencies(const char *rel)
{
	static const char *const deps[] = {
		"node_modules", "bower_components", "site-packages", ".venv", "venv", "vendor"};
	for (const char *c = rel; *c;) {
		size_t n = strcspn(c, "/");
		for (size_t i = 0; i < ARRAY_SIZE(deps); i++)
			if (strlen(deps[i]) == n && strncmp(c, deps[i], n) == 0)
				return true;
		c += n;
		c += *c == '/';
	}
	return false;
}

/* Whether REL, below W's top, lies in what a package manager fills. In a
 * shared directory, below a directory of its own (/tmp/work/node_modules,
 * as in a project): one at its top is a name anyone picks (round 30 F1,
 * /tmp/vendor/.exrc, /tmp/venv/r/.hg were never judged). */
static bool in_dependencies(const struct walk *w, const char *rel)
{
	const char *below = w->shared ? strchr(rel, '/') : rel;
	return below && cordon_sweep_in_dependencies(below + (below != rel));
}

/* Whether a write rule of the user's, inside the root TOP, reaches PATH
 * (--allow-write PROJ/packages/web): it is the user's to write. */
static bool written_by_choice(const struct cordon_sweep *s, const char *top, const char *path)
{
	for (size_t i = 0; i < s->writable.n; i++)
		if (cordon_path_under(path, s->writable.v[i]) &&
		    cordon_path_under(s->writable.v[i], top) && strcmp(s->writable.v[i], top) != 0)
			return true;
	return false;
}

/* The digest in this walk's record of the local name REL: what it holds
 * now, looked at once, as it is judged; 0 once it is moved aside (round 12
 * planted the same bytes again in a second session, which the recorded
 * digest then let stay). */
static void set_digest(char *r, void *hex)
{
	if (r[0] == REC_LOCAL)
		memcpy(r + 1, hex, 16);
}

static void record_digest(struct walk *w, const char *rel, unsigned long long digest)
{
	char hex[17];
	snprintf(hex, sizeof(hex), "%016llx", digest);
	recs_at(w, rel, set_digest, hex);
}

struct envrc_look {
	struct walk *w;
	struct local_look *l;
	bool changed; /* a file it loads changed since the start */
};

/* A file a subdirectory's .envrc loads (PATH, from cordon_envrc_refs),
 * beneath the root: folded into the .envrc's look, its change times and
 * what it holds. Its ".." parts are taken by name; one that climbs out of
 * the root is left (what lies outside the project is not the sweep's). */
static int envrc_load_look(const char *path, const char *file, void *arg)
{
	(void)file;
	struct envrc_look *c = arg;
	const char *top = c->w->top;
	size_t tn = strlen(top);
	if (path[0] != '/' || strncmp(path, top, tn) != 0 || path[tn] != '/')
		return 0;
	char rel[PATH_MAX];
	size_t n = 0;
	for (const char *p = path + tn + 1; *p;) {
		size_t k = strcspn(p, "/");
		if (k == 2 && p[0] == '.' && p[1] == '.') {
			if (n == 0)
				return 0;
			while (n > 0 && rel[n - 1] != '/')
				n--;
			n -= n > 0;
		} else if (k > 0 && !(k == 1 && p[0] == '.')) {
			if (n + 1 + k >= sizeof(rel))
				return 0;
			if (n > 0)
				rel[n++] = '/';
			memcpy(rel + n, p, k);
			n += k;
		}
		p += k;
		p += *p == '/';
	}
	rel[n] = '\0';
	struct local_look t;
	/* (In dependencies too: one the .envrc names, .venv/bin/activate,
	 * runs at each cd: round 30b N3.) */
	if (n == 0 || !look_local(c->w->root, rel, &t, &c->w->local_bytes))
		return 0;
	if (after(&t.newest, &c->w->s->since))
		c->changed = true;
	if (after(&t.newest, &c->l->newest))
		c->l->newest = t.newest;
	c->l->partial = c->l->partial || t.partial;
	fold_look(c->l, &t);
	return 0;
}

/* REL, one of the session's local names below the top of W's root: made
 * or changed since the start (a change time, its own or that of anything
 * it holds), and not back to what the last walk recorded (a checkout that
 * puts back the same bytes, a chmod: round 11), it is moved aside. A link
 * is judged by what it leads to in a writable directory (.vscode ->
 * ../../shared/vscode: round 11 rewrote the target). Not in dependencies,
 * nor where a write rule of the user's inside the root reaches. 1 if it
 * was moved. */
/* Whether REL (beneath ROOT, not followed) is an empty directory. (Not
 * an empty file: a second name of it, a hard link where another
 * session's sweep never looks, fills it later: round 28b F1.) */
static bool empty_at(int root, const char *rel)
{
	struct stat st;
	if (fstatat(root, rel, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode))
		return false;
	DIR *d = dir_at(root, rel);
	if (!d)
		return false;
	bool empty = true;
	for (struct dirent *de; empty && (de = readdir(d));)
		empty = cordon_dot_or_dotdot(de->d_name);
	closedir(d);
	return empty;
}

/* Who made what the walk judges: this session, or, judged from an
 * earlier start (another session's, running beside it or killed), any of
 * them. */
static const char *maker(const struct walk *w)
{
	return w->s->earlier ? "this session or another one here (or a program outside, meanwhile)"
			     : "this session (or a program outside, while it ran)";
}

static int judge_local(struct walk *w, const char *rel, bool moved_in, struct cordon_strv *said)
{
	char path[PATH_MAX * 2];
	struct local_look l;
	if (in_dependencies(w, rel))
		return 0;
	if (!look_local(w->root, rel, &l, &w->local_bytes)) {
		gone(w, rel);
		return 0;
	}
	if (snprintf(path, sizeof(path), "%s/%s", w->top, rel) >= PATH_MAX) {
		record_digest(w, rel, l.digest);
		return 0;
	}
	/* A subdirectory's .envrc, by what it loads too: direnv allows the
	 * .envrc by its bytes, not the .envrc.local or .env it reads (the
	 * project's top one has them guarded: shim/guard.c). Folded before
	 * the digest is recorded, so that the next walk compares like with
	 * like: a loaded file put back to its bytes keeps the .envrc. */
	const char *name = strrchr(rel, '/');
	struct envrc_look loads = {w, &l, false};
	bool own = after(&l.newest, &w->s->since);
	struct stat st;
	if (strcmp(name ? name + 1 : rel, ".envrc") == 0 &&
	    fstatat(w->root, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
		(void)cordon_envrc_refs(path, NULL, envrc_load_look, &loads, NULL, 0);
	record_digest(w, rel, l.digest);
	if (written_by_choice(w->s, w->top, path))
		return 0;
	cleanup_free char *to = NULL;
	if (fstatat(w->root, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) &&
	    (to = realpath(path, NULL)) && cordon_path_under(to, w->top) &&
	    strcmp(to, w->top) != 0) {
		struct local_look t;
		if (look_local(w->root, to + strlen(w->top) + 1, &t, &w->local_bytes)) {
			if (after(&t.newest, &l.newest))
				l.newest = t.newest;
			l.partial = l.partial || t.partial;
		}
	}
	unsigned long long before = recorded_digest(w, rel);
	/* (Moved in with a directory above it: whatever its own times say,
	 * unless it holds what the last walk recorded at its path.) */
	if (!l.partial && ((!moved_in && !after(&l.newest, &w->s->since)) ||
			   (before && before == l.digest && !to)))
		return 0;
	/* An empty directory: nothing there is obeyed, and it may be the
	 * stand-in of a session running beneath this one, kept read-only
	 * there (round 28 F4: an outer session's end moved an inner one's 17
	 * aside, which freed their names for the inner one to make again,
	 * unguarded). */
	if (!l.partial && !loads.changed && empty_at(w->root, rel))
		return 0;
	record_digest(w, rel, 0);
	int moved;
	if (l.partial)
		moved = disarm_said(
			w->s, path, "as this session ended, cordon could not read all of",
			"which an editor, an agent or a tool started in that directory "
			"outside obeys (past 8 levels, 16384 entries or 64 MiB, 256 MiB for all of "
			"them, or what "
			"cordon cannot open)",
			"review it, then move it back (a write rule naming it keeps it "
			"as it is)",
			said, NULL, 0);
	else {
		char head[320];
		snprintf(head, sizeof(head), "%s %s", maker(w),
			 loads.changed && !own ? "made or changed a file loaded by"
			 : moved_in && !own    ? "moved in, with a directory above it,"
					       : "made or changed");
		moved = disarm(w->s, path, head,
			       "which an editor, an agent, a shell or a tool started in that "
			       "directory outside obeys (vim with 'exrc', VS Code's tasks, Claude "
			       "Code's settings, rustup, mise, direnv, zsh's dotenv)",
			       said);
	}
	(void)vanished(w, rel); /* (moved from under the move: its link instead) */
	return moved;
}

/* Whether the directory REL is in changed since the start. */
static bool parent_changed(const struct walk *w, const char *rel)
{
	char parent[PATH_MAX];
	struct stat st;
	const char *slash = strrchr(rel, '/');
	snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - rel) : 1, slash ? rel : ".");
	return fstatat(w->root, parent, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       after(&CTIME(st), &w->s->since);
}

/* A Mercurial repository's .hg below the top (REL): hg outside, run in
 * that directory (a prompt's hg status), obeys its hgrc, whose hooks,
 * extensions and pager run programs (round 27), and sharedpath, which
 * names another repository's. Moved aside whole (hg then finds none
 * there) where one of them was made or changed since the start, or the
 * .hg came with a directory moved in (MOVED_IN) holding one. Its store is
 * the user's to commit to. A Jujutsu repository's .jj the same way: jj
 * obeys its repo/config.toml (its pager, signing program; jj 0.37 and
 * later copy it into the user's trusted settings where repo/config-id is
 * missing: round 60e F3). 1 if it was moved. */
static int judge_hg(struct walk *w, const char *rel, bool moved_in, struct cordon_strv *said)
{
	static const char *const hg_obeyed[] = {"hgrc", "hgrc-not-shared", "sharedpath", NULL};
	static const char *const jj_obeyed[] = {"repo/config.toml", "repo/config-id", NULL};
	const char *base = strrchr(rel, '/');
	bool jj = strcmp(base ? base + 1 : rel, ".jj") == 0;
	const char *const *obeyed = jj ? jj_obeyed : hg_obeyed;
	char path[PATH_MAX * 2];
	bool made = false;
	/* Itself laid or moved in since the start (round 27b: a link to a
	 * directory holding an hgrc, and one renamed into place, kept their
	 * hgrc's own times): its inode is not the one the record had at its
	 * path, or, without a record, its directory changed too (hg's own
	 * work changes the .hg's times, not its directory's). */
	struct stat self;
	unsigned long long ino;
	if (fstatat(w->root, rel, &self, AT_SYMLINK_NOFOLLOW) < 0) {
		gone(w, rel);
		return 0;
	}
	moved_in = moved_in || moved_aside_since(w, rel);
	if (!moved_in && fstatat(w->root, rel, &self, AT_SYMLINK_NOFOLLOW) == 0 &&
	    after(&CTIME(self), &w->s->since)) {
		if (S_ISLNK(self.st_mode))
			moved_in = true;
		else if (current_at(w, rel))
			moved_in =
				!cached_ino(w, rel, &ino) || ino != (unsigned long long)self.st_ino;
		else
			moved_in = parent_changed(w, rel);
	}
	/* (jj takes a file at repo for the path of the repository it reads,
	 * config.toml and all: a secondary workspace's. One laid or changed
	 * since the start leads wherever the session chose: round 60f F1.) */
	if (jj) {
		struct stat st;
		snprintf(path, sizeof(path), "%s/repo", rel);
		made = fstatat(w->root, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		       !S_ISDIR(st.st_mode) && (moved_in || after(&CTIME(st), &w->s->since));
	}
	for (size_t i = 0; !made && obeyed[i]; i++) {
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s", rel, obeyed[i]);
		made = fstatat(w->root, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		       (moved_in || after(&CTIME(st), &w->s->since));
		/* And what it includes (round 27d: %include ../hgrc.team,
		 * written by the session, its hgrc untouched). */
		char full[PATH_MAX * 2];
		struct cordon_strv inc = {0};
		if (!made && !jj && i < 2 &&
		    snprintf(full, sizeof(full), "%s/%s", w->top, path) < (int)sizeof(full) &&
		    cordon_hg_includes(full, getenv("HOME"), &inc) >= 0)
			for (size_t k = 0; !made && k < inc.n; k++)
				made = stat(inc.v[k], &st) == 0 && after(&CTIME(st), &w->s->since);
		cordon_strv_free(&inc);
	}
	/* (In dependencies too: a subrepository there, listed in the
	 * .hgsub of a repository above it, is opened by hg run there, its
	 * extensions loaded: round 30b N2, /tmp/work/vendor/x/.hg.) */
	if (!made || snprintf(path, sizeof(path), "%s/%s", w->top, rel) >= PATH_MAX ||
	    written_by_choice(w->s, w->top, path))
		return 0;
	char head[320];
	snprintf(head, sizeof(head), "%s made or changed the config of the %s repository", maker(w),
		 jj ? "Jujutsu" : "Mercurial");
	int moved = disarm(w->s, path, head,
			   jj ? "whose pager and programs jj outside runs there"
			      : "whose hooks, extensions and pager hg outside runs there",
			   said);
	(void)vanished(w, rel);
	if (moved)
		forget_inode(w, rel);
	return moved;
}

/* The top's .jj/repo, where it is a file (the path of the repository jj
 * reads instead, its config.toml with it) laid or changed since the start:
 * moved aside. A session moved the store away where no config.toml and
 * no config-id pinned it, laid the file, and planted a config.toml where
 * it led; jj outside ran its pager (round 60f F1). Its own store, where
 * the session moved it, is left for the user to review. 1 if moved. */
static int judge_jj_pointer(struct walk *w, struct cordon_strv *said)
{
	static const char rel[] = ".jj/repo";
	struct stat st;
	char path[PATH_MAX * 2];
	if (fstatat(w->root, rel, &st, AT_SYMLINK_NOFOLLOW) < 0 || S_ISDIR(st.st_mode) ||
	    !after(&CTIME(st), &w->s->since) ||
	    snprintf(path, sizeof(path), "%s/%s", w->top, rel) >= PATH_MAX ||
	    written_by_choice(w->s, w->top, path))
		return 0;
	char head[320];
	snprintf(head, sizeof(head), "%s laid the file that names the Jujutsu repository",
		 maker(w));
	return disarm(w->s, path, head, "whose config jj outside would read and obey there", said);
}

/* Whether the directory open at FD lies in one of S's roots (walked). */
static bool in_a_root(const struct cordon_sweep *s, int fd)
{
	char proc[64], real[PATH_MAX];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(proc, real, sizeof(real) - 1);
	if (n <= 0)
		return false;
	real[n] = '\0';
	for (size_t i = 0; i < s->roots.n; i++)
		if (cordon_path_under(real, s->roots.v[i]))
			return true;
	return false;
}

/* REL, a link to a directory the session could write (look_link): moved
 * aside, so that the name leads nowhere, where the session laid it and
 * what it leads to holds a local name, or it is older and such a name
 * there changed since the start. 1 if it was. */
static int judge_link(struct walk *w, const char *rel, struct cordon_strv *said)
{
	char path[PATH_MAX * 2];
	if (snprintf(path, sizeof(path), "%s/%s", w->top, rel) >= PATH_MAX ||
	    written_by_choice(w->s, w->top, path))
		return 0;
	/* (Still: what lay there in the project was judged first, and may
	 * have been moved aside itself.) */
	struct stat lst;
	if (fstatat(w->root, rel, &lst, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISLNK(lst.st_mode))
		return 0;
	bool laid = after(&CTIME(lst), &w->s->since), touched = false;
	int budget = LOCAL_BUDGET;
	int fd = openat(w->root, rel, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct stat to;
	if (fd < 0 || fstat(fd, &to) < 0) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	/* One laid to a directory the session could write that no end walks
	 * (a toolchain's cache, the session's own shell directory): git
	 * outside, run where it leads (cd docs), takes what the session left
	 * there for a repository, and no end judges that (round 51e F1, F3;
	 * 51a F1's history directory and 51c F1's runtime directory were
	 * such places, walked since). */
	bool rooted = in_a_root(w->s, fd);
	if (laid && !rooted) {
		close(fd);
		char head[320];
		snprintf(head, sizeof(head), "%s laid the link", maker(w));
		return disarm(w->s, path, head,
			      "to a directory it could write that no end looks in (a tool's "
			      "cache, its own directory): git outside, run where it leads, would "
			      "take what it left there for a repository",
			      said);
	}
	/* Each directory looked through once, as links of the same kind
	 * lead to it: 6,000 links to a directory of 16,000 files made a
	 * session's end read for 20 s (round 31 F6; a budget shared by all
	 * links, the first answer, let 64 decoys spend it and hide the
	 * user's own link's plant, round 31b G1). */
	/* (A name that is a first of two is part of what is looked for:
	 * .config and mise find different things in one directory, round
	 * 31c H1. Only directories that took many entries to look through
	 * are kept, so that the list stays short: 120,000 links to as many
	 * empty directories made its search quadratic, H2.) */
	struct link_seen key = {to.st_dev, to.st_ino, laid,
				deep_in(w->names, rel) ? last_name(rel) : NULL, false};
	const struct link_seen *seen = NULL;
	for (size_t i = 0; !seen && i < w->n_links_seen; i++) {
		const struct link_seen *k = &w->links_seen[i];
		if (k->dev == key.dev && k->ino == key.ino && k->laid == key.laid &&
		    (k->first == key.first ||
		     (k->first && key.first && strcmp(k->first, key.first) == 0)))
			seen = k;
	}
	if (seen) {
		close(fd);
		key.holds = seen->holds;
	} else {
		key.holds = holds_local(w->names, rel, fd, LOCAL_DEPTH, &budget,
					laid ? NULL : &w->s->since, !rooted, &touched);
		struct link_seen *nv = LOCAL_BUDGET - budget >= LINK_SEEN_FROM
					       ? cordon_grow(w->links_seen, &w->links_seen_cap,
							     w->n_links_seen + 1, sizeof(*nv), 16)
					       : NULL;
		if (nv) {
			w->links_seen = nv;
			w->links_seen[w->n_links_seen++] = key;
		}
	}
	if (!key.holds)
		return 0;
	char head[320];
	snprintf(head, sizeof(head),
		 laid ? "%s laid the link" : "%s made something behind the link", maker(w));
	return disarm(w->s, path, head,
		      "to a directory holding (or too big to look through for) a name that an "
		      "editor, an agent, a shell or a tool started there outside obeys (vim with "
		      "'exrc', VS Code's tasks, direnv, ...)",
		      said);
}

/* A root's walks, where something changed under each (walk.disturbed). */
#define WALKS_MAX 3

/* The inode this walk recorded for the directory REL (W's records
 * sorted), or 0. */
static unsigned long long walked_ino(const struct walk *w, const char *rel)
{
	size_t lo = lower_bound((const char *const *)w->recs.v, w->recs.n, rel);
	for (; lo < w->recs.n && strcmp(REC_PATH(w->recs.v[lo]), rel) == 0; lo++) {
		char kind = w->recs.v[lo][0];
		if (kind == REC_DIR || kind == REC_DEEP || kind == REC_GIT_DIR ||
		    kind == REC_DISARMED)
			return rec_ino(w->recs.v[lo]);
	}
	return 0;
}

/* Whether each directory on the way from W's top to the item ITEM
 * (flagged, relative: what the walk found) is still the one the walk
 * listed there: a session beside this one renaming or swapping it while
 * the sweep looked could have shown it what it judged from another place
 * (round 30b N1). Else W is disturbed. (Not its change time: the
 * sweep's own moves change the directory they move in.) W's records are
 * sorted. */
static void still_there(struct walk *w, const char *item)
{
	char way[PATH_MAX];
	const char *rel = item + 1;
	for (const char *slash = strchr(rel, '/'); slash && !w->disturbed;
	     slash = strchr(slash + 1, '/')) {
		struct stat st;
		snprintf(way, sizeof(way), "%.*s", (int)(slash - rel), rel);
		if (in_dotgit(way) || moved_away(w, way))
			break; /* (moved aside with its .git, by this sweep) */
		unsigned long long ino = walked_ino(w, way);
		if (fstatat(w->root, way, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode) ||
		    (ino && ino != (unsigned long long)st.st_ino))
			w->disturbed = true;
	}
}

/* W as before its walk, to walk again: what the last one found and
 * recorded dropped (what it made readable stays so, given back at the
 * end). */
static void walk_reset(struct walk *w)
{
	cordon_strv_free(&w->todo);
	cordon_strv_free(&w->found);
	cordon_strv_free(&w->local);
	cordon_strv_free(&w->hg);
	cordon_strv_free(&w->links);
	cordon_strv_free(&w->gitfiles);
	cordon_strv_free(&w->shut);
	cordon_strv_free(&w->recs);
	path_index_free(&w->recs_ix);
	w->n_shut = 0;
	w->n_unopened = 0;
	w->disturbed = false;
	w->stirred = false;
}

/* Walk the root TOP (SHARED: a shared directory), and judge what was
 * found: how many were moved aside. */
/* Sweeps of the same root take turns (two sessions ending together each
 * judged from a record saved before the other's moves): a lock on
 * RECORD.lock beside the root's record in the registry, which no session
 * reaches (hidden), waited for up to SWEEP_LOCK_MS, then gone without (as
 * before). Per root, and a short wait: a session that makes its own
 * sweep slow held every other session's end of the same registry 10 s a
 * root (round 31 F6, with one lock for the registry). The lock's
 * descriptor, or -1. */
#define SWEEP_LOCK_MS 3000
static int sweep_lock(const char *top)
{
	cleanup_free char *record = cordon_sweep_record_path(top);
	cleanup_free char *lock = NULL;
	if (!record || asprintf(&lock, "%s" CORDON_SWEEP_LOCK, record) < 0)
		return -1;
	int fd = open(lock, O_RDONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	for (int waited = 0; fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) < 0; waited += 10) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || waited >= SWEEP_LOCK_MS) {
			close(fd);
			return -1;
		}
		(void)nanosleep(&(struct timespec){.tv_nsec = 10000000L}, NULL);
	}
	return fd;
}

/* NAME, in a directory whose own name is DIR, is one of mise's configs
 * that no environment names: .config's mise.toml and miserc.toml, a mise
 * directory's config.toml and mise.toml (.config/mise/mise.toml too:
 * round 33e N2), conf.d's *.toml. */
static bool mise_plain(const char *dir, const char *name)
{
	size_t n = strlen(name);
	if (strcmp(dir, "mise") == 0)
		return strcmp(name, "config.toml") == 0 || strcmp(name, "mise.toml") == 0;
	if (strcmp(dir, ".config") == 0)
		return strcmp(name, "mise.toml") == 0 || strcmp(name, "miserc.toml") == 0;
	return strcmp(dir, "conf.d") == 0 && n > 5 && strcmp(name + n - 5, ".toml") == 0;
}

/* Where S is judged from an earlier session's start: the directory DIR
 * (above the project), as ST, was there then, as itself (round 33f P1;
 * not another one moved in its place, 34 Q4). */
static bool above_was(const struct cordon_sweep *s, const char *dir, const struct stat *st)
{
	unsigned long long h = dir_hash(dir);
	for (size_t i = 0; i < s->start_dirs.n_above; i++)
		if (s->start_dirs.above[i][0] == h)
			return s->start_dirs.above[i][1] == (unsigned long long)st->st_dev &&
			       s->start_dirs.above[i][2] == (unsigned long long)st->st_ino;
	return false;
}

/* The files of mise's config environments (cordon_mise_env_file) in the
 * directory DIR, whose own name is NAME, changed since S's start where
 * no guard kept them (or the guards took one a killed session made for
 * the user's: found_envs), or all of them where DIR itself changed since
 * (a mise moved in whole); with PLAIN, mise.toml and config.toml there
 * too (in a directory above the project, where no walk looks). Moved
 * aside; the number moved. */
static int judge_mise_envs_in(const struct cordon_sweep *s, const char *dir, const char *name,
			      bool plain, int idx, struct cordon_strv *said)
{
	/* (No link followed at .config or mise: one made inside is moved
	 * aside on the way to .config/mise.toml. A top named through a link,
	 * --allow-write /abs/link, is where the link leads: round 33c L2.) */
	int fd = open(dir, O_RDONLY | O_DIRECTORY | (name[0] ? O_NOFOLLOW : 0) | O_CLOEXEC);
	struct stat st;
	/* (Made or put there since the start: another directory than then;
	 * where a killed session's end is caught up with, than as it
	 * started, its mark tells (round 33c L1), and where it does not,
	 * changed since.) */
	bool whole = false;
	if (name[0] && fd >= 0 && fstat(fd, &st) == 0) {
		const unsigned long long *was = idx >= 0 && idx < 2 ? s->start_dirs.id[idx] : NULL;
		whole = !s->earlier ? !mise_dir_was(s, dir, &st)
			: s->start_dirs.known && was
				? was[0] != (unsigned long long)st.st_dev ||
					  was[1] != (unsigned long long)st.st_ino
			: idx < 0 && s->start_dirs.above_known ? !above_was(s, dir, &st)
							       : after(&CTIME(st), &s->since);
	}
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		/* (The user's own, made unreadable: mise opens the files in
		 * it by name.) */
		if (e != ENOENT && e != ENOTDIR && e != ELOOP) {
			char shown[PATH_MAX + 8];
			say(said,
			    "cordon: could not look through %s for the files of mise's config "
			    "environments (%s): review them before you run mise there",
			    cordon_printable(dir, SIZE_MAX, shown, sizeof(shown)), strerror(e));
		}
		return 0;
	}
	struct cordon_strv found = {0}, envs = {0};
	char env[NAME_MAX + 1];
	for (struct dirent *e; (e = readdir(d));) {
		bool is = cordon_mise_env_file(name, e->d_name, env, sizeof(env)) &&
			  (env[0] || plain);
		if (!is && plain && mise_plain(name, e->d_name)) {
			is = true;
			env[0] = '\0';
		}
		if (is &&
		    (cordon_strv_push(&found, e->d_name) < 0 || cordon_strv_push(&envs, env) < 0)) {
			say(said,
			    "cordon: out of memory looking for the files of mise's config "
			    "environments in %s: review them before you run mise there",
			    dir);
			break;
		}
	}
	closedir(d);
	int moved = 0;
	for (size_t i = 0; i < found.n && i < envs.n; i++) {
		char path[PATH_MAX + NAME_MAX + 64], why[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", dir, found.v[i]);
		/* (A directory is no config; one the session could not have
		 * written, another user's in a shared directory, is not its.) */
		if (lstat(path, &st) < 0 || S_ISDIR(st.st_mode))
			continue;
		bool guarded = is_guarded(s, path);
		if ((guarded ? !(s->earlier && cordon_strv_contains(&s->found_envs, path) &&
				 (whole || after(&CTIME(st), &s->since)))
			     : !whole && !after(&CTIME(st), &s->since)) ||
		    cordon_is_stand_in(path) ||
		    (st.st_uid != geteuid() && faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0))
			continue;
		char shown[NAME_MAX * 4 + 8];
		cordon_printable(envs.v[i], SIZE_MAX, shown, sizeof(shown));
		if (envs.v[i][0])
			snprintf(
				why, sizeof(why),
				"a file of mise's config environment \"%s\", whose hooks and tasks "
				"mise outside runs with MISE_ENV=%s or mise -E %s",
				shown, shown, shown);
		else
			snprintf(
				why, sizeof(why),
				"mise's config, whose hooks and tasks mise run in a directory below "
				"it, outside, runs");
		moved += disarm(s, path,
				s->earlier
					? "a session (or a program outside, while it ran) made or "
					  "changed"
					: "this session (or a program outside, while it ran) made "
					  "or changed",
				why, said);
	}
	cordon_strv_free(&found);
	cordon_strv_free(&envs);
	return moved;
}

/* Those at the top of the own root TOP, in its .config and its mise,
 * where mise.toml is protected (those of an environment no setting named
 * as the session started, mise -E NAME later, had no name to guard;
 * below the top the walk judges them as local names). */
static int judge_mise_envs_at(const struct cordon_sweep *s, const char *top,
			      struct cordon_strv *said)
{
	int moved = 0;
	static const char *const holding[] = {"", ".config", "mise"};
	for (size_t k = 0;
	     cordon_strv_contains(&s->local, "mise.toml") && k < sizeof(holding) / sizeof(*holding);
	     k++) {
		char dir[PATH_MAX + 32]; /* (a top is shorter than PATH_MAX) */
		/* (As hold_mise_dirs names them: /.config at the top /, round
		 * 33c L4.) */
		snprintf(dir, sizeof(dir), "%s%s%s", k && strcmp(top, "/") == 0 ? "" : top,
			 k ? "/" : "", holding[k]);
		moved += judge_mise_envs_in(s, dir, holding[k], false, (int)k - 1, said);
	}
	return moved;
}

/* irb also reads .config/irb/irbrc in the directory it starts in (round
 * 36 F3): at TOP, one this user's, where it, .config/irb or .config
 * changed since S's start (a directory renamed into place keeps its
 * files' times), or .config/irb is a link made since, is moved aside.
 * No link is followed on the way (a link at .config: the mise judge). */
static int judge_irbrc_above(const struct cordon_sweep *s, const char *top,
			     struct cordon_strv *said)
{
	static const char *const way[] = {".config", ".config/irb", ".config/irb/irbrc"};
	const char *in = strcmp(top, "/") != 0 ? top : "";
	struct stat st[3];
	bool changed = false;
	char path[PATH_MAX + 32];
	for (size_t k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), "%s/%s", in, way[k]);
		if (lstat(path, &st[k]) < 0 || (k == 0 && !S_ISDIR(st[k].st_mode)))
			return 0;
		changed = changed || after(&CTIME(st[k]), &s->since);
		if (k == 1 && S_ISLNK(st[k].st_mode))
			return changed && st[k].st_uid == geteuid()
				       ? disarm(s, path,
						s->earlier
							? "a session (or a program outside, while "
							  "it ran) made the link"
							: "this session (or a program outside, "
							  "while it ran) made the link",
						"which irb run below it, outside, follows to read "
						"its startup file",
						said)
				       : 0;
		if (k == 1 && !S_ISDIR(st[k].st_mode))
			return 0;
	}
	if (!changed || st[2].st_uid != geteuid())
		return 0;
	return disarm(s, path,
		      s->earlier
			      ? "a session (or a program outside, while it ran) made or changed"
			      : "this session (or a program outside, while it ran) made or changed",
		      "which irb run below it, outside, reads as its startup file", said);
}

/* And at the top of each directory a name is looked for above in (a
 * shared one, /tmp, and those above the project a write rule reaches),
 * with mise's own config in its .config, .config/mise (and conf.d) and
 * mise: in one no walk looks into, nothing else judges them (round 33d
 * M2). No link is followed on the way. */
static int judge_mise_envs_above(const struct cordon_sweep *s, struct cordon_strv *said)
{
	int moved = 0;
	for (size_t i = 0; i < s->n_above; i++) {
		static const char *const holding[] = {"", ".config", "mise", ".config/mise",
						      ".config/mise/conf.d"};
		for (size_t k = 0; k < sizeof(holding) / sizeof(*holding); k++) {
			char dir[PATH_MAX + 32]; /* (a top is shorter than PATH_MAX) */
			snprintf(dir, sizeof(dir), "%s%s%s", s->above[i].dir,
				 k && strcmp(s->above[i].dir, "/") != 0 ? "/" : "", holding[k]);
			struct stat st;
			/* (.config, .config/mise on the way: no link.) */
			if (k > 2 && !(top_dir(s->above[i].dir, ".config", &st) &&
				       (k == 3 || top_dir(s->above[i].dir, ".config/mise", &st))))
				continue;
			const char *name = strrchr(holding[k], '/');
			/* (A link made there since, .config -> d: mise follows it,
			 * so it is moved aside; round 33f P4.) */
			if (k > 0 && k < 4 && lstat(dir, &st) == 0 && S_ISLNK(st.st_mode)) {
				if (after(&CTIME(st), &s->since) && st.st_uid == geteuid())
					moved += disarm(
						s, dir,
						s->earlier
							? "a session (or a program outside, while it "
							  "ran) made the link"
							: "this session (or a program outside, while "
							  "it ran) made the link",
						"which mise run below it, outside, follows to read its "
						"config",
						said);
				continue;
			}
			moved += judge_mise_envs_in(s, dir, name ? name + 1 : holding[k], k > 0, -1,
						    said);
		}
		moved += judge_irbrc_above(s, s->above[i].dir, said);
	}
	return moved;
}

static int sweep_root_locked(const struct cordon_sweep *session, const char *top, bool shared,
			     bool ended, char *buf, struct cordon_strv *said);

static int sweep_root(const struct cordon_sweep *session, const char *top, bool shared, bool ended,
		      char *buf, struct cordon_strv *said)
{
	int lock = sweep_lock(top);
	int moved = sweep_root_locked(session, top, shared, ended, buf, said);
	if (lock >= 0)
		close(lock); /* (and the lock with it) */
	return moved;
}

static int sweep_root_locked(const struct cordon_sweep *session, const char *top, bool shared,
			     bool ended, char *buf, struct cordon_strv *said)
{
	/* Judged from the earliest start of a sweep of TOP that never ended. */
	struct cordon_sweep from = *session;
	unsigned unmoved = 0;
	from.unmoved = &unmoved;
	const struct cordon_sweep *s = &from;
	struct cordon_strv done = {0};
	struct cordon_others_hidden others = {.top = top};
	bool killed = pending_collect(top, &from, &done);
	from.others_hidden = &others;
	from.earlier = !after(&from.since, &session->since);
	/* (Not said of a shared directory, which every session sweeps: its
	 * moves say "a session" then.) */
	if (killed && !shared) {
		char when[32];
		time_t t = from.since.tv_sec;
		struct tm tm;
		if (!localtime_r(&t, &tm) ||
		    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm) == 0)
			snprintf(when, sizeof(when), "%lld", (long long)t);
		say(said,
		    "cordon: a session in %s that started at %s ended without looking at all of its "
		    "repositories (killed?): this one looks at what changed since then",
		    top, when);
	}
	/* (From the earliest start too: a killed session's; and the
	 * directories above the project with the project's: round 33e N3.) */
	int mise = shared ? 0 : judge_mise_envs_at(s, top, said);
	if (!shared && s->project && strcmp(top, s->project) == 0)
		mise += judge_mise_envs_above(s, said);
	struct walk w = {.s = s,
			 .top = top,
			 .buf = buf,
			 .shared = shared,
			 .names = shared ? &s->shared_local : &s->local,
			 .top_len = strlen(top)};
	firsts_make(&w);
	int moved = mise;
	w.root = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int top_held = -1;
	mode_t top_mode = 0;
	if (w.root < 0 && errno == EACCES)
		w.root = open_top_up(top, &top_held, &top_mode);
	if (w.root < 0 || fstat(w.root, &w.root_st) < 0) {
		say(said, "cordon: could not look for the repositories this session made in %s: %s",
		    top, strerror(errno));
		if (w.root >= 0)
			close(w.root);
		top_down(top_held, top_mode);
		cordon_strv_free(&done); /* (the marks stay: looked at again next time) */
		others_free(&others);
		return mise;
	}
	size_t tn = strlen(top);
	/* (Below a shared directory no other file system is walked: the
	 * runtime directory's FUSE ones answer from their servers, gvfs's
	 * from the network. The first is a mount point at its top: the
	 * loop below ends at it.) */
	int e_mounts = shared ? cordon_mount_points_below(top, &w.skip) : 0;
	for (size_t i = 0; i <= s->roots.n; i++) {
		const char *o = i < s->roots.n ? s->roots.v[i] : NULL;
		if ((!o && e_mounts < 0) ||
		    (o && strcmp(o, top) != 0 && cordon_path_under(o, top) &&
		     cordon_strv_push(&w.skip, o + tn + (tn > 1)) < 0)) {
			say(said, "cordon: out of memory looking for the repositories this session "
				  "made: review their hooks and config before you use git there");
			close(w.root);
			top_down(top_held, top_mode);
			cordon_strv_free(&w.skip);
			cordon_strv_free(&done);
			others_free(&others);
			return mise;
		}
	}
	struct timespec at;
	this_second(&at); /* a change in this second is read again next time */
	cleanup_free char *cache = cordon_sweep_record_path(top);
	/* (The record as this session started: also judged from an earlier
	 * session's start, as what it saved before that start still tells,
	 * cache_load's `current`; round 28c F2 had a borrowed record dropped
	 * so, and the plant judged by times alone.) */
	cleanup_free char *start = own_start(top);
	struct stat now_st, start_st;
	if (start && stat(start, &start_st) == 0) {
		/* The record as the session started, through its own link
		 * (no other sweep renames it); then the record as it is now,
		 * unless it is still that very file (no sweep saved one
		 * since: read once). A record saved after the check is one
		 * saved after this read, as it always could be. */
		cache_load(&w, start, true);
		w.cache_at_start = true;
		if (cache && stat(cache, &now_st) == 0 && now_st.st_dev == start_st.st_dev &&
		    now_st.st_ino == start_st.st_ino) {
			w.latest = w.cache;
			w.latest.borrowed = true;
		} else {
			struct cache at_start = w.cache;
			w.cache = (struct cache){0};
			cache_load(&w, cache, true);
			w.latest = w.cache;
			w.cache = at_start;
		}
	} else {
		cache_load(&w, cache, true);
	}
	/* (Nested: the outer session's rules keep its records from this one,
	 * by design; the judging as made is said nowhere then.) */
	if (w.cache.unusable && !cordon_sandbox_nested())
		say(said,
		    "cordon: the record of what was in %s (%lld MiB) could not be read: what lies "
		    "below a directory this session changed is judged as made",
		    top, (long long)(w.cache.size >> 20));
	w.same_ino = cordon_fs_same_ino(w.root);
	w.deep_budget = DEEP_BUDGET;
	int e = walk(&w);
	for (int again = 0; e >= 0 && w.disturbed && again < WALKS_MAX - 1; again++) {
		walk_reset(&w);
		e = walk(&w);
	}
	/* (Each where it lies now: in a git dir moved aside, relocated. The
	 * git dirs first, then the .git files and links, which lead where the
	 * moves left them: round 49h H2, a kept .git file led, through a link
	 * on its way, to the very name a repository was moved aside to.) */
	for (int files = 0; files < 2; files++)
		for (size_t i = 0; i < w.found.n; i++) {
			cleanup_free char *now = relocated(&w, w.found.v[i]);
			const char *item = now ? now : w.found.v[i];
			struct stat st;
			bool dir = fstatat(w.root, item[1] ? item + 1 : ".", &st,
					   AT_SYMLINK_NOFOLLOW) == 0 &&
				   S_ISDIR(st.st_mode);
			if (dir != !files)
				continue;
			moved += judge_repo(&w, item, said);
		}
	for (size_t i = 0; i < w.local.n; i++) {
		cleanup_free char *now = relocated(&w, w.local.v[i]);
		const char *item = now ? now : w.local.v[i];
		moved += judge_local(&w, item + 1, item[0] == ABOVE_NEW, said);
	}
	for (size_t i = 0; i < w.links.n; i++) {
		cleanup_free char *now = relocated(&w, w.links.v[i]);
		moved += judge_link(&w, (now ? now : w.links.v[i]) + 1, said);
	}
	for (size_t i = 0; i < w.hg.n; i++) {
		cleanup_free char *now = relocated(&w, w.hg.v[i]);
		const char *item = now ? now : w.hg.v[i];
		moved += judge_hg(&w, item + 1, item[0] == ABOVE_NEW, said);
	}
	moved += judge_jj_pointer(&w, said);
	for (size_t i = 0; i < w.gitfiles.n; i++) {
		cleanup_free char *now = relocated(&w, w.gitfiles.v[i]);
		moved += judge_gitfile(&w, (now ? now : w.gitfiles.v[i]) + 1, said);
	}
	const struct cordon_strv *judged[] = {&w.found, &w.local, &w.hg};
	sort_own(&w);
	for (size_t k = 0; k < ARRAY_SIZE(judged); k++)
		for (size_t i = 0; i < judged[k]->n; i++)
			still_there(&w, judged[k]->v[i]);
	close_up(&w);
	cordon_strv_free(&w.memo);
	cordon_strv_free(&w.moved_from);
	cordon_strv_free(&w.moved_to);
	cordon_strv_free(&w.hooks_global.v);
	/* Only now, all judged: a sweep cut short leaves the last record, and
	 * its mark. So does one after which processes of the session may still
	 * run: what they do next is judged by the next sweep, from this
	 * session's start. */
	bool done_all = e >= 0 && ended && !w.disturbed && !unmoved;
	if (done_all) /* a directory it could not read is recorded as such */
		cache_save(&w, cache, &at);
	for (size_t i = 0; done_all && i < done.n; i++)
		(void)unlink(done.v[i]);
	cordon_strv_free(&done);
	cordon_strv_free(&others.list);
	if (e >= 0 && !w.disturbed && unmoved)
		say(said,
		    "cordon: the next session in %s looks again at what this one could not "
		    "move aside",
		    top);
	if (e >= 0 && w.disturbed)
		say(said,
		    "cordon: what is in %s kept changing while cordon looked at it (a directory "
		    "gone, or another put in its place): the next session looks again from "
		    "this one's start; until then review what you use git, vim or direnv in "
		    "there",
		    top);
	if (e < 0)
		say(said,
		    "cordon: out of memory looking for the repositories this session made in "
		    "%s: review their hooks and config before you use git there",
		    top);
	for (size_t i = 0; i < w.shut.n; i++)
		say(said,
		    "cordon: could not look into %s/%s for what a session may have made "
		    "there: review it before you use git, vim or direnv there",
		    top, w.shut.v[i]);
	if (w.n_shut > w.shut.n)
		say(said, "cordon: ... and %zu more directories in %s", w.n_shut - w.shut.n, top);
	for (size_t i = 0; i < w.too_deep.n && i < 3; i++) {
		char shown[NAME_MAX + 8];
		say(said,
		    "cordon: something below %s/%s lies deeper than the longest path cordon can "
		    "judge (%d bytes) and changed while this session ran: review it before you use "
		    "git, vim or direnv in there",
		    top, cordon_printable(w.too_deep.v[i], SIZE_MAX, shown, sizeof(shown)),
		    PATH_MAX);
	}
	if (w.too_deep.n > 3) /* (round 31b G6: decoys in three hid a fourth) */
		say(said, "cordon: ... and below %zu more directories of %s", w.too_deep.n - 3,
		    top);
	cordon_strv_free(&w.too_deep);
	if (w.n_unopened)
		say(said,
		    "cordon: %zu more directories of yours in %s were unreadable (past the %d "
		    "cordon makes readable to look into: a session may make many so to hide "
		    "one): review all of %s before you use git, vim or direnv there",
		    w.n_unopened, top, OPENED_MAX, top);
	close(w.root);
	top_down(top_held, top_mode);
	cache_free(&w.cache);
	cache_free(&w.latest);
	cordon_strv_free(&w.firsts);
	free(w.links_seen);
	cordon_strv_free(&w.recs);
	path_index_free(&w.recs_ix);
	cordon_strv_free(&w.todo);
	cordon_strv_free(&w.found);
	cordon_strv_free(&w.local);
	cordon_strv_free(&w.hg);
	cordon_strv_free(&w.links);
	cordon_strv_free(&w.gitfiles);
	cordon_strv_free(&w.shut);
	cordon_strv_free(&w.skip);
	return moved;
}

/* H, a kept file with another name (named_twice), changed since the
 * session started, on a file system a write rule of S reaches: the other
 * name may lie where the session could write (the guards said so as it
 * started). */
static bool changed_twice(const struct cordon_sweep *s, const struct cordon_sweep_held *h)
{
	struct stat st;
	if (!named_twice(h) || lstat(h->path, &st) < 0 ||
	    (CTIME(st).tv_sec == h->ctime.tv_sec && CTIME(st).tv_nsec == h->ctime.tv_nsec))
		return false;
	for (size_t i = 0; i < s->writable.n; i++) {
		struct stat w;
		if (stat(s->writable.v[i], &w) == 0 && S_ISDIR(w.st_mode) &&
		    (unsigned long long)w.st_dev == h->dev)
			return true;
	}
	return false;
}

/* The guarded and hidden files replaced outside while the session ran
 * (see struct cordon_sweep_held), said: the session may have changed
 * (read) them since. A kept file with another name changed meanwhile
 * (changed_twice) is moved aside, as one the session made is: cordon
 * cannot tell what wrote it (.envrc, a mise.toml: obeyed outside by its
 * path; a hook with a hard link beside the project, 't'). A git dir's
 * own kept files are judged by the walk instead. The count moved. */
static int say_lost(const struct cordon_sweep *s, struct cordon_strv *said)
{
	int moved = 0;
	for (size_t i = 0; i < s->n_held; i++) {
		const struct cordon_sweep_held *h = &s->held[i];
		if (h->kind == 'm' || h->kind == 'g' ||
		    (h->kind == 'r' && strstr(h->path, "/.git/")))
			continue;
		if (h->kind == 'c' && config_changed(h)) {
			moved += disarm(s, h->path,
					"while this session ran, it (or a program outside) changed",
					"a config file a later session reads by name (--config, "
					"CORDON_CONFIG), which this session did not keep read-only",
					said);
			continue;
		}
		if (h->kind == 'c')
			continue;
		if ((h->kind == 'r' || h->kind == 't') && changed_twice(s, h)) {
			struct stat st;
			uintmax_t names = h->nlink;
			if (lstat(h->path, &st) == 0 && (uintmax_t)st.st_nlink > names)
				names = st.st_nlink;
			char why[192];
			snprintf(why, sizeof(why),
				 "a file with %ju names: another, which cordon's guard on this one "
				 "does not cover, may lie where the session could write",
				 names);
			moved += disarm(s, h->path,
					"while this session ran, it (or a program outside) changed",
					why, said);
			continue;
		}
		if (h->kind == 't' || !replaced(h))
			continue;
		char shown[PATH_MAX + 8];
		cordon_printable(h->path, SIZE_MAX, shown, sizeof(shown));
		if (h->kind == 'h')
			say(said,
			    "cordon: %s was saved anew outside while this session ran, which lifts "
			    "cordon's cover on it inside until cordon puts it back (at once, where "
			    "it can): the session may have read it in that moment",
			    shown);
		else
			say(said,
			    "cordon: %s was saved anew outside while this session ran, which lifts "
			    "cordon's guard on it inside until cordon puts it back (at once, where it "
			    "can): check that it says what you meant",
			    shown);
	}
	return moved;
}

/* "cordon: AT[, on the way to W's name] (W's source) became WHAT while
 * this session ran, ...": the lure at AT moved to TO, WHEN. */
static void say_lure(const struct cordon_hidden_way *w, const char *at, const char *what,
		     const char *to, const char *when, struct cordon_strv *said)
{
	char shown[PATH_MAX + 8], name[PATH_MAX + 8], shown_to[NAME_MAX + 64];
	cordon_printable(at, SIZE_MAX, shown, sizeof(shown));
	cordon_printable(w->path, SIZE_MAX, name, sizeof(name));
	bool on_way = strcmp(at, w->path) != 0;
	say(said,
	    "cordon: %s%s%s (%s)%s became %s while this session ran, where the session could "
	    "make it: a program outside saving it would write through it, so cordon moved it to "
	    "%.*s/%s%s; look at what it leads to",
	    shown, on_way ? ", on the way to " : "", on_way ? name : "", w->source,
	    on_way ? "," : "", what, (int)(strrchr(shown, '/') - shown), shown,
	    cordon_printable(to, SIZE_MAX, shown_to, sizeof(shown_to)), when);
}

/* The lure at W's first LEN bytes moved aside as the session ends, and
 * said. 1 if it was. */
static int disarm_lure(const struct cordon_hidden_way *w, size_t len, struct cordon_strv *said)
{
	char to[NAME_MAX + 32], what[PATH_MAX + 64], at[PATH_MAX], shown[PATH_MAX + 8];
	int e = cordon_hidden_way_disarm(w, len, false, to, sizeof(to), what, sizeof(what));
	snprintf(at, sizeof(at), "%.*s", (int)len, w->path);
	if (e > 0)
		say_lure(w, at, what, to, "", said);
	else if (e < 0)
		say(said,
		    "cordon: %s (%s) may be a link or a FIFO this session laid where a program "
		    "outside saving it would write through it, and cordon could not move it "
		    "aside (%s): look at it before that runs",
		    cordon_printable(at, SIZE_MAX, shown, sizeof(shown)), w->source, strerror(-e));
	return e > 0;
}

/* The ways to hidden names the session could make (guard.h): what the
 * watch moved aside while it ran, a lure laid on them since (moved aside
 * now), and a hidden name that appeared, said: a program outside saving
 * it writes in place, and the session may have held it open. */
static int judge_ways(const struct cordon_sweep *s, struct cordon_strv *said)
{
	int moved = 0;
	for (size_t i = 0; i < s->ways.n; i++) {
		const struct cordon_hidden_way *w = &s->ways.v[i];
		char shown[PATH_MAX + 8];
		cordon_printable(w->path, SIZE_MAX, shown, sizeof(shown));
		char when[96] = " at once";
		if (w->moved > 1)
			snprintf(when, sizeof(when),
				 " at once (and %u more laid after it: links and FIFOs removed)",
				 w->moved - 1);
		if (w->moved)
			say_lure(w, w->moved_path, w->moved_what, w->moved_to, when, said);
		/* Down the way from its top, as the watch follows it. */
		size_t n = strlen(w->path), len = w->top;
		struct stat st;
		bool there = false;
		while (len < n) {
			const char *slash = strchr(w->path + len + 1, '/');
			len = slash ? (size_t)(slash - w->path) : n;
			if (cordon_hidden_way_stat(w, len, &st) < 0)
				break;
			if (cordon_hidden_way_lure(w, len == n, &st)) {
				moved += disarm_lure(w, len, said);
				break;
			}
			if (len == n)
				there = true;
			else if (!S_ISDIR(st.st_mode))
				break;
		}
		/* (Or beyond a link of the user's the session replaced.) */
		bool dir = there && S_ISDIR(st.st_mode);
		/* Removed and made again outside (rm -rf, then a login): the
		 * session may have opened the new one before its cover was on. */
		struct timespec born;
		bool replaced =
			w->dev && there &&
			((unsigned long long)st.st_dev != w->dev ||
			 (unsigned long long)st.st_ino != w->ino ||
			 (w->born_known && cordon_fs_birth(w->path, &born) &&
			  (born.tv_sec != w->born.tv_sec || born.tv_nsec != w->born.tv_nsec)));
		if (!w->dev && (there || lstat(w->path, &st) == 0))
			say(said,
			    "cordon: %s (%s) appeared while this session ran, where the session could "
			    "write: it may have read what was written there",
			    shown, w->source);
		else if (replaced)
			say(said,
			    "cordon: %s (%s) was made anew while this session ran, where the session "
			    "could write: it may have read what was written there",
			    shown, w->source);
		/* A directory made meanwhile: what the session laid in it before
		 * its cover was on, or through a descriptor kept in it. */
		char first[PATH_MAX], what[PATH_MAX + 64], first_shown[PATH_MAX + 8];
		int in = dir ? cordon_hidden_way_disarm_within(w, first, sizeof(first), what,
							       sizeof(what))
			     : 0;
		if (in > 0)
			say(said,
			    "cordon: in %s (%s), made while this session ran, %d link%s, FIFO%s or "
			    "hard link%s a program outside would write through (the first: %s/%s, %s) "
			    "%s moved aside to NAME" DISARMED "; look at what they lead to",
			    shown, w->source, in, in > 1 ? "s" : "", in > 1 ? "s" : "",
			    in > 1 ? "s" : "", shown,
			    cordon_printable(first, SIZE_MAX, first_shown, sizeof(first_shown)),
			    what, in > 1 ? "were" : "was");
		moved += in > 0 ? in : 0;
	}
	return moved;
}

struct judging {
	const struct cordon_sweep *s;
	struct cordon_strv *said;
};

static int judge_one_above(const char *path, size_t k, void *arg)
{
	const struct judging *j = arg;
	struct stat st;
	if (look_made(path, &st, j->said) < 0 ||
	    cordon_found_above_inert(cordon_found_above[k], st.st_mode))
		return 0;
	return judge_name(j->s, path, j->said, NULL, 0);
}

/* The names looked for above made since the start (each was missing):
 * moved aside. */
static int judge_above(const struct cordon_sweep *s, struct cordon_strv *said)
{
	struct judging j = {s, said};
	int moved = 0;
	for (size_t i = 0; i < s->n_above; i++)
		moved += cordon_found_above_each(s->above[i].dir, &s->above[i].missing,
						 judge_one_above, &j);
	return moved;
}

/* Whether a directory or link on the way to C, below the write rule of
 * S's it lies under, changed since S started: one renamed into place, or
 * a link repointed, leads the name to an older file, whose own change
 * time tells nothing (round 39e H1). The rule's own directory is a mount
 * in the session's view, not renamed. */
static bool way_changed(const struct cordon_sweep *s, const char *c)
{
	const char *rule = NULL;
	for (size_t k = 0; k < s->config_write.n; k++)
		if (cordon_path_under(c, s->config_write.v[k]) &&
		    (!rule || strlen(s->config_write.v[k]) > strlen(rule)))
			rule = s->config_write.v[k];
	char part[PATH_MAX];
	size_t n = strlen(c), from = rule ? strlen(rule) : n;
	if (n >= sizeof(part))
		return false;
	for (size_t i = from + 1; i < n; i++) {
		if (c[i] != '/')
			continue;
		memcpy(part, c, i);
		part[i] = '\0';
		struct stat st;
		if (lstat(part, &st) == 0 && after(&CTIME(st), &s->configs_since))
			return true;
	}
	return false;
}

/* Whether C, a config read by name, was not held by S's session, which
 * may write it and did not keep it read-only, and changed since that
 * session started. */
static bool late_changed(const struct cordon_sweep *s, const char *c)
{
	bool skip = false, writable = false;
	for (size_t k = 0; !skip && k < s->n_held; k++)
		skip = s->held[k].kind == 'c' && strcmp(s->held[k].path, c) == 0;
	for (size_t k = 0; !skip && k < s->config_kept.n; k++)
		skip = cordon_path_under(c, s->config_kept.v[k]);
	for (size_t k = 0; !skip && !writable && k < s->config_write.n; k++)
		writable = cordon_path_under(c, s->config_write.v[k]);
	if (skip || !writable)
		return false;
	/* (The name's own change time too: a link laid there to an older
	 * file, round 38d M1.) */
	struct stat st, lst;
	bool named = lstat(c, &lst) == 0;
	bool changed_since = (named && after(&CTIME(lst), &s->configs_since)) ||
			     (stat(c, &st) == 0 && after(&CTIME(st), &s->configs_since)) ||
			     way_changed(s, c);
	/* (A file or a link, one leading nowhere too, round 38f H1; not a
	 * directory.) */
	return changed_since && named && (S_ISREG(lst.st_mode) || S_ISLNK(lst.st_mode));
}

/* The configs read by name now that were not when the session started
 * (none held), which it may write and did not keep read-only, changed
 * since it started: moved aside, as a held one is (round 38c F6: a config
 * first named while a session ran, which that session then rewrote, was
 * obeyed by the next launch with it). The count moved. */
static int judge_late_configs(const struct cordon_sweep *s, const char *head,
			      struct cordon_strv *said)
{
	if (!s->config_write.n)
		return 0;
	struct cordon_strv list = {0};
	configs_read_all(&list);
	int moved = 0;
	for (size_t i = 0; i < list.n; i++) {
		const char *c = list.v[i];
		if (!late_changed(s, c))
			continue;
		/* (Links on the way judged by its write rules, which the sweep
		 * keeps only where it walks.) */
		struct cordon_sweep rules = {.writable = s->config_write};
		moved += disarm(&rules, c, head,
				"a config file a later session reads by name (--config, "
				"CORDON_CONFIG), first read so while it ran",
				said);
	}
	cordon_strv_free(&list);
	return moved;
}

int cordon_sweep_end(struct cordon_sweep *s, bool ended, struct cordon_strv *said)
{
	int moved = 0;
	s->swept = true;
	putbacks_finish(said);
	writable_resolve(s);
	/* (git's config as the plan read it: the environment the launch had,
	 * and the config directories earlier launches had.) */
	cordon_gitcfg_env_from(s->git_env.n ? &s->git_env : NULL);
	cordon_sweep_ways_up(s);
	moved += retry_unmoved(s, said);
	moved += judge_ways(s, said);
	for (size_t i = 0; i < s->names.n; i++) {
		struct stat st;
		if (!cordon_sweep_git_entry(s, s->names.v[i]) &&
		    look_made(s->names.v[i], &st, said) == 0)
			moved += judge_name(s, s->names.v[i], said, NULL, 0);
	}
	moved += judge_above(s, said);
	char *buf = s->roots.n ? malloc(BUF_SIZE) : NULL;
	if (s->roots.n && !buf)
		say(said,
		    "cordon: out of memory looking for the repositories this session made in "
		    "%s: review their hooks and config before you use git there",
		    s->roots.v[0]);
	for (size_t i = 0; buf && i < s->roots.n; i++)
		moved += sweep_root(s, s->roots.v[i], i >= s->n_own, ended, buf, said);
	/* (The directories above the project are judged with its walk; with
	 * none, or no walk, here: round 33f P2, P6.) */
	if (!s->project || !buf)
		moved += judge_mise_envs_above(s, said);
	free(buf);
	moved += say_lost(s, said);
	(void)cordon_sweep_tracked_judge(s, said);
	cordon_sweep_tracked_unshare(s);
	moved += judge_late_configs(s, "while this session ran, it (or a program outside) changed",
				    said);
	cordon_gitcfg_env_from(NULL);
	cordon_ways_down();
	if (s->held_note)
		(void)unlink(s->held_note); /* (judged: say_lost) */
	if (s->held_note2)
		(void)unlink(s->held_note2);
	if (s->project && !ended)
		say(said,
		    "cordon: not every process of this session was seen to end: the repositories "
		    "in %s were looked at, but not what those processes do after; the next "
		    "session there looks again from this one's start, and until then review "
		    "their hooks and config before you use git there",
		    s->project);
	return moved;
}
