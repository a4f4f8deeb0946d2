/* What a git directory would make git run outside (see cordon/sweep.h):
 * the config keys that are not known to be harmless, and the hooks. It
 * fails closed: a config it cannot read to the end in git's own syntax
 * counts as a risk, and so does a key it does not know, since git keeps
 * adding keys that name a program (alias.X = !cmd, a protocol's helper,
 * a mergetool's path). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cordon/gitconfig.h"
#include "cordon/guard.h"
#include "cordon/sweep.h"
#include "util.h"

/* "section.key" git reads without running anything; "section.*.key" for
 * any subsection, "section.*" for any key of the section without one.
 * Everything else a repository's config sets is a risk. */
static const char *const harmless[] = {"core.repositoryformatversion",
				       "core.filemode",
				       "core.bare",
				       "core.logallrefupdates",
				       "core.ignorecase",
				       "core.precomposeunicode",
				       "core.symlinks",
				       "core.autocrlf",
				       "core.eol",
				       "core.safecrlf",
				       "core.quotepath",
				       "core.sharedrepository",
				       "core.abbrev",
				       "core.compression",
				       "core.checkstat",
				       "core.trustctime",
				       "core.untrackedcache",
				       "core.splitindex",
				       "core.commitgraph",
				       "core.multipackindex",
				       "core.preloadindex",
				       "core.commentchar",
				       "core.whitespace",
				       "extensions.objectformat",
				       "extensions.worktreeconfig",
				       "extensions.refstorage",
				       "extensions.partialclone",
				       "remote.*.url",
				       "remote.*.pushurl",
				       "remote.*.fetch",
				       "remote.*.push",
				       "remote.*.tagopt",
				       "remote.*.prune",
				       "remote.*.mirror",
				       "remote.*.promisor",
				       "remote.*.partialclonefilter",
				       "remote.*.skipdefaultupdate",
				       "remote.*.skipfetchall",
				       "branch.*.remote",
				       "branch.*.merge",
				       "branch.*.rebase",
				       "branch.*.pushremote",
				       "branch.*.description",
				       "submodule.*.url",
				       "submodule.*.active",
				       "submodule.*.branch",
				       "submodule.*.ignore",
				       "submodule.*.fetchrecursesubmodules",
				       "user.name",
				       "user.email",
				       "init.defaultbranch",
				       "pull.rebase",
				       "pull.ff",
				       "push.default",
				       "push.autosetupremote",
				       "fetch.prune",
				       "fetch.prunetags",
				       "fetch.recursesubmodules",
				       "rebase.autostash",
				       "rebase.autosquash",
				       "merge.ff",
				       "merge.conflictstyle",
				       "color.*",
				       "color.*.*",
				       "advice.*",
				       "i18n.commitencoding",
				       "i18n.logoutputencoding",
				       "gc.auto",
				       "gc.autodetach",
				       "maintenance.auto",
				       "maintenance.strategy",
				       "lfs.repositoryformatversion",
				       "gui.wmstate",
				       "gui.geometry",
				       "index.version",
				       "core.sparsecheckout",
				       "core.sparsecheckoutcone",
				       "submodule.active",
				       "remote.*.gh-resolved",
				       "lfs.repositoryformatversion",
				       "lfs.*.locksverify",
				       "lfs.*.access",
				       "index.threads",
				       "feature.manyfiles",
				       "status.showuntrackedfiles",
				       "diff.renames",
				       "diff.algorithm",
				       "log.date",
				       "log.decorate",
				       "rerere.enabled",
				       "rerere.autoupdate",
				       "core.fsmonitorhookversion",
				       NULL};

static bool is_harmless(const char *section, bool sub, const char *key)
{
	for (size_t i = 0; harmless[i]; i++) {
		const char *h = harmless[i], *dot = strchr(h, '.');
		size_t sn = (size_t)(dot - h);
		if (strlen(section) != sn || strncasecmp(h, section, sn) != 0)
			continue;
		const char *rest = dot + 1;
		bool h_sub = strncmp(rest, "*.", 2) == 0;
		if (h_sub != sub)
			continue;
		if (h_sub)
			rest += 2;
		if (strcmp(rest, "*") == 0 || strcasecmp(rest, key) == 0)
			return true;
	}
	return false;
}

void cordon_git_risk_add(char *out, size_t size, const char *what)
{
	char clean[160];
	cordon_printable(what, SIZE_MAX, clean, sizeof(clean));
	size_t cn = strlen(clean);
	for (const char *p = out; (p = strstr(p, clean)); p += cn)
		if ((p == out || p[-1] == ' ') && (p[cn] == ',' || p[cn] == '\0'))
			return;
	size_t n = strlen(out);
	snprintf(out + n, size - n, "%s%s", n ? ", " : "", clean);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static const char *skip_blanks(const char *s)
{
	while (blank(*s))
		s++;
	return s;
}

/* core.worktree's VALUE (as git reads it) in the config CONFIG names a
 * worktree whose .git file names this very git dir, as git submodule
 * writes it (.git/modules/NAME and NAME/.git): git outside there works
 * where it would work anyway; its path into WT. Elsewhere (the project's
 * top, a .git/hooks) its checkout would write the repository's files. */
static bool worktree_of_its_own(const char *config, const char *v, char *wt, size_t wt_size)
{
	size_t n = strlen(v);
	char dir[PATH_MAX], joined[PATH_MAX * 2 + 8];
	const char *slash = strrchr(config, '/');
	if (n == 0 || n >= PATH_MAX || !slash || (size_t)(slash - config) >= sizeof(dir) ||
	    strchr(v, '\n'))
		return false;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - config), config);
	if (v[0] == '/')
		snprintf(joined, sizeof(joined), "%s/.git", v);
	else
		snprintf(joined, sizeof(joined), "%s/%s/.git", dir, v);
	char *base = strndup(joined, strlen(joined) - 5);
	cleanup_free char *named = base ? cordon_git_link_file(joined, "gitdir: ", base) : NULL;
	cleanup_free char *self = realpath(dir, NULL);
	bool own = named && self && strcmp(named, self) == 0 && base &&
		   (size_t)snprintf(wt, wt_size, "%s", base) < wt_size;
	free(base);
	return own;
}

static bool entries_hold(const struct cordon_git_entries *e, const char *entry)
{
	return e && cordon_strv_contains(&e->v, entry);
}

/* ENTRY (taken) into E, once. */
static void entries_add(struct cordon_git_entries *e, char *entry)
{
	if (entry && entries_hold(e, entry)) {
		free(entry);
		return;
	}
	if (cordon_strv_push_take(&e->v, entry) < 0)
		e->whole = false; /* out of memory: a partial list is no list */
}

void cordon_git_entries_free(struct cordon_git_entries *e)
{
	cordon_strv_free(&e->v);
	e->whole = false;
}

/* core.fsmonitor's value V (as git reads it) switches it off, as git
 * reads a boolean (git_parse_maybe_bool: false, no, off, an empty one, a
 * number that is 0): core.fsmonitor = false is what a user sets to keep
 * git from running one (round 30b N5: a clone with it was moved aside).
 * A value cordon cannot read is not. */
