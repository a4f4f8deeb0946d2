/* cordon check, part two: what of the user's own tools will not execute in
 * a session — PATH entries, and what the shell rc files source or run —
 * under the policy a `cordon run` here would use, and the config line that
 * fixes it (a toolchain preset where one covers the path). Advice only: it
 * never changes check's exit status, and says nothing when all is well. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cordon/config.h"
#include "cordon/exec.h"
#include "cordon/policy.h"
#include "cordon/toolchain.h"
#include "jsonutil.h"
#include "launcher.h"
#include "util.h"

/* The rc files a login or interactive shell reads, under the home. */
static const char *const rc_files[] = {".bashrc", ".profile", ".bash_profile",
				       ".zshrc",  ".zshenv",  ".config/fish/config.fish",
				       NULL};

#define MAX_VARS     32
#define MAX_RC_BYTES ((size_t)256 << 10)

/* What one scan found and what it suggests. */
struct findings {
	const struct cordon_policy *p;
	const char *home;
	struct cordon_strv seen;    /* canonical paths already reported */
	struct cordon_strv presets; /* preset names that fix something */
	struct cordon_strv dirs;    /* directories for additional_executable_paths */
	size_t n;                   /* lines printed */
	bool quiet;                 /* collect in NAMES instead of printing */
	bool pyenv_rehash;          /* an rc file runs `pyenv init` with its rehash */
	struct cordon_strv names;   /* quiet: the paths, as the user wrote them */
};

/* Variables an rc file sets to a path (export NAME=..., set -gx NAME ...),
 * so that "$PYENV_ROOT/bin" can be followed. */
struct vars {
	char *name[MAX_VARS];
	char *value[MAX_VARS];
	size_t n;
};

static void vars_free(struct vars *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->name[i]);
		free(v->value[i]);
	}
	v->n = 0;
}

static const char *vars_get(const struct vars *v, const char *name, size_t len)
{
	for (size_t i = v->n; i-- > 0;)
		if (strlen(v->name[i]) == len && strncmp(v->name[i], name, len) == 0)
			return v->value[i];
	return NULL;
}

static bool ident(char c, bool first)
{
	return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (!first && c >= '0' && c <= '9');
}

/* LINE with "~/" (at a word's start), $NAME and ${NAME} of known variables
 * replaced. malloc'd, or NULL when out of memory or too long. */
static char *expand(const char *line, const struct vars *v)
{
	char out[8192];
	size_t o = 0;
	for (const char *s = line; *s;) {
		const char *val = NULL;
		size_t skip = 1;
		bool start = s == line || strchr(" \t\"'=:(`", s[-1]);
		if (s[0] == '~' && s[1] == '/' && start) {
			val = vars_get(v, "HOME", 4);
		} else if (s[0] == '$') {
			bool brace = s[1] == '{';
			const char *n = s + 1 + brace;
			size_t len = 0;
			while (ident(n[len], len == 0))
				len++;
			if (len && (!brace || n[len] == '}')) {
				val = vars_get(v, n, len);
				skip = 1 + brace + len + brace;
			}
		}
		const char *add = val ? val : s;
		size_t n = val ? strlen(val) : 1;
		if (o + n >= sizeof(out))
			return NULL;
		memcpy(out + o, add, n);
		o += n;
		s += val ? skip : 1;
	}
	out[o] = '\0';
	return strdup(out);
}

/* An assignment of a path to a variable: "NAME=VALUE", "export NAME=VALUE",
 * fish's "set -gx NAME VALUE" (LINE already expanded); recorded when the
 * value, unquoted, is an absolute path with nothing left to expand. */
static void note_assignment(struct vars *v, const char *line)
{
	const char *s = line;
	bool fish = false;
	if (strncmp(s, "export ", 7) == 0)
		s += 7;
	else if (strncmp(s, "set ", 4) == 0) {
		s += 4;
		fish = true;
		while (*s == '-') /* set -gx, set -x -g */
			s += strcspn(s, " ") + strspn(s + strcspn(s, " "), " ");
	}
	size_t len = 0;
	while (ident(s[len], len == 0))
		len++;
	if (!len || s[len] != (fish ? ' ' : '='))
		return;
	const char *val = s + len + 1;
	char quote = '\0';
	if (*val == '"' || *val == '\'')
		quote = *val;
	val += quote != 0;
	size_t vlen = quote ? strcspn(val, (char[]){quote, 0}) : strcspn(val, " \t;");
	if (!vlen || val[0] != '/' || memchr(val, '$', vlen) || v->n == MAX_VARS)
		return;
	char *name = strndup(s, len), *value = strndup(val, vlen);
	if (!name || !value) {
		free(name);
		free(value);
		return;
	}
	v->name[v->n] = name;
	v->value[v->n++] = value;
}

