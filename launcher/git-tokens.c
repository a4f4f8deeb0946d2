/* A credential written in a git config the session reads (round 54d F3):
 * git needs the file, so it cannot be hidden, and a token in a remote's
 * URL, in an insteadOf base or in an Authorization header is then the
 * session's to read. Said once a launch, a line a file, naming the key;
 * nothing where the file is hidden (the user chose to keep git from it). */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cordon/gitconfig.h"
#include "cordon/policy.h"
#include "cordon/sweep.h"
#include "launcher.h"

/* Whether the URL S names a credential in its user part: a password
 * ("user:pass@"), or a token standing as the user ("ghp_...@"). */
static bool url_has_secret(const char *s)
{
	const char *scheme = s ? strstr(s, "://") : NULL;
	if (!scheme)
		return false;
	const char *from = scheme + 3, *end = from + strcspn(from, "/?#");
	const char *at = NULL;
	for (const char *c = from; c < end; c++)
		if (*c == '@')
			at = c;
	if (!at)
		return false;
	if (memchr(from, ':', (size_t)(at - from)))
		return true;
	/* A user that is a token: long, and of a token's letters. */
	size_t n = (size_t)(at - from);
	size_t word = 0;
	while (word < n &&
	       (isalnum((unsigned char)from[word]) || from[word] == '_' || from[word] == '-'))
		word++;
	static const char *const prefixes[] = {"ghp_",           "gho_",        "ghs_",
					       "ghu_",           "github_pat_", "glpat-",
					       "x-access-token", "oauth2",      NULL};
	for (size_t i = 0; prefixes[i]; i++)
		if (strncmp(from, prefixes[i], strlen(prefixes[i])) == 0)
			return true;
	return word == n && n >= 32;
}

struct token_look {
	char key[160]; /* the first such key, as "section.key" */
};

static int token_entry(const struct cordon_gitcfg_entry *e, void *arg)
{
	struct token_look *l = arg;
	if (l->key[0])
		return 0;
	bool url_key = strcmp(e->key, "url") == 0 || strcmp(e->key, "pushurl") == 0;
	bool header = strcmp(e->section, "http") == 0 && strcmp(e->key, "extraheader") == 0 &&
		      e->value && strncasecmp(e->value, "authorization:", 14) == 0;
	bool base = strcmp(e->section, "url") == 0 && url_has_secret(e->sub);
	if ((url_key && url_has_secret(e->value)) || header || base)
		snprintf(l->key, sizeof(l->key), "%s%s%s.%s", e->section, e->sub ? "." : "",
			 e->sub && !base ? e->sub
			 : e->sub        ? "<URL>"
					 : "",
			 e->key);
	return 0;
}

/* FILE, when the session may read it (not hidden), said where it holds a
 * credential. */
static void look(const struct cordon_policy *p, const char *file)
{
	struct stat st;
	if (!file || stat(file, &st) < 0 || !S_ISREG(st.st_mode) || cordon_policy_hidden(p, file))
		return;
	struct token_look l = {""};
	(void)cordon_gitcfg_read(file, token_entry, &l);
	if (l.key[0])
		fprintf(stderr,
			"cordon: %s holds a credential (%s) that this session can read: git needs "
			"the file, so cordon cannot hide it; keep the token in a credential helper "
			"instead, or add the file to hidden_paths if git inside can do without "
			"it\n",
			file, l.key);
}

void launcher_git_tokens(const struct cordon_policy *p)
{
	if (!p->sandbox)
		return;
	char path[4096];
	const char *global = getenv("GIT_CONFIG_GLOBAL");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (global && *global) {
		look(p, global);
	} else if (p->home) {
		snprintf(path, sizeof(path), "%s/.gitconfig", p->home);
		look(p, path);
		if (xdg && *xdg == '/')
			snprintf(path, sizeof(path), "%s/git/config", xdg);
		else
			snprintf(path, sizeof(path), "%s/.config/git/config", p->home);
		look(p, path);
	}
	if (p->project) {
		snprintf(path, sizeof(path), "%s/.git", p->project);
		char *dir = cordon_git_dir_of(path);
		if (dir) {
			snprintf(path, sizeof(path), "%s/config", dir);
			look(p, path);
		}
		free(dir);
	}
}
