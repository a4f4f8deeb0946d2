/* Path resolution: "~" expansion, absolute, canonical.
 *
 * Canonical as realpath(3) makes it: every symlink followed, "." and ".."
 * applied to the resolved prefix, the path must exist. realpath asks the
 * kernel about every prefix of every path (readlink on /usr, then on
 * /usr/lib, ...): 107 readlink calls and ~120 us for the default policy,
 * most of them for the same few directories (/usr, /dev, $HOME). The
 * resolver below does the same walk but remembers, for one batch of paths,
 * the prefixes it has already found to be real directories. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "util.h"

/* Symlinks followed per path before giving up (ELOOP), as the kernel. */
#define MAX_LINKS 40

/* The sets hold up to this many paths each (a launch sees ~650 distinct
 * ones); past it, only slower. */
#define SET_MAX    8192

#define HASH_EMPTY 1469598103934665603ULL /* FNV-1a */

/* H (the hash of what came before) carried on over the N bytes at S. */
static uint64_t hash_on(uint64_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static size_t hash_of(const char *s, size_t n)
{
	return (size_t)hash_on(HASH_EMPTY, s, n);
}

/* The slot of the first N bytes of PATH, whose hash is H, in SET (cap a
 * power of two): where it is, or the free one where it would go. */
static size_t slot_at(const struct cordon_path_set *set, const char *path, size_t n, size_t h)
{
	size_t mask = set->cap - 1, i = h & mask;
	/* (Its length first: a shorter one stored is not read past its end,
	 * round 33e N6.) */
	while (set->v[i] && (set->len[i] != n || memcmp(set->v[i], path, n) != 0))
		i = (i + 1) & mask;
	return i;
}

static size_t slot_of(const struct cordon_path_set *set, const char *path, size_t n)
{
	return slot_at(set, path, n, hash_of(path, n));
}

static bool set_has_at(const struct cordon_path_set *set, const char *path, size_t n, size_t h)
{
	return set->cap && set->v[slot_at(set, path, n, h)];
}

static bool set_has(const struct cordon_path_set *set, const char *path, size_t n)
{
	return set->cap && set->v[slot_of(set, path, n)];
}

static void set_add(struct cordon_path_set *set, const char *path)
{
	size_t n = strlen(path);
	if (set_has(set, path, n) || set->n >= SET_MAX)
		return; /* there, or full: only slower */
	if ((set->n + 1) * 2 > set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 128;
		struct cordon_path_set grown = {calloc(cap, sizeof(char *)),
						calloc(cap, sizeof(size_t)), set->n, cap};
		if (!grown.v || !grown.len) {
			free(grown.v);
			free(grown.len);
			return;
		}
		for (size_t i = 0; i < set->cap; i++)
			if (set->v[i]) {
				size_t k = slot_of(&grown, set->v[i], set->len[i]);
				grown.v[k] = set->v[i];
				grown.len[k] = set->len[i];
			}
		free(set->v);
		free(set->len);
		*set = grown;
	}
	char *s = strdup(path);
	if (s) {
		size_t k = slot_of(set, path, n);
		set->v[k] = s;
		set->len[k] = n;
		set->n++;
	}
}

static void set_free(struct cordon_path_set *set)
{
	for (size_t i = 0; i < set->cap; i++)
		free(set->v[i]);
	free(set->v);
	free(set->len);
	*set = (struct cordon_path_set){0};
}

static bool cache_has(const struct cordon_path_cache *c, const char *path)
{
	return c && set_has(&c->dirs, path, strlen(path));
}

/* The same for the first N bytes of PATH, whose hash is H. */
static bool cache_has_at(const struct cordon_path_cache *c, const char *path, size_t n, size_t h)
{
	return c && set_has_at(&c->dirs, path, n, h);
}

bool cordon_path_cache_dir(const struct cordon_path_cache *c, const char *path)
{
	return cache_has(c, path);
}

static void cache_add(struct cordon_path_cache *c, const char *path)
{
	if (c)
		set_add(&c->dirs, path);
}

static unsigned made_gen;

void cordon_path_made(void)
{
	made_gen++;
}

static void forget_missing(struct cordon_path_cache *c)
{
	set_free(&c->miss);
	c->gen = made_gen;
}

/* Whether the first N bytes of PATH (hash H) are a path CACHE found
 * missing: canonicalize asks only of the whole of what it resolved so
 * far, all above it having been walked through. */
static bool missing_at(struct cordon_path_cache *c, const char *path, size_t n, size_t h)
{
	if (!c)
		return false;
	if (c->gen != made_gen)
		forget_missing(c);
	return c->miss.n && set_has_at(&c->miss, path, n, h);
}

bool cordon_path_cache_missing(struct cordon_path_cache *c, const char *path)
{
	/* (It, or a directory on its way.) */
	if (!path[0])
		return false;
	uint64_t h = HASH_EMPTY;
	size_t done = 0;
	for (size_t n = 1;; n++) {
		if (path[n] != '/' && path[n] != '\0')
			continue;
		h = hash_on(h, path + done, n - done);
		done = n;
		if (missing_at(c, path, n, (size_t)h))
			return true;
		if (!path[n])
			return false;
	}
}

static void add_missing(struct cordon_path_cache *c, const char *path)
{
	if (c)
		set_add(&c->miss, path);
}

void cordon_path_cache_free(struct cordon_path_cache *c)
{
	set_free(&c->dirs);
	forget_missing(c);
}

/* Is the resolved prefix RES a directory? Known from CACHE, else asked (and
 * remembered). */
static int check_dir(struct cordon_path_cache *cache, const char *res)
{
	if (!*res || cache_has(cache, res))
		return 0;
	struct stat st;
	if (stat(res, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	cache_add(cache, res);
	return 0;
}

/* realpath(ABS) for an absolute ABS, with CACHE (may be NULL). A prefix goes
 * into the cache once the kernel has walked through it (a readlink below it
 * that did not fail with ENOTDIR) or a stat said it is a directory. */
static int canonicalize(const char *abs, struct cordon_path_cache *cache, char **out)
{
	char res[PATH_MAX] = "";     /* the resolved prefix, "" standing for "/" */
	char rest[2 * PATH_MAX + 1]; /* what is left to resolve */
	size_t rlen = 0;
	uint64_t rh = HASH_EMPTY; /* the hash of RES, carried on as it grows */
	int links = 0;
	size_t alen = strlen(abs);
	if (alen >= PATH_MAX)
		return -ENAMETOOLONG;
	bool want_dir = abs[alen - 1] == '/';
	memcpy(rest, abs, alen + 1);
	char *p = rest;
	while (*p) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		if (n == 0)
			break;
		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.')) {
			int r = check_dir(cache, res); /* "file/.." is ENOTDIR */
			if (r < 0)
				return r;
			if (n == 2) {
				char *slash = strrchr(res, '/');
				rlen = slash ? (size_t)(slash - res) : 0;
				res[rlen] = '\0';
				rh = hash_on(HASH_EMPTY, res, rlen);
			}
			p += n;
			continue;
		}
		if (rlen + 1 + n >= PATH_MAX)
			return -ENAMETOOLONG;
		size_t parent = rlen;
		uint64_t parent_h = rh;
		res[rlen] = '/';
		memcpy(res + rlen + 1, p, n);
		res[rlen + 1 + n] = '\0';
		p += n;
		uint64_t h = hash_on(rh, res + rlen, 1 + n);
		if (cache_has_at(cache, res, rlen + 1 + n, (size_t)h)) {
			rlen += 1 + n;
			rh = h;
			continue;
		}
		if (missing_at(cache, res, rlen + 1 + n, (size_t)h))
			return -ENOENT;
		char target[PATH_MAX];
		ssize_t tl = readlink(res, target, sizeof(target) - 1);
		int e = tl < 0 ? errno : 0;
		if (e == ENOENT)
			add_missing(cache, res);
		if (e != ENOTDIR && parent > 0) {
			/* The kernel walked through the parent: a directory. */
			res[parent] = '\0';
			cache_add(cache, res);
			res[parent] = '/';
		}
		if (tl < 0) {
			if (e != EINVAL)
				return -e; /* ENOENT, ENOTDIR, EACCES, ... */
			rlen += 1 + n;     /* exists, not a symlink */
			rh = h;
			continue;
		}
		if (++links > MAX_LINKS)
			return -ELOOP;
		target[tl] = '\0';
		/* Splice: the target, then what was left after this component. */
		char next[2 * PATH_MAX + 1];
		size_t plen = strlen(p);
		if ((size_t)tl + plen + 1 > sizeof(next))
			return -ENAMETOOLONG;
		memcpy(next, target, (size_t)tl);
		memcpy(next + tl, p, plen + 1);
		memcpy(rest, next, (size_t)tl + plen + 1);
		p = rest;
		rlen = target[0] == '/' ? 0 : parent; /* relative: from the link's directory */
		rh = target[0] == '/' ? HASH_EMPTY : parent_h;
		res[rlen] = '\0';
	}
	if (want_dir) {
		int r = check_dir(cache, res);
		if (r < 0)
			return r;
	}
	*out = strdup(rlen ? res : "/");
	return *out ? 0 : -ENOMEM;
}

/* A path through /dev/fd resolves to /proc/<our pid>/fd. Our pid is the
 * shell's (the launcher execs it), but a policy must not depend on it: map it
 * back to /proc/self so the rule means "the process itself" wherever it is
 * applied. */
static int unpin_proc_self(char **path)
{
	if (!*path || strncmp(*path, "/proc/", 6) != 0)
		return 0;
	char prefix[32];
	int n = snprintf(prefix, sizeof(prefix), "/proc/%d", (int)getpid());
	size_t len = (size_t)n;
	if (strncmp(*path, prefix, len) != 0 || ((*path)[len] != '/' && (*path)[len] != '\0'))
		return 0;
	char *out;
	if (asprintf(&out, "/proc/self%s", *path + len) < 0)
		return -ENOMEM;
	free(*path);
	*path = out;
	return 0;
}

int cordon_path_absolute(const char *in, const char *home, const char *base, char **out)
{
	char *abs = NULL;
	if (in[0] == '~' && (in[1] == '\0' || in[1] == '/')) {
		if (!home || home[0] != '/')
			return -ENOENT; /* no home: nothing to expand to */
		if (!(abs = cordon_join3(home, in + 1, "")))
			return -ENOMEM;
	} else if (in[0] == '/') {
		abs = strdup(in);
	} else {
		cleanup_free char *cwd = NULL;
		if (!base) {
			cwd = getcwd(NULL, 0);
			if (!cwd)
				return -errno;
			base = cwd;
		}
		if (!(abs = cordon_join3(base, "/", in)))
			return -ENOMEM;
	}
	if (!abs)
		return -ENOMEM;
	if (abs[0] != '/') {
		free(abs);
		return -ENOENT; /* a relative base or home */
	}
	*out = abs;
	return 0;
}

bool cordon_path_dotted(const char *path)
{
	size_t len = strlen(path);
	if (len > 1 && path[len - 1] == '/')
		return true;
	for (const char *c = path; *c;) {
		size_t n = strcspn(c, "/");
		if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.') ||
		    (n == 0 && c != path))
			return true;
		c += n + (c[n] == '/');
	}
	return false;
}

