/* Other names a path has through the mount table. A bind mount shows a
 * directory at a second path (NixOS's impermanence binds ~/.ssh from
 * /persist, a container or a test binds a home elsewhere), and Landlock
 * grants by inode: a read rule on the second name reaches what the first
 * one hides, which cordon compares by path (round 13 read ~/.ssh's key
 * through a bind of the home granted with --allow-read, and through
 * /persist under a "/" grant). Read from /proc/self/mountinfo, where
 * there is one (not on macOS: nothing is found there). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/sysmacros.h> /* makedev (macOS: sys/types.h) */
#endif

#include "cordon/mounts.h"
#include "cordon/policy.h"
#include "util.h"

void cordon_mountinfo_unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

struct mount_line {
	dev_t dev;
	char *root; /* the mount's root within its file system */
	char *at;   /* where it is mounted */
};

struct mount_table {
	struct mount_line *v;
	size_t n, cap;
};

static void table_free(struct mount_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].root);
		free(t->v[i].at);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* Fields 3 (device, "major:minor"), 4 (root) and 5 (mount point) of each
 * line. */
static int table_read(struct mount_table *t)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return 0;
	char *line = NULL;
	size_t cap = 0;
	int e = 0;
	while (e >= 0 && getline(&line, &cap, f) > 0) {
		char *save = NULL, *field[5] = {0};
		int nf = 0;
		for (char *tok = strtok_r(line, " \n", &save); tok && nf < 5;
		     tok = strtok_r(NULL, " \n", &save))
			field[nf++] = tok;
		if (nf < 5)
			continue;
		char *end = NULL;
		unsigned long maj = strtoul(field[2], &end, 10);
		if (*end != ':')
			continue;
		unsigned long min = strtoul(end + 1, &end, 10);
		if (*end)
			continue;
		cordon_mountinfo_unescape(field[3]);
		cordon_mountinfo_unescape(field[4]);
		struct mount_line *nv = cordon_grow(t->v, &t->cap, t->n + 1, sizeof(*nv), 32);
		if (!nv) {
			e = -ENOMEM;
			break;
		}
		t->v = nv;
		struct mount_line m = {makedev(maj, min), strdup(field[3]), strdup(field[4])};
		if (!m.root || !m.at) {
			free(m.root), free(m.at);
			e = -ENOMEM;
			break;
		}
		t->v[t->n++] = m;
	}
	free(line);
	(void)fclose(f);
	return e;
}

/* PATH (canonical) as its file system names it: into OUT, with the index
 * of the mount it lies in (the deepest mount point above it; of two at
 * one point, the later one, which covers the other). -1 when none. */
static long fs_path(const struct mount_table *t, const char *path, char *out, size_t size)
{
	long best = -1;
	size_t best_len = 0;
	for (size_t i = 0; i < t->n; i++) {
		size_t len = strlen(t->v[i].at);
		if (cordon_path_under(path, t->v[i].at) && (best < 0 || len >= best_len)) {
			best = (long)i;
			best_len = len;
		}
	}
	if (best < 0)
		return -1;
	const struct mount_line *m = &t->v[best];
	const char *rest = strcmp(m->at, "/") == 0 ? path : path + best_len;
	int n = snprintf(out, size, "%s%s", strcmp(m->root, "/") == 0 ? "" : m->root, rest);
	if (n <= 0 || (size_t)n >= size)
		return -1;
	if (!out[0])
		snprintf(out, size, "/");
	return best;
}

/* Whether mount I's device is also mounted elsewhere with a root that
 * holds, or lies in, I's: the only way a second name can appear. */
static bool shared(const struct mount_table *t, size_t i)
{
	for (size_t k = 0; k < t->n; k++)
		if (k != i && t->v[k].dev == t->v[i].dev &&
		    (cordon_path_under(t->v[k].root, t->v[i].root) ||
		     cordon_path_under(t->v[i].root, t->v[k].root)))
			return true;
	return false;
}

/* The device numbers of the mounts that have a second name, into DEVS
 * (at most SIZE); how many. */
static size_t shared_devs(const struct mount_table *t, dev_t *devs, size_t size)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n && n < size; i++) {
		size_t k = 0;
		while (k < n && devs[k] != t->v[i].dev)
			k++;
		if (k == n && shared(t, i))
			devs[n++] = t->v[i].dev;
	}
	return n;
}

/* cordon_mount_aliases on the mount table T; UP: a missing path as its
 * nearest existing directory's other names hold it. */
