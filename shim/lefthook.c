/* cordon — what lefthook's config names beside itself.
 *
 * A hook lefthook installed runs what its config says, so that config is
 * kept with the hooks (shim/guard.c, hook_managers). lefthook also merges
 * the configs its `extends` names (paths, globs), sources its `rc` file
 * before each command, and runs the scripts in its `source_dir` and
 * `source_dir_local`: each is as much the hook as the config is (a
 * session that rewrote an extended config had the next commit outside
 * run what it said). Read as text, whatever the format (YAML, TOML or
 * JSON): a key at a line's start (after spaces and a quote), then `:` or
 * `=`, then a scalar, a flow list (`[a, b]`, over lines too), or a YAML
 * block list (`- a` on the lines after). */
#include "cordon/guard.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dotfile-refs.h"
#include "util.h"

#define MAX_BYTES (1 << 20)

static const char *const keys[] = {"extends", "rc",    "source_dir", "source_dir_local",
				   "run",     "files", "root",       NULL};
enum { RUN = 4, FILES = 5, ROOT = 6 };

/* The directories a command may run in: the worktree, and each root: a
 * command of this config names (any command's: which one it is of does
 * not matter for what is kept). */
struct dirs {
	const char *worktree;
	char roots[8][PATH_MAX];
	size_t n;
};

/* *V (*N bytes) past the YAML anchors and tags before a value (&dir
 * scripts/lh/, !!str x), and the blanks after them; false when nothing
 * is left. */
static bool past_anchors(const char **v, size_t *n)
{
	while (*n > 0 && (**v == '&' || **v == '!')) {
		size_t k = strcspn(*v, " \t\n");
		if (k >= *n)
			return false;
		*v += k, *n -= k;
		while (*n > 0 && strchr(" \t", **v))
			(*v)++, (*n)--;
	}
	return true;
}

/* The value V (N bytes), unquoted, made a path beneath WORKTREE (a glob:
 * the directory before it), into OUT. Nothing for one with something to
 * expand ($VAR, ~) or empty. */
static int named(const char *v, size_t n, const char *worktree, struct cordon_strv *out)
{
	while (n > 0 && strchr(" \t", *v))
		v++, n--;
	/* (An alias, *dir, is another key's value, taken there.) */
	if (!past_anchors(&v, &n) || (n > 0 && *v == '*'))
		return 0;
	while (n > 0 && strchr(" \t\"'", *v))
		v++, n--;
	while (n > 0 && strchr(" \t\r\"',", v[n - 1]))
		n--;
	if (n == 0 || memchr(v, '$', n) || memchr(v, '`', n) || v[0] == '~')
		return 0;
	while (n > 2 && v[0] == '.' && v[1] == '/') /* ./ci/lefthook.rc */
		v += 2, n -= 2;
	size_t keep = n;
	for (size_t i = 0; i < n; i++)
		if (strchr("*?[{", v[i])) {
			keep = i;
			while (keep > 0 && v[keep - 1] != '/')
				keep--;
			break;
		}
	while (keep > 1 && v[keep - 1] == '/')
		keep--;
	char path[PATH_MAX];
	if (keep == 0) { /* a glob at the worktree's top: what it matches now */
		glob_t g;
		if ((size_t)snprintf(path, sizeof(path), "%s/%.*s", worktree, (int)n, v) >=
		    sizeof(path))
			return 0;
		/* And the pattern itself: a name to watch (shim/linux/reguard.c
		 * moves aside each new match as it appears; a commit outside
		 * during the session would merge it), a glob in a directory
		 * part too (*\/hooks.yml: the directories it matches are
		 * watched). */
		if (cordon_strv_push_new(out, path) < 0)
			return -ENOMEM;
		/* (lefthook's * matches a leading dot too: round 26c.) */
		if (glob(path, GLOB_NOSORT | GLOB_PERIOD, NULL, &g) != 0)
			return 0;
		int e = 0;
		for (size_t i = 0; e >= 0 && i < g.gl_pathc && i < 64; i++)
			e = cordon_strv_push_new(out, g.gl_pathv[i]);
		globfree(&g);
		return e;
	}
	int m = v[0] == '/' ? snprintf(path, sizeof(path), "%.*s", (int)keep, v)
			    : snprintf(path, sizeof(path), "%s/%.*s", worktree, (int)keep, v);
	if (m < 0 || (size_t)m >= sizeof(path))
		return 0;
	size_t len = (size_t)m;
	if (len > 2 && strcmp(path + len - 2, "/.") == 0)
		path[len - 2] = '\0';
	/* (source_dir: . names the worktree: its scripts are in HOOK/ there,
	 * which is no reason to keep the whole project read-only.) */
	if (strcmp(path, worktree) == 0)
		return 0;
	return cordon_strv_push_new(out, path);
}

