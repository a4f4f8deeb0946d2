/* cordon — what the home's startup and config files name as code.
 *
 * The dotfiles are kept read-only, and what they link to with them; but a
 * dotfile also pulls in other files by their path: ~/.bashrc's `source
 * ~/dotfiles/bash/init` or a loop over "$HOME"/x, a PATH entry, `eval
 * "$(~/dotfiles/bin/tool init)"`, ZDOTDIR, ssh's Include and ProxyCommand,
 * git's init.templateDir and core.fsmonitor, tmux's source-file, vim's
 * runtimepath. With a dotfiles repository as the project (or the home
 * writable), a review (round 8) had ssh, git, tmux, vim, fish, zsh and bash
 * outside each run what a session wrote at such a path. Each path named so
 * is reported, for the policy to keep as the dotfiles are (a guard that
 * yields to a rule naming the path itself).
 *
 * The shells' files are read as shell: a path is taken where it is sourced,
 * run (a command's first word, in `$(...)`, `<(...)`, an alias), put in a
 * variable that names code (PATH, fpath, ZDOTDIR, EDITOR, ...; fish's `set`
 * and `fish_add_path`, PATH helpers), or looped over (a loop's list, a
 * process substitution: a glob's directory); a path only mentioned (`cd
 * ~/src/app`, `HISTFILE=~/x`, an alias's `rm -rf ~/x/build/` with a glob)
 * is not. ssh's and git's files give every path in them; vim's and
 * tmux's only their lines that load code (source, runtimepath, run-shell,
 * ...). A textual scan, bounded (64 files, sixteen deep, 4000 lines each).
 *
 * A project's .envrc is read the same way (cordon_envrc_refs): direnv
 * allows the .envrc by its bytes, not what it loads, so what it sources
 * (source_env, source_env_if_exists, dotenv, whose variables direnv
 * exports into the shell outside: PROMPT_COMMAND runs there), what it
 * runs by a path or through an interpreter (./bin/env.sh, bash x.sh) and
 * what it reads its variables from (cat, grep, < F) is named too, a
 * relative name taken as the shell takes it (source_env from the file's
 * own directory, source and . from where the shell is, after a cd). Not
 * the directories it puts on PATH (PATH_add bin, layout node: the
 * project's own programs, which it builds). */
#include "dotfile-refs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cordon/policy.h"
#include "util.h"

enum kind { SHELL, SSH, GIT, TMUX, VIM };

#define MAX_FILES 64
#define MAX_LINES 4000
#define MAX_DEPTH 16
#define MAX_BYTES ((off_t)1 << 20)

struct scan {
	const char *home;
	size_t home_len;
	int (*fn)(const char *path, const char *file, void *arg);
	void *arg;
	char *seen[MAX_FILES];
	size_t n_seen;
	const char *file; /* the file being read, as "~/REST" */
	int err;
	/* An .envrc's scan (cordon_envrc_refs): a relative name is beneath
	 * BASE (the directory of the file being read, as direnv reads it),
	 * where the word read next may be one (REL). */
	const char *base;
	enum { REL_NONE, REL_ANY, REL_SLASH } rel;
	bool envrc_dir; /* a directory sourced is its .envrc (source_env DIR) */
	bool cd_into;   /* the file read next is read from its own directory */
	bool exists;    /* a relative name is reported only where it exists */
	/* An .envrc's: the variables its loops set (for f in ...), whose
	 * "$f" is that list's, and where a cd took it (the base then). */
	char loopvars[8][32];
	size_t n_loopvars;
	char cd[PATH_MAX];
	/* An .envrc's: the first file it loads by a name built at run time
	 * (source_env_if_exists .envrc.$USER), or "". */
	char dynamic[128];
};

/* Variables whose value names code: a search path for programs, functions
 * or modules, a file run or sourced, a program run. */
static const char *const code_vars[] = {"PATH",
					"path",
					"FPATH",
					"fpath",
					"ZDOTDIR",
					"BASH_ENV",
					"ENV",
					"ZSH",
					"ZSH_CUSTOM",
					"PYTHONSTARTUP",
					"PYTHONPATH",
					"PERL5LIB",
					"PERLLIB",
					"RUBYLIB",
					"NODE_PATH",
					"LD_PRELOAD",
					"LD_LIBRARY_PATH",
					"GIT_TEMPLATE_DIR",
					"GIT_EXEC_PATH",
					"GIT_SSH",
					"GIT_EDITOR",
					"GIT_PAGER",
					"GIT_ASKPASS",
					"SSH_ASKPASS",
					"SUDO_ASKPASS",
					"EDITOR",
					"VISUAL",
					"PAGER",
					"MANPAGER",
					"LESSOPEN",
					"LESSCLOSE",
					"INPUTRC",
					"PROMPT_COMMAND",
					"STARSHIP_CONFIG",
					"MYVIMRC",
					"VIMINIT",
					"fish_user_paths",
					"fish_function_path",
					"fish_complete_path",
					NULL};

/* Words after which the next one is a command's first again. */
static const char *const prefixes[] = {"then",  "do",   "else",   "elif",      "if",      "while",
				       "until", "!",    "eval",   "exec",      "command", "builtin",
				       "nohup", "time", "noglob", "{",         "sudo",    "and",
				       "or",    "not",  "begin",  "zsh-defer", NULL};

/* An .envrc's: words after which the next one that is no option (nor a
 * number: timeout 10) is the command run. */
static const char *const runners[] = {"env",    "timeout", "nice",        "xargs",
				      "stdbuf", "setsid",  "direnv_load", NULL};

/* Options of an interpreter whose value is the next word (bash -o
 * pipefail x, perl -I lib x, node -r ./hook.js x). */
static const char *const valued[] = {"-o", "+o", "-O", "+O", "-I", "-W", "-X", "-r", NULL};

/* Programs that read files into what an .envrc sets (export $(grep -v
 * '^#' .env.local | xargs)): each argument naming a file that exists. */
static const char *const readers[] = {"grep", "egrep", "sed", "awk", "jq",       "yq", "head",
				      "tail", "sort",  "cut", "tac", "envsubst", NULL};

