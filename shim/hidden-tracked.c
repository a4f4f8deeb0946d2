/* Hidden files a git repository the session reads tracks. Hiding keeps a
 * name unread; the same bytes committed are in the repository's objects,
 * which git reads back (`git show HEAD:.ssh/id_ed25519` in a home kept as a
 * repository, `HEAD:gh/hosts.yml` in a dotfiles repository ~/.config/gh
 * links into). Objects cannot be hidden one by one, so this is said as
 * the session starts and in explain: what the index lists now, or where
 * it lists none, what the commit at HEAD holds (git rm --cached leaves it
 * there); a secret committed once and removed since is not looked for
 * further back in the history. */
#include "hidden-tracked.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cordon/gitconfig.h"
#include "cordon/gitobj.h"
#include "cordon/guard.h"
#include "cordon/policy.h"
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

/* The bare repositories a home is commonly kept in, whose worktree is
 * the home though no .git lies there (round 59c F1, left): the "dotfiles
 * bare repository" (git --git-dir=~/.cfg --work-tree=~, by the names its
 * guides give), yadm's, vcsh's. Only these places: a bare repository
 * elsewhere would cost a walk of the home each launch. */
static const char *const bare_homes[] = {".cfg",
					 ".cfg.git",
					 ".dotfiles",
					 ".dotfiles.git",
					 ".dots",
					 ".dots.git",
					 ".myconf",
					 ".myconfig",
					 ".home.git",
					 ".config.git",
					 ".local/share/yadm/repo.git",
					 ".config/yadm/repo.git"};
#define VCSH_REPOS ".config/vcsh/repo.d"

struct bare {
	char *gitdir, *worktree;
};

static int worktree_key(const struct cordon_gitcfg_entry *e, void *arg)
{
	char **wt = arg;
	if (strcmp(e->section, "core") == 0 && !e->sub && strcmp(e->key, "worktree") == 0 &&
	    e->value) {
		free(*wt);
		if (!(*wt = strdup(e->value)))
			return -ENOMEM;
	}
	return 0;
}

/* GITDIR, when it is a bare repository (HEAD and objects/ in it, as git
 * looks), with its worktree: core.worktree (relative: to GITDIR), else
 * HOME, as the alias gives it. Pushed onto OUT (*N of them). */