static int aliases_in(const struct mount_table *t, const struct cordon_strv *paths, bool up,
		      struct cordon_strv *out, struct cordon_strv *of)
{
	dev_t devs[64];
	int e = 0;
	/* Nothing mounted twice (most machines): no path is looked at. */
	size_t ndevs = shared_devs(t, devs, sizeof(devs) / sizeof(devs[0]));
	for (size_t i = 0; e >= 0 && ndevs && i < paths->n; i++) {
		char have[PATH_MAX];
		const char *tail = ""; /* (what of the path is missing) */
		struct stat want;
		if (snprintf(have, sizeof(have), "%s", paths->v[i]) >= (int)sizeof(have))
			continue;
		bool found;
		while (!(found = stat(have, &want) == 0) && up) {
			char *slash = strrchr(have, '/');
			if (!slash || slash == have)
				break;
			*slash = '\0';
			tail = paths->v[i] + (slash - have);
		}
		if (!found)
			continue;
		size_t d = 0;
		while (d < ndevs && devs[d] != want.st_dev)
			d++;
		cleanup_free char *canon = d < ndevs ? realpath(have, NULL) : NULL;
		char fsp[PATH_MAX];
		long in = canon ? fs_path(t, canon, fsp, sizeof(fsp)) : -1;
		for (size_t k = 0; in >= 0 && e >= 0 && k < t->n; k++) {
			const struct mount_line *m = &t->v[k];
			if ((long)k == in || m->dev != t->v[in].dev ||
			    !cordon_path_under(fsp, m->root))
				continue;
			const char *rest = strcmp(m->root, "/") == 0 ? fsp : fsp + strlen(m->root);
			char alias[PATH_MAX];
			int n = snprintf(alias, sizeof(alias), "%s%s",
					 strcmp(m->at, "/") == 0 ? "" : m->at, rest);
			struct stat st;
			/* The same file there (a mount stacked over that name
			 * shows something else, which is no second name). */
			if (n <= 0 || (size_t)n >= sizeof(alias) || strcmp(alias, canon) == 0 ||
			    stat(alias, &st) < 0 || st.st_dev != want.st_dev ||
			    st.st_ino != want.st_ino ||
			    snprintf(alias + n, sizeof(alias) - (size_t)n, "%s", tail) >=
				    (int)(sizeof(alias) - (size_t)n) ||
			    cordon_strv_contains(out, alias))
				continue;
			if (cordon_strv_push(out, alias) < 0 ||
			    (of && cordon_strv_push(of, paths->v[i]) < 0))
				e = -ENOMEM;
		}
	}
	return e;
}

/* aliases_in of PATHS on the mount table as it is now, and of each mount
 * point below one of BELOW (may be NULL; OF: that mount point then): a
 * bind onto ~/.config/git from ~/dotfiles/git is another name of what is
 * kept below ~/.config (round 50e F1), one onto ~/.ssh/keys of a hidden
 * key (F2). */
static int aliases_now(const struct cordon_strv *paths, bool up, const struct cordon_strv *below,
		       struct cordon_strv *out, struct cordon_strv *of)
{
	struct mount_table t = {0};
	struct cordon_strv all = {0};
	int e = table_read(&t);
	for (size_t k = 0; e >= 0 && k < paths->n; k++)
		e = cordon_strv_push_new(&all, paths->v[k]);
	/* (Hundreds a launch, most in a few directories: each directory on
	 * their ways asked about once.) */
	struct cordon_path_cache cache = {0};
	for (size_t k = 0; e >= 0 && below && k < below->n; k++) {
		/* (Mount points are canonical: the directory as they are.) */
		cleanup_free char *canon = NULL;
		if (below->v[k][0] == '/' &&
		    cordon_path_resolve_cached(below->v[k], NULL, NULL, &cache, &canon) == -ENOMEM)
			e = -ENOMEM;
		const char *dir = canon ? canon : below->v[k];
		for (size_t i = 0; e >= 0 && i < t.n; i++)
			if (strcmp(t.v[i].at, dir) != 0 && cordon_path_under(t.v[i].at, dir))
				e = cordon_strv_push_new(&all, t.v[i].at);
	}
	cordon_path_cache_free(&cache);
	if (e >= 0)
		e = aliases_in(&t, &all, up, out, of);
	cordon_strv_free(&all);
	table_free(&t);
	return e;
}

int cordon_mount_aliases(const struct cordon_strv *paths, struct cordon_strv *out,
			 struct cordon_strv *of)
{
	return aliases_now(paths, false, NULL, out, of);
}

int cordon_mount_aliases_up(const struct cordon_strv *paths, const struct cordon_strv *below,
			    struct cordon_strv *out, struct cordon_strv *of)
{
	return aliases_now(paths, true, below, out, of);
}

int cordon_mount_aliases_below(const struct cordon_strv *dirs, struct cordon_strv *out,
			       struct cordon_strv *of)
{
	return aliases_now(dirs, false, dirs, out, of);
}

int cordon_mount_points_below(const char *dir, struct cordon_strv *out)
{
	struct mount_table t = {0};
	int e = table_read(&t);
	size_t dn = strlen(dir);
	for (size_t i = 0; e >= 0 && i < t.n; i++) {
		const char *at = t.v[i].at;
		if (strcmp(at, dir) != 0 && cordon_path_under(at, dir))
			e = cordon_strv_push_new(out, at + dn + (dn > 1));
	}
	table_free(&t);
	return e;
}