/* Programs whose first argument (no option) is the script they run. */
static const char *const interpreters[] = {"sh",     "bash",    "zsh",  "dash", "ksh",  "fish",
					   "python", "python3", "node", "ruby", "perl", "php",
					   "deno",   "bun",     "lua",  NULL};

/* Whether the option W (N bytes) of an interpreter (OTHER: no shell)
 * gives it code, not a script: a shell's -c; python's -c and -m, node's,
 * perl's, ruby's -e. */
static bool inline_code(bool other, const char *w, size_t n)
{
	return n == 2 && (w[1] == 'c' || (other && (w[1] == 'm' || w[1] == 'e' || w[1] == 'E')));
}

static bool in_list(const char *const *list, const char *w, size_t n)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == n && strncmp(list[i], w, n) == 0)
			return true;
	return false;
}

/* An .envrc's spellings of its own directory. */
static const char *const pwd_spellings[] = {"$PWD/", "${PWD}/", "$(pwd)/", "`pwd`/", NULL};

enum where { IN_HOME, ABSOLUTE, IN_BASE };

/* The part of W (N bytes) after its spelling of the home ("~/", "$HOME/",
 * "${HOME}/", ssh's "%d/", the home's own path), or NULL; *AT: ABSOLUTE,
 * W is absolute elsewhere (returned whole); IN_BASE, W is a relative name
 * an .envrc's scan takes here (returned whole). */
static const char *past_home(const struct scan *s, const char *w, size_t n, enum where *at)
{
	static const char *const spellings[] = {"~/",
						"$HOME/",
						"${HOME}/",
						"%d/",
						"${ZDOTDIR:-~}/",
						"${ZDOTDIR:-$HOME}/",
						"${ZDOTDIR:-${HOME}}/",
						NULL};
	/* An .envrc's own directory, spelled ("$PWD/x", "$(pwd)/x"). */
	for (size_t i = 0; s->base && pwd_spellings[i]; i++) {
		size_t k = strlen(pwd_spellings[i]);
		if (n > k && strncmp(w, pwd_spellings[i], k) == 0) {
			*at = IN_BASE;
			return w + k;
		}
	}
	*at = IN_HOME;
	for (size_t i = 0; spellings[i]; i++) {
		size_t k = strlen(spellings[i]);
		if (n >= k && strncmp(w, spellings[i], k) == 0)
			return w + k;
	}
	if (n > s->home_len && strncmp(w, s->home, s->home_len) == 0 && w[s->home_len] == '/')
		return w + s->home_len + 1;
	if (n > 1 && w[0] == '/') {
		*at = ABSOLUTE;
		return w;
	}
	if (s->base && n > 0 && !strchr("~$`-=", w[0]) &&
	    (s->rel == REL_ANY || (s->rel == REL_SLASH && memchr(w, '/', n)))) {
		*at = IN_BASE;
		while (n > 2 && w[0] == '.' && w[1] == '/') /* ./bin/env.sh */
			w += 2, n -= 2;
		return w;
	}
	return NULL;
}

/* W (N bytes), if it is a path: reported. A component with a glob or a
 * brace list: its directory; one with anything to expand: nothing. Into
 * OUT (SIZE bytes) the path as reported, when it is one. */
static bool report(struct scan *s, const char *w, size_t n, char *out, size_t size)
{
	enum where at;
	const char *rest = past_home(s, w, n, &at);
	bool abs = at == ABSOLUTE;
	if (!rest || s->err < 0)
		return false;
	size_t rn = n - (size_t)(rest - w);
	/* The first character that is not a plain name's: something to
	 * expand (nothing is reported), a glob (its directory is), or a
	 * brace list (each of its words is: {a,b}/x.sh is a/x.sh and b/x.sh). */
	size_t keep = rn;
	for (size_t i = 0; i < rn && keep == rn; i++) {
		if (strchr("$`%\\", rest[i]))
			return false;
		if (rest[i] == '{') {
			const char *close = memchr(rest + i, '}', rn - i);
			if (close && memchr(rest + i, ',', (size_t)(close - rest - i))) {
				char alt[PATH_MAX];
				for (const char *a = rest + i + 1; a < close;) {
					size_t an = strcspn(a, ",}");
					int m = snprintf(alt, sizeof(alt), "%.*s%.*s%.*s",
							 (int)(rest + i - w), w, (int)an, a,
							 (int)(w + n - close - 1), close + 1);
					if (m > 0 && (size_t)m < sizeof(alt))
						report(s, alt, (size_t)m, out, size);
					a += an + 1;
				}
				return false;
			}
		}
		if (strchr("*?[{", rest[i])) {
			keep = i;
			while (keep > 0 && rest[keep - 1] != '/')
				keep--;
		}
	}
	while (keep > 0 && rest[keep - 1] == '/')
		keep--;
	if (keep == 0 || (abs && keep < 2))
		return false;
	int m = at == IN_BASE ? snprintf(out, size, "%s/%.*s", s->base, (int)keep, rest)
			      : snprintf(out, size, "%s%.*s", abs ? "" : "~/", (int)keep, rest);
	struct stat st;
	if (s->exists && at == IN_BASE && m > 0 && (size_t)m < size && lstat(out, &st) < 0)
		return false;
	if (s->envrc_dir && m > 0 && (size_t)m < size && keep == rn && stat(out, &st) == 0 &&
	    S_ISDIR(st.st_mode))
		m = snprintf(out + m, size - (size_t)m, "/.envrc") + m;
	/* (A system directory is nobody's dotfiles.) */
	if (m < 0 || (size_t)m >= size || (abs && cordon_never_project(out, NULL)))
		return false;
	int r = s->fn(out, s->file, s->arg);
	if (r < 0)
		s->err = r;
	return keep == rn;
}

static void scan_file(struct scan *s, enum kind k, const char *path, int depth);
static void scan_shell_line(struct scan *s, const char *line, int depth);
static void source_up(struct scan *s, const char *name, size_t n, int depth);

