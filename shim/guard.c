/* The guards' mount plan (see guard.h): which protected and hidden paths a
 * rule would reach, git's directories followed, parents pinned. */
#include "cordon/guard.h"
#include "cordon/gitconfig.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "cordon/sweep.h"
#include "dotfile-refs.h"
#include "hidden-tracked.h"
#include "redact.h"
#include "sweep-fs.h"
#include "util.h"

#define MAX_GIT_DIRS 256
#define MODULE_DEPTH 6

/* The write and read rules, canonical: rule paths may be only absolute
 * (the kernel resolves them at enforcement), and a guard is compared with
 * what they open to. */
struct reach {
	struct cordon_strv write, read;
	const char *home;                /* the policy's, or NULL */
	bool create;                     /* cordon_guard_plan's CREATE */
	struct cordon_path_cache *cache; /* each real directory asked about once */
	struct cordon_strv
		*made;         /* what MKDIR makes (or will make) when missing, parents included */
	char *closed;          /* cordon_guard_closed_dir's, or NULL */
	bool held;             /* list the existing placeholders too (the launcher's plan) */
	struct linked *linked; /* hidden files with more names, said once all are seen */
	/* The hidden paths found: resolved, as named, their sources (for
	 * cordon_hidden_tracked, once all are seen). */
	struct cordon_strv *seen;
	const struct cordon_policy *p;
	char *cwd; /* where the session starts, resolved (or NULL) */
	/* The project and the roots the user made writable, each with its
	 * rule's path resolved (a run's rules are as written: --allow-write
	 * R/lnk with lnk -> ~/.ssh is ~/.ssh, and explain said so). */
	struct root_rule {
		char *canon;
		const struct cordon_rule *rule;
	} * roots;
	size_t n_roots, roots_cap;
};

/* Hidden files with NLINK names, each seen at PATH (of SOURCE); NAME: its
 * directory resolved, and its name, to tell two ways to one name from two
 * names. */
struct linked {
	struct linked_file {
		dev_t dev;
		ino_t ino;
		nlink_t nlink;
		char *path, *source, *name;
	} * v;
	size_t n, cap;
};

/* realpath(PATH), remembering real directories: ~200 readlinks fewer a
 * launch than realpath. NULL with errno set when it cannot be resolved. */
static char *canon_of(const struct reach *r, const char *path)
{
	char *out = NULL;
	int e = cordon_path_resolve_cached(path, NULL, NULL, r->cache, &out);
	if (e < 0) {
		errno = -e;
		return NULL;
	}
	return out;
}

static int reach_init(const struct cordon_policy *p, struct reach *r)
{
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct cordon_rule *rule = &p->rules[i];
		char *canon = canon_of(r, rule->path);
		const char *path = canon ? canon : rule->path;
		int e = 0;
		if (rule->access & CORDON_ACCESS_WRITE)
			e = cordon_strv_push(&r->write, path);
		if (e >= 0 && (rule->access & (CORDON_ACCESS_READ | CORDON_ACCESS_EXEC)))
			e = cordon_strv_push(&r->read, path);
		if (e >= 0 && (rule->access & CORDON_ACCESS_WRITE) &&
		    (strcmp(rule->source, "project") == 0 ||
		     cordon_policy_writable_root(p, rule))) {
			struct root_rule *v =
				cordon_grow(r->roots, &r->roots_cap, r->n_roots + 1, sizeof(*v), 4);
			char *c = v ? strdup(path) : NULL;
			if (v)
				r->roots = v;
			if (c)
				r->roots[r->n_roots++] =
					(struct root_rule){.canon = c, .rule = rule};
			else
				e = -ENOMEM;
		}
		free(canon);
		if (e < 0)
			return e;
	}
	return 0;
}

/* A rule of LIST covers PATH, or (WITHIN) lies beneath it. */
static bool reaches(const struct cordon_strv *list, const char *path, bool within)
{
	for (size_t i = 0; i < list->n; i++)
		if (cordon_path_under(path, list->v[i]) ||
		    (within && cordon_path_under(list->v[i], path)))
			return true;
	return false;
}

/* A line of the plan's (its notes, its warnings), printf'd into LIST
 * once. 0 or -ENOMEM. */
__attribute__((format(printf, 2, 3))) static int say_once(struct cordon_strv *list, const char *f,
							  ...)
{
	va_list ap;
	va_start(ap, f);
	char *s;
	int n = vasprintf(&s, f, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	if (cordon_strv_contains(list, s)) {
		free(s);
		return 0;
	}
	return cordon_strv_push_take(list, s);
}

static int note(struct cordon_guard_plan *plan, const char *path, const char *source,
		const char *why)
{
	return say_once(&plan->notes, "%s (%s): %s", path, source, why);
}

/* PATH, a hidden file (of SOURCE) with ST: a second name for it, a hard
 * link made before the session, is not covered by the mount on this one
 * (round 8 read ~/.aws/credentials through ~/.config/aws-creds): noted,
 * and said by say_linked unless each name is hidden (a key and its
 * "ln" backup in ~/.ssh: round 9 warned of it, twice). */
static int warn_linked(const struct reach *r, const char *path, const char *source,
		       const struct stat *st)
{
	/* (cordon's own records: see warn_other_names.) */
	if (!S_ISREG(st->st_mode) || st->st_nlink < 2 || strcmp(source, "cordon's state") == 0)
		return 0;
	struct linked *set = r->linked;
	struct linked_file *nl = cordon_grow(set->v, &set->cap, set->n + 1, sizeof(*nl), 4);
	if (!nl)
		return -ENOMEM;
	set->v = nl;
	/* (A name for it reached twice, through a link to its directory:
	 * one name.) */
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
	cleanup_free char *canon = slash && slash != path ? canon_of(r, dir) : NULL;
	struct linked_file *l = &set->v[set->n];
	*l = (struct linked_file){.dev = st->st_dev, .ino = st->st_ino, .nlink = st->st_nlink};
	l->path = strdup(path);
	l->source = strdup(source);
	if (!canon || asprintf(&l->name, "%s%s", canon, slash) < 0)
		l->name = canon ? NULL : strdup(path);
	if (!l->path || !l->source || !l->name) {
		free(l->path);
		free(l->source);
		free(l->name);
		return -ENOMEM;
	}
	set->n++;
	return 0;
}

/* The hidden files warn_linked noted: each with a name that is not
 * hidden, said once. */
static int say_linked(struct cordon_guard_plan *plan, const struct linked *set)
{
	int e = 0;
	for (size_t i = 0; i < set->n; i++) {
		const struct linked_file *l = &set->v[i];
		bool first = true;
		size_t names = 0;
		for (size_t j = 0; j < set->n && first; j++) {
			const struct linked_file *o = &set->v[j];
			if (o->dev != l->dev || o->ino != l->ino)
				continue;
			if (j < i) /* said (or not) with the first */
				first = false;
			bool again = false;
			for (size_t k = 0; k < j && !again; k++)
				again = set->v[k].dev == o->dev && set->v[k].ino == o->ino &&
					strcmp(set->v[k].name, o->name) == 0;
			names += !again;
		}
		if (!first || names >= (size_t)l->nlink)
			continue;
		uintmax_t others = (uintmax_t)l->nlink - names;
		char n[32] = "";
		if (others > 1)
			snprintf(n, sizeof(n), " %ju", others);
		if (e >= 0)
			e = say_once(
				&plan->warnings,
				"%s (%s) has %ju names: the%s other%s, a hard link made before "
				"this session, %s not hidden; remove %s, or keep a copy there "
				"instead",
				l->path, l->source, (uintmax_t)l->nlink, n, others > 1 ? "s" : "",
				others > 1 ? "are" : "is", others > 1 ? "them" : "it");
	}
	return e;
}

/* Whether LINE (to its end or a newline) sets npm's registry, as npm's
 * ini reader takes it: "registry" or "@scope:registry", spaces around the
 * key, not in a "#" or ";" comment. */
static bool npmrc_registry_line(const char *line)
{
	line += strspn(line, " \t");
	const char *nl = strchr(line, '\n');
	const char *eq = strchr(line, '=');
	if (line[0] == '#' || line[0] == ';' || !eq || (nl && eq > nl))
		return false;
	const char *end = eq;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	size_t n = (size_t)(end - line);
	return n >= 8 && strncmp(end - 8, "registry", 8) == 0 && (n == 8 || end[-9] == ':');
}

/* PATH, a hidden ~/.npmrc (or the file $NPM_CONFIG_USERCONFIG names) of
 * SOURCE that says which registry npm goes to: npm in the session does
 * not see it, and goes to the public one, where a private package's name
 * may be someone else's (round 9): said. Read where a link leads (a stow
 * layout's ~/.npmrc), a regular file only. */
static int warn_registry(struct cordon_guard_plan *plan, const char *path, const char *source)
{
	const char *base = strrchr(path, '/');
	size_t n = base ? strlen(base) : 0;
	if (!base || n < 6 || strcmp(base + n - 5, "npmrc") != 0)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return 0;
	char buf[8192];
	ssize_t got =
		fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, buf, sizeof(buf) - 1) : -1;
	close(fd);
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	bool registry = false;
	for (const char *line = buf; line && !registry;
	     line = strchr(line, '\n'), line = line ? line + 1 : NULL)
		registry = npmrc_registry_line(line);
	if (!registry)
		return 0;
	return say_once(&plan->warnings,
			"%s (%s) names a registry, which npm in this session does not see (it "
			"goes to registry.npmjs.org, where a private package's name may be "
			"someone else's); pass npm --registry, or name the file in a read rule",
			path, source);
}

static int add_mount(struct cordon_guard_plan *plan, const char *path, enum cordon_mount_op op,
		     bool dir, const char *source)
{
	for (size_t i = 0; i < plan->n; i++)
		if (strcmp(plan->v[i].path, path) == 0) {
			/* A pin gives way to a mount that also guards, a read-only
			 * one to a hide: a hidden path that is protected too (a
			 * .envrc, ~/.claude.json in a writable home) stays
			 * unreadable (and, a mount point, in place). */
			if ((plan->v[i].op == CORDON_MOUNT_PIN && op != CORDON_MOUNT_PIN) ||
			    (plan->v[i].op == CORDON_MOUNT_RO && op == CORDON_MOUNT_HIDE)) {
				plan->v[i].op = op;
				plan->v[i].dir = dir;
				plan->v[i].source = source;
			}
			return 0;
		}
	struct cordon_mount *nv = cordon_grow(plan->v, &plan->cap, plan->n + 1, sizeof(*nv), 16);
	if (!nv)
		return -ENOMEM;
	plan->v = nv;
	char *s = strdup(path);
	if (!s)
		return -ENOMEM;
	plan->v[plan->n++] = (struct cordon_mount){s, op, dir, source};
	return 0;
}

/* Every directory above CANON that a writable parent would let be renamed
 * away and rebuilt. */
static int pin_parents(struct cordon_guard_plan *plan, const struct reach *r, const char *canon,
		       const char *source)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", canon);
	for (char *slash = strrchr(buf, '/'); slash && slash != buf; slash = strrchr(buf, '/')) {
		*slash = '\0'; /* buf: the next directory up */
		char parent[PATH_MAX];
		snprintf(parent, sizeof(parent), "%s", buf);
		char *ps = strrchr(parent, '/');
		if (ps == parent)
			ps[1] = '\0';
		else if (ps)
			*ps = '\0';
		if (reaches(&r->write, parent, false)) {
			int e = add_mount(plan, buf, CORDON_MOUNT_PIN, true, source);
			if (e < 0)
				return e;
		}
	}
	return 0;
}

/* Where the symbolic link LINK leads, one hop, as the kernel takes it (a
 * relative target from the link's own directory), then "/REST" when REST
 * is not empty: into OUT (SIZE bytes). False when it is not a link that
 * can be read, or the result does not fit. */
static bool link_hop(const char *link, const char *rest, char *out, size_t size)
{
	char target[PATH_MAX];
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return false;
	target[n] = '\0';
	const char *slash = strrchr(link, '/');
	const char *sep = rest && *rest ? "/" : "";
	int m = target[0] == '/' || !slash
			? snprintf(out, size, "%s%s%s", target, sep, sep[0] ? rest : "")
			: snprintf(out, size, "%.*s/%s%s%s", (int)(slash - link), link, target, sep,
				   sep[0] ? rest : "");
	return m > 0 && (size_t)m < size;
}

/* Whether the directory DIR (canonical) lies in one a guard of the
 * policy keeps read-only or hides (~/.config in a writable home): a link
 * in it cannot be replaced (round 11: --project ~ was refused for each
 * link in ~/.config). */
static bool kept_readonly(const struct reach *r, const char *dir)
{
	for (size_t i = 0; r->p && i < r->p->n_guards; i++) {
		const struct cordon_guard *g = &r->p->guards[i];
		cleanup_free char *canon = canon_of(r, g->path); /* (it may lead elsewhere) */
		struct stat st;
		if (canon && cordon_path_under(dir, canon) && stat(canon, &st) == 0 &&
		    S_ISDIR(st.st_mode))
			return true;
	}
	return false;
}

/* Whether PLAN pins PATH in place. */
static bool pinned(const struct cordon_guard_plan *plan, const char *path)
{
	for (size_t i = 0; plan && i < plan->n; i++)
		if (plan->v[i].op == CORDON_MOUNT_PIN && strcmp(plan->v[i].path, path) == 0)
			return true;
	return false;
}

/* The first symbolic link on the way to PATH (PATH itself included) that
 * sits in a writable directory, into LINK: replaced by one pointing
 * elsewhere, or by a real directory, it would take what is guarded away
 * from PATH. The way is the kernel's: each link met is followed, and the
 * links on the way to where it leads count too (~/.ssh -> dotfiles/cur/ssh
 * with dotfiles/cur -> profiles/work: a review swapped cur). One PLAN
 * already pins is passed over. */
static bool replaceable_link(const struct reach *r, const struct cordon_guard_plan *plan,
			     const char *path, char *link, size_t size)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (int hops = 0; hops < 40; hops++) { /* the kernel's limit */
		char *slash = strchr(buf + 1, '/');
		bool followed = false;
		for (;; slash = strchr(slash + 1, '/')) {
			if (slash)
				*slash = '\0';
			/* (A directory the plan's resolutions found real is not
			 * asked about again: the same few, /home/u/.config, were
			 * a fifth of a launch's system calls.) */
			struct stat st;
			bool known = cordon_path_cache_dir(r->cache, buf);
			bool there = known || (!cordon_path_cache_missing(r->cache, buf) &&
					       lstat(buf, &st) == 0);
			/* (Nothing past a missing name is reached: most hidden
			 * defaults are missing, each name below asked again.) */
			if (!there)
				return false;
			bool is_link = !known && S_ISLNK(st.st_mode);
			/* A directory that ".." leaves: replaced by a link, it
			 * would lead what follows elsewhere (.git/hooks ->
			 * ../x/../.githooks, x swapped for a link: round 14). */
			bool left_by_up = there && !is_link && slash &&
					  (known || S_ISDIR(st.st_mode)) &&
					  strncmp(slash + 1, "..", 2) == 0 &&
					  (slash[3] == '/' || slash[3] == '\0');
			if (is_link || left_by_up) {
				char *last = strrchr(buf, '/');
				*last = '\0';
				cleanup_free char *pc = canon_of(r, buf[0] ? buf : "/");
				*last = '/';
				/* In the closed directory a link can be removed, but
				 * nothing made in its place. */
				bool closed = pc && r->closed && strcmp(pc, r->closed) == 0;
				if (pc && reaches(&r->write, pc, false) && !closed &&
				    !kept_readonly(r, pc) && !pinned(plan, buf)) {
					snprintf(link, size, "%s", buf);
					return true;
				}
			}
			if (is_link) {
				/* Followed: where it leads, then the rest. */
				char next[PATH_MAX];
				if (!link_hop(buf, slash ? slash + 1 : "", next, sizeof(next)))
					return false;
				memcpy(buf, next, strlen(next) + 1);
				followed = true;
				break;
			}
			if (!slash)
				break;
			*slash = '/';
		}
		if (!followed)
			return false;
	}
	return false;
}

/* Each symbolic link on the way to PATH that the session could replace
 * (replaceable_link) kept in place for the session: a mount on the link
 * itself, which can then be neither renamed nor removed (EBUSY), and on
 * the directories above it that could be renamed away. What the links
 * lead to is guarded as any path is. A hooks directory linked to a
 * tracked one (.git/hooks -> ../.githooks) was refused (round 12). */
static int pin_links(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
		     const char *source)
{
	char link[PATH_MAX];
	for (int n = 0; n < 40 && replaceable_link(r, plan, path, link, sizeof(link)); n++) {
		struct stat st;
		bool dir = lstat(link, &st) == 0 && S_ISDIR(st.st_mode);
		int e = add_mount(plan, link, CORDON_MOUNT_PIN, dir, source);
		if (e < 0 || (e = pin_parents(plan, r, link, source)) < 0)
			return e;
	}
	return 0;
}

/* The session refused for the reason FMT says, unless a reason was given
 * already (the first stands). 0, or -ENOMEM. */
static int refuse_once(struct cordon_guard_plan *plan, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int refuse_once(struct cordon_guard_plan *plan, const char *fmt, ...)
{
	if (plan->refuse)
		return 0;
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(&plan->refuse, fmt, ap);
	va_end(ap);
	if (n < 0)
		plan->refuse = NULL;
	return n < 0 ? -ENOMEM : 0;
}

/* A write rule of the user's at PATH (CANON) or beneath it, which the
 * read-only guard of SOURCE there would leave writing nothing: refused,
 * never kept unsaid (round 58c F6: --allow-write PROJ/.git/hooks was
 * listed rwx and wrote nothing). 1 when refused. */
static int refuse_written_in(struct cordon_guard_plan *plan, const struct reach *r,
			     const char *path, const char *canon, const char *source)
{
	if (!r->p)
		return 0;
	for (size_t i = 0; i < r->p->n_rules; i++) {
		const struct cordon_rule *rule = &r->p->rules[i];
		if (!(rule->access & CORDON_ACCESS_WRITE) || !cordon_policy_users_rule(rule))
			continue;
		cleanup_free char *rc = canon_of(r, rule->path);
		if (!rc && errno == ENOMEM)
			return -ENOMEM;
		if (!cordon_path_under(rc ? rc : rule->path, canon))
			continue;
		char as[PATH_MAX + 8], at[PATH_MAX + 8];
		cordon_printable(rule->written ? rule->written : rule->path, SIZE_MAX, as,
				 sizeof(as));
		cordon_printable(path, SIZE_MAX, at, sizeof(at));
		const char *out = strncmp(source, "protected_paths", 15) == 0
					  ? ", or take the entry out of protected_paths"
					  : "";
		int n = strcmp(as, at) == 0
				? refuse_once(plan,
					      "%s (%s) would write nothing: it stays read-only "
					      "inside (%s); remove that rule%s",
					      as, rule->source, source, out)
				: refuse_once(plan,
					      "%s (%s) would write nothing: %s stays read-only "
					      "inside (%s); remove that rule%s",
					      as, rule->source, at, source, out);
		return n < 0 ? n : 1;
	}
	return 0;
}

/* PATH, a link to TARGET, which does not exist and which the session
 * could make: the session is refused (the first reason given stands). */
static int refuse_dangling(struct cordon_guard_plan *plan, const char *path, const char *source,
			   const char *target, const char *kept, const char *on_the_way_to)
{
	if (plan->refuse)
		return 0;
	cleanup_free char *way = NULL;
	if (on_the_way_to && asprintf(&way, ", on the way to %s", on_the_way_to) < 0)
		return -ENOMEM;
	return asprintf(&plan->refuse,
			"%s%s (%s) is a symbolic link to %s, which does not exist and which this "
			"session could make: cordon cannot keep it %s; make it outside first, or "
			"remove the link",
			path, way ? way : "", source, target, kept) < 0
		       ? -ENOMEM
		       : 0;
}

/* The nearest existing parent of the missing PATH, canonical, or NULL. */
static char *nearest_parent(const struct reach *r, const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *slash = strrchr(buf, '/'); slash; slash = strrchr(buf, '/')) {
		*slash = '\0';
		char *canon = canon_of(r, buf[0] ? buf : "/");
		if (canon)
			return canon;
	}
	return NULL;
}