static bool switched_off(const char *v)
{
	/* (git's blanks are space, tab and CR: a vertical tab or form feed
	 * it keeps in the value, which names a program then, looked for on
	 * PATH: round 31 F1.) */
	if (strchr(v, '\v') || strchr(v, '\f') || strlen(v) >= 64)
		return false;
	if (!v[0] || strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 ||
	    strcasecmp(v, "off") == 0)
		return true;
	char *end;
	errno = 0;
	long n = strtol(v, &end, 10);
	return end != v && !*end && errno == 0 && n == 0;
}

/* A character of a URL's scheme (git's is_urlschemechar): FIRST, the
 * first one. */
static bool scheme_char(bool first, char c)
{
	return isalpha((unsigned char)c) ||
	       (!first && (isdigit((unsigned char)c) || c == '+' || c == '.' || c == '-'));
}

/* What git does with the remote URL V (transport_get): a transport of
 * its own to another host, a program of its own it does not ship
 * ("HELPER::…", an unknown "SCHEME://": git-remote-HELPER, looked for on
 * PATH), or a repository on this machine (a path, "file://"), whose path
 * into *PATH. */
enum url_kind { URL_REMOTE, URL_HELPER, URL_LOCAL };
static enum url_kind url_kind(const char *v, const char **path)
{
	static const char *const own[] = {"http", "https",   "ftp",     "ftps", "git",
					  "ssh",  "git+ssh", "ssh+git", NULL};
	size_t n = 0;
	while (scheme_char(n == 0, v[n]))
		n++;
	if (n && strncmp(v + n, "::", 2) == 0)
		return URL_HELPER;
	if (n && strncmp(v + n, "://", 3) == 0) {
		if (n == 4 && strncasecmp(v, "file", 4) == 0) {
			/* (git skips a host: file://HOST/PATH is /PATH) */
			*path = strchr(v + 7, '/') ? strchr(v + 7, '/') : v + 7;
			return URL_LOCAL;
		}
		for (size_t i = 0; own[i]; i++)
			if (strlen(own[i]) == n && strncasecmp(v, own[i], n) == 0)
				return URL_REMOTE;
		return URL_HELPER;
	}
	/* (url_is_local_not_ssh) "host:path" is ssh; a path has no colon,
	 * or a slash before it. */
	const char *colon = strchr(v, ':'), *slash = strchr(v, '/');
	if (!v[0] || (colon && (!slash || colon < slash)))
		return URL_REMOTE;
	*path = v;
	return URL_LOCAL;
}

/* The key names a remote's URL: remote.*.url and pushurl, and a branch's
 * remote (branch.*.remote, pushremote), which git takes for a URL when it
 * is not a remote's name (it has a slash, or is ".."). */
static bool url_key(const char *section, bool sub, const char *key, bool *branch)
{
	*branch = sub && strcasecmp(section, "branch") == 0 &&
		  (strcasecmp(key, "remote") == 0 || strcasecmp(key, "pushremote") == 0);
	return *branch || (sub && strcasecmp(section, "remote") == 0 &&
			   (strcasecmp(key, "url") == 0 || strcasecmp(key, "pushurl") == 0));
}

/* What a scan looks at besides the keys (see cordon_git_config_judge). */
struct scan_hooks {
	bool (*local)(const char *path, void *arg);
	void *arg;
	char *format; /* extensions.objectformat's value, the last one */
	size_t format_size;
};

static bool scan(const char *config, const struct cordon_git_entries *known,
		 struct cordon_git_entries *seen, const struct scan_hooks *hooks, char *out,
		 size_t size);

void cordon_git_config_risks(const char *config, char *out, size_t size)
{
	(void)scan(config, NULL, NULL, NULL, out, size);
}

bool cordon_git_config_scan(const char *config, const struct cordon_git_entries *known,
			    struct cordon_git_entries *seen, char *out, size_t size)
{
	return scan(config, known, seen, NULL, out, size);
}

bool cordon_git_config_judge(const char *config, const struct cordon_git_entries *known,
			     bool (*local)(const char *path, void *arg), void *arg, char *out,
			     size_t size)
{
	struct scan_hooks h = {.local = local, .arg = arg};
	return scan(config, known, NULL, &h, out, size);
}

size_t cordon_git_hash_size(const char *config)
{
	char format[16] = "", ignored[64] = "";
	struct scan_hooks h = {.format = format, .format_size = sizeof(format)};
	(void)scan(config, NULL, NULL, &h, ignored, sizeof(ignored));
	return strcasecmp(format, "sha256") == 0 ? 32 : 20;
}

/* A scan's state, for each entry (scan_entry). */
struct scan_state {
	const char *config;
	const struct cordon_git_entries *known;
	struct cordon_git_entries *seen;
	const struct scan_hooks *hooks;
	char *out;
	size_t size;
	int entries;
};

/* At most this many entries in a config (more: one cordon cannot read):
 * each risky one is compared with those the config held. */
#define SCAN_ENTRIES 8192

static int scan_entry(const struct cordon_gitcfg_entry *e, void *arg)
{
	struct scan_state *x = arg;
	const struct scan_hooks *hooks = x->hooks;
	const char *section = e->section, *key = e->key, *v = e->value;
	bool sub = e->sub != NULL;
	/* (A key before any section, or a value a final backslash carries
	 * on, git reads, but never writes: a config that holds one counts
	 * whole, as one cordon cannot read.) */
	if (++x->entries > SCAN_ENTRIES || !section[0] || memmem(e->text, e->text_len, "\\\n", 2) ||
	    memmem(e->text, e->text_len, "\\\r\n", 3))
		return -EINVAL;
	bool core = !sub && strcmp(section, "core") == 0;
	/* (A worktree of its own, but where a session may have planted what
	 * git there goes into, unjudged, a submodule whose config runs: not
	 * harmless, round 50g F1. Its path goes to LOCAL as a remote's
	 * does.) */
	char wt[PATH_MAX];
	bool risky = !is_harmless(section, sub, key) &&
		     !(core && strcmp(key, "worktree") == 0 && v &&
		       worktree_of_its_own(x->config, v, wt, sizeof(wt)) &&
		       !(hooks && hooks->local && hooks->local(wt, hooks->arg))) &&
		     !(core && strcmp(key, "fsmonitor") == 0 && v && switched_off(v));
	/* A remote's URL: a program git would look for on PATH (one the user
	 * set up stays theirs, as any setting), or a repository here whose
	 * hooks git push runs (judged by H->local, whatever the config held
	 * before). */
	const char *also = "";
	bool branch;
	if (!risky && v && url_key(section, sub, key, &branch)) {
		const char *path = NULL;
		if (strlen(v) >= PATH_MAX) {
			risky = true;
			also = " (a value cordon cannot read)";
		} else if (url_kind(v, &path) == URL_HELPER) {
			/* (A branch's remote too: one no remote is configured
			 * for is taken for a URL.) */
			risky = true;
			also = " (a remote helper)";
		} else if (branch && (strcmp(v, ".") == 0 ||
				      (strchr(v, '/') == NULL && strcmp(v, "..") != 0))) {
			/* the name of a remote, or "." (this repository) */
		} else if (path && hooks && hooks->local && hooks->local(path, hooks->arg)) {
			char what[PATH_MAX + 300];
			snprintf(what, sizeof(what),
				 "%s.*.%s %s (a repository a session could write)", section, key,
				 v);
			cordon_git_risk_add(x->out, x->size, what);
		}
	}
	if (!risky && hooks && hooks->format && !sub && v && strcmp(section, "extensions") == 0 &&
	    strcmp(key, "objectformat") == 0 &&
	    (size_t)snprintf(hooks->format, hooks->format_size, "%s", v) >= hooks->format_size)
		hooks->format[0] = '\0';
	if (!risky)
		return 0;
	/* Known by its section as written ("[remote \"o\"]") and its
	 * lines, whole (no hash a plant could be made to match). */
	char *whole_entry = NULL;
	if ((x->seen || x->known) && asprintf(&whole_entry, "%.*s\n%.*s", (int)e->header_len,
					      e->header, (int)e->text_len, e->text) < 0)
		whole_entry = NULL;
	bool as_it_was = whole_entry && entries_hold(x->known, whole_entry);
	if (x->seen)
		entries_add(x->seen, whole_entry);
	else
		free(whole_entry);
	if (as_it_was)
		return 0;
	char what[340];
	snprintf(what, sizeof(what), sub ? "%s.*.%s%s" : "%s.%s%s", section, key, also);
	cordon_git_risk_add(x->out, x->size, what);
	return 0;
}

