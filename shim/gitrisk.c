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

/* A section header at S ("[name]", "[name \"sub\"]", "[name.sub]"), into
 * SECTION and SUB; the rest of the line after it, or NULL when git would
 * not read it as one. */
static const char *header(const char *s, char *section, size_t size, bool *sub)
{
	size_t n = 0;
	s++; /* '[' */
	while (isalnum((unsigned char)s[n]) || s[n] == '-' || s[n] == '.')
		n++;
	if (n == 0 || n >= size)
		return NULL;
	snprintf(section, size, "%.*s", (int)n, s);
	*sub = false;
	char *dot = strchr(section, '.');
	if (dot) { /* [section.sub], the old form */
		*dot = '\0';
		*sub = true;
	}
	s += n;
	if (blank(*s)) {
		s = skip_blanks(s);
		if (*s != '"' || *sub)
			return NULL;
		for (s++; *s && *s != '"'; s++)
			if (*s == '\\' && !*++s)
				return NULL;
		if (*s != '"')
			return NULL;
		s++;
		*sub = true;
	}
	return *s == ']' ? s + 1 : NULL;
}

/* The value after "=" at S: true when it goes on on the next line (a
 * final backslash), false at its end; *BAD when git would refuse it, or
 * when it goes on (git carries quotes across the lines of a value, and
 * git itself never writes one that does). */
static bool value_goes_on(const char *s, bool *bad)
{
	bool quoted = false;
	for (; *s && *s != '\n'; s++) {
		if (*s == '\\') {
			if (s[1] == '\n' || s[1] == '\0') {
				*bad = true;
				return true;
			}
			s++;
		} else if (*s == '"') {
			quoted = !quoted;
		} else if (!quoted && (*s == '#' || *s == ';')) {
			return false;
		}
	}
	*bad = quoted; /* a newline inside quotes */
	return false;
}

/* core.worktree's VALUE (the rest of its line after "=") in the config
 * CONFIG names a worktree whose .git file names this very git dir, as
 * git submodule writes it (.git/modules/NAME and NAME/.git): git outside
 * there works where it would work anyway. Elsewhere (the project's top,
 * a .git/hooks) its checkout would write the repository's files. */
static bool worktree_of_its_own(const char *config, const char *value)
{
	const char *v = skip_blanks(value);
	size_t n = strcspn(v, "\n");
	while (n && blank(v[n - 1]))
		n--;
	char dir[PATH_MAX], joined[PATH_MAX * 2 + 8];
	const char *slash = strrchr(config, '/');
	if (n == 0 || n >= PATH_MAX || !slash || (size_t)(slash - config) >= sizeof(dir) ||
	    strcspn(v, "\"\\#;") < n)
		return false;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - config), config);
	if (v[0] == '/')
		snprintf(joined, sizeof(joined), "%.*s/.git", (int)n, v);
	else
		snprintf(joined, sizeof(joined), "%s/%.*s/.git", dir, (int)n, v);
	char *base = strndup(joined, strlen(joined) - 5);
	cleanup_free char *named = base ? cordon_git_link_file(joined, "gitdir: ", base) : NULL;
	cleanup_free char *self = realpath(dir, NULL);
	free(base);
	return named && self && strcmp(named, self) == 0;
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

/* The value after "=" at S, on one line, as git reads it (quotes taken
 * off, escapes made, a comment and the blanks at its ends left out), into
 * OUT (SIZE bytes): false when git would refuse it, or it does not fit. */