/* Whether something could be made at the missing PATH: its nearest
 * existing parent is writable. */
static bool creatable(const struct reach *r, const char *path)
{
	cleanup_free char *parent = nearest_parent(r, path);
	return parent && reaches(&r->write, parent, false);
}

/* PATH, which the guards must look into to keep what git outside reads
 * below it, cannot be (WHY, an errno), where the session could write: a
 * session's chmod 0 on a directory of the user's hid it from the next
 * session's guards, which then put the mode back and wrote below (47b
 * N1). The session is refused, naming the directory. Elsewhere, or where
 * that directory is another user's (not the session's to change): 0. */
static int refuse_unreadable(struct cordon_guard_plan *plan, const struct reach *r,
			     const char *path, int why)
{
	if ((why != EACCES && why != EPERM) || !creatable(r, path))
		return 0;
	/* (The directory whose mode stops it: the nearest one there is.) */
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	struct stat st;
	int there;
	for (char *slash;
	     (there = lstat(dir, &st)) < 0 && (slash = strrchr(dir, '/')) && slash != dir;)
		*slash = '\0';
	/* Another user's (a colleague's private directory in a shared
	 * project): no mode the session can change, and git outside, as
	 * this user, cannot look there either. */
	if (there == 0 && st.st_uid != geteuid())
		return 0;
	return refuse_once(plan,
			   "%s: cordon cannot look into it (%s), so it cannot keep what git "
			   "reads below it read-only (a session may have changed its mode): "
			   "give it back its mode outside (chmod u+rwx), then start the session",
			   dir, strerror(why));
}

/* Whether the session cannot make the missing PATH: its nearest existing
 * parent is the closed directory (cordon's plan may still make it). */
static bool made_only_outside(const struct reach *r, const char *path)
{
	cleanup_free char *parent = r->closed ? nearest_parent(r, path) : NULL;
	return parent && strcmp(parent, r->closed) == 0;
}

enum {
	MKDIR = 1,
	OPTIONAL = 2,
	PRIVATE = 4,           /* MKDIR with mode 0700 */
	PLACEHOLDER = 8,       /* CORDON_GUARD_PLACEHOLDER */
	IN_GUARDED = 16,       /* in a directory the plan keeps read-only: not replaceable */
	NO_LINKS = 32,         /* what the links in a directory lead to: not looked at again */
	FILE_PLACEHOLDER = 64, /* PLACEHOLDER, an empty file (an include git reads) */
	FOLLOWED = 128,        /* FILE_PLACEHOLDER's path, past a dangling link already */
};

static int protect(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
		   const char *source, int flags);
static bool dangling_target(const char *path, char *out, size_t size);

/* The first name missing on the way to TARGET (a dangling link's end),
 * under its nearest existing directory made canonical, into OUT (SIZE
 * bytes): what the session would make first to fill the link
 * (../shared/vscode/tasks.json with no shared: PROJ/shared). */
static bool first_missing(const struct reach *r, const char *target, char *out, size_t size)
{
	char up[PATH_MAX];
	struct stat st;
	if (cordon_path_nearest(target, up, sizeof(up), &st) < 0 || strcmp(up, target) == 0)
		return false;
	const char *rest = target + strlen(up) + 1;
	size_t n = strcspn(rest, "/");
	cleanup_free char *canon = canon_of(r, up[0] ? up : "/");
	return canon && (size_t)snprintf(out, size, "%s/%.*s", strcmp(canon, "/") ? canon : "",
					 (int)n, rest) < size;
}

/* The directory of CANON, a program a bin directory of a writable home
 * leads to outside any Python environment: Python imports from the
 * script's own directory first (node's require('./x') and ruby's
 * require_relative look there too), so its sibling modules ran outside
 * (round 37d F2). NULL where that directory is the home itself or lies in
 * the project (what the user works on, but for a home made the project:
 * the file alone is kept then). */
static char *script_dir_of(const struct reach *r, const char *canon)
{
	char *dir = strdup(canon);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (!slash || slash == dir) {
		free(dir);
		return NULL;
	}
	*slash = '\0';
	cleanup_free char *home = r->home ? canon_of(r, r->home) : NULL;
	const char *project = r->p ? r->p->project : NULL;
	if ((home && cordon_path_under(home, dir)) ||
	    (project && !(home && cordon_path_under(home, project)) &&
	     cordon_path_under(dir, project))) {
		free(dir);
		return NULL;
	}
	return dir;
}

/* The Python environment the file CANON lies in: the nearest directory
 * above it, three levels up at most, that holds pyvenv.cfg (VENV for
 * VENV/bin/tool). NULL when there is none. */
static char *venv_of(const char *canon)
{
	char dir[PATH_MAX], cfg[PATH_MAX + 16];
	struct stat st;
	snprintf(dir, sizeof(dir), "%s", canon);
	for (int up = 0; up < 3; up++) {
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			return NULL;
		*slash = '\0';
		snprintf(cfg, sizeof(cfg), "%s/pyvenv.cfg", dir);
		if (lstat(cfg, &st) == 0 && S_ISREG(st.st_mode))
			return strdup(dir);
	}
	return NULL;
}

#define LINKS_IN_DEPTH  8
#define LINKS_IN_BUDGET 16384
#define LINKS_IN_HOPS   8

/* The links in the protected directory DIR (eight levels down, the first
 * 16384 entries, then said) that lead out of it to where the session may
 * write: what they lead to is kept read-only too, as what a link in
 * ~/.config leads to is (policy.c), and the links in a directory one
 * leads to, HOPS more times. A read-only .vscode kept the link tasks.json
 * -> ../shared/tasks.json, and the session rewrote the task VS Code then
 * ran outside (round 11). A dangling one: the first name missing on its
 * way, made inside, is moved aside as the session ends (round 12; round
 * 13 made the missing parent, and a link four levels down, and one in
 * the directory a link led to). */
static int protect_links_in(struct cordon_guard_plan *plan, const struct reach *r, const char *dir,
			    const char *source, const char *own, int hops, int levels)
{
	struct cordon_strv queue = {0};
	int e = cordon_strv_push(&queue, dir), budget = LINKS_IN_BUDGET;
	size_t level_end = queue.n;
	bool cut = false;
	for (size_t q = 0, depth = 0; e >= 0 && q < queue.n; q++) {
		if (q == level_end) {
			depth++;
			level_end = queue.n;
		}
		DIR *d = opendir(queue.v[q]);
		for (struct dirent *de; d && e >= 0 && (de = readdir(d));) {
			char path[PATH_MAX * 2 + 8], to[PATH_MAX];
			struct stat st;
			if (cordon_dot_or_dotdot(de->d_name))
				continue;
			if (budget-- <= 0) {
				cut = true;
				break;
			}
			if ((size_t)snprintf(path, sizeof(path), "%s/%s", queue.v[q], de->d_name) >=
				    PATH_MAX ||
			    lstat(path, &st) < 0)
				continue;
			if (S_ISDIR(st.st_mode) && depth + 1 < (size_t)levels)
				e = cordon_strv_push(&queue, path);
			else if (S_ISDIR(st.st_mode) && levels == LINKS_IN_DEPTH)
				cut = true;
			cleanup_free char *canon = S_ISLNK(st.st_mode) ? canon_of(r, path) : NULL;
			if (!canon && S_ISLNK(st.st_mode) && errno == ENOENT &&
			    dangling_target(path, to, sizeof(to)) &&
			    first_missing(r, to, path, sizeof(path)) &&
			    !cordon_path_under(path, dir))
				e = protect(plan, r, path, source, NO_LINKS);
			else if (canon && !cordon_path_under(canon, dir) &&
				 !(own && cordon_path_under(canon, own)) &&
				 reaches(&r->write, canon, false)) {
				bool seen = cordon_guard_plan_find(plan, canon) != NULL;
				/* A tool's console script in a bin directory of the
				 * home (pipx's, uv's, a venv of the user's) imports
				 * its modules from the environment it lies in: the
				 * whole of it runs outside (round 37a). */
				cleanup_free char *venv =
					strcmp(source, CORDON_GUARD_HOME_CODE) == 0 &&
							stat(canon, &st) == 0 && S_ISREG(st.st_mode)
						? venv_of(canon)
						: NULL;
				bool script = false;
				if (!venv && strcmp(source, CORDON_GUARD_HOME_CODE) == 0 &&
				    S_ISREG(st.st_mode))
					script = (venv = script_dir_of(r, canon)) != NULL;
				if (venv && (cordon_path_under(dir, venv) ||
					     (own && cordon_path_under(venv, own)) ||
					     !reaches(&r->write, venv, false))) {
					free(venv);
					venv = NULL;
				}
				e = protect(plan, r, venv ? venv : canon, source,
					    NO_LINKS | OPTIONAL);
				if (e >= 0 && venv)
					e = say_once(
						&plan->warnings,
						"%s stays read-only: %s (%s) leads into this %s, "
						"whose modules it runs, and what is written there "
						"is obeyed outside",
						venv, path, source,
						script && venv ? "program's directory"
							       : "Python environment");
				else if (e >= 0)
					e = say_once(&plan->warnings,
						     "%s stays read-only: %s (%s) leads to it, and "
						     "what is written there is obeyed outside",
						     canon, path, source);
				if (e >= 0 && !seen && hops > 0 && stat(canon, &st) == 0 &&
				    S_ISDIR(st.st_mode))
					e = protect_links_in(plan, r, canon, source, own, hops - 1,
							     levels);
			}
		}
		if (d)
			closedir(d);
	}
	cordon_strv_free(&queue);
	if (e >= 0 && cut)
		e = say_once(&plan->warnings,
			     "%s (%s) holds more than cordon looks through for links (%d levels, "
			     "%d entries): what a link past them leads to is not kept read-only",
			     dir, source, LINKS_IN_DEPTH, LINKS_IN_BUDGET);
	return e;
}

/* mkdir -p PATH, when a rule would let the session make it (its nearest
 * existing parent is writable): made now, it can be guarded; made inside,
 * it could not. Failures show in the lstat that follows. */
static void make_dirs(const struct reach *r, const char *path, mode_t mode)
{
	if (!creatable(r, path))
		return;
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *slash = strchr(buf + 1, '/');; slash = strchr(slash + 1, '/')) {
		if (slash)
			*slash = '\0';
		if (mkdir(buf, slash ? 0755 : mode) < 0 && errno != EEXIST)
			return;
		cordon_path_made();
		if (!slash)
			return;
		*slash = '/';
	}
}

/* The name the symbolic link at PATH finally leads to, which does not
 * exist, into OUT (SIZE bytes): each link of the chain followed as the
 * kernel would (a relative one from its own directory). False when PATH
 * is not such a link: it leads to something, or the chain loops. */
static bool dangling_target(const char *path, char *out, size_t size)
{
	char cur[PATH_MAX];
	snprintf(cur, sizeof(cur), "%s", path);
	for (int hops = 0; hops < 40; hops++) { /* the kernel's limit */
		struct stat st;
		if (lstat(cur, &st) < 0) {
			if (errno != ENOENT || hops == 0)
				return false;
			snprintf(out, size, "%s", cur);
			return true;
		}
		char next[PATH_MAX];
		if (!S_ISLNK(st.st_mode) || !link_hop(cur, NULL, next, sizeof(next)))
			return false;
		snprintf(cur, sizeof(cur), "%s", next);
	}
	return false;
}

/* PATH is a symbolic link to a name that does not exist (a dotfile or
 * cordon's config linked into a dotfiles repository not filled yet):
 * guarding the link guards nothing, and a session that can make the
 * name makes what a later session or login obeys. With MKDIR (cordon's
 * config directory) the name is made, as the guard would have made PATH:
 * 1, guard PATH now. Else the session is refused where the name could be
 * made inside; 0. */
static int dangling(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
		    const char *source, int flags)
{
	char target[PATH_MAX];
	if (!dangling_target(path, target, sizeof(target)))
		return note(plan, path, source, strerror(ENOENT));
	int e = (flags & IN_GUARDED) ? 0 : pin_links(plan, r, path, source);
	if (e < 0)
		return e;
	if (!creatable(r, target) || made_only_outside(r, target))
		return note(plan, path, source,
			    "a symbolic link to a name that does not exist, which no rule lets "
			    "the session make");
	if (flags & MKDIR) {
		if (!cordon_strv_contains(r->made, target) && cordon_strv_push(r->made, target) < 0)
			return -ENOMEM;
		if (r->create)
			make_dirs(r, target, (flags & PRIVATE) ? 0700 : 0755);
		struct stat st;
		if (stat(path, &st) == 0)
			return 1;
		if (!r->create)
			return note(plan, path, source,
				    "a symbolic link to a name that does not exist: made, and kept "
				    "read-only, when a session starts");
	}
	return refuse_dangling(plan, path, source, target, "read-only", NULL);
}

/* PATH, a protected file (of SOURCE) with ST: a second name for it, a
 * hard link made before the session (~/.bashrc and ~/dotfiles/bashrc,
 * one inode), is not covered by the guard on this one, and where a write
 * rule reaches its file system the other name may lie there (round 10:
 * bash outside ran what a session appended through it). Said. */
static int warn_other_names(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
			    const char *source, const struct stat *st)
{
	/* (cordon's own records: a running session keeps its start's
	 * record by a second name beside it, in the state directory, which
	 * no session reaches; said of one while another session started,
	 * as a flake of a_hard_linked_dotfile_is_said's control.) */
	if (!S_ISREG(st->st_mode) || st->st_nlink < 2 || strcmp(source, "cordon's state") == 0)
		return 0;
	bool same_fs = false;
	for (size_t i = 0; i < r->write.n && !same_fs; i++) {
		struct stat w;
		same_fs = stat(r->write.v[i], &w) == 0 && w.st_dev == st->st_dev &&
			  S_ISDIR(w.st_mode);
	}
	if (!same_fs)
		return 0;
	return say_once(&plan->warnings,
			"%s (%s) has %ju names: another, a hard link made before this session, "
			"may lie where this session can write, and what is written through it "
			"is read outside; make it a copy or a symbolic link instead",
			path, source, (uintmax_t)st->st_nlink);
}

/* What explain says of a directory's names looked for above, missing. */
#define ABOVE_NOTE                                                                                 \
	"a program run in a directory below it, outside, obeys these names there; absent, "        \
	"and one made inside is moved aside (NAME.cordon-disarmed) as it appears: "

/* Missing PATH, one of the names looked for above (CORDON_GUARD_ABOVE):
 * said with the others missing in its directory, on one line. */
static int note_above(struct cordon_guard_plan *plan, const char *path)
{
	const char *slash = strrchr(path, '/');
	char head[PATH_MAX + 64];
	int n = snprintf(head, sizeof(head), "%.*s (%s): ", (int)(slash - path), path,
			 CORDON_GUARD_ABOVE);
	char **last = plan->notes.n ? &plan->notes.v[plan->notes.n - 1] : NULL;
	if (last && n > 0 && strncmp(*last, head, (size_t)n) == 0) {
		/* (Said once: .git, for each of its hooks, config and info.) */
		size_t bn = strlen(slash + 1);
		for (const char *at = strstr(*last, slash + 1); at; at = strstr(at + 1, slash + 1))
			if (at[-1] == ' ' && (at[bn] == ' ' || !at[bn]))
				return 0;
		char *more = cordon_join3(*last, " ", slash + 1);
		if (!more)
			return -ENOMEM;
		free(*last);
		*last = more;
		return 0;
	}
	return say_once(&plan->notes, "%s" ABOVE_NOTE "%s", head, slash + 1);
}

/* The names looked for above missing in each of P's above directories,
 * said on one line a directory. */
static int note_above_all(struct cordon_guard_plan *plan, const struct cordon_policy *p)
{
	for (size_t i = 0; i < p->n_above; i++) {
		size_t len = 0;
		for (size_t k = 0; cordon_found_above[k]; k++)
			if (cordon_above_has(&p->above[i].missing, k))
				len += strlen(cordon_found_above[k]) + 1;
		char *names = malloc(len + 1), *at = names;
		if (!names)
			return -ENOMEM;
		for (size_t k = 0; cordon_found_above[k]; k++)
			if (cordon_above_has(&p->above[i].missing, k)) {
				size_t n = strlen(cordon_found_above[k]);
				memcpy(at, cordon_found_above[k], n);
				at[n] = ' ';
				at += n + 1;
			}
		at[at > names ? -1 : 0] = '\0';
		int e = say_once(&plan->notes, "%s (%s): " ABOVE_NOTE "%s", p->above[i].dir,
				 CORDON_GUARD_ABOVE, names);
		free(names);
		if (e < 0)
			return e;
	}
	return 0;
}

/* Missing PATH, in PLAN's unguarded names for the sweep, said so. */
static int left_to_sweep(struct cordon_guard_plan *plan, const char *path, const char *source)
{
	if (cordon_strv_push_new(&plan->unguarded, path) < 0)
		return -ENOMEM;
	if (strcmp(source, CORDON_GUARD_ABOVE) == 0)
		return note_above(plan, path);
	return note(plan, path, source,
		    "absent, in a writable directory: if made inside, it is NOT protected "
		    "until cordon moves it aside (NAME.cordon-disarmed), as it appears "
		    "(Linux: then an empty socket file stands in for it) or as the session "
		    "ends");
}

/* PATH, a file git's config includes, missing where the session could make
 * it: an empty file stands in for it (git reads it as no settings), and an
 * empty directory for each directory missing on its way (conf/a/team.
 * gitconfig with no conf: rounds 14 and 15 wrote the include there, and
 * git outside during the session obeyed it); the file is then read-only
 * and the directories pinned, as a file found there is. Reached through a
 * dangling link (lnk -> conf, no conf), the name it leads to stands in,
 * and the link is kept in place. Where neither can be, left to the sweep. */
