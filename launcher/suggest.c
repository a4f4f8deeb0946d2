/* What cordon learn and cordon explain may propose (suggest.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "cordon/sweep.h"
#include "suggest.h"
#include "util.h"

static bool is_home(const char *home, const char *path)
{
	return home && home[0] == '/' && strcmp(home, "/") != 0 && strcmp(path, home) == 0;
}

/* PATH relative to HOME ("" for HOME itself), or NULL when not under it. */
static const char *home_rel(const char *home, const char *path)
{
	if (!home || home[0] != '/' || strcmp(home, "/") == 0 || !cordon_path_under(path, home))
		return NULL;
	const char *rel = path + strlen(home);
	return *rel == '/' ? rel + 1 : rel;
}

/* The first LEN bytes of the component at S. */
static size_t comp_len(const char *s)
{
	return strcspn(s, "/");
}

static bool comp_is(const char *s, const char *name)
{
	return comp_len(s) == strlen(name) && strncmp(s, name, strlen(name)) == 0;
}

const char *suggest_never(const struct cordon_policy *p, const char *config, const char *path)
{
	if (strcmp(path, "/") == 0)
		return "the root directory";
	if (is_home(p->home, path))
		return "your home directory";
	if (strcmp(path, "/root") == 0)
		return "root's home directory";
	static const char *const machine[] = {"/proc", "/sys", "/dev"};
	for (size_t i = 0; i < ARRAY_SIZE(machine); i++)
		if (cordon_path_under(path, machine[i]))
			return "a system path (machine-specific: kernel, devices, cgroups)";
	/* A system directory itself, or one level below /usr, /var, /run, /boot. */
	const char *top = path + 1;
	size_t tl = comp_len(top);
	const char *rest = top + tl;
	bool sys = comp_is(top, "usr") || comp_is(top, "etc") || comp_is(top, "var") ||
		   comp_is(top, "bin") || comp_is(top, "sbin") || strncmp(top, "lib", 3) == 0 ||
		   comp_is(top, "run") || comp_is(top, "boot");
	bool two = comp_is(top, "usr") || comp_is(top, "var") || comp_is(top, "run") ||
		   comp_is(top, "boot");
	if (sys &&
	    (*rest == '\0' || (two && !strchr(rest + 1, '/') && !comp_is(rest + 1, "local"))))
		return "a system directory";
	const char *rel = home_rel(p->home, path);
	if (rel && (strcmp(rel, ".config") == 0 || strcmp(rel, ".cache") == 0 ||
		    strcmp(rel, ".local") == 0 || strcmp(rel, ".local/share") == 0 ||
		    strcmp(rel, ".local/state") == 0))
		return "shared by every program's settings or caches";
	if (config) {
		cleanup_free char *dir = strdup(config);
		char *slash = dir ? strrchr(dir, '/') : NULL;
		if (strcmp(path, config) == 0 || cordon_path_under(config, path))
			return "cordon's own config";
		if (slash && slash != dir) {
			*slash = '\0';
			const char *b = strrchr(dir, '/');
			if (cordon_path_under(path, dir) && b && strcmp(b, "/cordon") == 0)
				return "cordon's own config";
		}
	}
	if (rel) {
		/* ~/.config/cordon, wherever the config in use is. */
		cleanup_free char *own = NULL;
		if (asprintf(&own, "%s/.config/cordon", p->home) > 0 &&
		    cordon_path_under(path, own))
			return "cordon's own config";
	}
	if (cordon_policy_hidden(p, path) || cordon_policy_hidden_unmade(p, path))
		return "a credential store (hidden_paths)";
	return NULL;
}

/* Caches in the home: what a tool downloads and finds again (the
 * toolchains' caches among them); a component named like one counts too
 * (~/.gradle/caches). */
