/* The sieve's plan (portable; the Landlock walk is shim/linux/landlock-sieve.c):
 * which rules reach a hidden path or the closed directory, with the hidden
 * paths made canonical as far as they exist. See cordon/guard.h. */
#include <errno.h>
#include <fnmatch.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "redact.h"
#include "util.h"

static bool under_proc(const char *path)
{
	return strncmp(path, "/proc", 5) == 0 && (path[5] == '\0' || path[5] == '/');
}

/* PATH's directory canonical (or its nearest existing parent's, with the
 * rest of the way after it), then PATH's own name: a hidden entry that is a
 * link is skipped as a link, whatever it leads to. Each directory is
 * resolved once (most hidden paths share ~ or ~/.config). NULL (errno
 * set) when not even "/" resolves. */
static char *canonical_entry(const char *path, struct cordon_strv *dirs,
			     struct cordon_strv *canon_dirs, struct cordon_path_cache *cache)
{
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	for (char *slash = strrchr(buf, '/'); slash; slash = strrchr(buf, '/')) {
		*slash = '\0';
		const char *dir = buf[0] ? buf : "/";
		const char *canon = NULL;
		for (size_t i = 0; i < dirs->n && !canon; i++)
			if (strcmp(dirs->v[i], dir) == 0)
				canon = canon_dirs->v[i];
		char *resolved = NULL;
		if (!canon) {
			int e = cordon_path_resolve_cached(dir, NULL, NULL, cache, &resolved);
			if (e == -ENOMEM) {
				errno = ENOMEM;
				return NULL;
			}
			if (e < 0) {
				if (!buf[0])
					break;
				continue;
			}
			if (cordon_strv_push(dirs, dir) < 0 ||
			    cordon_strv_push_take(canon_dirs, resolved) < 0) {
				errno = ENOMEM;
				return NULL;
			}
			canon = resolved;
		}
		char *out;
		if (asprintf(&out, "%s%s%s", canon, strcmp(canon, "/") ? "/" : "",
			     path + (slash - buf) + 1) < 0)
			return NULL;
		return out;
	}
	errno = ENOENT;
	return NULL;
}

/* Where the hidden path PATH is a symbolic link: its target's
 * canonical entry (as canonical_entry), else NULL. The mount plan hides
 * what a link leads to; the sieve must keep that target from a rule too,
 * and it may not exist yet (a dotfiles repository's file, made later). */
static char *link_target(const char *path, struct cordon_strv *dirs, struct cordon_strv *canon_dirs,
			 struct cordon_path_cache *cache)
{
	struct stat st;
	char target[PATH_MAX], joined[PATH_MAX * 2];
	if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
		return NULL;
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	const char *slash = strrchr(path, '/');
	if (target[0] == '/')
		snprintf(joined, sizeof(joined), "%s", target);
	else
		snprintf(joined, sizeof(joined), "%.*s/%s", (int)(slash ? slash - path : 0), path,
			 target);
	return canonical_entry(joined, dirs, canon_dirs, cache);
}

bool cordon_sieve_takes(const char *path)
{
	/* /proc/keys: the session's /proc is its own. The system's secrets
	 * in /etc (/etc/shadow): sieved, /etc would leave every name made
	 * there outside while the session runs unreadable inside, a
	 * resolv.conf or passwd a renewal or a useradd writes anew. Their
	 * covers and the watch keep them. A tool's config the session reads
	 * without its secret (shim/redact.c): not sieved either, its cover
	 * is that copy (or it holds none and is read as it is). */
	return !under_proc(path) && !cordon_path_under(path, "/etc") && !cordon_redact_config(path);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The length of GLOB's parts before the first with a pattern in it (0:
 * "/"). */
/* The length of GLOB's parts before the first with a pattern in it (0:
 * "/"). */
static size_t fixed_part(const char *glob)
{
	size_t fixed = 0;
	for (const char *at = glob; *at;) {
		size_t n = strcspn(at, "/");
		if (!cordon_glob_literal_part(at, n))
			break;
		at += n;
		fixed = (size_t)(at - glob);
		at += strspn(at, "/");
	}
	return fixed;
}

/* DIR (canonical: "" for "/") and REST (a pattern's parts from its first
 * with a pattern, "/..."), into S's globs, once. */
static int push_glob(struct cordon_sieve *s, const char *dir, const char *rest)
{
	char *out = NULL;
	int e = asprintf(&out, "%s%s", dir, rest) < 0 ? -ENOMEM : 0;
	size_t n = strlen(dir);
	if (e >= 0 && !cordon_strv_contains(&s->globs, out)) {
		size_t *nv = realloc(s->glob_fixed, (s->globs.n + 1) * sizeof(*nv));
		if (!nv || cordon_strv_push(&s->globs, out) < 0)
			e = -ENOMEM;
		if (nv) {
			s->glob_fixed = nv;
			if (e >= 0)
				nv[s->globs.n - 1] = n;
		}
	}
	free(out);
	return e;
}

#define MAX_LINKED 256 /* globs added for links on a pattern's way */

