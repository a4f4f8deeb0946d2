/* Toolchain presets: which directories a named toolchain needs, and with
 * which class. The policy adds them (shim/policy.c); `cordon check`
 * suggests them (launcher/check-toolchains.c). */
#include "cordon/toolchain.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "util.h"

/* Where an entry's path starts. */
enum root {
	ROOT_HOME,       /* ~ */
	ROOT_ABS,        /* the entry's path is absolute as written */
	ROOT_CACHE,      /* $XDG_CACHE_HOME, else ~/.cache */
	ROOT_CARGO,      /* $CARGO_HOME, else ~/.cargo */
	ROOT_RUSTUP,     /* $RUSTUP_HOME, else ~/.rustup */
	ROOT_PYENV,      /* $PYENV_ROOT, else ~/.pyenv */
	ROOT_NVM,        /* $NVM_DIR, else ~/.nvm */
	ROOT_GOPATH,     /* the first entry of $GOPATH, else ~/go */
	ROOT_GOMODCACHE, /* $GOMODCACHE, else GOPATH/pkg/mod */
	ROOT_GOCACHE,    /* $GOCACHE, else the cache root's go-build */
};

struct entry {
	enum root root;
	const char *rel; /* below the root ("" for the root itself) */
	enum cordon_class cls;
	bool file;
};

struct preset {
	const char *name;
	struct entry entries[10];
	const char *env[12];
};

/* Why each path, in short (the README has the long form):
 * - a tool's own tree is executable, not writable: `pyenv install`, `cargo
 *   install`, `npm -g` and `rustup update` write what runs outside later,
 *   so they belong outside the session;
 * - download caches are read-write, with cargo's lock files (cargo opens
 *   them O_CREAT in CARGO_HOME, which stays read-only);
 * - never CARGO_HOME as a whole (credentials.toml, bin/ and env run
 *   outside), never ~/.npmrc (registry tokens). */
static const struct preset presets[] = {
	{"python",
	 {{ROOT_PYENV, "", CORDON_CLASS_EXEC, false}, /* bin, shims, versions, plugins */
	  {ROOT_CACHE, "pip", CORDON_CLASS_RW, false}},
	 {"PYENV_ROOT", "PYENV_VERSION", NULL}},
	{"rust",
	 {{ROOT_CARGO, "bin", CORDON_CLASS_EXEC, false},
	  {ROOT_CARGO, "env", CORDON_CLASS_EXEC, true},
	  {ROOT_CARGO, "env.fish", CORDON_CLASS_EXEC, true},
	  {ROOT_RUSTUP, "", CORDON_CLASS_EXEC, false},
	  {ROOT_CARGO, "registry", CORDON_CLASS_RW, false},
	  {ROOT_CARGO, "git", CORDON_CLASS_RW, false},
	  {ROOT_CARGO, ".package-cache", CORDON_CLASS_RW, true},
	  {ROOT_CARGO, ".package-cache-mutate", CORDON_CLASS_RW, true},
	  {ROOT_CARGO, ".global-cache", CORDON_CLASS_RW, true}},
	 {"CARGO_HOME", "RUSTUP_HOME", "RUSTUP_TOOLCHAIN", NULL}},
	{"node",
	 {{ROOT_NVM, "", CORDON_CLASS_EXEC, false}, /* nvm.sh and the node versions */
	  {ROOT_HOME, ".npm", CORDON_CLASS_RW, false}},
	 {"NVM_DIR", NULL}},
	{"go",
	 {{ROOT_ABS, "/usr/local/go", CORDON_CLASS_EXEC, false},
	  {ROOT_GOPATH, "bin", CORDON_CLASS_EXEC, false},
	  {ROOT_GOMODCACHE, "", CORDON_CLASS_RW, false},
	  {ROOT_GOCACHE, "", CORDON_CLASS_RW, false}},
	 {"GOPATH", "GOROOT", "GOFLAGS", "GOPROXY", "GOPRIVATE", "GOCACHE", "GOMODCACHE",
	  "GONOSUMDB", "GONOPROXY", "GOTOOLCHAIN", NULL}},
	{"local-bin",
	 {{ROOT_HOME, ".local/bin", CORDON_CLASS_EXEC, false},
	  {ROOT_HOME, ".local/lib", CORDON_CLASS_RO, false},
	  {ROOT_HOME, ".local/share/pipx", CORDON_CLASS_EXEC, false},
	  {ROOT_HOME, ".local/pipx", CORDON_CLASS_EXEC, false}},
	 {NULL}},
};