char *cordon_path_lexical(const char *path)
{
	size_t len = strlen(path);
	char *out = malloc(len + 2);
	if (!out)
		return NULL;
	size_t n = 0;
	for (const char *c = path; *c;) {
		size_t k = strcspn(c, "/");
		if (k == 2 && c[0] == '.' && c[1] == '.') {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--; /* (the slash before it; "/.." is "/") */
		} else if (k && !(k == 1 && c[0] == '.')) {
			out[n++] = '/';
			memcpy(out + n, c, k);
			n += k;
		}
		c += k + (c[k] == '/');
	}
	if (n == 0)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}

/* PATH (absolute, "." and ".." taken away) names a descriptor:
 * /dev/std{in,out,err}, /dev/fd/N, /proc/{self,thread-self,PID}/fd/N
 * (and a task's). */
bool cordon_path_descriptor_name(const char *path)
{
	if (strcmp(path, "/dev/stdin") == 0 || strcmp(path, "/dev/stdout") == 0 ||
	    strcmp(path, "/dev/stderr") == 0 || cordon_path_under(path, "/dev/fd"))
		return true;
	if (strncmp(path, "/proc/", 6) != 0)
		return false;
	const char *at = path + 6;
	for (int level = 0; level < 2; level++) {
		size_t n = strcspn(at, "/");
		bool id = n && strspn(at, "0123456789") == n;
		if (!id && !(level == 0 && ((n == 4 && strncmp(at, "self", 4) == 0) ||
					    (n == 11 && strncmp(at, "thread-self", 11) == 0))))
			return false;
		at += n;
		if (strncmp(at, "/fd", 3) == 0 && (at[3] == '/' || at[3] == '\0'))
			return true;
		if (level > 0 || strncmp(at, "/task/", 6) != 0)
			return false;
		at += 6;
	}
	return false;
}

