/* cordon learn: run a command sandboxed with the recorder library
 * (libcordon-learn.so) preloaded into every process, then report each
 * access the sandbox denied, with the config line that would allow it. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <json-c/json_object_iterator.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "cordon/env.h"
#include "cordon/guard.h"
#include "cordon/session.h"
#include "cordon/toolchain.h"
#include "cordon/config.h"
#include "jsonutil.h"
#include "launcher.h"
#include "suggest.h"
#include "util.h"

struct denial {
	unsigned want; /* CORDON_ACCESS_READ / WRITE / EXEC */
	char *path;    /* canonical where it exists, else its canonical directory + name */
	char *target;  /* what to allow: the path, or its nearest existing ancestor */
	bool missing;  /* the path does not exist (a create that was refused) */
	bool file;     /* missing, and made as a file (not a directory) */
};

static int cmp_denial(const void *a, const void *b)
{
	const struct denial *x = a, *y = b;
	int c = strcmp(x->target, y->target);
	if (c)
		return c;
	c = strcmp(x->path, y->path);
	return c ? c : (int)x->want - (int)y->want;
}

/* Canonical PATH, or of its nearest existing ancestor (*MISSING set). */
static char *existing_target(const char *path, bool *missing)
{
	*missing = false;
	char *canon = realpath(path, NULL);
	if (canon)
		return canon;
	*missing = true;
	char *dir = strdup(path);
	while (dir && strcmp(dir, "/") != 0) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			break;
		*(slash == dir ? slash + 1 : slash) = '\0';
		canon = realpath(dir, NULL);
		if (canon) {
			free(dir);
			return canon;
		}
	}
	free(dir);
	return strdup("/");
}

/* What to show for a recorded PATH: the canonical TARGET when it exists;
 * for a refused create, TARGET (its directory) + its name. */
static char *display_path(const char *path, const char *target, bool missing)
{
	if (!missing)
		return strdup(target);
	const char *name = strrchr(path, '/');
	char *out;
	if (asprintf(&out, "%s%s", strcmp(target, "/") ? target : "", name ? name : "/?") < 0)
		return NULL;
	return out;
}

/* Whether a create refused in the directory TARGET (MISSING: the entry
 * was not there) is what a shared directory of P's takes none of: then
 * where to make it instead, else NULL. */
static const char *shared_refusal(const struct cordon_policy *p, const char *target, bool missing,
				  unsigned want)
{
	return missing && want == CORDON_ACCESS_WRITE && cordon_policy_in_shared(p, target, true)
		       ? "make it in $TMPDIR or the project"
		       : NULL;
}

/* The records of KIND ("K\tWHAT" lines: s a unix socket the supervisor
 * refused, n the network) that start with PREFIX, once each, without a
 * control character (they are printed on the user's terminal). */
static void collect_kind(const char *text, char kind, const char *prefix, struct cordon_strv *out)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len > 2 && line[0] == kind && line[1] == '\t' &&
		    strncmp(line + 2, prefix, strlen(prefix)) == 0) {
			char *path = strndup(line + 2, len - 2);
			bool plain = true;
			for (const char *c = path; c && *c && plain; c++)
				plain = (unsigned char)*c >= 0x20 && *c != 0x7f;
			if (path && plain && !cordon_strv_contains(out, path))
				(void)cordon_strv_push(out, path);
			free(path);
		}
		line = end ? end + 1 : NULL;
	}
}

/* At most this much of a record is read: the command can make its own as
 * large as the file system lets it. */
#define RECORD_MAX (16 << 20)

/* What FD holds (NUL-terminated, malloc'd), or NULL. */
static char *read_record(int fd)
{
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0)
		return NULL;
	size_t len = st.st_size > RECORD_MAX ? RECORD_MAX : (size_t)st.st_size;
	char *text = malloc(len + 1);
	ssize_t got = text ? pread(fd, text, len, 0) : -1;
	if (got < 0) {
		free(text);
		return NULL;
	}
	text[got] = '\0';
	return text;
}

static const char *kind_word(unsigned want)
{
	return want == CORDON_ACCESS_READ    ? "read"
	       : want == CORDON_ACCESS_WRITE ? "write"
					     : "execute";
}

/* Read the records: SUP_FD's, what the supervisor, the proxy and the
 * launcher saw themselves (refused sockets to SOCKETS, the network to
 * NETWORK, files), and FD's, what the command's processes say: files, and
 * failed name lookups (LOOKUPS). Those the command says are only claims:
 * kept when the policy explains them (the policy denies that kind of
 * access: the sandbox refused it), deduplicated, and what may be
 * proposed from them is limited (suggest.h); a socket or the network
 * only the supervisor's own record names. */