/* A file named to be sourced or included (~/F or absolute): read too. */
static void follow(struct scan *s, enum kind k, const char *named, int depth)
{
	char path[PATH_MAX];
	if (depth >= MAX_DEPTH || s->err < 0)
		return;
	if (named[0] == '~') {
		if ((size_t)snprintf(path, sizeof(path), "%s%s", s->home, named + 1) >=
		    sizeof(path))
			return;
	} else if ((size_t)snprintf(path, sizeof(path), "%s", named) >= sizeof(path))
		return;
	scan_file(s, k, path, depth + 1);
}

/* ---- shell ---- */

enum mode {
	M_NONE,
	M_SOURCE,
	M_DECL,
	M_ALIAS,
	M_SET,
	M_SETVAL,
	M_ADDPATH,
	M_REDIRECT,
	M_DOTENV,  /* direnv's dotenv FILE (.env when none) */
	M_INTERP,  /* an interpreter's script (bash x.sh, python3 tools/env.py) */
	M_READ,    /* what an .envrc reads into its variables (cat F ...) */
	M_READ1,   /* the same, one word (< F) */
	M_CD,      /* an .envrc's cd DIR */
	M_CMDLINE, /* a shell's -c LINE */
	M_UP       /* direnv's source_up [FILE] (.envrc when none) */
};

struct shline {
	struct scan *s;
	int depth;
	bool cmdpos; /* the next word is a command's first */
	enum mode mode;
	bool array;    /* in NAME=( ... ) of a code variable */
	bool skip_arr; /* in NAME=( ... ) of another */
	bool want_arr; /* the word before was NAME= (empty) of a code variable */
	bool other_arr;
	int for_list; /* 1: after `for`, 2: after its variable, 3: in its list */
	bool for_var; /* its variable is the last of the scan's loopvars */
	bool for_cmd; /* in its list, the next word is a command's name */
	bool procsub; /* in <( ... ) */
	bool dotenv;  /* a dotenv with no file named yet */
	bool up;      /* a source_up with no file named yet */
	bool cd;      /* the file sourced is read from its directory (source_env) */
	bool interp;  /* M_INTERP's program is no shell (-e, -m: code, not a script) */
	bool runner;  /* after a runner (env, timeout): its options are skipped */
	bool reader;  /* M_READ's program takes patterns too (grep): files that exist */
	bool value;   /* M_INTERP: the word is an option's value */
};

/* VALUE (N bytes) of a code variable: each ':'-separated part. */
static void value_parts(struct shline *l, const char *v, size_t n)
{
	char out[PATH_MAX];
	while (n > 0) {
		size_t part = 0;
		while (part < n && v[part] != ':')
			part++;
		/* ("$HOME/x/bin${PATH:+:${PATH}}": what comes before the
		 * expansion.) */
		size_t upto = part;
		for (size_t k = 1; k < part; k++)
			if (v[k] == '$' && k + 1 < part && v[k + 1] == '{' && v[k - 1] != '/') {
				upto = k;
				break;
			}
		report(l->s, v, upto, out, sizeof(out));
		v += part;
		n -= part;
		if (n > 0) {
			v++;
			n--;
		}
	}
}

/* W an assignment (NAME=V, NAME+=V): handled; false when it is none. */
static bool assignment(struct shline *l, const char *w, size_t n)
{
	size_t i = 0;
	while (i < n && (isalnum((unsigned char)w[i]) || w[i] == '_'))
		i++;
	if (i == 0 || i >= n || isdigit((unsigned char)w[0]))
		return false;
	size_t name = i;
	if (w[i] == '+')
		i++;
	if (i >= n || w[i] != '=')
		return false;
	bool code = in_list(code_vars, w, name);
	i++;
	if (i == n) { /* NAME=( ... ) follows, or nothing */
		l->want_arr = code;
		l->other_arr = !code;
		return true;
	}
	if (code)
		value_parts(l, w + i, n - i);
	/* ZDOTDIR=~/.config/zsh: zsh reads its startup files there. */
	char dir[PATH_MAX];
	if (name == 7 && strncmp(w, "ZDOTDIR", 7) == 0 &&
	    report(l->s, w + i, n - i, dir, sizeof(dir))) {
		static const char *const zfiles[] = {".zshenv", ".zprofile", ".zshrc", ".zlogin",
						     ".zlogout"};
		for (size_t k = 0; k < ARRAY_SIZE(zfiles); k++) {
			char f[PATH_MAX + 16];
			snprintf(f, sizeof(f), "%s/%s", dir, zfiles[k]);
			follow(l->s, SHELL, f, l->depth);
		}
	}
	return true;
}

/* Whether W (N bytes) starts with a spelling of the .envrc's directory
 * ($PWD/x): followed, not built at run time. */
static bool spelled_here(const char *w, size_t n)
{
	for (size_t i = 0; pwd_spellings[i]; i++) {
		size_t k = strlen(pwd_spellings[i]);
		if (n > k && strncmp(w, pwd_spellings[i], k) == 0 && !memchr(w + k, '$', n - k))
			return true;
	}
	return false;
}

/* Whether W (N bytes) is one variable and nothing else ($f, ${f}). */
static bool one_variable(const char *w, size_t n)
{
	if (n < 2 || w[0] != '$')
		return false;
	size_t i = 1, end = n;
	if (w[1] == '{') {
		if (w[n - 1] != '}')
			return false;
		i = 2;
		end = n - 1;
	}
	if (i >= end || isdigit((unsigned char)w[i]))
		return false;
	for (; i < end; i++)
		if (!isalnum((unsigned char)w[i]) && w[i] != '_')
			return false;
	return true;
}

/* Whether W (N bytes) is one variable and nothing else ($f, ${f}), one
 * of S's loops sets (its list is taken where the loop is). */
static bool loop_variable(const struct scan *s, const char *w, size_t n)
{
	if (!one_variable(w, n))
		return false;
	const char *v = w + 1 + (w[1] == '{');
	size_t vn = n - 1 - (w[1] == '{') - (w[1] == '{' && w[n - 1] == '}');
	for (size_t i = 0; i < s->n_loopvars; i++)
		if (strlen(s->loopvars[i]) == vn && strncmp(s->loopvars[i], v, vn) == 0)
			return true;
	return false;
}