static bool cache_like(const char *rel)
{
	static const char *const caches[] = {".cache",
					     ".npm",
					     ".cargo/registry",
					     ".cargo/git",
					     "go/pkg/mod",
					     ".m2/repository",
					     ".pnpm-store",
					     ".yarn/cache",
					     ".yarn/berry/cache",
					     ".bun/install/cache",
					     ".nuget/packages",
					     ".ivy2/cache",
					     ".gradle/caches",
					     ".cpanm",
					     ".gem/cache",
					     ".composer/cache",
					     ".ccache",
					     NULL};
	for (size_t i = 0; caches[i]; i++) {
		size_t n = strlen(caches[i]);
		if (strncmp(rel, caches[i], n) == 0 && (rel[n] == '\0' || rel[n] == '/'))
			return true;
	}
	return false;
}

/* The reason, when it names a path (the launcher is one thread). */
static char why_buf[PATH_MAX + 256];

/* Caches that programs outside run code from as it is there, not after an
 * install that checks it: compiled code, environments and programs run
 * from the cache, what a shell sources as it starts. Relative to the home
 * (those in .cache/ to $XDG_CACHE_HOME too); PREFIX: any name that starts
 * so. */
static const struct {
	const char *rel;
	bool prefix;
	const char *what;
} code_caches[] = {
	{".cache/p10k-", true, "powerlevel10k's instant prompt, sourced as zsh starts"},
	{".cache/gitstatus", false, "the gitstatus daemon powerlevel10k runs"},
	{".cache/zsh", false, "zsh's completion dumps, sourced as zsh starts"},
	{".cache/oh-my-zsh", false, "oh-my-zsh's completions, loaded as zsh starts"},
	{".cache/oh-my-posh", false, "oh-my-posh's init script, sourced as a shell starts"},
	{".cache/prezto", false, "prezto's completion dump, sourced as zsh starts"},
	{".cache/antidote", false, "the zsh plugins antidote loads"},
	{".zcompdump", true, "compinit's dump, sourced as zsh starts"},
	{".zcompcache", false, "zsh's completion cache, sourced by completions"},
	{".cache/nvim", false,
	 "Neovim's byte-compiled Lua, which vim.loader runs instead of the source"},
	{".cache/pre-commit", false, "the hook environments git commit runs"},
	{".npm/_npx", false, "the packages npx runs"},
	{".cache/node/corepack", false, "the package managers corepack runs"},
	{".cache/node-gyp", false, "the headers native Node.js modules are compiled against"},
	{".cache/uv", false, "the tool environments uvx runs"},
	{".cache/pypoetry/virtualenvs", false, "Poetry's virtual environments"},
	{".cache/go-build", false, "Go's compiled packages, linked into what go build makes"},
	{".cache/ccache", false, "the compiled objects ccache hands back"},
	{".ccache", false, "the compiled objects ccache hands back"},
	{".cache/sccache", false, "the compiled objects sccache hands back"},
	{".cache/deno", false, "Deno's compiled and remote modules"},
	{".cache/bazel", false, "Bazel's outputs and the tools it runs"},
	{".cache/bazelisk", false, "the Bazel programs bazelisk runs"},
	{".cache/guile", false, "Guile's compiled modules"},
	{".cache/common-lisp", false, "ASDF's compiled Lisp"},
	{".cache/zig", false, "Zig's compiled artifacts"},
	{".cache/tree-sitter", false, "the parsers tree-sitter compiles and loads"},
	{".cache/torch_extensions", false, "the extensions PyTorch compiles and loads"},
	{".cache/JNA", false, "the native libraries JNA extracts and loads"},
	{".cache/ms-playwright", false, "the browsers Playwright runs"},
	{".cache/puppeteer", false, "the browsers Puppeteer runs"},
	{".cache/Cypress", false, "the Cypress program"},
	{".cache/jedi", false, "jedi's pickled parse trees, which editors' completion loads"},
	{".cache/parso", false, "parso's pickled parse trees, which editors' completion loads"},
	{".cache/black", false, "black's pickled cache, loaded at every run (format on save)"},
	{".cache/pylint", false, "pylint's pickled statistics, loaded at every run"},
	{".cache/selenium", false, "the browser drivers selenium-manager runs"},
	{".cache/torch", false, "torch.hub's code (hubconf.py) and pickled checkpoints"},
	{".cache/huggingface/modules", false, "the remote code transformers runs"},
	{".pnpm-store", false, "pnpm's store, hard-linked into every project's node_modules"},
	{".yarn/berry/cache", false, "the archives Yarn Plug'n'Play loads packages from"},
	{".bun/install/cache", false, "bun's store, linked into node_modules"},
};