const char *const cordon_toolchain_names[] = {"python", "rust", "node", "go", "local-bin", NULL};

const char *cordon_toolchain_names_text(void)
{
	return "python, rust, node, go, local-bin";
}

static const struct preset *find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
		if (strcmp(presets[i].name, name) == 0)
			return &presets[i];
	return NULL;
}

bool cordon_toolchain_known(const char *name)
{
	return find(name) != NULL;
}

const char *const *cordon_toolchain_env(const char *name)
{
	static const char *const none[] = {NULL};
	const struct preset *p = find(name);
	return p ? p->env : none;
}

/* $VAR when it is set to an absolute path (its first entry when LIST, as
 * GOPATH may hold several), without trailing slashes; else NULL. */
static char *env_dir(char *(*getenv_fn)(const char *), const char *var, bool list)
{
	const char *v = getenv_fn ? getenv_fn(var) : NULL;
	if (!v || v[0] != '/')
		return NULL;
	size_t n = list ? strcspn(v, ":") : strlen(v);
	while (n > 1 && v[n - 1] == '/')
		n--;
	return strndup(v, n);
}

static char *join(const char *dir, const char *rel)
{
	char *s;
	if (!*rel)
		return strdup(dir);
	if (asprintf(&s, "%s/%s", dir, rel) < 0)
		return NULL;
	return s;
}

/* The directory ROOT stands for: *OUT malloc'd (NULL when it cannot be
 * known: no home), *VAR the variable it came from (or NULL), *TOOL whether
 * it is a tool home (an entry below it is made only if it exists).
 * Returns 0 or -ENOMEM. */
static int root_dir(enum root root, const char *home, char *(*getenv_fn)(const char *), char **out,
		    const char **var, bool *tool)
{
	static const struct {
		enum root root;
		const char *var;
		const char *dflt; /* below the home */
	} homes[] = {
		{ROOT_CARGO, "CARGO_HOME", ".cargo"}, {ROOT_RUSTUP, "RUSTUP_HOME", ".rustup"},
		{ROOT_PYENV, "PYENV_ROOT", ".pyenv"}, {ROOT_NVM, "NVM_DIR", ".nvm"},
		{ROOT_GOPATH, "GOPATH", "go"},
	};
	*out = NULL;
	*var = NULL;
	*tool = false;
	switch (root) {
	case ROOT_ABS:
		return 0;
	case ROOT_HOME:
		if (home && !(*out = strdup(home)))
			return -ENOMEM;
		return 0;
	case ROOT_CACHE:
		if ((*out = env_dir(getenv_fn, "XDG_CACHE_HOME", false))) {
			*var = "XDG_CACHE_HOME";
			return 0;
		}
		if (home && !(*out = join(home, ".cache")))
			return -ENOMEM;
		return 0;
	case ROOT_GOMODCACHE:
	case ROOT_GOCACHE: {
		bool mod = root == ROOT_GOMODCACHE;
		const char *name = mod ? "GOMODCACHE" : "GOCACHE";
		if ((*out = env_dir(getenv_fn, name, false))) {
			*var = name;
			return 0;
		}
		cleanup_free char *base = NULL;
		bool ignored;
		int r = root_dir(mod ? ROOT_GOPATH : ROOT_CACHE, home, getenv_fn, &base, var,
				 &ignored);
		if (r < 0 || !base)
			return r;
		if (!(*out = join(base, mod ? "pkg/mod" : "go-build")))
			return -ENOMEM;
		return 0;
	}
	case ROOT_CARGO:
	case ROOT_RUSTUP:
	case ROOT_PYENV:
	case ROOT_NVM:
	case ROOT_GOPATH:
		break;
	}
	for (size_t i = 0; i < ARRAY_SIZE(homes); i++) {
		if (homes[i].root != root)
			continue;
		*tool = root != ROOT_GOPATH; /* ~/go/pkg/mod is made without a ~/go */
		if ((*out = env_dir(getenv_fn, homes[i].var, root == ROOT_GOPATH))) {
			*var = homes[i].var;
			return 0;
		}
		if (home && !(*out = join(home, homes[i].dflt)))
			return -ENOMEM;
		return 0;
	}
	return 0;
}