static int file_stand_in(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
			 const char *source, int flags)
{
	char near[PATH_MAX], to[PATH_MAX], redo[PATH_MAX * 2];
	struct stat st;
	if (cordon_path_nearest(path, near, sizeof(near), &st) < 0 || strcmp(near, path) == 0)
		return left_to_sweep(plan, path, source);
	const char *rest = path + strlen(near); /* "/conf/team.gitconfig" */
	if (S_ISLNK(st.st_mode) && !(flags & FOLLOWED) && dangling_target(near, to, sizeof(to)) &&
	    (size_t)snprintf(redo, sizeof(redo), "%s%s", to, rest) < PATH_MAX) {
		int e = pin_links(plan, r, near, source);
		return e < 0 ? e : protect(plan, r, redo, source, flags | FOLLOWED);
	}
	cleanup_free char *canon = S_ISDIR(st.st_mode) ? canon_of(r, near) : NULL;
	if (!canon)
		return left_to_sweep(plan, path, source);
	char built[PATH_MAX];
	snprintf(built, sizeof(built), "%s", strcmp(canon, "/") == 0 ? "" : canon);
	struct cordon_strv dirs = {0};
	int e = 0;
	for (const char *c = rest + 1; e >= 0 && *c;) {
		size_t n = strcspn(c, "/");
		size_t len = strlen(built);
		if ((n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.') ||
		    len + 1 + n >= sizeof(built)) {
			cordon_strv_free(&dirs);
			return left_to_sweep(plan, path, source);
		}
		snprintf(built + len, sizeof(built) - len, "/%.*s", (int)n, c);
		c += n;
		c += strspn(c, "/");
		if (*c)
			e = cordon_strv_push(&dirs, built);
	}
	size_t missing = dirs.n;
	for (size_t i = 0; e >= 0 && i < dirs.n; i++)
		e = cordon_strv_push_new(&plan->placeholders, dirs.v[i]);
	if (e >= 0)
		e = cordon_strv_push_new(&plan->placeholder_files, built);
	cordon_strv_free(&dirs);
	if (e < 0)
		return e;
	return note(plan, built, source,
		    missing ? "absent, and so is its directory: an empty file stands in for it "
			      "while a session runs, in empty directories, kept read-only"
			    : "absent: an empty file stands in for it while a session runs, kept "
			      "read-only");
}

bool cordon_is_stand_in_stat(const struct stat *st)
{
	return S_ISSOCK(st->st_mode) && (st->st_mode & 07777) == 0;
}

bool cordon_is_stand_in(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && cordon_is_stand_in_stat(&st);
}

/* PATH made read-only where a rule would let it be written. FLAGS: MKDIR,
 * make it (a directory) when it is missing and its parent exists;
 * OPTIONAL, say nothing when it is missing. */
static int protect(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
		   const char *source, int flags)
{
	bool mkdir_ok = flags & MKDIR;
	struct stat st;
	/* (Looked at once, and again only after a mkdir here: three lstat
	 * calls a guard were a third of a launch's system calls.) */
	int gone = lstat(path, &st) < 0 ? errno : 0;
	if (gone == ENOENT && mkdir_ok && creatable(r, path)) {
		/* Made by the session's own plan, parents included: never
		 * something the session made. */
		char buf[PATH_MAX];
		snprintf(buf, sizeof(buf), "%s", path);
		for (char *slash = buf; slash; slash = strrchr(buf, '/')) {
			struct stat pst;
			if (slash != buf)
				*slash = '\0';
			if (!buf[0] || lstat(buf, &pst) == 0)
				break;
			if (cordon_strv_push(r->made, buf) < 0)
				return -ENOMEM;
		}
		if (r->create)
			make_dirs(r, path, (flags & PRIVATE) ? 0700 : 0755);
		gone = lstat(path, &st) < 0 ? errno : 0;
	}
	if (gone == EACCES || gone == EPERM)
		return refuse_unreadable(plan, r, path, gone);
	/* A running session's stand-in for a name it made: missing, for
	 * this session too (it goes as that one ends). */
	bool stand_in = !gone && cordon_is_stand_in_stat(&st);
	if (stand_in || gone) {
		if (gone == ENOMEM)
			return -ENOMEM;
		if ((flags & OPTIONAL) || !creatable(r, path) ||
		    cordon_strv_contains(r->made, path))
			return 0;
		if (made_only_outside(r, path))
			return 0; /* explain says "closed" once */
		if (flags & PLACEHOLDER) {
			if (cordon_strv_push_new(&plan->placeholders, path) < 0)
				return -ENOMEM;
			return note(plan, path, source,
				    "absent: an empty directory stands in for it while a session "
				    "runs, kept read-only");
		}
		if (flags & FILE_PLACEHOLDER)
			return file_stand_in(plan, r, path, source, flags);
		return left_to_sweep(plan, path, source);
	}
	cleanup_free char *canon = canon_of(r, path);
	if (!canon && errno == ENOENT) {
		int d = dangling(plan, r, path, source, flags);
		if (d <= 0)
			return d;
		canon = canon_of(r, path);
	}
	if (!canon)
		return errno == ENOMEM ? -ENOMEM : note(plan, path, source, strerror(errno));
	int e = (flags & IN_GUARDED) ? 0 : pin_links(plan, r, path, source);
	bool dir = S_ISDIR(stat(canon, &st) == 0 ? st.st_mode : 0);
	if (e >= 0)
		e = warn_other_names(plan, r, path, source, &st);
	/* In the bin directories of what runs from the home too (on PATH:
	 * their own entries, not a toolchain's whole tree, ~/.rustup's 40,000
	 * files), but a link in ~/.local/bin to a script of the project is
	 * that project's own code, which it may write (round 12), unless the
	 * project is the home itself (round 13: under --project ~, a link to
	 * ~/tools/foo/bin/foo was writable). */
	const char *base = strrchr(canon, '/');
	if (e >= 0 && dir && !(flags & NO_LINKS) && strncmp(source, "protected_paths", 15) == 0)
		e = protect_links_in(plan, r, canon, source, NULL, LINKS_IN_HOPS, LINKS_IN_DEPTH);
	else if (e >= 0 && dir && !(flags & NO_LINKS) && base && strcmp(base, "/bin") == 0 &&
		 strcmp(source, CORDON_GUARD_HOME_CODE) == 0) {
		cleanup_free char *home = r->home ? canon_of(r, r->home) : NULL;
		const char *own = r->p ? r->p->project : NULL;
		if (own && home && cordon_path_under(home, own))
			own = NULL;
		e = protect_links_in(plan, r, canon, source, own, 0, 1);
	}
	if (e < 0)
		return e;
	if (!reaches(&r->write, canon, false))
		return 0; /* Landlock keeps it read-only */
	if ((e = refuse_written_in(plan, r, path, canon, source)) != 0)
		return e < 0 ? e : 0;
	/* Perhaps another session's placeholder (or filled since): held, so
	 * that it is not removed under this session. */
	if ((flags & PLACEHOLDER) && r->held && dir &&
	    cordon_strv_push_new(&plan->placeholders, path) < 0)
		return -ENOMEM;
	if ((flags & FILE_PLACEHOLDER) && r->held && S_ISREG(st.st_mode) && st.st_size == 0 &&
	    cordon_strv_push_new(&plan->placeholder_files, path) < 0)
		return -ENOMEM;
	e = add_mount(plan, canon, CORDON_MOUNT_RO, dir, source);
	return e < 0 ? e : pin_parents(plan, r, canon, source);
}

static int hide_at(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
		   const char *source, bool links);

/* The links in the hidden directory DIR, and in its directories down to
 * LINKS_DEPTH, each level whole before the next (a busy subdirectory
 * cannot use up what its parent's links need): what they lead to is
 * hidden too, where it is, as the path is. GNU stow links each file
 * (~/.ssh/config -> ../dotfiles/ssh/config): the cover over ~/.ssh keeps
 * the link, not the file, which a session with ~/dotfiles as its project
 * wrote (ssh outside then ran its Match exec). Sockets, FIFOs and devices
 * cost nothing (ssh's ControlMaster sockets). Past LINKS_BUDGET other
 * entries, or a directory deeper, the rest is not read (a browser's
 * profile, hidden whole, is large): where the part read holds a link into
 * a writable tree (a stow layout), the session is refused, since a link
 * left unread could lead there too (round 7 and 8 of the review); else
 * explain notes it. */
#define LINKS_DEPTH  8
#define LINKS_BUDGET 1024

static int hide_links_in(struct cordon_guard_plan *plan, const struct reach *r, const char *dir,
			 const char *source)
{
	struct cordon_strv queue = {0};
	int e = cordon_strv_push(&queue, dir), budget = LINKS_BUDGET;
	size_t level_end = queue.n;
	int depth = 0;
	bool past = false, stowed = false;
	for (size_t q = 0; e >= 0 && q < queue.n && !past; q++) {
		if (q == level_end) {
			depth++;
			level_end = queue.n;
		}
		DIR *d = opendir(queue.v[q]);
		if (!d)
			continue;
		for (struct dirent *de; e >= 0 && !past && (de = readdir(d));) {
			if (cordon_dot_or_dotdot(de->d_name))
				continue;
			char path[PATH_MAX * 2 + 8];
			snprintf(path, sizeof(path), "%s/%s", queue.v[q], de->d_name);
			unsigned char type = de->d_type;
			struct stat st;
			if (type == DT_UNKNOWN) {
				if (lstat(path, &st) < 0)
					continue;
				type = S_ISLNK(st.st_mode)   ? DT_LNK
				       : S_ISDIR(st.st_mode) ? DT_DIR
				       : S_ISREG(st.st_mode) ? DT_REG
							     : DT_SOCK;
			}
			if (type == DT_SOCK || type == DT_FIFO || type == DT_CHR || type == DT_BLK)
				continue;
			if (--budget < 0 || (type == DT_DIR && depth + 1 > LINKS_DEPTH)) {
				past = true;
				break;
			}
			/* A credential with a second name, at any depth the walk
			 * reaches (a GnuPG key in private-keys-v1.d: round 9). */
			if (type == DT_REG &&
			    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    (e = warn_linked(r, path, source, &st)) < 0)
				break;
			/* (The link itself is under the cover: where it leads is
			 * judged, links on that way included.) */
			char to[PATH_MAX];
			if (type == DT_LNK) {
				if (link_hop(path, NULL, to, sizeof(to))) {
					stowed = stowed || reaches(&r->write, to, false);
					e = hide_at(plan, r, to, source, false);
				}
			} else if (type == DT_DIR)
				e = cordon_strv_push(&queue, path);
		}
		closedir(d);
	}
	cordon_strv_free(&queue);
	if (e >= 0 && past && !stowed)
		return note(plan, dir, source,
			    "links past its first 1024 entries or 8 directories down are not "
			    "followed");
	if (e >= 0 && past && !plan->refuse &&
	    asprintf(&plan->refuse,
		     "%s (%s) holds links into a writable directory, and more than %d "
		     "entries or directories more than %d deep: cordon cannot follow every "
		     "link in it to hide what it leads to; move what is not a credential "
		     "out of it, or remove the entry from hidden_paths",
		     dir, source, LINKS_BUDGET, LINKS_DEPTH) < 0)
		return -ENOMEM;
	return e;
}

/* PATH hidden where a rule reaches it; LINKS: and what the links in it
 * lead to (hide_links_in; not again from there). */
static int hide_at(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
		   const char *source, bool links)
{
	struct stat st;
	/* A missing ~/.ssh in a writable home: made (as ssh would) and hidden,
	 * so that no authorized_keys can be planted in it. */
	const char *base = strrchr(path, '/');
	if (r->create && base && strcmp(base, "/.ssh") == 0 && lstat(path, &st) < 0 &&
	    errno == ENOENT)
		make_dirs(r, path, 0700);
	cleanup_free char *canon = canon_of(r, path);
	char target[PATH_MAX];
	/* A link to a name that does not exist (~/.aws linked into a dotfiles
	 * repository not filled yet): a session that could make the name
	 * would write what tools outside obey (credential_process), and read
	 * what they write there later. */
	if (!canon && errno == ENOENT && dangling_target(path, target, sizeof(target)) &&
	    creatable(r, target) && !made_only_outside(r, target))
		return refuse_dangling(plan, path, source, target, "hidden", NULL);
	/* The same for a directory on the way (~/.dbt -> PROJ/dbt, not made
	 * yet, for ~/.dbt/profiles.yml: round 9). */
	char up[PATH_MAX];
	int missing = errno;
	/* (The resolution just walked the way: a real directory there is no
	 * link, asked about once.) */
	if (!canon && cordon_path_nearest_cached(r->cache, path, up, sizeof(up)) == 0 &&
	    strcmp(up, path) != 0 && !cordon_path_cache_dir(r->cache, up) && lstat(up, &st) == 0 &&
	    S_ISLNK(st.st_mode) && dangling_target(up, target, sizeof(target)) &&
	    creatable(r, target) && !made_only_outside(r, target))
		return refuse_dangling(plan, up, source, target, "hidden", path);
	/* Past PATH_MAX: no cover can be put there, and a rule above may
	 * reach it all the same (round 40b F2: a ~/.ssh linked into a
	 * directory 4,454 bytes deep was read under a rule on ~, and nothing
	 * was said). Only where a rule reaches its name (a loop of links leads
	 * to nothing to read, and refused every session: round 40e F2). */
	if (!canon && missing == ENAMETOOLONG &&
	    (reaches(&r->read, path, false) || reaches(&r->write, path, false))) {
		if (plan->refuse)
			return 0;
		return asprintf(&plan->refuse,
				"%s (%s): cannot be followed (%s), so it cannot be kept hidden; "
				"shorten the path or the links on its way",
				path, source, strerror(missing)) < 0
			       ? -ENOMEM
			       : 0;
	}
	errno = missing;
	/* A link on the way the session could replace, though what it leads
	 * to is out of every rule's reach (~/.dbt -> PROJ/dbt -> ~/private/dbt:
	 * round 10 made PROJ/dbt a directory of its own, and the profiles.yml
	 * a login outside then wrote, missing or there at the start, landed
	 * in it): kept in place. */
	int e = !canon || !reaches(&r->read, canon, false) ? pin_links(plan, r, path, source) : 0;
	if (e < 0)
		return e;
	if (!canon || stat(canon, &st) < 0)
		return errno == ENOMEM ? -ENOMEM : 0; /* absent: nothing to hide */
	bool dir = S_ISDIR(st.st_mode);
	/* A tool's config that holds no secret (cargo's, hatch's, pdm's,
	 * go's env: shim/redact.c): read as it is, nothing to cover or say.
	 * One that does is covered by its copy without it (mountns.c),
	 * where the name it is at ends as the config's; elsewhere (a link
	 * to another name) hidden whole. */
	if (S_ISREG(st.st_mode) && (cordon_redact_config(canon) || cordon_redact_config(path)) &&
	    !cordon_redact_needed(canon))
		return 0;
	/* Over the project, or a directory a rule makes writable: no
	 * session could run (round 11: hidden_paths ["~/src"], or
	 * DOCKER_CONFIG naming the project, failed only as the mounts were
	 * made, and explain said nothing). */
	for (size_t i = 0; dir && i < r->n_roots; i++) {
		const struct cordon_rule *rule = r->roots[i].rule;
		if (!cordon_path_under(r->roots[i].canon, canon))
			continue;
		if (plan->refuse)
			return 0;
		/* (As the user wrote it, where a link led it: round 34c S4;
		 * printable, a relative rule's text takes the cwd's names,
		 * which a session may have chosen: 35b U3.) */
		char as[PATH_MAX + 8], to[PATH_MAX + 8];
		cordon_printable(rule->written ? rule->written : rule->path, SIZE_MAX, as,
				 sizeof(as));
		cordon_printable(r->roots[i].canon, SIZE_MAX, to, sizeof(to));
		return (!rule->written
				? asprintf(&plan->refuse,
					   "%s (%s) holds %s (%s): hiding it would hide that "
					   "too; remove the entry, or name a path beneath it",
					   path, source, as, rule->source)
				: asprintf(&plan->refuse,
					   "%s (%s) holds %s (%s), which leads to %s: hiding it "
					   "would hide that too; remove the entry, or name a "
					   "path beneath it",
					   path, source, as, rule->source, to)) < 0
			       ? -ENOMEM
			       : 0;
	}
	if (r->seen && !cordon_strv_contains(&r->seen[0], canon) &&
	    (cordon_strv_push(&r->seen[0], canon) < 0 || cordon_strv_push(&r->seen[1], path) < 0 ||
	     cordon_strv_push(&r->seen[2], source) < 0))
		return -ENOMEM;
	e = warn_linked(r, path, source, &st);
	if (e >= 0 && !links && S_ISREG(st.st_mode))
		e = 0; /* (where a hidden directory's link leads: not ~/.npmrc) */
	else if (e >= 0 && S_ISREG(st.st_mode))
		e = warn_registry(plan, path, source);
	if (e < 0)
		return e;
	/* (Whether or not a rule reaches the directory itself.) */
	if (dir && links && (e = hide_links_in(plan, r, canon, source)) < 0)
		return e;
	if (!reaches(&r->read, canon, false) && !reaches(&r->write, canon, false)) {
		/* A rule beneath it (--allow-read ~/.ssh/id_rsa) exposes what it
		 * names, and is said as the session starts, as one naming the
		 * hidden path itself is (round 37c F4: it went unsaid, and
		 * explain called the path "still hidden as a whole"). */
		for (size_t i = 0; i < r->read.n; i++)
			if (cordon_path_under(r->read.v[i], canon) &&
			    strcmp(r->read.v[i], canon) != 0)
				return say_once(&plan->warnings,
						"%s is in %s, but a rule names %s beneath it: "
						"that is readable in this session, the rest of "
						"%s stays hidden",
						path, source, r->read.v[i], path);
		return 0; /* no rule reaches it: Landlock keeps it unreadable */
	}
	/* Linked into a writable tree (~/.ssh -> ~/dotfiles/keys/ssh): a link
	 * the session could replace would lead the tools outside elsewhere;
	 * a directory on the way it could rename would take the cover along
	 * and leave the name to be made anew: kept in place. */
	if ((e = pin_links(plan, r, path, source)) < 0)
		return e;
	/* Over where a session without a project starts (with one, it starts
	 * there): it could not go back into it (round 12: run refused,
	 * explain did not). */
	if (dir && r->cwd && r->p && !r->p->project && cordon_path_under(r->cwd, canon) &&
	    !plan->refuse &&
	    asprintf(&plan->refuse,
		     "%s (%s) holds the current directory %s, where the session starts: start "
		     "it elsewhere, or remove the entry",
		     path, source, r->cwd) < 0)
		return -ENOMEM;
	/* Covered whole: a rule beneath it reads nothing (round 37c F4: said,
	 * not left to be found out). */
	for (size_t i = 0; e >= 0 && i < r->read.n; i++)
		if (cordon_path_under(r->read.v[i], canon) && strcmp(r->read.v[i], canon) != 0)
			e = say_once(
				&plan->warnings,
				"%s is in %s, and a rule names %s beneath it: that stays hidden "
				"with it (name %s itself to read it)",
				path, source, r->read.v[i], path);
	if (e < 0)
		return e;
	e = add_mount(plan, canon, CORDON_MOUNT_HIDE, dir, source);
	return e < 0 ? e : pin_parents(plan, r, canon, source);
}

static int hide(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
		const char *source)
{
	return hide_at(plan, r, path, source, true);
}

/* What FILE names, as cordon_git_link_file reads it, joined with BASE
 * when relative but not resolved, into OUT (SIZE bytes): false when there
 * is none. */
static bool git_link_raw(const char *file, const char *prefix, const char *base, char *out,
			 size_t size)
{
	char buf[PATH_MAX + 16];
	FILE *f = cordon_fopen_regular(file);
	if (!f)
		return false;
	/* As git reads it: the whole file, less the line ends at its end (a
	 * newline inside is part of the path). */
	size_t got = fread(buf, 1, sizeof(buf), f);
	(void)fclose(f); /* read only */
	if (got == sizeof(buf) || memchr(buf, '\0', got))
		return false; /* longer than a path, or one git would cut */
	while (got && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
		got--;
	buf[got] = '\0';
	size_t n = strlen(prefix);
	char *line = buf;
	if (strncmp(line, prefix, n) != 0)
		return false;
	line += n;
	if (!*line)
		return false;
	int w = line[0] == '/' ? snprintf(out, size, "%s", line)
			       : snprintf(out, size, "%s/%s", base, line);
	return w > 0 && (size_t)w < size;
}

char *cordon_git_link_file(const char *file, const char *prefix, const char *base)
{
	char joined[PATH_MAX * 2];
	if (!git_link_raw(file, prefix, base, joined, sizeof(joined)))
		return NULL;
	return realpath(joined, NULL);
}

/* -E2BIG past MAX_GIT_DIRS: never a silent cut (a session could make
 * dummies until the real ones fell past it); protect_git refuses. */
static int add_dir(struct cordon_strv *dirs, const char *d)
{
	if (!d || cordon_strv_contains(dirs, d))
		return 0;
	return dirs->n >= MAX_GIT_DIRS ? -E2BIG : cordon_strv_push(dirs, d);
}

/* Whether DIR holds NAME (any kind of file). */
static bool holds(const char *dir, const char *name)
{
	char path[PATH_MAX + 16];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

/* Whether DIR is a git dir as the sweep takes one (git's own
 * is_git_directory): HEAD, and objects and refs or a commondir. Never
 * more than the sweep judges: what the guards keep counts as the user's
 * there, and a config alone that a session made (47d H1: kept by the next
 * session's guards as a submodule's, it was never judged, and ran at git
 * status outside for good once a checkout led to it). */
/* The hex digits of an object id in the repository whose submodules'
 * git dirs the guards look for (protect_git): a HEAD of 40 in a sha256
 * superproject is none to git, which then uses a git dir below it
 * (round 49a F3). */
static unsigned modules_hexsz = 40;

static bool git_dir_as_swept(const char *dir)
{
	return cordon_guard_head_valid(AT_FDCWD, dir, modules_hexsz) &&
	       cordon_guard_git_dir_but_head(dir);
}

/* Whether the HEAD in DIR (AT_FDCWD: a path; else a directory and "") is
 * one git takes (validate_headref): a link into refs/, "ref: refs/...",
 * or an object id. A directory git would not take for a repository is
 * none to the guards either, which look below it then (round 48d F1: a
 * session gave .git/modules/d a HEAD git rejects, and the guards took d
 * for a git dir and never reached the user's .git/modules/d/X). */
bool cordon_guard_head_valid(int at, const char *dir, unsigned hexsz)
{
	char path[PATH_MAX + 8], buf[256];
	snprintf(path, sizeof(path), "%s%sHEAD", dir, *dir ? "/" : "");
	struct stat st;
	if (fstatat(at, path, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	/* (A link git takes only into refs/, and follows no other: round
	 * 48e F1.) */
	if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlinkat(at, path, buf, sizeof(buf) - 1);
		return n >= 5 && memcmp(buf, "refs/", 5) == 0;
	}
	if (!S_ISREG(st.st_mode))
		return false;
	int fd = openat(at, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (strncmp(buf, "ref:", 4) == 0) {
		/* (git's own isspace: no \v nor \f, which C's takes and git
		 * does not, round 48e F1: a HEAD "ref:\vrefs/..." made a
		 * directory a git dir to cordon and none to git.) */
		const char *p = buf + 4 + strspn(buf + 4, " \t\n\r");
		if (strncmp(p, "refs/", 5) == 0)
			return true;
	}
	return strspn(buf, "0123456789abcdefABCDEF") >= hexsz;
}

unsigned cordon_git_hexsz(const char *gitdir)
{
	char config[PATH_MAX + 16];
	return cordon_git_common_config(gitdir, config, sizeof(config))
		       ? 2 * (unsigned)cordon_git_hash_size(config)
		       : 40;
}

/* Whether git finds objects and refs it can search in DIR's common dir
 * (its commondir's, or DIR itself): is_git_directory but the HEAD. */
static bool common_searchable(int at, const char *dir)
{
	const char *sep = *dir ? "/" : "";
	char path[PATH_MAX + 16], common[PATH_MAX * 2 + 16], buf[PATH_MAX];
	snprintf(path, sizeof(path), "%s%scommondir", dir, sep);
	snprintf(common, sizeof(common), "%s", *dir ? dir : ".");
	/* (A regular file only: round 54a F1.) */
	int fd = cordon_open_regular_at(at, path);
	struct stat st;
	if (fd < 0 && (fstatat(at, path, &st, 0) == 0 || errno != ENOENT))
		return false; /* (not a regular file: git dies there) */
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		/* (One longer than a path reads otherwise to git, which reads it
		 * whole: none that cordon takes, round 49a.) */
		if (n <= 0 || n == (ssize_t)sizeof(buf) - 1)
			return false; /* (git dies there: nothing of it runs) */
		while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r'))
			n--;
		buf[n] = '\0';
		if (buf[0] == '/')
			snprintf(common, sizeof(common), "%s", buf);
		else
			snprintf(common, sizeof(common), "%s%s%s", dir, sep, buf);
	}
	char objects[sizeof(common) + 16], refs[sizeof(common) + 16];
	snprintf(objects, sizeof(objects), "%s/objects", common);
	snprintf(refs, sizeof(refs), "%s/refs", common);
	return faccessat(at, objects, X_OK, 0) == 0 && faccessat(at, refs, X_OK, 0) == 0;
}

bool cordon_guard_git_dir_as_git(int at, const char *dir, unsigned hexsz)
{
	return cordon_guard_head_valid(at, dir, hexsz) && common_searchable(at, dir);
}

bool cordon_git_own_dir(const char *name)
{
	static const char *const own[] = {"objects",
					  "refs",
					  "logs",
					  "hooks",
					  "info",
					  "modules",
					  "worktrees",
					  "branches",
					  "remotes",
					  "rr-cache",
					  "lfs",
					  "svn",
					  "annex",
					  "rebase-merge",
					  "rebase-apply",
					  "sequencer",
					  "fsmonitor--daemon",
					  NULL};
	for (size_t i = 0; own[i]; i++)
		if (strcmp(name, own[i]) == 0)
			return true;
	return false;
}

bool cordon_guard_git_dir_but_head(const char *dir)
{
	return (holds(dir, "objects") && holds(dir, "refs")) || holds(dir, "commondir");
}

/* The HEAD of each submodule git dir find_modules found, as this process
 * first read it (the launcher plans before the session runs): put back as
 * the session ends where it is gone (47c P1: a session moved a module's
 * HEAD away, the next session's guard took the directory for no git dir,
 * and that session wrote its config, then put HEAD back). */
#define HEADS_KEPT MAX_GIT_DIRS /* (past them, the session is refused) */
static struct head_kept {
	char *dir;
	char text[256];
	size_t n;
} heads_kept[HEADS_KEPT];
static size_t heads_n;

static void keep_head(const char *dir)
{
	for (size_t i = 0; i < heads_n; i++)
		if (strcmp(heads_kept[i].dir, dir) == 0)
			return;
	char path[PATH_MAX + 8];
	snprintf(path, sizeof(path), "%s/HEAD", dir);
	struct head_kept *h = heads_n < HEADS_KEPT ? &heads_kept[heads_n] : NULL;
	if (!h || !(h->dir = strdup(dir)))
		return;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	ssize_t n = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)
			    ? read(fd, h->text, sizeof(h->text))
			    : -1;
	if (fd >= 0)
		close(fd);
	/* One git never writes (no HEAD of git's is that long, nor a
	 * directory or a link now: 47e F1, a session made one so that
	 * nothing was kept, and the next removed it): a branch instead, so
	 * that what is put back is a HEAD git takes. */
	static const char branch[] = "ref: refs/heads/master\n";
	if (n <= 0 || (size_t)n >= sizeof(h->text) || memchr(h->text, '\0', (size_t)n)) {
		memcpy(h->text, branch, sizeof(branch) - 1);
		n = (ssize_t)sizeof(branch) - 1;
	}
	h->n = (size_t)n;
	heads_n++;
}

/* DIR's HEAD made again, with TEXT (N bytes), in the directory D where
 * it is gone or no file (moved aside first: 47e F1): 1 where it was, 0
 * where nothing was needed, else -errno. */
static int restore_head(int d, const char *text, size_t n)
{
	struct stat st, dst, aside;
	if (fstatat(d, "HEAD", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISREG(st.st_mode) && cordon_guard_head_valid(d, "", 40))
			return 0;
		if (fstatat(d, "HEAD.cordon-disarmed", &aside, AT_SYMLINK_NOFOLLOW) == 0 ||
		    renameat(d, "HEAD", d, "HEAD.cordon-disarmed") < 0)
			return -EEXIST;
	} else if (errno != ENOENT) {
		return -errno;
	}
	int fd = openat(d, "HEAD", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	bool whole = write(fd, text, n) == (ssize_t)n;
	if (geteuid() == 0 && fstat(d, &dst) == 0)
		(void)!fchown(fd, dst.st_uid, dst.st_gid); /* (the owner's, as git's) */
	return close(fd) == 0 && whole ? 1 : -EIO;
}

int cordon_guard_put_head_back(const char *dir, const char *text, size_t n, const char *ended,
			       struct cordon_strv *said)
{
	/* (Its way made unreadable as the session ended: opened.) */
	if (faccessat(AT_FDCWD, dir, R_OK | W_OK | X_OK, AT_EACCESS) < 0 &&
	    (errno == EACCES || errno == EPERM))
		(void)cordon_way_up(dir, true);
	int d = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int e = d < 0 ? -errno : restore_head(d, text, n);
	if (d >= 0)
		close(d);
	char *line = NULL;
	if (e == 1 &&
	    asprintf(&line,
		     "cordon: %s/HEAD, the HEAD of a submodule's git dir, was gone or no file "
		     "%s (git would no longer take the directory for a repository, nor cordon's "
		     "guards): cordon put back the one it had as the session started",
		     dir, ended) < 0)
		line = NULL;
	/* (Never a silent failure: round 48a F1. A directory gone is no
	 * repository for git either.) */
	if (e < 0 && e != -ENOENT &&
	    asprintf(&line,
		     "cordon: %s/HEAD, the HEAD of a submodule's git dir, may be gone or no file "
		     "%s, and cordon could not put it back (%s): until it is, cordon's guards "
		     "do not take the directory for a repository; look at it outside, and put "
		     "HEAD back before the next session",
		     dir, ended, strerror(-e)) < 0)
		line = NULL;
	if (line)
		(void)cordon_strv_push_take(said, line);
	return e == -ENOENT ? 0 : e;
}

bool cordon_guard_head_gone(const char *dir)
{
	char path[PATH_MAX + 8];
	struct stat st;
	snprintf(path, sizeof(path), "%s/HEAD", dir);
	return cordon_guard_git_dir_but_head(dir) &&
	       (lstat(path, &st) < 0
			? errno == ENOENT
			: !S_ISREG(st.st_mode) || !cordon_guard_head_valid(AT_FDCWD, dir, 40));
}

void cordon_guard_restore_heads(const struct cordon_sweep *sweep, struct cordon_strv *said)
{
	cordon_sweep_ways_up(sweep);
	for (size_t i = 0; i < heads_n; i++)
		cordon_guard_put_head_back(heads_kept[i].dir, heads_kept[i].text, heads_kept[i].n,
					   "as this session ended", said);
}

size_t cordon_guard_heads(const char **dir, const char **text, size_t *n, size_t i)
{
	if (i >= heads_n)
		return heads_n;
	*dir = heads_kept[i].dir;
	*text = heads_kept[i].text;
	*n = heads_kept[i].n;
	return heads_n;
}

/* The directories below the modules that are no git dir (nor a modules/)
 * that find_modules and git_dir_inside may open in one plan: a module's
 * git dir holds git's own directories and few others, and a session that
 * filled one with 20,000 made every later launch take seconds (round 48e
 * F2). Past it, where the session could write, the session is refused. */
#define MODULE_LOOKS 2048
static int module_looks;

/* One directory more to open below the modules: whether the budget
 * allows it (DIR, where it ran out, into OUT once). */
static bool module_look(const char *dir, char **out)
{
	if (module_looks-- > 0)
		return true;
	if (!*out)
		*out = strdup(dir);
	return false;
}

static char *looks_out;

/* The git dirs git_dir_inside found none in, this plan (each protected
 * name in a .git plans the same modules again). */
static struct cordon_strv inside_none;

/* Whether DIR, a git dir, holds another below a directory of its own
 * that is none of git's (a submodule named d/X has its git dir at
 * modules/d/X: round 48d F1, a session made modules/d a git dir, which
 * hid the user's d/X from the guards and the sweep): the first found
 * into FOUND (SIZE bytes). */
static bool git_dir_inside(const char *dir, int depth, char *found, size_t size)
{
	if (depth > MODULE_DEPTH || (depth > 0 && !module_look(dir, &looks_out)))
		return false;
	DIR *d = opendir(dir);
	bool in = false;
	for (struct dirent *de; d && !in && (de = readdir(d));) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		/* (One of git's own names only where it is a git dir itself:
		 * never one of git's, round 49a F2.) */
		bool own = depth == 0 && cordon_git_own_dir(de->d_name);
		char sub[PATH_MAX];
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name) >= sizeof(sub))
			continue;
		struct stat st;
		if (de->d_type == DT_UNKNOWN && (lstat(sub, &st) < 0 || !S_ISDIR(st.st_mode)))
			continue;
		in = git_dir_as_swept(sub);
		if (in)
			snprintf(found, size, "%s", sub);
		else if (!own)
			in = git_dir_inside(sub, depth + 1, found, size);
	}
	if (d)
		closedir(d);
	return in;
}

/* The directories find_modules passed over as no git dir (a HEAD gone):
 * one a running session's launcher kept as a module's git dir refuses
 * this session (cordon_guard_passed_over). */
static struct cordon_strv passed_over;

static void pass_over(const char *dir)
{
	(void)cordon_strv_push_new(&passed_over, dir);
}

bool cordon_guard_passed_over(const char *dir)
{
	return cordon_strv_contains(&passed_over, dir);
}

/* The git dirs of submodules beneath DIR/modules (git keeps them there,
 * named by the submodule, which may hold slashes): each git_dir_as_swept,
 * into DIRS and MODS, its HEAD kept (keep_head); one that cannot be read
 * refuses the session (refuse_unreadable). */
static int find_modules(struct cordon_guard_plan *plan, const struct reach *r,
			struct cordon_strv *dirs, struct cordon_strv *mods, const char *dir,
			int depth)
{
	if (depth > MODULE_DEPTH)
		return 0;
	DIR *d = opendir(dir);
	if (!d)
		return errno == ENOENT || errno == ENOTDIR ? 0
							   : refuse_unreadable(plan, r, dir, errno);
	int e = 0;
	for (struct dirent *de; e >= 0 && (de = readdir(d));) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		char sub[PATH_MAX];
		int n = snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if (n < 0 || (size_t)n >= sizeof(sub))
			continue; /* past PATH_MAX: no path anything opens */
		/* (Looked at once: a session toggling HEAD won a race between
		 * two looks, round 48c F1. Passed over only with the rest of a
		 * git dir, which the guards' commondir keeps: round 48d F3.) */
		bool rest = cordon_guard_git_dir_but_head(sub),
		     git_dir = rest && cordon_guard_head_valid(AT_FDCWD, sub, modules_hexsz);
		if (!git_dir && rest)
			pass_over(sub);
		char inner[PATH_MAX];
		/* (Both named, and only a HEAD to remove: the outer one may
		 * be a session's fake above the user's own, round 48e F4.) */
		bool inside = git_dir && !cordon_strv_contains(&inside_none, sub) &&
			      git_dir_inside(sub, 0, inner, sizeof(inner));
		if (git_dir && !inside)
			(void)cordon_strv_push_new(&inside_none, sub); /* (else: looked again) */
		if (inside)
			e = refuse_once(
				plan,
				"%s: a git dir lies inside this submodule's git dir, at %s "
				"(git uses neither as the other's submodule), and cordon "
				"cannot tell which is yours: look at both outside, and move "
				"only the HEAD of the one that is not yours away (what lies "
				"below it is kept); then start the session",
				sub, inner);
		if (e >= 0 && git_dir) {
			keep_head(sub);
			e = add_dir(dirs, sub);
			if (e >= 0)
				e = add_dir(mods, sub);
			char in[PATH_MAX + 8];
			snprintf(in, sizeof(in), "%s/modules", sub);
			if (e >= 0)
				e = find_modules(plan, r, dirs, mods, in, depth + 1);
			/* One git would not take for a git dir (its commondir
			 * naming nothing, say) is looked through whole, as git
			 * then uses a module git dir below it by any name (round
			 * 48e F1: modules/d/logs below such a d). */
			if (e >= 0 && !common_searchable(AT_FDCWD, sub)) /* (its HEAD is) */
				e = find_modules(plan, r, dirs, mods, sub, depth + 1);
		} else if (e >= 0 && module_look(sub, &looks_out)) {
			e = find_modules(plan, r, dirs, mods, sub, depth + 1);
		}
	}
	closedir(d);
	return e;
}