static bool scan(const char *config, const struct cordon_git_entries *known,
		 struct cordon_git_entries *seen, const struct scan_hooks *hooks, char *out,
		 size_t size)
{
	struct stat st;
	if (seen) {
		memset(seen, 0, sizeof(*seen));
		seen->whole = true;
	}
	/* Missing (or a link to nothing): git reads no config there. Not a
	 * regular file (a device is not even opened), or out of reach: git
	 * may read it all the same, so it counts. */
	if (stat(config, &st) < 0 && (errno == ENOENT || errno == ENOTDIR))
		return true;
	size_t len = 0;
	char *text = S_ISREG(st.st_mode) && st.st_size <= CORDON_GIT_CONFIG_MAX
			     ? cordon_read_regular(config, CORDON_GIT_CONFIG_MAX, &len)
			     : NULL;
	if (!text) {
		cordon_git_risk_add(out, size, "a config cordon cannot read");
		if (seen)
			seen->whole = false;
		return false;
	}
	struct scan_state x = {config, known, seen, hooks, out, size, 0};
	/* Read as git reads it, to its end; a NUL git would stop at counts
	 * as one it cannot. */
	bool whole =
		!memchr(text, '\0', len) && cordon_gitcfg_parse(text, len, scan_entry, &x) == 0;
	free(text);
	if (!whole)
		cordon_git_risk_add(out, size, "a config cordon cannot read");
	if (seen)
		seen->whole = seen->whole && whole;
	return whole;
}

/* The hooks in DIR (hook files git would run: not .sample, not hidden),
 * into OUT; those for which ONLY(PATH, ARG) is false are left out (ONLY
 * may be NULL). More than 1024 entries: "more hooks than cordon reads". */
void cordon_git_hook_risks(const char *dir, bool (*only)(const char *path, const void *arg),
			   const void *arg, char *out, size_t size)
{
	DIR *d = opendir(dir);
	if (!d && errno != ENOENT && errno != ENOTDIR) {
		cordon_git_risk_add(out, size, "hooks cordon cannot read");
		return;
	}
	char names[512] = "";
	int seen = 0;
	for (struct dirent *de; d && (de = readdir(d));) {
		if (++seen > 1024 + 2) {
			cordon_git_risk_add(out, size, "more hooks than cordon reads");
			break;
		}
		size_t n = strlen(de->d_name);
		if (de->d_name[0] == '.' || (n > 7 && strcmp(de->d_name + n - 7, ".sample") == 0))
			continue;
		char path[PATH_MAX + 300];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!only || only(path, arg))
			cordon_git_risk_add(names, sizeof(names), de->d_name);
	}
	if (d)
		closedir(d);
	if (names[0]) {
		char what[600];
		snprintf(what, sizeof(what), "hooks (%s)", names);
		cordon_git_risk_add(out, size, what);
	}
}

/* The first word of the line S, lowercased, into W (SIZE bytes). */
static void first_word(const char *s, char *w, size_t size)
{
	s = skip_blanks(s);
	size_t n = 0;
	for (; s[n] && !blank(s[n]) && s[n] != '\n'; n++)
		if (n + 1 < size)
			w[n] = (char)tolower((unsigned char)s[n]);
	w[n + 1 < size ? n : size - 1] = '\0';
}

/* The merge strategies git has built in: any other name is run as the
 * program git-merge-NAME. */
static bool builtin_strategy(const char *s)
{
	static const char *const known[] = {"ort",  "recursive", "resolve", "octopus",
					    "ours", "subtree",   NULL};
	for (size_t i = 0; known[i]; i++)
		if (strcmp(s, known[i]) == 0)
			return true;
	return false;
}

/* The N bytes at S, less the blanks (and line ends) at their end, are a
 * strategy git has built in. */
static bool builtin_strategy_n(const char *s, size_t n)
{
	while (n && (blank(s[n - 1]) || s[n - 1] == '\n'))
		n--;
	char name[16];
	if (n == 0 || n >= sizeof(name))
		return false;
	memcpy(name, s, n);
	name[n] = '\0';
	return builtin_strategy(name);
}

/* The N bytes at S, less the blanks at their end, name a strategy git
 * merges with in its own process (sequencer.c: none, "ort", "recursive"):
 * any other gets the strategy options as its arguments (round 50b F1:
 * the built-in resolve hands them to git read-tree, whose --index-output
 * wrote the index over the user's ~/.vimrc). */
static bool in_process_strategy_n(const char *s, size_t n)
{
	while (n && (blank(s[n - 1]) || s[n - 1] == '\n'))
		n--;
	return (n == 3 && memcmp(s, "ort", 3) == 0) || (n == 9 && memcmp(s, "recursive", 9) == 0);
}

/* Whether the file PATH holds anything but blanks and line ends; one
 * that cannot be read holds something. */
static bool holds_words(const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0 && (errno == ENOENT || errno == ENOTDIR))
		return false;
	FILE *f =
		S_ISREG(st.st_mode) && st.st_size <= (1 << 20) ? cordon_fopen_regular(path) : NULL;
	if (!f)
		return true;
	int c;
	bool words = false;
	while (!words && (c = getc(f)) != EOF)
		words = !blank((char)c) && c != '\n';
	bool bad = ferror(f);
	(void)fclose(f);
	return words || bad;
}

/* A line of rebase-merge/strategy that runs nothing: git takes all of the
 * file, less the blanks at its end, for the strategy's name (a name with
 * a blank or a slash in it is run as a program). FIRST: its first line;
 * any other must be blank. */
static bool strategy_line(const char *line, bool first)
{
	if (!first)
		return *skip_blanks(line) == '\n' || *skip_blanks(line) == '\0';
	return builtin_strategy_n(line, strlen(line));
}