/* The length of the item at C: a quoted one to its closing quote (or
 * its line's end), else up to one of ENDS. */
static size_t item_len(const char *c, const char *ends)
{
	if (*c != '"' && *c != '\'')
		return strcspn(c, ends);
	size_t n = 1 + strcspn(c + 1, *c == '"' ? "\"\n" : "'\n");
	return c[n] == *c ? n + 1 : n;
}

/* The items of the flow list after AT ("[a, 'b']", over lines too),
 * up to its "]"; where reading stopped. */
static const char *flow_items(const char *at, const char *worktree, struct cordon_strv *out, int *e)
{
	const char *c = at;
	while (*e >= 0 && *c && *c != ']') {
		c += strspn(c, " \t\r\n,");
		if (*c == '#') { /* (a YAML or TOML comment) */
			c += strcspn(c, "\n");
			continue;
		}
		size_t n = item_len(c, ",]\n#");
		if (n == 0)
			break;
		*e = named(c, n, worktree, out);
		c += n;
	}
	return c;
}

static int push_named(const char *path, const char *file, void *arg)
{
	(void)file;
	return path[0] == '/' ? cordon_strv_push_new(arg, path) : 0;
}

/* A command lefthook runs (C, N bytes: a run: line, run by sh from the
 * worktree), read as an .envrc is (cordon_shell_refs): the script it runs
 * by a path (./scripts/lint.sh), or an interpreter's (bash
 * scripts/fmt.sh), what it sources. The rest is the project's own code
 * run by name (yarn lint, make). */
static int commands(const char *c, size_t n, const struct dirs *d, struct cordon_strv *out)
{
	if (!past_anchors(&c, &n)) /* (run: &lint ./x.sh) */
		return 0;
	int e = cordon_shell_refs(c, n, d->worktree, push_named, out);
	for (size_t i = 0; e >= 0 && i < d->n; i++)
		e = cordon_shell_refs(c, n, d->roots[i], push_named, out);
	return e;
}

/* One value of KEY's (V, N bytes): a command (run:, files:), a root:
 * (kept in D), else a path. */
static int value_of(size_t key, const char *v, size_t n, struct dirs *d, struct cordon_strv *out)
{
	if (key == RUN || key == FILES)
		return commands(v, n, d, out);
	if (key != ROOT)
		return named(v, n, d->worktree, out);
	struct cordon_strv one = {0};
	int e = named(v, n, d->worktree, &one);
	if (e >= 0 && one.n && d->n < ARRAY_SIZE(d->roots))
		snprintf(d->roots[d->n++], sizeof(d->roots[0]), "%s", one.v[0]);
	cordon_strv_free(&one);
	return e;
}

/* The value on the lines after AT, of a key indented by INDENT: a YAML
 * block list ("- a"), a block scalar's lines (KEY's "|" or ">": a
 * command's lines, one script, cd and all), or a scalar alone on the next
 * line; where it ends. */