/* Whether REL is a path git would take for a checkout in its worktree:
 * relative, with no ".." component. */
static bool inside_rel(const char *rel)
{
	if (!rel[0] || rel[0] == '/')
		return false;
	for (const char *c = rel; c; c = strchr(c, '/')) {
		c += *c == '/';
		if (c[0] == '.' && c[1] == '.' && (c[2] == '/' || c[2] == '\0'))
			return false;
	}
	return true;
}

#define SUBMODULE_DEPTH 64

/* The submodule checkouts of one worktree, walked by protect_submodules. */
struct checkouts {
	struct cordon_guard_plan *plan;
	const struct reach *r;
	struct cordon_strv *dirs;    /* the git dirs found: each guarded as the rest */
	struct cordon_strv *seen;    /* checkouts done */
	struct cordon_strv *reached; /* the git dirs their .git led to */
	const char *base;            /* the worktree */
	const char *source;
	int depth;
	bool gitlink; /* the checkouts given now are its index's gitlinks */
};

static int protect_submodules(struct checkouts *c, const char *gitdir);

/* The checkout REL of C's worktree, of a submodule that is not
 * populated: it has no .git (not initialized: a clone without
 * --recurse-submodules), or is not there (outside a sparse checkout's
 * cone). A .git made there inside sends git status, outside at the top,
 * into a git dir the session made (46g G2), so none can be: the checkout
 * kept read-only, or where it is missing, the first missing directory on the
 * way to it stands in (empty, read-only) and what is in the way is kept.
 * For a gitlink only: git goes into no other path .gitmodules names (one
 * stale there, a directory of the user's now, would be kept read-only). */