/* Whether PATH is, lies under or (*BENEATH set) holds the code cache at
 * BASE/REL (PREFIX: any name there that starts so). */
static bool code_cache_at(const char *base, const char *rel, bool prefix, const char *path,
			  bool *beneath)
{
	char at[PATH_MAX];
	if (snprintf(at, sizeof(at), "%s/%s", base, rel) >= (int)sizeof(at))
		return false;
	if (prefix) {
		char *slash = strrchr(at, '/');
		const char *name = slash + 1;
		*slash = '\0';
		/* PATH holds the directory the names are in, or is one of them
		 * (or lies under one). */
		if (cordon_path_under(at, path)) {
			*beneath = true;
			return true;
		}
		size_t n = strlen(at);
		return strncmp(path, at, n) == 0 && path[n] == '/' &&
		       strncmp(path + n + 1, name, strlen(name)) == 0;
	}
	if (cordon_path_under(path, at))
		return true;
	if (cordon_path_under(at, path)) {
		*beneath = true;
		return true;
	}
	return false;
}

const char *suggest_code_cache(const char *home, const char *path, bool *beneath)
{
	*beneath = false;
	const char *xdg = getenv("XDG_CACHE_HOME");
	bool has_xdg = xdg && xdg[0] == '/' && strcmp(xdg, "/") != 0;
	bool home_ok = home && home[0] == '/' && strcmp(home, "/") != 0;
	for (size_t i = 0; i < ARRAY_SIZE(code_caches); i++) {
		const char *rel = code_caches[i].rel;
		bool b = false,
		     hit = home_ok && code_cache_at(home, rel, code_caches[i].prefix, path, &b);
		const char *base = home;
		if (!hit && has_xdg && strncmp(rel, ".cache/", 7) == 0) {
			hit = code_cache_at(xdg, rel + 7, code_caches[i].prefix, path, &b);
			base = xdg;
			rel += 7;
		}
		if (!hit)
			continue;
		*beneath = b;
		snprintf(why_buf, sizeof(why_buf),
			 "%s %s/%s%s (%s): programs outside would run what the session puts "
			 "there",
			 b ? "it holds" : "it is", base == home ? "~" : base, rel,
			 code_caches[i].prefix ? "*" : "", code_caches[i].what);
		return why_buf;
	}
	return NULL;
}

/* The names of the personal directories at the top of HOME: the XDG user
 * directories (user-dirs.dirs, which may name them in the user's
 * language), the defaults, synced folders and mail. */
static bool personal_name(const char *home, const char *name, size_t len)
{
	static const char *const names[] = {
		"Desktop", "Documents", "Downloads", "Music",    "Pictures",  "Videos",
		"Public",  "Templates", "Dropbox",   "OneDrive", "Nextcloud", "ownCloud",
		"Sync",    "Mail",      "mail",      "Maildir",  "Photos",    "Google Drive",
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strlen(names[i]) == len && strncmp(names[i], name, len) == 0)
			return true;
	char file[PATH_MAX];
	const char *cfg = getenv("XDG_CONFIG_HOME");
	if (cfg && cfg[0] == '/')
		snprintf(file, sizeof(file), "%s/user-dirs.dirs", cfg);
	else
		snprintf(file, sizeof(file), "%s/.config/user-dirs.dirs", home);
	FILE *f = fopen(file, "re");
	if (!f)
		return false;
	bool found = false;
	char line[PATH_MAX + 64];
	while (!found && fgets(line, sizeof(line), f)) {
		/* XDG_DOCUMENTS_DIR="$HOME/Dokumente" */
		const char *v = strstr(line, "=\"$HOME/");
		if (strncmp(line, "XDG_", 4) != 0 || !v)
			continue;
		v += 8;
		size_t n = strcspn(v, "\"/");
		found = n == len && strncmp(v, name, len) == 0;
	}
	(void)fclose(f);
	return found;
}