/* Whether each strategy a line of sequencer/opts names is one OK takes:
 * any "strategy" followed by "=" (a header before it on the line, any
 * case) must give exactly such a name; quotes or anything else count. */
static bool opts_strategies(const char *line, bool (*ok)(const char *s, size_t n))
{
	for (const char *at = line; (at = strcasestr(at, "strategy")); at++) {
		const char *s = skip_blanks(at + strlen("strategy"));
		if (*s != '=')
			continue; /* strategy-option, a value's text */
		s = skip_blanks(s + 1);
		if (!ok(s, strlen(s)))
			return false;
	}
	return true;
}

void cordon_git_todo_risks(const char *file, const char *name, enum cordon_git_todo kind, char *out,
			   size_t size)
{
	struct stat st;
	if (lstat(file, &st) < 0 && (errno == ENOENT || errno == ENOTDIR))
		return;
	char what[300];
	FILE *f = S_ISREG(st.st_mode) ? cordon_fopen_regular(file) : NULL;
	if (!f) {
		snprintf(what, sizeof(what), "a %s cordon cannot read", name);
		cordon_git_risk_add(out, size, what);
		return;
	}
	char *line = NULL;
	size_t cap = 0;
	/* Bigger than any git writes: not read (a sparse file of many GiB
	 * would hold the sweep for hours). */
	bool read_all = false, ran = false, bad = st.st_size > (8 << 20);
	/* (A strategy that gets the options, and options for it.) */
	bool apart = false, options = false;
	for (int lines = 0; !bad && lines < 131072; lines++) {
		ssize_t len = getline(&line, &cap, f);
		if (len < 0) {
			read_all = !ferror(f);
			break;
		}
		if (strlen(line) != (size_t)len) {
			bad = true; /* a NUL: git would read past it */
			break;
		}
		char w[32];
		first_word(line, w, sizeof(w));
		switch (kind) {
		case CORDON_GIT_TODO: /* exec (x) lines: commands git runs */
			ran = ran || strcmp(w, "exec") == 0 || strcmp(w, "x") == 0;
			break;
		case CORDON_GIT_STRATEGY: /* all of it, less the blanks at its end */
			ran = ran || !strategy_line(line, lines == 0);
			apart = apart || (lines == 0 && !in_process_strategy_n(line, strlen(line)));
			break;
		case CORDON_GIT_OPTS: /* strategy = NAME, in git's config syntax */
			ran = ran || !opts_strategies(line, builtin_strategy_n);
			apart = apart || !opts_strategies(line, in_process_strategy_n);
			options = options || strcasestr(line, "strategy-option");
			break;
		case CORDON_GIT_STEP: { /* a number: git's prompt puts it in PS1 as it is */
			size_t digits = strspn(line, "0123456789");
			ran = ran || !digits || (line[digits] && strcmp(line + digits, "\n") != 0);
			break;
		}
		}
	}
	free(line);
	(void)fclose(f); /* read only */
	/* rebase-merge's options are in strategy_opts beside it. */
	char opts[PATH_MAX + 16];
	const char *slash = strrchr(file, '/');
	if (kind == CORDON_GIT_STRATEGY && apart && slash &&
	    (size_t)snprintf(opts, sizeof(opts), "%.*s/strategy_opts", (int)(slash - file), file) <
		    sizeof(opts))
		options = holds_words(opts);
	if (!ran && !bad && read_all && apart && options) {
		snprintf(what, sizeof(what),
			 "strategy options for a merge strategy git runs as a program, in %s",
			 kind == CORDON_GIT_OPTS ? name : "rebase-merge/strategy_opts");
		cordon_git_risk_add(out, size, what);
		return;
	}
	if (bad || !read_all)
		snprintf(what, sizeof(what), "a %s cordon cannot read", name);
	else if (kind == CORDON_GIT_TODO)
		snprintf(what, sizeof(what), "exec lines in %s", name);
	else if (kind == CORDON_GIT_STEP)
		snprintf(what, sizeof(what),
			 "%s holding what is not a number, which git's prompt runs", name);
	else
		snprintf(what, sizeof(what), "a merge strategy in %s that is a program", name);
	if (ran || bad || !read_all)
		cordon_git_risk_add(out, size, what);
}

char *cordon_git_dir_of(const char *dotgit)
{
	struct stat st;
	if (stat(dotgit, &st) == 0 && S_ISREG(st.st_mode)) {
		/* A .git file: the git dir it names, relative to its directory. */
		char base[PATH_MAX];
		snprintf(base, sizeof(base), "%s", dotgit);
		char *slash = strrchr(base, '/');
		if (slash)
			*slash = '\0';
		return cordon_git_link_file(dotgit, "gitdir: ", base);
	}
	return strdup(dotgit);
}

/* ---- the index ----
 *
 * git reads the entries of an index without asking whether their paths
 * are ones it would ever have put there: a session that rewrites it can
 * name ".git/hooks/pre-commit" or "../../x", and git restore . outside
 * writes them. The paths are judged here as git's verify_path judges one
 * it is given (it would refuse those), in every stream of entries git may
 * read: the entries in order, the blocks the offset table (IEOT) names
 * for reading in threads, and a split index's shared one. */

#define INDEX_MAX    (256u << 20) /* an index longer is not read: a risk */
#define NAME_MAX_LEN (64u << 10)

/* The N bytes at C are ".git" or "git~1" followed by nothing but dots and
 * spaces (what NTFS takes for .git; git refuses them on every system by
 * default, core.protectNTFS). */
static bool ntfs_dotgit(const char *c, size_t n)
{
	size_t k;
	if (n >= 4 && strncasecmp(c, ".git", 4) == 0)
		k = 4;
	else if (n >= 5 && strncasecmp(c, "git~1", 5) == 0)
		k = 5;
	else
		return false;
	for (; k < n && c[k] != ':'; k++)
		if (c[k] != '.' && c[k] != ' ')
			return false;
	return true;
}

/* The bytes at K in U (N in all) past the code points HFS+ leaves out
 * of a name: U+200C-200F, 202A-202E, 206A-206F and FEFF. */
static size_t hfs_skip(const unsigned char *u, size_t k, size_t n)
{
	while (k + 3 <= n &&
	       ((u[k] == 0xe2 && u[k + 1] == 0x80 &&
		 ((u[k + 2] >= 0x8c && u[k + 2] <= 0x8f) ||
		  (u[k + 2] >= 0xaa && u[k + 2] <= 0xae))) ||
		(u[k] == 0xe2 && u[k + 1] == 0x81 && u[k + 2] >= 0xaa && u[k + 2] <= 0xaf) ||
		(u[k] == 0xef && u[k + 1] == 0xbb && u[k + 2] == 0xbf)))
		k += 3;
	return k;
}

/* The N bytes at C are NEEDLE (lowercase ASCII) in any case, less what
 * HFS+ leaves out of a name. */