static size_t collect(int fd, int sup_fd, const struct cordon_policy *p,
		      const struct cordon_guard_plan *plan, struct denial **out,
		      struct cordon_strv *sockets, struct cordon_strv *network,
		      struct cordon_strv *lookups, struct cordon_strv *guarded)
{
	*out = NULL;
	cleanup_free char *seen = read_record(sup_fd);
	cleanup_free char *said = read_record(fd);
	collect_kind(seen, 's', "", sockets);
	collect_kind(seen, 'n', "", network);
	collect_kind(said, 'n', "lookup ", lookups);
	cleanup_free char *text = NULL;
	if (asprintf(&text, "%s\n%s", seen ? seen : "", said ? said : "") < 0)
		return 0;
	struct denial *d = NULL;
	size_t n = 0, cap = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strlen(line) < 3 || line[1] != '\t' || line[2] != '/')
			continue;
		bool plain = true;
		for (const char *c = line + 2; *c && plain; c++)
			plain = (unsigned char)*c >= 0x20 && *c != 0x7f;
		if (!plain)
			continue; /* printed on the user's terminal: no escape sequence */
		unsigned want = line[0] == 'r'   ? CORDON_ACCESS_READ
				: line[0] == 'w' ? CORDON_ACCESS_WRITE
				: line[0] == 'c' ? CORDON_ACCESS_WRITE
				: line[0] == 'x' ? CORDON_ACCESS_EXEC
						 : 0;
		if (!want)
			continue;
		bool missing;
		char *target = existing_target(line + 2, &missing);
		if (!target)
			continue;
		/* A create needs write on the directory; anything else, the right
		 * on the file. Granted by the policy: an ordinary permission error. */
		if (missing)
			want = CORDON_ACCESS_WRITE;
		/* Kept from the session on purpose: said, never proposed. A
		 * credential store too, though no mount was needed to hide it. */
		const struct cordon_mount *g = cordon_guard_plan_find(plan, target);
		const struct cordon_guard *secret = cordon_policy_hidden(p, line + 2);
		if (!secret)
			secret = cordon_policy_hidden(p, target);
		bool closed = missing && plan->closed && strcmp(target, plan->closed) == 0;
		if ((g && (g->op == CORDON_MOUNT_HIDE || want == CORDON_ACCESS_WRITE)) || secret ||
		    closed) {
			char *s = NULL;
			if (asprintf(
				    &s, "    %-8s %s  (%s: %s)",
				    closed ? "create" : kind_word(want), line + 2,
				    closed       ? "closed"
				    : g          ? cordon_mount_op_name(g->op)
				    : secret->by ? "credential store"
						 : "hidden",
				    closed ? "the home, writable; make it in a directory of the home"
				    : g    ? g->source
					   : secret->source) > 0 &&
			    !cordon_strv_contains(guarded, s))
				(void)cordon_strv_push(guarded, s);
			free(s);
			free(target);
			continue;
		}
		/* Made in a shared directory the policy lets it write (/tmp):
		 * a socket, a symbolic link or a move from another directory,
		 * which it takes none of (a client outside could meet a
		 * server of the session's there). Said, never proposed. */
		const char *tmp = shared_refusal(p, target, missing, want);
		if (tmp) {
			char *s = NULL;
			if (asprintf(&s,
				     "    %-8s %s  (shared with servers outside: no socket, "
				     "symbolic link or move from another directory there; %s)",
				     "create", line + 2, tmp) > 0 &&
			    !cordon_strv_contains(guarded, s))
				(void)cordon_strv_push(guarded, s);
			free(s);
			free(target);
			continue;
		}
		char *path = NULL;
		if ((cordon_policy_access(p, target, NULL) & want) ||
		    !(path = display_path(line + 2, target, missing))) {
			free(target);
			continue;
		}
		/* The shown path determines the target: dedup on it and the kind. */
		bool dup = false;
		for (size_t i = 0; i < n && !dup; i++)
			dup = d[i].want == want && strcmp(d[i].path, path) == 0;
		if (dup) {
			free(path);
			free(target);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			struct denial *nd = realloc(d, cap * sizeof(*d));
			if (!nd) {
				free(path);
				free(target);
				break;
			}
			d = nd;
		}
		d[n].want = want;
		d[n].path = path;
		d[n].target = target;
		d[n].missing = missing;
		/* (Only the name made itself: a create below a missing
		 * directory shows that directory.) */
		const char *leaf = strrchr(line + 2, '/'), *shown = strrchr(path, '/');
		d[n].file = missing && line[0] == 'c' && leaf && shown && strcmp(leaf, shown) == 0;
		n++;
	}
	if (n > 1)
		qsort(d, n, sizeof(*d), cmp_denial);
	*out = d;
	return n;
}

/* What learn proposes: one rule (a CORDON_ACCESS_* mask: r, r-x or rwx)
 * per path. */
struct prop {
	unsigned access;
	char *path;
	bool missing; /* does not exist yet: to create first */
	bool file;    /* a missing file (touch), not a directory (mkdir -p) */
};

struct props {
	struct prop *v;
	size_t n, cap;
	struct cordon_strv never; /* "    PATH: not proposed: why" */
};

static void props_free(struct props *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->v[i].path);
	free(ps->v);
	cordon_strv_free(&ps->never);
}

static void props_add(struct props *ps, const char *path, unsigned access, bool file)
{
	for (size_t i = 0; i < ps->n; i++)
		if (strcmp(ps->v[i].path, path) == 0) {
			ps->v[i].access |= access;
			return;
		}
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 16;
		struct prop *nv = realloc(ps->v, cap * sizeof(*nv));
		if (!nv)
			return; /* only less proposed */
		ps->v = nv;
		ps->cap = cap;
	}
	struct stat st;
	struct prop *q = &ps->v[ps->n];
	if (!(q->path = strdup(path)))
		return;
	q->access = access;
	q->missing = lstat(path, &st) < 0;
	q->file = file;
	ps->n++;
}

static void props_never(struct props *ps, const char *path, const char *why)
{
	char *s = NULL;
	if (asprintf(&s, "    %s: not proposed: %s", path, why) > 0 &&
	    !cordon_strv_contains(&ps->never, s))
		(void)cordon_strv_push(&ps->never, s);
	free(s);
}

