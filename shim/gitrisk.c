/* What a git directory a session made would run outside (see cordon/sweep.h):
 * the config keys that name a program, and the hooks. Read once the
 * session is over, when nothing inside can change them any more. */
#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cordon/guard.h"
#include "cordon/sweep.h"
#include "util.h"

/* "section.key" of git config keys that run a program; a "*" stands for
 * a subsection ([filter "lfs"] clean = ...). */
static const char *const running[] = {"pager.*", /* [pager] log = CMD: any key; see matches() */
				      "interactive.difffilter",
				      "difftool.*.cmd",
				      "mergetool.*.cmd",
				      "core.alternaterefscommand",
				      "trailer.*.command",
				      "trailer.*.cmd",
				      "gpg.ssh.defaultkeycommand",
				      "submodule.*.update",
				      "hook.*.command",
				      "core.fsmonitor",
				      "core.hookspath",
				      "core.sshcommand",
				      "core.pager",
				      "core.editor",
				      "core.askpass",
				      "core.gitproxy",
				      "sequence.editor",
				      "diff.external",
				      "diff.*.textconv",
				      "diff.*.command",
				      "filter.*.clean",
				      "filter.*.smudge",
				      "filter.*.process",
				      "merge.*.driver",
				      "credential.helper",
				      "credential.*.helper",
				      "gpg.program",
				      "gpg.*.program",
				      "include.path",
				      "includeif.*.path",
				      "uploadpack.packobjectshook",
				      "remote.*.uploadpack",
				      "remote.*.receivepack",
				      NULL};

static bool matches(const char *section, bool sub, const char *key)
{
	char full[160];
	if (!sub && strcasecmp(section, "pager") == 0)
		return true;
	for (size_t i = 0; running[i]; i++) {
		const char *pat = running[i];
		if (strcmp(pat, "pager.*") == 0)
			continue;
		const char *star = strstr(pat, ".*.");
		if (star) {
			if (!sub)
				continue;
			snprintf(full, sizeof(full), "%.*s.%s", (int)(star - pat), pat, star + 3);
		} else {
			if (sub)
				continue;
			snprintf(full, sizeof(full), "%s", pat);
		}
		size_t sn = strlen(section);
		if (strncasecmp(full, section, sn) == 0 && full[sn] == '.' &&
		    strcasecmp(full + sn + 1, key) == 0)
			return true;
	}
	return false;
}

/* WHAT appended to the list OUT ("a, b"), once, its unprintable bytes as
 * "?" (a hook's name is the session's: no escape sequence reaches the
 * terminal). */
static void add(char *out, size_t size, const char *what)
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

/* The keys of CONFIG that run a program, into OUT ("core.fsmonitor, ..."):
 * a small reader (sections, subsections, "key = value" and bare keys). */
static void config_risks(const char *config, char *out, size_t size)
{
	FILE *f = cordon_fopen_regular(config);
	if (!f)
		return;
	char line[1024], section[64] = "";
	bool sub = false;
	/* At most a MiB of it: git would read more, and be told less. */
	for (int lines = 0; lines < 1024 && fgets(line, sizeof(line), f); lines++) {
		char *s = line;
		if (lines == 0 && strncmp(s, "\xef\xbb\xbf", 3) == 0)
			s += 3; /* a byte order mark, which git skips */
		s += strspn(s, " \t");
		if (*s == '[') {
			size_t n = strcspn(s + 1, " \t\"]");
			snprintf(section, sizeof(section), "%.*s", (int)n, s + 1);
			sub = s[1 + n] == ' ' || s[1 + n] == '\t' || s[1 + n] == '"' ||
			      strchr(section, '.');
			if (strchr(section, '.')) /* [section.sub] */
				*strchr(section, '.') = '\0';
			/* A key may follow on the same line: "[core] fsmonitor = x". */
			char *end = strchr(s, ']');
			if (!end)
				continue;
			s = end + 1 + strspn(end + 1, " \t");
		}
		if (!isalpha((unsigned char)*s) || !section[0])
			continue;
		char key[64];
		size_t k = 0;
		while (k + 1 < sizeof(key) && (isalnum((unsigned char)s[k]) || s[k] == '-'))
			key[k] = s[k], k++;
		key[k] = '\0';
		if (!matches(section, sub, key))
			continue;
		char what[160];
		snprintf(what, sizeof(what), sub ? "%s.*.%s" : "%s.%s", section, key);
		for (char *c = what; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		add(out, size, what);
	}
	(void)fclose(f); /* read only */
}

void cordon_git_risks(const char *dotgit, char *out, size_t size)
{
	out[0] = '\0';
	char path[PATH_MAX + 32];
	struct stat st;
	cleanup_free char *linked = NULL, *shared = NULL;
	if (stat(dotgit, &st) == 0 && S_ISREG(st.st_mode)) {
		/* A .git file: the git dir it names, relative to its directory. */
		char base[PATH_MAX];
		snprintf(base, sizeof(base), "%s", dotgit);
		char *slash = strrchr(base, '/');
		if (slash)
			*slash = '\0';
		if ((linked = cordon_git_link_file(dotgit, "gitdir: ", base)))
			dotgit = linked;
	}
	snprintf(path, sizeof(path), "%s/config", dotgit);
	char keys[512] = "";
	config_risks(path, keys, sizeof(keys));
	snprintf(path, sizeof(path), "%s/config.worktree", dotgit);
	config_risks(path, keys, sizeof(keys));
	/* A linked worktree's git dir: the config and hooks are in the
	 * common dir its commondir file names. */
	snprintf(path, sizeof(path), "%s/commondir", dotgit);
	if ((shared = cordon_git_link_file(path, "", dotgit))) {
		snprintf(path, sizeof(path), "%s/config", shared);
		config_risks(path, keys, sizeof(keys));
		dotgit = shared;
	}
	char hooks[512] = "";
	snprintf(path, sizeof(path), "%s/hooks", dotgit);
	DIR *d = opendir(path);
	int seen = 0;
	for (struct dirent *de; d && seen++ < 256 && (de = readdir(d));) {
		size_t n = strlen(de->d_name);
		if (de->d_name[0] == '.' || (n > 7 && strcmp(de->d_name + n - 7, ".sample") == 0))
			continue;
		add(hooks, sizeof(hooks), de->d_name);
	}
	if (d)
		closedir(d);
	if (keys[0] && hooks[0])
		snprintf(out, size, "its config sets %s, and it has hooks (%s)", keys, hooks);
	else if (keys[0])
		snprintf(out, size, "its config sets %s", keys);
	else if (hooks[0])
		snprintf(out, size, "it has hooks (%s)", hooks);
}