static int protect_unpopulated(struct checkouts *c, const char *rel)
{
	if (!c->gitlink)
		return 0;
	char path[PATH_MAX];
	size_t n = (size_t)snprintf(path, sizeof(path), "%s", c->base);
	for (const char *s = rel; *s && n < sizeof(path);) {
		size_t k = strcspn(s, "/");
		n += (size_t)snprintf(path + n, sizeof(path) - n, "/%.*s", (int)k, s);
		s += k;
		s += strspn(s, "/");
		struct stat st;
		if (n >= sizeof(path))
			return 0;
		if (lstat(path, &st) < 0)
			return errno == ENOENT
				       ? protect(c->plan, c->r, path, c->source, PLACEHOLDER)
				       : refuse_unreadable(c->plan, c->r, path, errno);
		/* A file or a link in the way (git goes no further, nor
		 * through a link), the checkout itself, or a stand-in on
		 * the way (this session's, or another's: held too). */
		if (!S_ISDIR(st.st_mode))
			return protect(c->plan, c->r, path, c->source, NO_LINKS);
		if (!*s || cordon_placeholder_marked(path))
			return protect(c->plan, c->r, path, c->source, NO_LINKS | PLACEHOLDER);
	}
	return 0;
}

/* The checkout REL of C's worktree: its .git file protected (rewritten, it
 * would send git outside to a planted git dir) with the links on the way
 * to it kept, its git dir (the one the file names, or a directory kept in
 * the checkout itself: a clone added as a submodule) pushed to DIRS, and
 * its own submodules in turn. */
static int protect_checkout(const char *rel, void *arg)
{
	struct checkouts *c = arg;
	char sub[PATH_MAX], link[PATH_MAX + 8];
	if (!inside_rel(rel) ||
	    (size_t)snprintf(sub, sizeof(sub), "%s/%s", c->base, rel) >= sizeof(sub))
		return 0; /* past PATH_MAX: no path anything opens */
	if (cordon_strv_contains(c->seen, sub))
		return 0;
	snprintf(link, sizeof(link), "%s/.git", sub);
	struct stat st;
	int e = 0;
	if (lstat(link, &st) < 0) {
		/* (Seen only as a gitlink: one a module's core.worktree or
		 * .gitmodules named first is kept when a gitlink names it
		 * too, 47d M2.) */
		int why = errno;
		if (why != ENOENT && why != ENOTDIR)
			return refuse_unreadable(c->plan, c->r, sub, why);
		if (!c->gitlink)
			return 0;
		return (e = cordon_strv_push(c->seen, sub)) < 0 ? e : protect_unpopulated(c, rel);
	}
	if ((e = cordon_strv_push(c->seen, sub)) < 0)
		return e;
	if ((e = pin_links(c->plan, c->r, link, c->source)) < 0)
		return e;
	cleanup_free char *gd = NULL;
	errno = 0;
	if (S_ISREG(st.st_mode)) {
		e = protect(c->plan, c->r, link, c->source, 0);
		gd = cordon_git_link_file(link, "gitdir: ", sub);
	} else if (stat(link, &st) == 0 && S_ISDIR(st.st_mode)) {
		gd = canon_of(c->r, link);
	}
	if (e >= 0 && !gd)
		e = refuse_unreadable(c->plan, c->r, link, errno);
	if (e < 0 || !gd)
		return e;
	if ((e = add_dir(c->dirs, gd)) < 0 || (e = add_dir(c->reached, gd)) < 0)
		return e;
	if (c->depth >= SUBMODULE_DEPTH)
		return refuse_once(c->plan,
				   "%s: submodules nested more than %d deep: cordon cannot guard "
				   "them all",
				   sub, SUBMODULE_DEPTH);
	struct checkouts in = *c;
	in.base = sub;
	in.depth++;
	return protect_submodules(&in, gd);
}

/* The session refused for REPO's submodules, which cordon cannot tell
 * (WHY): where it cannot say which checkouts git goes down into, it cannot
 * keep them (46f: an index whose gitlink had no name, and .gitmodules
 * gone from the worktree, hid the user's submodule from the guard). */
static int refuse_submodules(struct cordon_guard_plan *plan, const char *repo, const char *why)
{
	return refuse_once(plan, "%s: cordon cannot tell which submodules git would use: %s", repo,
			   why);
}

/* A .gitmodules read for its checkouts: C's, and the first error. */
struct gitmodules {
	struct checkouts *c;
	int e;
};

/* A "path" entry of a .gitmodules (any section's), guarded as a checkout
 * (protect_checkout). */
static int gitmodules_path(const struct cordon_gitcfg_entry *e, void *arg)
{
	struct gitmodules *m = arg;
	if (strcmp(e->key, "path") == 0 && e->value && e->value[0])
		m->e = protect_checkout(e->value, m->c);
	return m->e < 0 ? -ECANCELED : 0;
}

/* The submodule checkouts of C's worktree, whose git dir is GITDIR: each
 * gitlink of its index (what git status goes down into) and each path of
 * its .gitmodules (what git submodule uses), guarded by protect_checkout.
 * Review 46a F1/F2 (a submodule's submodules, one kept in its checkout)
 * and 46c F1 (a gitlink .gitmodules does not name, a value git's parser
 * reads otherwise, a .git link, nesting past six). */
static int protect_submodules(struct checkouts *c, const char *gitdir)
{
	char index[PATH_MAX];
	snprintf(index, sizeof(index), "%s/index", gitdir);
	if (faccessat(AT_FDCWD, index, R_OK, AT_EACCESS) < 0 && (errno == EACCES || errno == EPERM))
		return refuse_unreadable(c->plan, c->r, index, errno);
	bool tracked = false;
	c->gitlink = true;
	int e = cordon_git_index_gitlinks(gitdir, protect_checkout, c, &tracked);
	c->gitlink = false;
	if (e == -EINVAL)
		e = refuse_submodules(
			c->plan, c->base,
			"its index is one cordon cannot read whole (a split index "
			"with a replaced gitlink, or past 256 MiB): run `git "
			"update-index --no-split-index` outside, or start the session "
			"elsewhere");
	if (e < 0 && e != -EACCES)
		return e;
	char file[PATH_MAX];
	snprintf(file, sizeof(file), "%s/.gitmodules", c->base);
	struct stat st;
	if (tracked && lstat(file, &st) < 0 && errno == ENOENT &&
	    (e = refuse_submodules(c->plan, c->base,
				   ".gitmodules is in its index but not in its worktree (git "
				   "reads the index's copy then): restore it outside (git "
				   "checkout -- .gitmodules)")) < 0)
		return e;
	FILE *f = cordon_fopen_regular(file);
	if (!f)
		return errno == ENOENT ? 0 : refuse_unreadable(c->plan, c->r, file, errno);
	(void)fclose(f); /* read only */
	/* Each "path" as git's config parser reads it (round 46c F1), in
	 * any section: the checkouts git submodule uses. */
	struct gitmodules m = {c, 0};
	e = cordon_gitcfg_read(file, gitmodules_path, &m);
	if (e == -EFBIG)
		return refuse_submodules(c->plan, c->base,
					 ".gitmodules is longer than cordon reads (1 MiB)");
	/* (Up to a line git refuses, where git stops too.) */
	return m.e < 0 ? m.e : e == -ENOMEM ? e : 0;
}

/* FILE, a missing file git reads in a git dir, made holding CONTENT (what
 * git takes without one) so that it exists to be kept read-only. Nothing
 * else can guard a name that is missing: a mount needs something to mount
 * on. If it cannot be made, it stays in the unguarded list. */
static int keep_file(struct cordon_guard_plan *plan, const struct reach *r, const char *file,
		     const char *content, const char *source)
{
	if (cordon_strv_push(r->made, file) < 0)
		return -ENOMEM;
	if (r->create) {
		int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd >= 0) {
			size_t n = strlen(content);
			bool whole = write(fd, content, n) == (ssize_t)n;
			if (close(fd) < 0 || !whole)
				(void)unlink(file); /* git would die on a file it cannot read */
		}
		struct stat st;
		if (lstat(file, &st) < 0) {
			if (cordon_strv_push_new(&plan->unguarded, file) < 0)
				return -ENOMEM;
			return 0;
		}
	}
	return protect(plan, r, file, source, 0);
}

/* What read_config_value looks for, and the last value it found. */
struct config_value {
	const char *section, *key;
	char **value;
};

static int config_value_of(const struct cordon_gitcfg_entry *e, void *arg)
{
	const struct config_value *want = arg;
	if (e->sub || strcmp(e->section, want->section) != 0 || strcmp(e->key, want->key) != 0)
		return 0;
	/* (A key alone is true.) */
	char *v = strdup(e->value ? e->value : "true");
	if (!v)
		return -ENOMEM;
	free(*want->value);
	*want->value = v;
	return 0;
}

/* The last SECTION.KEY (lowercase; no subsection) set in the git config
 * file FILE into *VALUE (replaced, freed by the caller), as git reads it
 * (cordon_gitcfg_read: up to a line git refuses, where git would stop);
 * nothing when none. Include directives are not followed. 0, or -EFBIG
 * for a file too long to read. */
static int read_config_value(const char *file, const char *section, const char *key, char **value)
{
	struct config_value want = {section, key, value};
	int e = cordon_gitcfg_read(file, config_value_of, &want);
	return e == -EFBIG ? e : 0;
}

/* What read_includes reads a file with. */
struct includes {
	const char *file, *home;
	int depth;
	struct cordon_strv *out;
};

static int read_includes(const char *file, const char *home, int depth, struct cordon_strv *out);

static int include_of(const struct cordon_gitcfg_entry *e, void *arg)
{
	const struct includes *in = arg;
	if (strcmp(e->key, "path") != 0 || !e->value ||
	    !((!e->sub && strcmp(e->section, "include") == 0) ||
	      (e->sub && strcmp(e->section, "includeif") == 0)))
		return 0;
	char dir[PATH_MAX], path[PATH_MAX * 2];
	const char *slash = in->file ? strrchr(in->file, '/') : NULL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash ? slash - in->file : 0), in->file);
	/* (From the environment, no file: git takes no relative one.) */
	if (!cordon_gitcfg_path(e->value, in->home, in->file ? dir : NULL, path, sizeof(path)) ||
	    cordon_strv_contains(in->out, path))
		return 0;
	int r = cordon_strv_push(in->out, path);
	return r < 0 ? r : read_includes(path, in->home, in->depth + 1, in->out);
}

/* The files git config FILE includes ([include] and [includeIf "…"]
 * path, whatever the condition), as absolute paths into OUT, and theirs,
 * DEPTH levels down (git stops at ten): relative to the including file's
 * directory, "~/" the home, "~user/" that user's. */
static int read_includes(const char *file, const char *home, int depth, struct cordon_strv *out)
{
	if (depth >= 10)
		return 0;
	struct includes in = {file, home, depth, out};
	int e = cordon_gitcfg_read(file, include_of, &in);
	return e == -ENOMEM ? e : 0; /* (one too big for any git writes: not followed) */
}

int cordon_git_includes(const char *file, const char *home, struct cordon_strv *out)
{
	return read_includes(file, home, 0, out);
}

/* The files Mercurial's config FILE includes (%include PATH at a line's
 * start, after any white space as hg's \s takes it; lines end at \n or
 * \r, as bytes.splitlines ends them; a byte-order mark skipped: relative
 * to FILE's directory, "~/" the home; a missing one is skipped by hg), as
 * absolute paths into OUT, and theirs, DEPTH levels down (eight). One
 * with a variable in it cannot be followed: *DYNAMIC set (may be NULL). */