/* The word before position AT of LINE, past quotes and blanks ("source",
 * ".", "eval"), into WORD. */
static void word_before(const char *line, const char *at, char *word, size_t size)
{
	const char *e = at;
	while (e > line && (e[-1] == '"' || e[-1] == '\''))
		e--;
	if (e == at && e > line && e[-1] != ' ' && e[-1] != '\t') {
		word[0] = '\0'; /* joined to something: "PATH=/x", "$(/x" */
		return;
	}
	while (e > line && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	const char *b = e;
	while (b > line && !strchr(" \t;&|(`", b[-1]))
		b--;
	(void)snprintf(word, size, "%.*s", (int)(e - b), b);
}

/* Whether DIR may be suggested: never /, the home or above it, a system
 * directory (but below /usr/local and /opt, where tools install), a hidden
 * path or cordon's own config. */
static bool suggestible(const struct findings *f, const char *dir)
{
	if (strcmp(dir, "/") == 0 || (f->home && cordon_path_under(f->home, dir)))
		return false;
	if (cordon_never_project(dir, f->home) &&
	    !(cordon_path_under(dir, "/usr/local") && strcmp(dir, "/usr/local") != 0))
		return false;
	if (cordon_policy_hidden(f->p, dir))
		return false;
	for (size_t i = 0; i < f->p->n_guards; i++) {
		const struct cordon_guard *g = &f->p->guards[i];
		if (strcmp(g->source, "cordon's config") == 0 &&
		    (cordon_path_under(dir, g->path) || cordon_path_under(g->path, dir)))
			return false;
	}
	return true;
}

static const char *tilde(const struct findings *f, const char *path, char *buf, size_t size)
{
	size_t n = f->home ? strlen(f->home) : 0;
	if (n > 1 && cordon_path_under(path, f->home)) {
		(void)snprintf(buf, size, "~%s", path + n);
		return buf;
	}
	return path;
}

/* PATH (absolute, as found: in $PATH or an rc file, WHERE says, where
 * it is used as HOW) needs NEED; report it when the policy does not give
 * that, with what would fix it. DIR: PATH is a directory (else a file,
 * whose directory is suggested). */
static void judge(struct findings *f, const char *where, const char *how, const char *path,
		  unsigned need, bool dir)
{
	cleanup_free char *canon = realpath(path, NULL);
	if (!canon || cordon_strv_contains(&f->seen, canon))
		return;
	const struct cordon_guard *hidden = cordon_policy_hidden(f->p, canon);
	/* One a rule exposes gets what the rule gives; still never proposed. */
	unsigned acc = hidden && !hidden->by ? 0 : cordon_policy_access(f->p, canon, NULL);
	if ((acc & need) == need)
		return;
	if (cordon_strv_push(&f->seen, canon) < 0)
		return;
	char buf[4], tb[PATH_MAX];
	const char *preset = hidden ? NULL : cordon_toolchain_for_path(path, f->home, getenv);
	if (!preset && !hidden)
		preset = cordon_toolchain_for_path(canon, f->home, getenv);
	/* The directory as found (/usr/local/cuda/bin, not the version it
	 * links to today), when both it and what it is are fit to suggest. */
	cleanup_free char *sugg = NULL, *csugg = NULL;
	if (!preset && !hidden && (sugg = strdup(path)) && (csugg = strdup(canon))) {
		for (char **sp = &sugg; sp; sp = sp == &sugg ? &csugg : NULL) {
			char *slash = dir ? NULL : strrchr(*sp, '/');
			if (slash)
				*(slash == *sp ? slash + 1 : slash) = '\0';
		}
		if (!suggestible(f, sugg) || !suggestible(f, csugg)) {
			free(sugg);
			sugg = NULL;
		}
	}
	if (f->quiet) {
		if (preset || sugg)
			(void)cordon_strv_push(&f->names, tilde(f, path, tb, sizeof(tb)));
	} else
		printf("%-11s%s %s %s: %s in a session (%s)%s%s%s\n", f->n ? "" : "tools:", where,
		       how, tilde(f, path, tb, sizeof(tb)),
		       need & CORDON_ACCESS_EXEC ? "does not execute" : "not readable",
		       cordon_access_str(acc, buf), preset ? "; toolchain " : "",
		       preset ? preset : "",
		       hidden ? "; a hidden path (credentials): no line suggested"
		       : !preset && !sugg
			       ? "; no line suggested for a system directory or your home"
			       : "");
	f->n++;
	if (preset && !cordon_strv_contains(&f->presets, preset))
		(void)cordon_strv_push(&f->presets, preset);
	if (sugg && !cordon_strv_contains(&f->dirs, sugg))
		(void)cordon_strv_push(&f->dirs, sugg);
}

static void scan_path(struct findings *f)
{
	const char *env = getenv("PATH");
	cleanup_free char *copy = env ? strdup(env) : NULL;
	char *save = NULL;
	for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d;
	     d = strtok_r(NULL, ":", &save)) {
		struct stat st;
		if (d[0] == '/' && stat(d, &st) == 0 && S_ISDIR(st.st_mode))
			judge(f, "PATH", "has", d, CORDON_ACCESS_EXEC, true);
	}
}