/* REST's parts (from a pattern's first with a pattern in it) matched
 * beneath DIR (canonical), DEPTH deep: where one of its directory parts
 * is a symbolic link to a directory, the rest beneath the directory it
 * leads to, as a glob of its own (round 58a F-C: ~/.config/App a link
 * into a dotfiles directory, which another rule granted whole). */
static int add_linked(struct cordon_sieve *s, const char *dir, const char *rest, unsigned depth)
{
	rest += strspn(rest, "/");
	size_t n = strcspn(rest, "/");
	const char *after = rest + n;
	if (!n || !after[strspn(after, "/")] || depth > 8 || s->globs.n >= MAX_LINKED)
		return 0; /* (the last part: a match that is a link is the guards') */
	char part[NAME_MAX + 1], path[PATH_MAX];
	if (n > NAME_MAX)
		return 0;
	memcpy(part, rest, n);
	part[n] = '\0';
	bool literal = cordon_glob_literal_part(rest, n);
	char name[NAME_MAX + 1];
	if (literal && !cordon_glob_unescape(rest, n, name, sizeof(name)))
		return 0;
	DIR *d = literal ? NULL : opendir(dir[0] ? dir : "/");
	if (!literal && !d)
		return 0;
	int e = 0;
	struct dirent *de = NULL;
	/* (Whether a directory below could hold a link on the way: not
	 * where the part after the next is the last. The directory's
	 * entries' kinds from readdir: the default list's patterns read
	 * ~/.config twenty times a launch, with no lstat of each entry.) */
	const char *next = after + strspn(after, "/");
	next += strcspn(next, "/");
	bool deeper = next[strspn(next, "/")] != '\0';
	while (e >= 0 && (literal || (de = readdir(d)))) {
		const char *entry = literal ? name : de->d_name;
		unsigned char type = literal ? DT_UNKNOWN : de->d_type;
		struct stat st;
		char *canon = NULL;
		bool look =
			(literal ||
			 (!cordon_dot_or_dotdot(entry) && fnmatch(part, entry, 0) == 0)) &&
			(type == DT_UNKNOWN || type == DT_LNK || (type == DT_DIR && deeper)) &&
			(size_t)snprintf(path, sizeof(path), "%s/%s", dir, entry) < sizeof(path) &&
			lstat(path, &st) == 0;
		if (look && S_ISDIR(st.st_mode) && deeper) {
			e = add_linked(s, path, after, depth + 1);
		} else if (look && S_ISLNK(st.st_mode) && (canon = realpath(path, NULL)) &&
			   stat(canon, &st) == 0 && S_ISDIR(st.st_mode) &&
			   cordon_sieve_takes(canon)) {
			const char *cdir = strcmp(canon, "/") ? canon : "";
			e = push_glob(s, cdir, after);
			if (e >= 0)
				e = add_linked(s, cdir, after, depth + 1);
		}
		free(canon);
		if (literal)
			break;
	}
	if (d)
		closedir(d);
	return e;
}

/* GLOB (absolute; the parts before its first pattern escaped) into S's
 * globs, those parts canonical (where they exist: else nothing lies
 * beneath them to sieve), and what links on its way lead to. */
static int add_glob(struct cordon_sieve *s, const char *glob, struct cordon_path_cache *cache)
{
	size_t fixed = fixed_part(glob);
	char dir[PATH_MAX];
	if (!cordon_glob_unescape(glob, fixed ? fixed : 1, dir, sizeof(dir)))
		return 0;
	char *canon = NULL;
	int e = cordon_path_resolve_cached(dir, NULL, NULL, cache, &canon);
	if (e < 0 || !cordon_sieve_takes(canon)) {
		free(canon);
		return e == -ENOMEM ? e : 0;
	}
	const char *cdir = strcmp(canon, "/") ? canon : "";
	e = push_glob(s, cdir, glob + fixed);
	if (e >= 0)
		e = add_linked(s, cdir, glob + fixed, 0);
	free(canon);
	return e;
}