static int bare_add(const char *gitdir, const char *home, struct bare **out, size_t *n)
{
	char p[PATH_MAX];
	struct stat st;
	if (snprintf(p, sizeof(p), "%s/objects", gitdir) >= (int)sizeof(p) || stat(p, &st) < 0 ||
	    !S_ISDIR(st.st_mode))
		return 0;
	snprintf(p, sizeof(p), "%s/HEAD", gitdir);
	if (stat(p, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	cleanup_free char *v = NULL;
	snprintf(p, sizeof(p), "%s/config", gitdir);
	if (cordon_gitcfg_read(p, worktree_key, &v) == -ENOMEM)
		return -ENOMEM;
	char joined[PATH_MAX * 2];
	if (v && v[0] != '/')
		snprintf(joined, sizeof(joined), "%s/%s", gitdir, v);
	else
		snprintf(joined, sizeof(joined), "%s", v ? v : home);
	char *wt = realpath(joined, NULL), *gd = realpath(gitdir, NULL);
	struct bare *nv = wt && gd ? realloc(*out, (*n + 1) * sizeof(**out)) : NULL;
	if (!nv) {
		int e = errno == ENOMEM ? -ENOMEM : 0;
		free(wt);
		free(gd);
		return e;
	}
	*out = nv;
	(*out)[(*n)++] = (struct bare){gd, wt};
	return 0;
}

static int bare_find(const char *home, struct bare **out, size_t *n)
{
	char p[PATH_MAX];
	int e = 0;
	for (size_t i = 0; e >= 0 && home && i < ARRAY_SIZE(bare_homes); i++)
		if (snprintf(p, sizeof(p), "%s/%s", home, bare_homes[i]) < (int)sizeof(p))
			e = bare_add(p, home, out, n);
	DIR *d = NULL;
	if (e >= 0 && home && snprintf(p, sizeof(p), "%s/" VCSH_REPOS, home) < (int)sizeof(p))
		d = opendir(p);
	for (struct dirent *de; e >= 0 && d && (de = readdir(d));) {
		size_t l = strlen(de->d_name);
		char g[PATH_MAX];
		if (l > 4 && strcmp(de->d_name + l - 4, ".git") == 0 &&
		    snprintf(g, sizeof(g), "%s/%s", p, de->d_name) < (int)sizeof(g))
			e = bare_add(g, home, out, n);
	}
	if (d)
		closedir(d);
	return e;
}

bool cordon_hidden_bare_there(const char *home)
{
	struct bare *bares = NULL;
	size_t nb = 0;
	(void)bare_find(home, &bares, &nb);
	for (size_t b = 0; b < nb; b++) {
		free(bares[b].gitdir);
		free(bares[b].worktree);
	}
	free(bares);
	return nb > 0;
}

/* Whether the directory DIR of a tree may hold one of L's hidden paths,
 * or lies at or beneath one: the rest of a tree is not read. */
static bool wanted(const struct look *l, const char *dir)
{
	size_t dn = strlen(dir);
	for (size_t k = 0; k < l->n; k++) {
		const char *rel = l->rels[k];
		if (!rel || l->found[k])
			continue;
		size_t n = strlen(rel);
		if ((dn < n && strncmp(rel, dir, dn) == 0 && rel[dn] == '/') ||
		    (dn >= n && strncmp(dir, rel, n) == 0 && (dir[n] == '\0' || dir[n] == '/')))
			return true;
	}
	return false;
}

/* Each entry of the tree TREE (names of HS bytes) in DB, below PREFIX, to
 * each_entry for L, in the directories that may hold L's hidden paths: at
 * most *BUDGET entries, DEPTH levels more. */
static int tree_entries(struct cordon_git_odb *db, const unsigned char *tree, size_t hs,
			const char *prefix, int depth, long *budget, struct look *l)
{
	int type;
	unsigned char *data = NULL;
	size_t len = 0;
	int e = cordon_git_odb_read(db, tree, &type, &data, &len);
	if (e < 0 || type != CORDON_GIT_TREE) {
		free(data);
		return e == -ENOMEM ? e : 0;
	}
	/* "MODE NAME\0OID", one after another. */
	for (size_t at = 0; e >= 0 && at < len && (*budget)-- > 0;) {
		const unsigned char *sp = memchr(data + at, ' ', len - at);
		const unsigned char *nul = sp ? memchr(sp, '\0', len - (size_t)(sp - data)) : NULL;
		if (!nul || (size_t)(nul - data) + 1 + hs > len)
			break;
		unsigned mode = (unsigned)strtoul((const char *)data + at, NULL, 8);
		const char *name = (const char *)sp + 1;
		const unsigned char *oid = nul + 1;
		char *path;
		if (asprintf(&path, "%s%s", prefix, name) < 0) {
			e = -ENOMEM;
			break;
		}
		if (mode == 040000 && depth > 0 && wanted(l, path)) {
			char *below;
			if (asprintf(&below, "%s/", path) < 0)
				e = -ENOMEM;
			else
				e = tree_entries(db, oid, hs, below, depth - 1, budget, l);
			free(below);
		} else if (mode != 040000) {
			e = each_entry(path, mode, oid, hs, l);
		}
		free(path);
		at = (size_t)(oid - data) + hs;
	}
	free(data);
	return e;
}

/* What the commit at HEAD of the repository GITDIR holds, to each_entry
 * for L as the index's entries are: a key untracked with git rm --cached is no
 * longer in the index, but still in HEAD, which git show reads (round
 * 60f F8). 0 where there is none to read; -ENOMEM. */
static int head_entries(const char *gitdir, struct look *l)
{
	struct cordon_strv refs = {0};
	if (cordon_git_refs(gitdir, gitdir, &refs) < 0) {
		cordon_strv_free(&refs);
		return 0;
	}
	const char *hex = cordon_git_ref_value(&refs, "HEAD");
	size_t hs = hex && strlen(hex) == 64 ? 32 : 20;
	unsigned char oid[32], tree[32];
	if (!hex || !cordon_git_oid_parse(hex, hs, oid)) {
		cordon_strv_free(&refs);
		return 0; /* (unborn, or a form not read) */
	}
	cordon_strv_free(&refs);
	struct cordon_git_odb *db = cordon_git_odb_open(gitdir, hs);
	if (!db)
		return -ENOMEM;
	int e = 0, type;
	unsigned char *commit = NULL;
	size_t len = 0;
	int r = cordon_git_odb_read(db, oid, &type, &commit, &len);
	if (r == -ENOMEM)
		e = r;
	else if (r == 0 && type == CORDON_GIT_COMMIT && len > 5 + 2 * hs &&
		 memcmp(commit, "tree ", 5) == 0) {
		char thex[65];
		memcpy(thex, commit + 5, 2 * hs);
		thex[2 * hs] = '\0';
		long budget = 100000;
		if (cordon_git_oid_parse(thex, hs, tree))
			e = tree_entries(db, tree, hs, "", 64, &budget, l);
	}
	free(commit);
	cordon_git_odb_free(db);
	return e;
}

/* L's hidden paths that the repository at GITDIR tracks: its index, and
 * where that lists none of them, the commit at its HEAD. 0, or -ENOMEM. */
static int tracked(const char *gitdir, struct look *l)
{
	if (cordon_git_index_entries(gitdir, each_entry, l) == -ENOMEM)
		return -ENOMEM;
	for (size_t k = 0; k < l->n; k++)
		if (l->rels[k] && l->found[k])
			return 0;
	return head_entries(gitdir, l);
}

int cordon_hidden_bare(const char *home, const char *project, const struct cordon_strv *hidden,
		       struct cordon_strv *gitdirs, struct cordon_strv *entries)
{
	struct bare *bares = NULL;
	size_t nb = 0, n = hidden->n;
	int e = bare_find(home, &bares, &nb);
	char **found = calloc(n ? n : 1, sizeof(*found));
	const char **rels = calloc(n ? n : 1, sizeof(*rels));
	if (e >= 0 && (!found || !rels))
		e = -ENOMEM;
	for (size_t b = 0; e >= 0 && b < nb; b++) {
		const char *wt = bares[b].worktree, *gd = bares[b].gitdir;
		/* (The project's own repository, or a project that is its
		 * worktree: the user's git there, the alias, keeps working.) */
		if (project && (strcmp(project, wt) == 0 || cordon_path_under(project, gd) ||
				cordon_path_under(gd, project)))
			continue;
		size_t wn = strcmp(wt, "/") ? strlen(wt) : 0;
		bool any = false;
		for (size_t k = 0; k < n; k++) {
			found[k] = (free(found[k]), NULL);
			const char *h = hidden->v[k];
			rels[k] = cordon_path_under(h, wt) && h[wn] == '/' &&
						  !cordon_path_under(gd, h)
					  ? h + wn + 1
					  : NULL;
			any |= rels[k] != NULL;
		}
		if (!any)
			continue;
		struct look l = {rels, found, n};
		if (tracked(gd, &l) == -ENOMEM)
			e = -ENOMEM;
		for (size_t k = 0; e >= 0 && k < n; k++)
			if (rels[k] && found[k]) {
				if ((e = cordon_strv_push(gitdirs, gd)) >= 0)
					e = cordon_strv_push(entries, found[k]);
				break;
			}
	}
	for (size_t k = 0; found && k < n; k++)
		free(found[k]);
	free(found);
	free(rels);
	for (size_t b = 0; b < nb; b++) {
		free(bares[b].gitdir);
		free(bares[b].worktree);
	}
	free(bares);
	return e;
}

/* The warning for the hidden path NAMED (of SOURCE) that the index of the
 * repository at TOP (git dir GITDIR when bare, else NULL) lists as
 * ENTRY. */
static int warn(struct cordon_strv *warnings, const char *named, const char *source,
		const char *top, const char *gitdir, const char *entry)
{
	char shown[PATH_MAX + 8], where[PATH_MAX + 8], ent[PATH_MAX + 8], gd[PATH_MAX + 8];
	char *line = NULL;
	if (asprintf(&line,
		     "%s (%s) is tracked by the git repository at %s, whose objects the session "
		     "reads: hidden by its name, its bytes are readable there (git %s%s%sshow "
		     "HEAD:%s); take it out of the repository and its history, or leave the "
		     "repository out of the session's rules",
		     cordon_printable(named, SIZE_MAX, shown, sizeof(shown)), source,
		     cordon_printable(gitdir ? gitdir : top, SIZE_MAX, where, sizeof(where)),
		     gitdir ? "--git-dir=" : "",
		     gitdir ? cordon_printable(gitdir, SIZE_MAX, gd, sizeof(gd)) : "",
		     gitdir ? " " : "", cordon_printable(entry, SIZE_MAX, ent, sizeof(ent))) < 0)
		return -ENOMEM;
	return cordon_strv_push_take(warnings, line);
}

/* GITDIR is hidden itself, or lies in a hidden directory (CANON): a rule
 * above it reads nothing there. */
static bool hidden_itself(const struct cordon_strv *canon, const char *gitdir)
{
	for (size_t i = 0; i < canon->n; i++)
		if (cordon_path_under(gitdir, canon->v[i]))
			return true;
	return false;
}

int cordon_hidden_tracked(const struct cordon_strv *canon, const struct cordon_strv *named,
			  const struct cordon_strv *sources, const char *home,
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
		if (!gitdir || hidden_itself(canon, gitdir) || !readable(gitdir, arg))
			continue;
		size_t tn = strcmp(tops[i], "/") ? strlen(tops[i]) : 0;
		for (size_t k = 0; k < n; k++)
			rels[k] = tops[k] && strcmp(tops[k], tops[i]) == 0 ? canon->v[k] + tn + 1
									   : NULL;
		struct look l = {rels, found, n};
		if (tracked(gitdir, &l) == -ENOMEM)
			e = -ENOMEM;
		for (size_t k = 0; e >= 0 && k < n; k++) {
			if (!rels[k] || !found[k])
				continue;
			e = warn(warnings, named->v[k], sources->v[k], tops[i], NULL, found[k]);
		}
	}
	/* The bare ones whose worktree holds a hidden path: each index read
	 * once, for the paths beneath its worktree (a nearer .git, ~/.config
	 * kept as a repository of its own, does not keep the home's from
	 * tracking them too). */
	struct bare *bares = NULL;
	size_t nb = 0;
	if (e >= 0)
		e = bare_find(home, &bares, &nb);
	for (size_t b = 0; e >= 0 && b < nb; b++) {
		size_t wn = strcmp(bares[b].worktree, "/") ? strlen(bares[b].worktree) : 0;
		bool any = false;
		for (size_t k = 0; k < n; k++) {
			found[k] = (free(found[k]), NULL);
			rels[k] = cordon_path_under(canon->v[k], bares[b].worktree) &&
						  canon->v[k][wn] == '/'
					  ? canon->v[k] + wn + 1
					  : NULL;
			any |= rels[k] != NULL;
		}
		if (!any || hidden_itself(canon, bares[b].gitdir) ||
		    !readable(bares[b].gitdir, arg))
			continue;
		struct look l = {rels, found, n};
		if (tracked(bares[b].gitdir, &l) == -ENOMEM)
			e = -ENOMEM;
		for (size_t k = 0; e >= 0 && k < n; k++)
			if (rels[k] && found[k])
				e = warn(warnings, named->v[k], sources->v[k], bares[b].worktree,
					 bares[b].gitdir, found[k]);
	}
	for (size_t b = 0; b < nb; b++) {
		free(bares[b].gitdir);
		free(bares[b].worktree);
	}
	free(bares);
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