static void shell_word(struct shline *l, const char *w, size_t n)
{
	struct scan *s = l->s;
	char out[PATH_MAX];
	bool want = l->want_arr, other = l->other_arr;
	l->want_arr = l->other_arr = false;
	s->rel = REL_NONE;
	if (n == 1 && w[0] == '{' && !l->array && !l->skip_arr) {
		l->cmdpos = true; /* a function's body: function f { ...; } */
		l->mode = M_NONE;
		return;
	}
	if (n == 1 && w[0] == '(' && (want || other)) {
		l->array = want;
		l->skip_arr = other;
		return;
	}
	if (l->array || l->skip_arr) {
		if (n == 1 && w[0] == ')')
			l->array = l->skip_arr = false;
		else if (l->array)
			report(s, w, n, out, sizeof(out));
		return;
	}
	/* A loop's list (for f in ~/x/NAME.sh ~/y/{a,b}.sh, globbed), or
	 * what a process substitution reads (. <(cat ~/x/NAME.sh)): what
	 * the loop sources from, its directory for a glob. Not a glob
	 * elsewhere (an alias's rm -rf ~/src/app/build/ with a glob is no
	 * code: round 9). */
	if (l->for_list == 1) {
		l->for_list = 2;
		l->for_var = s->base && s->n_loopvars < ARRAY_SIZE(s->loopvars) &&
			     n < sizeof(s->loopvars[0]);
		if (l->for_var)
			snprintf(s->loopvars[s->n_loopvars++], sizeof(s->loopvars[0]), "%.*s",
				 (int)n, w);
		return;
	}
	if (l->for_list == 2) {
		l->for_list = n == 2 && strncmp(w, "in", 2) == 0 ? 3 : 0;
		return;
	}
	s->rel = l->for_list == 3 ? REL_ANY : REL_SLASH;
	s->envrc_dir = false;
	if (l->for_list == 3 && (l->for_cmd || (n == 1 && w[0] == ')'))) {
		l->for_cmd = false;
		return;
	}
	if (l->for_list == 3 || (l->procsub && !l->cmdpos)) {
		enum where at;
		const char *rest = past_home(s, w, n, &at);
		if (rest && (l->for_list == 3 || memchr(rest, '*', n - (size_t)(rest - w))))
			report(s, w, n, out, sizeof(out));
		if (l->for_list == 3)
			return;
	}
	if (l->mode == M_REDIRECT) {
		l->mode = M_NONE;
		return;
	}
	if (l->mode == M_READ1) {
		l->mode = M_NONE;
		s->rel = REL_ANY;
		report(s, w, n, out, sizeof(out));
		return;
	}
	if (l->cmdpos) {
		s->rel = REL_NONE;
		if (assignment(l, w, n))
			return;
		s->rel = REL_SLASH; /* a program run by its path (./bin/env.sh) */
		if (in_list(prefixes, w, n))
			return;
		if (s->base && (in_list(runners, w, n) ||
				(l->runner && (w[0] == '-' || isdigit((unsigned char)w[0]))))) {
			l->runner = true; /* (env -i, timeout 10, xargs -0: then the command) */
			return;
		}
		l->runner = false;
		/* (/bin/bash x: an interpreter by its path) */
		const char *last = s->base ? memrchr(w, '/', n) : NULL;
		size_t bn = last ? n - (size_t)(last + 1 - w) : n;
		const char *bw = last ? last + 1 : w;
		l->cmdpos = false;
		if (in_list((const char *const[]){"export", "local", "typeset", "declare",
						  "readonly", NULL},
			    w, n))
			l->mode = M_DECL;
		else if (s->base &&
			 in_list((const char *const[]){"source_up", "source_up_if_exists", NULL}, w,
				 n)) {
			l->mode = M_UP;
			l->up = true;
		} else if (s->base &&
			   in_list((const char *const[]){"source_url", "fetchurl", NULL}, w, n))
			l->mode = M_NONE; /* (an URL with its hash) */
		else if (s->base &&
			 in_list((const char *const[]){"dotenv", "dotenv_if_exists", NULL}, w, n)) {
			l->mode = M_DOTENV;
			l->dotenv = true;
		} else if (s->base && in_list(interpreters, bw, bn)) {
			l->mode = M_INTERP;
			l->interp = !in_list((const char *const[]){"sh", "bash", "zsh", "dash",
								   "ksh", "fish", NULL},
					     bw, bn);
			l->value = false;
		} else if (s->base && n == 3 && strncmp(w, "cat", 3) == 0) {
			l->mode = M_READ;
			l->reader = false;
		} else if (s->base && in_list(readers, w, n)) {
			l->mode = M_READ;
			l->reader = true; /* (not a pattern: grep -v '^#' F) */
		} else if (s->base && n == 2 && strncmp(w, "cd", 2) == 0) {
			l->mode = M_CD;
		} else if (in_list((const char *const[]){"source", ".", NULL}, w, n) ||
			   memmem(w, n, "source", 6) || memmem(w, n, "include", 7)) {
			l->mode = M_SOURCE; /* (and a helper: source_if_exists, include) */
			/* direnv's source_env reads the file from its own
			 * directory; source and . from where the shell is. */
			l->cd = n >= 10 && strncmp(w, "source_env", 10) == 0;
		} else if (n == 3 && strncmp(w, "for", 3) == 0)
			l->for_list = 1;
		else if (n == 5 && strncmp(w, "alias", 5) == 0)
			l->mode = M_ALIAS;
		else if (n == 3 && strncmp(w, "set", 3) == 0)
			l->mode = M_SET;
		else if ((n == 13 && strncmp(w, "fish_add_path", 13) == 0) ||
			 ((memmem(w, n, "path", 4) || memmem(w, n, "PATH", 4)) &&
			  !memmem(w, n, "realpath", 8)))
			l->mode = M_ADDPATH; /* (and pathmunge, path_prepend, add_to_path) */
		else
			report(s, w, n, out, sizeof(out)); /* a program */
		return;
	}
	/* A file an .envrc loads by a name built at run time: noted (not
	 * "$f" alone: a loop's variable, its list taken above). */
	if ((l->mode == M_SOURCE || (l->mode == M_DOTENV && w[0] != '-')) && s->base &&
	    !s->dynamic[0] && (memchr(w, '$', n) || memchr(w, '`', n)) && !loop_variable(s, w, n) &&
	    !spelled_here(w, n))
		snprintf(s->dynamic, sizeof(s->dynamic), "%.*s", (int)n, w);
	switch (l->mode) {
	case M_SOURCE:
		l->mode = M_NONE;
		s->rel = REL_ANY;
		s->envrc_dir = s->base != NULL && l->cd;
		if (report(s, w, n, out, sizeof(out))) {
			s->cd_into = l->cd;
			follow(s, SHELL, out, l->depth);
			s->cd_into = false;
		}
		s->envrc_dir = false;
		break;
	case M_INTERP: /* its first word that is no option: the script */
		if (l->value) {
			l->value = false;
			break;
		}
		if (w[0] == '-' || w[0] == '+') {
			l->value = in_list(valued, w, n);
			if (inline_code(l->interp, w, n))
				/* (python3 -m mod, node -e '...': code; bash -c
				 * './x arg': a command line of its own) */
				l->mode = l->interp ? M_NONE : M_CMDLINE;
			break;
		}
		l->mode = M_NONE;
		s->rel = REL_ANY;
		if (report(s, w, n, out, sizeof(out)))
			follow(s, SHELL, out, l->depth);
		break;
	case M_CMDLINE: /* bash -c 'LINE' */
		l->mode = M_NONE;
		if (l->depth < MAX_DEPTH && n < sizeof(out)) {
			snprintf(out, sizeof(out), "%.*s", (int)n, w);
			scan_shell_line(s, out, l->depth + 1);
		}
		break;
	case M_CD: /* cd DIR: where the names after it are taken from */
		l->mode = M_NONE;
		if (n > 0 && !memchr(w, '$', n) && !memchr(w, '`', n) && w[0] != '-' &&
		    snprintf(s->cd, sizeof(s->cd), "%s%s%.*s", w[0] == '/' ? "" : s->base,
			     w[0] == '/' ? "" : "/", (int)n, w) < (int)sizeof(s->cd))
			s->base = s->cd;
		break;
	case M_READ: /* cat's files (export $(cat vars.env | xargs)) */
		if (w[0] != '-' && w[0] != ')') {
			s->rel = REL_ANY;
			s->exists = l->reader;
			report(s, w, n, out, sizeof(out));
			s->exists = false;
		}
		break;
	case M_UP:
		l->mode = M_NONE;
		l->up = false;
		source_up(s, w, n, l->depth);
		break;
	case M_DOTENV:
		if (w[0] == '-')
			break;
		l->mode = M_NONE;
		l->dotenv = false;
		s->rel = REL_ANY;
		report(s, w, n, out, sizeof(out));
		break;
	case M_DECL:
		s->rel = REL_NONE;
		(void)assignment(l, w, n);
		break;
	case M_ALIAS: {
		s->rel = REL_NONE;
		const char *eq = memchr(w, '=', n);
		if (eq && eq > w) {
			size_t vn = n - (size_t)(eq + 1 - w);
			report(s, eq + 1, vn, out, sizeof(out));
		}
		break;
	}
	case M_SET:
		if (w[0] != '-')
			l->mode = in_list(code_vars, w, n) ? M_SETVAL : M_NONE;
		break;
	case M_SETVAL:
		s->rel = REL_NONE;
		report(s, w, n, out, sizeof(out));
		break;
	case M_ADDPATH:
		/* (In an .envrc, PATH_add bin, layout node: the project's own
		 * programs, which it may write.) */
		s->rel = REL_NONE;
		if (w[0] != '-')
			report(s, w, n, out, sizeof(out));
		break;
	case M_NONE:
	case M_REDIRECT:
	case M_READ1:
		break;
	}
}