const char *suggest_personal(const char *home, const char *path)
{
	const char *rel = home_rel(home, path);
	if (!rel || !*rel || *rel == '.' || !personal_name(home, rel, comp_len(rel)))
		return NULL;
	return "your own files: every later session could read them";
}

/* A prefix's directory that programs outside load or source from
 * (/home/linuxbrew/.linuxbrew, a /usr/local elsewhere): shell completions
 * and functions, profile scripts, desktop entries, session services. */
static const char *const shell_dirs[] = {
	"etc/bash_completion.d",
	"share/bash-completion",
	"share/zsh",
	"share/zsh-completions",
	"share/fish",
	"etc/profile.d",
	"etc/fish",
	"etc/zsh",
	"etc/xdg/autostart",
	"share/applications",
	"share/dbus-1",
	NULL,
};

/* The shell_dirs entry PATH is or lies under, or NULL. */
static const char *shell_dir_of(const char *path)
{
	for (size_t i = 0; shell_dirs[i]; i++) {
		size_t n = strlen(shell_dirs[i]);
		for (const char *c = strchr(path, '/'); c; c = strchr(c + 1, '/'))
			if (strncmp(c + 1, shell_dirs[i], n) == 0 && (!c[n + 1] || c[n + 1] == '/'))
				return shell_dirs[i];
	}
	return NULL;
}

static bool lib_name(const char *s, size_t n)
{
	static const char *const libs[] = {"lib", "lib32", "lib64", "libx32", "libexec"};
	for (size_t i = 0; i < ARRAY_SIZE(libs); i++)
		if (strlen(libs[i]) == n && strncmp(libs[i], s, n) == 0)
			return true;
	return false;
}

/* Why PATH (outside the home) is a prefix's library directory, or lies in
 * one: a component named lib, lib64, libexec, ... beside a bin or an
 * include directory, or in a Homebrew Cellar; or a shell_dirs one. */
static const char *prefix_code(const char *path)
{
	const char *sh = shell_dir_of(path);
	if (sh) {
		snprintf(why_buf, sizeof(why_buf),
			 "a prefix's %s: shells and desktops outside load what is there", sh);
		return why_buf;
	}
	bool cellar = false;
	for (const char *c = path; *c;) {
		c += strspn(c, "/");
		size_t n = comp_len(c);
		cellar = cellar || comp_is(c, "Cellar");
		if (n && lib_name(c, n)) {
			char dir[PATH_MAX];
			struct stat st;
			bool prefix = cellar;
			static const char *const beside[] = {"bin", "sbin", "include", "share"};
			for (size_t i = 0; !prefix && i < ARRAY_SIZE(beside); i++)
				prefix = snprintf(dir, sizeof(dir), "%.*s%s", (int)(c - path), path,
						  beside[i]) < (int)sizeof(dir) &&
					 stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
			if (prefix) {
				snprintf(why_buf, sizeof(why_buf),
					 "a prefix's %.*s (%.*s): programs outside load the "
					 "libraries and run the helpers there",
					 (int)n, c, (int)(c - path + n), path);
				return why_buf;
			}
		}
		c += n;
	}
	return NULL;
}

static const char *why_path(const char *what, const char *path)
{
	snprintf(why_buf, sizeof(why_buf),
		 "%s (%s): git, an editor or a login would run what "
		 "the session puts there outside",
		 what, path);
	return why_buf;
}

static const char *why_code(const char *what, const char *path, const char *then)
{
	snprintf(why_buf, sizeof(why_buf), "%s (%s): %s", what, path, then);
	return why_buf;
}