static bool hfs_is(const char *c, size_t n, const char *needle)
{
	const unsigned char *u = (const unsigned char *)c;
	size_t k = 0;
	for (; *needle; needle++, k++) {
		k = hfs_skip(u, k, n);
		if (k >= n || tolower(u[k]) != *needle)
			return false;
	}
	return hfs_skip(u, k, n) == n;
}

/* The N bytes at C, a part of a path between slashes, as verify_path
 * takes one for an entry of MODE (HFS: where the file system is HFS+'s). */
static bool component_ok(const char *c, size_t n, unsigned mode, bool hfs)
{
	bool link = (mode & 0170000) == 0120000;
	if (n == 0 || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
		return false;
	if ((n == 4 && strncasecmp(c, ".git", 4) == 0) ||
	    (link && n == 11 && strncasecmp(c, ".gitmodules", 11) == 0))
		return false;
	/* NTFS: each part a backslash begins is a name there. */
	for (size_t k = 0; k < n;) {
		size_t part = k;
		while (part < n && c[part] != '\\')
			part++;
		if (ntfs_dotgit(c + k, part - k))
			return false;
		k = part + 1;
	}
	return !hfs || !(hfs_is(c, n, ".git") || (link && hfs_is(c, n, ".gitmodules")));
}

bool cordon_git_path_ok(const char *path, unsigned mode, bool hfs)
{
	bool dir = (mode & 0170000) == 0040000;
	for (const char *c = path;;) {
		size_t n = strcspn(c, "/");
		/* An empty part: the path empty or absolute, two slashes; one
		 * at the end only for a directory (a sparse index's). */
		if (n == 0)
			return *c == '\0' && c != path && dir;
		if (!component_ok(c, n, mode, hfs))
			return false;
		if (c[n] == '\0')
			return true;
		c += n + 1;
	}
}

/* A split index's link (git's split-index.c): the shared index's
 * entries its delete bitmap names are gone, and those its replace bitmap
 * names take, in order, the mode and object of the split index's entries
 * with no name (round 57a F1: a session's git add in a split index was
 * one cordon could not compare). */
struct split_map {
	size_t *del, n_del, *repl, n_repl; /* positions in the shared index, rising */
	unsigned *mode;                    /* the entries with no name, in order */
	unsigned char (*oid)[32];
	size_t n_src, cap_src;
	size_t pos, di, ri; /* the shared index as it is read */
	bool bad;           /* one git refuses, or not kept: not followed */
};

struct index_scan {
	const unsigned char *d;
	size_t n;  /* the bytes before the trailing hash */
	size_t hs; /* the hash's size: 20 (SHA-1) or 32 (SHA-256) */
	unsigned version;
	uint32_t nr;
	bool hfs;
	char *name; /* the entry's name (version 4: built on the last one's) */
	size_t name_len;
	size_t budget;    /* entries left to read in all */
	size_t ieot_left; /* entries the offset tables may name */
	bool unread;      /* something git may read that this could not */
	bool nameless;    /* an entry with no name: only in a split index */
	char bad[128];    /* the first path git would refuse, printable */
	unsigned char base[4][32];
	size_t n_base; /* the shared indexes the link extensions name */
	/* Each gitlink's name to EACH (cordon_git_index_gitlinks); the first
	 * negative value it returns, in ERR, stops it. */
	int (*each)(const char *name, void *arg);
	void *arg;
	int err;
	bool nameless_link;       /* a gitlink with no name (a split index's replacement) */
	bool gitmodules;          /* an entry named .gitmodules */
	struct cordon_strv *dirs; /* where not NULL: the directory entries' names ("d/") */
	/* Each named entry to ENTRY (cordon_git_index_entries); its first
	 * negative value, in ERR, stops it. */
	int (*entry)(const char *name, unsigned mode, const unsigned char *oid, size_t hs,
		     void *arg);
	struct split_map *split; /* where not NULL: the link made or followed */
	bool shared;             /* the shared index a split one names */
	bool side;               /* past the entries: a block an offset table names */
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const unsigned char *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* git's varint (the offset encoding of its packs) at P, within ROOM
 * bytes, into *V; the bytes it took, or 0. */
static size_t varint(const unsigned char *p, size_t room, size_t *v)
{
	size_t k = 0;
	if (room == 0)
		return 0;
	size_t val = p[k] & 127;
	while (p[k++] & 128) {
		if (k >= room || val >= (SIZE_MAX >> 8))
			return 0;
		val = ((val + 1) << 7) | (p[k] & 127);
	}
	*v = val;
	return k;
}

/* An entry with no name (MODE, OID of HS bytes) of a split index, kept
 * for the shared entry it replaces. */
static void split_source(struct split_map *m, unsigned mode, const unsigned char *oid, size_t hs)
{
	if (m->n_src == m->cap_src) {
		size_t cap = m->cap_src ? 2 * m->cap_src : 16;
		unsigned *md = cap <= (1u << 22) ? realloc(m->mode, cap * sizeof(*md)) : NULL;
		if (md)
			m->mode = md;
		unsigned char(*od)[32] = md ? realloc(m->oid, cap * sizeof(*od)) : NULL;
		if (!od) {
			m->bad = true;
			return;
		}
		m->oid = od;
		m->cap_src = cap;
	}
	m->mode[m->n_src] = mode;
	memset(m->oid[m->n_src], 0, 32);
	memcpy(m->oid[m->n_src++], oid, hs);
}

/* The shared index's next entry as the split one has it: true where it
 * is deleted, else *MODE and *OID its replacement's where it has one. */
static bool split_follow(struct split_map *m, unsigned *mode, const unsigned char **oid)
{
	size_t pos = m->pos++;
	bool gone = m->di < m->n_del && m->del[m->di] == pos;
	m->di += gone;
	if (m->ri < m->n_repl && m->repl[m->ri] == pos) {
		if (gone || m->ri >= m->n_src)
			m->bad = true; /* (git dies: both, or too many) */
		else {
			*mode = m->mode[m->ri];
			*oid = m->oid[m->ri];
		}
		m->ri++;
	}
	return gone;
}

/* An EWAH bitmap at P (ROOM bytes), as git reads one (ewah_read_mmap),
 * into its set positions *OUT (*N of them, rising). The bytes it took, or
 * 0 where git refuses it or it names more than cordon keeps. */
#define SPLIT_BITS (1u << 24) /* positions past it: not followed */
static size_t ewah_positions(const unsigned char *p, size_t room, size_t **out, size_t *n)
{
	if (room < 8)
		return 0;
	size_t words = be32(p + 4);
	if ((room - 8) / 8 < words || room - 8 - words * 8 < 4)
		return 0;
	const unsigned char *w = p + 8;
	size_t cap = 0, pos = 0;
	for (size_t at = 0; at < words;) {
		uint64_t rlw = be64(w + 8 * at++);
		size_t run = (size_t)((rlw >> 1) & 0xffffffffu) * 64, lit = (size_t)(rlw >> 33);
		if (lit > words - at || run > SPLIT_BITS || lit * 64 > SPLIT_BITS - run ||
		    pos > SPLIT_BITS - run - lit * 64)
			return 0;
		size_t need = *n + (rlw & 1 ? run : 0) + lit * 64;
		if (need > cap) {
			cap = need > 2 * cap ? need : 2 * cap;
			size_t *grown = realloc(*out, cap * sizeof(**out));
			if (!grown)
				return 0;
			*out = grown;
		}
		for (size_t k = 0; rlw & 1 && k < run; k++)
			(*out)[(*n)++] = pos + k;
		pos += run;
		for (size_t l = 0; l < lit; l++, pos += 64) {
			uint64_t v = be64(w + 8 * at++);
			for (unsigned c = 0; c < 64; c++)
				if (v >> c & 1)
					(*out)[(*n)++] = pos + c;
		}
	}
	return 8 + words * 8 + 4;
}

/* The name the entry at *OFF gives, judged; *OFF past it. FIRST: the first
 * of a block, whose version 4 name starts anew. False when it cannot be
 * read whole (git would read past it, or fail). */
static bool index_entry(struct index_scan *x, size_t *off, bool first)
{
	size_t fixed = 40 + x->hs + 2;
	if (x->budget == 0 || *off > x->n || x->n - *off < fixed)
		return false;
	x->budget--;
	const unsigned char *e = x->d + *off;
	unsigned mode = be32(e + 24);
	unsigned flags = (unsigned)e[40 + x->hs] << 8 | e[41 + x->hs];
	size_t len = flags & 0xfff, at = fixed + ((flags & 0x4000) ? 2 : 0);
	if (x->n - *off < at)
		return false;
	const unsigned char *p = e + at;
	size_t room = x->n - *off - at, size, copy = 0;
	if (x->version == 4) {
		size_t strip = 0, used = varint(p, room, &strip);
		if (!used)
			return false;
		p += used;
		room -= used;
		if (!first) {
			if (strip > x->name_len)
				return false;
			copy = x->name_len - strip;
		}
		const unsigned char *nul = memchr(p, 0, room);
		if (!nul)
			return false;
		size_t suffix = (size_t)(nul - p);
		if (len == 0xfff)
			len = suffix + copy;
		/* git copies LEN less COPY bytes and the one after, which must
		 * end the name. */
		if (len < copy || len - copy != suffix)
			return false;
		size = at + used + suffix + 1;
	} else {
		if (len == 0xfff) {
			const unsigned char *nul = memchr(p, 0, room);
			if (!nul)
				return false;
			len = (size_t)(nul - p);
		} else if (room <= len || memchr(p, 0, len) || p[len] != 0) {
			return false;
		}
		size = (at + len + 8) & ~(size_t)7;
		if (size > x->n - *off)
			return false;
	}
	if (len >= NAME_MAX_LEN)
		return false;
	memmove(x->name + copy, p, len - copy);
	x->name[len] = '\0';
	x->name_len = len;
	const unsigned char *oid = e + 40;
	bool gone = false;
	if (len == 0 && x->split && !x->shared && !x->side)
		split_source(x->split, mode, oid, x->hs);
	else if (len == 0)
		x->nameless = true;
	else if (!x->each && !x->bad[0] && !cordon_git_path_ok(x->name, mode, x->hfs))
		cordon_printable(x->name, SIZE_MAX, x->bad, sizeof(x->bad));
	if (x->each && len == 0 && (mode & 0170000) == 0160000 &&
	    !(x->split && !x->shared && !x->side))
		x->nameless_link = true; /* (which one it replaces: not read) */
	if (len && x->split && x->shared && !x->side)
		gone = split_follow(x->split, &mode, &oid);
	if (x->each && len == 11 && memcmp(x->name, ".gitmodules", 11) == 0)
		x->gitmodules = true;
	if (x->dirs && len && (mode & 0170000) == 0040000 &&
	    cordon_strv_push_new(x->dirs, x->name) < 0)
		x->unread = true; /* (out of memory: not read whole) */
	if (x->each && len && !gone && x->err == 0 && (mode & 0170000) == 0160000) {
		int r = x->each(x->name, x->arg);
		x->err = r < 0 ? r : 0;
	}
	if (x->entry && len && !gone && x->err == 0) {
		int r = x->entry(x->name, mode, oid, x->hs, x->arg);
		x->err = r < 0 ? r : 0;
	}
	*off += size;
	return true;
}

/* NR entries from OFF on, a block of their own; where they end, or 0. */
static size_t index_block(struct index_scan *x, size_t off, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!index_entry(x, &off, i == 0))
			return 0;
	return off;
}

/* The extensions from OFF on, as git reads them: a link extension's
 * shared index, and the blocks an offset table names. */
static void index_extensions(struct index_scan *x, size_t off)
{
	x->side = true;
	while (off <= x->n && x->n - off >= 8) {
		const unsigned char *ext = x->d + off;
		size_t sz = be32(ext + 4);
		bool fits = x->n - off - 8 >= sz;
		if (memcmp(ext, "link", 4) == 0) {
			if (!fits || sz < x->hs || x->n_base >= 4) {
				x->unread = true;
				return;
			}
			memcpy(x->base[x->n_base++], ext + 8, x->hs);
			/* (Its bitmaps: git refuses the index where it cannot
			 * read them; the last link is the one git follows.) */
			struct split_map *m = x->split;
			size_t at = 8 + x->hs, got = 0;
			if (m && !x->shared) {
				free(m->del);
				free(m->repl);
				m->del = m->repl = NULL;
				m->n_del = m->n_repl = 0;
			}
			if (m && !x->shared && sz > x->hs &&
			    (!(got = ewah_positions(ext + at, sz - x->hs, &m->del, &m->n_del)) ||
			     ewah_positions(ext + at + got, sz - x->hs - got, &m->repl,
					    &m->n_repl) != sz - x->hs - got)) {
				x->unread = true;
				return;
			}
		} else if (memcmp(ext, "IEOT", 4) == 0) {
			if (!fits || sz < 4 || be32(ext + 8) != 1) {
				x->unread = true;
				return;
			}
			for (size_t k = 12; k + 8 <= 8 + sz; k += 8) {
				size_t nr = be32(ext + k + 4);
				if (nr > x->ieot_left ||
				    (nr && index_block(x, be32(ext + k), nr) == 0)) {
					x->unread = true;
					return;
				}
				x->ieot_left -= nr;
			}
		}
		if (!fits)
			return; /* (git reads no further either) */
		off += 8 + sz;
	}
}

/* The index D (N bytes) as X says. */
static void index_scan(struct index_scan *x, const unsigned char *d, size_t n)
{
	x->d = d;
	if (n < 12 + x->hs || memcmp(d, "DIRC", 4) != 0 || be32(d + 4) < 2 || be32(d + 4) > 4) {
		x->unread = true;
		return;
	}
	x->n = n - x->hs;
	x->version = be32(d + 4);
	x->nr = be32(d + 8);
	x->budget = x->ieot_left = (size_t)x->nr + 1;
	x->budget *= 2;
	size_t end = x->nr ? index_block(x, 12, x->nr) : 12;
	if (end == 0) {
		x->unread = true;
		return;
	}
	index_extensions(x, end);
	/* The end-of-entries extension, last before the hash: where git,
	 * reading in threads, looks for the others (its offset table too). */
	if (x->n >= 12 + 32) {
		const unsigned char *eoie = x->d + x->n - 32;
		size_t from = be32(eoie + 8);
		if (memcmp(eoie, "EOIE", 4) == 0 && be32(eoie + 4) == 24 && from >= 12 &&
		    from < x->n - 32 && from != end)
			index_extensions(x, from);
	}
}

/* What one process reads of indexes in all (a sweep's): a session that
 * left many large ones (sparse files cost it no disk) held the end of the
 * session for a minute, signals blocked. Past it an index is not read: a
 * risk. */
#define INDEX_BUDGET (512ull << 20)
static unsigned long long index_read;

/* The index at PATH read and judged into X (X->hs and X->hfs set, X->name
 * NAME_MAX_LEN bytes); missing, it adds nothing. One with holes (git writes
 * none) or past the budget is not read. */
static void index_file(struct index_scan *x, const char *path)
{
	struct stat st;
	if (lstat(path, &st) < 0 && (errno == ENOENT || errno == ENOTDIR))
		return;
	FILE *f = cordon_fopen_regular(path);
	unsigned char *d = NULL;
	if (f && fstat(fileno(f), &st) == 0 && st.st_size > 0 && st.st_size <= INDEX_MAX &&
	    (unsigned long long)st.st_blocks * 512 + 65536 >= (unsigned long long)st.st_size &&
	    index_read + (unsigned long long)st.st_size <= INDEX_BUDGET &&
	    (d = malloc((size_t)st.st_size)) &&
	    fread(d, 1, (size_t)st.st_size, f) == (size_t)st.st_size) {
		index_read += (unsigned long long)st.st_size;
		index_scan(x, d, (size_t)st.st_size);
	} else {
		x->unread = true;
	}
	free(d);
	if (f)
		(void)fclose(f); /* read only */
}

/* The index INDEX read into X (its name buffer made), and the shared
 * index a split one names into BASE: as git reads them. False when out of
 * memory. */
static bool index_and_shared(const char *index, struct index_scan *x, struct index_scan *base)
{
	static const unsigned char none[32];
	struct split_map *map = calloc(1, sizeof(*map));
	if (!map || !(x->name = malloc(NAME_MAX_LEN))) {
		free(map);
		return false;
	}
	x->split = map;
	index_file(x, index);
	/* A split index: the shared one it names, beside it (whose own link
	 * git does not follow); an entry with no name is one that replaces
	 * a shared entry, and takes its name. */
	base->name = x->name;
	base->each = x->each;
	base->arg = x->arg;
	base->dirs = x->dirs;
	base->entry = x->entry;
	base->shared = true;
	/* (One link, whose shared index is read: git's; else its entries
	 * with no name are not followed.) */
	bool follow = x->n_base == 1 && !map->bad && memcmp(x->base[0], none, x->hs) != 0;
	base->split = follow ? map : NULL;
	for (size_t i = 0; i < x->n_base && !base->unread && base->err == 0; i++) {
		if (memcmp(x->base[i], none, x->hs) == 0)
			continue;
		char path[PATH_MAX + 100];
		const char *slash = strrchr(index, '/');
		int dn = slash ? (int)(slash - index) : 1;
		int k = snprintf(path, sizeof(path), "%.*s/sharedindex.", dn, slash ? index : ".");
		for (size_t b = 0; b < x->hs && k + 3 < (int)sizeof(path); b++)
			k += snprintf(path + k, sizeof(path) - (size_t)k, "%02x", x->base[i][b]);
		index_file(base, path);
		if (base->bad[0] && !x->bad[0])
			memcpy(x->bad, base->bad, sizeof(x->bad));
		base->n_base = 0;
	}
	/* Every replacement taken, every position within the shared index:
	 * as git reads it. Else an entry with no name is one cordon cannot
	 * name. */
	if (map->n_src && (!follow || map->bad || base->unread || map->ri != map->n_repl ||
			   map->di != map->n_del || map->n_repl != map->n_src)) {
		x->nameless = true;
		for (size_t i = 0; i < map->n_src; i++)
			x->nameless_link = x->nameless_link || (map->mode[i] & 0170000) == 0160000;
	}
	if (!map->n_src && follow && (map->ri != map->n_repl || map->di != map->n_del || map->bad))
		x->unread = true; /* (git dies) */
	free(map->del);
	free(map->repl);
	free(map->mode);
	free(map->oid);
	free(map);
	x->split = base->split = NULL;
	return true;
}

/* The gitlinks each git dir's index held when this process first read
 * it: before the session it starts ran (its guards are planned first). */
#define FIRST_KEPT 64
static struct first_links {
	dev_t dev;
	ino_t ino;
	struct cordon_strv names;
} first_links[FIRST_KEPT];
static size_t first_n;

/* The directory INDEX is in, looked at into ST. */
static bool index_dir(const char *index, struct stat *st)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(index, '/');
	if (!slash || (size_t)(slash - index) >= sizeof(dir))
		return false;
	snprintf(dir, sizeof(dir), "%.*s", slash == index ? 1 : (int)(slash - index), index);
	return stat(dir, st) == 0;
}