/* The end of a command: a dotenv that named no file reads .env. */
/* direnv's source_up NAME (N bytes): the nearest NAME in a directory
 * above the one the shell is in (S's base), sourced from its own
 * directory. Each name on the way up is reported, down to the first that
 * exists, which is read too: a nearer one made (packages/.envrc, which
 * nothing allowed, above packages/web: round 26b) is what direnv would
 * source then. */
static void source_up(struct scan *s, const char *name, size_t n, int depth)
{
	char dir[PATH_MAX], path[PATH_MAX];
	if (s->base && n && !s->dynamic[0] && (memchr(name, '$', n) || memchr(name, '`', n))) {
		snprintf(s->dynamic, sizeof(s->dynamic), "%.*s", (int)n, name);
		return; /* (said: source_up "$F", round 26c) */
	}
	/* (A name with a directory is looked for the same way: source_up
	 * conf/env.sh, round 26c; not one that climbs or is absolute.) */
	if (!s->base || n == 0 || name[0] == '/' || memmem(name, n, "..", 2) ||
	    memchr(name, '$', n) || memchr(name, '`', n) ||
	    (size_t)snprintf(dir, sizeof(dir), "%s", s->base) >= sizeof(dir))
		return;
	for (char *slash = strrchr(dir, '/'); slash && s->err >= 0; slash = strrchr(dir, '/')) {
		*slash = '\0';
		if ((size_t)snprintf(path, sizeof(path), "%s/%.*s", dir, (int)n, name) >=
		    sizeof(path))
			return;
		int r = s->fn(path, s->file, s->arg);
		if (r < 0) {
			s->err = r;
			return;
		}
		struct stat st;
		if (lstat(path, &st) == 0) {
			s->cd_into = true;
			follow(s, SHELL, path, depth);
			s->cd_into = false;
			return;
		}
	}
}

static void command_end(struct shline *l)
{
	char out[PATH_MAX];
	if (l->up) {
		l->up = false;
		source_up(l->s, ".envrc", 6, l->depth);
	}
	if (!l->dotenv)
		return;
	l->dotenv = false;
	l->s->rel = REL_ANY;
	report(l->s, ".env", 4, out, sizeof(out));
}

