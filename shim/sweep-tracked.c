/* Protected files git tracks, looked at through git's index (see
 * cordon/sweep.h, cordon_sweep_tracked_hold). A protected file is
 * read-only inside, but its repository's .git is the session's to write:
 * a session that stages or commits its own version of .envrc or
 * .vscode/tasks.json leaves it in the index, and git checkout -- . (or
 * restore, stash, reset --hard) outside writes it over the user's file
 * (round 52a F4). The index holds each entry's object id: the entries
 * under a protected path are kept as the session starts and compared as
 * it ends. Runs outside the sandbox. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	char id[96];
	struct cordon_strv entries = {0};
	int e = tracked_read(s, gitdir, worktree, id, &entries);
	/* (One not read whole as the session starts cannot be compared: not
	 * kept. Out of memory: neither.) */
	char *repo = NULL;
	if (e >= 0 && asprintf(&repo, "%s\n%s\n%s", gitdir, worktree, id) >= 0 &&
	    cordon_strv_push_take(&s->tracked_repos, repo) >= 0)
		for (size_t i = 0; i < entries.n && e >= 0; i++)
			e = cordon_strv_push(&s->tracked, entries.v[i]);
	cordon_strv_free(&entries);
	return e < 0 && e != -ENOMEM ? 0 : e;
}

/* ENTRY ("WORKTREE/NAME\nMODE OID") as the user reads its NAME. */
static void entry_name(const char *entry, size_t worktree_len, char *out, size_t size)
{
	const char *name = entry + worktree_len + 1, *nl = strchr(name, '\n');
	cordon_printable(name, nl ? (size_t)(nl - name) : strlen(name), out, size);
}

int cordon_sweep_tracked_judge(const struct cordon_sweep *s, struct cordon_strv *said)
{
	int found = 0;
	for (size_t i = 0; i < s->tracked_repos.n; i++) {
		cleanup_free char *repo = strdup(s->tracked_repos.v[i]);
		char *worktree = repo ? strchr(repo, '\n') : NULL;
		char *was = worktree ? strchr(worktree + 1, '\n') : NULL;
		if (!was)
			continue;
		*worktree++ = '\0';
		*was++ = '\0';
		char id[96], shown[PATH_MAX];
		struct cordon_strv now = {0};
		int e = tracked_read(s, repo, worktree, id, &now);
		cordon_printable(worktree, SIZE_MAX, shown, sizeof(shown));
		if (strcmp(id, was) == 0) {
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
			for (size_t k = 0; k < now.n; k++) {
				if (cordon_strv_contains(&s->tracked, now.v[k]))
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
	}
	return found;
}
