/* The other names a credential has (round 51b F4). The hidden list names
 * where tools keep their keys by default; a review read them where they
 * were after all:
 * - a copy beside a hidden file, in a directory the default grant reads
 *   (emacs's ~/.config/composer/auth.json~, vim's swap file of it, a
 *   hand-made auth.json.bak, Claude Code's ~/.claude.json.backup);
 * - a file the user's git config names as a credential store
 *   (credential.helper = store --file ~/.config/git/work-credentials),
 *   git's cookie file (http.cookieFile ~/.gitcookies) or a client key;
 * - an ssh key that ~/.ssh/config names outside ~/.ssh (IdentityFile
 *   ~/keys/id_work).
 * git's config is read by cordon_gitcfg_read (git's own syntax, includes
 * followed as git follows them); ssh's as ssh's readconf.c splits a line
 * (a keyword, an optional "=", words in quotes). */
#include "secret-names.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cordon/gitconfig.h"
#include "cordon/strv.h"
#include "util.h"

/* ---- copies beside a hidden path ---- */

/* vim's swap (.swp, .swo, ... .saa), its undo file, kate's swap: what
 * follows ENTRY in .ENTRY.swp (or in ENTRY.swp, ENTRY a dot file). */
static bool swap_suffix(const char *s)
{
	if (strcmp(s, ".un~") == 0 || strcmp(s, ".kate-swp") == 0)
		return true;
	return strlen(s) == 4 && s[0] == '.' && s[1] == 's' && islower((unsigned char)s[2]) &&
	       islower((unsigned char)s[3]);
}

/* Whether what follows ENTRY in NAME says a copy: "~", ".~1~", "-" alone,
 * ".N", or a separator and a word from the lists, then anything but a
 * letter (.bak, .bak2, .old-2024, " copy", " (1)"). */
static bool copy_suffix(const char *r)
{
	static const char *const words[] = {"bak",     "backup",  "old",    "orig",    "save",
					    "sav",     "copy",    "prev",   "tmp",     "new",
					    "dpkg-",   "rpmsave", "rpmnew", "rpmorig", "ucf-",
					    "pacsave", "pacnew",  "swp",    NULL};
	if (r[0] == '~' || (r[0] == '.' && r[1] == '~') || strcmp(r, "-") == 0)
		return true;
	if (r[0] == ' ' && r[1] == '(' && isdigit((unsigned char)r[2]))
		return true;
	if (!r[0] || !strchr(".-_ ", r[0]))
		return false;
	r++;
	if (r[0] && strspn(r, "0123456789") == strlen(r))
		return true; /* auth.json.1 */
	for (size_t i = 0; words[i]; i++) {
		size_t n = strlen(words[i]);
		if (strncasecmp(r, words[i], n) == 0 &&
		    (words[i][n - 1] == '-' || !isalpha((unsigned char)r[n])))
			return true;
	}
	return false;
}

bool cordon_backup_name(const char *entry, const char *name)
{
	size_t en = strlen(entry), nn = strlen(name);
	if (!en || nn <= en)
		return false;
	/* emacs: #ENTRY# (auto-save), .#ENTRY (its lock). */
	if (nn == en + 2 &&
	    ((name[0] == '#' && name[nn - 1] == '#') || (name[0] == '.' && name[1] == '#')))
		return memcmp(name + (name[0] == '#' ? 1 : 2), entry, en) == 0;
	if (name[0] == '.' && memcmp(name + 1, entry, en) == 0 && swap_suffix(name + 1 + en))
		return true;
	return memcmp(name, entry, en) == 0 &&
	       ((entry[0] == '.' && swap_suffix(name + en)) || copy_suffix(name + en));
}