/* One line of a shell file, split into words as the shell would, near
 * enough: quotes dropped (not splitting), `$(`, `<(`, backquotes, `;`, `&`,
 * `|` and `(` start a new command, `<` and `>` a redirection's word. */
static void scan_shell_line(struct scan *s, const char *line, int depth)
{
	struct shline l = {.s = s, .depth = depth, .cmdpos = true};
	char w[PATH_MAX];
	size_t n = 0;
	/* An .envrc's quotes: a quoted name is one word, spaces and all
	 * (source_env_if_exists "my env.sh"), and what is quoted is no
	 * command (echo "a; source x"); a $( ... ) in double quotes is one
	 * (the quote it is in is taken up again after its ")"). */
	char q = 0, qs[8];
	size_t qd = 0;
	for (const char *c = line;; c++) {
		bool blank = *c == ' ' || *c == '\t';
		bool end = !*c || *c == '\n' || (blank && !q);
		bool op = !end && !q && strchr(";&|()`<>", *c) &&
			  !(n > 0 && w[n - 1] == '$' && *c == '(');
		if (*c == '#' && !q && n == 0 && (c == line || c[-1] == ' ' || c[-1] == '\t'))
			end = true, c = ""; /* a comment */
		if ((end || op) && n > 0) {
			shell_word(&l, w, n);
			n = 0;
		}
		if (!*c || *c == '\n')
			break;
		if (end)
			continue;
		if (op) {
			if (*c == '<' || *c == '>') {
				if (c[1] == '(') {
					c++;
					l.cmdpos = true;
					l.mode = M_NONE;
					l.procsub = true;
				} else
					/* (An .envrc's < F: what it reads, as
					 * while read ...; done < vars.txt.) */
					l.mode = *c == '<' && s->base && c[1] != '<' ? M_READ1
										     : M_REDIRECT;
			} else if (*c == ')') {
				bool arr = l.array || l.skip_arr;
				shell_word(&l, ")", 1);
				command_end(&l);
				l.procsub = false;
				if (!arr && l.for_list != 3) { /* a case arm's pattern) */
					l.cmdpos = true;
					l.mode = M_NONE;
				}
				if (l.for_list == 3)
					l.for_list = 0;
				if (qd > 0) /* (the end of a $( in quotes) */
					q = qs[--qd];
			} else if (*c == '(' && (l.want_arr || l.other_arr)) {
				shell_word(&l, "(", 1);
			} else if (*c == '(' && l.for_list == 2) {
				l.for_list = 3; /* zsh: for f (~/x/NAME.zsh) */
			} else {
				command_end(&l);
				l.cmdpos = true;
				l.mode = M_NONE;
				if (*c == '`' && l.for_list == 3) /* (as $( above) */
					s->n_loopvars -= l.for_var;
				l.for_list = 0;
				l.for_var = false;
			}
			continue;
		}
		if (s->base && (*c == '"' || *c == '\'') && (!q || q == *c)) {
			if (q)
				q = 0;
			else
				q = *c;
			continue;
		}
		if (!s->base && (*c == '"' || *c == '\''))
			continue;
		if (*c == '\\' && c[1] && q != '\'')
			c++;
		if (s->base && *c == '(' && n > 0 && w[n - 1] == '$' &&
		    strncmp(c, "(pwd)", 5) == 0 &&
		    n + 5 < sizeof(w)) { /* (an .envrc's "$(pwd)/x": its directory) */
			for (int k = 0; k < 5; k++)
				w[n++] = c[k];
			c += 4;
			continue;
		}
		if (*c == '(' && n > 0 && w[n - 1] == '$' && q != '\'') { /* $( */
			if (q && qd < sizeof(qs)) {
				qs[qd++] = q;
				q = 0;
			}
			n--;
			if (n > 0) {
				shell_word(&l, w, n);
				n = 0;
			}
			/* A loop over what a command prints (for f in $(cat
			 * list.txt)): its variable names files at run time
			 * (said where it is sourced). The command's arguments
			 * are taken as the list's names still (list.txt; for
			 * ls and a glob, its directory), not the command. */
			if (l.for_list == 3) {
				s->n_loopvars -= l.for_var;
				l.for_var = false;
				l.for_cmd = true;
				continue;
			}
			l.cmdpos = true;
			l.mode = M_NONE;
			continue;
		}
		if (n + 1 < sizeof(w))
			w[n++] = *c;
	}
	if (n > 0)
		shell_word(&l, w, n);
	command_end(&l);
}

/* ---- the other config files ---- */

/* Words that name a file to read too, by kind. */
static bool includes(enum kind k, const char *w, size_t n)
{
	switch (k) {
	case SSH:
		return n == 7 && strncasecmp(w, "include", 7) == 0;
	case GIT:
		return n == 4 && strncmp(w, "path", 4) == 0;
	case TMUX:
		return in_list((const char *const[]){"source-file", "source", NULL}, w, n);
	case VIM:
		return in_list((const char *const[]){"source", "so", "luafile", NULL}, w, n);
	case SHELL:
		return false;
	}
	return false;
}

static void scan_config_line(struct scan *s, enum kind k, const char *line, int depth)
{
	const char *t = line + strspn(line, " \t");
	if (*t == '#' || *t == ';' || (k == VIM && (*t == '"' || strncmp(t, "--", 2) == 0)))
		return;
	/* vim's and tmux's lines that load code: what they source or run,
	 * and vim's search paths for plugins (not tags, undo or notes
	 * directories, which round 9 found kept for nothing). */
	if (k == VIM && !(strncmp(t, "so", 2) == 0 || strncmp(t, "luafile", 7) == 0 ||
			  strncmp(t, "runtime", 7) == 0 || strstr(t, "rtp") ||
			  strstr(t, "runtimepath") || strstr(t, "packpath") || strstr(t, "plug") ||
			  strstr(t, "Plug") || strstr(t, "dofile") || strstr(t, "loadfile")))
		return;
	if (k == TMUX && !(strncmp(t, "source", 6) == 0 || strncmp(t, "run", 3) == 0 ||
			   strncmp(t, "if", 2) == 0 || strstr(t, "default-command") ||
			   strstr(t, "default-shell") || strstr(t, "run-shell")))
		return;
	static const char seps[] = " \t\n=,\"'()[];<>|&`";
	size_t kn = strcspn(t, seps);
	bool inc = includes(k, t, kn);
	char out[PATH_MAX];
	for (const char *c = t; *c;) {
		c += strspn(c, seps);
		size_t n = strcspn(c, seps);
		if (n == 0)
			break;
		const char *w = c;
		if (*w == '!') /* git's alias.X = !prog */
			w++;
		if (report(s, w, n - (size_t)(w - c), out, sizeof(out)) && inc && c != t)
			follow(s, k, out, depth);
		c += n;
	}
}

