/* The sieve's plan (portable; the Landlock walk is shim/linux/landlock-sieve.c):
 * which rules reach a hidden path or the closed directory, with the hidden
 * paths made canonical as far as they exist. See cordon/guard.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/guard.h"
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
	 * covers and the watch keep them. */
	return !under_proc(path) && !cordon_path_under(path, "/etc");
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

bool cordon_sieve_hides_beneath(const struct cordon_sieve *s, const char *dir)
{
	for (size_t i = 0; i < s->hidden.n; i++)
		if (strcmp(s->hidden.v[i], dir) != 0 && cordon_path_under(s->hidden.v[i], dir))
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