static struct first_links *first_of(const struct stat *st)
{
	for (size_t i = 0; i < first_n; i++)
		if (first_links[i].dev == st->st_dev && first_links[i].ino == st->st_ino)
			return &first_links[i];
	return NULL;
}

/* NAMES, the gitlinks of INDEX, kept if it is the first read of its git
 * dir's (past FIRST_KEPT git dirs, not: their indexes are not checked so). */
static void remember_first(const char *index, const struct cordon_strv *names)
{
	struct stat st;
	if (first_n >= FIRST_KEPT || !index_dir(index, &st) || first_of(&st))
		return;
	struct first_links *f = &first_links[first_n];
	if (cordon_strv_copy(&f->names, names) < 0)
		return;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	first_n++;
}

/* A directory entry of DIRS (a sparse index's: "d/", the tree of all of
 * d) that covers a gitlink INDEX's git dir had as this process first read
 * it: one git never writes (it keeps each submodule an entry of its own,
 * and folds no directory that holds one), and git outside, which expands
 * it where d is in the worktree, goes down into the submodule that the
 * next session's guard, reading entries only, would not see (46g G1).
 * Into OUT (SIZE bytes), said. */
static void covered_links(const char *index, const struct cordon_strv *dirs, char *out, size_t size)
{
	struct stat st;
	struct first_links *f = dirs->n && index_dir(index, &st) ? first_of(&st) : NULL;
	for (size_t i = 0; f && i < f->names.n; i++)
		for (size_t k = 0; k < dirs->n; k++)
			if (strncmp(f->names.v[i], dirs->v[k], strlen(dirs->v[k])) == 0) {
				char name[96], what[256];
				cordon_printable(f->names.v[i], SIZE_MAX, name, sizeof(name));
				snprintf(what, sizeof(what),
					 "an index whose directory entry hides the submodule %s "
					 "(git never writes one)",
					 name);
				cordon_git_risk_add(out, size, what);
				return;
			}
}