static void scan_file(struct scan *s, enum kind k, const char *path, int depth)
{
	if (s->err < 0 || s->n_seen >= MAX_FILES)
		return;
	for (size_t i = 0; i < s->n_seen; i++)
		if (strcmp(s->seen[i], path) == 0)
			return;
	char *copy = strdup(path);
	if (!copy) {
		s->err = -ENOMEM;
		return;
	}
	s->seen[s->n_seen++] = copy;
	/* (A regular file only: not a FIFO at the name, nor a device, which
	 * opening alone can act on, and the launcher may be root.) */
	FILE *f = cordon_fopen_regular(path);
	if (!f)
		return;
	struct stat st;
	if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_BYTES) {
		(void)fclose(f); /* (read only) */
		return;
	}
	char name[PATH_MAX];
	if (strncmp(path, s->home, s->home_len) == 0 && path[s->home_len] == '/')
		snprintf(name, sizeof(name), "~%s", path + s->home_len);
	else
		snprintf(name, sizeof(name), "%s", path);
	const char *outer = s->file, *outer_base = s->base;
	s->file = name;
	char dir[PATH_MAX], cd_was[PATH_MAX];
	snprintf(cd_was, sizeof(cd_was), "%s", s->cd);
	bool cd = s->cd_into;
	s->cd_into = false;
	if (s->base && cd) { /* direnv's source_env reads a file from its directory */
		snprintf(dir, sizeof(dir), "%s", path);
		char *slash = strrchr(dir, '/');
		if (slash)
			slash[slash == dir] = '\0';
		s->base = dir;
	}
	char line[4096];
	for (int n = 0; s->err >= 0 && n < MAX_LINES && fgets(line, sizeof(line), f); n++) {
		/* A line that ends in a backslash goes on on the next one. */
		size_t len = strlen(line);
		while (k == SHELL && len >= 2 && line[len - 1] == '\n' && line[len - 2] == '\\' &&
		       n < MAX_LINES && fgets(line + len - 2, (int)(sizeof(line) - (len - 2)), f)) {
			n++;
			len = strlen(line);
		}
		if (k == SHELL)
			scan_shell_line(s, line, depth);
		else
			scan_config_line(s, k, line, depth);
	}
	s->file = outer;
	s->base = outer_base;
	snprintf(s->cd, sizeof(s->cd), "%s", cd_was);
	(void)fclose(f); /* (read only) */
}

int cordon_shell_refs(const char *text, size_t n, const char *base,
		      int (*fn)(const char *path, const char *file, void *arg), void *arg)
{
	struct scan s = {.home = "/nonexistent",
			 .home_len = strlen("/nonexistent"),
			 .fn = fn,
			 .arg = arg,
			 .base = base,
			 .file = base};
	/* Line by line, as one script (a cd holds for the lines after it). */
	char line[4096];
	for (const char *c = text, *end = text + n; s.err >= 0 && c < end;) {
		size_t k = 0;
		while (c + k < end && c[k] != '\n')
			k++;
		snprintf(line, sizeof(line), "%.*s", (int)(k < sizeof(line) ? k : sizeof(line) - 1),
			 c);
		scan_shell_line(&s, line, 0);
		c += k + (c + k < end);
	}
	for (size_t i = 0; i < s.n_seen; i++)
		free(s.seen[i]);
	return s.err;
}

int cordon_envrc_refs(const char *envrc, const char *home,
		      int (*fn)(const char *path, const char *file, void *arg), void *arg,
		      char *dynamic, size_t size)
{
	struct scan s = {.home = home ? home : "/nonexistent",
			 .home_len = strlen(home ? home : "/nonexistent"),
			 .fn = fn,
			 .arg = arg,
			 .base = "/",
			 .cd_into = true};
	scan_file(&s, SHELL, envrc, 0);
	for (size_t i = 0; i < s.n_seen; i++)
		free(s.seen[i]);
	if (dynamic && size)
		snprintf(dynamic, size, "%s", s.dynamic);
	return s.err;
}

/* cordon_dotfile_refs with XDG as the config directory (NULL, or not
 * absolute: ~/.config); HOME_FILES: the home's own files too. */