static bool config_value(const char *s, char *out, size_t size)
{
	size_t n = 0, spaces = 0;
	bool quoted = false;
	for (s = skip_blanks(s); *s && *s != '\n'; s++) {
		char c = *s;
		if (!quoted && (c == '#' || c == ';'))
			break;
		if (!quoted && blank(c)) {
			spaces++;
			continue;
		}
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (c == '\\') {
			switch (*++s) {
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			case 'b':
				c = '\b';
				break;
			case '"':
			case '\\':
				c = *s;
				break;
			default:
				return false;
			}
		}
		for (; spaces; spaces--)
			if (n && n + 1 < size)
				out[n++] = ' ';
		if (n + 1 >= size)
			return false;
		out[n++] = c;
	}
	out[n] = '\0';
	return !quoted;
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
	FILE *f = S_ISREG(st.st_mode) && st.st_size <= CORDON_GIT_CONFIG_MAX
			  ? cordon_fopen_regular(config)
			  : NULL;
	if (!f) {
		cordon_git_risk_add(out, size, "a config cordon cannot read");
		if (seen)
			seen->whole = false;
		return false;
	}
	char *line = NULL, section[128] = "";
	size_t cap = 0;
	bool sub = false, bad = false, more = false, read_all = false;
	/* The section an entry is in, as written ("[remote \"o\"]"): an
	 * entry is known by it and by its line, whole (no hash a plant could
	 * be made to match). */
	char *in = NULL;
	for (int lines = 0; !bad && lines < 8192; lines++) {
		ssize_t len = getline(&line, &cap, f);
		if (len < 0) {
			read_all = !ferror(f);
			break;
		}
		/* A NUL git would stop at, or a line longer than cordon reads. */
		if (len > 4096 || strlen(line) != (size_t)len) {
			bad = true;
			break;
		}
		if (more) { /* a value's next line */
			more = value_goes_on(line, &bad);
			continue;
		}
		const char *s = line;
		if (lines == 0 && strncmp(s, "\xef\xbb\xbf", 3) == 0)
			s += 3; /* a byte order mark, which git skips */
		for (s = skip_blanks(s); *s == '['; s = skip_blanks(s)) {
			const char *h = s;
			if (!(s = header(s, section, sizeof(section), &sub))) {
				bad = true;
				break;
			}
			free(in);
			in = strndup(h, (size_t)(s - h));
			if (!in) {
				bad = true;
				break;
			}
		}
		if (bad || *s == '\0' || *s == '\n' || *s == '#' || *s == ';')
			continue;
		if (!isalpha((unsigned char)*s) || !section[0]) {
			bad = true;
			break;
		}
		char key[128];
		size_t k = 0;
		const char *entry = s;
		while (k + 1 < sizeof(key) && (isalnum((unsigned char)s[k]) || s[k] == '-'))
			key[k] = s[k], k++;
		key[k] = '\0';
		s = skip_blanks(s + k);
		if (*s == '=')
			more = value_goes_on(s + 1, &bad);
		else if (*s && *s != '\n' && *s != '#' && *s != ';')
			bad = true;
		if (bad)
			continue;
		bool risky = !is_harmless(section, sub, key) &&
			     !(!sub && strcasecmp(section, "core") == 0 &&
			       strcasecmp(key, "worktree") == 0 && *s == '=' &&
			       worktree_of_its_own(config, s + 1));
		/* A remote's URL: a program git would look for on PATH (one
		 * the user set up stays theirs, as any setting), or a
		 * repository here whose hooks git push runs (judged by
		 * H->local, whatever the config held before). */
		const char *also = "";
		bool branch;
		char value[PATH_MAX];
		if (!risky && *s == '=' && url_key(section, sub, key, &branch)) {
			const char *path = NULL;
			if (!config_value(s + 1, value, sizeof(value))) {
				risky = true;
				also = " (a value cordon cannot read)";
			} else if (url_kind(value, &path) == URL_HELPER) {
				/* (A branch's remote too: one no remote is
				 * configured for is taken for a URL.) */
				risky = true;
				also = " (a remote helper)";
			} else if (branch &&
				   (strcmp(value, ".") == 0 ||
				    (strchr(value, '/') == NULL && strcmp(value, "..") != 0))) {
				/* the name of a remote, or "." (this repository) */
			} else if (path && hooks && hooks->local &&
				   hooks->local(path, hooks->arg)) {
				char what[PATH_MAX + 300];
				snprintf(what, sizeof(what),
					 "%s.*.%s %s (a repository a session could write)", section,
					 key, value);
				for (char *c = what; *c && *c != ' '; c++)
					*c = (char)tolower((unsigned char)*c);
				cordon_git_risk_add(out, size, what);
			}
		}
		if (risky) {
			char *whole_entry = NULL;
			if ((seen || known) && asprintf(&whole_entry, "%s\n%.*s", in ? in : "",
							(int)strcspn(entry, "\n"), entry) < 0)
				whole_entry = NULL;
			bool as_it_was = whole_entry && entries_hold(known, whole_entry);
			if (seen)
				entries_add(seen, whole_entry);
			else
				free(whole_entry);
			if (as_it_was)
				continue;
			char what[340];
			snprintf(what, sizeof(what), sub ? "%s.*.%s" : "%s.%s", section, key);
			for (char *c = what; *c; c++)
				*c = (char)tolower((unsigned char)*c);
			snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s", also);
			cordon_git_risk_add(out, size, what);
		}
	}
	bool whole = !(bad || !read_all || more);
	if (!whole)
		cordon_git_risk_add(out, size, "a config cordon cannot read");
	if (seen)
		seen->whole = seen->whole && whole;
	free(line);
	free(in);
	(void)fclose(f); /* read only */
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

/* A line of sequencer/opts that names no strategy but a built-in one: any
 * "strategy" followed by "=" (a header before it on the line, any case)
 * must give exactly such a name; quotes or anything else count. */
static bool opts_line(const char *line)
{
	for (const char *at = line; (at = strcasestr(at, "strategy")); at++) {
		const char *s = skip_blanks(at + strlen("strategy"));
		if (*s != '=')
			continue; /* strategy-option, a value's text */
		s = skip_blanks(s + 1);
		if (!builtin_strategy_n(s, strlen(s)))
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
			break;
		case CORDON_GIT_OPTS: /* strategy = NAME, in git's config syntax */
			ran = ran || !opts_line(line);
			break;
		}
	}
	free(line);
	(void)fclose(f); /* read only */
	if (bad || !read_all)
		snprintf(what, sizeof(what), "a %s cordon cannot read", name);
	else if (kind == CORDON_GIT_TODO)
		snprintf(what, sizeof(what), "exec lines in %s", name);
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
