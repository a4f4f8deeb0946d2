/* What cordon learn and cordon explain may propose (suggest.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	if (cordon_policy_hidden(p, path))
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
	if (rel && !cache_like(rel))
		return "programs outside the session read or run what is in your home: only "
		       "caches are proposed (make it writable by hand if you mean it)";
	return NULL;
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