static int refs_in(const char *home, const char *xdg, bool home_files,
		   int (*fn)(const char *path, const char *file, void *arg), void *arg)
{
	static const struct {
		enum kind k;
		const char *rel; /* under the home, or (with '@') under XDG_CONFIG_HOME */
	} files[] = {
		{SHELL, ".bashrc"},
		{SHELL, ".bash_profile"},
		{SHELL, ".bash_login"},
		{SHELL, ".profile"},
		{SHELL, ".bash_aliases"},
		{SHELL, ".zshenv"},
		{SHELL, ".zprofile"},
		{SHELL, ".zshrc"},
		{SHELL, ".zlogin"},
		{SHELL, ".bash_logout"},
		{SHELL, ".xprofile"},
		{SHELL, ".xsessionrc"},
		{SHELL, ".xinitrc"},
		{SHELL, ".zlogout"},
		{SHELL, "@fish/config.fish"},
		{SHELL, ".direnvrc"},
		{SHELL, "@direnv/direnvrc"},
		{GIT, ".npmrc"},
		{SSH, ".ssh/config"},
		{GIT, ".gitconfig"},
		{GIT, "@git/config"},
		{TMUX, ".tmux.conf"},
		{TMUX, "@tmux/tmux.conf"},
		{VIM, ".vimrc"},
		{VIM, ".vim/vimrc"},
		{VIM, ".gvimrc"},
		{VIM, ".exrc"},
		{VIM, "@nvim/init.vim"},
		{VIM, "@nvim/init.lua"},
	};
	struct scan s = {.home = home, .home_len = strlen(home), .fn = fn, .arg = arg};
	for (size_t i = 0; i < ARRAY_SIZE(files) && s.err >= 0; i++) {
		char path[PATH_MAX];
		const char *rel = files[i].rel;
		int m;
		if (rel[0] != '@' && !home_files)
			continue;
		if (rel[0] != '@')
			m = snprintf(path, sizeof(path), "%s/%s", home, rel);
		else if (xdg && xdg[0] == '/')
			m = snprintf(path, sizeof(path), "%s/%s", xdg, rel + 1);
		else
			m = snprintf(path, sizeof(path), "%s/.config/%s", home, rel + 1);
		if (m > 0 && (size_t)m < sizeof(path))
			scan_file(&s, files[i].k, path, 0);
	}
	/* fish sources every conf.d/NAME.fish as it starts. */
	char confd[PATH_MAX];
	int m = xdg && xdg[0] == '/'
			? snprintf(confd, sizeof(confd), "%s/fish/conf.d", xdg)
			: snprintf(confd, sizeof(confd), "%s/.config/fish/conf.d", home);
	DIR *d = m > 0 && (size_t)m < sizeof(confd) ? opendir(confd) : NULL;
	for (struct dirent *de; d && s.err >= 0 && (de = readdir(d));) {
		size_t dn = strlen(de->d_name);
		char f[PATH_MAX + NAME_MAX + 2];
		if (dn > 5 && strcmp(de->d_name + dn - 5, ".fish") == 0 &&
		    (size_t)snprintf(f, sizeof(f), "%s/%s", confd, de->d_name) < sizeof(f))
			scan_file(&s, SHELL, f, 1);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < s.n_seen; i++)
		free(s.seen[i]);
	return s.err;
}

int cordon_dotfile_refs(const char *home, char *(*getenv_fn)(const char *),
			int (*fn)(const char *path, const char *file, void *arg), void *arg)
{
	return refs_in(home, getenv_fn ? getenv_fn("XDG_CONFIG_HOME") : NULL, true, fn, arg);
}

int cordon_dotfile_refs_config(const char *home, const char *config_home,
			       int (*fn)(const char *path, const char *file, void *arg), void *arg)
{
	return refs_in(home, config_home, false, fn, arg);
}

/* ---- yarn's rc files ---- */

/* The value at V (to the line's end), its quotes and trailing spaces and
 * comment off, into OUT (SIZE bytes): whether one was there. */
static bool rc_value(const char *v, char *out, size_t size)
{
	v += strspn(v, " \t");
	size_t n = strcspn(v, "\r\n");
	char q = '\0';
	if (*v == '"' || *v == '\'')
		q = *v;
	if (q) {
		const char *end = memchr(v + 1, q, n ? n - 1 : 0);
		if (!end)
			return false;
		n = (size_t)(end - v - 1);
		v++;
	} else {
		const char *hash = memchr(v, '#', n);
		if (hash && (hash == v || hash[-1] == ' ' || hash[-1] == '\t'))
			n = (size_t)(hash - v);
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			n--;
	}
	if (n == 0 || n >= size)
		return false;
	memcpy(out, v, n);
	out[n] = '\0';
	return true;
}

int cordon_yarnrc_refs(const char *rc, int (*fn)(const char *path, const char *file, void *arg),
		       void *arg, char *unread, size_t size)
{
	if (unread && size)
		unread[0] = '\0';
	const char *slash = strrchr(rc, '/');
	if (!slash)
		return 0;
	bool yml = strcmp(slash, "/.yarnrc.yml") == 0;
	FILE *f = cordon_fopen_regular(rc);
	if (!f)
		return 0;
	char line[PATH_MAX + 64], value[PATH_MAX], path[PATH_MAX * 2];
	int e = 0;
	bool in_plugins = false;
	while (e >= 0 && fgets(line, sizeof(line), f)) {
		const char *v = NULL;
		bool top = line[0] != ' ' && line[0] != '\t' && line[0] != '-';
		if (yml && top)
			in_plugins = strncmp(line, "plugins:", 8) == 0;
		/* (A list item's text: past its "- ".) */
		const char *t = line + strspn(line, " \t");
		bool dash = t[0] == '-';
		if (dash)
			t += 1 + strspn(t + 1, " \t");
		/* (Both keys are 9 bytes long.) */
		bool release = yml ? top && strncmp(line, "yarnPath:", 9) == 0
				   : strncmp(line, "yarn-path", 9) == 0 &&
					       (line[9] == ' ' || line[9] == '\t');
		if (release)
			v = line + 9;
		else if (yml && in_plugins && strncmp(t, "path:", 5) == 0)
			v = t + 5;
		else if (yml && in_plugins && dash && !strchr(t, ':'))
			v = t; /* (- PATH, a plugin named by its path alone) */
		bool named = v && rc_value(v, value, sizeof(value));
		/* A yarnPath in another form (a quoted key, flow style, an
		 * anchor, ${VAR}, a folded value: round 53e F5): said. */
		if (named && (value[0] == '*' || value[0] == '&' || value[0] == '>' ||
			      value[0] == '|' || strstr(value, "${")))
			named = false;
		if (!named && unread && size && !unread[0] &&
		    (strstr(line, yml ? "yarnPath" : "yarn-path") || (v && !release)))
			cordon_printable(line, strcspn(line, "\r\n"), unread, size);
		if (!named)
			continue;
		if (value[0] == '/')
			snprintf(path, sizeof(path), "%s", value);
		else
			snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - rc), rc, value);
		if (strlen(path) < PATH_MAX)
			e = fn(path, rc, arg);
	}
	(void)fclose(f); /* read only */
	return e;
}