/* Whether PATH (absolute) names, or leads through a link on its way to,
 * something in /proc or a descriptor's name: its text alone missed
 * /proc/self/root/dev/fd/7, /proc/PID/cwd/fd/7 from /dev, and a link to
 * /dev/fd (review 40e F1). ".." is taken as text, as a guard's name is. */
static bool meets_proc(const char *path)
{
	char now[PATH_MAX];
	if (snprintf(now, sizeof(now), "%s", path) >= (int)sizeof(now))
		return false;
	for (int links = 0; links < 40; links++) {
		cleanup_free char *lex = cordon_path_lexical(now);
		if (!lex)
			return false;
		if (cordon_path_under(lex, "/proc") || cordon_path_descriptor_name(lex))
			return true;
		/* The first link on its way, and where it leads with the rest. */
		char at[PATH_MAX];
		size_t n = 0;
		const char *c = lex + 1;
		for (;;) {
			size_t k = strcspn(c, "/");
			struct stat st;
			if (!k || n + 1 + k >= sizeof(at))
				return false;
			at[n++] = '/';
			memcpy(at + n, c, k);
			n += k;
			at[n] = '\0';
			if (lstat(at, &st) < 0)
				return false;
			if (S_ISLNK(st.st_mode))
				break;
			if (!c[k])
				return false;
			c += k + 1;
		}
		char to[PATH_MAX];
		ssize_t tl = readlink(at, to, sizeof(to) - 1);
		if (tl <= 0)
			return false;
		to[tl] = '\0';
		const char *rest = c + strcspn(c, "/");
		*strrchr(at, '/') = '\0'; /* the link's directory */
		int w = to[0] == '/' ? snprintf(now, sizeof(now), "%s%s", to, rest)
				     : snprintf(now, sizeof(now), "%s/%s%s", at, to, rest);
		if (w < 0 || w >= (int)sizeof(now))
			return false;
	}
	return false;
}