static int read_hg_includes(const char *file, const char *home, int depth, struct cordon_strv *out,
			    bool *dynamic)
{
	size_t len = 0;
	cleanup_free char *text = depth > 8 ? NULL : cordon_read_regular(file, 1u << 20, &len);
	int e = 0;
	char *start = text;
	if (text && len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		start += 3;
	static const char space[] = " \t\v\f";
	for (char *line = start, *next; e >= 0 && line && line < text + len; line = next) {
		next = line + strcspn(line, "\r\n");
		*next++ = '\0';
		if (strncmp(line, "%include", 8) != 0 || !line[8] || !strchr(space, line[8]))
			continue;
		char *v = line + 8 + strspn(line + 8, space);
		size_t n = strlen(v);
		while (n && strchr(space, v[n - 1]))
			v[--n] = '\0';
		char path[PATH_MAX * 2];
		const char *slash = strrchr(file, '/');
		if (n && strchr(v, '$') && dynamic)
			*dynamic = true;
		if (!n || strchr(v, '$') || (v[0] == '~' && (v[1] != '/' || !home)))
			continue;
		if (v[0] == '~')
			snprintf(path, sizeof(path), "%s%s", home, v + 1);
		else if (v[0] == '/')
			snprintf(path, sizeof(path), "%s", v);
		else
			snprintf(path, sizeof(path), "%.*s/%s", (int)(slash ? slash - file : 0),
				 file, v);
		if (cordon_strv_contains(out, path))
			continue;
		e = cordon_strv_push(out, path);
		if (e >= 0)
			e = read_hg_includes(path, home, depth + 1, out, dynamic);
	}
	return e;
}

int cordon_hg_includes(const char *file, const char *home, struct cordon_strv *out)
{
	return read_hg_includes(file, home, 0, out, NULL);
}

/* What a protected .hg/hgrc (or hgrc-not-shared), or the user's ~/.hgrc
 * or ~/.config/hg/hgrc, at PATH includes is config hg obeys too (round
 * 27c: %include ../hgrc.team, in the project, was writable, and hg
 * status outside ran its hook; 27d: one ~/.hgrc named): guarded as git's
 * includes are, one missing with an empty stand-in (hg reads it as no
 * settings). */
static int protect_hg_includes(struct cordon_guard_plan *plan, const struct reach *r,
			       const char *path, const char *source)
{
	size_t n = strlen(path);
	if (!((n > 9 && strcmp(path + n - 9, "/.hg/hgrc") == 0) ||
	      (n > 20 && strcmp(path + n - 20, "/.hg/hgrc-not-shared") == 0) ||
	      (n > 6 && strcmp(path + n - 6, "/.hgrc") == 0) ||
	      (n > 8 && strcmp(path + n - 8, "/hg/hgrc") == 0)))
		return 0;
	struct cordon_strv inc = {0};
	bool dynamic = false;
	int e = read_hg_includes(path, r->home, 0, &inc, &dynamic);
	if (e >= 0 && dynamic)
		e = say_once(
			&plan->warnings,
			"%s includes a file named with a variable (%%include $VAR/...): cordon "
			"cannot keep it read-only; write its path",
			path);
	for (size_t i = 0; e >= 0 && i < inc.n; i++)
		e = protect(plan, r, inc.v[i], source,
			    CORDON_OS_NATIVE == CORDON_OS_LINUX ? FILE_PLACEHOLDER : 0);
	cordon_strv_free(&inc);
	return e;
}

/* An absolute path for the git config file the variable VAR names (git
 * takes a relative one against its cwd: cordon's is the one the user ran
 * it in) into F (SIZE bytes): false for none. */
static bool config_named_by(const char *var, char *f, size_t size)
{
	const char *v = cordon_gitcfg_getenv(var);
	char cwd[PATH_MAX];
	if (!v || !v[0])
		return false;
	if (v[0] == '/')
		return (size_t)snprintf(f, size, "%s", v) < size;
	return getcwd(cwd, sizeof(cwd)) && (size_t)snprintf(f, size, "%s/%s", cwd, v) < size;
}

/* The git config files, in the order git reads them (a later one wins):
 * the system's, the global ones (HOME's, which may be NULL), then each of
 * DIRS' config and config.worktree; without GLOBAL, only DIRS'. Those
 * GIT_CONFIG_SYSTEM and GIT_CONFIG_GLOBAL name (where git outside reads
 * instead, in a terminal that exports them) besides the usual ones: the
 * git the user runs later may have them or not. */
static int git_config_files(const char *home, bool global, const struct cordon_strv *dirs,
			    struct cordon_strv *files)
{
	int e = global ? cordon_strv_push(files, "/etc/gitconfig") : 0;
	char f[PATH_MAX + 32];
	if (e >= 0 && global && config_named_by("GIT_CONFIG_SYSTEM", f, sizeof(f)))
		e = cordon_strv_push_new(files, f);
	if (e >= 0 && global && config_named_by("GIT_CONFIG_GLOBAL", f, sizeof(f)))
		e = cordon_strv_push_new(files, f);
	/* The config directories earlier launches had (git outside, run with
	 * one as XDG_CONFIG_HOME, reads its git/config in place of this
	 * one's): first, so that a value there is the last one only where the
	 * home's files set none. */
	struct cordon_strv known = {0};
	if (e >= 0 && global)
		e = cordon_gitcfg_known_homes(&known);
	for (size_t i = 0; e >= 0 && i < known.n; i++) {
		snprintf(f, sizeof(f), "%s/git/config", known.v[i]);
		e = cordon_strv_push_new(files, f);
	}
	cordon_strv_free(&known);
	/* (git reads $XDG_CONFIG_HOME/git/config, then ~/.gitconfig; a git
	 * run without the variable reads ~/.config/git/config in its place:
	 * round 52f, one set there went unguarded in a launch with it.) */
	if (e >= 0 && global && home) {
		snprintf(f, sizeof(f), "%s/.config/git/config", home);
		e = cordon_strv_push_new(files, f);
		const char *xdg = getenv("XDG_CONFIG_HOME");
		if (e >= 0 && xdg && xdg[0] == '/') {
			snprintf(f, sizeof(f), "%s/git/config", xdg);
			e = cordon_strv_push(files, f);
		}
		snprintf(f, sizeof(f), "%s/.gitconfig", home);
		if (e >= 0)
			e = cordon_strv_push(files, f);
	}
	for (size_t i = 0; e >= 0 && i < dirs->n; i++) {
		snprintf(f, sizeof(f), "%s/config", dirs->v[i]);
		e = cordon_strv_push(files, f);
		snprintf(f, sizeof(f), "%s/config.worktree", dirs->v[i]);
		if (e >= 0)
			e = cordon_strv_push(files, f);
	}
	return e;
}

/* What git's config files include is config too: an include of a file in
 * the project (git config include.path ../.gitconfig) or in a writable
 * home (~/.gitconfig.local) is guarded as .git/config is. One missing gets
 * an empty file as its stand-in, kept read-only (round 13: made inside,
 * the git an editor ran outside while the session ran obeyed it). */
static int protect_includes(struct cordon_guard_plan *plan, const struct reach *r,
			    const struct cordon_strv *dirs, const char *source)
{
	struct cordon_strv files = {0}, inc = {0};
	int e = git_config_files(r->home, true, dirs, &files);
	for (size_t i = 0; e >= 0 && i < files.n; i++)
		e = read_includes(files.v[i], r->home, 0, &inc);
	/* (And those the terminal's GIT_CONFIG_COUNT pairs name.) */
	struct includes env = {NULL, r->home, 0, &inc};
	if (e >= 0 && cordon_gitcfg_env(include_of, &env) == -ENOMEM)
		e = -ENOMEM;
	for (size_t i = 0; e >= 0 && i < inc.n; i++)
		e = protect(plan, r, inc.v[i], source,
			    CORDON_OS_NATIVE == CORDON_OS_LINUX ? FILE_PLACEHOLDER : 0);
	cordon_strv_free(&files);
	cordon_strv_free(&inc);
	return e;
}

/* Each core.hooksPath set (a value) into the list ARG. */
static int hooks_path_each(const struct cordon_gitcfg_entry *e, void *arg)
{
	return !e->sub && e->value && e->value[0] && strcmp(e->section, "core") == 0 &&
			       strcmp(e->key, "hookspath") == 0
		       ? cordon_strv_push(arg, e->value)
		       : 0;
}

/* cordon_git_hooks_values of the files git_config_files(HOME, GLOBAL,
 * DIRS) names. (Read in two parts, _global and _own, a file both parts
 * include is read in each: its value comes twice, none is lost.) */
static int hooks_values(const char *home, bool global, const struct cordon_strv *dirs,
			struct cordon_strv *out)
{
	struct cordon_strv top = {0}, files = {0};
	int e = git_config_files(home, global, dirs, &top);
	/* Each file, then what it includes ([include], [includeIf] whatever
	 * its condition), which git reads where the include stands. */
	for (size_t i = 0; e >= 0 && i < top.n; i++) {
		e = cordon_strv_push(&files, top.v[i]);
		if (e >= 0)
			e = read_includes(top.v[i], home, 0, &files);
	}
	cordon_strv_free(&top);
	/* (The terminal's GIT_CONFIG_COUNT pairs, which git reads last: the
	 * files their includes name, and their own value.) */
	struct includes env = {NULL, home, 0, &files};
	if (e >= 0 && global && cordon_gitcfg_env(include_of, &env) == -ENOMEM)
		e = -ENOMEM;
	for (size_t i = 0; e >= 0 && i < files.n; i++) {
		cleanup_free char *value = NULL;
		e = read_config_value(files.v[i], "core", "hookspath", &value);
		if (e >= 0 && value && value[0])
			e = cordon_strv_push(out, value);
	}
	if (e >= 0 && global && cordon_gitcfg_env(hooks_path_each, out) == -ENOMEM)
		e = -ENOMEM;
	cordon_strv_free(&files);
	return e;
}

int cordon_git_hooks_values(const char *home, const struct cordon_strv *dirs,
			    struct cordon_strv *out)
{
	return hooks_values(home, true, dirs, out);
}

int cordon_git_hooks_values_global(const char *home, struct cordon_strv *out)
{
	const struct cordon_strv none = {0};
	return hooks_values(home, true, &none, out);
}

int cordon_git_hooks_values_own(const char *home, const struct cordon_strv *dirs,
				struct cordon_strv *out)
{
	return hooks_values(home, false, dirs, out);
}

int cordon_git_hooks_resolve(const char *home, const char *base, const struct cordon_strv *values,
			     struct cordon_strv *out)
{
	int e = 0;
	for (size_t i = 0; e >= 0 && i < values->n; i++) {
		char path[PATH_MAX * 2];
		/* (As git takes it: "~user/" too, round 51.) */
		if (!cordon_gitcfg_path(values->v[i], home, base, path, sizeof(path)))
			continue;
		size_t n = strlen(path);
		while (n > 1 && path[n - 1] == '/')
			path[--n] = '\0';
		e = cordon_strv_push(out, path);
	}
	return e;
}

int cordon_git_hooks_paths(const char *home, const struct cordon_strv *dirs, const char *base,
			   struct cordon_strv *out)
{
	struct cordon_strv values = {0};
	int e = cordon_git_hooks_values(home, dirs, &values);
	if (e >= 0)
		e = cordon_git_hooks_resolve(home, base, &values, out);
	cordon_strv_free(&values);
	return e;
}

/* A hook that is a link (ln -s ../../tools/pre-commit .git/hooks/): the
 * hooks directory read-only keeps the link, not the file it leads to,
 * which git runs; that file is guarded too. */
static int protect_hook_links(struct cordon_guard_plan *plan, const struct reach *r,
			      const char *hooks, const char *source)
{
	DIR *d = opendir(hooks);
	if (!d)
		return 0;
	int e = 0;
	int n = 0;
	for (struct dirent *de; e >= 0 && n < 1024 && (de = readdir(d)); n++) {
		if (de->d_type != DT_LNK && de->d_type != DT_UNKNOWN)
			continue;
		char link[PATH_MAX * 2 + 8];
		snprintf(link, sizeof(link), "%s/%s", hooks, de->d_name);
		struct stat st;
		cleanup_free char *target = NULL;
		if (lstat(link, &st) == 0 && S_ISLNK(st.st_mode) && (target = canon_of(r, link)) &&
		    stat(target, &st) == 0 && S_ISREG(st.st_mode))
			e = protect(plan, r, target, source, OPTIONAL);
	}
	closedir(d);
	return e;
}

/* Hook managers: a hook they install runs what a file in the worktree
 * says (pre-commit's .pre-commit-config.yaml, lefthook's lefthook.yml,
 * overcommit's .overcommit.yml), so that file is as much the hook as the
 * script is, and so are the scripts it runs from the worktree (lefthook's
 * .lefthook/HOOK/: round 14). Each manager: what its hooks say (any of),
 * and the files it reads. */
static const char lefthook[] = "lefthook";
static const struct hook_manager {
	const char *says[6];
	const char *files[28];
} hook_managers[] = {
	{{"pre-commit.com", "pre-commit run", "pre_commit", "hook-impl", "prek", NULL},
	 {".pre-commit-config.yaml", ".pre-commit-config.yml", NULL}},
	{{lefthook, NULL}, {"lefthook.yml",           ".lefthook.yml",
			    "lefthook.yaml",          ".lefthook.yaml",
			    "lefthook.toml",          ".lefthook.toml",
			    "lefthook.json",          ".lefthook.json",
			    "lefthook.jsonc",         ".lefthook.jsonc",
			    "lefthook-local.yml",     ".lefthook-local.yml",
			    "lefthook-local.yaml",    ".lefthook-local.yaml",
			    "lefthook-local.toml",    ".lefthook-local.toml",
			    "lefthook-local.json",    ".lefthook-local.json",
			    "lefthook-local.jsonc",   ".lefthook-local.jsonc",
			    ".config/lefthook.yml",   ".config/lefthook.yaml",
			    ".config/lefthook.toml",  ".config/lefthook.json",
			    ".config/lefthook.jsonc", ".lefthook",
			    ".lefthook-local",        NULL}},
	{{"overcommit", NULL}, {".overcommit.yml", NULL}},
};

/* Whether the line of TEXT that AT is on runs pre-commit (or prek) before AT. */
static bool manager_line(const char *text, const char *at)
{
	const char *start = at;
	while (start > text && start[-1] != '\n')
		start--;
	char line[512];
	size_t n =
		(size_t)(at - start) < sizeof(line) - 1 ? (size_t)(at - start) : sizeof(line) - 1;
	memcpy(line, start, n);
	line[n] = '\0';
	return strstr(line, "pre-commit run") || strstr(line, "prek run") ||
	       strstr(line, "hook-impl");
}

/* The files a hook names with --config (pre-commit install --config F
 * writes --config=F into it; `pre-commit run --config F`), relative to
 * WORKTREE when they are, into OUT. */
static int configs_named(const char *text, const char *worktree, struct cordon_strv *out,
			 bool *dynamic)
{
	int e = 0;
	for (const char *at = text; e >= 0 && (at = strstr(at, "-c")) != NULL; at += 2) {
		const char *v = NULL;
		if (at > text && at[-1] == '-' && strncmp(at, "-config", 7) == 0 &&
		    (at[7] == '=' || at[7] == ' '))
			v = at + 7;
		/* -c F, where the line runs the manager (not sh -c). */
		else if (at[2] == ' ' && at > text && (at[-1] == ' ' || at[-1] == '\t') &&
			 manager_line(text, at))
			v = at + 2;
		if (!v)
			continue;
		v += 1 + strspn(v + 1, " \"'");
		size_t n = strcspn(v, " \t\n\"')$;&|`");
		if (n == 0 && (*v == '$' || *v == '`') && dynamic)
			*dynamic = true; /* --config "$VAR", "$(git rev-parse ...)" */
		if (n == 0 || n >= PATH_MAX)
			continue;
		char path[PATH_MAX * 2 + 8];
		if (v[0] == '/')
			snprintf(path, sizeof(path), "%.*s", (int)n, v);
		else
			snprintf(path, sizeof(path), "%s/%.*s", worktree, (int)n, v);
		e = cordon_strv_push_new(out, path);
	}
	return e;
}

int cordon_hook_manager_files(const char *hooks, const char *worktree, struct cordon_strv *out,
			      bool *dynamic)
{
	DIR *d = opendir(hooks);
	if (!d)
		return 0;
	bool found[ARRAY_SIZE(hook_managers)] = {false};
	int n = 0, e = 0;
	for (struct dirent *de; e >= 0 && n < 64 && (de = readdir(d));) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '.'))
			continue; /* (git runs no hook with a dot: pre-commit.sample) */
		char hook[PATH_MAX * 2 + 8];
		snprintf(hook, sizeof(hook), "%s/%s", hooks, de->d_name);
		struct stat st;
		int fd = stat(hook, &st) == 0 && S_ISREG(st.st_mode)
				 ? open(hook, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
				 : -1;
		if (fd < 0)
			continue;
		n++;
		char buf[8192];
		ssize_t got = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (got <= 0)
			continue;
		buf[got] = '\0';
		for (ssize_t i = 0; i < got; i++)
			if (!buf[i])
				buf[i] = ' ';
		for (size_t m = 0; m < ARRAY_SIZE(hook_managers); m++)
			for (size_t k = 0; hook_managers[m].says[k] && !found[m]; k++)
				found[m] = strstr(buf, hook_managers[m].says[k]) != NULL;
		if (found[0])
			e = configs_named(buf, worktree, out, dynamic);
	}
	closedir(d);
	for (size_t m = 0; e >= 0 && m < ARRAY_SIZE(hook_managers); m++)
		for (size_t f = 0; e >= 0 && found[m] && hook_managers[m].files[f]; f++) {
			char path[PATH_MAX * 2 + 8];
			snprintf(path, sizeof(path), "%s/%s", worktree, hook_managers[m].files[f]);
			e = cordon_strv_push_new(out, path);
			if (e >= 0 && hook_managers[m].says[0] == lefthook)
				e = cordon_lefthook_refs(path, worktree, out);
		}
	return e;
}

/* The files of the hook managers whose hooks are in HOOKS, in WORKTREE
 * (where git runs them), kept like the hooks: read-only when there,
 * looked at as the session ends when missing. */
static int protect_hook_configs(struct cordon_guard_plan *plan, const struct reach *r,
				const char *hooks, const char *worktree, const char *source)
{
	struct cordon_strv files = {0};
	bool dynamic = false;
	int e = cordon_hook_manager_files(hooks, worktree, &files, &dynamic);
	for (size_t i = 0; e >= 0 && i < files.n; i++)
		e = protect(plan, r, files.v[i], source, 0);
	cordon_strv_free(&files);
	if (e >= 0 && dynamic)
		e = say_once(&plan->warnings,
			     "a hook in %s names its manager's config at run time (--config "
			     "\"$VAR\"): cordon cannot keep that file read-only; write its path "
			     "in the hook",
			     hooks);
	return e;
}

/* git runs hooks from core.hooksPath when it is set (husky, .githooks): the
 * same guard as .git/hooks, for the path the config names (system, global,
 * then the repository's own config files, the last one set winning).
 * Relative paths are the worktree's (BASE). */
static int protect_hooks_path(struct cordon_guard_plan *plan, const struct reach *r,
			      const struct cordon_strv *dirs, const char *base, const char *source)
{
	struct cordon_strv paths = {0};
	int e = cordon_git_hooks_paths(r->home, dirs, base, &paths);
	if (e == -EFBIG) {
		cordon_strv_free(&paths);
		if (!plan->refuse &&
		    asprintf(&plan->refuse,
			     "%s: a git config there is longer than cordon reads (%d KiB): cordon "
			     "cannot tell where git takes its hooks from",
			     base, CORDON_GIT_CONFIG_MAX >> 10) < 0)
			return -ENOMEM;
		return 0;
	}
	if (e < 0 || paths.n == 0) {
		cordon_strv_free(&paths);
		return e;
	}
	/* Every one named: which one git ends with depends on where an
	 * include stands, and on an includeIf's condition. The last one
	 * is made when missing. */
	for (size_t i = 0; e >= 0 && i < paths.n; i++) {
		char *path = paths.v[i];
		/* husky (9+) points git at .husky/_, whose scripts run the
		 * hooks written in .husky: the guard is .husky. */
		size_t n = strlen(path);
		if (n > 2 && strcmp(path + n - 2, "/_") == 0)
			path[n - 2] = '\0';
		e = protect(plan, r, path, source, i + 1 == paths.n ? MKDIR : OPTIONAL);
		if (e >= 0)
			e = protect_hook_links(plan, r, path, source);
		if (e >= 0)
			e = protect_hook_configs(plan, r, path, base, source);
	}
	cordon_strv_free(&paths);
	return e;
}

/* The git dirs whose config files git reads with the git dir D: its
 * common dir (a linked worktree's, through its commondir), then D itself,
 * in the order git reads them. */
static int own_git_dirs(const char *d, struct cordon_strv *out)
{
	char f[PATH_MAX + 16];
	snprintf(f, sizeof(f), "%s/commondir", d);
	cleanup_free char *common = cordon_git_link_file(f, "", d);
	int e = common && strcmp(common, d) != 0 ? cordon_strv_push(out, common) : 0;
	return e < 0 ? e : cordon_strv_push(out, d);
}

/* The worktree of git dir D, which git runs its hooks in and takes a
 * relative core.hooksPath against (malloc'd), or NULL: a linked
 * worktree's (the directory of the .git file its gitdir names), a
 * submodule's (its core.worktree, relative to D, as git writes it for
 * one kept in modules/), the main one of a repository's ".git". */
static char *worktree_of(const struct reach *r, const char *d)
{
	char f[PATH_MAX + 16], joined[PATH_MAX * 2];
	snprintf(f, sizeof(f), "%s/gitdir", d);
	if (git_link_raw(f, "", d, joined, sizeof(joined))) {
		char *slash = strrchr(joined, '/');
		if (!slash || slash == joined)
			return NULL;
		*slash = '\0';
		return canon_of(r, joined);
	}
	snprintf(f, sizeof(f), "%s/config", d);
	cleanup_free char *wt = NULL;
	(void)read_config_value(f, "core", "worktree", &wt); /* too long: hooksPath says */
	if (wt && wt[0]) {
		int n = wt[0] == '/' ? snprintf(joined, sizeof(joined), "%s", wt)
				     : snprintf(joined, sizeof(joined), "%s/%s", d, wt);
		return n > 0 && (size_t)n < sizeof(joined) ? canon_of(r, joined) : NULL;
	}
	const char *slash = strrchr(d, '/');
	if (slash && slash != d && strcmp(slash, "/.git") == 0)
		return strndup(d, (size_t)(slash - d));
	return NULL;
}

/* The checkout of the submodule whose git dir is D, as D's config names it
 * (core.worktree), kept as protect_checkout keeps one: the user's still
 * where neither the index nor .gitmodules lists it (a session's index
 * moved aside as it ended, its .gitmodules edited), and git outside goes
 * into it again once the index has it (a git reset). */
static int protect_module_checkout(struct checkouts *c, const char *d)
{
	if (cordon_strv_contains(c->reached, d))
		return 0; /* (its checkout's .git led to it: kept) */
	cleanup_free char *wt = worktree_of(c->r, d);
	char *slash = wt ? strrchr(wt, '/') : NULL;
	if (!slash || slash == wt || cordon_strv_contains(c->seen, wt))
		return 0;
	*slash = '\0';
	struct checkouts at = *c;
	at.base = wt;
	at.gitlink = false;
	return protect_checkout(slash + 1, &at);
}

/* core.hooksPath in each worktree the repository has: the project's
 * (BASE, for its git dir DIRS[0]), its submodules' and its common dir's
 * (the rest of DIRS), its linked worktrees' (WTS). Each is read from that
 * worktree's own config files, and a relative one is taken against that
 * worktree: a submodule's .githooks (husky in a submodule), or a linked
 * worktree's, is where git run there takes its hooks from. */
static int protect_worktrees_hooks(struct cordon_guard_plan *plan, const struct reach *r,
				   const struct cordon_strv *dirs, const struct cordon_strv *wts,
				   const char *base, const char *source)
{
	int e = 0;
	for (size_t i = 0; e >= 0 && i < dirs->n + wts->n; i++) {
		const char *d = i < dirs->n ? dirs->v[i] : wts->v[i - dirs->n];
		cleanup_free char *wt = i == 0 ? strdup(base) : worktree_of(r, d);
		struct stat st;
		if (!wt && i == 0)
			return -ENOMEM;
		if (!wt || stat(wt, &st) < 0 || !S_ISDIR(st.st_mode))
			continue; /* no checkout: nothing runs its hooks */
		struct cordon_strv own = {0};
		e = own_git_dirs(d, &own);
		if (e >= 0)
			e = protect_hooks_path(plan, r, &own, wt, source);
		cordon_strv_free(&own);
	}
	return e;
}

/* The git dirs of DIR's linked worktrees (DIR/worktrees/NAME, holding a
 * commondir): git in such a worktree, outside, follows that commondir to
 * the config and hooks it obeys. */
static int find_worktrees(struct cordon_strv *wts, const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/worktrees", dir);
	DIR *d = opendir(path);
	if (!d)
		return 0;
	int e = 0;
	for (struct dirent *de; e >= 0 && (de = readdir(d));) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue;
		char sub[PATH_MAX * 2], common[PATH_MAX * 2 + 16];
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		snprintf(common, sizeof(common), "%s/commondir", sub);
		struct stat st;
		if (lstat(common, &st) == 0)
			e = add_dir(wts, sub);
	}
	closedir(d);
	return e;
}

/* Whether the repository whose common git dir holds CONFIG reads each
 * worktree's config.worktree (extensions.worktreeConfig). */
static bool worktree_config(const char *config)
{
	cleanup_free char *v = NULL;
	read_config_value(config, "extensions", "worktreeconfig", &v);
	return v && (strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 ||
		     strcasecmp(v, "on") == 0 || strcmp(v, "1") == 0);
}

/* Whether COMMON is the common dir git dir D names. */
static bool is_common_of(const char *d, const char *common)
{
	char f[PATH_MAX + 16];
	snprintf(f, sizeof(f), "%s/commondir", d);
	cleanup_free char *named = cordon_git_link_file(f, "", d);
	return named && strcmp(named, common) == 0;
}

/* DIRS from FROM on (and each one added meanwhile): the common dir a
 * commondir names (kept), or one made holding "." where it is missing,
 * and the submodule git dirs beneath its modules/ (also into MODS). */
