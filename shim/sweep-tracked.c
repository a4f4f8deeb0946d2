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
#include <dirent.h>
#include <stdint.h>
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

/* ---- what git reads in place of an entry's object ----
 *
 * The index and HEAD unchanged, a session can still change what git
 * checkout writes for an entry (round 53e F3): a replace ref
 * (refs/replace/OID, git replace) has git read another object in place
 * of the one named, and a loose object file rewritten under its name is
 * read as it is (git does not check it against its name). Both are
 * looked at; a new pack holding another object of the same name is not
 * (its objects are compressed, and cordon reads none). */

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

#define LOOSE_MAX (1u << 20) /* a loose object longer is taken by its inode and size */

/* The identity of the loose object file OBJ into ID ("-": none): its
 * inode, size and a sum of its bytes (not its times: git freshens an
 * object it would write again by touching it). */
static void loose_id(const char *obj, char id[64])
{
	struct stat st;
	id[0] = '-', id[1] = '\0';
	FILE *f = cordon_fopen_regular(obj);
	if (!f || fstat(fileno(f), &st) < 0) {
		if (f)
			(void)fclose(f);
		return;
	}
	uint64_t h = 14695981039346656037ull;
	char buf[4096];
	size_t got;
	while (st.st_size <= LOOSE_MAX && (got = fread(buf, 1, sizeof(buf), f)) > 0)
		h = fnv(h, buf, got);
	(void)fclose(f); /* read only */
	snprintf(id, 64, "%llx:%llx:%llx", (unsigned long long)st.st_ino,
		 (unsigned long long)st.st_size, (unsigned long long)h);
}

/* The loose object file of ENTRY ("PATH\nMODE OID") in COMMON, into OBJ,
 * and its identity into ID (loose_id). */
static void loose_of(const char *common, const char *entry, char *obj, size_t osize, char id[64])
{
	const char *oid = strrchr(entry, ' ');
	id[0] = '-', id[1] = '\0';
	if (!oid || strlen(oid + 1) < 3 ||
	    (size_t)snprintf(obj, osize, "%s/objects/%.2s/%s", common, oid + 1, oid + 3) >= osize)
		return;
	loose_id(obj, id);
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
	char *repo = NULL, common[PATH_MAX];
	bool has_common = common_dir(gitdir, common, sizeof(common));
	if (e >= 0 &&
	    asprintf(&repo, "%s\n%s\n%s\n%llx", gitdir, worktree, id,
		     has_common ? (unsigned long long)replace_sum(common) : 0ull) >= 0 &&
	    cordon_strv_push_take(&s->tracked_repos, repo) >= 0)
		for (size_t i = 0; i < entries.n && e >= 0; i++) {
			char obj[PATH_MAX + 64], oid_id[64], *held = NULL;
			e = cordon_strv_push(&s->tracked, entries.v[i]);
			if (e < 0 || !has_common)
				continue;
			loose_of(common, entries.v[i], obj, sizeof(obj), oid_id);
			if (strcmp(oid_id, "-") != 0 &&
			    (asprintf(&held, "%s\n%s\n%s", entries.v[i], obj, oid_id) < 0 ||
			     cordon_strv_push_take(&s->tracked_objects, held) < 0))
				e = -ENOMEM;
		}
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
		char *sum = was ? strchr(was + 1, '\n') : NULL;
		if (!sum)
			continue;
		*worktree++ = '\0';
		*was++ = '\0';
		*sum++ = '\0';
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
		char common[PATH_MAX], hex[24];
		uint64_t replaced =
			common_dir(repo, common, sizeof(common)) ? replace_sum(common) : 0;
		snprintf(hex, sizeof(hex), "%llx", (unsigned long long)replaced);
		char *line = NULL;
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
	/* A protected entry's loose object rewritten under its name. */
	for (size_t i = 0; i < s->tracked_objects.n; i++) {
		cleanup_free char *held = strdup(s->tracked_objects.v[i]);
		char *obj = held ? strchr(held, '\n') : NULL;
		obj = obj ? strchr(obj + 1, '\n') : NULL; /* (past "PATH\nMODE OID") */
		char *id = obj ? strchr(obj + 1, '\n') : NULL;
		if (!id)
			continue;
		*obj++ = '\0';
		*id++ = '\0';
		char now[64], shown[PATH_MAX], *line = NULL;
		loose_id(obj, now);
		if (strcmp(now, "-") == 0)
			continue; /* (packed since: git gc) */
		char *nl = strchr(held, '\n');
		cordon_printable(held, nl ? (size_t)(nl - held) : strlen(held), shown,
				 sizeof(shown));
		if (strcmp(now, id) != 0 &&
		    asprintf(&line,
			     "cordon: this session rewrote the object git holds for the protected "
			     "%s (%s): a git checkout, restore, stash or reset outside would write "
			     "what it holds now; git fsck names it",
			     shown, obj) >= 0) {
			(void)cordon_strv_push_take(said, line);
			found++;
		}
	}
	return found;
}