static char *parent_of(const char *path)
{
	char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	return dir;
}

/* A missing name that is likely a file (a dotfile like ~/.npmrc,
 * ~/.bash_history; a name with an extension). */
static bool looks_like_file(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);
	return strchr(base + 1, '.') || (n > 2 && strcmp(base + n - 2, "rc") == 0) ||
	       strstr(base, "history");
}

#define ACC_RO   CORDON_ACCESS_READ
#define ACC_EXEC (CORDON_ACCESS_READ | CORDON_ACCESS_EXEC)
#define ACC_RW   CORDON_ACCESS_ALL

/* The rule for one write denial of PATH: the tool root when nothing in it
 * runs outside the session (a cache: ~/.npm), else the root's child that
 * was written (~/.cargo/registry), never a directory of programs; outside
 * a tool, PATH's directory. */
static void propose_write(const struct cordon_policy *p, const char *config, const char *path,
			  bool made_file, struct props *ps)
{
	bool tool;
	cleanup_free char *root = suggest_root(p->home, path, &tool);
	if (!root)
		return;
	cleanup_free char *rule = NULL;
	bool file = false;
	/* A tool root that holds programs, or a cache programs outside run
	 * code from (~/.npm holds npx's): only the child written. */
	bool beneath = false;
	bool narrow = tool && strcmp(root, path) != 0 &&
		      (suggest_holds_programs(root, true) ||
		       (suggest_code_cache(p->home, root, &beneath) && beneath));
	if (narrow) {
		const char *rest = path + strlen(root) + 1;
		size_t n = strcspn(rest, "/");
		if (asprintf(&rule, "%s/%.*s", root, (int)n, rest) < 0)
			return;
		struct stat st;
		file = !rest[n] && (lstat(rule, &st) == 0 ? !S_ISDIR(st.st_mode)
							  : made_file || looks_like_file(rule));
	} else if (tool) {
		rule = strdup(root);
		struct stat st;
		file = strcmp(root, path) == 0 &&
		       (lstat(root, &st) == 0 ? !S_ISDIR(st.st_mode)
					      : made_file || looks_like_file(root));
	} else {
		rule = parent_of(path);
	}
	if (!rule)
		return;
	const char *why = suggest_never(p, config, rule);
	if (!why)
		why = suggest_never_write(p, rule);
	if (!why && !file)
		why = suggest_holds_programs(rule, tool);
	struct stat st;
	if (why && tool && !file && strcmp(rule, path) == 0 && lstat(rule, &st) < 0 &&
	    !suggest_never(p, config, rule) && suggest_code_cache(p->home, rule, &beneath) &&
	    beneath) {
		/* A missing tool root that would hold such a cache (~/.npm):
		 * made outside, the next round proposes what the command
		 * writes in it, that cache apart. */
		char more[PATH_MAX + 640];
		snprintf(more, sizeof(more),
			 "%s; made first, the next round proposes the directories written in it",
			 why);
		props_never(ps, rule, more);
		props_add(ps, rule, 0, false);
		return;
	}
	if (why) {
		props_never(ps, rule, why);
		return;
	}
	props_add(ps, rule, ACC_RW, file);
}

/* The rule for a read or execute denial of PATH: the tool root (executable
 * when anything under it is executed or it holds programs), else PATH's
 * directory, else PATH alone. */
static void propose_read(const struct cordon_policy *p, const char *config, const char *path,
			 unsigned want, struct props *ps)
{
	bool tool;
	cleanup_free char *root = suggest_root(p->home, path, &tool);
	if (!root)
		return;
	bool exec = want == CORDON_ACCESS_EXEC || suggest_is_library(path) ||
		    (tool && suggest_holds_programs(root, true));
	const char *why = suggest_never(p, config, root);
	if (why && !tool && strcmp(root, path) != 0 && !suggest_never(p, config, path)) {
		props_add(ps, path, exec ? ACC_EXEC : ACC_RO, false); /* the file alone */
		return;
	}
	if (why) {
		props_never(ps, strcmp(root, path) == 0 || tool ? root : path, why);
		return;
	}
	props_add(ps, root, exec ? ACC_EXEC : ACC_RO, false);
}

/* Collapse: a rule already covered by another (the same or a parent path,
 * at least the same access), or granted by the policy, goes. */
static void props_collapse(const struct cordon_policy *p, struct props *ps)
{
	size_t k = 0;
	for (size_t i = 0; i < ps->n; i++) {
		/* (A path only to create, access 0, stays.) */
		bool covered = ps->v[i].access && (cordon_policy_access(p, ps->v[i].path, NULL) &
						   ps->v[i].access) == ps->v[i].access;
		for (size_t j = 0; j < ps->n && ps->v[i].access && !covered; j++)
			covered = j != i && cordon_path_under(ps->v[i].path, ps->v[j].path) &&
				  strcmp(ps->v[i].path, ps->v[j].path) != 0 &&
				  (ps->v[i].access & ~ps->v[j].access) == 0;
		if (covered)
			free(ps->v[i].path);
		else
			ps->v[k++] = ps->v[i];
	}
	ps->n = k;
}

/* The config's own object for cordon's keys (the terminal.sandbox block of
 * an editor's settings, either spelling: 46b F1, the nested one Zed uses
 * was missed, and --write put the keys at the top level, where every later
 * session refused them), borrowed from ROOT; NULL if none. */
static json_object *config_object(json_object *root)
{
	json_object *b = NULL;
	return cordon_config_block(root, &b) < 0 ? NULL : b;
}