static int follow_git_dirs(struct cordon_guard_plan *plan, const struct reach *r,
			   struct cordon_strv *dirs, struct cordon_strv *mods, size_t from,
			   const char *source)
{
	int e = 0;
	for (size_t i = from; e >= 0 && i < dirs->n; i++) {
		char f[PATH_MAX + 16];
		snprintf(f, sizeof(f), "%s/commondir", dirs->v[i]);
		cleanup_free char *common = cordon_git_link_file(f, "", dirs->v[i]);
		struct stat cst;
		if (common) {
			e = protect(plan, r, f, source, 0);
			if (e >= 0)
				e = add_dir(dirs, common);
		} else if (lstat(f, &cst) < 0 && errno == ENOENT && creatable(r, f)) {
			/* git reads it in every git dir: one written inside would
			 * send git to another git dir's config and hooks. "."
			 * is this git dir, git's meaning without one. */
			e = keep_file(plan, r, f, ".\n", source);
		}
		snprintf(f, sizeof(f), "%s/modules", dirs->v[i]);
		if (e >= 0)
			e = find_modules(plan, r, dirs, mods, f, 0);
	}
	return e;
}

/* PATH is "<base>/.git/<rest>": REST in every git dir the repository at
 * BASE uses — its .git directory or the one a .git file names, the common
 * dir of a worktree, and the submodules' — and the .git file itself. */
static int protect_git(struct cordon_guard_plan *plan, const struct reach *r, const char *path,
		       const char *at, const char *source)
{
	cleanup_free char *base = strndup(path, (size_t)(at - path));
	if (!base)
		return -ENOMEM;
	const char *rest = at + strlen("/.git/");
	char dotgit[PATH_MAX];
	snprintf(dotgit, sizeof(dotgit), "%s/.git", base);
	struct cordon_strv dirs = {0};
	struct stat st;
	int e = 0;
	if ((e = pin_links(plan, r, dotgit, source)) < 0)
		return e;
	if (lstat(dotgit, &st) < 0) {
		bool unguarded = creatable(r, dotgit) && !made_only_outside(r, dotgit);
		if (unguarded)
			e = cordon_strv_push_new(&plan->unguarded, dotgit);
		if (e >= 0 && unguarded && strcmp(source, CORDON_GUARD_ABOVE) == 0)
			e = note_above(plan, dotgit);
		else if (e >= 0 && unguarded)
			e = note(plan, dotgit, source,
				 "absent: a repository made inside (git init, git clone) has "
				 "hooks and config that are NOT protected while the session runs; "
				 "as it ends, one that would run a program is moved aside "
				 "(.git.cordon-disarmed)");
	} else if (S_ISREG(st.st_mode)) {
		e = protect(plan, r, dotgit, source, 0);
		cleanup_free char *gd = cordon_git_link_file(dotgit, "gitdir: ", base);
		if (e >= 0)
			e = add_dir(&dirs, gd);
	} else {
		cleanup_free char *gd = canon_of(r, dotgit);
		e = add_dir(&dirs, gd);
	}
	struct cordon_strv seen = {0}, mods = {0}, reached = {0}, wts = {0};
	struct checkouts top = {plan, r, &dirs, &seen, &reached, base, source, 0, false};
	modules_hexsz = dirs.n ? cordon_git_hexsz(dirs.v[0]) : 40;
	if (e >= 0 && dirs.n)
		e = protect_submodules(&top, dirs.v[0]);
	/* The git dirs each leads to (commondir, modules/), and the linked
	 * worktrees': their submodules too (their own index's gitlinks, their
	 * own modules/, where git keeps a worktree's submodule git dirs:
	 * 47a M2), until no new one turns up. */
	for (size_t from = 0, mods_done = 0, wts_done = 0; e >= 0 && from < dirs.n;) {
		e = follow_git_dirs(plan, r, &dirs, &mods, from, source);
		for (size_t i = from; e >= 0 && i < dirs.n; i++)
			e = find_worktrees(&wts, dirs.v[i]);
		from = dirs.n;
		for (; e >= 0 && wts_done < wts.n; wts_done++) {
			const char *w = wts.v[wts_done];
			cleanup_free char *wt = worktree_of(r, w);
			struct checkouts in = top;
			in.base = wt;
			if (wt)
				e = protect_submodules(&in, w);
			char f[PATH_MAX + 16];
			snprintf(f, sizeof(f), "%s/modules", w);
			if (e >= 0)
				e = find_modules(plan, r, &dirs, &mods, f, 0);
		}
		for (; e >= 0 && mods_done < mods.n; mods_done++)
			e = protect_module_checkout(&top, mods.v[mods_done]);
	}
	cordon_strv_free(&mods);
	cordon_strv_free(&seen);
	cordon_strv_free(&reached);
	bool wt_config = false;
	for (size_t i = 0; e >= 0 && i < dirs.n; i++) {
		char f[PATH_MAX + 16];
		snprintf(f, sizeof(f), "%s/config", dirs.v[i]);
		wt_config = wt_config || worktree_config(f);
	}
	/* Linked worktrees' git dirs: their commondir, rewritten inside,
	 * would send git in the worktree, outside, to a planted config. */
	for (size_t i = 0; e >= 0 && i < wts.n; i++) {
		char f[PATH_MAX + 16];
		snprintf(f, sizeof(f), "%s/commondir", wts.v[i]);
		e = protect(plan, r, f, source, 0);
		/* Its gitdir too, which names the worktree's .git file (47c P2:
		 * pointed at another file, the next session kept that one and
		 * left the worktree's .git writable). */
		snprintf(f, sizeof(f), "%s/gitdir", wts.v[i]);
		if (e >= 0)
			e = protect(plan, r, f, source, OPTIONAL);
		/* The worktree's .git file (its gitdir names it): rewritten,
		 * git in that worktree, outside, would take a planted git
		 * dir's config and hooks. */
		char named[PATH_MAX * 2];
		struct stat nst;
		snprintf(f, sizeof(f), "%s/gitdir", wts.v[i]);
		if (e >= 0 && git_link_raw(f, "", wts.v[i], named, sizeof(named)) &&
		    stat(named, &nst) == 0 && S_ISREG(nst.st_mode))
			e = protect(plan, r, named, source, 0);
	}
	for (size_t i = 0; e >= 0 && i < dirs.n; i++) {
		char t[PATH_MAX * 2];
		snprintf(t, sizeof(t), "%s/%s", dirs.v[i], rest);
		bool mk = strcmp(rest, "hooks") == 0 || strcmp(rest, "info") == 0;
		e = protect(plan, r, t, source, mk ? MKDIR : 0);
		if (e >= 0 && strcmp(rest, "hooks") == 0)
			e = protect_hook_links(plan, r, t, source);
		/* The project's git dir, and its common dir (a linked worktree
		 * as the project): a submodule's hooks run in a worktree of its
		 * own, not looked at. */
		if (e >= 0 && strcmp(rest, "hooks") == 0 &&
		    (i == 0 || is_common_of(dirs.v[0], dirs.v[i])))
			e = protect_hook_configs(plan, r, t, base, source);
	}
	/* Each git dir's config.worktree, read (extensions.worktreeConfig)
	 * after the config: one missing is made empty, git's meaning
	 * without one. */
	for (size_t i = 0; e >= 0 && strcmp(rest, "config") == 0 && i < dirs.n + wts.n; i++) {
		char t[PATH_MAX * 2];
		snprintf(t, sizeof(t), "%s/config.worktree",
			 i < dirs.n ? dirs.v[i] : wts.v[i - dirs.n]);
		struct stat wst;
		if (wt_config && lstat(t, &wst) < 0 && errno == ENOENT && creatable(r, t))
			e = keep_file(plan, r, t, "", source);
		else
			e = protect(plan, r, t, source, OPTIONAL);
	}
	if (e >= 0 && strcmp(rest, "hooks") == 0)
		e = protect_worktrees_hooks(plan, r, &dirs, &wts, base, source);
	/* The linked worktrees' config.worktree files include too. */
	for (size_t i = 0; e >= 0 && strcmp(rest, "config") == 0 && i < wts.n; i++)
		e = add_dir(&dirs, wts.v[i]);
	if (e >= 0 && strcmp(rest, "config") == 0)
		e = protect_includes(plan, r, &dirs, source);
	cordon_strv_free(&wts);
	if (e == -E2BIG)
		e = refuse_once(plan,
				"%s: more than %d git directories (worktrees, submodules): cordon "
				"cannot guard them all; remove the stale ones (git worktree prune; "
				"under modules/, the git dirs of submodules you no longer use)",
				dotgit, MAX_GIT_DIRS);
	cordon_strv_free(&dirs);
	return e;
}

static int depth_of(const char *path)
{
	int n = 0;
	for (; *path; path++)
		n += *path == '/';
	return n;
}

static int by_depth(const void *a, const void *b)
{
	const struct cordon_mount *x = a, *y = b;
	int d = depth_of(x->path) - depth_of(y->path);
	return d ? d : strcmp(x->path, y->path);
}

/* The mounts of PLAN (sorted, parents first) beneath a hidden directory:
 * an empty one covers them already, and what they would mount on cannot
 * be opened through it (round 11: $SOPS_AGE_KEY_FILE names a file in
 * ~/.config/sops, hidden too, and every session was refused). */
static void drop_beneath_hidden(struct cordon_guard_plan *plan)
{
	size_t kept = 0;
	for (size_t i = 0; i < plan->n; i++) {
		bool beneath = false;
		for (size_t j = 0; j < kept && !beneath; j++)
			beneath = plan->v[j].op == CORDON_MOUNT_HIDE && plan->v[j].dir &&
				  strcmp(plan->v[j].path, plan->v[i].path) != 0 &&
				  cordon_path_under(plan->v[i].path, plan->v[j].path);
		if (beneath)
			free(plan->v[i].path);
		else
			plan->v[kept++] = plan->v[i];
	}
	plan->n = kept;
}

/* Whether the absolute names A and B are the same, but for "." parts. */
static bool same_name(const char *a, const char *b)
{
	for (;;) {
		while (a[0] == '/' && a[1] == '.' && (a[2] == '/' || !a[2]))
			a += 2;
		while (b[0] == '/' && b[1] == '.' && (b[2] == '/' || !b[2]))
			b += 2;
		if (*a != *b)
			return false;
		if (!*a)
			return true;
		a++, b++;
	}
}

struct envrc_loads {
	struct cordon_guard_plan *plan;
	const struct reach *r;
	const char *source;
};

/* A file an .envrc loads or runs (cordon_envrc_refs), or yarn's rc file
 * runs (cordon_yarnrc_refs), kept as the .envrc is: read-only where it is, watched and moved aside as it is made where
 * it is missing (direnv's source_env_if_exists .envrc.local: one a
 * session wrote ran in the shell outside as it next entered the project,
 * guards/what_an_envrc_loads_runs_nothing_planted). */
static int envrc_loads(const char *path, const char *file, void *arg)
{
	const struct envrc_loads *c = arg;
	char buf[PATH_MAX];
	if (path[0] == '~' && (!c->r->home || (size_t)snprintf(buf, sizeof(buf), "%s%s", c->r->home,
							       path + 1) >= sizeof(buf)))
		return 0;
	if (path[0] != '~' && (size_t)snprintf(buf, sizeof(buf), "%s", path) >= sizeof(buf))
		return 0;
	/* ../x: its directory made canonical, where it is there. */
	char *slash = strrchr(buf, '/');
	cleanup_free char *dir = NULL;
	if (strstr(buf, "/../") && slash) {
		*slash = '\0';
		if (cordon_path_resolve(buf, NULL, NULL, &dir) < 0)
			return 0;
		*slash = '/';
		if ((size_t)snprintf(buf, sizeof(buf), "%s%s", strcmp(dir, "/") ? dir : "",
				     strrchr(path, '/')) >= sizeof(buf))
			return 0;
	}
	/* FILE as the project names it (.envrc, sub/.envrc). */
	const char *proj = c->r->p ? c->r->p->project : NULL;
	char whole[PATH_MAX];
	if (file[0] == '~' && c->r->home &&
	    (size_t)snprintf(whole, sizeof(whole), "%s%s", c->r->home, file + 1) < sizeof(whole))
		file = whole;
	size_t pn = proj ? strlen(proj) : 0;
	bool in_project = pn > 1 && strncmp(file, proj, pn) == 0 && file[pn] == '/';
	if (in_project)
		file += pn + 1;
	/* In the project's dependencies (eval "$(node_modules/.bin/x env)"):
	 * their code, which npm install inside writes, as npm test outside
	 * runs it (read-only, it broke npm install: a review). Taken below
	 * the directory of the file that names it, where it is there: an
	 * .envrc in a package of the user's named vendor/ or venv/ loads its
	 * own .env (round 26b: unprotected). */
	const char *dep = NULL;
	if (pn > 1 && strncmp(buf, proj, pn) == 0 && buf[pn] == '/') {
		dep = buf + pn + 1;
		const char *fs = strrchr(file, '/');
		size_t fn = fs ? (size_t)(fs - file) : 0;
		if (fn && in_project && strncmp(dep, file, fn) == 0 && dep[fn] == '/')
			dep += fn + 1;
	}
	if (dep && cordon_sweep_in_dependencies(dep))
		return 0;
	/* A write rule naming it (--allow-write .env: your app's settings,
	 * which the session is to edit) makes it the session's to write, as
	 * a rule naming a dotfile's does. */
	/* (Each by itself, a final link not followed: the session made the
	 * .env a rule names a link to .envrc.local, and the next session's
	 * rule, followed, named that: helper-37.) */
	struct stat st, rst;
	bool there = lstat(buf, &st) == 0;
	for (size_t i = 0; c->r->p && i < c->r->p->n_rules; i++) {
		const struct cordon_rule *rule = &c->r->p->rules[i];
		/* (A run's rules are absolute, not canonical: ./.env.) */
		if ((rule->access & CORDON_ACCESS_WRITE) &&
		    (there ? lstat(rule->path, &rst) == 0 && rst.st_dev == st.st_dev &&
				     rst.st_ino == st.st_ino
			   : same_name(rule->path, buf)))
			return 0;
	}
	/* A protected path of its own (another root's .envrc, which
	 * source_up reaches): kept by its own guard, stand-in and all (one
	 * taken for a name the session made was moved aside: round 26c). */
	const struct cordon_guard *own = c->r->p ? cordon_policy_guard(c->r->p, buf) : NULL;
	if (own && own->kind != CORDON_GUARD_HIDE)
		return 0;
	char *source = NULL;
	if (asprintf(&source, "%s, loaded by %s", c->source, file) < 0 ||
	    cordon_strv_push_take(&c->plan->sources, source) < 0)
		return -ENOMEM;
	return protect(c->plan, c->r, buf, source, 0);
}