/* One line of an rc file (NAME, line NO): the absolute paths it sources
 * (needs read), runs (an executable file: needs execute) or puts in PATH
 * (a directory on a line that sets PATH: needs execute). */
static void scan_line(struct findings *f, const char *name, unsigned no, const char *line,
		      struct vars *vars)
{
	line += strspn(line, " \t");
	if (*line == '#' || !*line)
		return;
	cleanup_free char *x = expand(line, vars);
	if (!x)
		return;
	for (char *h = x; (h = strchr(h, '#')); h++)
		if (h > x && (h[-1] == ' ' || h[-1] == '\t')) {
			*h = '\0'; /* a comment */
			break;
		}
	note_assignment(vars, x);
	if (strstr(x, "pyenv init") && !strstr(x, "--path") && !strstr(x, "--no-rehash"))
		f->pyenv_rehash = true;
	bool sets_path = strstr(x, "PATH") || strstr(x, "path+=") || strstr(x, "fish_add_path");
	for (char *s = x; *s; s++) {
		if (*s != '/' || (s > x && !strchr(" \t\"'=:(`", s[-1])))
			continue;
		size_t len = strcspn(s, " \t\"'`;:|&<>()$}{");
		char tok[PATH_MAX];
		if (len >= sizeof(tok)) {
			s += len - 1;
			continue;
		}
		memcpy(tok, s, len);
		tok[len] = '\0';
		char word[64];
		word_before(x, s, word, sizeof(word));
		bool sourced = strcmp(word, "source") == 0 || strcmp(word, ".") == 0;
		struct stat st;
		char where[PATH_MAX + 64], tb[PATH_MAX];
		(void)snprintf(where, sizeof(where), "%s:%u", tilde(f, name, tb, sizeof(tb)), no);
		if (stat(tok, &st) == 0) {
			if (sourced && S_ISREG(st.st_mode))
				judge(f, where, "sources", tok, CORDON_ACCESS_READ, false);
			else if (S_ISREG(st.st_mode) && (st.st_mode & 0111))
				judge(f, where, "runs", tok, CORDON_ACCESS_EXEC, false);
			else if (S_ISDIR(st.st_mode) && sets_path)
				judge(f, where, "adds to PATH", tok, CORDON_ACCESS_EXEC, true);
		}
		s += len ? len - 1 : 0;
	}
}