/* The config file PATH parsed (NULL if it cannot be), as cordon reads it:
 * JSON with comments and trailing commas (an editor's settings), *COMMENTED
 * set if it has any. */
static json_object *config_json(const char *path, bool *commented)
{
	cleanup_free char *text = NULL;
	size_t len = 0, bad = 0;
	*commented = false;
	if (cordon_read_file(path, CORDON_CONFIG_MAX_BYTES, &text, &len, NULL) < 0)
		return NULL;
	int blanked = cordon_jsonc_blank(text, len, &bad);
	*commented = blanked != 0;
	return blanked < 0 ? NULL : json_tokener_parse(text);
}

/* KEY's merged array: the config's current entries, then ADD's new ones. */
static json_object *merged(json_object *obj, const char *key, const struct cordon_strv *add)
{
	json_object *have = NULL, *arr = json_object_new_array();
	if (!arr)
		return NULL;
	if (obj && json_object_object_get_ex(obj, key, &have) &&
	    json_object_is_type(have, json_type_array))
		for (size_t i = 0; i < json_object_array_length(have); i++)
			json_object_array_add(arr,
					      json_object_get(json_object_array_get_idx(have, i)));
	for (size_t i = 0; i < add->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < json_object_array_length(arr) && !seen; j++) {
			const char *s = json_object_get_string(json_object_array_get_idx(arr, j));
			seen = s && strcmp(s, add->v[i]) == 0;
		}
		if (!seen)
			json_object_array_add(arr, json_object_new_string(add->v[i]));
	}
	return arr;
}

/* Replace (or add) the keys of UPDATE in the config file PATH (or, when it
 * does not exist, make it), through a temp file renamed over it. The
 * user's other keys and entries stay. 0 or -1 (said). */
static int write_config(const char *path, json_object *update)
{
	if (getenv(CORDON_ENV_SESSION) && strstr(path, "/cordon/")) {
		fprintf(stderr,
			"cordon: %s: cordon's own config is read-only inside a session; run "
			"`cordon learn --write` outside, or paste the block below\n",
			path);
		return -1;
	}
	json_object *root = NULL;
	if (access(path, F_OK) == 0) {
		/* Comments (an editor's settings are JSONC) would not survive
		 * the rewrite (46b F1: every one was dropped): left to the user. */
		bool commented = false;
		root = config_json(path, &commented);
		if (commented) {
			json_object *b = NULL;
			bool editor = cordon_config_block(root, &b) > 0;
			json_object_put(root);
			fprintf(stderr,
				"cordon: %s: has comments (or trailing commas), which rewriting "
				"it would lose: nothing written; paste the block below into %s "
				"instead\n",
				path, editor ? "its terminal.sandbox block" : "it");
			return -1;
		}
		if (!root || !config_object(root)) {
			fprintf(stderr,
				"cordon: %s: cannot parse it to update (or, an editor's settings, "
				"it has no terminal.sandbox block): nothing written; paste the "
				"block below instead\n",
				path);
			json_object_put(root);
			return -1;
		}
	} else {
		/* Its directory, and ~/.config itself on a new account. */
		cleanup_free char *dir = parent_of(path);
		for (char *slash = dir ? strchr(dir + 1, '/') : NULL;;
		     slash = strchr(slash + 1, '/')) {
			if (slash)
				*slash = '\0';
			int made = dir ? mkdir(dir, 0700) : 0;
			if (made < 0 && errno != EEXIST) {
				fprintf(stderr, "cordon: %s: %s\n", dir, strerror(errno));
				return -1;
			}
			if (!slash)
				break;
			*slash = '/';
		}
		root = json_object_new_object();
	}
	json_object *obj = config_object(root);
	for (struct json_object_iterator it = json_object_iter_begin(update),
					 end = json_object_iter_end(update);
	     !json_object_iter_equal(&it, &end); json_object_iter_next(&it))
		json_object_object_add(obj, json_object_iter_peek_name(&it),
				       json_object_get(json_object_iter_peek_value(&it)));
	cleanup_free char *tmp = NULL;
	int r = -1;
	if (asprintf(&tmp, "%s.cordon-learn.XXXXXX", path) > 0) {
		int fd = mkstemp(tmp);
		const char *text = json_object_to_json_string_ext(
			root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				      JSON_C_TO_STRING_NOSLASHESCAPE);
		struct stat st;
		if (fd >= 0) {
			if (stat(path, &st) == 0)
				(void)fchmod(fd, st.st_mode & 07777);
			size_t len = strlen(text);
			r = write(fd, text, len) == (ssize_t)len && write(fd, "\n", 1) == 1 &&
					    fsync(fd) == 0
				    ? 0
				    : -1;
			close(fd);
			if (r == 0 && rename(tmp, path) < 0)
				r = -1;
			if (r < 0) {
				fprintf(stderr, "cordon: %s: %s\n", path, strerror(errno));
				(void)unlink(tmp);
			}
		} else {
			fprintf(stderr, "cordon: %s: %s\n", tmp, strerror(errno));
		}
	}
	json_object_put(root);
	if (r == 0)
		fprintf(stderr, "cordon learn: updated %s\n", path);
	return r;
}

/* Where cordon looks for its config when none is given and none exists. */
static char *default_config(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char *out = NULL;
	if (xdg && xdg[0] == '/')
		return asprintf(&out, "%s/cordon/config.json", xdg) < 0 ? NULL : out;
	if (home && home[0] == '/')
		return asprintf(&out, "%s/.config/cordon/config.json", home) < 0 ? NULL : out;
	return NULL;
}

