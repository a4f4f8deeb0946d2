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
#include "cordon/sweep.h"
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

/* The length of a date or time stamp at S ("2024-05-01", "20240501",
 * "2024-05-01T10:00", "1"): digits, with "-", "_", ".", ":" between
 * them and a "T" between digits; 0 where S starts with none. It ends on
 * a digit. */
static size_t stamp_len(const char *s)
{
	size_t n = 0, end = 0;
	for (;;) {
		if (isdigit((unsigned char)s[n])) {
			end = ++n;
		} else if (n && s[n] && (strchr("-_.:", s[n]) || s[n] == 'T') &&
			   isdigit((unsigned char)s[n + 1])) {
			n++; /* (after a digit: end is n) */
		} else {
			return end;
		}
	}
}

/* Whether what follows ENTRY in NAME says a copy: "~", ".~1~", "-" alone,
 * a separator and a date or a number, then nothing or a copy's suffix
 * again (.1, .2024-05-01, -20240501.bak), or a separator and a word from
 * the lists, then anything but a letter (.bak, .bak2, .old-2024,
 * " copy", " (1)"). */
static bool copy_suffix(const char *r)
{
	static const char *const words[] = {"bak", "backup", "old", "orig", "save", "sav", "copy",
					    "prev", "tmp", "new", "dpkg-", "rpmsave", "rpmnew",
					    "rpmorig", "ucf-", "pacsave", "pacnew", "swp",
					    /* SQLite's journal, write-ahead log and its
					     * index beside a store hold its pages
					     * (Cookies-journal: round 58a F-E). */
					    "journal", "wal", "shm", NULL};
	if (r[0] == '~' || (r[0] == '.' && r[1] == '~') || strcmp(r, "-") == 0)
		return true;
	if (r[0] == ' ' && r[1] == '(' && isdigit((unsigned char)r[2]))
		return true;
	if (!r[0] || !strchr(".-_ ", r[0]))
		return false;
	r++;
	size_t d = stamp_len(r);
	if (d) /* auth.json.1, auth.json.2024-05-01 (cp f f.$(date +%F)) */
		return !r[d] || copy_suffix(r + d);
	for (size_t i = 0; words[i]; i++) {
		size_t n = strlen(words[i]);
		if (strncasecmp(r, words[i], n) == 0 &&
		    (words[i][n - 1] == '-' || !isalpha((unsigned char)r[n])))
			return true;
	}
	return false;
}

/* What an archive of a file or a directory adds to its name (gh.tar.gz,
 * auth.json.gz): its length at the end of NAME, else 0. (Not .gpg or
 * .age: what they hold is no secret without their key.) */
static size_t archive_suffix(const char *name)
{
	static const char *const exts[] = {
		".tar.gz", ".tar.xz", ".tar.bz2", ".tar.zst", ".tar.lz", ".tgz",  ".txz",
		".tbz2",   ".tbz",    ".tzst",    ".tar",     ".zip",    ".7z",   ".rar",
		".gz",     ".xz",     ".bz2",     ".zst",     ".lz4",    ".cpio", NULL};
	size_t nn = strlen(name);
	for (size_t i = 0; exts[i]; i++) {
		size_t n = strlen(exts[i]);
		if (nn > n && strcasecmp(name + nn - n, exts[i]) == 0)
			return n;
	}
	return 0;
}

/* NAME copies ENTRY with the copy's mark before ENTRY's extension:
 * auth.bak.json, auth-2024-05-01.json, "auth (1).json" (a browser's
 * download), "auth copy.json" (the Finder's copy). */
static bool marked_before_extension(const char *entry, const char *name)
{
	const char *dot = strrchr(entry, '.');
	if (!dot || dot == entry || !dot[1])
		return false;
	size_t stem = (size_t)(dot - entry), ext = strlen(dot), nn = strlen(name);
	if (nn <= stem + ext + 1 || memcmp(name, entry, stem) != 0 ||
	    strcmp(name + nn - ext, dot) != 0)
		return false;
	char middle[NAME_MAX + 1];
	size_t mn = nn - stem - ext;
	if (mn >= sizeof(middle))
		return false;
	memcpy(middle, name + stem, mn);
	middle[mn] = '\0';
	return copy_suffix(middle);
}

