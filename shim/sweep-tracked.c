/* Protected files git tracks, looked at through git's index (see
 * cordon/sweep.h, cordon_sweep_tracked_hold). A protected file is
 * read-only inside, but its repository's .git is the session's to write:
 * a session that stages or commits its own version of .envrc or
 * .vscode/tasks.json leaves it in the index, and git checkout -- . (or
 * restore, stash, reset --hard) outside writes it over the user's file
 * (round 52a F4). The index holds each entry's object id: the entries
 * under a protected path are kept as the session starts and compared as
 * it ends. So are the refs: a commit of the session's own version, the
 * index put back after it, is written by git reset --hard or a checkout
 * of the branch outside (round 53 Left), and the objects on the way to a
 * protected file are read and checked against their names (a loose file
 * rewritten, or a new pack holding another object under a name git
 * already has: git reads the pack first and checks neither). Runs outside
 * the sandbox. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <stdint.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cordon/gitobj.h"
#include "cordon/guard.h"
#include "cordon/policy.h"
#include "cordon/sweep.h"
#include "util.h"

/* Past it, a repository's index is not kept (nor judged). */
#define TRACKED_REPOS_MAX 64

struct tracked_look {
	const struct cordon_sweep *s;
	const char *worktree;
	struct cordon_strv *out;
};

/* An entry NAME under a guarded path, or of a protected name:
 * "WORKTREE/NAME\nMODE OID" into the look's list. */
static int tracked_one(const char *name, unsigned mode, const unsigned char *oid, size_t hs,
		       void *arg)
{
	struct tracked_look *l = arg;
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", l->worktree, name) >= sizeof(path))
		return 0;
	bool guarded = false;
	for (size_t i = 0; !guarded && i < l->s->guarded.n; i++)
		guarded = cordon_path_under(path, l->s->guarded.v[i]);
	/* (Or a protected name, relative to this worktree: missing as the
	 * session started, or in a repository below the top.) */
	for (size_t i = 0; !guarded && i < l->s->protected_names.n; i++) {
		const char *p = l->s->protected_names.v[i];
		size_t pn = strlen(p);
		guarded = strncmp(name, p, pn) == 0 && (name[pn] == '\0' || name[pn] == '/');
	}
	if (!guarded)
		return 0;
	char hex[65];
	for (size_t b = 0; b < hs && b < 32; b++)
		snprintf(hex + 2 * b, 3, "%02x", oid[b]);
	char *entry = NULL;
	if (asprintf(&entry, "%s\n%o %s", path, mode, hex) < 0)
		return -ENOMEM;
	return cordon_strv_push_take(l->out, entry);
}

/* The index of GITDIR (whose worktree is WORKTREE) as it is: into ID its
 * file's identity ("" missing), into OUT its entries under a guarded
 * path. 0, or what cordon_git_index_entries returns. */