/* The refused unix sockets and network, said; the name lookups the
 * command says failed, with the network the supervisor refused. */
static void report_network(const struct cordon_policy *p, bool no_network,
			   const struct cordon_strv *sockets, const struct cordon_strv *network,
			   const struct cordon_strv *lookups)
{
	const char *agent = getenv("SSH_AUTH_SOCK");
	if (sockets->n)
		fprintf(stderr,
			"\ncordon learn: the supervisor refused %zu unix socket%s outside the "
			"session:\n",
			sockets->n, sockets->n == 1 ? "" : "s");
	for (size_t i = 0; i < sockets->n; i++) {
		bool is_agent = agent && strcmp(agent, sockets->v[i]) == 0;
		fprintf(stderr, "    network: refused connect to %s%s  → allowed_unix_sockets\n",
			sockets->v[i], is_agent ? " (the ssh agent: $SSH_AUTH_SOCK)" : "");
		if (is_agent)
			fprintf(stderr, "             the agent signs as you: allow it only if the "
					"session may push, log in and sign as you\n");
	}
	if (network->n && p->allow_network && p->domains) {
		fprintf(stderr, "\ncordon learn: the network is reachable by domain only "
				"(allowed_domains):\n");
		for (size_t i = 0; i < network->n; i++) {
			const char *what = network->v[i];
			if (strncmp(what, "host ", 5) == 0)
				fprintf(stderr, "    network: refused %s  → allowed_domains\n",
					what + 5);
			else
				fprintf(stderr,
					"    network: refused %s (only cordon's proxy is "
					"reachable; use the proxy variables)\n",
					what);
		}
		return;
	}
	if (!network->n || p->allow_network)
		return;
	fprintf(stderr, "\ncordon learn: the network is off in this session%s:\n",
		no_network ? " (--no-network)" : "");
	for (size_t i = 0; i < network->n; i++) {
		const char *what = network->v[i];
		if (strncmp(what, "socket ", 7) == 0)
			fprintf(stderr, "    network: refused an internet socket (%s)\n", what + 7);
		else if (strncmp(what, "lookup ", 7) == 0)
			fprintf(stderr, "    network: refused name lookup of %s\n", what + 7);
		else
			fprintf(stderr, "    network: refused %s\n", what);
	}
	for (size_t i = 0; i < lookups->n; i++)
		fprintf(stderr, "    network: refused name lookup of %s\n", lookups->v[i] + 7);
	if (no_network)
		fprintf(stderr, "  to allow it: drop --no-network (it wins over "
				"\"allow_network\": true)\n");
	else
		fprintf(stderr, "  to allow it: \"allow_network\": true\n");
}

/* Why preset NAME would make writable a cache programs outside run code
 * from (suggest_code_cache), or NULL. A static buffer. */
struct preset_code {
	const char *home;
	char why[PATH_MAX + 512];
};

static int preset_code_entry(const struct cordon_toolchain_entry *e, void *data)
{
	struct preset_code *c = data;
	bool beneath;
	const char *why = e->cls == CORDON_CLASS_RW && !c->why[0]
				  ? suggest_code_cache(c->home, e->path, &beneath)
				  : NULL;
	cleanup_free char *shown = why ? suggest_entry(c->home, e->path) : NULL;
	if (why)
		snprintf(c->why, sizeof(c->why), "it makes %s writable, and %s",
			 shown ? shown : e->path, why);
	return 0;
}

static const char *preset_code(const struct cordon_policy *p, const char *name)
{
	static struct preset_code c;
	c.home = p->home;
	c.why[0] = '\0';
	if (cordon_toolchain_each(name, p->home, getenv, preset_code_entry, &c) < 0)
		return "cordon could not list what it grants";
	return c.why[0] ? c.why : NULL;
}

/* What --write never writes, each with why: what a command the user
 * does not trust would ask for to get out (learn runs `npm install`). */
static const struct {
	const char *key, *why;
} never_written[] = {
	{"allowed_unix_sockets",
	 "a socket leads to the server behind it, outside the session: tmux, docker, D-Bus or "
	 "an ssh agent runs commands or signs for whoever connects"},
	{"allow_network",
	 "the network for every later session: what the session reads could leave"},
	{"allowed_domains", "hosts the command chose: what the session reads could go there"},
};

