/* Hidden files a git repository the session reads tracks. Hiding keeps a
 * name unread; the same bytes committed are in the repository's objects,
 * which git reads back (`git show HEAD:.ssh/id_ed25519` in a home kept as a
 * repository, `HEAD:gh/hosts.yml` in a dotfiles repository ~/.config/gh
 * links into). Objects cannot be hidden one by one, so this is said as
 * the session starts and in explain: what the index lists now; a secret
 * committed once and removed since is not looked for in the history. */
#include "hidden-tracked.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cordon/guard.h"
#include "cordon/sweep.h"
#include "util.h"

#define WALK_UP 64 /* directories looked at above a hidden path */

/* Directories already looked at, each with the worktree top found at or
 * above it ("": none): the hidden paths share most of their way up (the
 * home, ~/.config). */
struct memo {
	struct cordon_strv dirs, tops;
};

static const char *memo_find(const struct memo *m, const char *dir)
{
	for (size_t i = 0; i < m->dirs.n; i++)
		if (strcmp(m->dirs.v[i], dir) == 0)
			return m->tops.v[i];
	return NULL;
}

/* The nearest directory above PATH holding a .git (a directory, or a
 * file as a worktree's and a submodule's), into *TOP (NULL: none). */
static int top_above(const char *path, struct memo *m, char **top)
{
	char dir[PATH_MAX];
	*top = NULL;
	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return 0;
	char *slash = strrchr(dir, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	struct cordon_strv walked = {0};
	const char *found = "";
	char *own = NULL;
	int e = 0;
	for (int k = 0; k < WALK_UP && e >= 0; k++) {
		const char *d = dir[0] ? dir : "/";
		const char *known = memo_find(m, d);
		if (known) {
			found = known;
			break;
		}
		e = cordon_strv_push(&walked, d);
		char git[PATH_MAX + 8];
		struct stat st;
		snprintf(git, sizeof(git), "%s/.git", dir);
		if (e >= 0 && lstat(git, &st) == 0 &&
		    (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
			found = own = strdup(d);
			if (!own)
				e = -ENOMEM;
			break;
		}
		if (!dir[0] || !(slash = strrchr(dir, '/')))
			break;
		*slash = '\0';
	}
	for (size_t i = 0; e >= 0 && i < walked.n; i++)
		if ((e = cordon_strv_push(&m->dirs, walked.v[i])) >= 0)
			e = cordon_strv_push(&m->tops, found);
	if (e >= 0 && found[0] && !(*top = strdup(found)))
		e = -ENOMEM;
	free(own);
	cordon_strv_free(&walked);
	return e;
}

/* TOP's git dir: its .git directory, or what its .git file names. */
static char *git_dir_of(const char *top)
{
	char git[PATH_MAX + 8];
	struct stat st;
	snprintf(git, sizeof(git), "%s/.git", strcmp(top, "/") ? top : "");
	if (lstat(git, &st) < 0)
		return NULL;
	return S_ISDIR(st.st_mode) ? strdup(git) : cordon_git_link_file(git, "gitdir: ", top);
}

struct look {
	const char *const *rels; /* each hidden path's, relative to the top; NULL: another top's */
	char **found;            /* the first index entry at or beneath it */
	size_t n;
};

static int each_entry(const char *name, unsigned mode, const unsigned char *oid, size_t hs,
		      void *arg)
{
	(void)mode, (void)oid, (void)hs;
	struct look *l = arg;
	for (size_t i = 0; i < l->n; i++) {
		const char *rel = l->rels[i];
		size_t n = rel ? strlen(rel) : 0;
		if (!rel || l->found[i] || strncmp(name, rel, n) != 0 ||
		    (name[n] != '\0' && name[n] != '/'))
			continue;
		if (!(l->found[i] = strdup(name)))
			return -ENOMEM;
	}
	return 0;
}

int cordon_hidden_tracked(const struct cordon_strv *canon, const struct cordon_strv *named,
			  const struct cordon_strv *sources,
			  bool (*readable)(const char *gitdir, void *arg), void *arg,
			  struct cordon_strv *warnings)
{
	size_t n = canon->n;
	struct memo m = {0};
	char **tops = calloc(n ? n : 1, sizeof(*tops));
	char **found = calloc(n ? n : 1, sizeof(*found));
	const char **rels = calloc(n ? n : 1, sizeof(*rels));
	int e = tops && found && rels ? 0 : -ENOMEM;
	for (size_t i = 0; e >= 0 && i < n; i++)
		e = top_above(canon->v[i], &m, &tops[i]);
	/* Each top once: its index read for every hidden path beneath it. */
	for (size_t i = 0; e >= 0 && i < n; i++) {
		bool first = tops[i] != NULL;
		for (size_t k = 0; first && k < i; k++)
			first = !tops[k] || strcmp(tops[k], tops[i]) != 0;
		if (!first)
			continue;
		cleanup_free char *gitdir = git_dir_of(tops[i]);
		if (!gitdir || !readable(gitdir, arg))
			continue;
		size_t tn = strcmp(tops[i], "/") ? strlen(tops[i]) : 0;
		for (size_t k = 0; k < n; k++)
			rels[k] = tops[k] && strcmp(tops[k], tops[i]) == 0 ? canon->v[k] + tn + 1
									   : NULL;
		struct look l = {rels, found, n};
		if (cordon_git_index_entries(gitdir, each_entry, &l) == -ENOMEM)
			e = -ENOMEM;
		for (size_t k = 0; e >= 0 && k < n; k++) {
			if (!rels[k] || !found[k])
				continue;
			char shown[PATH_MAX + 8], top[PATH_MAX + 8], entry[PATH_MAX + 8];
			char *line = NULL;
			if (asprintf(
				    &line,
				    "%s (%s) is tracked by the git repository at %s, whose objects the "
				    "session reads: hidden by its name, its bytes are readable there "
				    "(git show HEAD:%s); take it out of the repository and its "
				    "history, or leave the repository out of the session's rules",
				    cordon_printable(named->v[k], SIZE_MAX, shown, sizeof(shown)),
				    sources->v[k],
				    cordon_printable(tops[i], SIZE_MAX, top, sizeof(top)),
				    cordon_printable(found[k], SIZE_MAX, entry, sizeof(entry))) < 0)
				e = -ENOMEM;
			else
				e = cordon_strv_push_take(warnings, line);
		}
	}
	for (size_t i = 0; i < n && tops && found; i++) {
		free(tops[i]);
		free(found[i]);
	}
	free(tops);
	free(found);
	free(rels);
	cordon_strv_free(&m.dirs);
	cordon_strv_free(&m.tops);
	return e;
}