int cordon_backups_of(const char *const *paths, size_t n,
		      int (*fn)(const char *copy, size_t i, void *arg), void *arg)
{
	bool *done = calloc(n ? n : 1, sizeof(*done));
	if (!done)
		return -ENOMEM;
	int e = 0;
	for (size_t i = 0; e >= 0 && i < n; i++) {
		const char *slash = strrchr(paths[i], '/');
		if (done[i] || paths[i][0] != '/' || !slash[1])
			continue;
		size_t dn = (size_t)(slash - paths[i]);
		char dir[PATH_MAX];
		if (dn >= sizeof(dir))
			continue;
		memcpy(dir, paths[i], dn);
		dir[dn] = '\0';
		/* The paths in this directory: read it once for them all. */
		for (size_t k = i; k < n; k++)
			if (!done[k] && strncmp(paths[k], paths[i], dn + 1) == 0 &&
			    !strchr(paths[k] + dn + 1, '/'))
				done[k] = true;
		DIR *d = opendir(dn ? dir : "/");
		for (struct dirent *de; d && e >= 0 && (de = readdir(d));) {
			const char *name = de->d_name;
			size_t of = n;
			bool listed = false;
			for (size_t k = i; k < n && !listed; k++) {
				if (strncmp(paths[k], paths[i], dn + 1) != 0 ||
				    strchr(paths[k] + dn + 1, '/'))
					continue;
				listed = strcmp(paths[k] + dn + 1, name) == 0;
				if (of == n && cordon_backup_name(paths[k] + dn + 1, name))
					of = k;
			}
			if (listed || of == n)
				continue;
			char copy[PATH_MAX];
			struct stat st;
			/* (A link is not one: the sieve gives none a rule, and what
			 * it leads to is what a rule reaches or not.) */
			if (snprintf(copy, sizeof(copy), "%s/%s", dir, name) >= (int)sizeof(copy) ||
			    lstat(copy, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
				continue;
			e = fn(copy, of, arg);
		}
		if (d)
			closedir(d);
	}
	free(done);
	return e;
}

/* ---- what git's and ssh's config name ---- */

#define CONFIG_DEPTH 10 /* git's MAX_INCLUDE_DEPTH; ssh's is 16 */
#define CONFIG_FILES 64

struct scan {
	const char *home;
	char *(*getenv_fn)(const char *);
	int (*fn)(const char *path, const char *why, void *arg);
	void *arg;
	struct cordon_strv seen; /* the files read */
	const char *file;        /* the one being read */
	const char *base;        /* ssh: where a relative Include is */
	int depth, err;
};

/* FILE as said: "~/REST" under the home. */
static const char *shown(const struct scan *s, const char *file, char *buf, size_t size)
{
	size_t hn = s->home ? strlen(s->home) : 0;
	if (hn && strncmp(file, s->home, hn) == 0 && file[hn] == '/')
		snprintf(buf, size, "~%s", file + hn);
	else
		snprintf(buf, size, "%s", file);
	return buf;
}

static void report(struct scan *s, const char *path, const char *key)
{
	char why[PATH_MAX + 64], name[PATH_MAX];
	if (s->err < 0 || path[0] != '/')
		return;
	/* (Beneath ~/.ssh: hidden with it.) */
	size_t hn = s->home ? strlen(s->home) : 0;
	if (hn && strncmp(path, s->home, hn) == 0 && strncmp(path + hn, "/.ssh/", 6) == 0)
		return;
	snprintf(why, sizeof(why), "%s: %s", shown(s, s->file, name, sizeof(name)), key);
	int e = s->fn(path, why, s->arg);
	if (e < 0)
		s->err = e;
}

/* Whether FILE is read already (or too many are): else it is noted. */
static bool seen(struct scan *s, const char *file)
{
	if (s->seen.n >= CONFIG_FILES || cordon_strv_contains(&s->seen, file))
		return true;
	if (cordon_strv_push(&s->seen, file) < 0) {
		s->err = -ENOMEM;
		return true;
	}
	return false;
}

/* The next word of the shell text *P into OUT: quotes and backslashes
 * taken away, a leading ~ or $HOME (unquoted; $HOME in double quotes too)
 * as the home. ";", "|" and "&" are words of their own. false at the
 * end. */
static bool shell_word(struct scan *s, const char **p, char *out, size_t size)
{
	const char *c = *p + strspn(*p, " \t\n");
	if (!*c)
		return false;
	size_t n = 0;
	if (strchr(";|&", *c)) {
		snprintf(out, size, "%c", *c);
		*p = c + 1;
		return true;
	}
	char quote = 0;
	for (; *c && (quote || !strchr(" \t\n;|&", *c)); c++) {
		const char *add = NULL;
		if (!quote && (*c == '\'' || *c == '"')) {
			quote = *c;
		} else if (quote && *c == quote) {
			quote = 0;
		} else if (quote != '\'' && *c == '\\' && c[1]) {
			c++;
			if (n + 1 < size)
				out[n++] = *c;
		} else if (n == 0 && !quote && *c == '~' && (c[1] == '/' || !c[1] || c[1] == ' ')) {
			add = s->home;
		} else if (n == 0 && quote != '\'' &&
			   (strncmp(c, "$HOME", 5) == 0 || strncmp(c, "${HOME}", 7) == 0) &&
			   !isalnum((unsigned char)c[c[1] == '{' ? 7 : 5]) &&
			   c[c[1] == '{' ? 7 : 5] != '_') {
			c += c[1] == '{' ? 6 : 4;
			add = s->home;
		} else if (n + 1 < size) {
			out[n++] = *c;
		}
		for (; add && *add; add++)
			if (n + 1 < size)
				out[n++] = *add;
	}
	out[n] = '\0';
	*p = c;
	return true;
}

/* A credential helper VALUE: the --file of each git-credential-store it
 * runs ("store --file F", "!git credential-store --file=F get"). */
static void helper_files(struct scan *s, const char *value)
{
	char w[PATH_MAX];
	const char *p = value[0] == '!' ? value + 1 : value;
	bool store = false, want = false;
	for (bool first = true; s->err >= 0 && shell_word(s, &p, w, sizeof(w)); first = false) {
		size_t n = strlen(w);
		if (want) {
			report(s, w, "credential.helper");
			want = false;
		} else if (strchr(";|&", w[0]) && !w[1]) {
			store = false;
		} else if ((first && value[0] != '!' && strcmp(w, "store") == 0) ||
			   strcmp(w, "credential-store") == 0 ||
			   (n >= 20 && strcmp(w + n - 20, "git-credential-store") == 0)) {
			store = true;
		} else if (store && strcmp(w, "--file") == 0) {
			want = true;
		} else if (store && strncmp(w, "--file=", 7) == 0) {
			/* (The shell leaves a ~ there; git-credential-store
			 * would take it as a directory named so. The home's
			 * meant.) */
			char path[PATH_MAX];
			if (strncmp(w + 7, "~/", 2) == 0 && s->home &&
			    snprintf(path, sizeof(path), "%s%s", s->home, w + 8) <
				    (int)sizeof(path))
				report(s, path, "credential.helper");
			else
				report(s, w + 7, "credential.helper");
		}
	}
}

/* core.sshCommand VALUE: ssh's -i FILE (-iFILE). */
static void ssh_command_keys(struct scan *s, const char *value)
{
	char w[PATH_MAX];
	const char *p = value;
	bool want = false;
	while (s->err >= 0 && shell_word(s, &p, w, sizeof(w))) {
		if (want)
			report(s, w, "core.sshCommand");
		want = strcmp(w, "-i") == 0;
		if (strncmp(w, "-i", 2) == 0 && w[2] && w[2] != '-')
			report(s, w + 2, "core.sshCommand");
	}
}

static void git_file(struct scan *s, const char *file);

static int git_entry(const struct cordon_gitcfg_entry *e, void *arg)
{
	struct scan *s = arg;
	char path[PATH_MAX];
	if (!e->value)
		return s->err;
	if (strcmp(e->key, "path") == 0 && ((strcmp(e->section, "include") == 0 && !e->sub) ||
					    strcmp(e->section, "includeif") == 0)) {
		/* (Whatever its condition holds: any repository's may.) */
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s", s->file);
		char *slash = strrchr(dir, '/');
		if (slash)
			slash[slash == dir] = '\0';
		if (s->depth < CONFIG_DEPTH &&
		    cordon_gitcfg_path(e->value, s->home, dir, path, sizeof(path))) {
			s->depth++;
			git_file(s, path);
			s->depth--;
		}
	} else if (strcmp(e->section, "credential") == 0 && strcmp(e->key, "helper") == 0) {
		helper_files(s, e->value);
	} else if (strcmp(e->section, "http") == 0 &&
		   (strcmp(e->key, "cookiefile") == 0 || strcmp(e->key, "sslkey") == 0 ||
		    strcmp(e->key, "proxysslkey") == 0)) {
		const char *key = e->key[0] == 'c'   ? "http.cookieFile"
				  : e->key[0] == 's' ? "http.sslKey"
						     : "http.proxySSLKey";
		if (cordon_gitcfg_path(e->value, s->home, NULL, path, sizeof(path)))
			report(s, path, key);
	} else if (strcmp(e->section, "core") == 0 && !e->sub &&
		   strcmp(e->key, "sshcommand") == 0) {
		ssh_command_keys(s, e->value);
	}
	return s->err;
}

static void git_file(struct scan *s, const char *file)
{
	if (s->err < 0 || seen(s, file))
		return;
	const char *outer = s->file;
	s->file = file;
	int e = cordon_gitcfg_read(file, git_entry, s);
	if (e == -ENOMEM && s->err >= 0)
		s->err = e;
	s->file = outer;
}

/* An ssh IdentityFile WORD as ssh expands it (tilde_expand_filename, then
 * its tokens and ${VAR}): a token it fills in per connection (%h, %r, %C,
 * ...) as "*", the rest escaped for glob. false where no path is known: a
 * relative one (ssh's current directory), "none", a variable not set. */
static bool identity_path(struct scan *s, const char *word, char *out, size_t size)
{
	size_t n = 0;
	bool wild = false;
	const char *c = word;
	char lit[PATH_MAX * 2];
	size_t ln = 0;
	if (strcasecmp(word, "none") == 0)
		return false;
	if (c[0] == '~') {
		if (c[1] && c[1] != '/')
			return false; /* ~user: not the session's */
		if (!s->home)
			return false;
		ln = (size_t)snprintf(lit, sizeof(lit), "%s", s->home);
		c++;
	}
	for (; *c && ln + 2 < sizeof(lit); c++) {
		if (*c == '%' && c[1]) {
			c++;
			if (*c == '%') {
				lit[ln++] = '%';
			} else if (*c == 'd' && s->home) {
				ln += (size_t)snprintf(lit + ln, sizeof(lit) - ln, "%s", s->home);
			} else {
				lit[ln++] = '\x01'; /* (a token: "*" below) */
				wild = true;
			}
		} else if (c[0] == '$' && c[1] == '{') {
			const char *end = strchr(c, '}');
			char var[128];
			if (!end || (size_t)(end - c - 2) >= sizeof(var))
				return false;
			snprintf(var, sizeof(var), "%.*s", (int)(end - c - 2), c + 2);
			const char *v = s->getenv_fn ? s->getenv_fn(var) : NULL;
			if (!v)
				return false;
			ln += (size_t)snprintf(lit + ln, sizeof(lit) - ln, "%s", v);
			c = end;
		} else {
			lit[ln++] = *c;
		}
		if (ln >= sizeof(lit) - 1)
			return false;
	}
	lit[ln] = '\0';
	if (lit[0] != '/')
		return false;
	for (size_t i = 0; i < ln; i++) {
		if (n + 3 >= size)
			return false;
		if (lit[i] == '\x01') {
			out[n++] = '*';
		} else {
			if (wild && strchr("*?[\\", lit[i]))
				out[n++] = '\\';
			out[n++] = lit[i];
		}
	}
	out[n] = '\0';
	return true;
}

/* The next word of an ssh config line (readconf.c's argv_split: quotes,
 * a backslash, "#" starting a word ends the line); false at the end. */
static bool ssh_word(const char **p, char *out, size_t size)
{
	const char *c = *p + strspn(*p, " \t\r\n");
	if (!*c || *c == '#')
		return false;
	size_t n = 0;
	char quote = 0;
	for (; *c && (quote || !strchr(" \t\r\n", *c)); c++) {
		if (!quote && (*c == '"' || *c == '\''))
			quote = *c;
		else if (quote && *c == quote)
			quote = 0;
		else if (*c == '\\' && c[1] && quote != '\'') {
			if (n + 1 < size)
				out[n++] = *++c;
		} else if (n + 1 < size)
			out[n++] = *c;
	}
	out[n] = '\0';
	*p = c;
	return true;
}

static void ssh_file(struct scan *s, const char *file);

static void ssh_line(struct scan *s, const char *line)
{
	const char *c = line + strspn(line, " \t");
	size_t kn = strcspn(c, " \t=\r\n");
	if (!kn || *c == '#')
		return;
	char key[32];
	snprintf(key, sizeof(key), "%.*s", (int)(kn < sizeof(key) ? kn : sizeof(key) - 1), c);
	c += kn;
	c += strspn(c, " \t");
	if (*c == '=')
		c++;
	char w[PATH_MAX], path[PATH_MAX * 2];
	if (strcasecmp(key, "identityfile") == 0) {
		if (ssh_word(&c, w, sizeof(w)) && identity_path(s, w, path, sizeof(path)))
			report(s, path, "IdentityFile");
		return;
	}
	if (strcasecmp(key, "include") != 0 || s->depth >= 16)
		return;
	/* (Inside a Host or Match block too: some host's may be used.) */
	while (s->err >= 0 && ssh_word(&c, w, sizeof(w))) {
		if (w[0] == '~' && w[1] == '/' && s->home)
			snprintf(path, sizeof(path), "%s%s", s->home, w + 1);
		else if (w[0] == '/')
			snprintf(path, sizeof(path), "%s", w);
		else if (w[0] != '~')
			snprintf(path, sizeof(path), "%s/%s", s->base, w);
		else
			continue;
		glob_t g = {0};
		if (glob(path, 0, NULL, &g) == GLOB_NOSPACE)
			s->err = -ENOMEM;
		s->depth++;
		for (size_t i = 0; s->err >= 0 && i < g.gl_pathc; i++)
			ssh_file(s, g.gl_pathv[i]);
		s->depth--;
		globfree(&g);
	}
}

static void ssh_file(struct scan *s, const char *file)
{
	if (s->err < 0 || seen(s, file))
		return;
	size_t len = 0;
	cleanup_free char *text = cordon_read_regular(file, (size_t)1 << 20, &len);
	if (!text) {
		if (errno == ENOMEM)
			s->err = -ENOMEM;
		return;
	}
	const char *outer = s->file;
	s->file = file;
	for (char *line = text; s->err >= 0 && line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		ssh_line(s, line);
		line = nl ? nl + 1 : NULL;
	}
	s->file = outer;
}

int cordon_config_secrets(const char *home, char *(*getenv_fn)(const char *),
			  int (*fn)(const char *path, const char *why, void *arg), void *arg)
{
	struct scan s = {.home = home, .getenv_fn = getenv_fn, .fn = fn, .arg = arg};
	char path[PATH_MAX];
	const char *xdg = getenv_fn ? getenv_fn("XDG_CONFIG_HOME") : NULL;
	const char *global = getenv_fn ? getenv_fn("GIT_CONFIG_GLOBAL") : NULL;
	const char *system = getenv_fn ? getenv_fn("GIT_CONFIG_SYSTEM") : NULL;
	/* (All of them, whichever git would read: reading more only hides
	 * more.) */
	if (home && snprintf(path, sizeof(path), "%s/.gitconfig", home) < (int)sizeof(path))
		git_file(&s, path);
	if (xdg && xdg[0] == '/' &&
	    snprintf(path, sizeof(path), "%s/git/config", xdg) < (int)sizeof(path))
		git_file(&s, path);
	if (home && snprintf(path, sizeof(path), "%s/.config/git/config", home) < (int)sizeof(path))
		git_file(&s, path);
	if (global && global[0] == '/')
		git_file(&s, global);
	git_file(&s, "/etc/gitconfig");
	if (system && system[0] == '/')
		git_file(&s, system);
	if (home && snprintf(path, sizeof(path), "%s/.ssh", home) < (int)sizeof(path)) {
		char file[PATH_MAX + 8];
		snprintf(file, sizeof(file), "%s/config", path);
		s.base = path;
		ssh_file(&s, file);
	}
	s.base = "/etc/ssh";
	ssh_file(&s, "/etc/ssh/ssh_config");
	cordon_strv_free(&s.seen);
	return s.err;
}