void cordon_git_index_risks(const char *index, size_t hash_size, bool hfs, char *out, size_t size)
{
	struct cordon_strv dirs = {0};
	struct index_scan x = {.hs = hash_size, .hfs = hfs, .dirs = &dirs},
			  base = {.hs = hash_size, .hfs = hfs};
	if (!index_and_shared(index, &x, &base)) {
		cordon_git_risk_add(out, size, "an index cordon cannot read");
		return;
	}
	covered_links(index, &dirs, out, size);
	cordon_strv_free(&dirs);
	bool split = x.n_base > 0;
	free(x.name);
	char what[256];
	if (x.bad[0] || (x.nameless && !split) || base.nameless) {
		snprintf(
			what, sizeof(what),
			"an index whose entries git would write outside the worktree or into a .git "
			"(%s)",
			x.bad[0] ? x.bad : "a path with no name");
		cordon_git_risk_add(out, size, what);
	}
	if (x.unread || base.unread)
		cordon_git_risk_add(out, size, "an index cordon cannot read");
}

/* The gitlinks of the indexes read, by their files: a launch plans its
 * guards once for each protected .git path, and read a large index as
 * often (100,000 entries: 8 ms a read); a repository's submodules each
 * have one. */
#define LINKS_KEPT 32
static struct links_kept {
	char *index;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime, ctime;
	struct cordon_strv names;
	int status;
	bool gitmodules;
} links_kept[LINKS_KEPT];
static size_t links_next;