static int tracked_read(const struct cordon_sweep *s, const char *gitdir, const char *worktree,
			char id[96], struct cordon_strv *out)
{
	char index[PATH_MAX + 8];
	struct stat st;
	id[0] = '\0';
	if ((size_t)snprintf(index, sizeof(index), "%s/index", gitdir) >= sizeof(index))
		return -ENAMETOOLONG;
	if (lstat(index, &st) == 0)
		snprintf(id, 96, "%llx:%llx:%llx:%lld.%09ld:%lld.%09ld",
			 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
			 (unsigned long long)st.st_size, (long long)st.st_mtim.tv_sec,
			 st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	struct tracked_look l = {s, worktree, out};
	return cordon_git_index_entries(gitdir, tracked_one, &l);
}

/* ---- what git reads in place of an entry's object ----
 *
 * The index and HEAD unchanged, a session can still change what git
 * checkout writes for an entry (round 53e F3): a replace ref
 * (refs/replace/OID, git replace) has git read another object in place
 * of the one named; the objects themselves are checked (judge_refs). */

#define PACKED_MAX (8u << 20) /* a packed-refs file longer is taken by its identity */

static uint64_t fnv(uint64_t h, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
	return h;
}

/* GITDIR's common directory (a linked worktree's commondir), into OUT. */
static bool common_dir(const char *gitdir, char *out, size_t size)
{
	if (!cordon_git_common_config(gitdir, out, size))
		return false;
	char *slash = strrchr(out, '/');
	if (slash)
		*slash = '\0';
	/* (A commondir of "." leaves GITDIR/.: said without it.) */
	size_t n = strlen(out);
	if (n > 2 && strcmp(out + n - 2, "/.") == 0)
		out[n - 2] = '\0';
	return slash != NULL;
}

/* The replace refs of the repository whose common directory is COMMON,
 * as a sum (0: none): each loose one's name and file, each packed one's
 * line, in any order. */
static uint64_t replace_sum(const char *common)
{
	char path[PATH_MAX + 32];
	uint64_t sum = 0;
	snprintf(path, sizeof(path), "%s/refs/replace", common);
	DIR *d = opendir(path);
	for (struct dirent *de; d && (de = readdir(d));) {
		struct stat st;
		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		uint64_t h = fnv(14695981039346656037ull, de->d_name, strlen(de->d_name));
		unsigned long long id[3] = {(unsigned long long)st.st_ino,
					    (unsigned long long)st.st_size,
					    (unsigned long long)st.st_mtim.tv_nsec ^
						    (unsigned long long)st.st_mtim.tv_sec};
		sum += fnv(h, (const char *)id, sizeof(id)) | 1;
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/packed-refs", common);
	struct stat st;
	FILE *f = cordon_fopen_regular(path);
	if (f && fstat(fileno(f), &st) == 0 && st.st_size > PACKED_MAX) {
		/* (Too long to read at each launch: its identity stands in.) */
		unsigned long long id[2] = {(unsigned long long)st.st_ino,
					    (unsigned long long)st.st_mtim.tv_nsec};
		sum += fnv(1, (const char *)id, sizeof(id)) | 1;
	} else {
		char line[512];
		while (f && fgets(line, sizeof(line), f))
			if (strstr(line, " refs/replace/"))
				sum += fnv(14695981039346656037ull, line, strlen(line)) | 1;
	}
	if (f)
		(void)fclose(f); /* read only */
	return sum;
}

/* The files git trusts in place of reading objects, whose identities
 * are kept in the repository's record: the commit-graph (a commit's tree,
 * by name: git takes it from there, not from the commit; a chain's graph
 * files replaced under the chain's names count) and the multi-pack-index
 * (where each object lies in which pack: a pack replaced under its name
 * counts, its old offsets then lead to other objects). Each group: the
 * files and directories (each entry of theirs) whose identities are
 * summed, and the files moved aside when the sum changed. */
static const struct {
	const char *summed[3];
	const char *moved[3];
} caches[] = {
	{{"objects/info/commit-graph", "objects/info/commit-graphs", NULL},
	 {"objects/info/commit-graph", "objects/info/commit-graphs/commit-graph-chain", NULL}},
	{{"objects/pack/multi-pack-index", "objects/pack/multi-pack-index.d", "objects/pack"},
	 {"objects/pack/multi-pack-index", "objects/pack/multi-pack-index.d/multi-pack-index-chain",
	  NULL}},
};

/* ---- the commits git's reflogs name ----
 *
 * git checkout - goes back to where HEAD's reflog says it was (the
 * "checkout: moving from X to Y" message's X, any revision), HEAD@{N}
 * names any entry of it, and git stash pop stash@{N} any entry of the
 * stash's: a commit the session wrote there alone is checked out by them
 * (round 54 Left). As the session starts each reflog's identity and size
 * are kept, and the sums of the lines in its last LOG_TAIL bytes. As it
 * ends, a reflog only added to is read from that size on; one written
 * anew, whole (its last LOG_MAX bytes), less the lines it held then (a
 * git stash drop keeps the user's older stashes: not said). The lines
 * read are judged: their ids as refs the session moved, a checkout's
 * message by what it names (round 56b F1, F5, F8). */

#define LOG_TAIL (64u << 10) /* of a reflog as the session starts: its lines' sums kept */
#define LOG_MAX  (16u << 20) /* of one as it ends: past it, said as unread */

struct reflog {
	const char *name; /* in the git dir (0) or the common directory (1) */
	bool common;
	const char *rev; /* how git names its entries: REV@{N} */
	bool stash;
};

static const struct reflog reflogs[] = {{"logs/HEAD", false, "HEAD", false},
					{"logs/refs/stash", true, "stash", true}};
#define N_REFLOGS (sizeof(reflogs) / sizeof(*reflogs))

/* The reflog LOG of GITDIR (common directory COMMON) opened (-1: none),
 * its stat into *ST. */
static int reflog_open(const char *gitdir, const char *common, const struct reflog *log,
		       struct stat *st)
{
	char path[PATH_MAX + 32];
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", log->common ? common : gitdir,
			     log->name) >= sizeof(path))
		return -1;
	int fd = cordon_open_regular_at(AT_FDCWD, path);
	if (fd >= 0 && fstat(fd, st) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* FD's bytes from FROM to its end, at most MAX of them (the last ones,
 * from the start of a line where cut: *CUT), NUL-ended (malloc'd; NULL:
 * none). */
static char *reflog_read(int fd, const struct stat *st, off_t from, size_t max, size_t *len,
			 bool *cut, uint64_t *raw)
{
	*cut = false;
	if (st->st_size <= from)
		return NULL;
	size_t want = (size_t)(st->st_size - from);
	if (want > max) {
		from = st->st_size - (off_t)max;
		want = max;
		*cut = true;
	}
	/* (Sized to the file: most are a few kilobytes.) */
	char *text = malloc(want + 1);
	ssize_t n = text ? pread(fd, text, want, from) : -1;
	if (n <= 0) {
		free(text);
		return NULL;
	}
	text[n] = '\0';
	if (raw)
		*raw = fnv(14695981039346656037ull, text, (size_t)n);
	char *nl = *cut ? strchr(text, '\n') : NULL;
	if (nl)
		memmove(text, nl + 1, strlen(nl + 1) + 1);
	*len = strlen(text);
	return text;
}

/* A line's sum, as 16 hex digits. */
static void line_sum(const char *line, size_t n, char sum[17])
{
	snprintf(sum, 17, "%016llx", (unsigned long long)fnv(14695981039346656037ull, line, n));
}

static int by_sum(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* "INO:SIZE:SUM" at *T (then "," or ";") into ID, *T past it: whether
 * it was there. */
static bool read_triple(const char **t, unsigned long long id[3])
{
	const char *p = *t;
	for (int k = 0; k < 3; k++) {
		char *e;
		id[k] = strtoull(p, &e, 10);
		if (e == p || (k < 2 ? *e != ':' : *e != ',' && *e != ';'))
			return false;
		p = e + 1;
	}
	*t = p;
	return true;
}

/* GITDIR's reflogs as the session starts: "INO:SIZE:SUM" for each (0:0:0
 * missing; SUM: of its last LOG_TAIL bytes as read, round 56d F3),
 * comma-separated, then ";" and the sums of the lines in those bytes,
 * sorted, 16 hex digits each (malloc'd; NULL when out of memory). */
static char *reflogs_seen(const char *gitdir, const char *common)
{
	char ids[N_REFLOGS * 72 + 2];
	size_t at = 0, n = 0, cap = 0;
	char *sums = NULL;
	bool ok = true;
	for (size_t g = 0; ok && g < N_REFLOGS; g++) {
		struct stat st;
		int fd = reflog_open(gitdir, common, &reflogs[g], &st);
		size_t len = 0;
		bool cut;
		uint64_t raw = 0;
		cleanup_free char *text =
			fd >= 0 ? reflog_read(fd, &st, 0, LOG_TAIL, &len, &cut, &raw) : NULL;
		if (fd >= 0)
			close(fd);
		at += (size_t)snprintf(ids + at, sizeof(ids) - at, "%s%llu:%llu:%llu", g ? "," : "",
				       fd >= 0 ? (unsigned long long)st.st_ino : 0ull,
				       fd >= 0 ? (unsigned long long)st.st_size : 0ull,
				       (unsigned long long)raw);
		for (char *line = text; ok && line && *line;) {
			size_t ln = strcspn(line, "\n");
			char sum[17];
			ok = cordon_reserve(&sums, &cap, (n + 1) * 16, 4096);
			if (ok) {
				line_sum(line, ln, sum);
				memcpy(sums + 16 * n++, sum, 16);
			}
			line += ln + (line[ln] == '\n');
		}
	}
	char *all = ok ? malloc(at + 2 + n * 16) : NULL;
	if (all) {
		if (n)
			qsort(sums, n, 16, by_sum);
		memcpy(all, ids, at);
		all[at] = ';';
		if (n)
			memcpy(all + at + 1, sums, n * 16);
		all[at + 1 + n * 16] = '\0';
	}
	free(sums);
	return all;
}

/* NAME's identity (inode, size, time) into the sum H. */
static uint64_t identity_sum(uint64_t h, int at, const char *name)
{
	struct stat st;
	if (fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return h;
	unsigned long long id[4] = {(unsigned long long)st.st_ino, (unsigned long long)st.st_size,
				    (unsigned long long)st.st_mtim.tv_sec,
				    (unsigned long long)st.st_mtim.tv_nsec};
	return h + (fnv(fnv(14695981039346656037ull, name, strlen(name)), (const char *)id,
			sizeof(id)) |
		    1);
}

/* The caches' sums, as "GRAPH,MIDX" in hex. */
static void caches_id(const char *common, char *out, size_t size)
{
	out[0] = '\0';
	for (size_t g = 0; g < sizeof(caches) / sizeof(*caches); g++) {
		uint64_t h = 0;
		/* (None of the group's files: nothing to sum, nor any pack
		 * listed, two thirds of the cost in a repository without.) */
		bool any = false;
		for (size_t i = 0; !any && i < 3 && caches[g].moved[i]; i++) {
			char path[PATH_MAX + 64];
			struct stat st;
			any = (size_t)snprintf(path, sizeof(path), "%s/%s", common,
					       caches[g].moved[i]) < sizeof(path) &&
			      lstat(path, &st) == 0;
		}
		for (size_t i = 0; any && i < 3 && caches[g].summed[i]; i++) {
			char path[PATH_MAX + 64];
			if ((size_t)snprintf(path, sizeof(path), "%s/%s", common,
					     caches[g].summed[i]) >= sizeof(path))
				continue;
			h = identity_sum(h, AT_FDCWD, path);
			DIR *d = opendir(path);
			for (struct dirent *de; d && (de = readdir(d));)
				if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
					h = identity_sum(h, dirfd(d), de->d_name);
			if (d)
				closedir(d);
		}
		size_t n = strlen(out);
		snprintf(out + n, size - n, "%s%llx", g ? "," : "", (unsigned long long)h);
	}
}

int cordon_sweep_tracked_hold(struct cordon_sweep *s, const char *gitdir, const char *worktree)
{
	if (s->tracked_repos.n >= TRACKED_REPOS_MAX)
		return 0;
	for (size_t i = 0; i < s->tracked_repos.n; i++) {
		const char *r = s->tracked_repos.v[i];
		size_t n = strlen(gitdir);
		if (strncmp(r, gitdir, n) == 0 && r[n] == '\n')
			return 0;
	}
	char id[97];
	struct cordon_strv entries = {0}, refs = {0};
	int e = tracked_read(s, gitdir, worktree, id, &entries);
	/* One not read whole as the session starts is kept as "?ID", none of
	 * its entries: its refs are judged, and a later session takes an
	 * earlier one's holds (round 57a F1: a split index one could not
	 * read held nothing, and took nothing). Out of memory: none kept. */
	if (e < 0 && e != -ENOMEM) {
		cordon_strv_free(&entries);
		memmove(id + 1, id, strlen(id) + 1);
		id[0] = '?';
		e = 0;
	}
	char *repo = NULL, common[PATH_MAX], cached[64];
	bool has_common = common_dir(gitdir, common, sizeof(common));
	cached[0] = '\0';
	if (has_common)
		caches_id(common, cached, sizeof(cached));
	/* (Refs not read, "!": none judged.) */
	int re = has_common ? cordon_git_refs(gitdir, common, &refs) : -ENOTSUP;
	if (re == -ENOMEM)
		e = re;
	cleanup_free char *joined = NULL;
	size_t total = 2;
	for (size_t i = 0; i < refs.n; i++)
		total += strlen(refs.v[i]) + 1;
	if (e >= 0 && (joined = malloc(total))) {
		char *at = joined;
		if (re < 0)
			*at++ = '!';
		for (size_t i = 0; i < refs.n; i++)
			at += sprintf(at, "%s%s", i ? "\n" : "", refs.v[i]);
		*at = '\0';
	}
	cleanup_free char *seen = e < 0        ? NULL
				  : has_common ? reflogs_seen(gitdir, common)
					       : strdup("");
	if (e >= 0 && joined && seen &&
	    asprintf(&repo, "%s\n%s\n%s\n%llx\n%s\n%s\n%s", gitdir, worktree, id,
		     has_common ? (unsigned long long)replace_sum(common) : 0ull, cached, seen,
		     joined) >= 0 &&
	    cordon_strv_push_take(&s->tracked_repos, repo) >= 0)
		for (size_t i = 0; i < entries.n && e >= 0; i++)
			e = cordon_strv_push(&s->tracked, entries.v[i]);
	else if (e >= 0)
		e = -ENOMEM;
	cordon_strv_free(&entries);
	cordon_strv_free(&refs);
	return e < 0 && e != -ENOMEM ? 0 : e;
}

/* ENTRY ("WORKTREE/NAME\nMODE OID") as the user reads its NAME. */
static void entry_name(const char *entry, size_t worktree_len, char *out, size_t size)
{
	const char *name = entry + worktree_len + 1, *nl = strchr(name, '\n');
	cordon_printable(name, nl ? (size_t)(nl - name) : strlen(name), out, size);
}

/* LINE (malloc'd, or NULL) to SAID, once; 1 if it is new there. */
static int say_once(struct cordon_strv *said, char *line)
{
	if (!line)
		return 0;
	if (cordon_strv_contains(said, line)) {
		free(line);
		return 0;
	}
	(void)cordon_strv_push_take(said, line);
	return 1;
}

/* ---- what a commit holds under the protected paths ---- */

#define REFS_JUDGED 64 /* changed refs past these: said, not read */

struct objects {
	struct cordon_git_odb *db;
	size_t hs;
	const struct cordon_strv *targets; /* names relative to the worktree */
	int bad;                           /* a read's worst error (-EBADMSG, -E2BIG) */
};

/* An object read; a failure other than a missing one noted in O. */
static int obj_read(struct objects *o, const unsigned char *oid, int *type, unsigned char **data,
		    size_t *len)
{
	int e = cordon_git_odb_read(o->db, oid, type, data, len);
	if (e == -EBADMSG || (e == -E2BIG && o->bad != -EBADMSG))
		o->bad = e;
	return e;
}

/* Whether NAME lies under one of O's targets (AT_OR_UNDER), or on the way
 * to one (a directory above it). */
static bool under_target(const struct objects *o, const char *name, bool *on_way)
{
	size_t n = strlen(name);
	*on_way = false;
	for (size_t i = 0; i < o->targets->n; i++) {
		const char *t = o->targets->v[i];
		size_t tn = strlen(t);
		if (strncmp(name, t, tn) == 0 && (name[tn] == '\0' || name[tn] == '/'))
			return true;
		if (tn > n && strncmp(t, name, n) == 0 && t[n] == '/')
			*on_way = true;
	}
	return false;
}

/* The entries of tree OID (named PREFIX) under O's targets, into OUT as
 * "NAME\nMODE HEX". */
static int tree_walk(struct objects *o, const unsigned char *oid, const char *prefix, int depth,
		     struct cordon_strv *out)
{
	int type;
	unsigned char *data;
	size_t len;
	if (depth > 64)
		return -E2BIG;
	int e = obj_read(o, oid, &type, &data, &len);
	if (e < 0)
		return e;
	if (type != CORDON_GIT_TREE) {
		free(data);
		return 0;
	}
	for (const unsigned char *p = data, *end = data + len; p < end && e >= 0;) {
		const unsigned char *sp = memchr(p, ' ', (size_t)(end - p));
		const unsigned char *nul = sp ? memchr(sp, '\0', (size_t)(end - sp)) : NULL;
		if (!nul || (size_t)(end - nul - 1) < o->hs)
			break;
		unsigned mode = (unsigned)strtoul((const char *)p, NULL, 8);
		char name[PATH_MAX];
		const unsigned char *child = nul + 1;
		p = child + o->hs;
		if ((size_t)snprintf(name, sizeof(name), "%s%s%.*s", prefix, *prefix ? "/" : "",
				     (int)(nul - sp - 1), (const char *)sp + 1) >= sizeof(name))
			continue;
		bool on_way, under = under_target(o, name, &on_way);
		if ((mode & 0170000) == 0040000) {
			if (under || on_way)
				e = tree_walk(o, child, name, depth + 1, out);
			continue;
		}
		if (!under)
			continue;
		char hex[65], *entry = NULL;
		for (size_t b = 0; b < o->hs; b++)
			snprintf(hex + 2 * b, 3, "%02x", child[b]);
		if (asprintf(&entry, "%s\n%o %s", name, mode, hex) < 0)
			e = -ENOMEM;
		else
			e = cordon_strv_push_take(out, entry);
	}
	free(data);
	return e;
}

/* The entries under O's targets of the commit HEX names (a tag peeled),
 * into OUT. */
static int commit_entries(struct objects *o, const char *hex, bool stash, struct cordon_strv *out)
{
	unsigned char oid[32];
	if (!cordon_git_oid_parse(hex, o->hs, oid))
		return 0;
	for (int peel = 0; peel < 8; peel++) {
		int type;
		unsigned char *data;
		size_t len;
		int e = obj_read(o, oid, &type, &data, &len);
		if (e < 0)
			return e;
		const char *key = type == CORDON_GIT_COMMIT ? "tree " : "object ";
		size_t kn = strlen(key);
		bool ok = (type == CORDON_GIT_COMMIT || type == CORDON_GIT_TAG) &&
			  len > kn + 2 * o->hs && memcmp(data, key, kn) == 0 &&
			  cordon_git_oid_parse((const char *)data + kn, o->hs, oid);
		/* A stash's other parents: the index it saved (git stash pop
		 * --index) and the untracked files (git stash -u), which pop
		 * makes anew (round 54e F3). */
		char parents[2][65] = {"", ""};
		const char *p = (const char *)data;
		for (int k = -1; ok && stash && type == CORDON_GIT_COMMIT && k < 2;) {
			const char *nl = memchr(p, '\n', len - (size_t)(p - (const char *)data));
			if (!nl || strncmp(nl + 1, "parent ", 7) != 0)
				break;
			p = nl + 1;
			if (k >= 0)
				snprintf(parents[k], sizeof(parents[k]), "%.*s", (int)(2 * o->hs),
					 p + 7);
			k++;
		}
		free(data);
		if (!ok)
			return 0; /* (a ref to a tree or a blob: no files checked out) */
		if (type == CORDON_GIT_COMMIT) {
			e = tree_walk(o, oid, "", 0, out);
			for (int k = 0; e >= 0 && k < 2; k++)
				if (parents[k][0])
					e = commit_entries(o, parents[k], false, out);
			return e;
		}
	}
	return 0;
}

/* Whether WORKTREE/NAME holds what ENTRY ("MODE HEX") names: git would
 * write it as it is. */
static bool as_in_worktree(const struct objects *o, const char *worktree, const char *name,
			   const char *entry)
{
	char path[PATH_MAX];
	unsigned mode = (unsigned)strtoul(entry, NULL, 8);
	const char *hex = strchr(entry, ' ');
	struct stat st;
	if (!hex || (size_t)snprintf(path, sizeof(path), "%s/%s", worktree, name) >= sizeof(path) ||
	    lstat(path, &st) < 0)
		return false;
	char *data = NULL;
	size_t len = 0;
	if ((mode & 0170000) == 0120000 && S_ISLNK(st.st_mode)) {
		data = malloc(PATH_MAX);
		ssize_t n = data ? readlink(path, data, PATH_MAX) : -1;
		len = n > 0 ? (size_t)n : 0;
	} else if ((mode & 0170000) == 0100000 && S_ISREG(st.st_mode)) {
		data = cordon_read_regular(path, (size_t)st.st_size + 1, &len);
		if (data && len != (size_t)st.st_size)
			len = SIZE_MAX;
	}
	unsigned char got[32], want[32];
	bool same = data && len != SIZE_MAX && cordon_git_oid_parse(hex + 1, o->hs, want);
	if (same) {
		cordon_git_blob_name(o->hs, data, len, got);
		same = memcmp(got, want, o->hs) == 0;
	}
	free(data);
	return same;
}

/* Whether the index entry ENTRY ("WORKTREE/NAME\nMODE OID", WORKTREE
 * WN bytes) is the file there as it is, its executable bit too: git
 * checkout would write what is there (a session that started while
 * another ran holds less than the user had: cordon_sweep_tracked_share). */
static bool entry_as_file(const struct objects *o, const char *entry, size_t wn)
{
	const char *nl = strchr(entry, '\n');
	char name[PATH_MAX], path[PATH_MAX];
	struct stat st;
	if (!nl || (size_t)(nl - entry) <= wn + 1 ||
	    (size_t)snprintf(name, sizeof(name), "%.*s", (int)(nl - entry - wn - 1),
			     entry + wn + 1) >= sizeof(name) ||
	    (size_t)snprintf(path, sizeof(path), "%.*s", (int)(nl - entry), entry) >=
		    sizeof(path) ||
	    lstat(path, &st) < 0)
		return false;
	unsigned mode = (unsigned)strtoul(nl + 1, NULL, 8);
	bool exec = (mode & 0170000) == 0100000 && (mode & 0111);
	cleanup_free char *wt = strndup(entry, wn);
	return wt && exec == (S_ISREG(st.st_mode) && (st.st_mode & 0100)) &&
	       as_in_worktree(o, wt, name, nl + 1);
}

/* The blob ENTRY ("MODE HEX") names, checked: its copies read. */
static void blob_checked(struct objects *o, const char *entry)
{
	const char *hex = strchr(entry, ' ');
	unsigned char oid[32], *data;
	int type;
	size_t len;
	if (hex && cordon_git_oid_parse(hex + 1, o->hs, oid) &&
	    obj_read(o, oid, &type, &data, &len) == 0)
		free(data);
}

struct refs_judge {
	struct objects *o;
	const char *worktree;
	const char *shown; /* the worktree, printable */
	struct cordon_strv *said;
	const struct cordon_strv *refs;     /* as the session ends (cordon_git_refs) */
	const struct cordon_strv *head_had; /* HEAD's protected entries as it started */
	const char *head_was, *stash_was;   /* HEAD's and refs/stash's commits then */
	size_t budget, skipped;             /* commits left to read; past them, counted */
};

/* The first parent of the commit HEX, into PARENT; false for none. */
static bool first_parent(struct objects *o, const char *hex, char parent[65])
{
	unsigned char oid[32], *data;
	int type;
	size_t len;
	parent[0] = '\0';
	if (!cordon_git_oid_parse(hex, o->hs, oid) || obj_read(o, oid, &type, &data, &len) < 0)
		return false;
	const char *p = type == CORDON_GIT_COMMIT ? memchr(data, '\n', len) : NULL;
	size_t hn = 2 * o->hs;
	if (p && (size_t)((const char *)data + len - p) > 8 + hn &&
	    strncmp(p + 1, "parent ", 7) == 0)
		snprintf(parent, 65, "%.*s", (int)hn, p + 8);
	free(data);
	return parent[0] != '\0';
}

/* The commit HEX (STASH: a stash, its other parents too), which BASE
 * named before (NULL: none), said where it holds under the protected
 * paths another file than the one there and than BASE's commit held;
 * its objects on the way checked. APPLIED: git applies it (a stash, a
 * pick) as a merge from its first parent: a parent whose protected
 * entries are not HEAD's is said too, since git's rename detection can
 * carry a change of another file into a protected one (round 56b F3).
 * WHAT names it in the line ("the commit REF names"), REV for git show;
 * HOW: what would write it (NULL: git reset --hard, checkout or stash
 * pop). How many lines were said. */
static int judge_commit(struct refs_judge *j, const char *hex, const char *base, bool stash,
			bool applied, const char *what, const char *rev, const char *how)
{
	struct cordon_strv entries = {0}, had = {0};
	int found = 0, we = commit_entries(j->o, hex, stash, &entries);
	/* (HEAD where it was: its objects are checked, its entries are what
	 * they were.) */
	bool moved = !base || strcmp(base, hex) != 0;
	if (we >= 0 && base && moved)
		(void)commit_entries(j->o, base, stash, &had);
	const char *whose = "this session committed or fetched it";
	const char *writes = how ? how : "a git reset --hard, checkout or stash pop outside";
	for (size_t k = 0; we >= 0 && k < entries.n; k++) {
		char *nl = strchr(entries.v[k], '\n'), *line = NULL;
		blob_checked(j->o, nl + 1);
		if (!moved || cordon_strv_contains(&had, entries.v[k]))
			continue;
		*nl = '\0';
		bool same = as_in_worktree(j->o, j->worktree, entries.v[k], nl + 1);
		char file[PATH_MAX];
		cordon_printable(entries.v[k], SIZE_MAX, file, sizeof(file));
		if (!same &&
		    asprintf(&line,
			     "cordon: in %s, %s now holds another %s than the protected file there "
			     "(%s): %s would write it; review git show %s -- %s there first",
			     j->shown, what, file, whose, writes, rev, file) >= 0)
			found += say_once(j->said, line);
		*nl = '\n';
	}
	char parent[65];
	struct cordon_strv pe = {0};
	if (we >= 0 && moved && applied && first_parent(j->o, hex, parent) &&
	    commit_entries(j->o, parent, false, &pe) >= 0) {
		bool same = pe.n == j->head_had->n;
		for (size_t k = 0; same && k < pe.n; k++)
			same = cordon_strv_contains(j->head_had, pe.v[k]);
		char *line = NULL;
		if (!same &&
		    asprintf(&line,
			     "cordon: in %s, %s is applied from a commit whose protected files are "
			     "not HEAD's (this session committed or fetched it): %s may write its "
			     "change into a protected file (git follows renames); review git diff "
			     "%s^ %s there first",
			     j->shown, what, writes, rev, rev) >= 0)
			found += say_once(j->said, line);
	}
	cordon_strv_free(&pe);
	cordon_strv_free(&entries);
	cordon_strv_free(&had);
	return found;
}

/* HEX (any case, 40 or 64 digits: git takes both) as J's objects name
 * it, into OUT (lower case); false where it is not one. */
static bool full_id(const struct refs_judge *j, const char *hex, size_t n, char out[65])
{
	if (n != 2 * j->o->hs || strspn(hex, "0123456789abcdefABCDEF") < n)
		return false;
	for (size_t i = 0; i < n; i++)
		out[i] = (char)(hex[i] >= 'A' && hex[i] <= 'F' ? hex[i] - 'A' + 'a' : hex[i]);
	out[n] = '\0';
	return true;
}

/* Whether NAME is a branch, tag or remote branch of J's refs (git
 * checkout - takes it as such). */
static bool a_ref(const struct refs_judge *j, const char *name, size_t n)
{
	static const char *const prefixes[] = {"refs/heads/", "refs/tags/", "refs/remotes/", ""};
	char full[PATH_MAX];
	for (size_t i = 0; i < 4; i++)
		if ((size_t)snprintf(full, sizeof(full), "%s%.*s", prefixes[i], (int)n, name) <
			    sizeof(full) &&
		    cordon_git_ref_value(j->refs, full))
			return true;
	return false;
}

/* The commit HEX (judged once, within the budget) as a ref moved from
 * BASE; DONE: those judged (past the budget only counted: 56d F8, a list
 * searched for each of 150,000 lines took minutes). */
static int judge_once(struct refs_judge *j, struct cordon_strv *done, const char *hex,
		      const char *base, bool stash, bool applied, const char *what, const char *rev,
		      const char *how)
{
	if (j->budget == 0) {
		j->skipped++;
		return 0;
	}
	if (cordon_strv_contains(done, hex) || cordon_strv_push(done, hex) < 0)
		return 0;
	j->budget--;
	return judge_commit(j, hex, base, stash, applied, what, rev, how);
}

/* LINE (of reflog G, entry N) as the session left it: its ids judged as
 * refs moved from BASE (IDS false: only its message); a checkout's
 * message by what it names (git checkout - checks out the X of "moving
 * from X to Y" as any revision: an id, judged; a branch or tag, judged
 * with the refs; else counted in *UNRESOLVED, its first into FIRST). */
static int judge_reflog_line(struct refs_judge *j, struct cordon_strv *done, const char *line,
			     size_t g, size_t n, const char *base, bool ids, size_t *unresolved,
			     char first[96])
{
	int found = 0;
	const char *p = line;
	char id[65], rev[48], what[96], how[160];
	for (int k = 0; ids && k < 2; k++) {
		size_t len = strcspn(p, " \t\n");
		/* (An entry's old id that a ref named as the session started
		 * is the user's: 56d F7, a git stash over an older stash.) */
		if (full_id(j, p, len, id) && strspn(id, "0") != len &&
		    !(k == 0 && ((j->head_was && strcmp(id, j->head_was) == 0) ||
				 (j->stash_was && strcmp(id, j->stash_was) == 0)))) {
			snprintf(rev, sizeof(rev), "%s@{%zu}", reflogs[g].rev, n + (k == 0));
			snprintf(what, sizeof(what), "the commit %s names (git's reflog)", rev);
			snprintf(
				how, sizeof(how),
				reflogs[g].stash
					? "a git stash pop or apply of %s outside"
					: "a git checkout - (back along the reflog) or of %s outside",
				rev);
			found += judge_once(j, done, id, base, reflogs[g].stash, reflogs[g].stash,
					    what, rev, how);
		}
		p += len;
		p += strspn(p, " \t");
	}
	const char *msg = strchr(line, '\t'),
		   *from = msg ? strstr(msg, "checkout: moving from ") : NULL;
	for (int k = 0; from && k < 2; k++) {
		const char *x = k == 0 ? from + 22 : strstr(from + 22, " to ");
		if (!x)
			break;
		if (k)
			x += 4;
		size_t len = strcspn(x, " \n");
		if (!len)
			continue;
		if (full_id(j, x, len, id)) {
			snprintf(what, sizeof(what),
				 "the commit %.12s a checkout in git's reflog names", id);
			found += judge_once(j, done, id, base, false, false, what, id,
					    "a git checkout - outside");
		} else if (!a_ref(j, x, len) && (*unresolved)++ == 0) {
			cordon_printable(x, len, first, 96);
		}
	}
	return found;
}

/* GITDIR's reflogs as the session ends, against SEEN (reflogs_seen's):
 * one only added to (the same file, as long, its last bytes then as
 * they were) by the lines added; one written anew by each line it did
 * not hold then, its ids only in its last LOG_TAIL bytes (a git gc
 * rewrote older lines of the user's: 56d F6), its checkout messages in
 * all of it. Judged from BASE (HEAD's commit as it started). */
static int judge_reflogs(struct refs_judge *j, const char *gitdir, const char *common,
			 const char *seen, const char *base)
{
	const char *sums = strchr(seen, ';');
	size_t n_sums = sums ? strlen(sums + 1) / 16 : 0;
	int found = 0;
	struct cordon_strv done = {0};
	const char *was = seen;
	for (size_t g = 0; g < N_REFLOGS; g++) {
		unsigned long long id[3] = {0, 0, 0};
		const char *t = was;
		bool known = read_triple(&t, id);
		was = t;
		struct stat st;
		int fd = reflog_open(gitdir, common, &reflogs[g], &st);
		if (fd < 0)
			continue;
		/* (Only added to: the bytes it ended with then, the same.) */
		bool added = known && id[0] == (unsigned long long)st.st_ino &&
			     (unsigned long long)st.st_size >= id[1];
		if (added && id[1]) {
			size_t w = id[1] < LOG_TAIL ? (size_t)id[1] : LOG_TAIL, wl;
			bool wc;
			uint64_t raw = 0;
			struct stat then = st;
			then.st_size = (off_t)id[1];
			free(reflog_read(fd, &then, (off_t)(id[1] - w), w, &wl, &wc, &raw));
			added = raw == id[2];
		}
		size_t len = 0;
		bool cut;
		cleanup_free char *text =
			reflog_read(fd, &st, added ? (off_t)id[1] : 0, LOG_MAX, &len, &cut, NULL);
		close(fd);
		char *out = NULL;
		if (cut &&
		    asprintf(&out,
			     "cordon: in %s, this session left git's reflog %s longer than "
			     "cordon reads (%u MiB): an entry of it may name a commit holding "
			     "its own version of a protected file; review git reflog there "
			     "first",
			     j->shown, reflogs[g].name, LOG_MAX >> 20) >= 0)
			found += say_once(j->said, out);
		size_t lines = 0;
		for (size_t i = 0; i < len; i++)
			lines += text[i] == '\n' || i + 1 == len;
		size_t at = 0, unresolved = 0;
		char first[96] = "";
		const char *tail_from = text && len > LOG_TAIL ? text + len - LOG_TAIL : text;
		for (char *line = text; line && *line; at++) {
			size_t ln = strcspn(line, "\n");
			char sum[17];
			line_sum(line, ln, sum);
			bool old = !added && sums && bsearch(sum, sums + 1, n_sums, 16, by_sum);
			char c = line[ln];
			line[ln] = '\0';
			/* (Entry N of REV@{N} has N lines after it.) */
			if (!old)
				found += judge_reflog_line(j, &done, line, g, lines - 1 - at, base,
							   added || line >= tail_from, &unresolved,
							   first);
			line[ln] = c;
			line += ln + (c == '\n');
		}
		if (unresolved &&
		    asprintf(&out,
			     "cordon: in %s, this session wrote %zu entr%s of git's reflog naming "
			     "what cordon does not resolve (\"%s\"%s): a git checkout - outside "
			     "checks it out, and may write its own version of a protected file; "
			     "review git reflog there first",
			     j->shown, unresolved, unresolved == 1 ? "y" : "ies", first,
			     unresolved > 1 ? ", ..." : "") >= 0)
			found += say_once(j->said, out);
	}
	cordon_strv_free(&done);
	return found;
}

/* Whether ARG of a todo line names what cordon reads elsewhere: a label
 * the todo set (LABELS) or a ref of J's (refs/rewritten/ARG, a branch). */
static bool todo_label(const struct refs_judge *j, const struct cordon_strv *labels,
		       const char *arg)
{
	char full[PATH_MAX];
	return cordon_strv_contains(labels, arg) ||
	       ((size_t)snprintf(full, sizeof(full), "refs/rewritten/%s", arg) < sizeof(full) &&
		cordon_git_ref_value(j->refs, full));
}

/* What git resumes with rebase --continue (or cherry-pick, revert): a
 * todo list the session wrote (its change time at or after the start),
 * read as git reads each command's arguments (round 56d F1, F2: the
 * commit a merge line merges, after a -C one; an abbreviated id before a
 * full one). Each commit named by a full id is judged as one git applies
 * (a pick, a revert, a merge's parent, a reset's target); one named any
 * other way than a label is said, as one cordon cannot judge. */
static int judge_todos(const struct cordon_sweep *s, struct refs_judge *j, const char *gitdir,
		       const char *base)
{
	static const char *const todos[] = {"rebase-merge/git-rebase-todo", "sequencer/todo"};
	/* (Lines that name no commit git applies: a drop's is dropped,
	 * round 56f F2.) */
	static const char *const plain[] = {"break", "b",    "noop", "label", "l", "update-ref",
					    "u",     "exec", "x",    "drop",  "d", NULL};
	int found = 0;
	struct cordon_strv done = {0};
	for (size_t t = 0; t < sizeof(todos) / sizeof(*todos); t++) {
		char path[PATH_MAX + 32];
		struct stat st;
		size_t len;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", gitdir, todos[t]) >=
			    sizeof(path) ||
		    lstat(path, &st) < 0 || !S_ISREG(st.st_mode) ||
		    (st.st_ctim.tv_sec < s->since.tv_sec ||
		     (st.st_ctim.tv_sec == s->since.tv_sec &&
		      st.st_ctim.tv_nsec < s->since.tv_nsec)))
			continue;
		cleanup_free char *text = cordon_read_regular(path, LOG_MAX, &len);
		bool unjudged = !text;
		struct cordon_strv labels = {0};
		for (char *line = text, *next; line && *line; line = next) {
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			else
				next = line + strlen(line);
			char *save = NULL, *w = strtok_r(line, " \t\r", &save);
			if (!w || w[0] == '#')
				continue;
			if (strcmp(w, "label") == 0 || strcmp(w, "l") == 0) {
				char *name = strtok_r(NULL, " \t\r", &save);
				if (name)
					(void)cordon_strv_push(&labels, name);
				continue;
			}
			bool named = false;
			for (size_t i = 0; plain[i]; i++)
				named = named || strcmp(w, plain[i]) == 0;
			if (named)
				continue;
			bool merge = strcmp(w, "merge") == 0 || strcmp(w, "m") == 0;
			bool reset = strcmp(w, "reset") == 0 || strcmp(w, "t") == 0;
			/* Its arguments: a pick's one commit (after fixup's -C or
			 * -c), a reset's one label or commit, a merge's -C or -c
			 * commit and each parent up to "#". */
			int left = merge ? 64 : 1;
			for (char *arg = strtok_r(NULL, " \t\r", &save); arg && left > 0;
			     arg = strtok_r(NULL, " \t\r", &save)) {
				if (arg[0] == '#')
					break;
				bool flag = strcmp(arg, "-C") == 0 || strcmp(arg, "-c") == 0;
				if (flag && !merge)
					continue; /* (fixup -C: the commit follows) */
				if (flag) {
					char *c = strtok_r(NULL, " \t\r", &save);
					if (!c)
						break;
					arg = c;
				} else {
					left--;
				}
				char id[65];
				if (full_id(j, arg, strlen(arg), id)) {
					char what[PATH_MAX + 64];
					snprintf(what, sizeof(what),
						 "the commit %.12s that .git/%s names", id,
						 todos[t]);
					found += judge_once(
						j, &done, id, base, false, true, what, id,
						"a git rebase --continue (or cherry-pick, "
						"revert --continue) outside");
				} else if (!((merge || reset) && todo_label(j, &labels, arg))) {
					unjudged = true;
				}
			}
		}
		cordon_strv_free(&labels);
		char *line = NULL;
		if (unjudged &&
		    asprintf(
			    &line,
			    "cordon: in %s, this session wrote .git/%s, which names commits cordon "
			    "does not look up (an abbreviated id, a revision): git rebase "
			    "--continue outside may write its own version of a protected file from "
			    "one; review it (or git rebase --abort) there first",
			    j->shown, todos[t]) >= 0)
			found += say_once(j->said, line);
	}
	cordon_strv_free(&done);
	return found;
}

/* The patches a stopped git am goes on with (rebase-apply/NNNN: git am
 * --continue or --skip applies them) that the session wrote: said, each
 * a mail cordon does not decode (base64, quoted paths: round 56b F4), and
 * not read (F10: thousands of them slowed the end). */
static int judge_patches(const struct cordon_sweep *s, struct refs_judge *j, const char *gitdir)
{
	char path[PATH_MAX + 32];
	if ((size_t)snprintf(path, sizeof(path), "%s/rebase-apply", gitdir) >= sizeof(path))
		return 0;
	DIR *d = opendir(path);
	bool wrote = false;
	for (struct dirent *de; d && !wrote && (de = readdir(d));) {
		struct stat st;
		wrote = de->d_name[0] && de->d_name[strspn(de->d_name, "0123456789")] == '\0' &&
			fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			(st.st_ctim.tv_sec > s->since.tv_sec ||
			 (st.st_ctim.tv_sec == s->since.tv_sec &&
			  st.st_ctim.tv_nsec >= s->since.tv_nsec));
	}
	if (d)
		closedir(d);
	char *line = NULL;
	if (wrote &&
	    asprintf(&line,
		     "cordon: in %s, this session left patches for a stopped git am "
		     "(.git/rebase-apply): git am --continue or --skip outside would apply them, "
		     "and one may write its own version of a protected file; review them (or git "
		     "am --abort) there first",
		     j->shown) >= 0)
		return say_once(j->said, line);
	return 0;
}

/* Each ref of GITDIR that this session made or moved (and HEAD, moved or
 * not), whose commit holds under the protected paths another file than
 * the one there (and than it held before), said; its objects on the way
 * checked. WAS: the refs as the session started (cordon_git_refs, joined
 * by newlines; "!" not read). */
static int judge_refs(const struct cordon_sweep *s, const char *gitdir, const char *worktree,
		      const char *common, const char *was, const char *seen, const char *shown,
		      struct cordon_strv *said)
{
	if (was[0] == '!')
		return 0;
	struct cordon_strv targets = {0}, before = {0}, now = {0};
	size_t wn = strlen(worktree);
	int found = 0;
	for (size_t i = 0; i < s->protected_names.n; i++)
		(void)cordon_strv_push(&targets, s->protected_names.v[i]);
	for (size_t i = 0; i < s->guarded.n; i++)
		if (strncmp(s->guarded.v[i], worktree, wn) == 0 && s->guarded.v[i][wn] == '/')
			(void)cordon_strv_push(&targets, s->guarded.v[i] + wn + 1);
	cleanup_free char *copy = strdup(was);
	for (char *line = copy, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		(void)cordon_strv_push(&before, line);
	}
	size_t hs = cordon_git_hexsz(gitdir) / 2;
	struct objects o = {cordon_git_odb_open(common, hs), hs, &targets, 0};
	int e = o.db ? cordon_git_refs(gitdir, common, &now) : -ENOMEM;
	char *line = NULL;
	if (e < 0) {
		if (asprintf(&line,
			     "cordon: this session left git's refs in %s in a form cordon cannot "
			     "read (%s): a commit there may hold its own version of a protected "
			     "file, which a git checkout or reset outside would write: review git "
			     "log there first",
			     shown, e == -ENOTSUP ? "reftable" : "out of memory") >= 0)
			found += say_once(said, line);
		goto done;
	}
	const char *head_was = cordon_git_ref_value(&before, "HEAD");
	struct cordon_strv head_had = {0};
	if (head_was)
		(void)commit_entries(&o, head_was, false, &head_had);
	struct refs_judge j = {
		&o,          worktree,  shown,    said,
		&now,        &head_had, head_was, cordon_git_ref_value(&before, "refs/stash"),
		REFS_JUDGED, 0};
	for (size_t i = 0; i < now.n; i++) {
		const char *sp = strchr(now.v[i], ' ');
		char name[PATH_MAX];
		snprintf(name, sizeof(name), "%.*s", (int)(sp - now.v[i]), now.v[i]);
		const char *old = cordon_git_ref_value(&before, name);
		bool head = strcmp(name, "HEAD") == 0;
		if (!head && old && strcmp(old, sp + 1) == 0)
			continue;
		/* A bisect's bounds: git bisect good or bad outside checks out
		 * commits between them, which cordon does not read (round 56d
		 * F5). */
		if (strncmp(name, "refs/bisect/", 12) == 0 &&
		    asprintf(&line,
			     "cordon: in %s, this session left a git bisect (refs/bisect): git "
			     "bisect good or bad outside checks out commits between its bounds, "
			     "which cordon does not read, and one may hold its own version of a "
			     "protected file; review git bisect log (or git bisect reset) there "
			     "first",
			     shown) >= 0)
			found += say_once(said, line);
		if (strcmp(sp + 1, "?") == 0) {
			/* (An unborn branch as it was: nothing to check out.) */
			if (old && strcmp(old, "?") == 0)
				continue;
			char ref[PATH_MAX];
			cordon_printable(name, SIZE_MAX, ref, sizeof(ref));
			if (asprintf(
				    &line,
				    "cordon: in %s, git's ref %s now leads where cordon cannot follow "
				    "(a symbolic ref to a name it does not read): a commit it names "
				    "may hold this session's own version of a protected file; review "
				    "git log %s there first",
				    shown, ref, ref) >= 0)
				found += say_once(said, line);
			continue;
		}
		if (j.budget == 0) {
			j.skipped++;
			continue;
		}
		j.budget--;
		/* (A stash: refs/stash, a rebase's or a merge's autostash: git
		 * applies one.) */
		bool stash = strcmp(name, "refs/stash") == 0 || strstr(name, "autostash") ||
			     strstr(name, "AUTOSTASH");
		char ref[PATH_MAX], what[PATH_MAX + 32];
		cordon_printable(name, SIZE_MAX, ref, sizeof(ref));
		snprintf(what, sizeof(what), "the commit %s names", ref);
		found += judge_commit(&j, sp + 1, old ? old : head_was, stash, stash, what, ref,
				      NULL);
	}
	/* (And what the reflogs and a resumed operation name; the refs'
	 * budget shared.) */
	found += judge_reflogs(&j, gitdir, common, seen, head_was);
	found += judge_todos(s, &j, gitdir, head_was);
	found += judge_patches(s, &j, gitdir);
	cordon_strv_free(&head_had);
	size_t skipped = j.skipped;
	if (skipped &&
	    asprintf(&line,
		     "cordon: this session made or moved %zu more refs (or reflog entries) in %s "
		     "than cordon reads (%d): a commit there may hold its own version of a "
		     "protected file; review git log --all (and git reflog) there first",
		     skipped, shown, REFS_JUDGED) >= 0)
		found += say_once(said, line);
	/* The index's protected entries' blobs, checked too. */
	for (size_t i = 0; i < s->tracked.n; i++)
		if (strncmp(s->tracked.v[i], worktree, wn) == 0 && s->tracked.v[i][wn] == '/')
			blob_checked(&o, strchr(s->tracked.v[i] + wn + 1, '\n') + 1);
	const char *why = NULL;
	if (o.bad == -EBADMSG)
		why = "are not what their names say (this session rewrote the object git "
		      "holds for the protected files there, or one on the way to them): a git "
		      "checkout, restore, stash or reset outside would write what it holds now; "
		      "git fsck names it";
	else if (o.bad == -E2BIG)
		why = "are larger, deeper or in more packs than cordon reads: a commit there may "
		      "hold this session's own version of a protected file; review git log --all "
		      "there first";
	if (why && asprintf(&line, "cordon: git's objects in %s %s", shown, why) >= 0)
		found += say_once(said, line);
done:
	cordon_git_odb_free(o.db);
	cordon_strv_free(&now);
	cordon_strv_free(&before);
	cordon_strv_free(&targets);
	return found;
}

/* The commit-graph and multi-pack-index this session wrote, or whose
 * packs it replaced (WAS: their sums as it started, caches_id), moved
 * aside: git would take a commit's tree, or an object's place, from them
 * without reading the object. Only a cache: git works without it (git
 * commit-graph write makes it again). */
static int judge_caches(const struct cordon_sweep *s, const char *common, const char *was,
			struct cordon_strv *said)
{
	char now[64];
	caches_id(common, now, sizeof(now));
	int moved = 0;
	const char *w = was, *n = now;
	for (size_t g = 0; g < sizeof(caches) / sizeof(*caches); g++) {
		size_t wn = strcspn(w, ","), nn = strcspn(n, ",");
		bool same = wn == nn && strncmp(w, n, wn) == 0;
		w += wn + (w[wn] == ',');
		n += nn + (n[nn] == ',');
		for (size_t i = 0; !same && i < 3 && caches[g].moved[i]; i++) {
			char path[PATH_MAX + 64];
			struct stat st;
			if ((size_t)snprintf(path, sizeof(path), "%s/%s", common,
					     caches[g].moved[i]) >= sizeof(path) ||
			    lstat(path, &st) < 0)
				continue;
			moved += cordon_sweep_disarm_why(
				s, path, "this session wrote (or replaced the packs of) git's",
				"which git trusts for what a commit holds, or where an object lies, "
				"without reading the object (git commit-graph write and git "
				"multi-pack-index write make them again)",
				said);
		}
	}
	return moved;
}

int cordon_sweep_tracked_judge(const struct cordon_sweep *s, struct cordon_strv *said)
{
	int found = 0;
	for (size_t i = 0; i < s->tracked_repos.n; i++) {
		cleanup_free char *repo = strdup(s->tracked_repos.v[i]);
		char *worktree = repo ? strchr(repo, '\n') : NULL;
		char *was = worktree ? strchr(worktree + 1, '\n') : NULL;
		char *sum = was ? strchr(was + 1, '\n') : NULL;
		char *cached = sum ? strchr(sum + 1, '\n') : NULL;
		char *seen = cached ? strchr(cached + 1, '\n') : NULL;
		char *refs = seen ? strchr(seen + 1, '\n') : NULL;
		if (!refs)
			continue;
		*worktree++ = '\0';
		*was++ = '\0';
		*sum++ = '\0';
		*cached++ = '\0';
		*seen++ = '\0';
		*refs++ = '\0';
		char id[96], shown[PATH_MAX];
		struct cordon_strv now = {0};
		int e = tracked_read(s, repo, worktree, id, &now);
		cordon_printable(worktree, SIZE_MAX, shown, sizeof(shown));
		if (strcmp(id, was + (was[0] == '?')) == 0) {
			/* (The same file, untouched.) */
		} else if (e < 0) {
			char *line = NULL;
			if (asprintf(
				    &line,
				    "cordon: this session rewrote git's index in %s in a form cordon "
				    "cannot compare (a split index?): it may hold its own version of "
				    "a protected file there, which a git checkout, restore, stash or "
				    "reset outside would write: review git diff there first",
				    shown) >= 0)
				(void)cordon_strv_push_take(said, line);
			found++;
		} else {
			struct objects same = {NULL, cordon_git_hexsz(repo) / 2, NULL, 0};
			for (size_t k = 0; k < now.n; k++) {
				if (cordon_strv_contains(&s->tracked, now.v[k]) ||
				    entry_as_file(&same, now.v[k], strlen(worktree)))
					continue;
				char name[PATH_MAX], *line = NULL;
				entry_name(now.v[k], strlen(worktree), name, sizeof(name));
				if (asprintf(
					    &line,
					    "cordon: git's index in %s now holds another %s than the "
					    "protected file there (this session staged or committed "
					    "its own): a git checkout, restore, stash or reset outside "
					    "would write it; review git diff -- %s there first",
					    shown, name, name) >= 0)
					(void)cordon_strv_push_take(said, line);
				found++;
			}
		}
		cordon_strv_free(&now);
		char common[PATH_MAX], hex[24];
		bool has_common = common_dir(repo, common, sizeof(common));
		uint64_t replaced = has_common ? replace_sum(common) : 0;
		snprintf(hex, sizeof(hex), "%llx", (unsigned long long)replaced);
		char *line = NULL;
		if (has_common) {
			found += judge_refs(s, repo, worktree, common, refs, seen, shown, said);
			found += judge_caches(s, common, cached, said);
		}
		if (replaced && strcmp(hex, sum) != 0 &&
		    asprintf(&line,
			     "cordon: this session made or changed git's replace refs in %s "
			     "(refs/replace): git outside reads their objects in place of the ones "
			     "they name, a protected file's too; git replace -l lists them, git "
			     "replace -d removes one",
			     shown) >= 0) {
			(void)cordon_strv_push_take(said, line);
			found++;
		}
	}
	return found;
}

/* ---- sessions beside it ----
 *
 * Each session judges the index and refs against its own start. A second
 * session on the same repository could undo a first one's staged plant
 * just before the first one's end and stage it again after: the first
 * found what it started with, the second what it started with (round 54h
 * F3). So what a session holds as it starts is written beside the
 * sweep's records (which no session may write: cordon's state is
 * protected inside), and a session that starts while another runs holds
 * of each repository both hold what the earliest of them held: what was
 * made between the two starts is judged by both. A killed launcher's
 * note (its end never judged) is taken so by the next session on its
 * repositories. */

#define SHARE       "tracked-"
#define SHARE_MAGIC "cordon-tracked 1"
#define SHARE_MAX   (64u << 20) /* a note's bytes read */
#define SHARE_READ  32          /* others' notes read; past them, none */
#define SHARE_DAYS  7           /* a killed launcher's note kept at most */

/* S's held repository at I made OTHER (another session's hold of the
 * same git dir and worktree, as it started), its entries (under
 * WORKTREE/) OTHERS. */
static void repo_take(struct cordon_sweep *s, size_t i, const char *other,
		      const struct cordon_strv *others)
{
	const char *nl = strchr(other, '\n');
	size_t wn = nl ? strcspn(nl + 1, "\n") : 0;
	cleanup_free char *wt = nl ? strndup(nl + 1, wn) : NULL;
	char *copy = wt ? strdup(other) : NULL;
	if (!copy)
		return;
	free(s->tracked_repos.v[i]);
	s->tracked_repos.v[i] = copy;
	size_t k = 0;
	for (size_t e = 0; e < s->tracked.n; e++) {
		const char *t = s->tracked.v[e];
		if (strncmp(t, wt, wn) == 0 && t[wn] == '/')
			free(s->tracked.v[e]);
		else
			s->tracked.v[k++] = s->tracked.v[e];
	}
	s->tracked.n = k;
	for (size_t e = 0; e < others->n; e++)
		(void)cordon_strv_push(&s->tracked, others->v[e]);
}

/* Another session's note TEXT (LEN bytes), written at AT (ns): each
 * repository S holds that it held too, taken from it (repo_take) where
 * it was written before the one taken from yet (FROM, for each of S's
 * repositories; 0: none). Whether S holds each of its repositories. */
static bool share_take(struct cordon_sweep *s, const char *text, size_t len, uint64_t at,
		       uint64_t *from)
{
	const char *end = text + len, *p = text;
	if (strcmp(p, SHARE_MAGIC) != 0)
		return true; /* (none cordon reads) */
	p += strlen(p) + 1;
	bool all = true;
	while (p < end && *p == 'R') {
		const char *repo = p + 1;
		struct cordon_strv entries = {0};
		bool whole = true, held = false;
		for (p += strlen(p) + 1; p < end && *p == 'E'; p += strlen(p) + 1)
			whole = whole && cordon_strv_push(&entries, p + 1) >= 0;
		/* (The same git dir and worktree.) */
		const char *nl = strchr(repo, '\n');
		const char *nl2 = nl ? strchr(nl + 1, '\n') : NULL;
		size_t kn = nl2 ? (size_t)(nl2 - repo) + 1 : 0;
		/* (One since removed has nothing left to judge.) */
		struct stat st;
		char dir[PATH_MAX];
		held = nl &&
		       (size_t)snprintf(dir, sizeof(dir), "%.*s", (int)(nl - repo), repo) <
			       sizeof(dir) &&
		       lstat(dir, &st) < 0 && errno == ENOENT;
		for (size_t i = 0; whole && kn && i < s->tracked_repos.n; i++)
			if (strncmp(s->tracked_repos.v[i], repo, kn) == 0) {
				held = true;
				if (!from[i] || at < from[i]) {
					repo_take(s, i, repo, &entries);
					from[i] = at;
				}
			}
		all = all && held;
		cordon_strv_free(&entries);
	}
	return all;
}

/* S's holds, as a note (malloc'd, its length in *LEN), or NULL. */
static char *share_text(const struct cordon_sweep *s, size_t *len)
{
	size_t total = sizeof(SHARE_MAGIC), cap = 0;
	char *all = NULL;
	if (!cordon_reserve(&all, &cap, total, 4096))
		return NULL;
	memcpy(all, SHARE_MAGIC, total);
	for (size_t i = 0; i < s->tracked_repos.n; i++) {
		const char *repo = s->tracked_repos.v[i];
		const char *nl = strchr(repo, '\n');
		size_t wn = nl ? strcspn(nl + 1, "\n") : 0;
		for (size_t e = 0; nl && e <= s->tracked.n; e++) {
			const char *t = e ? s->tracked.v[e - 1] : repo;
			size_t n = strlen(t) + 1;
			if (e && !(strncmp(t, nl + 1, wn) == 0 && t[wn] == '/'))
				continue;
			if (!cordon_reserve(&all, &cap, total + n + 1, 4096)) {
				free(all);
				return NULL;
			}
			all[total++] = e ? 'E' : 'R';
			memcpy(all + total, t, n);
			total += n;
		}
	}
	*len = total;
	return all;
}

/* The notes in the directory RD (others' holds, taken into S by
 * share_take with FROM; *READ_N counts those read), a killed launcher's
 * removed once taken. */
static void share_read(struct cordon_sweep *s, const char *rd, uint64_t *from, int *read_n)
{
	DIR *d = opendir(rd);
	if (!d)
		return;
	pid_t me = getpid();
	unsigned long long start = cordon_sweep_own_start();
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	for (struct dirent *de; (de = readdir(d));) {
		char *e;
		bool tmp = de->d_name[0] == '.';
		if (strncmp(de->d_name + tmp, SHARE, strlen(SHARE)) != 0)
			continue;
		long pid = strtol(de->d_name + tmp + strlen(SHARE), &e, 10);
		unsigned long long at = *e == '-' ? strtoull(e + 1, &e, 10) : 0;
		if (pid <= 0 || pid > INT_MAX || *e != '\0' || ((pid_t)pid == me && at == start))
			continue;
		bool running = cordon_sweep_running((pid_t)pid, at);
		if (tmp) {
			if (!running)
				(void)unlinkat(dirfd(d), de->d_name, 0);
			continue; /* (being written) */
		}
		/* (Ordered by when each was written, as its session started:
		 * a launcher's start is counted from the last boot.) */
		struct stat st;
		cleanup_free char *path = cordon_join3(rd, "/", de->d_name);
		size_t got = 0;
		char *text = path && (*read_n)++ < SHARE_READ && lstat(path, &st) == 0 &&
					     st.st_uid == geteuid()
				     ? cordon_read_regular(path, SHARE_MAX, &got)
				     : NULL;
		time_t text_at = text ? st.st_mtim.tv_sec : 0;
		uint64_t written = text ? (uint64_t)st.st_mtim.tv_sec * 1000000000u +
						   (uint64_t)st.st_mtim.tv_nsec + 1
					: 0;
		bool all = text ? !from || !got || text[got - 1] != '\0' ||
					   share_take(s, text, got, written, from)
				: *read_n <= SHARE_READ; /* (not read: kept) */
		free(text);
		/* A killed launcher's (its end never judged): taken by the
		 * next session on its repositories, and kept until each was
		 * (a week at most). */
		if (!running && path &&
		    (all || (text_at && now.tv_sec - text_at > (time_t)SHARE_DAYS * 86400)))
			(void)unlinkat(dirfd(d), de->d_name, 0);
	}
	closedir(d);
}

/* TEXT (LEN bytes), S's note, made whole in the directory RD; its path
 * kept in S. */
static void share_write(struct cordon_sweep *s, const char *rd, const char *text, size_t len)
{
	char *path = NULL, tmp[PATH_MAX];
	int me = (int)getpid();
	unsigned long long start = cordon_sweep_own_start();
	if (asprintf(&path, "%s/" SHARE "%d-%llu", rd, me, start) < 0)
		return;
	snprintf(tmp, sizeof(tmp), "%s/." SHARE "%d-%llu", rd, me, start);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	bool ok = fd >= 0 && cordon_write_full(fd, text, len) == 0;
	if (fd >= 0 && close(fd) < 0)
		ok = false;
	if (ok && rename(tmp, path) == 0) {
		/* (Not kept, out of memory: not left either.) */
		if (cordon_strv_push(&s->tracked_notes, path) < 0)
			(void)unlink(path);
	} else {
		(void)unlink(tmp);
	}
	free(path);
}

/* (In each notes directory: a launch with another XDG_STATE_HOME or HOME
 * reads another records directory, round 57a F2.) */
void cordon_sweep_tracked_share(struct cordon_sweep *s)
{
	if (!s->tracked_repos.n)
		return;
	char *dirs[3];
	cordon_sweep_notes_dirs(dirs);
	uint64_t *from = calloc(s->tracked_repos.n, sizeof(*from));
	int read_n = 0;
	for (int i = 0; i < 3; i++)
		if (dirs[i])
			share_read(s, dirs[i], from, &read_n);
	free(from);
	size_t len = 0;
	cleanup_free char *text = share_text(s, &len);
	for (int i = 0; i < 3; i++) {
		if (dirs[i] && text)
			share_write(s, dirs[i], text, len);
		free(dirs[i]);
	}
}

void cordon_sweep_tracked_unshare(struct cordon_sweep *s)
{
	for (size_t i = 0; i < s->tracked_notes.n; i++)
		(void)unlink(s->tracked_notes.v[i]);
	cordon_strv_free(&s->tracked_notes);
}