/* What the project's .envrc at PATH (a guard of SOURCE's) loads. */
static int protect_envrc_loads(struct cordon_guard_plan *plan, const struct reach *r,
			       const char *path, const char *source)
{
	const char *base = strrchr(path, '/');
	struct stat st;
	if (!base || strcmp(base, "/.envrc") != 0 || stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	struct envrc_loads c = {.plan = plan, .r = r, .source = source};
	char dynamic[128];
	int e = cordon_envrc_refs(path, r->home, envrc_loads, &c, dynamic, sizeof(dynamic));
	if (e >= 0 && dynamic[0])
		e = say_once(&plan->warnings,
			     "%s loads a file it names at run time (%s): cordon cannot keep that "
			     "file read-only; write its name in the .envrc",
			     path, dynamic);
	return e;
}

/* What the project's yarn rc file at PATH (a guard of SOURCE's) runs
 * (cordon_yarnrc_refs: its yarnPath, its plugins' paths), kept as what an
 * .envrc loads is (round 53d F1: yarn --version outside ran the release
 * file a session rewrote). */
static int protect_yarnrc_loads(struct cordon_guard_plan *plan, const struct reach *r,
				const char *path, const char *source)
{
	const char *base = strrchr(path, '/');
	struct stat st;
	if (!base || (strcmp(base, "/.yarnrc.yml") != 0 && strcmp(base, "/.yarnrc") != 0) ||
	    stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	struct envrc_loads c = {.plan = plan, .r = r, .source = source};
	char unread[128];
	int e = cordon_yarnrc_refs(path, envrc_loads, &c, unread, sizeof(unread));
	if (e >= 0 && unread[0])
		e = say_once(&plan->warnings,
			     "%s names what yarn runs in a form cordon does not read (%s): cordon "
			     "cannot keep that file read-only; write it as yarnPath: FILE",
			     path, unread);
	return e;
}

/* What each .envrc below the top of TOP that direnv allows or its
 * whitelist names (LIST) loads, protected as the top one's is, and the
 * .envrc itself: direnv outside obeys what it loads as soon as it is
 * written, and keeps allowing each version it was ever allowed at (a
 * session wrote back an older one that loaded a file it then planted:
 * round 26b). One allowed but missing (renamed away by an earlier
 * session, to be put back with the same bytes) is a name moved aside as
 * it appears. A whitelisted .env (direnv's load_dotenv) is protected
 * itself. The list holds the paths
 * direnv resolved: TOP is compared as named and as resolved (a root
 * named through a link: round 26b). */
static int protect_allowed_envrcs(struct cordon_guard_plan *plan, const struct reach *r,
				  const char *top, const struct cordon_strv *list,
				  const char *source)
{
	cleanup_free char *real = canon_of(r, top);
	const char *tops[] = {top, real && strcmp(real, top) != 0 ? real : NULL};
	int e = 0;
	for (size_t i = 0; e >= 0 && i < list->n; i++) {
		const char *path = list->v[i], *base = strrchr(path, '/');
		bool envrc = strcmp(base, "/.envrc") == 0;
		size_t tn = 0;
		for (size_t t = 0; !tn && t < ARRAY_SIZE(tops); t++)
			if (tops[t] && strncmp(path, tops[t], strlen(tops[t])) == 0 &&
			    path[strlen(tops[t])] == '/')
				tn = strlen(tops[t]);
		/* (Not left to the dependencies' rule: the user allowed it, in
		 * a package of theirs named vendor/ or venv/: round 26b.) */
		if (!tn || (!envrc && strcmp(base, "/.env") != 0) || base == path + tn ||
		    strstr(path, "/../") || strstr(path, "/./") || strstr(path, "//"))
			continue;
		struct stat st;
		bool there = lstat(path, &st) == 0;
		if (!there && errno != ENOENT)
			continue;
		e = protect(plan, r, path, source, 0);
		if (e >= 0 && there && envrc)
			e = protect_envrc_loads(plan, r, path, source);
	}
	return e;
}

/* For the protected .envrc at PATH, at a root's top: what the .envrc
 * files below that top that direnv allows, or its whitelist names, load
 * (protect_allowed_envrcs). Below a whitelisted prefix direnv runs any
 * .envrc, one the session makes too: said, as nothing can keep every
 * name that could be made. */
static int allowed_below(struct cordon_guard_plan *plan, const struct reach *r, const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!r->p || !slash || strcmp(slash, "/.envrc") != 0 || slash == path)
		return 0;
	const struct cordon_policy *p = r->p;
	cleanup_free char *top = strndup(path, (size_t)(slash - path));
	if (!top)
		return -ENOMEM;
	size_t tn = strlen(top);
	int e = protect_allowed_envrcs(plan, r, top, &p->envrc_allowed,
				       "protected_paths (a subdirectory .envrc direnv allows)");
	if (e >= 0)
		e = protect_allowed_envrcs(plan, r, top, &p->envrc_whitelisted,
					   "protected_paths (an .envrc direnv's whitelist names)");
	for (size_t i = 0; e >= 0 && i < p->envrc_prefixes.n; i++) {
		const char *w = p->envrc_prefixes.v[i];
		size_t wn = strlen(w);
		/* (A prefix of the top's path, or one that starts below it.) */
		if ((wn <= tn && strncmp(top, w, wn) == 0) ||
		    (wn > tn && strncmp(w, top, tn) == 0 && w[tn] == '/'))
			e = say_once(
				&plan->warnings,
				"direnv runs every .envrc whose path starts with %s without "
				"direnv allow (the whitelist prefix in its config): one a "
				"session makes in a subdirectory of %s runs outside as soon as "
				"it is made, until cordon moves it aside as the session ends; "
				"name the .envrc files under exact instead",
				w, top);
	}
	return e;
}

bool cordon_policy_in_shared(const struct cordon_policy *p, const char *path, bool at)
{
	bool beneath = false;
	for (size_t j = 0; j < p->n_rules; j++) {
		const struct cordon_rule *o = &p->rules[j];
		if (!(o->access & CORDON_ACCESS_WRITE) || !cordon_path_under(path, o->path) ||
		    (!at && strcmp(path, o->path) == 0))
			continue;
		if (!o->shared)
			return false;
		beneath = true;
	}
	return beneath;
}

/* Whether RULE is a directory rule beneath one of P's shared directories
 * (rule.shared: /tmp), where it alone may take sockets and links, and no
 * write rule but a shared one holds it already. */
static bool in_shared(const struct cordon_policy *p, const struct cordon_rule *rule)
{
	/* (The sessions' TMPDIR, or the project, shared itself for now while
	 * other sessions run: pinned all the same, shim/linux/run.c.) */
	if (!(rule->access & CORDON_ACCESS_WRITE) ||
	    (rule->shared && strcmp(rule->source, CORDON_TMPDIR_SOURCE) != 0 &&
	     strcmp(rule->source, "project") != 0))
		return false;
	return cordon_policy_in_shared(p, rule->path, false);
}

/* The directory PATH in a shared one pinned, with the directories above
 * it up to there (pin_in_shared, pin_others). 0 or -ENOMEM. */
static int pin_in_place(struct cordon_guard_plan *plan, const struct reach *r, const char *path)
{
	int e = add_mount(plan, path, CORDON_MOUNT_PIN, true, CORDON_GUARD_IN_SHARED);
	return e < 0 ? e : pin_parents(plan, r, path, CORDON_GUARD_IN_SHARED);
}

/* The projects of the user's other live sessions that lie in one of P's
 * shared directories (their registry records), pinned with the
 * directories above them up to there: this session could otherwise move
 * one, and its sockets, to where a client outside looks (review 43d F1).
 * (A session started after this one finds it running, and takes no socket
 * in its own project there: shim/linux/run.c.) */
struct pin_others {
	struct cordon_guard_plan *plan;
	const struct reach *r;
	const struct cordon_policy *p;
	int e;
};

static bool pin_other(const struct cordon_session_info *s, void *arg)
{
	struct pin_others *o = arg;
	struct stat st;
	if (s->project[0] == '/' && (!o->p->project || strcmp(s->project, o->p->project) != 0) &&
	    cordon_policy_in_shared(o->p, s->project, false) && lstat(s->project, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		o->e = pin_in_place(o->plan, o->r, s->project);
	return o->e < 0;
}

static int pin_others(struct cordon_guard_plan *plan, const struct reach *r,
		      const struct cordon_policy *p)
{
	struct pin_others o = {plan, r, p, 0};
	if (!cordon_sandbox_nested())
		(void)cordon_registry_each_live(pin_other, &o);
	return o.e;
}

/* Each write rule in a shared directory (a project in /tmp, the sessions'
 * TMPDIR there), and the directories above it up to there, pinned: its
 * rights follow the directory, so renamed to where a client outside looks
 * (a dead ssh-agent's /tmp/ssh-XXXX, PostgreSQL's socket directory), it
 * would take a socket there (round 42c F1). Every session pins the
 * TMPDIR they share, so none moves it (43a F1, 43b F1: another session
 * moved a TMPDIR pinned in its own session's view only). */
static int pin_in_shared(struct cordon_guard_plan *plan, const struct reach *r,
			 const struct cordon_policy *p)
{
	int e = 0;
	for (size_t i = 0; e >= 0 && i < p->n_rules; i++) {
		struct stat st;
		if (!in_shared(p, &p->rules[i]) || lstat(p->rules[i].path, &st) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		e = pin_in_place(plan, r, p->rules[i].path);
	}
	return e < 0 ? e : pin_others(plan, r, p);
}

/* The plan; PROTECTED_ONLY: the protected guards only (what is missing
 * and unguarded comes from them alone). */
/* (cordon_hidden_tracked's: whether a rule lets the session read GITDIR.) */
static bool read_by_rules(const char *gitdir, void *arg)
{
	const struct reach *r = arg;
	cleanup_free char *canon = canon_of(r, gitdir);
	return reaches(&r->read, canon ? canon : gitdir, false);
}

static int plan_in(const struct cordon_policy *p, bool create, bool protected_only,
		   struct cordon_guard_plan *out)
{
	memset(out, 0, sizeof(*out));
	struct cordon_path_cache cache = {0};
	struct cordon_strv made = {0};
	struct linked linked = {0};
	struct cordon_strv seen[3] = {{0}};
	struct reach r = {.create = create,
			  .cache = &cache,
			  .made = &made,
			  .linked = &linked,
			  .seen = protected_only ? NULL : seen,
			  .home = p->home,
			  .held = protected_only,
			  .p = p,
			  .cwd = getcwd(NULL, 0)};
	int e = reach_init(p, &r);
	module_looks = MODULE_LOOKS;
	free(looks_out);
	looks_out = NULL;
	cordon_strv_free(&inside_none);
	if (e >= 0 && !(r.closed = cordon_guard_closed_dir(p)) && errno == ENOMEM)
		e = -ENOMEM;
	if (e >= 0 && r.closed && !(out->closed = strdup(r.closed)))
		e = -ENOMEM;
	for (size_t i = 0; e >= 0 && i < p->n_guards; i++) {
		const struct cordon_guard *g = &p->guards[i];
		if (g->kind == CORDON_GUARD_HIDE) {
			struct stat st;
			if (!protected_only)
				e = hide(out, &r, g->path, g->source);
			/* Hidden and protected with a stand-in (.mcp.json/ holding
			 * keys, listed in hidden_paths too): missing, its stand-in
			 * is made all the same, then hidden inside; else a
			 * .mcp.json made inside was hidden there, and obeyed
			 * outside. */
			else if ((g->protected_too & CORDON_GUARD_PLACEHOLDER) &&
				 CORDON_OS_NATIVE == CORDON_OS_LINUX && lstat(g->path, &st) < 0 &&
				 errno == ENOENT)
				e = protect(out, &r, g->path, g->source, PLACEHOLDER);
			/* A hidden .envrc (secrets in it) is still what direnv
			 * runs outside, and so is what it loads. */
			const char *slash = strrchr(g->path, '/');
			if (e >= 0 && slash && p->project &&
			    strlen(p->project) == (size_t)(slash - g->path) &&
			    strncmp(p->project, g->path, (size_t)(slash - g->path)) == 0) {
				e = protect_envrc_loads(
					out, &r, g->path,
					"protected_paths (what a hidden .envrc loads)");
				if (e >= 0)
					e = allowed_below(out, &r, g->path);
			}
			continue;
		}
		const char *at = strstr(g->path, "/.git/");
		/* cordon's own config directory, made so that none can be made
		 * inside: a file of that name would switch a later session off. */
		const char *slash = strrchr(g->path, '/');
		bool mk = strcmp(g->source, "cordon's config") == 0 && slash &&
			  strcmp(slash, "/cordon") == 0;
		/* Made as their owners would (tmux refuses a socket
		 * directory others may enter). */
		bool servers = strcmp(g->source, CORDON_GUARD_SERVERS) == 0;
		bool make = g->kind & CORDON_GUARD_MAKE;
		/* A cache every user shares by one name (jiti 1's node-jiti,
		 * node's node-compile-cache, in /tmp): made as they make it,
		 * 0755, not the session's alone (round 59d F7: root's 0700 left
		 * every other user's jiti without its cache). */
		bool open = make && slash &&
			    (strcmp(slash, "/node-jiti") == 0 ||
			     strcmp(slash, "/node-compile-cache") == 0);
		bool placeholder =
			(g->kind & CORDON_GUARD_PLACEHOLDER) && CORDON_OS_NATIVE == CORDON_OS_LINUX;
		if (at)
			e = protect_git(out, &r, g->path, at, g->source);
		else
			e = protect(out, &r, g->path, g->source,
				    mk || open    ? MKDIR
				    : make        ? MKDIR | PRIVATE
				    : servers     ? OPTIONAL
				    : placeholder ? PLACEHOLDER
						  : 0);
		if (e >= 0 && !at)
			e = protect_hg_includes(out, &r, g->path, g->source);
		if (e >= 0 && !at && strncmp(g->source, "protected_paths", 15) == 0) {
			e = protect_envrc_loads(out, &r, g->path, g->source);
			if (e >= 0)
				e = protect_yarnrc_loads(out, &r, g->path, g->source);
			if (e >= 0)
				e = allowed_below(out, &r, g->path);
		}
		/* The config file in it, when a link (to a dotfiles
		 * repository): the directory read-only keeps the link, not
		 * the file it leads to, which the next session reads. */
		char file[PATH_MAX];
		struct stat st;
		if (e >= 0 && mk &&
		    (size_t)snprintf(file, sizeof(file), "%s/config.json", g->path) <
			    sizeof(file) &&
		    lstat(file, &st) == 0 && S_ISLNK(st.st_mode))
			e = protect(out, &r, file, g->source, IN_GUARDED);
	}
	/* (Elsewhere the session could have made none of them, nor a git
	 * dir below: nothing there to keep.) */
	if (e >= 0 && looks_out && creatable(&r, looks_out))
		e = refuse_once(out,
				"%s and more than %d other directories below the git dirs of "
				"submodules are no git dir: cordon cannot look through them all "
				"for the git dirs git would use (a session may have made them to "
				"hide one): remove what does not belong there outside, then start "
				"the session",
				looks_out, MODULE_LOOKS - 1);
	if (e >= 0 && !protected_only && CORDON_OS_NATIVE == CORDON_OS_LINUX)
		e = pin_in_shared(out, &r, p);
	/* (The names looked for above that are missing: the sweep's and the
	 * watch's, from the policy; said here.) */
	if (e >= 0)
		e = note_above_all(out, p);
	if (e >= 0)
		e = say_linked(out, &linked);
	if (e >= 0 && seen[0].n)
		e = cordon_hidden_tracked(&seen[0], &seen[1], &seen[2], p->home, read_by_rules, &r,
					  &out->warnings);
	for (int i = 0; i < 3; i++)
		cordon_strv_free(&seen[i]);
	for (size_t i = 0; i < linked.n; i++) {
		free(linked.v[i].path);
		free(linked.v[i].source);
		free(linked.v[i].name);
	}
	free(linked.v);
	cordon_strv_free(&r.write);
	cordon_strv_free(&r.read);
	for (size_t i = 0; i < r.n_roots; i++)
		free(r.roots[i].canon);
	free(r.roots);
	cordon_strv_free(&made);
	free(r.closed);
	free(r.cwd);
	cordon_path_cache_free(&cache);
	if (e < 0) {
		cordon_guard_plan_free(out);
		return e;
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_depth);
	drop_beneath_hidden(out);
	return 0;
}

/* plan_in, git's config read as the launcher's environment had it (the
 * shim's is the session's, filtered: GIT_CONFIG_GLOBAL is not in it). */
static int plan_with(const struct cordon_policy *p, bool create, bool protected_only,
		     struct cordon_guard_plan *out)
{
	cordon_gitcfg_env_from(&p->git_env);
	int r = plan_in(p, create, protected_only, out);
	cordon_gitcfg_env_from(NULL);
	return r;
}

char *cordon_guard_closed_dir(const struct cordon_policy *p)
{
	if (!p->home || !p->sandbox || CORDON_OS_NATIVE != CORDON_OS_LINUX) {
		errno = 0;
		return NULL;
	}
	char *home = realpath(p->home, NULL);
	if (!home) {
		if (errno != ENOMEM)
			errno = 0;
		return NULL;
	}
	/* A home beneath a system directory shared with outside programs
	 * (HOME=/tmp/ci in a container): closing it would close that
	 * directory's top too (Landlock adds the rights of every rule above a
	 * name), so it stays open, and its missing names are said when the
	 * session ends. */
	/* A run's rules are only absolute: one written through a link (a
	 * home reached as /var/home) covers it all the same. So a directory
	 * rule is compared by its device and inode with the home and each
	 * directory above it (one stat each, where a realpath of every rule
	 * would read every link on the way, at each of a launch's calls). */
	struct stat above[64];
	size_t n_above = 0;
	bool covered = false, shared = false;
	for (size_t i = 0; i < p->n_rules; i++) {
		if (!(p->rules[i].access & CORDON_ACCESS_WRITE))
			continue;
		bool under = cordon_path_under(home, p->rules[i].path);
		struct stat st;
		if (!under && stat(p->rules[i].path, &st) == 0 && S_ISDIR(st.st_mode)) {
			if (!n_above) {
				char buf[PATH_MAX];
				snprintf(buf, sizeof(buf), "%s", home);
				for (char *slash;; *slash = '\0') {
					if (n_above < ARRAY_SIZE(above) &&
					    stat(buf[0] ? buf : "/", &above[n_above]) == 0)
						n_above++;
					if (!buf[0] || !(slash = strrchr(buf, '/')))
						break;
				}
			}
			for (size_t k = 0; k < n_above && !under; k++)
				under = above[k].st_dev == st.st_dev &&
					above[k].st_ino == st.st_ino;
		}
		if (!under)
			continue;
		covered = true;
		shared = shared || strncmp(p->rules[i].source, "system_paths", 12) == 0;
	}
	if (covered && !shared)
		return home;
	free(home);
	errno = 0;
	return NULL;
}

int cordon_guard_plan(const struct cordon_policy *p, bool create, struct cordon_guard_plan *out)
{
	return plan_with(p, create, false, out);
}

int cordon_guard_unguarded(const struct cordon_policy *p, struct cordon_strv *out,
			   struct cordon_strv *placeholders, struct cordon_strv *files,
			   struct cordon_strv *guarded, char **refuse)
{
	struct cordon_guard_plan plan;
	int e = plan_with(p, false, true, &plan);
	if (e < 0)
		return e;
	if (refuse) {
		*refuse = plan.refuse;
		plan.refuse = NULL;
	}
	for (size_t i = 0; guarded && i < plan.n; i++)
		if (plan.v[i].op == CORDON_MOUNT_RO &&
		    cordon_strv_push(guarded, plan.v[i].path) < 0) {
			cordon_guard_plan_free(&plan);
			return -ENOMEM;
		}
	*out = plan.unguarded;
	plan.unguarded = (struct cordon_strv){0};
	*placeholders = plan.placeholders;
	plan.placeholders = (struct cordon_strv){0};
	if (files) {
		*files = plan.placeholder_files;
		plan.placeholder_files = (struct cordon_strv){0};
	}
	cordon_guard_plan_free(&plan);
	return 0;
}

void cordon_guard_plan_free(struct cordon_guard_plan *plan)
{
	for (size_t i = 0; i < plan->n; i++)
		free(plan->v[i].path);
	free(plan->v);
	cordon_strv_free(&plan->notes);
	cordon_strv_free(&plan->warnings);
	cordon_strv_free(&plan->unguarded);
	cordon_strv_free(&plan->placeholders);
	cordon_strv_free(&plan->placeholder_files);
	cordon_strv_free(&plan->sources);
	free(plan->closed);
	free(plan->refuse);
	memset(plan, 0, sizeof(*plan));
}

const struct cordon_mount *cordon_guard_plan_find(const struct cordon_guard_plan *plan,
						  const char *path)
{
	const struct cordon_mount *best = NULL;
	for (size_t i = 0; i < plan->n; i++) {
		const struct cordon_mount *m = &plan->v[i];
		if (m->op != CORDON_MOUNT_PIN && cordon_path_under(path, m->path) &&
		    (!best || strlen(m->path) > strlen(best->path)))
			best = m;
	}
	return best;
}

const char *cordon_mount_op_name(enum cordon_mount_op op)
{
	switch (op) {
	case CORDON_MOUNT_PIN:
		return "pinned";
	case CORDON_MOUNT_RO:
		return "read-only";
	case CORDON_MOUNT_HIDE:
		return "hidden";
	}
	return "?";
}

bool cordon_guard_shared_dir(const char *path, const struct stat *st)
{
	return S_ISDIR(st->st_mode) && (st->st_mode & S_ISVTX) && (st->st_mode & S_IWOTH) &&
	       !cordon_path_under(path, "/dev");
}

/* PATH into V (K so far, at most N) but once. */
static void push_cut(struct cordon_root_cut *v, size_t *k, size_t n, const char *path, unsigned id,
		     bool nofollow)
{
	for (size_t j = 0; j < *k; j++)
		if (strcmp(v[j].path, path) == 0)
			return;
	if (*k < n)
		v[(*k)++] = (struct cordon_root_cut){path, id, nofollow};
}

size_t cordon_guard_root_cuts(const struct cordon_policy *p, struct cordon_root_cut *v, size_t n)
{
	size_t k = 0;
	struct stat st;
	for (size_t i = 0; i < p->n_rules; i++)
		if (stat(p->rules[i].path, &st) == 0 &&
		    cordon_guard_shared_dir(p->rules[i].path, &st))
			push_cut(v, &k, n, p->rules[i].path, 0, p->rules[i].nofollow);
	static const char *const shared[] = {"/tmp", "/var/tmp", "/run/lock", "/run/screen"};
	for (size_t i = 0; i < sizeof(shared) / sizeof(*shared); i++)
		if (cordon_policy_access(p, shared[i], NULL) && stat(shared[i], &st) == 0 &&
		    cordon_guard_shared_dir(shared[i], &st))
			push_cut(v, &k, n, shared[i], 0, false);
	/* (A write rule beneath /etc is bound back as it is, as a read rule
	 * there is: mountns.c cut_one. One on /etc or above it: the user
	 * gave the session /etc to write, as root.) */
	bool written = false;
	for (size_t i = 0; i < p->n_rules; i++)
		written |= (p->rules[i].access & CORDON_ACCESS_WRITE) &&
			   cordon_path_under("/etc", p->rules[i].path);
	if (!written && cordon_policy_access(p, "/etc", NULL) && stat("/etc", &st) == 0 &&
	    S_ISDIR(st.st_mode))
		push_cut(v, &k, n, "/etc", 65534, false);
	return k;
}