static int collect_link(const char *name, void *arg)
{
	return cordon_strv_push(arg, name);
}

static bool same_index(const struct links_kept *k, const char *index, const struct stat *st)
{
	return k->index && strcmp(k->index, index) == 0 && k->dev == st->st_dev &&
	       k->ino == st->st_ino && k->size == st->st_size &&
	       k->mtime.tv_sec == st->st_mtim.tv_sec && k->mtime.tv_nsec == st->st_mtim.tv_nsec &&
	       k->ctime.tv_sec == st->st_ctim.tv_sec && k->ctime.tv_nsec == st->st_ctim.tv_nsec;
}

/* INDEX (ST, when SEEN) read into a kept entry: it, or NULL (out of
 * memory). */
static struct links_kept *links_of(const char *index, const char *config, const struct stat *st,
				   bool seen)
{
	for (size_t i = 0; seen && i < LINKS_KEPT; i++)
		if (same_index(&links_kept[i], index, st))
			return &links_kept[i];
	struct links_kept *k = &links_kept[links_next];
	links_next = (links_next + 1) % LINKS_KEPT;
	free(k->index);
	cordon_strv_free(&k->names);
	memset(k, 0, sizeof(*k));
	size_t hs = cordon_git_hash_size(config);
	struct index_scan x = {.hs = hs, .each = collect_link, .arg = &k->names}, base = {.hs = hs};
	if (!index_and_shared(index, &x, &base))
		return NULL;
	free(x.name);
	/* A gitlink with no name replaces an entry of the shared index,
	 * whose name git gives it: which one, the link's bitmaps say. Where
	 * they were not followed (no link read, an index with offset
	 * tables) the gitlinks are unknown (46f: a session made one, and the
	 * next session's guard missed the user's submodule). */
	bool unknown = x.unread || base.unread || x.nameless_link || base.nameless_link;
	k->status = x.err < 0 ? x.err : base.err < 0 ? base.err : unknown ? -EINVAL : 0;
	k->gitmodules = x.gitmodules || base.gitmodules;
	if (k->status == -ENOMEM) {
		cordon_strv_free(&k->names);
		return NULL;
	}
	remember_first(index, &k->names);
	/* (A split index's shared one is named by it: a new one, a new
	 * index.) */
	if (seen && (k->index = strdup(index))) {
		k->dev = st->st_dev;
		k->ino = st->st_ino;
		k->size = st->st_size;
		k->mtime = st->st_mtim;
		k->ctime = st->st_ctim;
	}
	return k;
}

bool cordon_git_common_config(const char *gitdir, char *out, size_t size)
{
	char path[PATH_MAX + 16], common[PATH_MAX];
	snprintf(path, sizeof(path), "%s/commondir", gitdir);
	/* (Only a regular file: a session points it at a device, which
	 * opening can act on, round 54a F1; git dies on anything else.) */
	int fd = cordon_open_regular_at(AT_FDCWD, path);
	ssize_t n = fd >= 0 ? read(fd, common, sizeof(common) - 1) : -1;
	if (fd >= 0)
		close(fd);
	/* (git strips the line's end, and reads nothing past a path) */
	while (n > 0 && (common[n - 1] == '\n' || common[n - 1] == '\r'))
		n--;
	if (n <= 0 || memchr(common, '\0', (size_t)n))
		return (size_t)snprintf(out, size, "%s/config", gitdir) < size;
	common[n] = '\0';
	return (size_t)(common[0] == '/'
				? snprintf(out, size, "%s/config", common)
				: snprintf(out, size, "%s/%s/config", gitdir, common)) < size;
}

int cordon_git_index_gitlinks(const char *gitdir, int (*each)(const char *name, void *arg),
			      void *arg, bool *gitmodules)
{
	*gitmodules = false;
	char index[PATH_MAX], config[PATH_MAX];
	/* (A linked worktree's format is its common dir's: round 49c F2, a
	 * sha256 repository's worktree was read as sha1's, and refused.) */
	if ((size_t)snprintf(index, sizeof(index), "%s/index", gitdir) >= sizeof(index) ||
	    !cordon_git_common_config(gitdir, config, sizeof(config)))
		return -ENAMETOOLONG;
	struct stat st;
	bool seen = stat(index, &st) == 0;
	struct links_kept *k = links_of(index, config, &st, seen);
	if (!k)
		return -ENOMEM;
	/* A copy: EACH may read another index (a submodule's), which may
	 * take this one's place. */
	struct cordon_strv names = {0};
	if (cordon_strv_copy(&names, &k->names) < 0)
		return -ENOMEM;
	int status = k->status, e = 0;
	*gitmodules = k->gitmodules;
	for (size_t i = 0; e >= 0 && i < names.n; i++)
		e = each(names.v[i], arg);
	cordon_strv_free(&names);
	return e < 0 ? e : status;
}

int cordon_git_index_entries(const char *gitdir,
			     int (*each)(const char *name, unsigned mode, const unsigned char *oid,
					 size_t hs, void *arg),
			     void *arg)
{
	char index[PATH_MAX], config[PATH_MAX];
	if ((size_t)snprintf(index, sizeof(index), "%s/index", gitdir) >= sizeof(index) ||
	    !cordon_git_common_config(gitdir, config, sizeof(config)))
		return -ENAMETOOLONG;
	size_t hs = cordon_git_hash_size(config);
	struct index_scan x = {.hs = hs, .entry = each, .arg = arg}, base = {.hs = hs};
	if (!index_and_shared(index, &x, &base))
		return -ENOMEM;
	free(x.name);
	if (x.err < 0 || base.err < 0)
		return x.err < 0 ? x.err : base.err;
	/* (A split index's entries with no name replace shared ones, which
	 * its bitmaps name: not read.) */
	return x.unread || base.unread || x.nameless || base.nameless ? -EINVAL : 0;
}