static const char *why_guard(const struct cordon_guard *g)
{
	snprintf(why_buf, sizeof(why_buf), "it is, contains or lies under %s (%s: %s)",
		 g->kind & CORDON_GUARD_HIDE ? "a credential store" : "a protected path", g->source,
		 g->path);
	return why_buf;
}

/* Whether the protected path E (relative; a trailing "/" asks for a
 * stand-in) is where REST (a path from one of its components on) starts:
 * the whole of E, not its first name (round 53f put .cargo/config.toml
 * in the list, and ~/.cargo/registry was taken for protected). */
static bool starts_with_entry(const char *rest, const char *e, size_t len, bool whole)
{
	size_t el = strlen(e);
	while (el && e[el - 1] == '/')
		el--;
	if (!whole) /* (its first name only: a directory that holds one) */
		el = comp_len(e) < el ? comp_len(e) : el;
	return el && (whole || el == len) && strncmp(rest, e, el) == 0 &&
	       (rest[el] == '\0' || rest[el] == '/');
}

/* Whether REST (a path from one of its components on; that component LEN
 * bytes) is where a repository keeps what runs outside: .git, a protected
 * path (the defaults, the project's own protected_paths) or a relative
 * core.hooksPath of the user's (EXTRA), or below one (WHOLE); or (not
 * WHOLE) that component is the first name of one (a directory walked
 * holds it). */
static bool protected_name(const struct cordon_policy *p, const struct cordon_strv *extra,
			   const char *rest, size_t len, bool whole)
{
	if (len == 4 && strncmp(rest, ".git", 4) == 0)
		return true;
	for (size_t i = 0; cordon_default_protected[i]; i++)
		if (starts_with_entry(rest, cordon_default_protected[i], len, whole))
			return true;
	for (size_t i = 0; p->project && i < p->n_guards; i++) {
		const struct cordon_guard *g = &p->guards[i];
		size_t n = strlen(p->project);
		if (!(g->kind & CORDON_GUARD_PROTECT) ||
		    strncmp(g->source, "protected_paths", 15) != 0 ||
		    strncmp(g->path, p->project, n) != 0 || g->path[n] != '/')
			continue;
		if (starts_with_entry(rest, g->path + n + 1, len, whole))
			return true;
	}
	for (size_t i = 0; i < extra->n; i++)
		if (starts_with_entry(rest, extra->v[i], len, whole))
			return true;
	return false;
}

/* Whether DIR (an fd, or AT_FDCWD and a path) is a git directory, as git
 * tells one: HEAD, objects and refs (a bare repository, a .git, a
 * --separate-git-dir one). */