int cordon_sieve_init(const struct cordon_policy *p, const char *closed, struct cordon_sieve *s)
{
	memset(s, 0, sizeof(*s));
	s->closed = closed;
	s->p = p;
	struct cordon_path_cache cache = {0};
	struct cordon_strv dirs = {0}, canon_dirs = {0};
	int r = 0;
	for (size_t i = 0; r >= 0 && i < p->n_guards; i++) {
		const struct cordon_guard *g = &p->guards[i];
		if (!(g->kind & CORDON_GUARD_HIDE) || !cordon_sieve_takes(g->path))
			continue;
		char *canon = canonical_entry(g->path, &dirs, &canon_dirs, &cache);
		if (!canon)
			r = errno == ENOMEM ? -ENOMEM : 0;
		else
			r = cordon_strv_push_take(&s->hidden, canon);
		char *target = r >= 0 ? link_target(g->path, &dirs, &canon_dirs, &cache) : NULL;
		if (target)
			r = cordon_strv_push_take(&s->hidden, target);
	}
	/* (Sorted: a sieve looks at each entry of the directories it
	 * walks, thousands under ~/.config with the default patterns.) */
	if (r >= 0 && s->hidden.n)
		qsort(s->hidden.v, s->hidden.n, sizeof(*s->hidden.v), by_name);
	for (size_t i = 0; r >= 0 && i < p->hidden_globs.n; i++)
		r = add_glob(s, p->hidden_globs.v[i], &cache);
	/* A run's rules are absolute, not canonical (the kernel resolves
	 * them): compared with the canonical hidden paths and closed
	 * directory, one written through a link (~/.config leading into a
	 * dotfiles repository) would never be sieved. */
	if (r >= 0 && p->n_rules && !(s->rules = calloc(p->n_rules, sizeof(*s->rules))))
		r = -ENOMEM;
	for (size_t i = 0; r >= 0 && i < p->n_rules; i++) {
		char *canon = NULL;
		/* (One walked as the policy was resolved is its own path, and
		 * is opened following no link: a link laid on it since must not
		 * be followed here either, round 34b R2.) */
		if (under_proc(p->rules[i].path) || p->rules[i].nofollow)
			continue;
		int e = cordon_path_resolve_cached(p->rules[i].path, NULL, NULL, &cache, &canon);
		if (e == -ENOMEM)
			r = e;
		else if (e == 0 && strcmp(canon, p->rules[i].path) != 0)
			s->rules[i] = canon;
		else
			free(canon);
	}
	cordon_strv_free(&dirs);
	cordon_strv_free(&canon_dirs);
	cordon_path_cache_free(&cache);
	if (r < 0)
		cordon_sieve_free(s);
	return r;
}

void cordon_sieve_free(struct cordon_sieve *s)
{
	cordon_strv_free(&s->hidden);
	cordon_strv_free(&s->globs);
	free(s->glob_fixed);
	s->glob_fixed = NULL;
	for (size_t i = 0; s->rules && s->p && i < s->p->n_rules; i++)
		free(s->rules[i]);
	free(s->rules);
	s->rules = NULL;
	s->closed = NULL;
}

const char *cordon_sieve_rule_path(const struct cordon_sieve *s, const struct cordon_rule *rule)
{
	if (s->rules && s->p && rule >= s->p->rules && rule < s->p->rules + s->p->n_rules &&
	    s->rules[rule - s->p->rules])
		return s->rules[rule - s->p->rules];
	return rule->path;
}

/* The first of S's hidden paths (sorted) that is not before KEY. */
static size_t lower_bound(const struct cordon_sieve *s, const char *key)
{
	size_t lo = 0, hi = s->hidden.n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(s->hidden.v[mid], key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether GLOB (I of S's) could match PATH (AT: PATH itself; else
 * something strictly beneath it). Its part before the first pattern is
 * a name as it is (canonical, unescaped): a plain prefix, a path beside
 * it passed over without a pattern's look. */
static bool glob_reaches(const struct cordon_sieve *s, size_t i, const char *path, bool at)
{
	const char *glob = s->globs.v[i];
	size_t fixed = s->glob_fixed[i], n = strlen(path);
	if (n <= fixed)
		return !at && (n == 1 || (strncmp(glob, path, n) == 0 && glob[n] == '/'));
	return strncmp(glob, path, fixed) == 0 && path[fixed] == '/' &&
	       cordon_glob_meet(glob + fixed, path + fixed) ==
		       (at ? CORDON_GLOB_AT : CORDON_GLOB_ABOVE);
}

bool cordon_sieve_hides_beneath(const struct cordon_sieve *s, const char *dir)
{
	char key[PATH_MAX + 1];
	int n = snprintf(key, sizeof(key), "%s/", strcmp(dir, "/") ? dir : "");
	size_t at = n > 0 && (size_t)n < sizeof(key) ? lower_bound(s, key) : 0;
	if (at < s->hidden.n && strncmp(s->hidden.v[at], key, (size_t)n) == 0)
		return true;
	for (size_t i = 0; i < s->globs.n; i++)
		if (glob_reaches(s, i, dir, false))
			return true;
	return false;
}

bool cordon_sieve_hidden(const struct cordon_sieve *s, const char *path)
{
	size_t at = lower_bound(s, path);
	if (at < s->hidden.n && strcmp(s->hidden.v[at], path) == 0)
		return true;
	for (size_t i = 0; i < s->globs.n; i++)
		if (glob_reaches(s, i, path, true))
			return true;
	return false;
}

bool cordon_sieve_toward_closed(const struct cordon_sieve *s, const char *dir, bool writes)
{
	return writes && s->closed && cordon_path_under(s->closed, dir);
}

bool cordon_sieve_needed(const struct cordon_sieve *s, const struct cordon_rule *rule)
{
	const char *path = cordon_sieve_rule_path(s, rule);
	if (under_proc(path))
		return false;
	return cordon_sieve_toward_closed(s, path, rule->access & CORDON_ACCESS_WRITE) ||
	       cordon_sieve_hides_beneath(s, path);
}