static const char *block_items(const char *at, size_t indent, size_t key, bool scalar,
			       struct dirs *d, struct cordon_strv *out, int *e)
{
	const char *line = at;
	bool first = true;
	while (*e >= 0 && *line) {
		const char *next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		size_t in = strspn(line, " \t");
		const char *t = line + strspn(line, " \t\r");
		if (*t == '\n' || *t == '\0' || *t == '#') {
			line = next; /* (a blank line or a comment) */
			continue;
		}
		if (scalar && in > indent) {
			if (key != RUN && key != FILES) {
				*e = named(t, strcspn(t, "#\n"), d->worktree, out);
			} else { /* (the whole block: a cd holds for the lines after) */
				const char *end = next;
				while (*end) {
					const char *nx = strchr(end, '\n');
					nx = nx ? nx + 1 : end + strlen(end);
					size_t ein = strspn(end, " \t");
					if (end[ein] != '\n' && end[ein] != '\r' && end[ein] &&
					    ein <= indent)
						break;
					end = nx;
				}
				*e = commands(t, (size_t)(end - t), d, out);
				return end;
			}
		} else if (!scalar && *t == '-' && (t[1] == ' ' || t[1] == '\t'))
			*e = value_of(key, t + 2, strcspn(t + 2, key == RUN ? "\n" : "#\n"), d,
				      out);
		else if (!scalar && first && in > indent) {
			*e = value_of(key, t, strcspn(t, key == RUN ? "\n" : "#\n"), d, out);
			return next; /* (a scalar on the next line) */
		} else
			break;
		first = false;
		line = next;
	}
	return line;
}

/* Which of the keys AT is (at a line's start, or past a "{" or a ","),
 * or -1, and where its value starts then (past ":" or "="), in *VALUE. */
static int key_at(const char *at, const char **value)
{
	const char *t = at + strspn(at, " \t");
	if (t[0] == '-' && (t[1] == ' ' || t[1] == '\t')) /* (jobs: - run: x) */
		t += 1 + strspn(t + 1, " \t");
	if (*t == '"' || *t == '\'')
		t++;
	for (size_t k = 0; keys[k]; k++) {
		size_t kn = strlen(keys[k]);
		if (strncmp(t, keys[k], kn) != 0)
			continue;
		const char *c = t + kn;
		if (*c == '"' || *c == '\'')
			c++;
		c += strspn(c, " \t");
		if (*c != ':' && *c != '=')
			continue;
		*value = c + 1 + strspn(c + 1, " \t");
		return (int)k;
	}
	return -1;
}

int cordon_lefthook_refs(const char *file, const char *worktree, struct cordon_strv *out)
{
	/* (A regular file only: not a FIFO at the name, nor a device, which
	 * opening alone can act on, and the launcher may be root.) */
	size_t got = 0;
	cleanup_free char *text = cordon_read_regular(file, MAX_BYTES, &got);
	if (!text)
		return errno == ENOMEM ? -ENOMEM : 0;
	if (got == 0)
		return 0;
	for (size_t i = 0; i < got; i++)
		if (!text[i])
			text[i] = ' ';
	/* Twice: the roots first (a root: after its run: in the mapping). */
	struct dirs d = {.worktree = worktree};
	int e = 0;
	for (int pass = 0; pass < 2; pass++) {
		struct cordon_strv scratch = {0};
		for (const char *c = text; e >= 0 && *c; c++) {
			const char *value;
			int key = c == text || strchr("\n{,", c[-1]) ? key_at(c, &value) : -1;
			if (key < 0 || (pass == 0) != (key == ROOT))
				continue;
			struct cordon_strv *to = pass == 0 ? &scratch : out;
			size_t indent = strspn(c, " \t");
			bool scalar = *value == '|' || *value == '>'; /* (a block scalar) */
			bool cmd = key == RUN || key == FILES;
			if (*value == '[' && !cmd)
				c = flow_items(value + 1, worktree, to, &e);
			else if (scalar || *value == '\n' || *value == '\r' || *value == '#' ||
				 !*value) {
				const char *rest = value + strcspn(value, "\n");
				c = block_items(*rest ? rest + 1 : rest, indent, (size_t)key,
						scalar, &d, to, &e) -
				    1;
			} else {
				size_t n = item_len(value, cmd ? ",}\n" : ",}#\n");
				const char *v = value;
				size_t vn = n;
				if (cmd) { /* (a quoted command: its quotes go) */
					v += *value == '"' || *value == '\'';
					vn = n - (size_t)(v - value);
					vn -= vn > 0 && (v[vn - 1] == '"' || v[vn - 1] == '\'');
				}
				e = value_of((size_t)key, v, vn, &d, to);
				c = value + n - 1;
			}
			if (!*c)
				break;
		}
		cordon_strv_free(&scratch);
	}
	return e;
}