static bool git_dir_at(int fd, const char *dir)
{
	static const char *const parts[] = {"HEAD", "objects", "refs"};
	char f[PATH_MAX + 16];
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		struct stat st;
		snprintf(f, sizeof(f), "%s%s%s", dir, *dir ? "/" : "", parts[i]);
		if (fstatat(fd, f, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return false;
	}
	return true;
}

/* The directories core.hooksPath names for the repository whose worktree
 * is BASE (the user's own, system and global, among them), pushed to OUT;
 * -EFBIG when a config is longer than cordon reads. */
static int repo_hooks(const char *home, const char *base, struct cordon_strv *out)
{
	char dotgit[PATH_MAX + 8];
	snprintf(dotgit, sizeof(dotgit), "%s/.git", base);
	struct cordon_strv dirs = {0};
	cleanup_free char *gd = cordon_git_dir_of(dotgit);
	int e = 0;
	if (gd) {
		char f[PATH_MAX + 16];
		snprintf(f, sizeof(f), "%s/commondir", gd);
		cleanup_free char *common = cordon_git_link_file(f, "", gd);
		e = cordon_strv_push(&dirs, gd);
		if (e >= 0 && common)
			e = cordon_strv_push(&dirs, common);
	}
	if (e >= 0)
		e = cordon_git_hooks_paths(home, &dirs, base, out);
	cordon_strv_free(&dirs);
	return e;
}

/* The worktree PATH lies in (the nearest directory above it, or it, with
 * a .git entry), malloc'd, or NULL. */
static char *worktree_of(const char *path)
{
	char *dir = strdup(path);
	while (dir && dir[0] == '/') {
		char f[PATH_MAX + 8];
		struct stat st;
		snprintf(f, sizeof(f), "%s/.git", strcmp(dir, "/") ? dir : "");
		if (lstat(f, &st) == 0)
			return dir;
		char *slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	free(dir);
	return NULL;
}

/* Entries and levels looked at below a proposed directory (as said in walk). */
#define WALK_MAX   20000
#define WALK_DEPTH 64

/* What below the directory FD (PATH) is a repository's: an entry named as
 * protected_name, a git directory. BUDGET entries at most; past it, or
 * past WALK_DEPTH, the walk says so (it cannot tell). Symbolic links are
 * not followed: a rule reaches only what is beneath it. */
static const char *walk(const struct cordon_policy *p, const struct cordon_strv *extra, int fd,
			char *path, size_t *budget, int depth)
{
	DIR *d = fdopendir(fd);
	if (!d) {
		close(fd);
		return NULL;
	}
	const char *why = NULL;
	size_t len = strlen(path);
	for (struct dirent *e; !why && (e = readdir(d));) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || strcmp(e->d_name, "..") == 0))
			continue;
		if (*budget == 0 || depth >= WALK_DEPTH) {
			why = "it holds more than cordon looks through (20000 entries, 64 "
			      "levels) for a repository's hooks and config, programs and libraries";
			break;
		}
		(*budget)--;
		if (len + 1 + strlen(e->d_name) >= PATH_MAX)
			continue;
		snprintf(path + len, PATH_MAX - len, "/%s", e->d_name);
		if (protected_name(p, extra, e->d_name, strlen(e->d_name), false)) {
			why = why_path("it contains a protected path of a repository", path);
			break;
		}
		if (suggest_is_library(e->d_name)) {
			why = why_code("it holds a shared library", path,
				       "programs outside load it");
			break;
		}
		struct stat st;
		bool dir = e->d_type == DT_DIR;
		if (e->d_type == DT_UNKNOWN || e->d_type == DT_REG) {
			bool got = fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0;
			dir = got && S_ISDIR(st.st_mode);
			if (got && S_ISREG(st.st_mode) && (st.st_mode & 0111)) {
				why = why_code("it holds a program", path,
					       "it may run outside the session too");
				break;
			}
		}
		if (!dir)
			continue;
		const char *sh = shell_dir_of(path);
		if (sh) {
			why = why_code("it holds a prefix's shell or desktop directory", path,
				       "shells and desktops outside load what is there");
			break;
		}
		if (git_dir_at(dirfd(d), e->d_name)) {
			why = why_path("it contains a git directory", path);
			break;
		}
		int sub = openat(dirfd(d), e->d_name,
				 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			why = walk(p, extra, sub, path, budget, depth + 1);
		path[len] = '\0';
	}
	path[len] = '\0';
	closedir(d);
	return why;
}

/* Why a write rule on PATH would reach what runs outside later though no
 * system directory or home rule says so: it is, contains or lies under a
 * repository's protected path (a .git component anywhere, the defaults of
 * protected_paths, a git directory, a directory core.hooksPath names), a
 * guard of the policy (a dotfile, what runs from the home, a credential
 * store, cordon's own config) or the home itself. WALK: what is in it is
 * looked through too (not in a cache of the home, where a tool keeps its
 * own clones, and often more files than are looked through). NULL: none
 * seen. */