static void scan_rc(struct findings *f, const char *rel)
{
	cleanup_free char *file = NULL;
	if (asprintf(&file, "%s/%s", f->home, rel) < 0) {
		file = NULL;
		return;
	}
	cleanup_free char *text = NULL;
	size_t len = 0;
	if (cordon_read_file(file, MAX_RC_BYTES, &text, &len, NULL) < 0)
		return; /* absent or unreadable: not read by the shell either */
	struct vars vars = {0};
	char *hn = strdup("HOME"), *hv = strdup(f->home);
	if (hn && hv) {
		vars.name[0] = hn;
		vars.value[0] = hv;
		vars.n = 1;
	} else {
		free(hn);
		free(hv);
	}
	unsigned no = 0;
	for (char *s = text, *nl; s && *s; s = nl ? nl + 1 : NULL) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		scan_line(f, file, ++no, s, &vars);
	}
	vars_free(&vars);
}

/* `"KEY": [A, B]`: OLD's entries, then NEW's not in it, as JSON strings. */
static void print_list(const char *key, const struct cordon_strv *old,
		       const struct cordon_strv *add)
{
	printf("\"%s\": [", key);
	size_t k = 0;
	for (int pass = 0; pass < 2; pass++) {
		const struct cordon_strv *sv = pass ? add : old;
		for (size_t i = 0; i < sv->n; i++) {
			if (pass && cordon_strv_contains(old, sv->v[i]))
				continue;
			json_object *o = json_object_new_string(sv->v[i]);
			const char *q = o ? json_object_to_json_string_ext(
						    o, JSON_C_TO_STRING_NOSLASHESCAPE)
					  : "\"?\"";
			printf("%s%s", k++ ? ", " : "", q);
			json_object_put(o);
		}
	}
	printf("]");
}

/* A system tool whose download cache a session cannot write fails in a way
 * that does not name cordon (`npm install`: "npm error enoent"; go: "could
 * not create module cache"). For each tool on PATH, the first read-write
 * directory of its preset (when the config does not name it) that the policy
 * does not let the session write. */
static const struct {
	const char *tool, *preset;
} cache_tools[] = {{"npm", "node"}, {"go", "go"}, {"cargo", "rust"}}; /* (pip goes on uncached) */

struct cache_probe {
	const struct findings *f;
	char *path; /* the first entry not writable, malloc'd */
	unsigned acc;
};

static int cache_entry(const struct cordon_toolchain_entry *e, void *data)
{
	struct cache_probe *c = data;
	if (e->cls != CORDON_CLASS_RW || e->file || c->path)
		return 0;
	cleanup_free char *canon = realpath(e->path, NULL);
	unsigned acc = cordon_policy_access(c->f->p, canon ? canon : e->path, NULL);
	if (acc & CORDON_ACCESS_WRITE)
		return 0;
	c->acc = acc;
	c->path = strdup(e->path);
	return c->path ? 0 : -ENOMEM;
}

static void scan_caches(struct findings *f, const struct cordon_config *cfg)
{
	for (size_t i = 0; i < ARRAY_SIZE(cache_tools); i++) {
		/* A preset's missing cache is made as the session starts. */
		if (cordon_strv_contains(&f->presets, cache_tools[i].preset) ||
		    cordon_strv_contains(&cfg->toolchains, cache_tools[i].preset))
			continue;
		cleanup_free char *tool = NULL;
		if (cordon_exec_find(cache_tools[i].tool, getenv("PATH"), &tool) < 0)
			continue;
		struct cache_probe c = {.f = f};
		(void)cordon_toolchain_each(cache_tools[i].preset, f->home, getenv, cache_entry,
					    &c);
		if (!c.path)
			continue;
		char buf[4], tb[PATH_MAX], tb2[PATH_MAX];
		printf("%-11sPATH has %s: its cache %s is not writable in a session (%s); "
		       "toolchain %s\n",
		       f->n ? "" : "tools:", tilde(f, tool, tb, sizeof(tb)),
		       tilde(f, c.path, tb2, sizeof(tb2)), cordon_access_str(c.acc, buf),
		       cache_tools[i].preset);
		f->n++;
		(void)cordon_strv_push(&f->presets, cache_tools[i].preset);
		free(c.path);
	}
}

/* Both scans: $PATH, then the rc files. */
static void scan_all(struct findings *f)
{
	scan_path(f);
	for (size_t i = 0; f->home && rc_files[i]; i++)
		scan_rc(f, rc_files[i]);
}

static void findings_free(struct findings *f)
{
	cordon_strv_free(&f->seen);
	cordon_strv_free(&f->presets);
	cordon_strv_free(&f->dirs);
	cordon_strv_free(&f->names);
}