static int report(const struct cordon_args *a, const struct cordon_policy *p, struct denial *d,
		  size_t n, const struct cordon_strv *sockets, const struct cordon_strv *network,
		  const struct cordon_strv *lookups, const struct cordon_strv *guarded)
{
	if (guarded->n) {
		fprintf(stderr,
			"\ncordon learn: %zu access%s refused by protected_paths or hidden_paths, "
			"or in a shared directory (never proposed; `cordon explain PATH` says "
			"why):\n",
			guarded->n, guarded->n == 1 ? "" : "es");
		for (size_t i = 0; i < guarded->n; i++)
			fprintf(stderr, "%s\n", guarded->v[i]);
	}
	report_network(p, a->no_network, sockets, network, lookups);
	bool net = network->n && !p->allow_network && !a->no_network;
	/* By domain: the hosts the proxy refused, for allowed_domains. */
	struct cordon_strv hosts = {0};
	for (size_t i = 0; p->allow_network && p->domains && i < network->n; i++)
		if (strncmp(network->v[i], "host ", 5) == 0 &&
		    !cordon_strv_contains(&hosts, network->v[i] + 5))
			(void)cordon_strv_push(&hosts, network->v[i] + 5);
	if (n == 0 && !sockets->n && !guarded->n && !hosts.n &&
	    !(network->n && !p->allow_network)) {
		cordon_strv_free(&hosts);
		fprintf(stderr, "\ncordon learn: the sandbox denied nothing that was seen "
				"(statically linked programs are not observed)\n");
		return 0;
	}
	if (n)
		fprintf(stderr, "\ncordon learn: the sandbox denied %zu access%s:\n", n,
			n == 1 ? "" : "es");
	/* Grouped by the directory of each path. */
	char *last = NULL;
	for (size_t i = 0; i < n; i++) {
		char *copy = strdup(d[i].path);
		char *dir = copy ? dirname(copy) : NULL;
		if (dir && (!last || strcmp(last, dir) != 0)) {
			fprintf(stderr, "\n  %s/\n", strcmp(dir, "/") ? dir : "");
			free(last);
			last = strdup(dir);
		}
		const char *base = strrchr(d[i].path, '/');
		fprintf(stderr, "    %-8s %s", kind_word(d[i].want), base ? base + 1 : d[i].path);
		if (d[i].missing)
			fprintf(stderr, "  (does not exist yet)");
		fprintf(stderr, "  → %s\n", cordon_config_key_for(d[i].want));
		free(copy);
	}
	free(last);

	/* The rules: tool roots, the right class, never what must not be. */
	cleanup_free char *config = NULL;
	struct cordon_error err = {0};
	(void)cordon_config_discover(a->config, getenv, &config, &err);
	struct props ps = {0};
	for (size_t i = 0; i < n; i++) {
		if (d[i].want == CORDON_ACCESS_WRITE)
			propose_write(p, config, d[i].path, d[i].file, &ps);
		else
			propose_read(p, config, d[i].path, d[i].want, &ps);
	}
	props_collapse(p, &ps);
	/* A read rule on the user's own files (~/Documents) is only shown:
	 * the command may have asked for it to be read by every later
	 * session. */
	struct cordon_strv personal = {0}, said = {0}, said_why = {0};
	for (size_t i = 0; i < ps.n; i++)
		if ((ps.v[i].access == ACC_RO || ps.v[i].access == ACC_EXEC) &&
		    suggest_personal(p->home, ps.v[i].path)) {
			char *e = suggest_entry(p->home, ps.v[i].path);
			if (e)
				(void)cordon_strv_push_take(&personal, e);
			ps.v[i].access = 0;
			ps.v[i].missing = false;
		}
	/* A root a `toolchains` preset covers becomes the preset's name, one
	 * line instead of a list of directories (a preset grants its tree
	 * executable and its caches read-write; a write under the tree was
	 * never proposed, see propose_write); but a preset that would make
	 * writable a cache programs outside run code from (node: ~/.npm, and
	 * npx's packages in it) is only shown, and the rules stay. */
	struct cordon_strv presets = {0};
	for (size_t i = 0; i < ps.n; i++) {
		const char *tc = ps.v[i].access
					 ? cordon_toolchain_for_path(ps.v[i].path, p->home, getenv)
					 : NULL;
		if (!tc)
			continue;
		const char *code = preset_code(p, tc);
		if (code) {
			if (!cordon_strv_contains(&said, tc) && cordon_strv_push(&said, tc) >= 0 &&
			    cordon_strv_push(&said_why, code) < 0) {
				free(said.v[--said.n]); /* (out of memory: only less said) */
				said.v[said.n] = NULL;
			}
			continue;
		}
		bool seen = false;
		for (size_t j = 0; j < presets.n && !seen; j++)
			seen = strcmp(presets.v[j], tc) == 0;
		if (!seen)
			(void)cordon_strv_push(&presets, tc);
		fprintf(stderr, "\n%s: the \"%s\" toolchain preset covers it", ps.v[i].path, tc);
		ps.v[i].access = 0; /* in no key below */
		ps.v[i].missing = false;
	}
	if (presets.n)
		fprintf(stderr, "\n");
	if (ps.never.n) {
		fprintf(stderr, "\n");
		for (size_t i = 0; i < ps.never.n; i++)
			fprintf(stderr, "%s\n", ps.never.v[i]);
	}
	bool created = false;
	for (size_t i = 0; i < ps.n; i++)
		if (ps.v[i].missing) {
			if (!created)
				fprintf(stderr,
					"\ncreate first (a rule needs an existing path):\n");
			created = true;
			fprintf(stderr, "    %s %s\n", ps.v[i].file ? "touch" : "mkdir -p",
				ps.v[i].path);
		}
	if (!ps.n && !sockets->n && !net && !hosts.n) {
		props_free(&ps);
		cordon_strv_free(&personal);
		cordon_strv_free(&said);
		cordon_strv_free(&said_why);
		cordon_strv_free(&presets);
		cordon_strv_free(&hosts);
		return 0;
	}

	/* One block, each key once, merged with the config's own entries; the
	 * keys --write never writes apart (REVIEW). */
	bool commented = false;
	json_object *root = config ? config_json(config, &commented) : NULL;
	json_object *obj = config_object(root);
	json_object *update = json_object_new_object();
	json_object *review = json_object_new_object();
	static const unsigned classes[] = {ACC_RO, ACC_RW, ACC_EXEC};
	static const unsigned keys[] = {CORDON_ACCESS_READ, CORDON_ACCESS_WRITE,
					CORDON_ACCESS_EXEC};
	for (size_t k = 0; k < ARRAY_SIZE(classes); k++) {
		struct cordon_strv add = {0};
		for (size_t i = 0; i < ps.n; i++) {
			char *e = ps.v[i].access == classes[k]
					  ? suggest_entry(p->home, ps.v[i].path)
					  : NULL;
			if (e)
				(void)cordon_strv_push_take(&add, e);
		}
		if (add.n)
			json_object_object_add(update, cordon_config_key_for(keys[k]),
					       merged(obj, cordon_config_key_for(keys[k]), &add));
		cordon_strv_free(&add);
	}
	if (presets.n)
		json_object_object_add(update, "toolchains", merged(obj, "toolchains", &presets));
	cordon_strv_free(&presets);
	if (sockets->n) {
		struct cordon_strv add = {0};
		const char *agent = getenv("SSH_AUTH_SOCK");
		for (size_t i = 0; i < sockets->n; i++)
			(void)cordon_strv_push(&add, agent && strcmp(agent, sockets->v[i]) == 0
							     ? "$SSH_AUTH_SOCK"
							     : sockets->v[i]);
		json_object_object_add(review, "allowed_unix_sockets",
				       merged(obj, "allowed_unix_sockets", &add));
		cordon_strv_free(&add);
	}
	if (net)
		json_object_object_add(review, "allow_network", json_object_new_boolean(true));
	if (hosts.n)
		json_object_object_add(review, "allowed_domains",
				       merged(obj, "allowed_domains", &hosts));
	cordon_strv_free(&hosts);
	if (json_object_object_length(review) || personal.n || said.n) {
		fprintf(stderr,
			"\ncordon learn: never in the block below, and never written by "
			"--write (add one by hand only if you trust all the command runs):\n");
		for (size_t i = 0; i < ARRAY_SIZE(never_written); i++) {
			json_object *v;
			if (json_object_object_get_ex(review, never_written[i].key, &v))
				fprintf(stderr, "  \"%s\": %s  (%s)\n", never_written[i].key,
					json_object_to_json_string_ext(
						v, JSON_C_TO_STRING_SPACED |
							   JSON_C_TO_STRING_NOSLASHESCAPE),
					never_written[i].why);
		}
		/* Entries to add to a key (which may be in the block too). */
		for (size_t i = 0; i < personal.n; i++)
			fprintf(stderr,
				"  \"additional_read_only_paths\": add \"%s\"  (your own files: "
				"every later session could read them)\n",
				personal.v[i]);
		for (size_t i = 0; i < said.n; i++)
			fprintf(stderr,
				"  \"toolchains\": add \"%s\"  (%s; the rules in the block are "
				"narrower)\n",
				said.v[i], said_why.v[i]);
	}
	cordon_strv_free(&personal);
	cordon_strv_free(&said);
	cordon_strv_free(&said_why);
	json_object_put(review);
	if (!config && a->learn_write)
		config = default_config();
	if (!json_object_object_length(update)) {
		if (a->learn_write)
			fprintf(stderr, "cordon learn: --write: nothing written to %s\n",
				config ? config : "the config");
		json_object_put(update);
		json_object_put(root);
		props_free(&ps);
		return 0;
	}
	/* (Asked for and not done: learn's status says so, 46b F7.) */
	int written = 0;
	if (a->learn_write) {
		if (!config)
			fprintf(stderr, "cordon: --write: no config file to update ($HOME is not "
					"set); paste the block below\n");
		written = config ? write_config(config, update) : -1;
	}
	fprintf(stderr,
		"\n(each key below lists the current entries of %s too: replace a key that is "
		"there, never add it twice)\n",
		config ? config : "your config");
	fprintf(stderr, "to allow them, add to your config:\n");
	bool first = true;
	for (struct json_object_iterator it = json_object_iter_begin(update),
					 end = json_object_iter_end(update);
	     !json_object_iter_equal(&it, &end); json_object_iter_next(&it)) {
		fprintf(stderr, "%s  \"%s\": %s", first ? "" : ",\n",
			json_object_iter_peek_name(&it),
			json_object_to_json_string_ext(json_object_iter_peek_value(&it),
						       JSON_C_TO_STRING_SPACED |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
		first = false;
	}
	fprintf(stderr, "\n");
	json_object_put(update);
	json_object_put(root);
	props_free(&ps);
	return written;
}

int learn_allow_command(struct cordon_policy *p, const char *canon, int fd)
{
	char line[PATH_MAX + 8];
	int n = snprintf(line, sizeof(line), "x\t%s\n", canon);
	if (n > 0 && (size_t)n < sizeof(line) && !strchr(canon, '\n'))
		(void)!write(fd, line, (size_t)n);
	bool tool;
	cleanup_free char *rule = suggest_root(p->home, canon, &tool);
	cleanup_free char *config = NULL;
	struct cordon_error err = {0};
	(void)cordon_config_discover(NULL, getenv, &config, &err);
	if (!rule || suggest_never(p, config, rule) ||
	    cordon_policy_add_rule(p, rule, CORDON_ACCESS_READ | CORDON_ACCESS_EXEC,
				   "cordon learn: proposed") < 0)
		return -1;
	fprintf(stderr,
		"cordon learn: %s is not executable in this session; learning as if %s were in "
		"additional_executable_paths (proposed below)\n",
		canon, rule);
	return 0;
}

/* A fresh private directory (mode 0700, in $XDG_RUNTIME_DIR when it is the
 * user's own, else /tmp) holding the empty record; its path in FILE, the
 * directory's in DIR. Returns a read descriptor of it or -errno. */
static int learn_record_open(char *dir, size_t dsize, char *file, size_t fsize)
{
	int n = snprintf(dir, dsize, "%s/cordon-learn-XXXXXX", cordon_private_base());
	if (n < 0 || (size_t)n + sizeof("/record") > fsize || (size_t)n >= dsize)
		return -ENAMETOOLONG;
	if (!mkdtemp(dir))
		return -errno;
	memcpy(file, dir, (size_t)n);
	memcpy(file + n, "/record", sizeof("/record"));
	int fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		int e = errno;
		(void)rmdir(dir);
		return -e;
	}
	return fd;
}

static void learn_record_remove(const char *dir, const char *file)
{
	(void)unlink(file);
	(void)rmdir(dir);
}

int cmd_learn(const struct cordon_args *a)
{
	struct cordon_error err = {0};
	struct cordon_policy p = {0};
	if (launcher_policy(a, NULL, false, &p, &err, NULL) < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	cleanup_free char *shim = NULL;
	cleanup_free char *lib = NULL;
	if (launcher_find_shim(&shim, &err) < 0) {
		launcher_error(&err);
		cordon_policy_free(&p);
		return CORDON_EXIT_FAILURE;
	}
	char *slash = strrchr(shim, '/');
	if (asprintf(&lib, "%.*s/libcordon-learn.so", (int)(slash ? slash - shim : 0), shim) < 0 ||
	    access(lib, R_OK) < 0) {
		fprintf(stderr, "cordon: %s: the learn library is missing\n", lib ? lib : "?");
		cordon_policy_free(&p);
		return CORDON_EXIT_FAILURE;
	}
	/* The record: a file in a fresh private directory, read back afterwards.
	 * The command inherits a write descriptor; processes that lost it open
	 * the file again (the session may write it: a single-file rule). */
	char dir[PATH_MAX], file[PATH_MAX];
	int fd = learn_record_open(dir, sizeof(dir), file, sizeof(file));
	int wfd = fd < 0 ? -1 : open(file, O_WRONLY | O_APPEND | O_NOFOLLOW);
	if (wfd >= 0 && wfd < 3) {
		int hi = fcntl(wfd, F_DUPFD, 3);
		close(wfd);
		wfd = hi;
	}
	/* The supervisor's own record: a file with no name, which the command
	 * never inherits (close-on-exec, and the session keeper closes every
	 * fd it does not pass), so that what it says it was refused is never
	 * taken for what the supervisor refused. */
	int sup = wfd < 0 ? -1 : memfd_create("cordon-learn", MFD_CLOEXEC);
	if (fd < 0 || wfd < 0 || sup < 0) {
		fprintf(stderr, "cordon: the learn record: %s\n", strerror(fd < 0 ? -fd : errno));
		if (wfd >= 0)
			close(wfd);
		if (fd >= 0) {
			close(fd);
			learn_record_remove(dir, file);
		}
		cordon_policy_free(&p);
		return CORDON_EXIT_FAILURE;
	}
	/* Like system(): the command owns the terminal's signals meanwhile. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "cordon: fork: %s\n", strerror(errno));
		close(wfd);
		close(sup);
		close(fd);
		learn_record_remove(dir, file);
		cordon_policy_free(&p);
		return CORDON_EXIT_FAILURE;
	}
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		struct run_learn learn = {.lib = lib, .fd = wfd, .file = file, .sup_fd = sup};
		_exit(cmd_run_learn(a, &learn));
	}
	close(wfd);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	/* The report may go to a pipe closed early (`learn … 2>&1 | head`):
	 * a write then fails instead of killing learn before the record is
	 * removed. The command has ended; nothing inherits this. */
	(void)signal(SIGPIPE, SIG_IGN);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	cleanup_free char *seen = p.sandbox ? read_record(sup) : NULL;
	if (p.sandbox &&
	    !(seen && (strncmp(seen, CORDON_LEARN_STARTED, strlen(CORDON_LEARN_STARTED)) == 0 ||
		       strstr(seen, "\n" CORDON_LEARN_STARTED)))) {
		fprintf(stderr, "\ncordon learn: the session did not start (the reason is above): "
				"nothing was learned\n");
	} else if (p.sandbox) {
		struct denial *d;
		struct cordon_strv sockets = {0}, guarded = {0}, network = {0}, lookups = {0};
		struct cordon_guard_plan plan = {0};
		(void)cordon_guard_plan(&p, false, &plan); /* none on failure: only less said */
		size_t n = collect(fd, sup, &p, &plan, &d, &sockets, &network, &lookups, &guarded);
		if (report(a, &p, d, n, &sockets, &network, &lookups, &guarded) < 0)
			rc = CORDON_EXIT_FAILURE;
		cordon_guard_plan_free(&plan);
		cordon_strv_free(&sockets);
		cordon_strv_free(&network);
		cordon_strv_free(&lookups);
		cordon_strv_free(&guarded);
		for (size_t i = 0; i < n; i++) {
			free(d[i].path);
			free(d[i].target);
		}
		free(d);
	} else {
		fprintf(stderr, "\ncordon learn: the sandbox is off for this config and kind\n");
	}
	close(fd);
	close(sup);
	learn_record_remove(dir, file);
	cordon_policy_free(&p);
	return rc;
}