static const char *reaches_code(const struct cordon_policy *p, const char *path, bool walk_in)
{
	/* The user's core.hooksPath (system, global): a relative one is one
	 * in every repository. */
	struct cordon_strv extra = {0}, mine = {0}, hooks = {0};
	int e = cordon_git_hooks_values(p->home, &(struct cordon_strv){0}, &mine);
	for (size_t i = 0; e >= 0 && i < mine.n; i++)
		e = mine.v[i][0] == '/' || (mine.v[i][0] == '~' && p->home)
			    ? cordon_git_hooks_resolve(
				      p->home, "/", &(struct cordon_strv){.v = &mine.v[i], .n = 1},
				      &hooks)
			    : cordon_strv_push(&extra, mine.v[i]);
	cordon_strv_free(&mine);
	const char *why = NULL;
	for (const char *c = path; !why && *c;) {
		c += strspn(c, "/");
		size_t n = comp_len(c);
		if (n && protected_name(p, &extra, c, n, true))
			why = why_path("it is or lies under a protected path of a repository",
				       path);
		c += n;
	}
	/* A git directory at or above it (a bare repository's hooks). */
	cleanup_free char *up = strdup(path);
	while (!why && up && up[0] == '/') {
		if (git_dir_at(AT_FDCWD, up))
			why = why_path("it is or lies in a git directory", up);
		char *slash = strrchr(up, '/');
		if (!slash || slash == up)
			break;
		*slash = '\0';
	}
	/* core.hooksPath: the repository's it lies in, the project's. */
	cleanup_free char *wt = why ? NULL : worktree_of(path);
	if (!why && e >= 0 && wt)
		e = repo_hooks(p->home, wt, &hooks);
	if (!why && e >= 0 && p->project)
		e = repo_hooks(p->home, p->project, &hooks);
	if (!why && e == -EFBIG)
		why = "a git config there is longer than cordon reads: cordon cannot tell where "
		      "git takes its hooks from";
	else if (!why && e < 0)
		why = "out of memory";
	for (size_t i = 0; !why && i < hooks.n; i++) {
		/* husky points git at .husky/_, whose scripts run .husky's. */
		size_t n = strlen(hooks.v[i]);
		if (n > 2 && strcmp(hooks.v[i] + n - 2, "/_") == 0)
			hooks.v[i][n - 2] = '\0';
		if (cordon_path_under(path, hooks.v[i]) || cordon_path_under(hooks.v[i], path))
			why = why_path("core.hooksPath names it, or a directory in it", hooks.v[i]);
	}
	cordon_strv_free(&hooks);
	if (!why && p->home && p->home[0] == '/' && cordon_path_under(p->home, path))
		why = "it contains your home: its dotfiles, and what runs from it, run outside";
	for (size_t i = 0; !why && i < p->n_guards; i++) {
		const struct cordon_guard *g = &p->guards[i];
		if (!(g->kind & (CORDON_GUARD_PROTECT | CORDON_GUARD_HIDE)) ||
		    (!cordon_path_under(path, g->path) && !cordon_path_under(g->path, path)))
			continue;
		why = why_guard(g);
	}
	/* What is in it. */
	int fd = why || !walk_in ? -1 : open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		char buf[PATH_MAX];
		size_t budget = WALK_MAX;
		snprintf(buf, sizeof(buf), "%s", path);
		why = walk(p, &extra, fd, buf, &budget, 0);
	}
	cordon_strv_free(&extra);
	return why;
}

const char *suggest_never_write(const struct cordon_policy *p, const char *path)
{
	static const char *const sys[] = {"/etc",      "/usr",         "/opt", "/var",   "/boot",
					  "/bin",      "/sbin",        "/lib", "/lib32", "/lib64",
					  "/libx32",   "/root",        "/srv", "/snap",  "/nix",
					  "/run/user", "/run/systemd", NULL};
	for (size_t i = 0; sys[i]; i++)
		if (cordon_path_under(path, sys[i]) && !cordon_path_under(path, "/var/tmp") &&
		    (!p->home || !cordon_path_under(path, p->home)))
			return "a system directory: what programs outside the session read or run "
			       "(make it writable by hand if you mean it)";
	const char *rel = home_rel(p->home, path);
	bool beneath;
	const char *why = suggest_code_cache(p->home, path, &beneath);
	if (why)
		return why;
	if (rel && !cache_like(rel))
		return "programs outside the session read or run what is in your home: only "
		       "caches are proposed (make it writable by hand if you mean it)";
	if (!rel && (why = prefix_code(path)))
		return why;
	return reaches_code(p, path, !rel);
}