int cordon_toolchain_each(const char *name, const char *home, char *(*getenv_fn)(const char *),
			  int (*fn)(const struct cordon_toolchain_entry *e, void *data), void *data)
{
	const struct preset *p = find(name);
	if (!p)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(p->entries) && p->entries[i].rel; i++) {
		const struct entry *en = &p->entries[i];
		cleanup_free char *root = NULL;
		const char *var;
		bool tool;
		int r = root_dir(en->root, home, getenv_fn, &root, &var, &tool);
		if (r < 0)
			return r;
		if (en->root != ROOT_ABS && !root)
			continue; /* "~/..." without a home */
		cleanup_free char *path =
			en->root == ROOT_ABS ? strdup(en->rel) : join(root, en->rel);
		if (!path)
			return -ENOMEM;
		struct cordon_toolchain_entry e = {
			.path = path,
			.cls = en->cls,
			.file = en->file,
			.var = var,
			.tool_home = tool ? root : NULL,
		};
		r = fn(&e, data);
		if (r < 0)
			return r;
	}
	return 0;
}

struct match {
	const char *path;
	bool found;
};

static int match_entry(const struct cordon_toolchain_entry *e, void *data)
{
	struct match *m = data;
	if (cordon_path_under(m->path, e->path)) {
		m->found = true;
		return 0;
	}
	cleanup_free char *canon = realpath(e->path, NULL);
	if (canon && cordon_path_under(m->path, canon))
		m->found = true;
	return 0;
}

const char *cordon_toolchain_for_path(const char *abs_path, const char *home,
				      char *(*getenv_fn)(const char *))
{
	if (!abs_path || abs_path[0] != '/')
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(presets); i++) {
		struct match m = {.path = abs_path};
		if (cordon_toolchain_each(presets[i].name, home, getenv_fn, match_entry, &m) < 0)
			return NULL;
		if (m.found)
			return presets[i].name;
	}
	return NULL;
}

int cordon_toolchain_make(const struct cordon_toolchain_entry *e, const char *home, bool dry)
{
	struct stat st;
	if (e->cls != CORDON_CLASS_RW || !home || home[0] != '/' || strcmp(home, "/") == 0 ||
	    !cordon_path_under(e->path, home) || strcmp(e->path, home) == 0)
		return 0;
	if (lstat(e->path, &st) == 0 || errno != ENOENT)
		return 0;
	if (e->tool_home && (stat(e->tool_home, &st) < 0 || !S_ISDIR(st.st_mode)))
		return 0;
	if (dry)
		return 1;
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof(buf), "%s", e->path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	/* Each missing directory from the home down; the last one is the
	 * lock file's directory when E is a file. */
	char *end = e->file ? strrchr(buf, '/') : buf + strlen(buf);
	for (char *slash = buf + strlen(home) + 1;; slash++) {
		slash = strchr(slash, '/');
		if (!slash || slash > end)
			slash = end;
		char saved = *slash;
		*slash = '\0';
		int r = mkdir(buf, 0700);
		*slash = saved;
		if (r < 0 && errno != EEXIST)
			return -errno;
		cordon_path_made();
		if (slash == end)
			break;
	}
	if (e->file) {
		int fd = open(e->path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			return -errno;
		close(fd);
	}
	return 1;
}