static bool backup_name(const char *entry, const char *name, bool archived)
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
	if (memcmp(name, entry, en) == 0 &&
	    ((entry[0] == '.' && swap_suffix(name + en)) || copy_suffix(name + en)))
		return true;
	if (marked_before_extension(entry, name))
		return true;
	/* An archive of ENTRY or of a copy of it: gh.tar.gz,
	 * gh-2024-05-01.tgz, auth.json.bak.gz. */
	size_t a = archived ? 0 : archive_suffix(name);
	if (!a || nn - a < en)
		return false;
	char rest[NAME_MAX + 1];
	if (nn - a >= sizeof(rest))
		return false;
	memcpy(rest, name, nn - a);
	rest[nn - a] = '\0';
	return strcmp(rest, entry) == 0 || backup_name(entry, rest, true);
}

bool cordon_backup_name(const char *entry, const char *name)
{
	return backup_name(entry, name, false);
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
	bool unknown;            /* the last shell word has a parameter not set */
	char realhome[PATH_MAX]; /* the home, canonical */
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

/* The shell's operators: each a word of its own (and "$(", "`": what
 * follows is a command's words). */
#define SHELL_OPS ";|&()<>`"

/* A parameter the shell expands at C ("$NAME", "${NAME}", "${NAME:-WORD}",
 * "${NAME-WORD}"), its value into OUT: HOME as the home, another from
 * GETENV_FN (where git runs a helper, in the session, it has cordon's
 * environment), WORD's ~ and $HOME where it is unset. The length read,
 * 0 where C starts none ("$@", "$("); s->unknown where it is unset and
 * has no WORD. */
static size_t shell_param(struct scan *s, const char *c, char *out, size_t size)
{
	bool brace = c[1] == '{';
	const char *name = c + 1 + brace;
	size_t nn = 0;
	if (c[0] != '$' || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
		return 0;
	while (isalnum((unsigned char)name[nn]) || name[nn] == '_')
		nn++;
	char var[128];
	if (nn >= sizeof(var))
		return 0;
	snprintf(var, sizeof(var), "%.*s", (int)nn, name);
	const char *v = strcmp(var, "HOME") == 0 ? s->home
			: s->getenv_fn           ? s->getenv_fn(var)
						 : NULL;
	const char *end = name + nn, *word = NULL;
	size_t wn = 0;
	if (brace) {
		bool colon = end[0] == ':';
		if (end[colon] == '-') {
			word = end + colon + 1;
			wn = strcspn(word, "}");
			if (v && colon && !v[0])
				v = NULL;
			end = word + wn;
		}
		if (*end != '}')
			return 0;
		end++;
	}
	out[0] = '\0';
	if (v) {
		snprintf(out, size, "%s", v);
	} else if (word) {
		char inner[PATH_MAX] = "";
		const char *w = word;
		size_t r;
		if (w[0] == '~' && (wn == 1 || w[1] == '/') && s->home) {
			snprintf(inner, sizeof(inner), "%s", s->home);
			w++;
		} else if ((r = shell_param(s, w, inner, sizeof(inner))) && r <= wn) {
			w += r;
		} else {
			inner[0] = '\0';
		}
		snprintf(out, size, "%s%.*s", inner, (int)(wn - (size_t)(w - word)), w);
	} else {
		s->unknown = true;
	}
	return (size_t)(end - c);
}

/* The next word of the shell text *P into OUT: quotes and backslashes
 * taken away, a leading ~ (unquoted) as the home, a parameter (unquoted
 * or in double quotes: "--file=$HOME/x", "-i${KEYS}/k") as shell_param
 * says; s->unknown where one is unset. Each of SHELL_OPS is a word of its
 * own. false at the end. */
static bool shell_word(struct scan *s, const char **p, char *out, size_t size)
{
	const char *c = *p + strspn(*p, " \t\n");
	s->unknown = false;
	if (!*c)
		return false;
	size_t n = 0;
	if (strchr(SHELL_OPS, *c)) {
		snprintf(out, size, "%c", *c);
		*p = c + 1;
		return true;
	}
	char quote = 0, value[PATH_MAX];
	for (; *c && (quote || !strchr(" \t\n" SHELL_OPS, *c)); c++) {
		const char *add = NULL;
		size_t len;
		if (!quote && (*c == '\'' || *c == '"')) {
			quote = *c;
		} else if (quote && *c == quote) {
			quote = 0;
		} else if (quote != '\'' && *c == '\\' && c[1]) {
			c++;
			if (n + 1 < size)
				out[n++] = *c;
		} else if (n == 0 && !quote && *c == '~' &&
			   (c[1] == '/' || !c[1] || strchr(" \t\n" SHELL_OPS, c[1]))) {
			add = s->home;
		} else if (quote != '\'' && (len = shell_param(s, c, value, sizeof(value)))) {
			c += len - 1;
			add = value;
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

static void text_paths(struct scan *s, const char *text, const char *self, const char *key,
		       int depth);

/* SCRIPT (canonical), a program under the home that a helper runs: the
 * files its text names, as text_paths says, where it is a script (or,
 * ANY, whatever it holds: a file a helper names that no one may run is
 * read too, as an interpreter may be what runs it, "!sh ~/bin/cred.sh":
 * round 54d F4). */
static void script_paths(struct scan *s, const char *script, const char *key, bool any)
{
	if (s->err < 0 || seen(s, script))
		return;
	size_t len = 0;
	cleanup_free char *text = cordon_read_regular(script, (size_t)64 << 10, &len);
	if (!text) {
		if (errno == ENOMEM)
			s->err = -ENOMEM;
		return;
	}
	if ((any || strncmp(text, "#!", 2) == 0) && strlen(text) == len)
		text_paths(s, text, script, key, 1);
}

/* PATH, named in a helper's text: hidden where it is a regular file under
 * the home that is not a program (a token the helper prints, or a script
 * an interpreter runs: read too), read where it is a script there (at
 * DEPTH 0: what a script names is not followed further), else nothing (the system's files, a directory, what does not
 * exist). SELF: the script being read. */
static void named_file(struct scan *s, const char *path, const char *self, const char *key,
		       int depth)
{
	char real[PATH_MAX];
	struct stat st;
	size_t hn = strlen(s->realhome);
	if (!hn || !realpath(path, real) || stat(real, &st) < 0 || !S_ISREG(st.st_mode) ||
	    strncmp(real, s->realhome, hn) != 0 || real[hn] != '/' ||
	    (self && strcmp(real, self) == 0))
		return;
	if (st.st_mode & 0111) {
		if (depth == 0)
			script_paths(s, real, key, false);
		return;
	}
	report(s, path, key);
	if (strcmp(real, path) != 0)
		report(s, real, key);
	if (depth == 0)
		script_paths(s, real, key, true);
}

/* The files TEXT (a helper's shell text, a script) names as a path: each
 * ~/..., $HOME/..., ${XDG_CONFIG_HOME:-$HOME/.config}/... or /... that
 * starts a word, or follows "=", ":", "(", "<", ... (password=$(cat
 * ~/.config/tok/pat), --file=$HOME/x), to named_file. Not a name in
 * quotes with a blank in it. */
static void text_paths(struct scan *s, const char *text, const char *self, const char *key,
		       int depth)
{
	static const char ends[] = " \t\r\n\"';|&()<>`,}";
	for (const char *c = text; s->err >= 0 && *c; c++) {
		if (c != text && !strchr(" \t\r\n\"'=:;|&()<>`{,", c[-1]))
			continue;
		char path[PATH_MAX];
		size_t n = 0;
		const char *q = c;
		if (q[0] == '~' && q[1] == '/' && s->home) {
			n = (size_t)snprintf(path, sizeof(path), "%s", s->home);
			q++;
		} else if (q[0] == '$') {
			size_t r = shell_param(s, q, path, sizeof(path));
			bool unknown = s->unknown;
			s->unknown = false;
			if (!r || unknown || path[0] != '/' || q[r] != '/')
				continue;
			n = strlen(path);
			q += r;
		} else if (q[0] != '/') {
			continue;
		}
		size_t k = strcspn(q, ends);
		if (n + k < sizeof(path)) {
			memcpy(path + n, q, k);
			path[n + k] = '\0';
			named_file(s, path, self, key, depth);
		}
		if (q + k > c + 1)
			c = q + k - 1;
	}
}

/* A helper's program WORD, run as git runs it: an absolute path as
 * it is, a bare NAME (with PREFIX: git-credential-NAME) from PATH; read
 * where it is a script under the home (text_paths). */
static void helper_program(struct scan *s, const char *word, const char *prefix, const char *key)
{
	if (word[0] == '/') {
		named_file(s, word, NULL, key, 0);
		return;
	}
	const char *path = s->getenv_fn ? s->getenv_fn("PATH") : NULL;
	if (!word[0] || strchr(word, '/') || !path)
		return;
	for (const char *d = path; s->err >= 0 && *d;) {
		size_t dn = strcspn(d, ":");
		char file[PATH_MAX];
		struct stat st;
		if (dn && d[0] == '/' &&
		    (size_t)snprintf(file, sizeof(file), "%.*s/%s%s", (int)dn, d, prefix, word) <
			    sizeof(file) &&
		    stat(file, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111)) {
			named_file(s, file, NULL, key, 0);
			return; /* (the first found is the one run) */
		}
		d += dn;
		d += *d == ':';
	}
}

/* A credential helper VALUE: the --file of each git-credential-store it
 * runs ("store --file F", "!git credential-store --file=F get"); a shell
 * snippet's ("!f() { echo password=$(cat ~/tok); }; f") and a script's
 * token files (text_paths: round 51d F3 read both). */
static void helper_files(struct scan *s, const char *value)
{
	char w[PATH_MAX];
	const char *p = value[0] == '!' ? value + 1 : value;
	bool store = false, want = false;
	for (bool first = true; s->err >= 0 && shell_word(s, &p, w, sizeof(w)); first = false) {
		size_t n = strlen(w);
		if (first && !s->unknown)
			helper_program(s, w, value[0] == '!' ? "" : "git-credential-",
				       "credential.helper");
		if (want) {
			if (!s->unknown)
				report(s, w, "credential.helper");
			want = false;
		} else if (strchr(SHELL_OPS, w[0]) && !w[1]) {
			store = false;
		} else if ((first && value[0] != '!' && strcmp(w, "store") == 0) ||
			   strcmp(w, "credential-store") == 0 ||
			   (n >= 20 && strcmp(w + n - 20, "git-credential-store") == 0)) {
			store = true;
		} else if (store && strcmp(w, "--file") == 0) {
			want = true;
		} else if (store && strncmp(w, "--file=", 7) == 0 && !s->unknown) {
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
	if (value[0] == '!')
		text_paths(s, value + 1, NULL, "credential.helper", 0);
}

static bool identity_path(struct scan *s, const char *word, char *out, size_t size);
static bool ssh_word(const char **p, char *out, size_t size);
static void ssh_file(struct scan *s, const char *file);

/* What ARG, the argument of the option OPT of ssh (or of sshpass, -f),
 * names as a key: -i's identity, -o's IdentityFile (the option as a line
 * of ssh's config: "IdentityFile=F", "IdentityFile F"), -F's config. */
static void ssh_option(struct scan *s, bool sshpass, char opt, const char *arg, const char *key)
{
	char path[PATH_MAX * 2], w[PATH_MAX];
	if (sshpass) {
		if (opt == 'f' && identity_path(s, arg, path, sizeof(path)))
			report(s, path, key);
	} else if (opt == 'i') {
		if (identity_path(s, arg, path, sizeof(path)))
			report(s, path, key);
	} else if (opt == 'o') {
		const char *c = arg + strspn(arg, " \t");
		size_t kn = strcspn(c, " \t=");
		if (kn != 12 || strncasecmp(c, "identityfile", 12) != 0)
			return;
		c += kn;
		c += strspn(c, " \t");
		c += *c == '=';
		if (ssh_word(&c, w, sizeof(w)) && identity_path(s, w, path, sizeof(path)))
			report(s, path, key);
	} else if (opt == 'F' && arg[0] == '/') {
		char base[PATH_MAX];
		const char *outer = s->base;
		snprintf(base, sizeof(base), "%s/.ssh", s->home ? s->home : "");
		s->base = base;
		ssh_file(s, arg);
		s->base = outer;
	}
}

/* An ssh command VALUE (core.sshCommand, $GIT_SSH_COMMAND), its words as
 * the shell splits them and its options as ssh's getopt takes them
 * (-i F, -iF, -o IdentityFile=F, -oIdentityFile=F, -o "IdentityFile F",
 * -F F, in a cluster: -vi F), through env and sshpass -f F; KEY says
 * which. */
static void ssh_command(struct scan *s, const char *value, const char *key)
{
	static const char ssh_args[] = "bcDeEFiIJlLmoOpPQRSwWB", pass_args[] = "fdpPe";
	char w[PATH_MAX];
	const char *p = value;
	enum { COMMAND, SSH, SSHPASS } at = COMMAND;
	char want = 0;
	while (s->err >= 0 && shell_word(s, &p, w, sizeof(w))) {
		bool unknown = s->unknown;
		if (strchr(SHELL_OPS, w[0]) && !w[1]) {
			at = COMMAND, want = 0;
			continue;
		}
		if (want) {
			if (!unknown)
				ssh_option(s, at == SSHPASS, want, w, key);
			want = 0;
			continue;
		}
		if (at == SSHPASS && w[0] != '-')
			at = COMMAND; /* (sshpass's command) */
		if (at == COMMAND) {
			const char *base = strrchr(w, '/');
			base = base ? base + 1 : w;
			if (w[0] != '-' && strchr(w, '='))
				continue; /* VAR=value */
			if (strcmp(base, "env") != 0 && strcmp(base, "exec") != 0 &&
			    strcmp(base, "command") != 0)
				at = strcmp(base, "sshpass") == 0 ? SSHPASS : SSH;
			continue;
		}
		if (w[0] != '-' || strcmp(w, "--") == 0)
			continue;
		for (const char *o = w + 1; *o; o++) {
			if (!strchr(at == SSHPASS ? pass_args : ssh_args, *o))
				continue; /* a flag */
			if (o[1] && !unknown)
				ssh_option(s, at == SSHPASS, *o, o + 1, key);
			else if (!o[1])
				want = *o;
			break;
		}
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
		    strcmp(e->key, "proxysslkey") == 0 || strcmp(e->key, "sslcert") == 0 ||
		    strcmp(e->key, "proxysslcert") == 0)) {
		/* (A client certificate too: a .p12 holds its key, and so
		 * may a PEM; where git reads the key from elsewhere, the
		 * certificate is of no use without it.) */
		const char *key = strcmp(e->key, "cookiefile") == 0    ? "http.cookieFile"
				  : strcmp(e->key, "sslkey") == 0      ? "http.sslKey"
				  : strcmp(e->key, "proxysslkey") == 0 ? "http.proxySSLKey"
				  : strcmp(e->key, "sslcert") == 0     ? "http.sslCert"
								       : "http.proxySSLCert";
		if (cordon_gitcfg_path(e->value, s->home, NULL, path, sizeof(path)))
			report(s, path, key);
	} else if (strcmp(e->section, "credential") == 0 &&
		   strcmp(e->key, "plaintextstorepath") == 0) {
		/* (Git Credential Manager's store, credentialStore =
		 * plaintext, moved from ~/.gcm/store: round 53c F2.) */
		if (cordon_gitcfg_path(e->value, s->home, NULL, path, sizeof(path)))
			report(s, path, "credential.plaintextStorePath");
	} else if (strcmp(e->section, "core") == 0 && !e->sub &&
		   strcmp(e->key, "sshcommand") == 0) {
		ssh_command(s, e->value, "core.sshCommand");
	} else if (strcmp(e->section, "core") == 0 && !e->sub && strcmp(e->key, "askpass") == 0) {
		text_paths(s, e->value, NULL, "core.askPass", 0);
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

/* What cordon's environment names as a key (git and the cloud tools in
 * the session have it; round 51d F3 read two): $GIT_SSH_COMMAND as
 * core.sshCommand is read, the programs $GIT_ASKPASS and $SSH_ASKPASS as
 * a helper's script is, and the files the variables below name. */
static void env_secrets(struct scan *s)
{
	static const char *const files[] = {"GOOGLE_APPLICATION_CREDENTIALS",
					    "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE",
					    "AWS_WEB_IDENTITY_TOKEN_FILE",
					    "AZURE_CLIENT_CERTIFICATE_PATH",
					    "AZURE_FEDERATED_TOKEN_FILE",
					    "GCM_PLAINTEXT_STORE_PATH",
					    NULL};
	const char *v;
	if (!s->getenv_fn)
		return;
	s->file = "cordon's environment";
	if ((v = s->getenv_fn("GIT_SSH_COMMAND")))
		ssh_command(s, v, "$GIT_SSH_COMMAND");
	if ((v = s->getenv_fn("GIT_ASKPASS")))
		text_paths(s, v, NULL, "$GIT_ASKPASS", 0);
	if ((v = s->getenv_fn("SSH_ASKPASS")))
		text_paths(s, v, NULL, "$SSH_ASKPASS", 0);
	for (size_t i = 0; files[i] && s->err >= 0; i++) {
		char key[64];
		v = s->getenv_fn(files[i]);
		/* (Not a device or the kernel's: /dev/null names none.) */
		if (!v || v[0] != '/' || strncmp(v, "/dev/", 5) == 0 ||
		    strncmp(v, "/proc/", 6) == 0)
			continue;
		snprintf(key, sizeof(key), "$%s", files[i]);
		report(s, v, key);
	}
	s->file = NULL;
}

/* The config files of the repository git finds from DIR (the first .git
 * at or above it): its common config and the worktree's config.worktree
 * (round 53c F2: credential.helper = store --file=... set with git config
 * --local). */
static void repo_files(struct scan *s, const char *dir)
{
	char at[PATH_MAX], dotgit[PATH_MAX + 8];
	if (!dir || dir[0] != '/' || strlen(dir) >= sizeof(at))
		return;
	snprintf(at, sizeof(at), "%s", dir);
	for (;;) {
		struct stat st;
		snprintf(dotgit, sizeof(dotgit), "%s/.git", strcmp(at, "/") ? at : "");
		if (lstat(dotgit, &st) == 0)
			break;
		char *slash = strrchr(at, '/');
		if (!slash || slash == at)
			return;
		*slash = '\0';
	}
	cleanup_free char *gitdir = cordon_git_dir_of(dotgit);
	char path[PATH_MAX + 32];
	if (gitdir && cordon_git_common_config(gitdir, path, sizeof(path)))
		git_file(s, path);
	if (gitdir &&
	    (size_t)snprintf(path, sizeof(path), "%s/config.worktree", gitdir) < sizeof(path))
		git_file(s, path);
}

int cordon_config_secrets(const char *home, const char *project,
			  const struct cordon_strv *config_homes, char *(*getenv_fn)(const char *),
			  int (*fn)(const char *path, const char *why, void *arg), void *arg)
{
	struct scan s = {.home = home, .getenv_fn = getenv_fn, .fn = fn, .arg = arg};
	char path[PATH_MAX];
	if (home && !realpath(home, s.realhome))
		snprintf(s.realhome, sizeof(s.realhome), "%s", home);
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
	for (size_t i = 0; config_homes && i < config_homes->n; i++)
		if (snprintf(path, sizeof(path), "%s/git/config", config_homes->v[i]) <
		    (int)sizeof(path))
			git_file(&s, path);
	repo_files(&s, project);
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
	env_secrets(&s);
	cordon_strv_free(&s.seen);
	return s.err;
}