static char *join_n(const char *base, const char *rel, size_t n)
{
	char *out;
	if (asprintf(&out, "%s/%.*s", base, (int)n, rel) < 0)
		return NULL;
	return out;
}

char *suggest_root(const char *home, const char *path, bool *tool)
{
	*tool = true;
	const char *rel = home_rel(home, path);
	if (rel && *rel == '.') {
		size_t n1 = comp_len(rel);
		const char *c2 = rel[n1] ? rel + n1 + 1 : NULL;
		if (comp_is(rel, ".config") || comp_is(rel, ".cache")) {
			if (c2)
				return join_n(home, rel, n1 + 1 + comp_len(c2));
			return strdup(path);
		}
		if (comp_is(rel, ".local")) {
			if (!c2)
				return strdup(path);
			size_t n2 = comp_len(c2);
			const char *c3 = c2[n2] ? c2 + n2 + 1 : NULL;
			if ((comp_is(c2, "share") || comp_is(c2, "state")) && c3)
				return join_n(home, rel, n1 + 1 + n2 + 1 + comp_len(c3));
			return join_n(home, rel, n1 + 1 + n2);
		}
		return join_n(home, rel, n1);
	}
	static const char *const bases[] = {"/opt", "/usr/local"};
	for (size_t i = 0; i < ARRAY_SIZE(bases); i++) {
		size_t bl = strlen(bases[i]);
		if (strncmp(path, bases[i], bl) == 0 && path[bl] == '/' && path[bl + 1])
			return join_n(bases[i], path + bl + 1, comp_len(path + bl + 1));
	}
	*tool = false;
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return strdup(path);
	char *dir = strdup(path);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	return dir;
}

const char *suggest_holds_programs(const char *dir, bool look_inside)
{
	static const char why[] = "it holds programs that also run outside the session";
	const char *base = strrchr(dir, '/');
	base = base ? base + 1 : dir;
	if (strcmp(base, "bin") == 0 || strcmp(base, "sbin") == 0 || strcmp(base, "shims") == 0 ||
	    strcmp(base, "libexec") == 0)
		return why;
	const char *path = getenv("PATH");
	for (const char *q = path ? path : ""; *q;) {
		size_t n = strcspn(q, ":");
		cleanup_free char *entry = strndup(q, n);
		cleanup_free char *canon = entry ? realpath(entry, NULL) : NULL;
		if (canon && cordon_path_under(canon, dir))
			return "it holds a directory on your PATH";
		q += n + (q[n] == ':');
	}
	DIR *d = look_inside ? opendir(dir) : NULL;
	if (!d)
		return NULL;
	const char *found = NULL;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		if (e->d_name[0] == '.' && (!e->d_name[1] || strcmp(e->d_name, "..") == 0))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, 0) < 0)
			continue;
		bool programs = S_ISDIR(st.st_mode) &&
				(strcmp(e->d_name, "bin") == 0 || strcmp(e->d_name, "shims") == 0);
		if (programs || (S_ISREG(st.st_mode) && (st.st_mode & 0111)))
			found = why;
	}
	closedir(d);
	return found;
}

bool suggest_is_library(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *so = strstr(base, ".so");
	return so && (so[3] == '\0' || so[3] == '.');
}

char *suggest_entry(const char *home, const char *path)
{
	const char *rel = home_rel(home, path);
	char *out;
	if (rel && *rel) {
		if (asprintf(&out, "~/%s", rel) < 0)
			return NULL;
		return out;
	}
	return strdup(path);
}