/* KEY's entries as a JSON array, into F. */
static void put_list(FILE *out, const char *key, const struct cordon_strv *sv)
{
	fprintf(out, "\"%s\": [", key);
	for (size_t i = 0; i < sv->n; i++) {
		json_object *o = json_object_new_string(sv->v[i]);
		fprintf(out, "%s%s", i ? ", " : "",
			o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE)
			  : "\"?\"");
		json_object_put(o);
	}
	fprintf(out, "]");
}

void launcher_toolchain_hint(const struct cordon_args *a)
{
	/* Resolved here as check does (canonical rules; the session's own
	 * leave symlinked paths for the kernel to resolve). */
	struct cordon_policy pol;
	struct cordon_error err = {0};
	if (launcher_policy(a, NULL, false, &pol, &err, NULL) < 0)
		return;
	const struct cordon_policy *p = &pol;
	if (!p->sandbox) {
		cordon_policy_free(&pol);
		return;
	}
	struct findings f = {.p = p, .home = launcher_home(), .quiet = true};
	scan_all(&f);
	if (f.names.n) {
		fprintf(stderr, "cordon: ");
		for (size_t i = 0; i < f.names.n && i < 3; i++)
			fprintf(stderr, "%s%s", i ? ", " : "", f.names.v[i]);
		if (f.names.n > 3)
			fprintf(stderr, " and %zu more", f.names.n - 3);
		fprintf(stderr,
			" (your PATH and rc files) %s not execute in this session; to "
			"allow %s, add to your config ",
			f.names.n > 1 ? "do" : "does", f.names.n > 1 ? "them" : "it");
		if (f.presets.n)
			put_list(stderr, "toolchains", &f.presets);
		if (f.presets.n && f.dirs.n)
			fprintf(stderr, " and ");
		if (f.dirs.n)
			put_list(stderr, "additional_executable_paths", &f.dirs);
		fprintf(stderr, " (cordon check lists them)\n");
	}
	/* pyenv's rehash writes ~/.pyenv/shims, which runs outside later: never
	 * writable, so `pyenv init -` complains at every start. */
	const char *root = getenv("PYENV_ROOT");
	cleanup_free char *shims = NULL;
	if (f.pyenv_rehash &&
	    ((root && root[0] == '/' && asprintf(&shims, "%s/shims", root) >= 0) ||
	     (!(root && root[0] == '/') && f.home &&
	      asprintf(&shims, "%s/.pyenv/shims", f.home) >= 0))) {
		cleanup_free char *canon = realpath(shims, NULL);
		if (canon && (cordon_policy_access(p, canon, NULL) & CORDON_ACCESS_EXEC) &&
		    !(cordon_policy_access(p, canon, NULL) & CORDON_ACCESS_WRITE))
			fprintf(stderr,
				"cordon: \"pyenv: cannot rehash\" is expected: pyenv's shims run "
				"outside later, so they stay read-only; in your rc file, skip the "
				"rehash inside: eval \"$(pyenv init - ${CORDON_SANDBOX:+--no-rehash})\"\n");
	}
	findings_free(&f);
	cordon_policy_free(&pol);
}

void check_toolchains(const struct cordon_args *a, const struct cordon_config *cfg)
{
	struct cordon_policy p;
	struct cordon_error err = {0};
	if (launcher_policy(a, NULL, false, &p, &err, NULL) < 0)
		return; /* the config parsed; a policy that cannot resolve shows in run */
	struct findings f = {.p = &p, .home = launcher_home()};
	if (p.sandbox) {
		scan_all(&f);
		scan_caches(&f, cfg);
	}
	if (f.presets.n || f.dirs.n) {
		const char *lead = "to fix:    add to your config (merged with its own): ";
		if (f.presets.n) {
			printf("%s", lead);
			print_list("toolchains", &cfg->toolchains, &f.presets);
			printf("\n");
			lead = "           and: ";
		}
		if (f.dirs.n) {
			printf("%s", lead);
			print_list("additional_executable_paths",
				   &cfg->additional[CORDON_CLASS_EXEC], &f.dirs);
			printf("\n");
		}
	}
	findings_free(&f);
	cordon_policy_free(&p);
}