int cordon_path_past_descriptor(const char *path, char **out)
{
	*out = NULL;
	cleanup_free char *lexical = cordon_path_lexical(path);
	if (!lexical)
		return -ENOMEM;
	if (!meets_proc(lexical))
		return 0;
	char near[PATH_MAX];
	struct stat st;
	if (cordon_path_nearest(lexical, near, sizeof(near), &st) < 0)
		return -EBADF;
	cleanup_free char *real = realpath(near, NULL);
	if (!real)
		return errno == ENOMEM ? -ENOMEM : -EBADF;
	/* Still a descriptor's (the fd closed: /proc/self/fd itself), or
	 * /proc: no file or directory of the file system's. */
	if (cordon_path_descriptor_name(real) || cordon_path_under(real, "/proc"))
		return -EBADF;
	if (asprintf(out, "%s%s", real, lexical + strlen(near)) < 0) {
		*out = NULL;
		return -ENOMEM;
	}
	return 1;
}

int cordon_path_resolve_cached(const char *in, const char *home, const char *base,
			       struct cordon_path_cache *cache, char **out)
{
	cleanup_free char *abs = NULL;
	int r = cordon_path_absolute(in, home, base, &abs);
	if (r < 0 || !abs)
		return r < 0 ? r : -ENOMEM;
	char *canon = NULL;
	r = canonicalize(abs, cache, &canon);
	if (r < 0)
		return r;
	r = unpin_proc_self(&canon);
	if (r < 0) {
		free(canon);
		return r;
	}
	*out = canon;
	return 0;
}

int cordon_path_nearest(const char *path, char *out, size_t size, struct stat *st)
{
	if (snprintf(out, size, "%s", path) >= (int)size)
		return -ENAMETOOLONG;
	for (char *slash;;) {
		if (lstat(out, st) == 0)
			return 0;
		if ((slash = strrchr(out, '/')) == NULL || slash == out)
			return -ENOENT;
		*slash = '\0';
	}
}

int cordon_path_nearest_cached(struct cordon_path_cache *c, const char *path, char *out,
			       size_t size)
{
	if (snprintf(out, size, "%s", path) >= (int)size)
		return -ENAMETOOLONG;
	for (char *slash;;) {
		struct stat st;
		if (cordon_path_cache_dir(c, out) ||
		    (!cordon_path_cache_missing(c, out) && lstat(out, &st) == 0))
			return 0;
		if ((slash = strrchr(out, '/')) == NULL || slash == out)
			return -ENOENT;
		*slash = '\0';
	}
}

int cordon_path_resolve(const char *in, const char *home, const char *base, char **out)
{
	return cordon_path_resolve_cached(in, home, base, NULL, out);
}
